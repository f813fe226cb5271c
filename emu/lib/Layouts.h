//===- Layouts.h - Shared-memory layouts the async units read ---*- C++ -*-===//
//
// fa4-emu's own reading of the PTX ISA's descriptor formats and layouts,
// written from the ISA (each rule cites its section), never from fa4's
// encoders (lib/Target/NVIDIA), and checked in emu/unittests/LayoutsTest.cpp
// against CUTLASS's GMMA layouts and against what an H200 did (where the ISA
// leaves a point open: boxes narrower than the swizzle span, base offsets):
// - the shared-memory swizzle modes (TMA and wgmma share them),
// - the wgmma matrix descriptor (sm_90a) and the address of an operand
//   element it describes,
// - the TMA tile: the tensor map the emulated driver encodes and the
//   shared-memory address of each element of a box.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_LAYOUTS_H
#define FA4_EMU_LAYOUTS_H

#include <array>
#include <cstdint>

namespace fa4::emu {

enum class Swizzle { None, B32, B64, B128 };

/// The bytes of one swizzle row (the span whose 16-byte chunks are
/// permuted): 32, 64, 128; 16 for None.
int swizzleSpanBytes(Swizzle swizzle);

/// The shared-memory byte address at which a swizzled layout puts the byte
/// that an unswizzled one puts at `address` (an address in the CTA's shared
/// window: the pattern is one of the absolute address, repeating every 256,
/// 512 or 1024 bytes). PTX ISA 5.5.7, "Swizzling Modes", and 9.7.15.5.1.2,
/// "Shared Memory Matrix Layout" (wgmma): the 16-byte chunk index, bits
/// [4, 4 + n) with n = log2(span / 16), is XORed with the 128-byte line
/// index, bits [7, 7 + n) (lines of 128 bytes whatever the span:
/// Swizzle<n,4,3>).
uint32_t swizzleAddress(uint32_t address, Swizzle swizzle);

/// The wgmma matrix descriptor (PTX ISA 9.7.15.5.1.2.2, "Matrix Descriptor
/// Format", sm_90a): 64 bits.
struct WgmmaDescriptor {
  uint32_t startAddress;      // bytes (bits 0-13 hold address >> 4)
  uint32_t leadingByteOffset; // bytes (bits 16-29 hold it >> 4)
  uint32_t strideByteOffset;  // bytes (bits 32-45 hold it >> 4)
  uint32_t baseOffset;        // bits 49-51: the pattern's first 128B line
  Swizzle swizzle;            // bits 62-63: 0 none, 1 128B, 2 64B, 3 32B
};
WgmmaDescriptor decodeWgmmaDescriptor(uint64_t bits);

/// The shared-memory byte address of element (mn, k) of a wgmma operand
/// (A: mn = row m; B: mn = column n) that `descriptor` describes, for
/// elements of `elementBytes` (1, 2 or 4), K-major (`mnMajor` false:
/// consecutive k adjacent) or MN-major (transposed; wgmma allows it for
/// 16-bit types only). PTX ISA 9.7.15.5.1.2.1.3, "Canonical Layouts": the
/// canonical layout in units of T = 16 bytes / elementBytes elements from
/// the start address, then the swizzle of the resulting address with the
/// pattern's row 0 at 128-byte line `baseOffset` of the repeat. K-major and
/// swizzled, k must stay within one swizzle row (k * elementBytes < span;
/// one wgmma reads 32 bytes of K) since LBO is unused there.
uint32_t wgmmaElementAddress(const WgmmaDescriptor &descriptor, bool mnMajor,
                             int elementBytes, int mn, int k);

/// The tcgen05 shared-memory matrix descriptor (sm_100a; PTX ISA,
/// "tcgen05 Shared Memory Descriptor"): start address, leading and stride
/// byte offsets as wgmma's (bits 0-13, 16-29, 32-45, each >> 4), a fixed
/// version 1 in bits 46-47, the base offset in bits 49-51, the leading
/// byte offset mode in bit 52 and the layout in bits 61-63 (0 none, 2
/// 128B, 4 64B, 6 32B; 1, 128B with 32-byte atoms, is not modelled).
/// False for a descriptor the emulator does not model.
bool decodeTcgen05Descriptor(uint64_t bits, WgmmaDescriptor &descriptor);

/// The tcgen05.mma instruction descriptor for kind::f16 (PTX ISA,
/// "Instruction descriptor"): 32 bits.
struct Tcgen05Instruction {
  bool sparse = false, saturate = false;
  int dFormat = 0;              // bits 4-5: 0 f16, 1 f32
  int aFormat = 0, bFormat = 0; // bits 7-9, 10-12: 0 f16, 1 bf16, 2 tf32
  bool negateA = false, negateB = false;   // bits 13, 14
  bool aMnMajor = false, bMnMajor = false; // bits 15, 16 (transposed)
  int n = 0;                               // bits 17-22: N >> 3
  int m = 0;                               // bits 24-28: M >> 4
  int maxShift = 0;                        // bits 30-31
};
Tcgen05Instruction decodeTcgen05Instruction(uint32_t bits);

/// A tensor-memory lane and column, relative to an access's address.
struct TmemCoord {
  uint32_t lane, column;
};
/// tcgen05.ld/st .32x32b.xN (PTX ISA, tcgen05 "Matrix fragments for shape
/// .32x32b"): thread t of the warp reaches lane t of the address's lane
/// block, register r column r from the address's column.
TmemCoord tmem32x32b(uint32_t thread, uint32_t reg);

/// A tcgen05.mma accumulator (f32; PTX ISA, tcgen05 "Data path layout"
/// D for M = 128, and A, each CTA's 128 rows, for M = 256 under
/// cta_group::2): row m of a CTA's rows in lane m, column n in column n,
/// from the accumulator's address.
TmemCoord tmemAccumulator(uint32_t m, uint32_t n);

/// A 16-bit A operand in tensor memory (PTX ISA, tcgen05.mma, "Matrix A in
/// tensor memory"): element (m, k) in lane m, column k / 2, the low half
/// for even k.
struct TmemHalf {
  uint32_t lane, column, half;
};
TmemHalf tmemOperandA(uint32_t m, uint32_t k);

/// An 8-bit A operand in tensor memory (kind::f8f6f4): element (m, k) in
/// lane m, column k / 4, byte k % 4 (the lowest first), packed as the
/// 16-bit operand's pairs are.
struct TmemByte {
  uint32_t lane, column, byte;
};
TmemByte tmemOperandA8(uint32_t m, uint32_t k);

/// cta_group::2 (PTX ISA, tcgen05.mma, "CTA pair"): row `row` of an
/// operand of `rows` rows (A's M, B's N, D's M) is row `local` of CTA
/// `cta` of the pair (the even CTA holds the first half).
struct PairRow {
  uint32_t cta, local;
};
PairRow pairRow(uint32_t row, uint32_t rows);

/// What cuTensorMapEncodeTiled was given: the emulated driver stores this in
/// the 128-byte CUtensorMap (with `magic`), and the TMA unit reads it back.
struct TensorMap {
  static constexpr uint64_t kMagic = 0x66613465'6d75746dull; // "fa4emutm"
  uint64_t magic = kMagic;
  uint32_t rank = 0;         // 1 to 5
  uint32_t elementBytes = 0; // 1, 2, 4 or 8
  uint64_t globalAddress = 0;
  std::array<uint64_t, 5> globalDim{};     // innermost first
  std::array<uint64_t, 5> globalStrides{}; // bytes; [0] = elementBytes
  std::array<uint16_t, 5> boxDim{};        // innermost first, 1 to 256
  std::array<uint8_t, 5> elementStrides{}; // 1 to 8
  Swizzle swizzle = Swizzle::None;
  bool nanFill = false; // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
};
static_assert(sizeof(TensorMap) <= 128, "fits a CUtensorMap");

/// The shared-memory byte offset, from the box's start `smemStart`, of
/// element `index` (innermost first; along dimension i > 0 it counts the
/// elements the traversal loads, ceil(boxDim[i] / elementStrides[i])) of a
/// tile load or store with `map` (PTX ISA 5.5.3, "Tensor Tiled Mode";
/// 5.5.7, "Swizzling Modes"). The box is laid out innermost dimension
/// fastest, densely without swizzling; with a swizzle, each innermost row
/// takes a whole span (32, 64 or 128 bytes) even when narrower, and the
/// address `smemStart + offset` is then swizzled as an absolute address.
/// The result is that address minus `smemStart`.
uint32_t tileElementOffset(const TensorMap &map,
                           const std::array<uint32_t, 5> &index,
                           uint32_t smemStart);

} // namespace fa4::emu

#endif // FA4_EMU_LAYOUTS_H
