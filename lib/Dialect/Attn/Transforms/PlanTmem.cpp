//===- PlanTmem.cpp - attn-plan-tmem --------------------------------------===//

#include "PassDetail.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNPLANTMEM
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
struct PlanTmemPass : public fa4::attn::impl::AttnPlanTmemBase<PlanTmemPass> {
  void runOnOperation() override {
    if (failed(forEachAttention(
            getOperation(),
            [&](PlannedAttentionOpInterface op) { return planOne(op); })))
      signalPassFailure();
  }

  /// Plans one op: reads what earlier passes wrote, writes its attribute.
  LogicalResult planOne(PlannedAttentionOpInterface op) {
    fa4::AttnProblem problem = op.getProblem();
    FailureOr<fa4::AttnConfig> requiredConfig =
        requireConfig(op, getArgument(), problem);
    if (failed(requiredConfig))
      return failure();
    const fa4::AttnConfig &config = *requiredConfig;
    FailureOr<fa4::TmemPlan> plan =
        runPlanner<fa4::TmemPlan>(op, [&](llvm::raw_ostream &whyNot) {
          return fa4::planTmem(problem, config, fa4::getTargetInfo(config.chip),
                               whyNot);
        });
    if (failed(plan))
      return failure();
    // A chip without TMEM keeps S and O in registers: nothing to
    // record.
    if (plan->hasTmem)
      op.setTmemAttr(TmemAttr::get(op.getContext(), *plan));
    else
      op.removeTmemAttr();
    return success();
  }
};
} // namespace
