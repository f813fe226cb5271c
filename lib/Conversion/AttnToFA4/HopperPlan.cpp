//===- HopperPlan.cpp - The sm_90a kernel's plan, from the op -------------===//
//
// The tile, the shared-memory regions, the swizzle and the split-K of an
// attn.attention as the sm_90a kernel builder needs them (HopperKernel.h).
//
//===----------------------------------------------------------------------===//

#include "HopperPlan.h"

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;
using namespace fa4::hopper;

/// How O leaves: by TMA stores where the plan stages it where it may, and
/// where the looped twin stages it (a second Q buffer, or a box of O per
/// consumer past the plan).
static void planStoreOfO(HopperPlan &plan, attn::ConfigAttr config,
                         const fa4::SmemPlan &regions,
                         attn::SwizzleAttr swizzle) {
  // Staged over Q, consumer c's O tile must lie in its own Q tile: the
  // other consumer may still be reading its own.
  plan.oStagingOffset = regions.oStaging.offset;
  bool stagedOverQ =
      regions.oStaging.offset < regions.q.offset + regions.q.bytes &&
      regions.q.offset < regions.oStaging.offset + regions.oStaging.bytes;
  // A packed sequence's last row block ends inside the tensor, where a TMA
  // store would write the next sequence's rows: varlen O leaves from
  // registers, each row checked against its sequence's length.
  plan.canStoreOByTma =
      plan.form == ServingForm::Dense && !plan.decode && !plan.workspace &&
      !plan.clusterSplit() &&
      regions.oStaging.bytes >=
          config.getNumQ() * kRowsPerConsumer * plan.paddedOv * 2 &&
      (!stagedOverQ || (regions.oStaging.offset == regions.q.offset &&
                        plan.paddedOv <= config.getPaddedQkDepth())) &&
      boxShape(swizzle.getO()) == std::make_tuple(int64_t(kRowsPerConsumer),
                                                  int64_t(kBoxColumns),
                                                  int64_t(kSwizzleBytes));
  // The looped kernel's region past the plan: a second Q buffer where O
  // fits in a Q tile and shared memory has room, else one box of O per
  // consumer (HopperPlan::loopStagingOffset).
  const TargetInfo &hopper = getTargetInfo(Chip::SM90a);
  std::optional<int64_t> secondQ =
      pastPlanOffset(plan.smemUsed, plan.secondQBufferBytes(), hopper);
  plan.loopDoubleQ =
      plan.canStoreOByTma && !plan.decode && !plan.consumersSplitKeys &&
      plan.rowGroup == 1 && plan.ovBoxes >= kMinBoxesToStageOverQ &&
      plan.paddedOv <= config.getPaddedQkDepth() && secondQ.has_value();
  std::optional<int64_t> loopStaging =
      plan.loopDoubleQ
          ? secondQ
          : loopedTwinStagingOffset(plan.smemUsed, config.getBm(), hopper);
  if (plan.canStoreOByTma && loopStaging)
    plan.loopStagingOffset = *loopStaging;
}

/// What this kernel implements of an sm_90a plan, and a plan whose regions
/// hold what it places in them.
static LogicalResult checkImplemented(attn::PlannedAttentionOpInterface op,
                                      const HopperPlan &plan,
                                      attn::ConfigAttr config,
                                      attn::SmemAttr smem,
                                      attn::SwizzleAttr swizzle) {
  // Gathered pages are copied in groups of any row count (cp.async places
  // each row as the tile's TMA box would): the swizzle plans a tile's box.
  bool copied = plan.form == ServingForm::Paged && !plan.pagesHoldBoxes;
  int64_t kvTileBoxRows = copied ? plan.bn : plan.kvBoxRows;
  if (config.getMmaM() != kRowsPerConsumer ||
      config.getBm() != config.getNumQ() * kRowsPerConsumer ||
      config.getPaddedQkDepth() % kBoxColumns || plan.paddedOv % kBoxColumns ||
      plan.paddedOv > 256 || plan.bn % 16 || plan.bn > 256 ||
      config.getUseSharedKv() ||
      boxShape(swizzle.getQ()) != std::make_tuple(int64_t(kRowsPerConsumer),
                                                  int64_t(kBoxColumns),
                                                  int64_t(kSwizzleBytes)) ||
      boxShape(swizzle.getK()) != std::make_tuple(kvTileBoxRows,
                                                  int64_t(kBoxColumns),
                                                  int64_t(kSwizzleBytes)) ||
      boxShape(swizzle.getV()) != std::make_tuple(kvTileBoxRows,
                                                  int64_t(kBoxColumns),
                                                  int64_t(kSwizzleBytes)) ||
      (copied ? 0 : plan.kvBoxRows % 8) || plan.bn % plan.kvBoxRows ||
      (plan.pageSize && plan.pageSize % plan.kvBoxRows))
    return op->emitOpError()
           << "has an sm_90a plan this kernel does not implement (it needs "
              "64-row consumer tiles, depths in 64-column 128B-swizzled boxes, "
              "Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN "
              "rows or of whole 8-row groups within a page that tile BN, and "
              "separate K/V rings), got "
           << config;
  if (plan.rowGroup > kRowsPerConsumer)
    return op->emitOpError() << "fuses " << plan.rowGroup
                             << " q-heads per kv-head into a 64-row tile; at "
                                "most 64 fit";
  if (plan.clusterSplit() &&
      plan.stagingOffset + plan.partialsPerCta() * plan.stagedPartialBytes() >
          plan.barrierOffset)
    return op->emitOpError() << "has a split-K staging region that overlaps "
                                "its barriers: "
                             << smem;
  if (plan.kStageBytes < plan.qkBoxes * plan.kBoxBytes() ||
      plan.vStageBytes < plan.ovBoxes * plan.kBoxBytes() ||
      plan.barrierBytes < plan.numBarriers() * 8)
    return op->emitOpError() << "has a shared-memory plan too small for its "
                                "K/V slots or its "
                             << plan.numBarriers() << " mbarriers: " << smem;
  return success();
}

FailureOr<HopperPlan>
fa4::hopper::readPlan(attn::PlannedAttentionOpInterface op,
                      attn::ConfigAttr config, attn::SmemAttr smem,
                      attn::SwizzleAttr swizzle) {
  if (!config || !smem || !swizzle)
    return op->emitOpError()
           << "needs #attn.config, #attn.swizzle and #attn.smem; run "
              "attn-plan-pipeline{chip=sm_90a} first";
  if (config.getChip() != Chip::SM90a)
    return op->emitOpError() << "has a plan for " << chipName(config.getChip())
                             << "; this lowering targets sm_90a";
  FailureOr<KernelPlan> common = readKernelPlan(op, config, smem);
  if (failed(common))
    return failure();
  HopperPlan plan;
  static_cast<KernelPlan &>(plan) = *common;
  if (failed(readKvBoxRows(op, plan, swizzle, plan.bn, "Hopper",
                           /*copiesGatheredPages=*/true)))
    return failure();
  plan.numConsumers = config.getNumQ();
  // Without a split there is no combine to merge two consumers' partials:
  // one consumer takes the work item's rows. Each consumer holds its last
  // tile's slot until that tile's P V is issued after the next QK^T, two
  // tiles on: with two stages its next tile would wait for the very slot it
  // holds (a deadlock), and with three only one tile loads while both
  // consumers hold theirs (2.26 TB/s against 2.96 for one consumer,
  // D-32). The split takes four or more.
  plan.consumersSplitKeys = plan.partitions > 1 && plan.numConsumers == 2 &&
                            smem.getKvStages() >= kMinStagesToSplitKeys;
  if (plan.decode && !plan.consumersSplitKeys)
    plan.numConsumers = 1;
  planStoreOfO(plan, config, smem.toPlan(), swizzle);
  if (failed(checkImplemented(op, plan, config, smem, swizzle)))
    return failure();
  return plan;
}
