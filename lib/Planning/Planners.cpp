//===- Planners.cpp - All planning decisions for one attention op ---------===//

#include "fa4/Planning/Planners.h"

using namespace fa4;

llvm::FailureOr<FullPlan> fa4::planAll(const AttnProblem &problem,
                                       const TargetInfo &target,
                                       llvm::raw_ostream &whyNot) {
  FullPlan plan;
  llvm::FailureOr<AttnConfig> config = planConfig(problem, target, whyNot);
  if (llvm::failed(config))
    return llvm::failure();
  plan.config = *config;
  llvm::FailureOr<SplitKPlan> splitK =
      planSplitK(problem, plan.config, target, whyNot);
  if (llvm::failed(splitK))
    return llvm::failure();
  plan.splitK = *splitK;
  llvm::FailureOr<TmemPlan> tmem =
      planTmem(problem, plan.config, target, whyNot);
  if (llvm::failed(tmem))
    return llvm::failure();
  plan.tmem = *tmem;
  llvm::FailureOr<SwizzlePlan> swizzle =
      selectSwizzle(problem, plan.config, target, whyNot);
  if (llvm::failed(swizzle))
    return llvm::failure();
  plan.swizzle = *swizzle;
  llvm::FailureOr<SmemPlan> smem =
      planSmem(problem, plan.config, plan.splitK, plan.swizzle, plan.tmem,
               target, whyNot);
  if (llvm::failed(smem))
    return llvm::failure();
  plan.smem = *smem;
  return plan;
}

void fa4::explain(const FullPlan &plan, llvm::raw_ostream &os) {
  explain(plan.config, os);
  explain(plan.splitK, plan.config, os);
  explain(plan.tmem, plan.config, os);
  explain(plan.swizzle, plan.config, os);
  explain(plan.smem, plan.config, os);
}
