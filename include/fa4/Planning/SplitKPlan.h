//===- SplitKPlan.h - Split the KV sequence across CTAs ---------*- C++ -*-===//
//
// Split-K (flash-decoding): when the (batch x heads x q-tiles) work items
// leave at least half the SMs idle, P = floor(#SMs / work-item CTAs) CTAs
// (one wave) share one work item, each over its own window of keys, and
// their partial results are combined: in a cluster through DSMEM (the seed's
// fa4_splitk_reduce_scatter_write) or through a global workspace and a
// combine kernel. The full rule is in SplitKPlan.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_SPLITKPLAN_H
#define FA4_PLANNING_SPLITKPLAN_H

#include "fa4/Planning/Config.h"

namespace fa4 {

enum class SplitKMode {
  /// One CTA per work item.
  None,
  /// The P partitions of a work item form one cluster; each publishes its
  /// partial O and (max, sum) in shared memory and combines one depth band.
  ClusterDsmem,
  /// Partitions write f32 partial O and LSE to a workspace; a second kernel
  /// combines them.
  Workspace,
};

/// Why the plan splits or does not.
enum class SplitKReason {
  /// One wave holds at least two partitions per work item and the keys allow
  /// more than one partition.
  Split,
  /// Work items leave fewer idle SMs than they occupy: P = floor(#SMs /
  /// (work items x ctaGroup)) < 2, so a second partition would start a
  /// second wave.
  EnoughWork,
  /// Batch, seqQ or seqKV is dynamic with no hint.
  UnknownSizes,
  /// Too few keys for two partitions of the minimum length.
  ShortKV,
  /// The user's split-k-partitions or split-k-workspace (tuning overrides).
  Override,
  /// A decode (one work item per head) whose batch or seqKV is dynamic with
  /// no hint: a workspace split whose partition count the runtime picks per
  /// launch by this planner's rule, at most `partitions`.
  AtLaunch,
  /// sm_100a work items of two Q tiles (BM = 256): the Blackwell kernel
  /// splits only work items of one 128-row tile, so no split is planned
  /// rather than one it would refuse.
  TwoQTiles,
};

llvm::StringRef splitKModeName(SplitKMode mode);

struct SplitKPlan {
  SplitKMode mode = SplitKMode::None;
  SplitKReason reason = SplitKReason::EnoughWork;
  /// Partitions per work item (FA4Config.splitk_partitions); 1 = no split.
  /// AtLaunch: the most the runtime may pick.
  int partitions = 1;
  /// CTAs per cluster: the partitions in ClusterDsmem mode, the CTA pair
  /// under pairCta, else 1.
  int clusterSize = 1;
  /// Keys per partition, a multiple of BN, for the planned seqKV; with a
  /// dynamic seqKV the kernel derives it the same way at run time:
  /// alignTo(ceilDiv(seqKV, partitions), BN). AtLaunch: the fewest keys the
  /// runtime gives a partition (kSplitKMinTilesPerPartition x BN) unless
  /// that leaves fewer than kSplitKAtLaunchMinPartitions.
  int64_t kvPerPartition = 0;
  /// Keys a work item actually visits, the most over the work items (seqKV,
  /// or less under a window mask bounded on the left).
  int64_t kvSpan = 0;
  /// batch x (kv-heads when fuseGqa, else q-heads) x M tiles per head
  /// (AttnConfig::workItemsPerHead), or 0 when the sizes are unknown.
  int64_t numWorkItems = 0;
  /// numWorkItems x partitions x ctaGroup.
  int64_t numCtas = 0;
  /// ClusterDsmem: depth columns each partition combines and stores (a
  /// multiple of 8, one 16-byte unit of 16-bit output), and how many
  /// partitions own a band; the rest own none (the seed's own-no-band
  /// partition) but still stage their partial O for the others.
  int bandColumns = 0;
  int partitionsWithBand = 0;
};

/// Minimum KV tiles per partition: each partition pays a Q load, a pipeline
/// fill and a share of the combine, so it should stream at least this many.
constexpr int kSplitKMinTilesPerPartition = 4;

/// A split picked at launch takes at least this many partitions where the
/// keys give each a whole KV tile, whatever kSplitKMinTilesPerPartition
/// says: with few keys the minimum leaves too few CTAs to draw the HBM's
/// rate (18 partitions at 8/1 heads and 8k keys). 48 is what the workspace
/// combine merges in one step (96 partials of two-consumer CTAs); measured
/// +21% / +11% at 8k / 16k keys, while caps at 48 or 96 partitions lost 2-7%
/// from 32k keys, where the minimum already gives more (D-18).
constexpr int kSplitKAtLaunchMinPartitions = 48;

llvm::FailureOr<SplitKPlan> planSplitK(const AttnProblem &problem,
                                       const AttnConfig &config,
                                       const TargetInfo &target,
                                       llvm::raw_ostream &whyNot);

void explain(const SplitKPlan &plan, const AttnConfig &config,
             llvm::raw_ostream &os);

} // namespace fa4

#endif // FA4_PLANNING_SPLITKPLAN_H
