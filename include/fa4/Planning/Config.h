//===- Config.h - The attention kernel configuration ------------*- C++ -*-===//
//
// AttnConfig is the analogue of Modular's FA4Config (shared/seeds): the tile
// shape and kernel mode chosen for one problem on one chip. TMEM offsets,
// stage counts, shared-memory use, swizzles and split-K live in the later
// plans (TmemPlan, SmemPlan, SwizzlePlan, SplitKPlan), which read this.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_CONFIG_H
#define FA4_PLANNING_CONFIG_H

#include "fa4/Planning/AttnProblem.h"
#include "fa4/Target/TargetInfo.h"

#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace fa4 {

/// Pages of fewer keys than this are gathered rather than loaded as boxes
/// of their own: a box of 16 keys of a 128-byte swizzle span moves 2 KB,
/// and a 128-key tile would cost eight TMA issues and eight block-table
/// reads per 64 columns of depth. FlashAttention 3 likewise uses TMA for a
/// paged cache only when a page holds whole key tiles, and cp.async
/// otherwise. The bound is a first rule, not yet measured (bench/ is to
/// time page sizes 16 to 256 against the contiguous decode).
constexpr int kMinPageBoxRows = 64;

/// Whether boxes of min(rows, page) rows tile `rows` keys without crossing
/// a page: one of the two divides the other.
inline bool pageNests(int rows, int pageSize) {
  return rows % pageSize == 0 || pageSize % rows == 0;
}

struct AttnConfig {
  Chip chip = Chip::SM100a;
  ElementType elementType = ElementType::BF16;
  ElementType outputElementType = ElementType::BF16;
  /// M of one tensor-core MMA: 128 (tcgen05 cta_group::1), 256 (cta_group::2
  /// across a CTA pair), 64 (tcgen05 M=64 for MLA; wgmma on sm_90a).
  int mmaM = 128;
  /// K of one MMA instruction: 16 for 16-bit, 32 for 8-bit operands.
  int mmaK = 16;
  /// Accumulator rows per TMEM lane: 2 when a 64-row tile is packed into the
  /// 128 lanes, halving its columns (FA4Config.m_pack, Layout-E).
  int mPack = 1;
  /// Q rows per CTA (all numQ tiles), keys per KV tile, and the K extent of
  /// one Q/K box (BK0, depth direction) and of one P@V step (BK1, keys).
  int bm = 256;
  int bn = 128;
  int bk0 = 64;
  int bk1 = 64;
  int qkDepth = 128;
  int paddedQkDepth = 128;
  int ovDepth = 128;
  int paddedOvDepth = 128;
  /// The part of qkDepth without rotary embedding (MLA: 512 of 576);
  /// equal to qkDepth when there is no rope part.
  int nopeDepth = 128;
  int paddedNopeDepth = 128;
  int group = 1;
  int numQHeads = 1;
  int numKVHeads = 1;
  /// The q-heads of one kv-head share an M tile (rows = positions x heads);
  /// when the group outnumbers the tile rows, see tilesHeads().
  bool fuseGqa = false;
  /// K and V tiles alternate in one shared-memory ring.
  bool useSharedKv = false;
  /// Two CTAs issue one MMA over M = 256 (tcgen05 cta_group::2).
  bool pairCta = false;
  /// Q tiles per CTA, each owned by one softmax warpgroup.
  int numQ = 2;
  /// Only one O accumulator (TMEM O0); implied by numQ == 1.
  bool singleO = false;
  /// Keys per KV page; 0 = contiguous K/V.
  int pageSize = 0;
  bool isMla = false;
  int numThreads = 512;

  /// CTAs that issue one MMA together.
  int ctaGroup() const { return pairCta ? 2 : 1; }
  /// Q rows of one softmax warpgroup's tile.
  int rowsPerQTile() const { return bm / numQ; }
  /// Sequence positions per CTA tile (FA4Config.BM_eff): BM, or BM / group
  /// whole positions under fuseGqa; 0 under tilesHeads(), where a tile holds
  /// less than one position.
  int bmEff() const { return fuseGqa ? bm / group : bm; }
  /// Fused GQA whose group outnumbers the tile rows (MLA decode: 128 heads,
  /// BM = 64): a kv-head's rows, its (position, head) pairs in position-major
  /// order, are cut into tiles of BM rows (rows = heads), so one position's
  /// heads spread over ceil(group / BM) tiles and seqQ positions over
  /// ceil(group x seqQ / BM). Derived from fuseGqa, group and BM; no field.
  bool tilesHeads() const { return fuseGqa && group > bm; }
  /// Work items (M tiles of BM x ctaGroup rows, one per CTA group) per batch
  /// entry and head (kv-head under fuseGqa) for `seqQ` positions:
  /// ceil(seqQ / (BM_eff x ctaGroup)), or ceil(group x seqQ / (BM x
  /// ctaGroup)) under tilesHeads(). Expects BM, group >= 1 and seqQ >= 1.
  int64_t workItemsPerHead(int64_t seqQ) const;
  /// Under pairCta each CTA holds half of the B operand: half the keys of K
  /// and half the depth columns of V (FA4Config.k_rows_per_cta,
  /// v_cols_per_cta).
  int kRowsPerCta() const { return bn / ctaGroup(); }
  int vColsPerCta() const { return paddedOvDepth / ctaGroup(); }
  int ropeDepth() const { return paddedQkDepth - paddedNopeDepth; }
};

/// Chooses the configuration, or writes why none exists to `whyNot`.
llvm::FailureOr<AttnConfig> planConfig(const AttnProblem &problem,
                                       const TargetInfo &target,
                                       llvm::raw_ostream &whyNot);

/// The planner's own choice of three sm_90a consumer warpgroups: depths up
/// to this (measured; prefersThreeConsumers). Past the looped twin's bound
/// such a kernel runs, which is why that bound stays at 1024 / 2048 keys
/// there (fa4::loopedTwinMaxSeqKV).
constexpr int64_t kThreeConsumerMaxDepth = 64;

/// The problem the sm_90a looped twin (up to fa4::loopedTwinMaxSeqKV keys,
/// next to the kernel for a dynamic Skv) is planned from where its plan differs
/// from `config`'s: two consumer warpgroups where the planner gave the kernel
/// three, and 128-key tiles at d = 64 and 128 without a mask. None: the twin
/// shares the plan.
std::optional<AttnProblem> twinProblem(const AttnProblem &problem,
                                       const AttnConfig &config);

/// Prints every field of `config` with the rule that chose it.
void explain(const AttnConfig &config, llvm::raw_ostream &os);

} // namespace fa4

#endif // FA4_PLANNING_CONFIG_H
