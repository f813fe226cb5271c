//===- Passes.h - attn planning passes --------------------------*- C++ -*-===//

#ifndef FA4_DIALECT_ATTN_TRANSFORMS_PASSES_H
#define FA4_DIALECT_ATTN_TRANSFORMS_PASSES_H

#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Planning/AttnProblem.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <tuple>

namespace fa4::attn {

#define GEN_PASS_DECL
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"

/// The planning passes' options (attn-select-config, attn-plan-splitk,
/// attn-plan-smem: the chip, the size hints, the overrides), declared once in
/// Passes.td: the options of every pipeline that plans (attn-plan-pipeline
/// here, fa4-compile in fa4/Pipelines).
template <typename Derived>
struct PlanOptionsBase : public mlir::PassPipelineOptions<Derived> {
  using PassOptions = mlir::detail::PassOptions;
#define FA4_PASS_OPTION(PASS, TYPE, NAME, ARGUMENT, DEFAULT, DESCRIPTION)      \
  PassOptions::Option<TYPE> NAME{*this, ARGUMENT, llvm::cl::desc(DESCRIPTION), \
                                 llvm::cl::init(DEFAULT)};
#include "fa4/Dialect/Attn/Transforms/PlanOptions.inc"
};

struct PlanPipelineOptions : public PlanOptionsBase<PlanPipelineOptions> {};

/// attn-select-config, attn-plan-splitk, attn-plan-tmem,
/// attn-select-swizzle, attn-plan-smem, in that order, each with its
/// options as `options` gives them.
template <typename Derived>
void buildPlanPipeline(mlir::OpPassManager &pm,
                       const PlanOptionsBase<Derived> &options) {
  AttnSelectConfigOptions config;
  AttnPlanSplitKOptions splitK;
  AttnPlanSmemOptions smem;
  auto plans = std::tie(config, splitK, smem);
#define FA4_PASS_OPTION_USE(PASS, NAME)                                        \
  std::get<PASS##Options &>(plans).NAME = options.NAME;
#include "fa4/Dialect/Attn/Transforms/PlanOptions.inc"
  pm.addPass(createAttnSelectConfig(config));
  pm.addPass(createAttnPlanSplitK(splitK));
  pm.addPass(createAttnPlanTmem());
  pm.addPass(createAttnSelectSwizzle());
  pm.addPass(createAttnPlanSmem(smem));
}

#define GEN_PASS_REGISTRATION
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"

/// The passes and the `attn-plan-pipeline` pipeline.
void registerAttnPlanningPasses();

} // namespace fa4::attn

#endif // FA4_DIALECT_ATTN_TRANSFORMS_PASSES_H
