//===- AttnToFA4.cpp - The convert-attn-to-fa4 pass ----------------------===//
//
// Turns each planned attn.attention into its kernels in the fa4 kernel
// dialect: the FA3 structure for sm_90a plans (HopperKernel.cpp), the FA4
// structure for sm_100a ones (BlackwellKernel.cpp). This file holds the
// pass: its options' checks and the choice of builder.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace fa4 {
#define GEN_PASS_DEF_CONVERTATTNTOFA4
#include "fa4/Conversion/Passes.h.inc"
} // namespace fa4

using namespace mlir;
using namespace fa4;

namespace {
struct ConvertAttnToFA4Pass
    : public fa4::impl::ConvertAttnToFA4Base<ConvertAttnToFA4Pass> {
  using ConvertAttnToFA4Base::ConvertAttnToFA4Base;
  void runOnOperation() override;

private:
  /// Refuses, on `op`, option values out of range or that `op` cannot take.
  LogicalResult checkOptions(attn::AttentionOp op) const;
};
} // namespace

LogicalResult ConvertAttnToFA4Pass::checkOptions(attn::AttentionOp op) const {
  auto refuse = [&](StringRef option, int64_t value, StringRef expected) {
    return op.emitOpError() << "convert-attn-to-fa4: " << option << " is "
                            << value << "; expected " << expected;
  };
  if (structure != "auto" && structure != "fa3" && structure != "fa4")
    return op.emitOpError() << "convert-attn-to-fa4: unknown structure '"
                            << structure << "'; expected fa3, fa4 or auto";
  if (persistentMaxSeqKV < kPlannersPersistentBound ||
      persistentMaxSeqKV > kAlwaysPersistent)
    return refuse("persistent-max-seq-kv", persistentMaxSeqKV,
                  "-1 (the planner's rule), 0 (never) or a bound up to " +
                      std::to_string(kAlwaysPersistent));
  if (polyExp2Period < 0)
    return refuse("poly-exp2-period", polyExp2Period,
                  "0 (every exp2 on MUFU) or a period >= 1");
  if (softmaxReductionChains < 1)
    return refuse("softmax-reduction-chains", softmaxReductionChains,
                  "1 (one chain) or more");
  if (loopProducerRegisters < 24 || loopProducerRegisters > 64 ||
      loopProducerRegisters % 8)
    return refuse("loop-producer-registers", loopProducerRegisters,
                  "a multiple of 8 from 24 (FA3's split) to 64");
  if (kvMulticastCausalMinSeqKV < 0)
    return refuse("kv-multicast-causal-min-seq-kv", kvMulticastCausalMinSeqKV,
                  "0 (every causal kernel) or a key count");
  if (l2SectionBytes < 0)
    return refuse("l2-section-bytes", l2SectionBytes,
                  "0 (heaviest first over every head) or an L2 budget in "
                  "bytes");
  if (trace && !op.getLse())
    return op.emitOpError() << "convert-attn-to-fa4: trace writes its phase "
                               "times over the LSE output, and this op has "
                               "none";
  attn::ConfigAttr config = op.getConfigAttr();
  if (config && structure == "fa4" && config.getChip() != attn::Chip::SM100a)
    return op.emitOpError()
           << "has a plan for " << attn::stringifyChip(config.getChip())
           << "; the FA4 structure targets sm_100a";
  return success();
}

void ConvertAttnToFA4Pass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<attn::AttentionOp> ops;
  module.walk([&](attn::AttentionOp op) { ops.push_back(op); });
  for (attn::AttentionOp op : ops) {
    attn::ConfigAttr config = op.getConfigAttr();
    if (failed(checkOptions(op)))
      return signalPassFailure();
    if (config && config.getChip() == attn::Chip::SM100a &&
        structure != "fa3") {
      if (failed(buildBlackwellKernel(module, op, l2SectionBytes)))
        return signalPassFailure();
      continue;
    }
    if (failed(buildHopperKernel(
            module, op,
            HopperKernelOptions{
                FA3Schedule{pingPong, intraWgOverlap, lazyRescale, tmaStoreO,
                            fuseWorkTiles, narrowLastPV, trace, polyExp2Period,
                            softmaxReductionChains, l2SectionBytes,
                            pairRowBlocks, l2EvictionHints, twinOwnTiles,
                            kvMulticast, kvMulticastTwin, kvMulticastCausal,
                            kvMulticastCausalMinSeqKV, loopProducerRegisters},
                persistent, persistentMaxSeqKV, persistentDecode})))
      return signalPassFailure();
  }
}
