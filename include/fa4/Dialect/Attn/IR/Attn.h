//===- Attn.h - The attn dialect, its attributes and ops --------*- C++ -*-===//

#ifndef FA4_DIALECT_ATTN_IR_ATTN_H
#define FA4_DIALECT_ATTN_IR_ATTN_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fa4/Planning/Planners.h"

#include "fa4/Dialect/Attn/IR/AttnOpsDialect.h.inc"

namespace mlir {
class AsmParser;
} // namespace mlir

namespace fa4::attn {
/// A chip by name (`sm_90a`, `sm_100a`) in an attribute.
mlir::FailureOr<fa4::Chip> parseChipParameter(mlir::AsmParser &parser);
} // namespace fa4::attn

#include "fa4/Dialect/Attn/IR/AttnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fa4/Dialect/Attn/IR/AttnAttrs.h.inc"

#include "fa4/Dialect/Attn/IR/AttnInterfaces.h.inc"

namespace mlir {
class RewriterBase;
} // namespace mlir
namespace fa4::attn {
class AttentionBackwardOp;
} // namespace fa4::attn

#define GET_OP_CLASSES
#include "fa4/Dialect/Attn/IR/AttnOps.h.inc"

namespace fa4::attn {
/// On attn.attention: a query length planned for in place of the pipeline's
/// seq-q-hint (an i64; attn-decode-variants sets 1 on a decode variant).
inline constexpr llvm::StringLiteral kSeqQHintAttrName = "attn.seq_q_hint";
/// On attn.attention: the function holding this op's decode variant.
inline constexpr llvm::StringLiteral kDecodeVariantAttrName =
    "attn.decode_variant";
/// On a decode variant's attn.attention: the function it is a variant of.
inline constexpr llvm::StringLiteral kDecodeVariantOfAttrName =
    "attn.decode_variant_of";

/// Fails, on the first serving form (attn.varlen_attention,
/// attn.paged_attention) under `root`, naming `pass`: no fast kernel
/// builder takes them yet (the reference kernel does), and a lowering must
/// not leave them without a kernel.
mlir::LogicalResult refuseServingForms(mlir::Operation *root,
                                       llvm::StringRef pass);
} // namespace fa4::attn

#endif // FA4_DIALECT_ATTN_IR_ATTN_H
