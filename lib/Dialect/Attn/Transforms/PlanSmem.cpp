//===- PlanSmem.cpp - attn-plan-smem --------------------------------------===//

#include "PassDetail.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNPLANSMEM
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
struct PlanSmemPass : public fa4::attn::impl::AttnPlanSmemBase<PlanSmemPass> {
  using AttnPlanSmemBase::AttnPlanSmemBase;

  void runOnOperation() override {
    if (failed(forEachAttention(
            getOperation(),
            [&](PlannedAttentionOpInterface op) { return planOne(op); })))
      signalPassFailure();
  }

  /// Plans one op: reads what earlier passes wrote, writes its attribute.
  LogicalResult planOne(PlannedAttentionOpInterface op) {
    StringRef pass = getArgument();
    fa4::AttnProblem problem = op.getProblem();
    problem.maxKvStages = maxKvStages;
    FailureOr<fa4::AttnConfig> requiredConfig =
        requireConfig(op, pass, problem);
    if (failed(requiredConfig))
      return failure();
    const fa4::AttnConfig &config = *requiredConfig;
    FailureOr<SplitKAttr> splitKAttr =
        requirePlan(op, op.getSplitkAttr(), pass, "splitk", "attn-plan-splitk");
    if (failed(splitKAttr))
      return failure();
    FailureOr<SwizzleAttr> swizzleAttr = requirePlan(
        op, op.getSwizzleAttr(), pass, "swizzle", "attn-select-swizzle");
    if (failed(swizzleAttr))
      return failure();
    const fa4::TargetInfo &target = fa4::getTargetInfo(config.chip);
    fa4::TmemPlan tmem;
    if (target.hasTmem) {
      FailureOr<TmemAttr> tmemAttr =
          requirePlan(op, op.getTmemAttr(), pass, "tmem", "attn-plan-tmem");
      if (failed(tmemAttr))
        return failure();
      tmem = tmemAttr->toPlan();
    }
    fa4::SplitKPlan splitK = splitKAttr->toPlan();
    auto plan = [&](const fa4::AttnConfig &planned, SwizzleAttr swizzle) {
      return runPlanner<fa4::SmemPlan>(op, [&](llvm::raw_ostream &whyNot) {
        return fa4::planSmem(problem, planned, splitK, swizzle.toPlan(problem),
                             tmem, target, whyNot);
      });
    };
    FailureOr<fa4::SmemPlan> smem = plan(config, *swizzleAttr);
    if (failed(smem))
      return failure();
    op.setSmemAttr(SmemAttr::get(op.getContext(), *smem));
    // The looped twin's own layout, if it has its own tile.
    op.removeTwinSmemAttr();
    ConfigAttr twinConfigAttr = op.getTwinConfigAttr();
    if (!twinConfigAttr)
      return success();
    FailureOr<SwizzleAttr> twinSwizzleAttr =
        requirePlan(op, op.getTwinSwizzleAttr(), pass, "twin_swizzle",
                    "attn-select-swizzle");
    if (failed(twinSwizzleAttr))
      return failure();
    FailureOr<fa4::SmemPlan> twinPlan =
        plan(twinConfigAttr.toPlan(problem), *twinSwizzleAttr);
    if (failed(twinPlan))
      return failure();
    op.setTwinSmemAttr(SmemAttr::get(op.getContext(), *twinPlan));
    return success();
  }
};
} // namespace
