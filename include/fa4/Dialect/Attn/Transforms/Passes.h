//===- Passes.h - attn planning passes --------------------------*- C++ -*-===//

#ifndef FA4_DIALECT_ATTN_TRANSFORMS_PASSES_H
#define FA4_DIALECT_ATTN_TRANSFORMS_PASSES_H

#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Planning/AttnProblem.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace fa4::attn {

#define GEN_PASS_DECL
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"

/// The chip and the size hints: the options of every pipeline that plans
/// (attn-plan-pipeline here, fa4-compile in fa4/Pipelines).
template <typename Derived>
struct PlanOptionsBase : public mlir::PassPipelineOptions<Derived> {
  using PassOptions = mlir::detail::PassOptions;
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("sm_100a (default) or sm_90a"),
      llvm::cl::init("sm_100a")};
  PassOptions::Option<int64_t> batchHint{
      *this, "batch-hint", llvm::cl::desc("Expected dynamic batch size"),
      llvm::cl::init(-1)};
  PassOptions::Option<int64_t> seqQHint{
      *this, "seq-q-hint", llvm::cl::desc("Expected dynamic query length"),
      llvm::cl::init(-1)};
  PassOptions::Option<int64_t> seqKVHint{
      *this, "seq-kv-hint", llvm::cl::desc("Expected dynamic key/value length"),
      llvm::cl::init(-1)};
  PassOptions::Option<int64_t> blockN{
      *this, "block-n",
      llvm::cl::desc("Keys per KV tile in place of the planner's choice "
                     "(0: the planner's)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> causalBlockN{
      *this, "causal-block-n",
      llvm::cl::desc("sm_90a, causal mask: at most this many keys per KV "
                     "tile (0: no cap; default 128, measured faster)"),
      llvm::cl::init(kDefaultCausalBlockN)};
  PassOptions::Option<int64_t> consumerWarpgroups{
      *this, "consumer-warpgroups",
      llvm::cl::desc("sm_90a prefill: consumer warpgroups of 64 rows, 2 "
                     "(BM = 128) or 3 (BM = 192, Dv <= 128); 0: the "
                     "planner's (three at d <= 64 where the kernel runs "
                     "past 2048 keys, its looped twin keeping two)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> splitKPartitions{
      *this, "split-k-partitions",
      llvm::cl::desc("Split-K partitions per work item in place of the "
                     "planner's rule (0: the planner's)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> splitKWorkspace{
      *this, "split-k-workspace",
      llvm::cl::desc("Combine split-K partials through the global "
                     "workspace even when they fit a cluster"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> maxKvStages{
      *this, "max-kv-stages",
      llvm::cl::desc("At most this many K/V ring slots (0: as many as fit)"),
      llvm::cl::init(0)};
};

struct PlanPipelineOptions : public PlanOptionsBase<PlanPipelineOptions> {};

/// attn-select-config, attn-plan-splitk, attn-plan-tmem,
/// attn-select-swizzle, attn-plan-smem, in that order.
void buildPlanPipeline(mlir::OpPassManager &pm, llvm::StringRef chip,
                       int64_t batchHint, int64_t seqQHint, int64_t seqKVHint,
                       int64_t blockN = 0, int64_t splitKPartitions = 0,
                       bool splitKWorkspace = false,
                       int64_t causalBlockN = kDefaultCausalBlockN,
                       int64_t maxKvStages = 0, int64_t consumerWarpgroups = 0);

template <typename Derived>
void buildPlanPipeline(mlir::OpPassManager &pm,
                       const PlanOptionsBase<Derived> &options) {
  buildPlanPipeline(pm, options.chip, options.batchHint, options.seqQHint,
                    options.seqKVHint, options.blockN, options.splitKPartitions,
                    options.splitKWorkspace, options.causalBlockN,
                    options.maxKvStages, options.consumerWarpgroups);
}

#define GEN_PASS_REGISTRATION
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"

/// The passes and the `attn-plan-pipeline` pipeline.
void registerAttnPlanningPasses();

} // namespace fa4::attn

#endif // FA4_DIALECT_ATTN_TRANSFORMS_PASSES_H
