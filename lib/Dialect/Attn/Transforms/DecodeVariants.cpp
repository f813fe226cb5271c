//===- DecodeVariants.cpp - attn-decode-variants --------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNDECODEVARIANTS
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
/// The query length of `op`'s sequences where one is static: a dense Q's
/// second dimension. Packed queries (varlen, or a paged cache's with
/// cu_seqlens_q) have none: each sequence has its own.
std::optional<int64_t> staticQueryLength(Operation *op) {
  if (auto attention = dyn_cast<AttentionOp>(op))
    return attention.getQueryType().getDimSize(1);
  if (auto paged = dyn_cast<PagedAttentionOp>(op))
    if (!paged.getCuSeqlensQ())
      return cast<ShapedType>(paged.getQuery().getType()).getDimSize(1);
  return std::nullopt;
}

/// Whether a decode plan can differ from `op`'s: its query length is
/// dynamic (or per sequence) and unhinted, and the keys a row sees span all
/// of Skv.
bool wantsDecodeVariant(PlannedAttentionOpInterface op) {
  std::optional<int64_t> queryLength = staticQueryLength(op);
  if ((queryLength && !ShapedType::isDynamic(*queryLength)) ||
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
      SmallVector<PlannedAttentionOpInterface> ops;
      func.walk([&](PlannedAttentionOpInterface op) {
        if (wantsDecodeVariant(op))
          ops.push_back(op);
      });
      // Each op's variant in a function of its own, right after `func`
      // (in the ops' order): the op's operands in, its results out.
      b.setInsertionPointAfter(func);
      for (PlannedAttentionOpInterface op : ops) {
        auto type = FunctionType::get(b.getContext(), op->getOperandTypes(),
                                      op->getResultTypes());
        auto variant = func::FuncOp::create(
            b, op.getLoc(), (func.getName() + "_decode").str(), type);
        variant.setPrivate();
        symbols.insert(variant); // already in place: renames on a clash
        b.setInsertionPointAfter(variant);
        Block *entry = variant.addEntryBlock();
        OpBuilder body = OpBuilder::atBlockEnd(entry);
        IRMapping operands;
        operands.map(op->getOperands(), entry->getArguments());
        Operation *clone = body.clone(*op, operands);
        func::ReturnOp::create(body, op.getLoc(), clone->getResults());
        clone->setAttr(kSeqQHintAttrName, body.getI64IntegerAttr(1));
        clone->setAttr(kDecodeVariantOfAttrName,
                       FlatSymbolRefAttr::get(func.getNameAttr()));
        op->setAttr(kDecodeVariantAttrName,
                    FlatSymbolRefAttr::get(variant.getNameAttr()));
      }
    }
  }
};
} // namespace
