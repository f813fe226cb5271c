//===- Layouts.cpp - Shared-memory layouts the async units read -----------===//
//
// Each rule names the PTX ISA section it comes from (the numbering of the
// ISA that ships with CUDA 13). The tests (emu/unittests/LayoutsTest.cpp)
// check them against CUTLASS's GMMA layouts and against what an H200 did
// where the ISA leaves a point open.
//
//===----------------------------------------------------------------------===//

#include "Layouts.h"

#include <cassert>

namespace fa4::emu {

namespace {

/// The number of chunk-index bits a mode XORs: log2(span / 16).
int swizzleBits(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 1;
  case Swizzle::B64:
    return 2;
  case Swizzle::B128:
    return 3;
  }
  return 0;
}

/// `address` swizzled with the pattern's row 0 at the 128-byte line
/// `baseOffset` of the repeat instead of line 0. PTX ISA 9.7.15.5.1.2.2,
/// "Matrix Descriptor Format": base offset = (pattern start addr >> 7) & 7
/// for a pattern that does not start at a repeat boundary, so the row of
/// the pattern is the address's line minus the base offset (as an H200
/// read it). Shifting the address down by those lines only changes bits 7
/// and up, so the 16-byte chunk bits come out right and the shift is
/// undone after the XOR.
uint32_t swizzleFromBase(uint32_t address, Swizzle swizzle,
                         uint32_t baseOffset) {
  uint32_t shift = baseOffset * 128;
  return swizzleAddress(address - shift, swizzle) + shift;
}

} // namespace

int swizzleSpanBytes(Swizzle swizzle) { return 16 << swizzleBits(swizzle); }

uint32_t swizzleAddress(uint32_t address, Swizzle swizzle) {
  // PTX ISA 5.5.7, "Swizzling Modes" (the tables of 16-byte cells in
  // 128-byte lines): line r of the repeat XORs its chunk index with
  // r mod (span / 16); 9.7.15.5.1.2.1.3, "Canonical Layouts", names the same
  // maps Swizzle<1,4,3>, <2,4,3>, <3,4,3>.
  uint32_t mask = (1u << swizzleBits(swizzle)) - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

WgmmaDescriptor decodeWgmmaDescriptor(uint64_t bits) {
  // PTX ISA 9.7.15.5.1.2.2, "Matrix Descriptor Format": bits 13-0, 29-16
  // and 45-32 hold (x & 0x3FFFF) >> 4 of the start address and the two
  // byte offsets, bits 51-49 the base offset, bits 63-62 the swizzle mode.
  auto field14 = [&](int low) {
    return static_cast<uint32_t>((bits >> low) & 0x3FFF) << 4;
  };
  static constexpr Swizzle kModes[] = {Swizzle::None, Swizzle::B128,
                                       Swizzle::B64, Swizzle::B32};
  WgmmaDescriptor descriptor;
  descriptor.startAddress = field14(0);
  descriptor.leadingByteOffset = field14(16);
  descriptor.strideByteOffset = field14(32);
  descriptor.baseOffset = static_cast<uint32_t>((bits >> 49) & 0x7);
  descriptor.swizzle = kModes[(bits >> 62) & 0x3];
  return descriptor;
}

bool decodeTcgen05Descriptor(uint64_t bits, WgmmaDescriptor &descriptor) {
  // PTX ISA, tcgen05 "Shared Memory Descriptor": the address fields as
  // wgmma's; bits 46-47 hold the fixed value 1; the layout is 3 bits.
  auto field14 = [&](int low) {
    return static_cast<uint32_t>((bits >> low) & 0x3FFF) << 4;
  };
  descriptor.startAddress = field14(0);
  descriptor.leadingByteOffset = field14(16);
  descriptor.strideByteOffset = field14(32);
  descriptor.baseOffset = static_cast<uint32_t>((bits >> 49) & 0x7);
  bool absoluteLbo = (bits >> 52) & 1;
  switch ((bits >> 61) & 0x7) {
  case 0:
    descriptor.swizzle = Swizzle::None;
    break;
  case 2:
    descriptor.swizzle = Swizzle::B128;
    break;
  case 4:
    descriptor.swizzle = Swizzle::B64;
    break;
  case 6:
    descriptor.swizzle = Swizzle::B32;
    break;
  default:
    return false;
  }
  return ((bits >> 46) & 0x3) == 1 && !absoluteLbo;
}

Tcgen05Instruction decodeTcgen05Instruction(uint32_t bits) {
  // PTX ISA, tcgen05 "Instruction descriptor" (kind::f16).
  auto field = [&](int low, int width) {
    return static_cast<int>((bits >> low) & ((1u << width) - 1));
  };
  Tcgen05Instruction d;
  d.sparse = field(2, 1);
  d.saturate = field(3, 1);
  d.dFormat = field(4, 2);
  d.aFormat = field(7, 3);
  d.bFormat = field(10, 3);
  d.negateA = field(13, 1);
  d.negateB = field(14, 1);
  d.aMnMajor = field(15, 1);
  d.bMnMajor = field(16, 1);
  d.n = field(17, 6) << 3;
  d.m = field(24, 5) << 4;
  d.maxShift = field(30, 2);
  return d;
}

namespace {

/// The unswizzled byte offset from the start address of element (mn, k) of
/// a K-major operand. PTX ISA 9.7.15.5.1.2.1.3, "Canonical Layouts", in
/// units of T elements of 16 bytes and W = span / 16 chunks:
///   none:     ((8,m),(T,2k)):((1T,SBO),(1,LBO))
///   swizzled: ((8,m),(T,2k)):((WT,SBO),(1,T))
/// A row of 8 is one 16-byte chunk (none) or one W-chunk line apart. Along
/// K, chunks are LBO apart without swizzling; swizzled, they sit side by
/// side in the line and LBO is unused (9.7.15.5.1.2.1.1, "Leading Dimension
/// Byte Offset": "not used, assumed to be 1"), so K must stay in the line.
uint32_t kMajorOffset(const WgmmaDescriptor &d, int elementBytes, int mn,
                      int k) {
  int perChunk = 16 / elementBytes;
  uint32_t chunk = k / perChunk;
  uint32_t inChunk = (k % perChunk) * elementBytes;
  uint32_t rows = (mn / 8) * d.strideByteOffset;
  if (d.swizzle == Swizzle::None)
    return rows + (mn % 8) * 16 + chunk * d.leadingByteOffset + inChunk;
  int line = swizzleSpanBytes(d.swizzle);
  assert(chunk < uint32_t(line / 16) && "K-major K runs past the swizzle line");
  return rows + (mn % 8) * line + chunk * 16 + inChunk;
}

/// The same for an MN-major operand (9.7.15.5.1.2.1.3):
///   none:     ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
///   swizzled: ((T,W,m),(8,k)):((1,T,LBO),(WT,SBO))
/// Without swizzling a core matrix is 8 k-rows of one 16-byte chunk, SBO
/// apart along MN and LBO apart along K; swizzled, a k-row is a W-chunk
/// line, W chunks along MN fill it, LBO steps to the next W chunks along MN
/// and SBO to the next 8 k-rows (9.7.15.5.1.2.1.1 and .2: the meanings of
/// the two offsets swap between the interleaved and swizzled layouts).
uint32_t mnMajorOffset(const WgmmaDescriptor &d, int elementBytes, int mn,
                       int k) {
  int perChunk = 16 / elementBytes;
  uint32_t chunk = mn / perChunk;
  uint32_t inChunk = (mn % perChunk) * elementBytes;
  if (d.swizzle == Swizzle::None)
    return chunk * d.strideByteOffset + (k % 8) * 16 +
           (k / 8) * d.leadingByteOffset + inChunk;
  int line = swizzleSpanBytes(d.swizzle);
  uint32_t perLine = line / 16;
  return (chunk / perLine) * d.leadingByteOffset + (chunk % perLine) * 16 +
         (k % 8) * line + (k / 8) * d.strideByteOffset + inChunk;
}

} // namespace

uint32_t wgmmaElementAddress(const WgmmaDescriptor &descriptor, bool mnMajor,
                             int elementBytes, int mn, int k) {
  assert((elementBytes == 1 || elementBytes == 2 || elementBytes == 4) &&
         "wgmma operands are 8, 16 or 32 bits");
  uint32_t offset = mnMajor ? mnMajorOffset(descriptor, elementBytes, mn, k)
                            : kMajorOffset(descriptor, elementBytes, mn, k);
  // The swizzle permutes the address the canonical layout gives, not the
  // offset from the start address ("Swizzling on the previous column",
  // 9.7.15.5.1.2.1.3): advancing the start address by a k step inside a
  // 128-byte line reads the same lines the TMA wrote.
  uint32_t address = descriptor.startAddress + offset;
  if (descriptor.swizzle == Swizzle::None)
    return address;
  return swizzleFromBase(address, descriptor.swizzle, descriptor.baseOffset);
}

uint32_t tileElementOffset(const TensorMap &map,
                           const std::array<uint32_t, 5> &index,
                           uint32_t smemStart) {
  // PTX ISA 5.5.3, "Tiled Mode" (5.5.3.1 "Bounding Box", 5.5.3.2
  // "Traversal-Stride"), and cuTensorMapEncodeTiled (cuda.h): the box lands
  // in shared memory innermost dimension first, with ceil(boxDim[i] /
  // elementStrides[i]) elements along dimension i > 0; dimension 0 has no
  // traversal stride without interleave. `index` counts the elements the
  // traversal loads, not global coordinates. With a swizzle, each
  // innermost row takes a whole span even when narrower: the ISA is silent
  // (cuda.h only bounds the row by the span), and an H200 put each 16- to
  // 64-byte row of 32B-, 64B- and 128B-swizzled boxes a span after the
  // previous one (goldens/hw-layouts.txt).
  uint32_t rowBytes = map.boxDim[0] * map.elementBytes;
  if (map.swizzle != Swizzle::None)
    rowBytes = swizzleSpanBytes(map.swizzle);
  assert(index[0] < map.boxDim[0] && "index outside the box");
  uint32_t offset = index[0] * map.elementBytes;
  uint32_t pitch = rowBytes;
  for (uint32_t i = 1; i < map.rank; ++i) {
    uint32_t step = map.elementStrides[i] == 0 ? 1 : map.elementStrides[i];
    uint32_t extent = (map.boxDim[i] + step - 1) / step;
    assert(index[i] < extent && "index outside the box");
    offset += index[i] * pitch;
    pitch *= extent;
  }
  // 5.5.7, "Swizzling Modes": the pattern is one of the shared address,
  // repeating every 256, 512 or 1024 bytes; a destination off that boundary
  // starts at line (dstMem / 128) % (span / 16) of it (the "swizzle base
  // offset"), as an H200 confirmed for destinations 128 to 640 bytes off.
  uint32_t address = smemStart + offset;
  return swizzleAddress(address, map.swizzle) - smemStart;
}

TmemCoord tmem32x32b(uint32_t thread, uint32_t reg) { return {thread, reg}; }

TmemCoord tmemAccumulator(uint32_t m, uint32_t n) { return {m, n}; }

TmemHalf tmemOperandA(uint32_t m, uint32_t k) { return {m, k / 2, k % 2}; }

TmemByte tmemOperandA8(uint32_t m, uint32_t k) { return {m, k / 4, k % 4}; }

PairRow pairRow(uint32_t row, uint32_t rows) {
  return {row / (rows / 2), row % (rows / 2)};
}

} // namespace fa4::emu
