//===- SelectConfig.cpp - attn-select-config ------------------------------===//

#include "PassDetail.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNSELECTCONFIG
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {
struct SelectConfigPass
    : public fa4::attn::impl::AttnSelectConfigBase<SelectConfigPass> {
  using AttnSelectConfigBase::AttnSelectConfigBase;

  void runOnOperation() override {
    std::optional<fa4::Chip> chipKind = fa4::parseChip(chip);
    if (!chipKind) {
      getOperation()->emitError()
          << "unknown chip '" << chip << "'; expected sm_100a or sm_90a";
      return signalPassFailure();
    }
    const fa4::TargetInfo &target = fa4::getTargetInfo(*chipKind);
    if (failed(forEachAttention(getOperation(),
                                [&](PlannedAttentionOpInterface op) {
                                  return planOne(op, target);
                                })))
      signalPassFailure();
  }

  /// Plans one op: reads what earlier passes wrote, writes its attribute.
  LogicalResult planOne(PlannedAttentionOpInterface op,
                        const fa4::TargetInfo &target) {
    fa4::AttnProblem problem = op.getProblem(batchHint, seqQHint, seqKVHint);
    problem.blockN = blockN;
    problem.causalBlockN = causalBlockN;
    problem.consumerWarpgroups = consumerWarpgroups;
    auto plan = [&](const fa4::AttnProblem &planned) {
      return runPlanner<fa4::AttnConfig>(op, [&](llvm::raw_ostream &whyNot) {
        return fa4::planConfig(planned, target, whyNot);
      });
    };
    FailureOr<fa4::AttnConfig> config = plan(problem);
    if (failed(config))
      return failure();
    op.setConfigAttr(ConfigAttr::get(op.getContext(), *config));
    // The looped twin's own plan, where it differs (fa4::twinProblem).
    op.removeTwinConfigAttr();
    std::optional<fa4::AttnProblem> twinProblem =
        fa4::twinProblem(problem, *config);
    if (!twinProblem)
      return success();
    FailureOr<fa4::AttnConfig> twinConfig = plan(*twinProblem);
    if (failed(twinConfig))
      return failure();
    op.setTwinConfigAttr(ConfigAttr::get(op.getContext(), *twinConfig));
    return success();
  }
};
} // namespace
