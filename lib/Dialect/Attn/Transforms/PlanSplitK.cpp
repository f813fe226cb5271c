//===- PlanSplitK.cpp - attn-plan-splitk ----------------------------------===//

#include "PassDetail.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNPLANSPLITK
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
struct PlanSplitKPass
    : public fa4::attn::impl::AttnPlanSplitKBase<PlanSplitKPass> {
  using AttnPlanSplitKBase::AttnPlanSplitKBase;

  void runOnOperation() override {
    if (failed(forEachAttention(
            getOperation(),
            [&](PlannedAttentionOpInterface op) { return planOne(op); })))
      signalPassFailure();
  }

  /// Plans one op: reads what earlier passes wrote, writes its attribute.
  LogicalResult planOne(PlannedAttentionOpInterface op) {
    fa4::AttnProblem problem = op.getProblem(batchHint, seqQHint, seqKVHint);
    problem.splitKPartitions = splitKPartitions;
    problem.splitKWorkspace = splitKWorkspace;
    FailureOr<fa4::AttnConfig> requiredConfig =
        requireConfig(op, getArgument(), problem);
    if (failed(requiredConfig))
      return failure();
    const fa4::AttnConfig &config = *requiredConfig;
    FailureOr<fa4::SplitKPlan> plan =
        runPlanner<fa4::SplitKPlan>(op, [&](llvm::raw_ostream &whyNot) {
          return fa4::planSplitK(problem, config,
                                 fa4::getTargetInfo(config.chip), whyNot);
        });
    if (failed(plan))
      return failure();
    op.setSplitkAttr(SplitKAttr::get(op.getContext(), *plan));
    return success();
  }
};
} // namespace
