//===- Kernels.h - The kernel builders of convert-attn-to-fa4 ---*- C++ -*-===//

#ifndef LIB_CONVERSION_ATTNTOFA4_KERNELS_H
#define LIB_CONVERSION_ATTNTOFA4_KERNELS_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/BuiltinOps.h"

namespace fa4 {
/// sm_100a: the FA4 structure in the fa4 kernel dialect (tensor memory,
/// tcgen05 MMAs issued by one thread, softmax and correction warpgroups).
/// Fails with a diagnostic on plans it does not implement. Masked prefill
/// work tiles go in sections of `l2SectionBytes` (WorkTiles::prefill).
mlir::LogicalResult buildBlackwellKernel(mlir::ModuleOp module,
                                         attn::AttentionOp op,
                                         int64_t l2SectionBytes);
} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_KERNELS_H
