//===- Unlowered.h - What the op means but no kernel lowers -----*- C++ -*-===//
//
// A kernel path (convert-attn-to-fa4's Hopper kernel,
// convert-attn-to-reference-kernel) refuses an op whose meaning
// attn-decompose gives but it does not lower yet, by name, rather than
// dropping it.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_COMMON_UNLOWERED_H
#define LIB_CONVERSION_COMMON_UNLOWERED_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/TypeUtilities.h"

namespace fa4 {

/// Fails with a diagnostic on `op` if it asks for what `kernel` does not
/// lower: f8E4M3FN operands (issue 62; the Blackwell kernel lowers some and
/// checks them itself). Q, K and V are the first three operands of every
/// attention op.
inline mlir::LogicalResult refuseUnlowered(attn::PlannedAttentionOpInterface op,
                                           llvm::StringRef kernel) {
  for (mlir::Value operand : op->getOperands().take_front(3))
    if (llvm::isa<mlir::Float8E4M3FNType>(
            mlir::getElementTypeOrSelf(operand.getType())))
      return op->emitOpError()
             << "has f8E4M3FN operands, which " << kernel
             << " does not lower yet; attn-decompose gives their meaning";
  return mlir::success();
}

/// Fails with a diagnostic on each attn.attention_backward in `module`: no
/// tensor-core kernel lowers the backward pass yet (issue 63); the
/// reference kernel does.
inline mlir::LogicalResult refuseBackward(mlir::Operation *module) {
  mlir::WalkResult walked = module->walk([](attn::AttentionBackwardOp op) {
    op.emitOpError() << "has no tensor-core kernel yet (the backward pass, "
                        "issue 63); kernel=reference or kernel=auto lowers "
                        "it to the reference kernel";
    return mlir::WalkResult::interrupt();
  });
  return mlir::failure(walked.wasInterrupted());
}

} // namespace fa4

#endif // LIB_CONVERSION_COMMON_UNLOWERED_H
