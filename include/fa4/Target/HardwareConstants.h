//===- HardwareConstants.h - Facts both NVIDIA targets share ----*- C++ -*-===//
//
// The numbers every kernel builder and lowering of both chips agrees on, in
// one place. What differs between sm_90a and sm_100a (SM count, shared
// memory, tensor memory, cluster limit) is TargetInfo's.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_TARGET_HARDWARECONSTANTS_H
#define FA4_TARGET_HARDWARECONSTANTS_H

#include <cstdint>

namespace fa4 {
/// The shared-memory swizzle fa4's tiles use: 128 bytes, the row of one TMA
/// box and of one swizzle atom (PTX ISA, "Tensor Swizzling Modes"; TMA's
/// CU_TENSOR_MAP_SWIZZLE_128B), which wgmma and tcgen05 descriptors name as
/// their 128B mode.
constexpr int64_t kSwizzleBytes = 128;
/// Columns of 16-bit elements in one such row: one TMA box's width.
constexpr int64_t kBoxColumns = kSwizzleBytes / 2;
/// An mbarrier object in shared memory (PTX ISA, "Size and alignment of
/// mbarrier object": 8 bytes, 8-byte aligned).
constexpr int64_t kMBarrierBytes = 8;
/// The widest swizzle for an element size: 128B, or 64B for 8-bit types
/// (FA4Config re-forces 64B for them). Boxes are at most this wide.
constexpr int maxSwizzleBytes(int elementBytes) {
  return elementBytes == 1 ? 64 : static_cast<int>(kSwizzleBytes);
}
/// The row of a tile's box in shared memory: kBoxColumns elements, which is
/// also its swizzle's width (128 bytes of 16-bit elements, 64 of 8-bit).
constexpr int64_t boxRowBytes(int64_t elementBits) {
  return kBoxColumns * elementBits / 8;
}
} // namespace fa4

#endif // FA4_TARGET_HARDWARECONSTANTS_H
