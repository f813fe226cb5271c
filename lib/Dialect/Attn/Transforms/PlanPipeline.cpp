//===- PlanPipeline.cpp - attn-plan-pipeline ------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void fa4::attn::buildPlanPipeline(OpPassManager &pm, StringRef chip,
                                  int64_t batchHint, int64_t seqQHint,
                                  int64_t seqKVHint, int64_t blockN,
                                  int64_t splitKPartitions,
                                  bool splitKWorkspace, int64_t causalBlockN,
                                  int64_t maxKvStages,
                                  int64_t consumerWarpgroups) {
  pm.addPass(createAttnSelectConfig(
      AttnSelectConfigOptions{chip.str(), batchHint, seqQHint, seqKVHint,
                              blockN, causalBlockN, consumerWarpgroups}));
  pm.addPass(createAttnPlanSplitK(AttnPlanSplitKOptions{
      batchHint, seqQHint, seqKVHint, splitKPartitions, splitKWorkspace}));
  pm.addPass(createAttnPlanTmem());
  pm.addPass(createAttnSelectSwizzle());
  pm.addPass(createAttnPlanSmem(AttnPlanSmemOptions{maxKvStages}));
}

void fa4::attn::registerAttnPlanningPasses() {
  registerAttnPasses();
  PassPipelineRegistration<PlanPipelineOptions>(
      "attn-plan-pipeline",
      "Run every attn planning pass in order: config, split-K, TMEM, "
      "swizzle, shared memory",
      [](OpPassManager &pm, const PlanPipelineOptions &options) {
        buildPlanPipeline(pm, options);
      });
}
