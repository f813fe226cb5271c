//===- DecodeVariants.cpp - attn-decode-variants --------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNDECODEVARIANTS
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
/// The one attn.attention of `func`, if it has exactly one.
AttentionOp soleAttention(func::FuncOp func) {
  AttentionOp sole;
  WalkResult result = func.walk([&](AttentionOp op) {
    if (sole)
      return WalkResult::interrupt();
    sole = op;
    return WalkResult::advance();
  });
  return result.wasInterrupted() ? AttentionOp() : sole;
}

/// Whether a decode plan can differ from `op`'s: its query length is
/// dynamic and unhinted, and the keys a row sees span all of Skv.
bool wantsDecodeVariant(AttentionOp op) {
  if (!ShapedType::isDynamic(op.getQueryType().getDimSize(1)) ||
      op->hasAttr(kSeqQHintAttrName) || op->hasAttr(kDecodeVariantAttrName) ||
      op->hasAttr(kDecodeVariantOfAttrName))
    return false;
  MaskAttr mask = op.getMask();
  return mask.getKind() != MaskKind::Window || mask.getLeft() < 0;
}

struct DecodeVariantsPass
    : public fa4::attn::impl::AttnDecodeVariantsBase<DecodeVariantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    OpBuilder b(module.getContext());
    for (func::FuncOp func : funcs) {
      AttentionOp op = soleAttention(func);
      if (!op || !wantsDecodeVariant(op))
        continue;
      b.setInsertionPointAfter(func);
      auto variant = cast<func::FuncOp>(b.clone(*func));
      variant.setName((func.getName() + "_decode").str());
      symbols.insert(variant); // renames it on a clash
      AttentionOp variantOp = soleAttention(variant);
      variantOp->setAttr(kSeqQHintAttrName, b.getI64IntegerAttr(1));
      variantOp->setAttr(kDecodeVariantOfAttrName,
                         FlatSymbolRefAttr::get(func.getNameAttr()));
      op->setAttr(kDecodeVariantAttrName,
                  FlatSymbolRefAttr::get(variant.getNameAttr()));
    }
  }
};
} // namespace
