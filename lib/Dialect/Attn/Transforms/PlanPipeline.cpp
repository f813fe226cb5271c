//===- PlanPipeline.cpp - attn-plan-pipeline ------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

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
