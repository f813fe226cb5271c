//===- Limits.h - What an fa4 kernel can represent -------------*- C++ -*-===//
//
// One definition of the sizes fa4 accepts, shared by the op verifier, the
// planners, the manifest writer and libfa4rt (which includes this header and
// nothing else of the compiler). Plain C++17: no LLVM, no CUDA.
//
// Why these numbers: kernels take Sq, Skv and the batch as i32 and compute a
// row's visible keys as row + Skv - Sq + right + 1 (and - left) in i32; with
// every size and window bound at most 2^30 - 1 none of those sums leaves the
// i32 range. Byte offsets are i64: a tensor's last element must lie within
// kMaxTensorBytes of its base.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_LIMITS_H
#define FA4_LIMITS_H

#include <cstdint>

namespace fa4::limits {
/// Batch, query length and key length, static or at launch.
constexpr int64_t kMaxSeqLen = (int64_t(1) << 30) - 1;
constexpr int64_t kMaxBatch = (int64_t(1) << 30) - 1;
/// A sliding window's left or right bound (-1: unbounded on that side).
constexpr int64_t kMaxWindow = (int64_t(1) << 30) - 1;
/// Query or key/value heads of one op.
constexpr int64_t kMaxHeads = 4096;
/// Head depth (Dqk, Dv).
constexpr int64_t kMaxDepth = 1024;
/// CTAs of one launch's grid (CUDA's gridDim.x limit): fa4 kernels flatten
/// their work list into x.
constexpr int64_t kMaxGridCtas = (int64_t(1) << 31) - 1;
/// The furthest byte of a tensor from its base, and so any stride times its
/// extent: 2^62 keeps every sum of such terms within int64.
constexpr int64_t kMaxTensorBytes = int64_t(1) << 62;

/// Whether `value` is a size in [1, max].
constexpr bool isSize(int64_t value, int64_t max) {
  return value >= 1 && value <= max;
}
/// Whether `bound` is a window bound: -1 or [0, kMaxWindow].
constexpr bool isWindowBound(int64_t bound) {
  return bound == -1 || (bound >= 0 && bound <= kMaxWindow);
}
} // namespace fa4::limits

#endif // FA4_LIMITS_H
