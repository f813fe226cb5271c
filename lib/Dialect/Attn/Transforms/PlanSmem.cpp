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
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](AttentionOp op) {
      StringRef pass = getArgument();
      FailureOr<ConfigAttr> configAttr = requirePlan(
          op, op.getConfigAttr(), pass, "config", "attn-select-config");
      if (failed(configAttr))
        return WalkResult::interrupt();
      FailureOr<SplitKAttr> splitKAttr = requirePlan(
          op, op.getSplitkAttr(), pass, "splitk", "attn-plan-splitk");
      if (failed(splitKAttr))
        return WalkResult::interrupt();
      FailureOr<SwizzleAttr> swizzleAttr = requirePlan(
          op, op.getSwizzleAttr(), pass, "swizzle", "attn-select-swizzle");
      if (failed(swizzleAttr))
        return WalkResult::interrupt();
      fa4::AttnProblem problem = op.getProblem();
      fa4::AttnConfig config = configAttr->toPlan(problem);
      const fa4::TargetInfo &target = fa4::getTargetInfo(config.chip);
      fa4::TmemPlan tmem;
      if (target.hasTmem) {
        FailureOr<TmemAttr> tmemAttr =
            requirePlan(op, op.getTmemAttr(), pass, "tmem", "attn-plan-tmem");
        if (failed(tmemAttr))
          return WalkResult::interrupt();
        tmem = tmemAttr->toPlan();
      }
      fa4::SplitKPlan splitK = splitKAttr->toPlan();
      fa4::SwizzlePlan swizzle = swizzleAttr->toPlan(problem);
      FailureOr<fa4::SmemPlan> plan =
          runPlanner<fa4::SmemPlan>(op, [&](llvm::raw_ostream &whyNot) {
            return fa4::planSmem(problem, config, splitK, swizzle, tmem, target,
                                 whyNot);
          });
      if (failed(plan))
        return WalkResult::interrupt();
      op.setSmemAttr(SmemAttr::get(op.getContext(), *plan));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
