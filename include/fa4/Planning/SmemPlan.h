//===- SmemPlan.h - Shared-memory layout and stage counts -------*- C++ -*-===//
//
// Byte offsets of every shared-memory region of the kernel, the KV pipeline
// depth, and the mbarriers, all within the chip's carveout.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_SMEMPLAN_H
#define FA4_PLANNING_SMEMPLAN_H

#include "fa4/Planning/LoopedTwin.h"
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
/// (D-4).
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
