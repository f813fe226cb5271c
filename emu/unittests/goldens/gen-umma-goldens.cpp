//===- gen-umma-goldens.cpp - CUTLASS's tcgen05 (UMMA) descriptors --------===//
//
// Writes umma-layouts.txt, the sm_100a counterpart of wgmma-layouts.txt:
// - the 32-bit instruction descriptors CUTLASS builds for
//   tcgen05.mma.kind::f16 with f32 accumulators (MMA_Traits of
//   SM100_MMA_F16BF16_SS and _2x1SM_SS: make_instr_desc, checked against
//   make_runtime_instr_desc), with the fields CUTLASS set;
// - InstrDescriptor and SmemDescriptor values built field by field through
//   CUTLASS's bitfield unions (the fields make_instr_desc and make_umma_desc
//   leave at zero);
// - for each shared-memory tile CUTLASS builds for a tcgen05.mma operand
//   (tile_to_shape of a UMMA layout atom), each k-block's shared-memory
//   descriptor (make_umma_desc, checked against the descriptor the MMA's
//   operand fragment holds for that k-block) and the swizzled byte address
//   CUTLASS's layout gives each element of the block.
// LayoutsTest.cpp checks decodeTcgen05Instruction, decodeTcgen05Descriptor
// and wgmmaElementAddress against every row. Host code only: see README.md
// for the build line and where the CUTLASS headers come from.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>

// make_umma_desc reads the shared address of its tensor through
// cast_smem_ptr_to_uint, which on the host has no cvta. The generator's
// "shared" pointers are plain numbers that are never dereferenced, so the
// conversion is the identity.
inline std::size_t __cvta_generic_to_shared(const void *pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer);
}
#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1

#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/tensor.hpp>
#include <cutlass/version.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

using namespace cute;
using UMMA::Major;

namespace {

// 1024-byte aligned, as the 128-byte swizzle's repeat requires, and not
// aligned further so that the address bits above the repeat are non-zero.
constexpr std::uintptr_t kTileAddress = 0x2c00;

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "gen-umma-goldens: %s\n", what);
  std::exit(1);
}

//===----------------------------------------------------------------------===//
// Instruction descriptors
//===----------------------------------------------------------------------===//

template <class T> const char *typeName() {
  return std::is_same_v<T, half_t> ? "f16" : "bf16";
}

const char *majorName(Major major) { return major == Major::K ? "K" : "MN"; }

/// One instruction descriptor, as the MMA atom CUTLASS would issue holds it.
/// Instantiating the op runs its static_asserts on M and N, so only shapes
/// CUTLASS accepts are written.
template <int CtaGroup, class TA, class TB, int M, int N, Major AMajor,
          Major BMajor, UMMA::ScaleIn NegA, UMMA::ScaleIn NegB>
void emitInstr(std::FILE *out, int &rows) {
  using Op = std::conditional_t<
      CtaGroup == 1,
      SM100_MMA_F16BF16_SS<TA, TB, float, M, N, AMajor, BMajor, NegA, NegB>,
      SM100_MMA_F16BF16_2x1SM_SS<TA, TB, float, M, N, AMajor, BMajor, NegA,
                                 NegB>>;
  static_assert(sizeof(Op) > 0);
  UMMA::InstrDescriptor d = MMA_Traits<Op>{}.idesc_;
  // What mma_unpack hands the instruction: the upper half of idescE.
  uint64_t runtime = UMMA::make_runtime_instr_desc<>(d);
  if (uint32_t(runtime >> 32) != d.desc_)
    fail("make_runtime_instr_desc disagrees with idesc_");
  UMMA::InstrDescriptor direct =
      UMMA::make_instr_desc<TA, TB, float, M, N, AMajor, BMajor, NegA, NegB>();
  if (direct.desc_ != d.desc_)
    fail("make_instr_desc disagrees with MMA_Traits::idesc_");
  std::fprintf(out,
               "instr %d %s %s f32 %s %s %d %d %d %d %08x  %u %u %u %u %u %u "
               "%u %u %u %u %u %u %u\n",
               CtaGroup, typeName<TA>(), typeName<TB>(), majorName(AMajor),
               majorName(BMajor), int(NegA), int(NegB), M, N, d.desc_,
               unsigned(d.sparse_id2_), unsigned(d.sparse_flag_),
               unsigned(d.saturate_), unsigned(d.c_format_),
               unsigned(d.a_format_), unsigned(d.b_format_),
               unsigned(d.a_negate_), unsigned(d.b_negate_),
               unsigned(d.a_major_), unsigned(d.b_major_), unsigned(d.n_dim_),
               unsigned(d.m_dim_), unsigned(d.max_shift_));
  ++rows;
}

template <int CtaGroup, class T, int M, int N, Major AMajor, Major BMajor>
void emitNegates(std::FILE *out, int &rows) {
  using UMMA::ScaleIn;
  emitInstr<CtaGroup, T, T, M, N, AMajor, BMajor, ScaleIn::One, ScaleIn::One>(
      out, rows);
  emitInstr<CtaGroup, T, T, M, N, AMajor, BMajor, ScaleIn::Neg, ScaleIn::One>(
      out, rows);
  emitInstr<CtaGroup, T, T, M, N, AMajor, BMajor, ScaleIn::One, ScaleIn::Neg>(
      out, rows);
  emitInstr<CtaGroup, T, T, M, N, AMajor, BMajor, ScaleIn::Neg, ScaleIn::Neg>(
      out, rows);
}

template <int CtaGroup, class T, int M, int N>
void emitMajors(std::FILE *out, int &rows) {
  emitNegates<CtaGroup, T, M, N, Major::K, Major::K>(out, rows);
  emitNegates<CtaGroup, T, M, N, Major::K, Major::MN>(out, rows);
  emitNegates<CtaGroup, T, M, N, Major::MN, Major::K>(out, rows);
  emitNegates<CtaGroup, T, M, N, Major::MN, Major::MN>(out, rows);
}

template <class T> void emitInstrType(std::FILE *out, int &rows) {
  // cta_group::1: M 64 or 128, N a multiple of 8 in [8, 256].
  emitMajors<1, T, 64, 8>(out, rows);
  emitMajors<1, T, 64, 16>(out, rows);
  emitMajors<1, T, 64, 64>(out, rows);
  emitMajors<1, T, 64, 128>(out, rows);
  emitMajors<1, T, 64, 256>(out, rows);
  emitMajors<1, T, 128, 8>(out, rows);
  emitMajors<1, T, 128, 16>(out, rows);
  emitMajors<1, T, 128, 64>(out, rows);
  emitMajors<1, T, 128, 128>(out, rows);
  emitMajors<1, T, 128, 256>(out, rows);
  // cta_group::2: M 128 or 256, N a multiple of 16 in [16, 256].
  emitMajors<2, T, 128, 16>(out, rows);
  emitMajors<2, T, 128, 64>(out, rows);
  emitMajors<2, T, 128, 128>(out, rows);
  emitMajors<2, T, 128, 256>(out, rows);
  emitMajors<2, T, 256, 16>(out, rows);
  emitMajors<2, T, 256, 64>(out, rows);
  emitMajors<2, T, 256, 128>(out, rows);
  emitMajors<2, T, 256, 256>(out, rows);
}

template <class T> const char *f8TypeName() {
  return std::is_same_v<T, float_e4m3_t> ? "e4m3" : "e5m2";
}

/// One kind::f8f6f4 instruction descriptor (cta_group::1), as
/// MMA_Traits<SM100_MMA_F8F6F4_SS, ...>::idesc_ holds it: the same fields as
/// kind::f16's, A_FORMAT and B_FORMAT now MXF8F6F4Format (E4M3 0, E5M2 1).
template <class TA, class TB, int M, int N, Major AMajor, Major BMajor,
          UMMA::ScaleIn NegA>
void emitInstrF8(std::FILE *out, int &rows) {
  using UMMA::ScaleIn;
  using Traits = MMA_Traits<SM100_MMA_F8F6F4_SS, TA, TB, float, C<M>, C<N>,
                            integral_constant<Major, AMajor>,
                            integral_constant<Major, BMajor>,
                            integral_constant<ScaleIn, NegA>,
                            integral_constant<ScaleIn, ScaleIn::One>>;
  UMMA::InstrDescriptor d = Traits{}.idesc_;
  UMMA::InstrDescriptor direct =
      UMMA::make_instr_desc<TA, TB, float, M, N, AMajor, BMajor, NegA,
                            ScaleIn::One>();
  if (direct.desc_ != d.desc_)
    fail("make_instr_desc disagrees with the f8f6f4 MMA_Traits::idesc_");
  std::fprintf(
      out,
      "instrf8 1 %s %s f32 %s %s %d 0 %d %d %08x  %u %u %u %u %u %u "
      "%u %u %u %u %u %u %u\n",
      f8TypeName<TA>(), f8TypeName<TB>(), majorName(AMajor), majorName(BMajor),
      int(NegA), M, N, d.desc_, unsigned(d.sparse_id2_),
      unsigned(d.sparse_flag_), unsigned(d.saturate_), unsigned(d.c_format_),
      unsigned(d.a_format_), unsigned(d.b_format_), unsigned(d.a_negate_),
      unsigned(d.b_negate_), unsigned(d.a_major_), unsigned(d.b_major_),
      unsigned(d.n_dim_), unsigned(d.m_dim_), unsigned(d.max_shift_));
  ++rows;
}

template <class TA, class TB, int M, int N>
void emitF8Majors(std::FILE *out, int &rows) {
  using UMMA::ScaleIn;
  emitInstrF8<TA, TB, M, N, Major::K, Major::K, ScaleIn::One>(out, rows);
  emitInstrF8<TA, TB, M, N, Major::K, Major::K, ScaleIn::Neg>(out, rows);
  emitInstrF8<TA, TB, M, N, Major::K, Major::MN, ScaleIn::One>(out, rows);
  emitInstrF8<TA, TB, M, N, Major::MN, Major::K, ScaleIn::One>(out, rows);
  emitInstrF8<TA, TB, M, N, Major::MN, Major::MN, ScaleIn::One>(out, rows);
}

template <class TA, class TB> void emitInstrF8Types(std::FILE *out, int &rows) {
  // B MN-major needs N a multiple of 16.
  emitF8Majors<TA, TB, 64, 16>(out, rows);
  emitF8Majors<TA, TB, 128, 64>(out, rows);
  emitF8Majors<TA, TB, 128, 128>(out, rows);
  emitF8Majors<TA, TB, 128, 256>(out, rows);
  emitInstrF8<TA, TB, 128, 8, Major::K, Major::K, UMMA::ScaleIn::One>(out,
                                                                      rows);
}

/// InstrDescriptor values with one field (or a few) set through CUTLASS's
/// bitfield union, for the fields kind::f16 descriptors leave at zero.
void emitInstrBitfields(std::FILE *out, int &rows) {
  struct Fields {
    unsigned sparseId2, sparse, saturate, cFormat, aFormat, bFormat, aNeg, bNeg,
        aMajor, bMajor, n, m, maxShift;
  };
  const Fields cases[] = {
      {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 63, 0, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 31, 0},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3},
      {0, 0, 0, 1, 2, 2, 1, 1, 1, 1, 32, 8, 0},
      {2, 1, 1, 2, 5, 3, 0, 1, 1, 0, 21, 17, 2},
  };
  for (const Fields &f : cases) {
    UMMA::InstrDescriptor d{};
    d.sparse_id2_ = f.sparseId2;
    d.sparse_flag_ = f.sparse;
    d.saturate_ = f.saturate;
    d.c_format_ = f.cFormat;
    d.a_format_ = f.aFormat;
    d.b_format_ = f.bFormat;
    d.a_negate_ = f.aNeg;
    d.b_negate_ = f.bNeg;
    d.a_major_ = f.aMajor;
    d.b_major_ = f.bMajor;
    d.n_dim_ = f.n;
    d.m_dim_ = f.m;
    d.max_shift_ = f.maxShift;
    std::fprintf(
        out, "instrbits %08x  %u %u %u %u %u %u %u %u %u %u %u %u %u\n",
        d.desc_, f.sparseId2, f.sparse, f.saturate, f.cFormat, f.aFormat,
        f.bFormat, f.aNeg, f.bNeg, f.aMajor, f.bMajor, f.n, f.m, f.maxShift);
    ++rows;
  }
}

/// SmemDescriptor values built field by field through CUTLASS's bitfield
/// union: every field at its maximum, and each layout type.
void emitDescBitfields(std::FILE *out, int &rows) {
  struct Fields {
    unsigned start, leading, stride, version, base, lboMode, layout;
  };
  const Fields cases[] = {
      {0x3fff, 0, 0, 1, 0, 0, 0},
      {0, 0x3fff, 0, 1, 0, 0, 0},
      {0, 0, 0x3fff, 1, 0, 0, 0},
      {0, 0, 0, 1, 7, 0, 2},
      {0, 0, 0, 0, 0, 0, 0},
      {0, 0, 0, 3, 0, 0, 0},
      {0, 0, 0, 1, 0, 1, 0},
      {0x2c2, 1, 64, 1, 0, 0, 2},
      {0x1234, 0x567, 0xabc, 1, 5, 0, 4},
      {0x0800, 0x40, 0x20, 1, 3, 0, 6},
      {0, 0, 0, 1, 0, 0, 1},
      {0, 0, 0, 1, 0, 0, 3},
      {0, 0, 0, 1, 0, 0, 5},
      {0, 0, 0, 1, 0, 0, 7},
  };
  for (const Fields &f : cases) {
    UMMA::SmemDescriptor d;
    d.start_address_ = f.start;
    d.leading_byte_offset_ = f.leading;
    d.stride_byte_offset_ = f.stride;
    d.version_ = f.version;
    d.base_offset_ = f.base;
    d.lbo_mode_ = f.lboMode;
    d.layout_type_ = f.layout;
    std::fprintf(out, "descbits %x %x %x %x %x %x %x %016llx\n", f.start,
                 f.leading, f.stride, f.version, f.base, f.lboMode, f.layout,
                 static_cast<unsigned long long>(d.desc_));
    ++rows;
  }
}

//===----------------------------------------------------------------------===//
// Shared-memory operand tiles
//===----------------------------------------------------------------------===//

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
  if constexpr (M == Major::K) {
    if constexpr (S == Mode::Interleave)
      return UMMA::Layout_K_INTER_Atom<T>{};
    else if constexpr (S == Mode::B32)
      return UMMA::Layout_K_SW32_Atom<T>{};
    else if constexpr (S == Mode::B64)
      return UMMA::Layout_K_SW64_Atom<T>{};
    else
      return UMMA::Layout_K_SW128_Atom<T>{};
  } else {
    if constexpr (S == Mode::Interleave)
      return UMMA::Layout_MN_INTER_Atom<T>{};
    else if constexpr (S == Mode::B32)
      return UMMA::Layout_MN_SW32_Atom<T>{};
    else if constexpr (S == Mode::B64)
      return UMMA::Layout_MN_SW64_Atom<T>{};
    else
      return UMMA::Layout_MN_SW128_Atom<T>{};
  }
}

struct Counts {
  int slices = 0;
  long elements = 0;
  int skipped = 0;
};

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

void printDesc(std::FILE *out, UMMA::SmemDescriptor d) {
  std::fprintf(out, "%016llx %x %x %x %x %x %x %x",
               static_cast<unsigned long long>(d.desc_),
               unsigned(d.start_address_), unsigned(d.leading_byte_offset_),
               unsigned(d.stride_byte_offset_), unsigned(d.version_),
               unsigned(d.base_offset_), unsigned(d.lbo_mode_),
               unsigned(d.layout_type_));
}

/// The operand fragment a tcgen05.mma atom makes of `tile` (M = 128; N =
/// the tile's MN for B): one descriptor per k-block, as the mainloop hands
/// them to the instruction.
template <class T, bool IsA, Major M, int MN, class Tile>
auto operandFragment(Tile &tile) {
  using Op = SM100_MMA_F16BF16_SS<T, T, float, 128, IsA ? 64 : MN, M, M>;
  auto mma = make_tiled_mma(Op{});
  auto thread = mma.get_slice(0);
  if constexpr (IsA)
    return thread.make_fragment_A(thread.partition_A(tile));
  else
    return thread.make_fragment_B(thread.partition_B(tile));
}

/// One tile: (MN, KTile) elements of T, the atoms tiled MN first (CUTLASS's
/// default, Step<_1,_2>) or K first (Step<_2,_1>; written only where both
/// dimensions hold several atoms, since otherwise it is the same layout).
template <class T, bool IsA, Major M, Mode S, int MN, int KTile, bool KFirst>
void emitTile(std::FILE *out, Counts &counts) {
  constexpr int kBytes = sizeof_bits_v<T> / 8;
  constexpr int kInstK = 32 / kBytes; // 256 bits of K per instruction
  using Atom = decltype(atom<T, M, S>());
  constexpr int kAtomMN = decltype(size<0>(Atom{}))::value;
  constexpr int kAtomK = decltype(size<1>(Atom{}))::value;
  const char *operand = IsA ? "A" : "B";
  const char *major = majorName(M);
  if constexpr (MN % kAtomMN != 0 || KTile % kAtomK != 0) {
    if (!KFirst) {
      std::fprintf(
          out, "# skipped: %s %s-major %dB swizzle %s %dx%d (atom %dx%d)\n",
          operand, major, kBytes, modeName(S), MN, KTile, kAtomMN, kAtomK);
      ++counts.skipped;
    }
  } else if constexpr (KFirst && (MN == kAtomMN || KTile == kAtomK)) {
    return;
  } else {
    using Order = std::conditional_t<KFirst, Step<_2, _1>, Step<_1, _2>>;
    auto layout = tile_to_shape(Atom{}, Shape<Int<MN>, Int<KTile>>{}, Order{});
    auto tile =
        make_tensor(make_smem_ptr(reinterpret_cast<T *>(kTileAddress)), layout);
    auto fragment = operandFragment<T, IsA, M, MN>(tile);
    if (size(fragment) != KTile / kInstK)
      fail("the operand fragment does not hold one descriptor per k-block");
    using Block = Shape<Int<MN>, Int<kInstK>>;
    for (int kBlock = 0; kBlock < KTile / kInstK; ++kBlock) {
      auto block = local_tile(tile, Block{}, make_coord(0, kBlock));
      UMMA::SmemDescriptor desc = UMMA::make_umma_desc<M>(block);
      UMMA::SmemDescriptor issued = fragment(0, 0, kBlock);
      if (desc.desc_ != issued.desc_)
        fail("the operand fragment disagrees with make_umma_desc");
      std::fprintf(out, "slice %s %s %d %s %s %d %d %d ", operand, major,
                   kBytes, modeName(S), KFirst ? "k" : "mn", MN, KTile, kBlock);
      printDesc(out, desc);
      std::fprintf(out, "\n");
      emitChunks<M, kBytes, MN, kInstK>(out, block);
      ++counts.slices;
      counts.elements += MN * kInstK;
    }
  }
}

template <class T, bool IsA, Major M, Mode S, int MN>
void emitShapes(std::FILE *out, Counts &counts) {
  constexpr int kInstK = 32 / (sizeof_bits_v<T> / 8);
  // One instruction's K, a 4-instruction tile (64 elements: one 128-byte
  // row) and, K-major, an 8-instruction tile (fa4's head dimension 128: two
  // 128B atoms along K, so the k-blocks of the second start elsewhere).
  emitTile<T, IsA, M, S, MN, kInstK, false>(out, counts);
  emitTile<T, IsA, M, S, MN, 4 * kInstK, false>(out, counts);
  emitTile<T, IsA, M, S, MN, 4 * kInstK, true>(out, counts);
  if constexpr (M == Major::K) {
    emitTile<T, IsA, M, S, MN, 8 * kInstK, false>(out, counts);
    emitTile<T, IsA, M, S, MN, 8 * kInstK, true>(out, counts);
  }
}

template <class T, Major M, Mode S> void emitMode(std::FILE *out, Counts &c) {
  // A: the M = 128 rows of one CTA's tcgen05.mma; B: N = 64, 128, 256.
  emitShapes<T, true, M, S, 128>(out, c);
  emitShapes<T, false, M, S, 64>(out, c);
  emitShapes<T, false, M, S, 128>(out, c);
  emitShapes<T, false, M, S, 256>(out, c);
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

/// The MN-major 128-byte swizzle with 32-byte atoms (layout type 1), which
/// the emulator does not model: only its descriptor, for each k-block.
template <class T> void emitUnmodelled(std::FILE *out, int &rows) {
  auto layout =
      tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<T>{}, Shape<_128, _64>{});
  auto tile =
      make_tensor(make_smem_ptr(reinterpret_cast<T *>(kTileAddress)), layout);
  for (int kBlock = 0; kBlock < 4; ++kBlock) {
    auto block = local_tile(tile, Shape<_128, _16>{}, make_coord(0, kBlock));
    UMMA::SmemDescriptor desc = UMMA::make_umma_desc<Major::MN>(block);
    std::fprintf(out, "unmodelled A MN 2 128b32 mn 128 64 %d ", kBlock);
    printDesc(out, desc);
    std::fprintf(out, "\n");
    ++rows;
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
  std::fprintf(
      out,
      "# tcgen05 (UMMA) descriptors and operand layouts from CUTLASS "
      "%d.%d.%d's cute (mma_sm100_desc.hpp, mma_traits_sm100.hpp); "
      "regenerate with gen-umma-goldens.cpp (README.md).\n"
      "# instr CTAGROUP ATYPE BTYPE DTYPE AMAJOR BMAJOR NEGA NEGB M N DESC  "
      "SPARSE_ID2 SPARSE SATURATE C_FORMAT A_FORMAT B_FORMAT A_NEGATE "
      "B_NEGATE A_MAJOR B_MAJOR N_DIM M_DIM MAX_SHIFT: the kind::f16 "
      "instruction descriptor MMA_Traits<SM100_MMA_F16BF16_SS (CTAGROUP 1) "
      "or _2x1SM_SS (2)>::idesc_ holds, then InstrDescriptor's fields (N_DIM "
      "= N >> 3, M_DIM = M >> 4).\n"
      "# instrf8 (the same columns, NEGB 0): the kind::f8f6f4 instruction "
      "descriptor MMA_Traits<SM100_MMA_F8F6F4_SS, ...>::idesc_ holds, "
      "cta_group::1, e4m3 and e5m2 operands (A_FORMAT and B_FORMAT: "
      "MXF8F6F4Format, E4M3 0, E5M2 1).\n"
      "# instrbits DESC  (the same 13 fields): fields set through "
      "InstrDescriptor's bitfield.\n"
      "# descbits START LBO SBO VERSION BASE LBO_MODE LAYOUT DESC: fields "
      "set through SmemDescriptor's bitfield (START, LBO, SBO in 16-byte "
      "units).\n"
      "# slice OPERAND MAJOR BYTES SWIZZLE ORDER MN KTILE KBLOCK DESC START "
      "LBO SBO VERSION BASE LBO_MODE LAYOUT: one tcgen05.mma operand (MN x "
      "256 bits of K) at k-block KBLOCK of an MN x KTILE tile at 0x%lx, "
      "atoms tiled ORDER first; DESC is make_umma_desc's (the generator "
      "checks it is what the MMA's operand fragment holds), then its "
      "fields;\n"
      "# then its 16-byte chunks' swizzled shared addresses (hex): K-major, "
      "a line per row mn (MN, then the chunks along k); MN-major, a line per "
      "k (K, then the chunks along mn). An element is at its chunk's address "
      "plus its index in the chunk times BYTES (the generator checks this "
      "for every element).\n"
      "# unmodelled ...: as slice, without addresses, for a layout the "
      "emulator does not model (MN-major 128B swizzle with 32B atoms).\n",
      CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH,
      static_cast<unsigned long>(kTileAddress));
  int instrRows = 0, bitRows = 0, unmodelled = 0;
  emitInstrType<half_t>(out, instrRows);
  emitInstrType<bfloat16_t>(out, instrRows);
  emitInstrF8Types<float_e4m3_t, float_e4m3_t>(out, instrRows);
  emitInstrF8Types<float_e4m3_t, float_e5m2_t>(out, instrRows);
  emitInstrF8Types<float_e5m2_t, float_e4m3_t>(out, instrRows);
  emitInstrF8Types<float_e5m2_t, float_e5m2_t>(out, instrRows);
  emitInstrBitfields(out, bitRows);
  emitDescBitfields(out, bitRows);
  Counts counts;
  emitType<bfloat16_t>(out, counts);
  emitUnmodelled<bfloat16_t>(out, unmodelled);
  std::fclose(out);
  std::printf("%d instruction descriptors, %d bitfield rows, %d slices, %ld "
              "elements, %d tiles skipped, %d unmodelled\n",
              instrRows, bitRows, counts.slices, counts.elements,
              counts.skipped, unmodelled);
  return 0;
}
