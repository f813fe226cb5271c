//===- AttnToFA4.cpp - The convert-attn-to-fa4 pass ----------------------===//
//
// Turns each planned attn.attention into its kernels in the fa4 kernel
// dialect: the FA3 structure for sm_90a plans (HopperKernel.cpp), the FA4
// structure for sm_100a ones (BlackwellKernel.cpp). This file holds the
// pass: its options' checks and the builder of the plan's chip.
//
//===----------------------------------------------------------------------===//

#include "../Common/Unlowered.h"
#include "KernelFunc.h"
#include "Kernels.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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

static StringRef kernelName(Chip chip) {
  return chip == Chip::SM90a ? "the Hopper kernel" : "the Blackwell kernel";
}

namespace {
struct ConvertAttnToFA4Pass
    : public fa4::impl::ConvertAttnToFA4Base<ConvertAttnToFA4Pass> {
  using ConvertAttnToFA4Base::ConvertAttnToFA4Base;
  void runOnOperation() override;

private:
  /// Refuses, on `op`, option values out of range or that `op` cannot take.
  LogicalResult checkOptions(attn::PlannedAttentionOpInterface op) const;
  /// Refuses, on `op`, whose plan is for `chip`, an option of the other
  /// chip's builder set away from its default: it would do nothing.
  LogicalResult checkOptionGroups(attn::PlannedAttentionOpInterface op,
                                  Chip chip) const;
  /// The builder of `chip`, with its options group.
  std::unique_ptr<KernelBuilder> builderFor(Chip chip) const;
  void dropRefusedServingVariants(ModuleOp module) const;
};
} // namespace

LogicalResult
ConvertAttnToFA4Pass::checkOptions(attn::PlannedAttentionOpInterface op) const {
  auto refuse = [&](StringRef option, int64_t value, StringRef expected) {
    return op->emitOpError() << "convert-attn-to-fa4: " << option << " is "
                             << value << "; expected " << expected;
  };
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
  if (trace && !returnsLse(op))
    return op->emitOpError() << "convert-attn-to-fa4: trace writes its phase "
                                "times over the LSE output, and this op has "
                                "none";
  return success();
}

LogicalResult
ConvertAttnToFA4Pass::checkOptionGroups(attn::PlannedAttentionOpInterface op,
                                        Chip chip) const {
  auto refuse = [&](StringRef argument, Chip optionChip) {
    return op->emitOpError()
           << "convert-attn-to-fa4: " << argument << " applies to "
           << kernelName(optionChip) << " only, and this op's plan is for "
           << chipName(chip) << " (" << kernelName(chip)
           << "): leave it at its default";
  };
#define FA4_PASS_OPTION_CHIP(PASS, TYPE, NAME, ARGUMENT, DEFAULT, CHIP)        \
  FA4_CHECK_GROUP_##PASS(NAME, ARGUMENT, DEFAULT, kOptionChip##CHIP)
#define FA4_CHECK_GROUP_ConvertFA4ToNVVM(NAME, ARGUMENT, DEFAULT, OPTION_CHIP)
#define FA4_CHECK_GROUP_ConvertAttnToFA4(NAME, ARGUMENT, DEFAULT, OPTION_CHIP) \
  if (OPTION_CHIP && *OPTION_CHIP != chip && NAME != TYPE_OF(NAME)(DEFAULT))   \
    return refuse(ARGUMENT, *OPTION_CHIP);
#define TYPE_OF(NAME) std::decay_t<decltype(NAME.getValue())>
#include "fa4/Conversion/PassOptions.inc"
#undef TYPE_OF
#undef FA4_CHECK_GROUP_ConvertAttnToFA4
#undef FA4_CHECK_GROUP_ConvertFA4ToNVVM
  return success();
}

std::unique_ptr<KernelBuilder>
ConvertAttnToFA4Pass::builderFor(Chip chip) const {
  // Each group's fields from the pass's options of the same name.
#define FA4_COPY_ConvertAttnToFA4(NAME) group.NAME = NAME;
#define FA4_COPY_ConvertFA4ToNVVM(NAME)
#define FA4_COPY_FIELD(PASS, TYPE, NAME, DEFAULT) FA4_COPY_##PASS(NAME)
#define FA4_COPY_NONE(PASS, TYPE, NAME, DEFAULT)
  if (chip == Chip::SM90a) {
    HopperKernelOptions group;
#define FA4_GROUP_SM90a FA4_COPY_FIELD
#define FA4_GROUP_AnyChip FA4_COPY_FIELD
#define FA4_GROUP_SM100a FA4_COPY_NONE
#define FA4_PASS_OPTION_CHIP(PASS, TYPE, NAME, ARGUMENT, DEFAULT, CHIP)        \
  FA4_GROUP_##CHIP(PASS, TYPE, NAME, DEFAULT)
#include "fa4/Conversion/PassOptions.inc"
#undef FA4_GROUP_SM90a
#undef FA4_GROUP_AnyChip
#undef FA4_GROUP_SM100a
    return createHopperKernelBuilder(group);
  }
  BlackwellKernelOptions group;
#define FA4_GROUP_SM100a FA4_COPY_FIELD
#define FA4_GROUP_AnyChip FA4_COPY_FIELD
#define FA4_GROUP_SM90a FA4_COPY_NONE
#define FA4_PASS_OPTION_CHIP(PASS, TYPE, NAME, ARGUMENT, DEFAULT, CHIP)        \
  FA4_GROUP_##CHIP(PASS, TYPE, NAME, DEFAULT)
#include "fa4/Conversion/PassOptions.inc"
#undef FA4_GROUP_SM100a
#undef FA4_GROUP_AnyChip
#undef FA4_GROUP_SM90a
  return createBlackwellKernelBuilder(group);
}

/// A serving form's decode variant (attn-decode-variants) that the chip's
/// kernel does not implement is dropped rather than lowered or refused: the
/// kernel of the op it was made from serves every Sq, decode included, as
/// the reference kernel's does.
void ConvertAttnToFA4Pass::dropRefusedServingVariants(ModuleOp module) const {
  SmallVector<func::FuncOp> refused;
  module.walk([&](attn::PlannedAttentionOpInterface op) {
    attn::ConfigAttr config = op.getConfigAttr();
    if (isa<attn::AttentionOp>(op.getOperation()) || !config ||
        !op->hasAttr(attn::kDecodeVariantOfAttrName))
      return;
    if (builderFor(config.getChip())->refusal(op))
      if (auto variant = op->getParentOfType<func::FuncOp>())
        refused.push_back(variant);
  });
  for (func::FuncOp variant : refused) {
    StringAttr name = variant.getSymNameAttr();
    module.walk([&](Operation *op) {
      auto ref =
          op->getAttrOfType<FlatSymbolRefAttr>(attn::kDecodeVariantAttrName);
      if (ref && ref.getAttr() == name)
        op->removeAttr(attn::kDecodeVariantAttrName);
    });
    variant.erase();
  }
}

void ConvertAttnToFA4Pass::runOnOperation() {
  ModuleOp module = getOperation();
  // The backward pass has a reference kernel only.
  if (referenceFallback)
    module.walk([](attn::AttentionBackwardOp op) {
      op->emitRemark() << "left for the reference kernel: no tensor-core "
                          "kernel lowers the backward pass yet";
    });
  else if (failed(refuseBackward(module)))
    return signalPassFailure();
  dropRefusedServingVariants(module);
  SmallVector<attn::PlannedAttentionOpInterface> ops;
  module.walk([&](attn::PlannedAttentionOpInterface op) { ops.push_back(op); });
  for (attn::PlannedAttentionOpInterface op : ops) {
    attn::ConfigAttr config = op.getConfigAttr();
    if (!config) {
      op->emitOpError() << "needs #attn.config, #attn.swizzle and "
                           "#attn.smem; run attn-plan-pipeline first";
      return signalPassFailure();
    }
    Chip chip = config.getChip();
    // The Blackwell kernel says itself which FP8 plans it lowers.
    if (chip == Chip::SM90a && failed(refuseUnlowered(op, kernelName(chip))))
      return signalPassFailure();
    if (failed(checkOptions(op)) || failed(checkOptionGroups(op, chip)))
      return signalPassFailure();
    std::unique_ptr<KernelBuilder> builder = builderFor(chip);
    if (referenceFallback)
      if (std::optional<std::string> why = builder->refusal(op)) {
        op->emitRemark() << "left for the reference kernel: "
                         << kernelName(chip)
                         << " does not implement this plan: " << *why;
        continue;
      }
    if (failed(builder->build(module, op)))
      return signalPassFailure();
  }
}
