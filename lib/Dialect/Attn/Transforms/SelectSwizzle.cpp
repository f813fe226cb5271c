//===- SelectSwizzle.cpp - attn-select-swizzle ----------------------------===//

#include "PassDetail.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNSELECTSWIZZLE
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
struct SelectSwizzlePass
    : public fa4::attn::impl::AttnSelectSwizzleBase<SelectSwizzlePass> {
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
    auto select = [&](const fa4::AttnConfig &planned) {
      return runPlanner<fa4::SwizzlePlan>(op, [&](llvm::raw_ostream &whyNot) {
        return fa4::selectSwizzle(problem, planned,
                                  fa4::getTargetInfo(planned.chip), whyNot);
      });
    };
    FailureOr<fa4::SwizzlePlan> plan = select(*requiredConfig);
    if (failed(plan))
      return failure();
    op.setSwizzleAttr(SwizzleAttr::get(op.getContext(), *plan));
    // The looped twin's own tile, if it has one.
    op.removeTwinSwizzleAttr();
    ConfigAttr twinConfigAttr = op.getTwinConfigAttr();
    if (!twinConfigAttr)
      return success();
    FailureOr<fa4::SwizzlePlan> twinPlan =
        select(twinConfigAttr.toPlan(problem));
    if (failed(twinPlan))
      return failure();
    op.setTwinSwizzleAttr(SwizzleAttr::get(op.getContext(), *twinPlan));
    return success();
  }
};
} // namespace
