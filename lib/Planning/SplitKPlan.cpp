//===- SplitKPlan.cpp - Split the KV sequence across CTAs -----------------===//
//
// The rule:
//   W  = batch x (kv-heads if fuseGqa else q-heads) x M tiles per head
//        work items, each taking ctaGroup CTAs; M tiles per head are
//        ceil(seqQ / (BM_eff x ctaGroup)), or ceil(group x seqQ / BM) when
//        a fused group outnumbers the tile rows (AttnConfig::tilesHeads).
//   When batch or seqKV is dynamic with no hint, but seqQ is known and gives
//   one work item per head (a decode), the split is left to the launch: a
//   workspace split with reason at_launch, at most #SMs partitions, whose
//   count the runtime picks by the rule below from the launch's sizes
//   (W from the grid, the span = seqKV), except that where the minimum of
//   4 KV tiles leaves fewer than kSplitKAtLaunchMinPartitions partitions it
//   takes up to that many of one tile each. Under a window bounded on the left
//   the span is not seqKV, and under pairCta a work item is two CTAs: no
//   split there, nor when seqQ is unknown (a prefill would lose its
//   persistent schedule).
//   P  = floor(#SMs / (W x ctaGroup)): the most partitions that still run in
//        one wave (CTAs <= #SMs); ceil would start a second, partial wave
//        that only lengthens the kernel. No split when that is below 2.
//   P  = min(P, floor(span / (4 x BN))): each partition streams at least 4
//        KV tiles (kSplitKMinTilesPerPartition), where span is the keys one
//        work item visits (seqKV, fewer under a window bounded on the left).
//        No split when that is below 2.
//   Keys per partition = alignTo(ceil(span / P), BN); P is then recounted so
//   no partition of the planned size is empty.
//   ClusterDsmem when P <= 16, the non-portable cluster limit (docs/Design.md
//   measured clusters of 16 on the H200), or when capping P at 16 still
//   keeps 3/4 of the SMs busy: a cluster combine costs no second launch and
//   no HBM round trip for the partials. Otherwise Workspace with the full P.
//   Under pairCta the cluster already holds the CTA pair, so a split uses
//   the workspace.
//
//===----------------------------------------------------------------------===//

#include "fa4/Planning/SplitKPlan.h"
#include "fa4/Limits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace fa4;

/// One 16-byte unit of a 16-bit output row: the combine's store granule.
static constexpr int kBandGranuleColumns = 8;

llvm::StringRef fa4::splitKModeName(SplitKMode mode) {
  switch (mode) {
  case SplitKMode::None:
    return "none";
  case SplitKMode::ClusterDsmem:
    return "cluster-dsmem";
  case SplitKMode::Workspace:
    return "workspace";
  }
  llvm_unreachable("unknown split-K mode");
}

/// The query positions the rows of one work item touch, and the step between
/// the first positions of consecutive work items.
struct WorkItemPositions {
  int64_t count;
  int64_t stride;
};

static WorkItemPositions workItemPositions(const AttnConfig &config) {
  int64_t rows = int64_t(config.bm) * config.ctaGroup();
  if (!config.tilesHeads()) {
    int64_t positions = int64_t(config.bmEff()) * config.ctaGroup();
    return {positions, positions};
  }
  // Tiles of `rows` consecutive (position, head) rows, position-major: a tile
  // stays within one position when `rows` divides the group, else it may
  // straddle into the next; work items start at every position.
  int64_t group = config.group;
  int64_t count = group % rows == 0 ? 1 : 1 + llvm::divideCeil(rows - 1, group);
  return {count, 1};
}

/// Keys one work item visits, at most: all of seqKV, except under a window
/// bounded on the left. Windows sit on the bottom-right diagonal: query
/// position i sees keys [i + d - left, i + d + right], d = seqKV - seqQ, with
/// an unbounded right side reaching the last key. A work item whose rows are
/// positions [f, f + n) sees the union of its rows' ranges, [f + d - left,
/// f + n - 1 + d + right], clipped to [0, seqKV); the span is the largest such
/// union over the work items (n = min(positions per work item, seqQ)), so
/// every partition of alignTo(ceil(span / P), BN) keys covers its share.
static int64_t visitedKeys(const AttnProblem &problem, int64_t seqQ,
                           int64_t seqKV, WorkItemPositions item) {
  if (problem.mask != MaskKind::Window || problem.windowLeft < 0)
    return seqKV;
  int64_t rows = std::min(item.count, seqQ);
  int64_t diagonal = seqKV - seqQ;
  int64_t left = problem.windowLeft;
  int64_t right = problem.windowRight;
  auto keysOfItem = [&](int64_t index) {
    int64_t first = index * item.stride;
    int64_t last = std::min(first + rows, seqQ) - 1;
    int64_t lo = std::max<int64_t>(0, first + diagonal - left);
    int64_t hi =
        right < 0 ? seqKV - 1 : std::min(seqKV - 1, last + diagonal + right);
    return std::max<int64_t>(0, hi - lo + 1);
  };
  // Over the work items with all `rows` positions, the key count is
  // piecewise linear in the first position, with breakpoints where the union
  // reaches key 0 and key seqKV - 1, so it is largest next to a breakpoint or
  // at an end; the few work items past the last full one are counted one by
  // one.
  int64_t lastItem = (seqQ - 1) / item.stride;
  int64_t lastFullItem = (seqQ - rows) / item.stride;
  llvm::SmallVector<int64_t> candidates = {0, lastFullItem};
  llvm::SmallVector<int64_t> breakpoints = {left - diagonal};
  if (right >= 0)
    breakpoints.push_back(seqKV - rows - diagonal - right);
  for (int64_t breakpoint : breakpoints) {
    int64_t index = llvm::divideFloorSigned(breakpoint, item.stride);
    candidates.push_back(index);
    candidates.push_back(index + 1);
  }
  int64_t span = 0;
  for (int64_t index : candidates)
    span =
        std::max(span, keysOfItem(std::clamp<int64_t>(index, 0, lastFullItem)));
  for (int64_t index = lastFullItem + 1; index <= lastItem; ++index)
    span = std::max(span, keysOfItem(index));
  return span;
}

namespace {
/// A split-K planner's view of one problem: the sizes it plans with and
/// the limits the kernel and chip set.
struct SplitKInputs {
  const AttnProblem &problem;
  const AttnConfig &config;
  const TargetInfo &target;
  int64_t batch, seqQ, seqKV;
  int64_t minKVPerPartition;
  /// The Blackwell kernel splits only work items of one 128-row Q tile.
  bool kernelSplits;
};
} // namespace

/// Sizes known only at launch: a decode that may split there (through the
/// workspace, the partition count picked per launch), else no split.
static SplitKPlan planAtLaunch(const SplitKInputs &in, SplitKPlan plan) {
  plan.reason = SplitKReason::UnknownSizes;
  const AttnProblem &problem = in.problem;
  bool spanIsSeqKV = problem.mask != MaskKind::Window || problem.windowLeft < 0;
  bool decode = in.seqQ != kDynamic && in.config.workItemsPerHead(in.seqQ) == 1;
  bool keysAllowTwo =
      in.seqKV == kDynamic || in.seqKV >= 2 * in.minKVPerPartition;
  if (decode && spanIsSeqKV && keysAllowTwo && !in.config.pairCta &&
      in.kernelSplits && problem.splitKPartitions == 0) {
    plan.mode = SplitKMode::Workspace;
    plan.reason = SplitKReason::AtLaunch;
    plan.partitions = int(in.target.numSMs);
    plan.kvPerPartition = in.minKVPerPartition;
    plan.kvSpan = in.seqKV == kDynamic ? 0 : in.seqKV;
  }
  return plan;
}

/// The user's partition count (a tuning override), checked: any that
/// leaves every partition a KV tile; 1 is no split (`plan.reason` set,
/// nullopt returned).
static llvm::FailureOr<std::optional<int64_t>>
overriddenPartitions(const SplitKInputs &in, SplitKPlan &plan,
                     llvm::raw_ostream &whyNot) {
  const AttnConfig &config = in.config;
  int64_t partitions = in.problem.splitKPartitions;
  int64_t maxPartitions = llvm::divideCeilSigned(plan.kvSpan, config.bn);
  // One partition is no split: the way to turn the planner's rule off.
  if (partitions == 1) {
    plan.reason = SplitKReason::Override;
    return std::optional<int64_t>();
  }
  if (!in.kernelSplits) {
    whyNot << "split-k-partitions " << partitions
           << " needs work items of one 128-row Q tile on sm_100a (the "
              "Blackwell kernel's split), but this plan's work items "
              "have "
           << config.numQ << " (BM = " << config.bm << ")";
    return llvm::failure();
  }
  if (partitions < 2 || partitions > maxPartitions) {
    whyNot << "split-k-partitions must be 1 (no split) or 2 to "
           << maxPartitions << " (a KV tile of " << config.bn
           << " keys each, over the " << plan.kvSpan
           << " keys a work item visits), but got " << partitions;
    return llvm::failure();
  }
  return std::optional<int64_t>(partitions);
}

/// The planner's rule: one wave, every CTA of every partition on its own
/// SM, within a cluster where that keeps the SMs busy; nullopt (with
/// `plan.reason`) where that is no split.
static std::optional<int64_t> ruledPartitions(const SplitKInputs &in,
                                              SplitKPlan &plan,
                                              int64_t busyCtas,
                                              int64_t clusterLimit) {
  const TargetInfo &target = in.target;
  int64_t partitions = int64_t(target.numSMs) / busyCtas;
  if (partitions >= 2 && !in.kernelSplits) {
    plan.reason = SplitKReason::TwoQTiles;
    return std::nullopt;
  }
  if (partitions < 2) {
    plan.reason = SplitKReason::EnoughWork;
    return std::nullopt;
  }
  partitions = std::min(partitions, plan.kvSpan / in.minKVPerPartition);
  bool clusterKeepsSMsBusy =
      4 * busyCtas * clusterLimit >= 3 * int64_t(target.numSMs);
  if (partitions > clusterLimit && clusterKeepsSMsBusy)
    partitions = clusterLimit;
  // A split that fits a cluster takes no more partitions than the chip's
  // measured preference (fewer, fuller CTAs beat a larger cluster).
  if (partitions <= clusterLimit && !in.config.pairCta &&
      !in.problem.splitKWorkspace)
    partitions = std::min<int64_t>(partitions, target.splitKClusterSize);
  if (partitions < 2) {
    plan.reason = SplitKReason::ShortKV;
    return std::nullopt;
  }
  return partitions;
}

/// `plan` split into `partitions` of whole KV tiles, combined across a
/// cluster (each CTA one band of the depth) or through the workspace.
static void splitInto(const SplitKInputs &in, SplitKPlan &plan,
                      int64_t partitions, int64_t busyCtas,
                      int64_t clusterLimit) {
  const AttnConfig &config = in.config;
  plan.kvPerPartition = int64_t(llvm::alignTo(
      llvm::divideCeilSigned(plan.kvSpan, partitions), config.bn));
  partitions = llvm::divideCeilSigned(plan.kvSpan, plan.kvPerPartition);

  plan.reason = in.problem.splitKPartitions != 0 || in.problem.splitKWorkspace
                    ? SplitKReason::Override
                    : SplitKReason::Split;
  plan.partitions = int(partitions);
  plan.numCtas = busyCtas * partitions;
  if (partitions <= clusterLimit && !in.problem.splitKWorkspace) {
    plan.mode = SplitKMode::ClusterDsmem;
    plan.clusterSize = plan.partitions;
    plan.bandColumns =
        int(llvm::alignTo(llvm::divideCeilSigned(config.ovDepth, partitions),
                          kBandGranuleColumns));
    plan.partitionsWithBand =
        int(llvm::divideCeilSigned(config.ovDepth, plan.bandColumns));
  } else {
    plan.mode = SplitKMode::Workspace;
  }
}

llvm::FailureOr<SplitKPlan> fa4::planSplitK(const AttnProblem &problem,
                                            const AttnConfig &config,
                                            const TargetInfo &target,
                                            llvm::raw_ostream &whyNot) {
  // The pass may run this planner alone, on hand-written configs and with
  // any hints, so it checks what it divides by itself.
  if (llvm::failed(validateSizes(problem, whyNot)))
    return llvm::failure();
  if (config.bn < 1 || config.bm < 1 || config.group < 1 ||
      config.numQHeads < 1 || config.numKVHeads < 1) {
    whyNot << "split-K expects a config with BN, BM, group and head counts "
              ">= 1, but got BN "
           << config.bn << ", BM " << config.bm << ", group " << config.group
           << ", " << config.numQHeads << " q-heads and " << config.numKVHeads
           << " kv-heads";
    return llvm::failure();
  }
  SplitKPlan plan;
  plan.clusterSize = config.ctaGroup();
  SplitKInputs in{problem,
                  config,
                  target,
                  problem.plannedBatch(),
                  problem.plannedSeqQ(),
                  problem.plannedSeqKV(),
                  int64_t(kSplitKMinTilesPerPartition) * config.bn,
                  config.chip != Chip::SM100a || config.numQ == 1};
  if (in.batch == kDynamic || in.seqQ == kDynamic || in.seqKV == kDynamic)
    return planAtLaunch(in, plan);

  int64_t heads = config.fuseGqa ? config.numKVHeads : config.numQHeads;
  // Checked: a static batch and sequence within the limits can still ask for
  // more CTAs than a grid holds (and once wrapped to 0 and divided by it).
  int64_t rowBlocks = config.workItemsPerHead(in.seqQ);
  std::optional<int64_t> workItems = llvm::checkedMul<int64_t>(in.batch, heads);
  if (workItems)
    workItems = llvm::checkedMul<int64_t>(*workItems, rowBlocks);
  std::optional<int64_t> ctas =
      workItems ? llvm::checkedMul<int64_t>(*workItems, config.ctaGroup())
                : std::nullopt;
  if (!ctas || *ctas > limits::kMaxGridCtas) {
    whyNot << "the problem needs more than " << limits::kMaxGridCtas
           << " CTAs (batch " << in.batch << " x " << heads << " heads x "
           << rowBlocks << " row blocks x " << config.ctaGroup()
           << "), more than one launch's grid holds";
    return llvm::failure();
  }
  plan.numWorkItems = *workItems;
  plan.kvSpan =
      visitedKeys(problem, in.seqQ, in.seqKV, workItemPositions(config));
  int64_t busyCtas = *ctas;
  plan.numCtas = busyCtas;
  plan.kvPerPartition = plan.kvSpan;
  int64_t clusterLimit = config.pairCta ? 1 : target.nonPortableClusterSize;
  std::optional<int64_t> partitions;
  if (problem.splitKPartitions != 0) {
    llvm::FailureOr<std::optional<int64_t>> overridden =
        overriddenPartitions(in, plan, whyNot);
    if (llvm::failed(overridden))
      return llvm::failure();
    partitions = *overridden;
  } else {
    partitions = ruledPartitions(in, plan, busyCtas, clusterLimit);
  }
  if (partitions)
    splitInto(in, plan, *partitions, busyCtas, clusterLimit);
  return plan;
}

/// Why the plan does not split, or how an override split it; true where
/// that is the whole explanation.
static bool explainReason(const SplitKPlan &plan, const AttnConfig &config,
                          const TargetInfo &target, llvm::raw_ostream &os) {
  switch (plan.reason) {
  case SplitKReason::UnknownSizes:
    os << "batch, seqQ or seqKV is dynamic with no hint, so the work per "
          "launch is unknown; one CTA per work item\n";
    return true;
  case SplitKReason::AtLaunch:
    os << "batch or seqKV is dynamic with no hint, and each head is one work "
          "item (a decode): the runtime picks P per launch, min(floor(#SMs / "
          "W), "
       << plan.partitions << ", max(floor(seqKV / " << plan.kvPerPartition
       << "), min(floor(seqKV / " << config.bn << "), "
       << std::min(kSplitKAtLaunchMinPartitions, plan.partitions)
       << "))) for W work items: at least " << kSplitKMinTilesPerPartition
       << " KV tiles of " << config.bn
       << " keys per partition, or one where that leaves fewer than "
       << std::min(kSplitKAtLaunchMinPartitions, plan.partitions)
       << " partitions (P = 1 when the work items fill the SMs)\n"
       << "  f32 partials and LSE go to a workspace, a combine kernel "
          "reduces them\n";
    return true;
  case SplitKReason::EnoughWork:
    os << plan.numWorkItems << " work item(s) x " << config.ctaGroup();
    if (plan.numCtas >= target.numSMs)
      os << " CTA(s) already occupy the " << target.numSMs << " SMs\n";
    else
      os << " CTA(s) leave SMs idle, but P = floor(" << target.numSMs << " / "
         << plan.numCtas << ") = " << target.numSMs / plan.numCtas
         << ": a second partition per work item would start a second wave\n";
    return true;
  case SplitKReason::TwoQTiles:
    os << plan.numWorkItems << " work item(s) leave SMs idle, but each is "
       << config.numQ << " Q tiles (BM = " << config.bm
       << ") and the Blackwell kernel splits only work items of one "
          "128-row tile\n";
    return true;
  case SplitKReason::ShortKV:
    os << plan.numWorkItems << " work item(s) leave SMs idle, but "
       << plan.kvSpan << " keys do not make two partitions of at least "
       << kSplitKMinTilesPerPartition
       << " x BN = " << kSplitKMinTilesPerPartition * config.bn << " keys\n";
    return true;
  case SplitKReason::Override:
    if (plan.partitions == 1) {
      os << "split-k-partitions = 1 asked for no split\n";
      return true;
    }
    os << "asked for with split-k-partitions / split-k-workspace (a tuning "
          "override): "
       << plan.partitions << " partitions of " << plan.kvPerPartition << " of "
       << plan.kvSpan << " keys give " << plan.numCtas << " CTAs\n";
    return false;
  case SplitKReason::Split:
    return false;
  }
  return false;
}

/// How the planner's rule chose the partition count.
static void explainRule(const SplitKPlan &plan, const AttnConfig &config,
                        const TargetInfo &target, int64_t clusterLimit,
                        llvm::raw_ostream &os) {
  int64_t busyCtas = plan.numWorkItems * config.ctaGroup();
  int64_t wavePartitions = target.numSMs / busyCtas;
  int64_t kvPartitions =
      plan.kvSpan / (int64_t(kSplitKMinTilesPerPartition) * config.bn);
  os << plan.numWorkItems << " work item(s) x " << config.ctaGroup()
     << " CTA(s) leave " << target.numSMs - busyCtas << " of the "
     << target.numSMs << " SMs idle; P = min(floor(" << target.numSMs << " / "
     << busyCtas << ") = " << wavePartitions << " for one wave, "
     << kvPartitions << " for at least " << kSplitKMinTilesPerPartition
     << " KV tiles each)";
  if (std::min(wavePartitions, kvPartitions) > clusterLimit &&
      plan.partitions <= clusterLimit)
    os << ", capped at the cluster limit " << clusterLimit;
  else if (plan.mode == SplitKMode::ClusterDsmem &&
           std::min(wavePartitions, kvPartitions) > target.splitKClusterSize)
    os << ", capped at " << target.splitKClusterSize
       << " (larger clusters measured slower on this chip)";
  os << ": " << plan.partitions << " partitions of " << plan.kvPerPartition
     << " of " << plan.kvSpan << " keys give " << plan.numCtas << " CTAs\n";
}

/// How the partitions combine: across the cluster, or through the
/// workspace and why.
static void explainCombine(const SplitKPlan &plan, const AttnConfig &config,
                           const TargetInfo &target, int64_t clusterLimit,
                           llvm::raw_ostream &os) {
  if (plan.mode == SplitKMode::ClusterDsmem) {
    os << "  cluster of " << plan.clusterSize << " (non-portable limit "
       << target.nonPortableClusterSize
       << "): partitions publish partial O and (max, sum) in shared memory; "
          "each combines and stores a band of "
       << plan.bandColumns << " of the " << config.ovDepth
       << " output columns through DSMEM";
    if (plan.partitionsWithBand < plan.partitions)
      os << "; " << plan.partitions - plan.partitionsWithBand
         << " partition(s) own no band and only stage for their peers";
    os << "\n";
  } else {
    if (config.pairCta)
      os << "  the cluster already holds the CTA pair";
    else if (plan.partitions <= clusterLimit)
      os << "  split-k-workspace asked for the workspace";
    else
      os << "  P exceeds the cluster limit (" << target.nonPortableClusterSize
         << ") and a capped cluster would idle over a quarter of the SMs";
    os << ": f32 partials and LSE go to a workspace, a combine kernel "
          "reduces them\n";
  }
}

void fa4::explain(const SplitKPlan &plan, const AttnConfig &config,
                  llvm::raw_ostream &os) {
  const TargetInfo &target = getTargetInfo(config.chip);
  os << "split-K: " << splitKModeName(plan.mode) << ", P = " << plan.partitions
     << ": ";
  if (explainReason(plan, config, target, os))
    return;
  int64_t clusterLimit = config.pairCta ? 1 : target.nonPortableClusterSize;
  if (plan.reason == SplitKReason::Split)
    explainRule(plan, config, target, clusterLimit, os);
  explainCombine(plan, config, target, clusterLimit, os);
}
