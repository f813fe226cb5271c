//===- Explain.cpp - attn-explain -----------------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNEXPLAIN
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

static void explainOp(AttentionOp op, llvm::raw_ostream &os) {
  fa4::AttnProblem problem = op.getProblem();
  os << "attn.attention at " << op.getLoc();
  if (auto of = op->getAttrOfType<FlatSymbolRefAttr>(kDecodeVariantOfAttrName))
    os << ", the decode variant of " << of << " (planned for "
       << op.getProblem().seqQHint << " query row; launched at decode shapes)";
  os << "\n";
  os << "problem: " << fa4::elementTypeName(problem.elementType) << ", Hq "
     << problem.numQHeads << " / Hkv " << problem.numKVHeads << " (group "
     << problem.group() << "), Dqk " << problem.qkDepth << ", Dv "
     << problem.ovDepth << ", mask " << op.getMask() << ", scale "
     << op.getEffectiveScale()
     << (op.getScale() ? "" : " (default 1/sqrt(Dqk))") << "\n";

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
    getOperation()->walk([](AttentionOp op) { explainOp(op, llvm::outs()); });
    markAllAnalysesPreserved();
  }
};
} // namespace
