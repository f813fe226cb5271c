//===- AttnPlanAttrs.cpp - Plan attributes <-> planner structs ------------===//
//
// Each plan attribute mirrors one struct of fa4/Planning field for field; these
// conversions are the only place that knows both spellings.
//
//===----------------------------------------------------------------------===//

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace fa4::attn;

//===----------------------------------------------------------------------===//
// Enum mapping: the planners keep MLIR-free twins of these enums (the chip
// is the planners' own, fa4::Chip).
//===----------------------------------------------------------------------===//

static SplitKMode toAttr(fa4::SplitKMode mode) {
  return static_cast<SplitKMode>(static_cast<int>(mode));
}
static SplitKReason toAttr(fa4::SplitKReason reason) {
  return static_cast<SplitKReason>(static_cast<int>(reason));
}
// The ODS enums list their cases in the planner enums' order.
static_assert(static_cast<int>(fa4::SplitKMode::Workspace) ==
              static_cast<int>(SplitKMode::Workspace));
static_assert(static_cast<int>(fa4::SplitKReason::TwoQTiles) ==
              static_cast<int>(SplitKReason::TwoQTiles));
static_assert(static_cast<int>(fa4::SplitKReason::AtLaunch) ==
              static_cast<int>(SplitKReason::AtLaunch));
static_assert(static_cast<int>(fa4::KvPath::Gather4) ==
              static_cast<int>(KvPath::Gather4));

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

ConfigAttr ConfigAttr::get(MLIRContext *context,
                           const fa4::AttnConfig &config) {
  return get(context, config.chip, config.mmaM, config.mmaK, config.mPack,
             config.bm, config.bn, config.bk0, config.bk1, config.qkDepth,
             config.paddedQkDepth, config.ovDepth, config.paddedOvDepth,
             config.nopeDepth, config.paddedNopeDepth, config.group,
             config.numQHeads, config.numKVHeads, config.numQ, config.fuseGqa,
             config.useSharedKv, config.pairCta, config.singleO,
             config.pageSize, config.isMla, config.numThreads);
}

fa4::AttnConfig ConfigAttr::toPlan(const fa4::AttnProblem &problem) const {
  fa4::AttnConfig config;
  config.chip = getChip();
  config.elementType = problem.elementType;
  config.outputElementType = problem.outputElementType;
  config.mmaM = getMmaM();
  config.mmaK = getMmaK();
  config.mPack = getMPack();
  config.bm = getBm();
  config.bn = getBn();
  config.bk0 = getBk0();
  config.bk1 = getBk1();
  config.qkDepth = getQkDepth();
  config.paddedQkDepth = getPaddedQkDepth();
  config.ovDepth = getOvDepth();
  config.paddedOvDepth = getPaddedOvDepth();
  config.nopeDepth = getNopeDepth();
  config.paddedNopeDepth = getPaddedNopeDepth();
  config.group = getGroup();
  config.numQHeads = getNumQHeads();
  config.numKVHeads = getNumKvHeads();
  config.numQ = getNumQ();
  config.fuseGqa = getFuseGqa();
  config.useSharedKv = getUseSharedKv();
  config.pairCta = getPairCta();
  config.singleO = getSingleO();
  config.pageSize = getPageSize();
  config.isMla = getIsMla();
  config.numThreads = getNumThreads();
  return config;
}

//===----------------------------------------------------------------------===//
// SplitKAttr
//===----------------------------------------------------------------------===//

SplitKAttr SplitKAttr::get(MLIRContext *context, const fa4::SplitKPlan &plan) {
  return get(context, toAttr(plan.mode), toAttr(plan.reason), plan.partitions,
             plan.clusterSize, plan.kvPerPartition, plan.kvSpan,
             plan.numWorkItems, plan.numCtas, plan.bandColumns,
             plan.partitionsWithBand);
}

fa4::SplitKPlan SplitKAttr::toPlan() const {
  fa4::SplitKPlan plan;
  plan.mode = static_cast<fa4::SplitKMode>(static_cast<int>(getMode()));
  plan.reason = static_cast<fa4::SplitKReason>(static_cast<int>(getReason()));
  plan.partitions = getPartitions();
  plan.clusterSize = getClusterSize();
  plan.kvPerPartition = getKvPerPartition();
  plan.kvSpan = getKvSpan();
  plan.numWorkItems = getWorkItems();
  plan.numCtas = getCtas();
  plan.bandColumns = getBandColumns();
  plan.partitionsWithBand = getPartitionsWithBand();
  return plan;
}

//===----------------------------------------------------------------------===//
// TmemAttr
//===----------------------------------------------------------------------===//

TmemAttr TmemAttr::get(MLIRContext *context, const fa4::TmemPlan &plan) {
  return get(context, plan.tmemS0, plan.tmemS1, plan.tmemO0, plan.tmemO1,
             plan.tmemP0, plan.tmemP1, plan.sColumns, plan.oColumns,
             plan.pColumns, plan.tmemUsed, plan.tmemAllocColumns);
}

fa4::TmemPlan TmemAttr::toPlan() const {
  fa4::TmemPlan plan;
  plan.hasTmem = true;
  plan.tmemS0 = getS0();
  plan.tmemS1 = getS1();
  plan.tmemO0 = getO0();
  plan.tmemO1 = getO1();
  plan.tmemP0 = getP0();
  plan.tmemP1 = getP1();
  plan.sColumns = getSColumns();
  plan.oColumns = getOColumns();
  plan.pColumns = getPColumns();
  plan.tmemUsed = getUsed();
  plan.tmemAllocColumns = getAlloc();
  return plan;
}

//===----------------------------------------------------------------------===//
// SwizzleAttr
//===----------------------------------------------------------------------===//

static TmaBoxAttr toAttr(MLIRContext *context, const fa4::OperandTile &tile) {
  return TmaBoxAttr::get(context, tile.boxRows, tile.boxColumns,
                         tile.swizzleBytes);
}

static fa4::OperandTile toPlan(TmaBoxAttr box, int elementBytes) {
  fa4::OperandTile tile;
  tile.boxRows = box.getRows();
  tile.boxColumns = box.getColumns();
  tile.elementBytes = elementBytes;
  tile.swizzleBytes = box.getSwizzle();
  return tile;
}

SwizzleAttr SwizzleAttr::get(MLIRContext *context,
                             const fa4::SwizzlePlan &plan) {
  return get(context, toAttr(context, plan.q), toAttr(context, plan.k),
             toAttr(context, plan.v), toAttr(context, plan.o),
             static_cast<KvPath>(plan.kvPath));
}

fa4::SwizzlePlan SwizzleAttr::toPlan(const fa4::AttnProblem &problem) const {
  int inputBytes = fa4::elementBytes(problem.elementType);
  fa4::SwizzlePlan plan;
  plan.q = ::toPlan(getQ(), inputBytes);
  plan.k = ::toPlan(getK(), inputBytes);
  plan.v = ::toPlan(getV(), inputBytes);
  plan.o = ::toPlan(getO(), fa4::elementBytes(problem.outputElementType));
  plan.kvPath = static_cast<fa4::KvPath>(getKvPath());
  return plan;
}

//===----------------------------------------------------------------------===//
// SmemAttr
//===----------------------------------------------------------------------===//

SmemAttr SmemAttr::get(MLIRContext *context, const fa4::SmemPlan &plan) {
  Builder builder(context);
  SmallVector<NamedAttribute> regions;
  for (auto [name, region] : fa4::namedRegions(plan))
    regions.push_back(builder.getNamedAttr(
        name, builder.getDenseI64ArrayAttr(
                  {region.offset, region.bytes, region.alignment})));
  return get(context, plan.kvStages, plan.qkStages, plan.pvStages,
             plan.kStageBytes, plan.vStageBytes, plan.numRopeBuffers,
             plan.numBarriers, plan.smemUsed,
             builder.getDictionaryAttr(regions));
}

LogicalResult SmemAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t, int64_t, int64_t, int64_t, int64_t,
                               int64_t, int64_t, int64_t,
                               DictionaryAttr regions) {
  fa4::SmemPlan names;
  for (NamedAttribute named : regions) {
    if (!fa4::findRegion(names, named.getName().strref()))
      return emitError() << "unknown shared-memory region '"
                         << named.getName().strref() << "'";
    auto bounds = dyn_cast<DenseI64ArrayAttr>(named.getValue());
    if (!bounds || bounds.size() != 3)
      return emitError() << "region '" << named.getName().strref()
                         << "' must be array<i64: offset, bytes, alignment>";
  }
  return success();
}

fa4::SmemPlan SmemAttr::toPlan() const {
  fa4::SmemPlan plan;
  plan.kvStages = getKvStages();
  plan.qkStages = getQkStages();
  plan.pvStages = getPvStages();
  plan.kStageBytes = getKStageBytes();
  plan.vStageBytes = getVStageBytes();
  plan.numRopeBuffers = getRopeBuffers();
  plan.numBarriers = getBarriers();
  plan.smemUsed = getSmemUsed();
  for (NamedAttribute named : getRegions()) {
    auto bounds = dyn_cast<DenseI64ArrayAttr>(named.getValue());
    fa4::SmemRegion *region = fa4::findRegion(plan, named.getName().strref());
    assert(bounds && region && "checked by SmemAttr::verify");
    region->offset = bounds[0];
    region->bytes = bounds[1];
    region->alignment = bounds[2];
  }
  return plan;
}
