//===- Explain.cpp - attn-explain -----------------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNEXPLAIN
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

/// Packed and paged sequences: what varies per sequence, and what the
/// kernel reads to find it.
static void explainSequences(PlannedAttentionOpInterface op,
                             const fa4::AttnProblem &problem,
                             llvm::raw_ostream &os) {
  if (problem.sequences == fa4::SequenceLayout::Dense)
    return;
  os << "sequences: " << fa4::sequenceLayoutName(problem.sequences) << ", ";
  if (problem.batch == fa4::kDynamic)
    os << "a batch known at run time";
  else
    os << problem.batch << " per launch";
  if (auto varlen = dyn_cast<VarlenAttentionOp>(op.getOperation())) {
    os << "; Q, K and V packed along one token dimension, each sequence's "
          "tokens from cu_seqlens_q / cu_seqlens_k"
       << (varlen.getSequsedK() ? ", its keys counted by seqused_k" : "");
  } else if (auto paged = dyn_cast<PagedAttentionOp>(op.getOperation())) {
    os << "; K and V in pages of " << problem.pageSize
       << " keys, sequence b's key j in page block_table[b, j / "
       << problem.pageSize << "], its keys counted by seqlens_k; Q "
       << (paged.getCuSeqlensQ() ? "packed by cu_seqlens_q" : "dense");
  }
  os << "; each sequence has its own Sq and Skv, the mask aligned to its "
        "own bottom-right corner\n";
}

/// FP8 operands: which, their descales, and that no kernel lowers them.
static void explainFp8(AttentionOp op, llvm::raw_ostream &os) {
  std::string operands;
  llvm::raw_string_ostream names(operands);
  auto descaled = [&](StringRef name, ShapedType type, Value descale) {
    if (!isa<Float8E4M3FNType>(type.getElementType()))
      return;
    names << (operands.empty() ? "" : ", ") << name;
    if (!descale)
      names << " (no descale)";
    else if (cast<ShapedType>(descale.getType()).getRank() == 0)
      names << " (descale per tensor)";
    else
      names << " (descale per batch and key/value head)";
  };
  descaled("Q", op.getQueryType(), op.getQDescale());
  descaled("K", op.getKeyType(), op.getKDescale());
  descaled("V", op.getValueType(), op.getVDescale());
  if (operands.empty())
    return;
  os << "fp8: f8E4M3FN " << operands << ", O "
     << cast<ShapedType>(op.getOutput().getType()).getElementType()
     << "; no kernel lowers FP8 yet (the kernel paths refuse the op)\n";
}

static void explainOp(PlannedAttentionOpInterface op, llvm::raw_ostream &os) {
  fa4::AttnProblem problem = op.getProblem();
  os << op->getName() << " at " << op.getLoc();
  if (auto of = op->getAttrOfType<FlatSymbolRefAttr>(kDecodeVariantOfAttrName))
    os << ", the decode variant of " << of << " (planned for "
       << problem.seqQHint << " query row; launched at decode shapes)";
  os << "\n";
  os << "problem: " << fa4::elementTypeName(problem.elementType) << ", Hq "
     << problem.numQHeads << " / Hkv " << problem.numKVHeads << " (group "
     << problem.group() << "), Dqk " << problem.qkDepth << ", Dv "
     << problem.ovDepth << ", mask " << op.getMask() << ", scale "
     << op.getEffectiveScale()
     << (op.hasExplicitScale() ? "" : " (default 1/sqrt(Dqk))") << "\n";
  if (std::optional<APFloat> softcap = op.getSoftcap())
    os << "softcap " << softcap->convertToDouble()
       << ": each scaled score s becomes c * tanh(s / c) before the mask "
          "(tanh.approx.f32 on the kernels' scores)\n";
  if (op.getSinks())
    os << "sinks: one logit per query head joins each row's max and sum, "
          "with no value row; each row's softmax starts from its sink "
          "(fa4.sink.rows), in the first partition of a split-K only\n";
  if (auto dense = dyn_cast<AttentionOp>(op.getOperation()))
    explainFp8(dense, os);
  explainSequences(op, problem, os);

  ConfigAttr configAttr = op.getConfigAttr();
  if (!configAttr) {
    os << "no plan: run attn-select-config first\n";
    return;
  }
  fa4::AttnConfig config = configAttr.toPlan(problem);
  fa4::explain(config, os);
  if (SplitKAttr splitK = op.getSplitkAttr())
    fa4::explain(splitK.toPlan(), config, os);
  if (TmemAttr tmem = op.getTmemAttr())
    fa4::explain(tmem.toPlan(), config, os);
  else if (!fa4::getTargetInfo(config.chip).hasTmem)
    fa4::explain(fa4::TmemPlan(), config, os);
  if (SwizzleAttr swizzle = op.getSwizzleAttr())
    fa4::explain(swizzle.toPlan(problem), config, os);
  if (SmemAttr smem = op.getSmemAttr())
    fa4::explain(smem.toPlan(), config, os);
  ConfigAttr twinConfigAttr = op.getTwinConfigAttr();
  if (!twinConfigAttr)
    return;
  os << "looped twin (Skv up to the persistent bound): its own plan\n";
  fa4::AttnConfig twinConfig = twinConfigAttr.toPlan(problem);
  fa4::explain(twinConfig, os);
  if (SwizzleAttr swizzle = op.getTwinSwizzleAttr())
    fa4::explain(swizzle.toPlan(problem), twinConfig, os);
  if (SmemAttr smem = op.getTwinSmemAttr())
    fa4::explain(smem.toPlan(), twinConfig, os);
}

namespace {
struct ExplainPass : public fa4::attn::impl::AttnExplainBase<ExplainPass> {
  void runOnOperation() override {
    getOperation()->walk(
        [](PlannedAttentionOpInterface op) { explainOp(op, llvm::outs()); });
    markAllAnalysesPreserved();
  }
};
} // namespace
