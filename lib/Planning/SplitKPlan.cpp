//===- SplitKPlan.cpp - Split the KV sequence across CTAs -----------------===//
//
// The rule:
//   W  = batch x (kv-heads if fuseGqa else q-heads) x q-tiles work items,
//        each taking ctaGroup CTAs.
//   No split when W x ctaGroup >= #SMs (no SM idles), or when a size is
//   dynamic with no hint (the launch cannot know W or the key count).
//   P  = min(ceil(#SMs / (W x ctaGroup)), floor(span / (4 x BN))): enough
//        partitions to cover the SMs, each streaming at least 4 KV tiles
//        (kSplitKMinTilesPerPartition), where span is the keys one work item
//        visits (seqKV, fewer under a bounded window).
//   Keys per partition = alignTo(ceil(span / P), BN); P is then recounted so
//   no partition of the planned size is empty.
//   ClusterDsmem when P <= 16, the non-portable cluster limit (DESIGN.md
//   measured clusters of 16 on the H200), or when capping P at 16 still
//   keeps 3/4 of the SMs busy: a cluster combine costs no second launch and
//   no HBM round trip for the partials. Otherwise Workspace with the full P.
//   Under pairCta the cluster already holds the CTA pair, so a split uses
//   the workspace.
//
//===----------------------------------------------------------------------===//

#include "fa4/Planning/SplitKPlan.h"

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

/// Keys one work item visits: all of seqKV, except under a window bounded on
/// the left, where the first row of a tile reaches windowLeft keys back from
/// its diagonal and the last row windowRight keys forward (or to the end of
/// the sequence, seqQ - 1 positions further, when unbounded).
static int64_t visitedKeys(const AttnProblem &problem, const AttnConfig &config,
                           int64_t seqQ, int64_t seqKV) {
  if (problem.mask != MaskKind::Window || problem.windowLeft < 0)
    return seqKV;
  int64_t positionsPerTile =
      std::min<int64_t>(seqQ, int64_t(config.bmEff()) * config.ctaGroup());
  int64_t forward = problem.windowRight >= 0 ? problem.windowRight : seqQ - 1;
  return std::min(seqKV,
                  problem.windowLeft + 1 + forward + positionsPerTile - 1);
}

llvm::FailureOr<SplitKPlan> fa4::planSplitK(const AttnProblem &problem,
                                            const AttnConfig &config,
                                            const TargetInfo &target,
                                            llvm::raw_ostream &whyNot) {
  if (config.bn < 1 || config.bmEff() < 1) {
    whyNot << "split-K expects a config with BN >= 1 and at least one "
              "position per tile, but got BN "
           << config.bn << " and BM_eff " << config.bmEff();
    return llvm::failure();
  }
  SplitKPlan plan;
  plan.clusterSize = config.ctaGroup();
  int64_t batch = problem.plannedBatch();
  int64_t seqQ = problem.plannedSeqQ();
  int64_t seqKV = problem.plannedSeqKV();
  if (batch == kDynamic || seqQ == kDynamic || seqKV == kDynamic) {
    plan.reason = SplitKReason::UnknownSizes;
    return plan;
  }

  int64_t heads = config.fuseGqa ? config.numKVHeads : config.numQHeads;
  int64_t positionsPerWorkItem = int64_t(config.bmEff()) * config.ctaGroup();
  plan.numWorkItems =
      batch * heads * llvm::divideCeilSigned(seqQ, positionsPerWorkItem);
  plan.kvSpan = visitedKeys(problem, config, seqQ, seqKV);
  int64_t busyCtas = plan.numWorkItems * config.ctaGroup();
  plan.numCtas = busyCtas;
  plan.kvPerPartition = plan.kvSpan;
  if (busyCtas >= target.numSMs) {
    plan.reason = SplitKReason::EnoughWork;
    return plan;
  }

  int64_t minKVPerPartition = int64_t(kSplitKMinTilesPerPartition) * config.bn;
  int64_t partitions =
      std::min(llvm::divideCeilSigned(int64_t(target.numSMs), busyCtas),
               plan.kvSpan / minKVPerPartition);
  int64_t clusterLimit = config.pairCta ? 1 : target.nonPortableClusterSize;
  bool clusterKeepsSMsBusy =
      4 * busyCtas * clusterLimit >= 3 * int64_t(target.numSMs);
  if (partitions > clusterLimit && clusterKeepsSMsBusy)
    partitions = clusterLimit;
  if (partitions < 2) {
    plan.reason = SplitKReason::ShortKV;
    return plan;
  }
  plan.kvPerPartition = int64_t(llvm::alignTo(
      llvm::divideCeilSigned(plan.kvSpan, partitions), config.bn));
  partitions = llvm::divideCeilSigned(plan.kvSpan, plan.kvPerPartition);

  plan.reason = SplitKReason::Split;
  plan.partitions = int(partitions);
  plan.numCtas = busyCtas * partitions;
  if (partitions <= clusterLimit) {
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
  return plan;
}

void fa4::explain(const SplitKPlan &plan, const AttnConfig &config,
                  llvm::raw_ostream &os) {
  const TargetInfo &target = getTargetInfo(config.chip);
  os << "split-K: " << splitKModeName(plan.mode) << ", P = " << plan.partitions
     << ": ";
  switch (plan.reason) {
  case SplitKReason::UnknownSizes:
    os << "batch, seqQ or seqKV is dynamic with no hint, so the work per "
          "launch is unknown; one CTA per work item\n";
    return;
  case SplitKReason::EnoughWork:
    os << plan.numWorkItems << " work item(s) x " << config.ctaGroup()
       << " CTA(s) already occupy the " << target.numSMs << " SMs\n";
    return;
  case SplitKReason::ShortKV:
    os << plan.numWorkItems << " work item(s) leave SMs idle, but "
       << plan.kvSpan << " keys do not make two partitions of at least "
       << kSplitKMinTilesPerPartition
       << " x BN = " << kSplitKMinTilesPerPartition * config.bn << " keys\n";
    return;
  case SplitKReason::Split:
    break;
  }
  os << plan.numWorkItems << " work item(s) would leave " << target.numSMs
     << " SMs idle; " << plan.partitions << " partitions of "
     << plan.kvPerPartition << " keys (of " << plan.kvSpan << ", at least "
     << kSplitKMinTilesPerPartition << " KV tiles each) give " << plan.numCtas
     << " CTAs\n";
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
    else
      os << "  P exceeds the cluster limit (" << target.nonPortableClusterSize
         << ") and a capped cluster would idle over a quarter of the SMs";
    os << ": f32 partials and LSE go to a workspace, a combine kernel "
          "reduces them\n";
  }
}
