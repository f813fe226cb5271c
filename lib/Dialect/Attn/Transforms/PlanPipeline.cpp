//===- PlanPipeline.cpp - attn-plan-pipeline ------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void fa4::attn::buildPlanPipeline(OpPassManager &pm,
                                  const PlanPipelineOptions &options) {
  pm.addPass(createAttnSelectConfig(AttnSelectConfigOptions{
      options.chip, options.batchHint, options.seqQHint, options.seqKVHint}));
  pm.addPass(createAttnPlanSplitK(AttnPlanSplitKOptions{
      options.batchHint, options.seqQHint, options.seqKVHint}));
  pm.addPass(createAttnPlanTmem());
  pm.addPass(createAttnSelectSwizzle());
  pm.addPass(createAttnPlanSmem());
}

void fa4::attn::registerAttnPlanningPasses() {
  registerAttnPasses();
  PassPipelineRegistration<PlanPipelineOptions>(
      "attn-plan-pipeline",
      "Run every attn planning pass in order: config, split-K, TMEM, "
      "swizzle, shared memory",
      buildPlanPipeline);
}
