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
  /// Refuses, on `op`, which the Blackwell kernel builds, an option set
  /// away from its default that only the Hopper kernel reads: it would do
  /// nothing.
  LogicalResult checkBlackwellOptions(attn::AttentionOp op) const;
  /// The pass's options as the struct the kernel builders take.
  ConvertAttnToFA4Options options() const {
    ConvertAttnToFA4Options values;
#define FA4_PASS_OPTION_USE(PASS, NAME) FA4_COPY_##PASS(NAME)
#define FA4_COPY_ConvertAttnToFA4(NAME) values.NAME = NAME;
#define FA4_COPY_ConvertFA4ToNVVM(NAME)
#include "fa4/Conversion/PassOptions.inc"
#undef FA4_COPY_ConvertFA4ToNVVM
#undef FA4_COPY_ConvertAttnToFA4
    values.structure = structure;
    return values;
  }
};
} // namespace

LogicalResult ConvertAttnToFA4Pass::checkOptions(attn::AttentionOp op) const {
  auto refuse = [&](StringRef option, int64_t value, StringRef expected) {
    return op.emitOpError() << "convert-attn-to-fa4: " << option << " is "
                            << value << "; expected " << expected;
  };
  if (structure != "auto" && structure != "hopper" && structure != "blackwell")
    return op.emitOpError()
           << "convert-attn-to-fa4: unknown structure '" << structure
           << "'; expected hopper, blackwell or auto";
  if (persistentMaxSeqKV < kPlannersPersistentBound ||
      persistentMaxSeqKV > kAlwaysPersistent)
    return refuse("persistent-max-seq-kv", persistentMaxSeqKV,
                  "-1 (the planner's rule), 0 (never) or a bound up to " +
                      std::to_string(kAlwaysPersistent));
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
  if (config && structure == "blackwell" && config.getChip() != Chip::SM100a)
    return op.emitOpError() << "has a plan for " << chipName(config.getChip())
                            << "; the Blackwell kernel targets sm_100a";
  return success();
}

LogicalResult
ConvertAttnToFA4Pass::checkBlackwellOptions(attn::AttentionOp op) const {
  const ConvertAttnToFA4Options defaults, set = options();
  std::pair<StringRef, bool> hopperOnly[] = {
      {"ping-pong", set.pingPong != defaults.pingPong},
      {"intra-wg-overlap", set.intraWgOverlap != defaults.intraWgOverlap},
      {"lazy-rescale", set.lazyRescale != defaults.lazyRescale},
      {"tma-store-o", set.tmaStoreO != defaults.tmaStoreO},
      {"pair-row-blocks", set.pairRowBlocks != defaults.pairRowBlocks},
      {"loop-producer-registers",
       set.loopProducerRegisters != defaults.loopProducerRegisters},
      {"kv-multicast", set.kvMulticast != defaults.kvMulticast},
      {"kv-multicast-twin", set.kvMulticastTwin != defaults.kvMulticastTwin},
      {"kv-multicast-causal",
       set.kvMulticastCausal != defaults.kvMulticastCausal},
      {"kv-multicast-causal-min-seq-kv",
       set.kvMulticastCausalMinSeqKV != defaults.kvMulticastCausalMinSeqKV},
      {"trace", set.trace != defaults.trace},
      {"persistent", set.persistent != defaults.persistent},
      {"persistent-max-seq-kv",
       set.persistentMaxSeqKV != defaults.persistentMaxSeqKV},
      {"persistent-decode", set.persistentDecode != defaults.persistentDecode},
  };
  for (auto [name, changed] : hopperOnly)
    if (changed)
      return op.emitOpError()
             << "convert-attn-to-fa4: " << name
             << " applies to the Hopper kernel only, and this op's plan is "
                "for sm_100a (the Blackwell kernel): leave it at its default";
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
    if (config && config.getChip() == Chip::SM100a && structure != "hopper") {
      if (referenceFallback) {
        if (std::optional<std::string> why = blackwellKernelRefusal(op)) {
          op.emitRemark() << "left for the reference kernel: the Blackwell "
                             "kernel does not implement this plan: "
                          << *why;
          continue;
        }
      }
      if (failed(checkBlackwellOptions(op)) ||
          failed(buildBlackwellKernel(module, op, options())))
        return signalPassFailure();
      continue;
    }
    if (failed(buildHopperKernel(module, op, options())))
      return signalPassFailure();
  }
}
