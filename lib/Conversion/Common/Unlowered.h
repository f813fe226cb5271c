//===- Unlowered.h - What the op means but no kernel lowers -----*- C++ -*-===//
//
// Every kernel path (convert-attn-to-fa4, convert-attn-to-reference-kernel)
// refuses an op whose meaning attn-decompose gives but no kernel lowers yet,
// by name, rather than dropping it.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_COMMON_UNLOWERED_H
#define LIB_CONVERSION_COMMON_UNLOWERED_H

#include "fa4/Dialect/Attn/IR/Attn.h"

namespace fa4 {

/// Fails with a diagnostic on `op` if it asks for what no kernel lowers:
/// attention sinks (issue 61).
inline mlir::LogicalResult
refuseUnlowered(attn::PlannedAttentionOpInterface op) {
  if (!op.getSinks())
    return mlir::success();
  return op->emitOpError() << "has sinks, which no kernel lowers yet; "
                              "attn-decompose gives their meaning";
}

} // namespace fa4

#endif // LIB_CONVERSION_COMMON_UNLOWERED_H
