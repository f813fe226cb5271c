//===- SmemPlan.cpp - Shared-memory layout and stage counts ---------------===//
//
// Regions, in address order: Q, O staging (or inside Q), the K ring and the
// V ring (or one shared ring), MLA rope buffers, split-K staging (or over Q
// and the rings), correction scales, the TMEM address slot, mbarriers. Every
// TMA destination is aligned to its swizzle pattern's repeat, 8 rows of the
// swizzle width (1024 bytes for 128B), and to at least 128 bytes (the
// cp.async.bulk.tensor destination rule).
//
// kvStages is the largest slot count up to the chip's cap whose layout fits
// the carveout: TargetInfo::maxKvStagesPerRing for separate K and V rings
// (6 on sm_90a, 4 on sm_100a), twice that for a shared ring (the same K/V
// pairs in flight). What hides HBM latency is bytes in flight (Little's law:
// ~2 us x a CTA's share of the bandwidth), not tiles: a prefill tile of 176
// keys fills the carveout in 2 stages, while a decode CTA streaming 64-key
// tiles needs 5-6 of them to keep ~160 KB moving. One stage that does not
// fit is an error.
//
// mbarriers (8 bytes each): one full barrier per Q tile; per ring slot one
// full barrier per depth box and one empty barrier; on sm_100a five per Q
// tile for the MMA/softmax/correction/epilogue hand-offs (S ready, P ready,
// O ready, O rescaled, O staged), and under CTA pairs a sixth (the
// correction has read the factors); on sm_90a one empty barrier per Q tile
// (a persistent CTA reloads a consumer's Q as soon as that consumer is
// done with it); one cluster publish barrier for split-K through DSMEM.
// The sm_90a consumers hand off through named barriers, which take no
// memory.
//
//===----------------------------------------------------------------------===//

#include "fa4/Planning/SmemPlan.h"
#include "fa4/Planning/Config.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace fa4;

namespace {
/// cp.async.bulk.tensor needs a 128-byte aligned shared-memory destination.
constexpr int64_t kTmaDestinationAlignment = 128;
/// Per sm_100a Q tile: S full, P ready, O done, statistics ready, and O
/// staged (for the epilogue warp's TMA store).
constexpr int kBlackwellBarriersPerQTile = 5;
constexpr int64_t kF32Bytes = 4;
/// Softmax writes one rescale factor per row per KV tile, double-buffered.
constexpr int64_t kCorrectionBuffers = 2;
/// tcgen05.alloc writes a 32-bit TMEM address to shared memory.
constexpr int64_t kTmemAddressBytes = 4;
/// A looped twin's plan keeps at least this many K/V slots when it makes
/// room for its O staging: one tile loading while the consumers read the
/// other (FA3 runs d = 128 with two).
constexpr int kMinStagesWithTwinStaging = 2;

int64_t tmaAlignment(const OperandTile &tile) {
  return std::max(kTmaDestinationAlignment,
                  int64_t(kSwizzleAtomRows) * tile.swizzleBytes);
}

/// Places regions one after another.
class RegionAllocator {
public:
  void place(SmemRegion &region, int64_t bytes, int64_t alignment) {
    region.bytes = bytes;
    region.alignment = alignment;
    if (bytes == 0)
      return;
    region.offset = llvm::alignTo(cursor, alignment);
    cursor = region.end();
  }
  /// Places `region` at `hostOffset` when it fits in the `hostBytes` there,
  /// else after the regions placed so far.
  void placeOrAlias(SmemRegion &region, int64_t hostOffset, int64_t hostBytes,
                    int64_t bytes, int64_t alignment) {
    if (bytes > 0 && bytes <= hostBytes && hostOffset % alignment == 0) {
      region.bytes = bytes;
      region.alignment = alignment;
      region.offset = hostOffset;
      region.aliased = true;
      return;
    }
    place(region, bytes, alignment);
  }
  int64_t size() const { return cursor; }

private:
  int64_t cursor = 0;
};
} // namespace

/// The most ring slots the chip's stage cap gives this configuration.
static int maxKvSlots(const AttnConfig &config) {
  int perRing = getTargetInfo(config.chip).maxKvStagesPerRing;
  return config.useSharedKv ? 2 * perRing : perRing;
}

/// The layout with `kvStages` ring slots.
static SmemPlan layout(const AttnConfig &config, const SplitKPlan &splitK,
                       const SwizzlePlan &swizzle, const TmemPlan &tmem,
                       int kvStages) {
  SmemPlan plan;
  int64_t inBytes = elementBytes(config.elementType);
  int64_t outBytes = elementBytes(config.outputElementType);
  plan.kvStages = kvStages;
  plan.qkStages =
      int(llvm::divideCeil(config.paddedQkDepth, swizzle.k.boxColumns));
  plan.pvStages =
      int(llvm::divideCeil(config.vColsPerCta(), swizzle.v.boxColumns));

  int64_t qAlignment = tmaAlignment(swizzle.q);
  int64_t kAlignment = tmaAlignment(swizzle.k);
  int64_t vAlignment = tmaAlignment(swizzle.v);
  // A shared ring without MLA holds whole K tiles; with MLA it holds the
  // nope part and the rope part goes to its own buffers.
  int kRingDepth = config.isMla && config.useSharedKv ? config.paddedNopeDepth
                                                      : config.paddedQkDepth;
  int64_t kTileBytes = int64_t(config.kRowsPerCta()) * kRingDepth * inBytes;
  int64_t vTileBytes = int64_t(config.bn) * config.vColsPerCta() * inBytes;

  RegionAllocator allocator;
  allocator.place(plan.q, int64_t(config.bm) * config.paddedQkDepth * inBytes,
                  qAlignment);
  bool clusterSplit = splitK.mode == SplitKMode::ClusterDsmem;
  if (!clusterSplit)
    allocator.placeOrAlias(plan.oStaging, plan.q.offset, plan.q.bytes,
                           int64_t(config.bm) * config.paddedOvDepth * outBytes,
                           tmaAlignment(swizzle.o));
  int numFullBarriers;
  if (config.useSharedKv) {
    int64_t ringAlignment = std::max(kAlignment, vAlignment);
    int64_t slotBytes =
        llvm::alignTo(std::max(kTileBytes, vTileBytes), ringAlignment);
    plan.kStageBytes = plan.vStageBytes = slotBytes;
    allocator.place(plan.kRing, kvStages * slotBytes, ringAlignment);
    numFullBarriers = kvStages * std::max(plan.qkStages, plan.pvStages);
    if (config.ropeDepth() > 0) {
      // K and V alternate, so at most every other slot holds a K tile.
      plan.numRopeBuffers = int(llvm::divideCeil(kvStages, 2));
      int64_t ropeBytes = llvm::alignTo(int64_t(config.kRowsPerCta()) *
                                            config.ropeDepth() * inBytes,
                                        kAlignment);
      allocator.place(plan.rope, plan.numRopeBuffers * ropeBytes, kAlignment);
    }
  } else {
    plan.kStageBytes = llvm::alignTo(kTileBytes, kAlignment);
    plan.vStageBytes = llvm::alignTo(vTileBytes, vAlignment);
    allocator.place(plan.kRing, kvStages * plan.kStageBytes, kAlignment);
    allocator.place(plan.vRing, kvStages * plan.vStageBytes, vAlignment);
    numFullBarriers = kvStages * (plan.qkStages + plan.pvStages);
  }
  int numRingSlots = config.useSharedKv ? kvStages : 2 * kvStages;

  if (clusterSplit) {
    // BM rows: one partial per 128-row tile (sm_100a) or per 64-row
    // consumer tile, two of them (sm_90a).
    int64_t mainLoopBytes = allocator.size() - plan.q.offset;
    allocator.placeOrAlias(
        plan.splitKStaging, plan.q.offset, mainLoopBytes,
        splitKStagedPartialBytes(config.bm, config.paddedOvDepth),
        kTmaDestinationAlignment);
  }
  if (config.chip == Chip::SM100a)
    allocator.place(plan.correction,
                    int64_t(config.bm) * kF32Bytes * kCorrectionBuffers,
                    kTmaDestinationAlignment);
  if (tmem.hasTmem)
    allocator.place(plan.tmemAddress, kTmemAddressBytes, kTmemAddressBytes);

  plan.numBarriers =
      config.numQ + numFullBarriers + numRingSlots +
      (config.chip == Chip::SM100a
           ? (kBlackwellBarriersPerQTile + (config.pairCta ? 1 : 0)) *
                 config.numQ
           : config.numQ) +
      (clusterSplit ? 1 : 0);
  int64_t mbarrierBytes = getTargetInfo(config.chip).mbarrierBytes;
  allocator.place(plan.barriers, plan.numBarriers * mbarrierBytes,
                  mbarrierBytes);
  plan.smemUsed = allocator.size();
  return plan;
}

llvm::FailureOr<SmemPlan>
fa4::planSmem(const AttnProblem &problem, const AttnConfig &config,
              const SplitKPlan &splitK, const SwizzlePlan &swizzle,
              const TmemPlan &tmem, const TargetInfo &target,
              llvm::raw_ostream &whyNot) {
  int maxStages = maxKvSlots(config);
  // A shared ring needs a K and a V slot to overlap loads with MMAs.
  int minStages = config.useSharedKv ? 2 : 1;
  if (problem.maxKvStages < 0 ||
      (problem.maxKvStages > 0 && problem.maxKvStages < minStages)) {
    whyNot << "expected max-kv-stages to be 0 (as many as fit) or at least "
           << minStages << " (the fewest ring slots this kernel streams "
           << "through), but got " << problem.maxKvStages;
    return llvm::failure();
  }
  if (problem.maxKvStages > 0)
    maxStages = std::min<int>(maxStages, int(problem.maxKvStages));
  bool twin = plansLoopedTwin(problem, config, splitK);
  for (int kvStages = maxStages; kvStages >= minStages; --kvStages) {
    SmemPlan plan = layout(config, splitK, swizzle, tmem, kvStages);
    if (plan.smemUsed > target.smemCarveoutBytes)
      continue;
    // The most slots that fit; with a looped twin, the most (at least two)
    // that leave room for its O staging (a box per consumer; the lowering
    // takes a second Q buffer instead where that fits too), else these.
    for (int fewer = kvStages; twin && fewer >= kMinStagesWithTwinStaging;
         --fewer) {
      SmemPlan withRoom = layout(config, splitK, swizzle, tmem, fewer);
      if (loopedTwinStagingOffset(withRoom.smemUsed, config.bm, target))
        return withRoom;
    }
    return plan;
  }
  SmemPlan smallest = layout(config, splitK, swizzle, tmem, minStages);
  whyNot << "shared-memory plan needs " << smallest.smemUsed << " bytes with "
         << minStages << " KV slot(s) (Q " << smallest.q.bytes << ", K ring "
         << smallest.kRing.bytes << ", V ring " << smallest.vRing.bytes
         << ", other "
         << smallest.smemUsed - smallest.q.bytes - smallest.kRing.bytes -
                smallest.vRing.bytes
         << ") but " << chipName(target.chip) << " allows "
         << target.smemCarveoutBytes;
  return llvm::failure();
}

std::optional<int64_t> fa4::pastPlanOffset(int64_t smemUsed, int64_t bytes,
                                           const TargetInfo &target) {
  constexpr int64_t kSwizzle128BAtomBytes = 1024;
  int64_t offset = llvm::alignTo(smemUsed, kSwizzle128BAtomBytes);
  if (offset + bytes > target.smemCarveoutBytes)
    return std::nullopt;
  return offset;
}

/// Every region of a plan with its name, in the order explain() prints them.
static constexpr std::pair<llvm::StringLiteral, SmemRegion SmemPlan::*>
    kRegionNames[] = {{"q", &SmemPlan::q},
                      {"oStaging", &SmemPlan::oStaging},
                      {"kRing", &SmemPlan::kRing},
                      {"vRing", &SmemPlan::vRing},
                      {"rope", &SmemPlan::rope},
                      {"splitKStaging", &SmemPlan::splitKStaging},
                      {"correction", &SmemPlan::correction},
                      {"tmemAddress", &SmemPlan::tmemAddress},
                      {"barriers", &SmemPlan::barriers}};

llvm::SmallVector<std::pair<llvm::StringRef, SmemRegion>>
fa4::namedRegions(const SmemPlan &plan) {
  llvm::SmallVector<std::pair<llvm::StringRef, SmemRegion>> regions;
  for (auto [name, member] : kRegionNames)
    if ((plan.*member).present())
      regions.push_back({name, plan.*member});
  return regions;
}

SmemRegion *fa4::findRegion(SmemPlan &plan, llvm::StringRef name) {
  for (auto [regionName, member] : kRegionNames)
    if (regionName == name)
      return &(plan.*member);
  return nullptr;
}

void fa4::explain(const SmemPlan &plan, const AttnConfig &config,
                  llvm::raw_ostream &os) {
  const TargetInfo &target = getTargetInfo(config.chip);
  os << "smem: " << plan.smemUsed << " of " << target.smemCarveoutBytes
     << " bytes; kvStages = " << plan.kvStages << " "
     << (config.useSharedKv ? "slots of one shared K/V ring"
                            : "per K and per V ring")
     << ", as many as fit up to " << maxKvSlots(config);
  if (config.chip == Chip::SM90a) {
    int64_t masked = loopedTwinMaxSeqKV(config, MaskKind::Causal);
    int64_t unmasked = loopedTwinMaxSeqKV(config, MaskKind::None);
    os << ", fewer (down to 2) where a prefill kernel's looped twin stages O "
          "past the plan (Dv <= 128, a "
          "dynamic Skv or one up to "
       << masked;
    if (unmasked != masked)
      os << ", " << unmasked << " without a mask";
    os << ")";
  }
  os << ", or max-kv-stages\n";
  os << "  qkStages = " << plan.qkStages << ", pvStages = " << plan.pvStages
     << ": K and V tiles land in depth boxes with a barrier each, so the "
        "MMAs start on the first box\n";
  for (auto [name, region] : namedRegions(plan)) {
    os << "  " << name << ": [" << region.offset << ", " << region.end()
       << "), align " << region.alignment;
    if (region.aliased)
      os << ", reuses "
         << (name == "oStaging" ? "q (dead after the last QK^T)"
                                : "q and the KV rings (dead after the last KV "
                                  "tile)");
    os << "\n";
  }
  os << "  " << plan.numBarriers << " mbarriers";
  if (plan.numRopeBuffers > 0)
    os << ", " << plan.numRopeBuffers
       << " rope buffers (K is in every other slot of the shared ring)";
  os << "\n";
}
