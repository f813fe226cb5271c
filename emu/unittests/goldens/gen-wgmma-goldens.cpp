//===- gen-wgmma-goldens.cpp - CUTLASS's wgmma layouts as a golden file ---===//
//
// Writes wgmma-layouts.txt: for each shared-memory tile CUTLASS builds for
// a wgmma operand (tile_to_shape of a GMMA layout atom), each k-block's
// descriptor (make_gmma_desc, as the GMMA fragment iterator advances it)
// and the swizzled byte address CUTLASS's layout gives each element of the
// block. LayoutsTest.cpp checks decodeWgmmaDescriptor and
// wgmmaElementAddress against every row. Host code only: see README.md for
// the build line and where the CUTLASS headers come from.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>

// make_gmma_desc reads the shared address of its tensor through
// cast_smem_ptr_to_uint, which on the host has no cvta. The generator's
// "shared" pointers are plain numbers that are never dereferenced, so the
// conversion is the identity.
inline std::size_t __cvta_generic_to_shared(const void *pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer);
}
#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1

#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/tensor.hpp>
#include <cutlass/version.h>

#include <cstdio>
#include <type_traits>
#include <utility>

using namespace cute;
using SM90::GMMA::Major;

namespace {

// 1024-byte aligned, as the 128-byte swizzle's repeat requires, and not
// aligned further so that the address bits above the repeat are non-zero.
constexpr std::uintptr_t kTileAddress = 0x2c00;

enum class Mode { Interleave, B32, B64, B128 };

const char *modeName(Mode mode) {
  switch (mode) {
  case Mode::Interleave:
    return "none";
  case Mode::B32:
    return "32";
  case Mode::B64:
    return "64";
  case Mode::B128:
    return "128";
  }
  return "?";
}

template <class T, Major M, Mode S> auto atom() {
  using namespace SM90::GMMA;
  if constexpr (M == Major::K) {
    if constexpr (S == Mode::Interleave)
      return Layout_K_INTER_Atom<T>{};
    else if constexpr (S == Mode::B32)
      return Layout_K_SW32_Atom<T>{};
    else if constexpr (S == Mode::B64)
      return Layout_K_SW64_Atom<T>{};
    else
      return Layout_K_SW128_Atom<T>{};
  } else {
    if constexpr (S == Mode::Interleave)
      return Layout_MN_INTER_Atom<T>{};
    else if constexpr (S == Mode::B32)
      return Layout_MN_SW32_Atom<T>{};
    else if constexpr (S == Mode::B64)
      return Layout_MN_SW64_Atom<T>{};
    else
      return Layout_MN_SW128_Atom<T>{};
  }
}

struct Counts {
  int slices = 0;
  int elements = 0;
  int skipped = 0;
};

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "gen-wgmma-goldens: %s\n", what);
  std::exit(1);
}

/// The swizzled address CUTLASS gives element (mn, k) of `block`. The
/// reference is only formed, never read: swizzle_ptr applies the swizzle to
/// the address it refers to.
template <class Block> std::uintptr_t addressOf(Block &block, int mn, int k) {
  return reinterpret_cast<std::uintptr_t>(&block(mn, k));
}

/// Writes one k-block as lines of 16-byte chunk addresses: K-major, per
/// row mn the chunks along k; MN-major, per k the chunks along mn. Checks
/// first that every element sits in its chunk where the chunk's first
/// element plus its index says (the swizzle moves whole chunks), so the
/// chunk addresses stand for all elements.
template <Major M, int Bytes, int MN, int InstK, class Block>
void emitChunks(std::FILE *out, Block &block) {
  constexpr int kPerChunk = 16 / Bytes;
  for (int mn = 0; mn < MN; ++mn)
    for (int k = 0; k < InstK; ++k) {
      int mnLead = M == Major::K ? mn : mn - mn % kPerChunk;
      int kLead = M == Major::K ? k - k % kPerChunk : k;
      int inChunk = M == Major::K ? k % kPerChunk : mn % kPerChunk;
      if (addressOf(block, mn, k) !=
          addressOf(block, mnLead, kLead) + inChunk * Bytes)
        fail("an element is not in its 16-byte chunk");
    }
  int lines = M == Major::K ? MN : InstK;
  int chunks = M == Major::K ? InstK / kPerChunk : MN / kPerChunk;
  for (int line = 0; line < lines; ++line) {
    std::fprintf(out, "%d", line);
    for (int chunk = 0; chunk < chunks; ++chunk) {
      std::uintptr_t address = M == Major::K
                                   ? addressOf(block, line, chunk * kPerChunk)
                                   : addressOf(block, chunk * kPerChunk, line);
      std::fprintf(out, " %lx", static_cast<unsigned long>(address));
    }
    std::fprintf(out, "\n");
  }
}

/// One tile: (MN, KTile) elements of T, the atoms tiled MN first (CUTLASS's
/// default, Step<_1,_2>) or K first (Step<_2,_1>; written only where both
/// dimensions hold several atoms, since otherwise it is the same layout).
template <class T, Major M, Mode S, int MN, int KTile, bool KFirst>
void emitTile(std::FILE *out, Counts &counts) {
  constexpr int kBytes = sizeof_bits_v<T> / 8;
  constexpr int kInstK = 32 / kBytes; // 256 bits of K per instruction
  using Atom = decltype(atom<T, M, S>());
  constexpr int kAtomMN = decltype(size<0>(Atom{}))::value;
  constexpr int kAtomK = decltype(size<1>(Atom{}))::value;
  const char *major = M == Major::K ? "K" : "MN";
  if constexpr (MN % kAtomMN != 0 || KTile % kAtomK != 0) {
    if (!KFirst) {
      std::fprintf(out,
                   "# skipped: %s-major %dB swizzle %s %dx%d (atom %dx%d)\n",
                   major, kBytes, modeName(S), MN, KTile, kAtomMN, kAtomK);
      ++counts.skipped;
    }
  } else if constexpr (KFirst && (MN == kAtomMN || KTile == kAtomK)) {
    return;
  } else {
    using Order = std::conditional_t<KFirst, Step<_2, _1>, Step<_1, _2>>;
    auto layout = tile_to_shape(Atom{}, Shape<Int<MN>, Int<KTile>>{}, Order{});
    auto tile =
        make_tensor(make_smem_ptr(reinterpret_cast<T *>(kTileAddress)), layout);
    using Block = Shape<Int<MN>, Int<kInstK>>;
    // The GMMA fragment iterator hands k-block b the first block's
    // descriptor plus the block's unswizzled offset in 16-byte units; check
    // that it is what make_gmma_desc gives the block itself.
    auto first = local_tile(tile, Block{}, make_coord(0, 0));
    GmmaDescriptor base = SM90::GMMA::make_gmma_desc<M>(first);
    for (int kBlock = 0; kBlock < KTile / kInstK; ++kBlock) {
      auto block = local_tile(tile, Block{}, make_coord(0, kBlock));
      GmmaDescriptor desc = SM90::GMMA::make_gmma_desc<M>(block);
      auto offset = layout.layout_b()(0, kBlock * kInstK) * kBytes / 16;
      SM90::GMMA::DescriptorIterator iterator{base};
      if (desc.desc_ != (*(iterator + offset)).desc_)
        fail("the descriptor iterator disagrees with make_gmma_desc");
      auto &bits = desc.bitfield;
      std::fprintf(out, "slice %s %d %s %s %d %d %d %016llx %x %x %x %x %x\n",
                   major, kBytes, modeName(S), KFirst ? "k" : "mn", MN, KTile,
                   kBlock, static_cast<unsigned long long>(desc.desc_),
                   unsigned(bits.start_address_),
                   unsigned(bits.leading_byte_offset_),
                   unsigned(bits.stride_byte_offset_),
                   unsigned(bits.base_offset_), unsigned(bits.layout_type_));
      emitChunks<M, kBytes, MN, kInstK>(out, block);
      ++counts.slices;
      counts.elements += MN * kInstK;
    }
  }
}

template <class T, Major M, Mode S, int MN, int... KTiles>
void emitShapes(std::FILE *out, Counts &counts) {
  (emitTile<T, M, S, MN, KTiles, false>(out, counts), ...);
  (emitTile<T, M, S, MN, KTiles, true>(out, counts), ...);
}

template <class T, Major M, Mode S> void emitMode(std::FILE *out, Counts &c) {
  constexpr int kInstK = 32 / (sizeof_bits_v<T> / 8);
  // fa4's operands: A is 64 rows, B up to 256 columns; one instruction's K
  // and a 4-instruction tile.
  emitShapes<T, M, S, 64, kInstK, 4 * kInstK>(out, c);
  emitShapes<T, M, S, 96, kInstK, 4 * kInstK>(out, c);
  emitShapes<T, M, S, 128, kInstK, 4 * kInstK>(out, c);
  emitShapes<T, M, S, 176, kInstK, 4 * kInstK>(out, c);
  emitShapes<T, M, S, 256, kInstK, 4 * kInstK>(out, c);
}

template <class T> void emitType(std::FILE *out, Counts &c) {
  emitMode<T, Major::K, Mode::Interleave>(out, c);
  emitMode<T, Major::K, Mode::B32>(out, c);
  emitMode<T, Major::K, Mode::B64>(out, c);
  emitMode<T, Major::K, Mode::B128>(out, c);
  emitMode<T, Major::MN, Mode::Interleave>(out, c);
  emitMode<T, Major::MN, Mode::B32>(out, c);
  emitMode<T, Major::MN, Mode::B64>(out, c);
  emitMode<T, Major::MN, Mode::B128>(out, c);
}

/// Descriptors built field by field through CUTLASS's bitfield union: the
/// field values, then the 64 bits.
void emitBitfields(std::FILE *out) {
  struct Fields {
    unsigned start, leading, stride, base, layout;
  };
  const Fields cases[] = {
      {0x3fff, 0, 0, 0, 0},
      {0, 0x3fff, 0, 0, 0},
      {0, 0, 0x3fff, 0, 0},
      {0, 0, 0, 7, 0},
      {0, 0, 0, 0, 3},
      {0x2c2, 1, 64, 0, 1},
      {0x1234, 0x567, 0xabc, 5, 2},
      {0x0800, 0x40, 0x20, 3, 3},
  };
  for (const Fields &f : cases) {
    GmmaDescriptor desc;
    desc.bitfield.start_address_ = f.start;
    desc.bitfield.leading_byte_offset_ = f.leading;
    desc.bitfield.stride_byte_offset_ = f.stride;
    desc.bitfield.base_offset_ = f.base;
    desc.bitfield.layout_type_ = f.layout;
    std::fprintf(out, "bitfield %x %x %x %x %x %016llx\n", f.start, f.leading,
                 f.stride, f.base, f.layout,
                 static_cast<unsigned long long>(desc.desc_));
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT\n", argv[0]);
    return 2;
  }
  std::FILE *out = std::fopen(argv[1], "w");
  if (!out)
    return 1;
  std::fprintf(out,
               "# wgmma operand layouts from CUTLASS %d.%d.%d's cute (GMMA "
               "atoms, make_gmma_desc); regenerate with "
               "gen-wgmma-goldens.cpp (README.md).\n"
               "# bitfield START LBO SBO BASE LAYOUT DESC: fields set "
               "through GmmaDescriptor's bitfield.\n"
               "# slice MAJOR BYTES SWIZZLE ORDER MN KTILE KBLOCK DESC "
               "START LBO SBO BASE LAYOUT: one wgmma's operand (MN x "
               "256 bits of K) at k-block KBLOCK of an MN x KTILE tile at "
               "0x%lx, atoms tiled ORDER first;\n"
               "# then its 16-byte chunks' swizzled shared addresses (hex): "
               "K-major, a line per row mn (MN, then the chunks along k); "
               "MN-major, a line per k (K, then the chunks along mn). An "
               "element is at its chunk's address plus its index in the "
               "chunk times BYTES (the generator checks this for every "
               "element).\n",
               CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH,
               static_cast<unsigned long>(kTileAddress));
  emitBitfields(out);
  Counts counts;
  emitType<bfloat16_t>(out, counts);
  emitType<float_e4m3_t>(out, counts);
  emitType<tfloat32_t>(out, counts);
  std::fclose(out);
  std::printf("%d slices, %d elements, %d tiles skipped\n", counts.slices,
              counts.elements, counts.skipped);
  return 0;
}
