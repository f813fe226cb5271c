//===- Layouts.h - Shared-memory layouts the async units read ----*- C++ -*-===//
//
// fa4-emu's own reading of the PTX ISA's descriptor formats and layouts,
// written from the ISA (each rule cites its section), never from fa4's
// encoders (lib/Target/NVIDIA), and checked against CUTLASS's headers in
// emu/unittests/LayoutsTest.cpp:
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
/// window, whose swizzle pattern repeats every 8 rows: 256, 512 or 1024
/// bytes). PTX ISA, "Tensor Memory Accelerator: swizzling modes" and
/// "Shared memory matrix layout" (wgmma): the 16-byte chunk index, bits
/// [4, 4 + log2(span / 16)), is XORed with the row index within the
/// repeat, bits [7, 7 + the same count).
uint32_t swizzleAddress(uint32_t address, Swizzle swizzle);

/// The wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format" for
/// wgmma, sm_90a): 64 bits.
struct WgmmaDescriptor {
  uint32_t startAddress;     // bytes (the field holds address >> 4)
  uint32_t leadingByteOffset; // bytes (field << 4)
  uint32_t strideByteOffset;  // bytes (field << 4)
  uint32_t baseOffset;        // bits 49-51
  Swizzle swizzle;            // bits 62-63: 0 none, 1 128B, 2 64B, 3 32B
};
WgmmaDescriptor decodeWgmmaDescriptor(uint64_t bits);

/// The shared-memory byte address of element (mn, k) of a wgmma operand
/// (A: mn = row m; B: mn = column n) that `descriptor` describes, for
/// elements of `elementBytes`, K-major (`mnMajor` false: consecutive k
/// adjacent) or MN-major (transposed). PTX ISA, "Shared Memory Matrix
/// Layout" (wgmma): the canonical layouts in units of T = 16 bytes /
/// elementBytes elements, then the swizzle of the address.
uint32_t wgmmaElementAddress(const WgmmaDescriptor &descriptor, bool mnMajor,
                             int elementBytes, int mn, int k);

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

/// The shared-memory byte offset, from the box's start, of box element
/// `index` (innermost first) of a tile load or store with `map`: the box is
/// packed densely in shared memory, innermost dimension fastest, then
/// swizzled by the map's mode relative to `smemStart` (PTX ISA, "Tensor
/// Memory Accelerator": tile mode; "swizzling modes"). The result is
/// `smemStart + offset` swizzled, minus `smemStart`.
uint32_t tileElementOffset(const TensorMap &map,
                           const std::array<uint32_t, 5> &index,
                           uint32_t smemStart);

} // namespace fa4::emu

#endif // FA4_EMU_LAYOUTS_H
