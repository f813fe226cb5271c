//===- SmemPlan.h - Shared-memory layout and stage counts -------*- C++ -*-===//
//
// Byte offsets of every shared-memory region of the kernel, the KV pipeline
// depth, and the mbarriers, all within the chip's carveout.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_SMEMPLAN_H
#define FA4_PLANNING_SMEMPLAN_H

#include "fa4/Planning/SplitKPlan.h"
#include "fa4/Planning/SwizzlePlan.h"
#include "fa4/Planning/TmemPlan.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace fa4 {

/// Bytes of one split-K partial staged in shared memory for the cluster
/// combine: `rows` x `columns` f32 of O, then the rows' max and sum.
/// The shared-memory planner sizes the staging region with it, the kernel
/// builders check their partials fit, and the lowering lays them out.
constexpr int64_t splitKStagedPartialBytes(int64_t rows, int64_t columns) {
  return rows * (columns + 2) * 4;
}

struct SmemRegion {
  int64_t offset = 0;
  /// 0 when the region is absent.
  int64_t bytes = 0;
  int64_t alignment = 1;
  /// The region reuses another one's bytes (see SmemPlan for which).
  bool aliased = false;

  bool present() const { return bytes > 0; }
  int64_t end() const { return offset + bytes; }
};

struct SmemPlan {
  /// Slots of each KV ring: the K ring and the V ring each, or the one
  /// shared ring of alternating K and V tiles (FA4Config.num_kv_stages).
  int kvStages = 0;
  /// Depth boxes per K tile and per V tile, each with its own full barrier
  /// so the MMAs start on the first box (FA4Config.num_qk_stages,
  /// num_pv_stages).
  int qkStages = 0;
  int pvStages = 0;
  /// Bytes of one ring slot (a K tile, a V tile, or a shared-ring slot that
  /// fits either), rounded up to the ring's alignment.
  int64_t kStageBytes = 0;
  int64_t vStageBytes = 0;
  /// MLA: rope parts of K kept outside the shared ring; a K tile is in
  /// flight in at most every other slot (FA4Config.num_rope_buffers).
  int numRopeBuffers = 0;
  int numBarriers = 0;

  /// All numQ Q tiles.
  SmemRegion q;
  /// The K ring, or the shared K/V ring when useSharedKv.
  SmemRegion kRing;
  /// The V ring; absent when useSharedKv.
  SmemRegion vRing;
  SmemRegion rope;
  /// Epilogue staging of O for the TMA store; aliases q when it fits (Q is
  /// dead after the last QK^T). Absent under ClusterDsmem split-K, where
  /// the combine packs its bf16 band into its own dead f32 staging slice.
  SmemRegion oStaging;
  /// Per-row rescale factors from softmax to the correction warpgroup
  /// (sm_100a), double-buffered across KV tiles.
  SmemRegion correction;
  /// Split-K cluster staging: f32 partial O and (max, sum) per row. It
  /// reuses Q and the KV rings, starting at q's offset, when it fits there:
  /// they are dead once this CTA's last KV tile is read, and the terminal
  /// cluster barrier keeps the staging alive while peers read it.
  SmemRegion splitKStaging;
  /// Where tcgen05.alloc writes the TMEM base address (sm_100a).
  SmemRegion tmemAddress;
  SmemRegion barriers;
  /// Bytes of dynamic shared memory to launch with.
  int64_t smemUsed = 0;
};

/// sm_90a prefill runs on persistent CTAs, a looped twin of its kernel, up
/// to this many keys by the planner's rule (bench/RESULTS.md, sessions 6-10).
constexpr int64_t kLoopedTwinMaxSeqKV = 2048;
/// Without a mask at Dv <= kThreeConsumerMaxDepth the twin (two consumers)
/// runs only up to this many keys: at 2048 the plain kernel's three
/// consumers measured +1.2% from boost (session 14, call 1) and +2.4% /
/// +3.0% at the sustained clock (session 17, calls 3-4), where under a
/// causal mask they lose 4-9%.
constexpr int64_t kUnmaskedShallowTwinMaxSeqKV = 1024;
/// A looped twin past Dv = 128 (d = 256) needs tiles of at most this many
/// keys: its O (Dv / 2 registers a thread) and its O staging past the plan
/// leave no room at the plain kernel's 80. It runs up to
/// kDeepTwinMaxSeqKV keys: against the plain kernel it measured +3% / +9%
/// (none / causal) at 512 keys, 0 to -5% at 1024 and -5 to -8% at 2048,
/// where it spills (bench/RESULTS.md, session 12, call 9).
constexpr int64_t kDeepTwinMaxBN = 64;
constexpr int64_t kDeepTwinMaxSeqKV = 512;
/// Past this (padded) Dv a looped twin is deep: kDeepTwinMaxBN and
/// kDeepTwinMaxSeqKV apply.
constexpr int64_t kShallowTwinMaxOvDepth = 128;
/// Past kThreeConsumerMaxDepth (Config.h), up to kShallowTwinMaxOvDepth,
/// the looped twin runs up to this many keys: at d = 128 and 4096 keys it
/// measured +2.2% (non-causal) and +4.6% (causal) over the plain kernel,
/// whose every new CTA waits for its Q, and -1.4% / +2.2% at 8192
/// (bench/RESULTS.md, session 14, call 6). At Dv <= 64 the plain kernel
/// has three consumers past 2048 keys, which the twin's two do not match.
constexpr int64_t kMidDepthTwinMaxSeqKV = 4096;

/// Whether the planner's rule builds a looped twin for this plan: sm_90a
/// prefill (no split-K, no fused GQA) with Dv <= 128 (past it at BN <=
/// kDeepTwinMaxBN) and no window mask, whose Skv is dynamic (a hint does
/// not count: the twin serves the short runs) or at most the twin's bound
/// (loopedTwinMaxSeqKV).
bool plansLoopedTwin(const AttnProblem &problem, const AttnConfig &config,
                     const SplitKPlan &splitK);

/// The Skv up to which the looped twin planned as `twinConfig` runs under
/// `mask`: up to kThreeConsumerMaxDepth kLoopedTwinMaxSeqKV, or
/// kUnmaskedShallowTwinMaxSeqKV without a mask; kMidDepthTwinMaxSeqKV up
/// to kShallowTwinMaxOvDepth, kDeepTwinMaxSeqKV past it.
int64_t loopedTwinMaxSeqKV(const AttnConfig &twinConfig, MaskKind mask);

/// The shallow twin's bound (Dv <= kThreeConsumerMaxDepth) under `mask`:
/// kUnmaskedShallowTwinMaxSeqKV without a mask, else kLoopedTwinMaxSeqKV.
int64_t shallowTwinMaxSeqKV(MaskKind mask);

/// The looped twin stores O one 64-column box at a time, staged past the
/// plan: one 64-row box of 128-byte rows per Q tile, `bm` rows in all.
constexpr int64_t loopedTwinStagingBytes(int64_t bm) { return bm * 128; }

/// Where a region of `bytes` starts past a plan of `smemUsed` bytes (at the
/// 128B swizzle's 1024-byte repeat), or none when it does not fit the
/// carveout: the looped twin's O staging or its second Q buffer.
std::optional<int64_t> pastPlanOffset(int64_t smemUsed, int64_t bytes,
                                      const TargetInfo &target);

/// Where the twin's O staging starts past a plan (pastPlanOffset). The
/// planner makes room by this rule; the lowering places the staging.
inline std::optional<int64_t>
loopedTwinStagingOffset(int64_t smemUsed, int64_t bm,
                        const TargetInfo &target) {
  return pastPlanOffset(smemUsed, loopedTwinStagingBytes(bm), target);
}

/// kvStages is the most slots up to the chip's cap that fit the carveout,
/// except that a plan with a looped twin (plansLoopedTwin) gives up slots,
/// down to two, until the twin's O staging fits past it: the twin's TMA
/// store of O measured +6-11% at S <= 2048 against a third K/V stage
/// (bench/RESULTS.md, session 10).
llvm::FailureOr<SmemPlan>
planSmem(const AttnProblem &problem, const AttnConfig &config,
         const SplitKPlan &splitK, const SwizzlePlan &swizzle,
         const TmemPlan &tmem, const TargetInfo &target,
         llvm::raw_ostream &whyNot);

/// The present regions with their names, in offset order of the plan.
llvm::SmallVector<std::pair<llvm::StringRef, SmemRegion>>
namedRegions(const SmemPlan &plan);

/// The region called `name` in namedRegions, or null for an unknown name.
SmemRegion *findRegion(SmemPlan &plan, llvm::StringRef name);

void explain(const SmemPlan &plan, const AttnConfig &config,
             llvm::raw_ostream &os);

} // namespace fa4

#endif // FA4_PLANNING_SMEMPLAN_H
