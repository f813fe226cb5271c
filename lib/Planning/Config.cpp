//===- Config.cpp - Choose the attention kernel configuration -------------===//
//
// The rules, per chip:
//
// sm_100a (FA4): 512 threads; S and O accumulate in TMEM, one 128-lane x BN
// column block per S tile and one 128 x Dv block per O tile. Two Q tiles of
// 128 rows (numQ = 2, BM = 256) ping-pong between the two softmax warpgroups
// so one tile's softmax overlaps the other's MMAs; this needs S0,S1,O0,O1 in
// 512 columns, so BN = min(128, (512 - 2 x Dv) / 2). When that leaves BN < 64
// (Dv > 192), or one tile already holds every row of a work item (decode),
// one Q tile with a single O accumulator is used (numQ = 1, singleO) and BN =
// min(128, (512 - Dv) / 2). MLA (576/512) cannot hold a 128 x 512 f32 O next
// to any S, so it uses 64-row tiles packed two rows per lane (M = 64,
// mPack = 2): O takes 256 columns, S0,S1 = 2 x BN/2, and BN = 64 keeps a
// second K stage in shared memory (a 128-key K tile of 576 columns is 144 KB).
//
// sm_90a (FA3): a producer and two consumer warpgroups, 384 threads; each
// consumer owns one 64-row Q tile (wgmma M = 64), BM = 128, and keeps S, P
// and O in registers. BN is the largest multiple of 16 that (a) fits the
// accumulators in the register budget, (b) lets two K+V stages sit next to
// Q in shared memory, (c) is at most 176. With consumer-warpgroups=3 a
// prefill tile takes three consumers (BM = 192, 512 threads, FA3's tile at
// d = 64): each keeps 160 registers, so BN is smaller.
//
//===----------------------------------------------------------------------===//

#include "fa4/Planning/Config.h"
#include "fa4/Limits.h"
#include "fa4/Planning/LoopedTwin.h"
#include "fa4/Target/HardwareConstants.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace fa4;

namespace {
/// DeepSeek MLA: K = [nope 512 | rope 64], V = the nope part's width.
constexpr int kMlaQkDepth = 576;
constexpr int kMlaOvDepth = 512;
constexpr int kMlaNopeDepth = 512;
/// Head depths above this are only planned for MLA.
constexpr int kMaxHeadDepth = 256;
/// Rows of one tcgen05 cta_group::1 accumulator tile (TMEM lanes).
constexpr int kBlackwellTileRows = 128;
/// A softmax thread of FA4 owns one S row and loads it whole: BN f32
/// registers, so BN = 128 is the largest that leaves room for the rest.
constexpr int kBlackwellMaxBN = 128;
/// 2Q is worth it only while the KV tile keeps at least this many keys.
constexpr int kBlackwellMinBNFor2Q = 64;
/// MLA tile: M = 64 rows packed two per lane; BN chosen from shared memory.
constexpr int kMlaTileRows = 64;
constexpr int kMlaBN = 64;
/// wgmma M is 64 per warpgroup.
constexpr int kHopperTileRows = 64;
constexpr int kHopperConsumerWarpgroups = 2;
/// Three consumers (FA3's d = 64 tile): a fourth warpgroup's threads, at
/// setmaxnreg's 160 registers a consumer (fa4::hopperWarpgroupRegisters).
constexpr int kHopperThreeConsumerThreads = 512;
/// Dv = 128 leaves them BN = 64 (O takes 64 of the 120 for S, P and O).
constexpr int kMaxThreeConsumerOvDepth = 128;
/// d = 128 and d = 64 without a mask: the looped twin at 128-key tiles, not
/// the kernel's 176 (which it keeps past the twin's bound): four whole tiles
/// at 512 keys instead of three, the last masked, and six K/V stages
/// instead of four at d = 64 (D-17).
constexpr int kNarrowTwinDepths[] = {64, 128};
constexpr int kNarrowTwinBN = 128;
/// d = 256: a looped twin at 64-key tiles (kDeepTwinMaxBN), next to the
/// kernel's 80.
constexpr int kDeepTwinDepth = 256;
/// Two K+V stages at d=128 next to a 32 KB Q tile: 32 + 2 x (44 + 44) KB
/// <= 227 KB at BN = 176; FA3's largest tile N.
constexpr int kHopperMaxBN = 176;
/// Decode tiles (a work item's rows fit one consumer's 64 rows) are bound by
/// bytes in flight, not MMAs: BN = 96 leaves four K+V stages at d = 128, so
/// with both consumers each holding one, two still load. Measured on the
/// H200 at B = 1, Skv = 32k, 32/8 heads: one consumer 176 -> 2.40 TB/s,
/// 128 -> 2.96; both consumers 128 (3 stages) -> 2.26, 96 -> 3.02, 64 ->
/// 2.96 (D-32).
constexpr int kHopperDecodeBN = 96;
/// Of a consumer's registers (240 of two, 160 of three), 32 stay for
/// addresses, row max/sum and loop state; S (f32), P (16-bit) and O (f32)
/// share the rest. It binds only three consumers at d = 64: BN = 128 there
/// (112 with 40 reserved) assembles without spills and measured +0.3 to
/// +2.7% at 4096-16384 keys but for one row (-0.9%, d = 64 causal 8192;
/// D-16).
constexpr int kHopperReservedRegisters = 32;
/// Shared memory set aside for barriers, correction scales and alignment
/// when sizing tiles; the shared-memory plan does the exact accounting.
constexpr int64_t kSmemReserveBytes = 2048;
/// Pair-CTA MMAs halve each CTA's K/V traffic; worth the pair's coupling only
/// for long prefill with enough pair tiles to occupy every SM pair.
constexpr int64_t kPairCtaMinSeqQ = 4096;
/// Under pairCta each CTA holds half of V's depth columns, MN-major; the
/// sm_100a kernel builds its MMA descriptors for 128-byte swizzle rows, so a
/// V half must be whole 128-byte rows (Dv = 128 and 256 in 16 bits, not 64).
constexpr int64_t kPairCtaVHalfRowBytes = 128;
/// Shared memory besides Q and the K/V ring on sm_100a: correction rows,
/// mbarriers, the tensor-memory address (2.3 KB in the plans).
constexpr int64_t kBlackwellSmemReserveBytes = 4096;
/// Decode-like queries fuse GQA heads whatever the group size.
constexpr int64_t kFuseGqaMaxSeqQ = 8;
/// Tensor-core N granule: tcgen05 M=128 and wgmma take N in steps of 16.
constexpr int kMmaNGranule = 16;

int roundDownTo(int value, int granule) { return value / granule * granule; }
} // namespace

static bool isMlaProblem(const AttnProblem &problem) {
  return problem.qkDepth == kMlaQkDepth && problem.ovDepth == kMlaOvDepth;
}

/// At least one head of each kind, the q-heads a multiple of the kv-heads.
static llvm::LogicalResult validateHeads(const AttnProblem &problem,
                                         llvm::raw_ostream &whyNot) {
  if (problem.numQHeads < 1 || problem.numKVHeads < 1) {
    whyNot << "attention needs at least one q-head and one kv-head, but got "
           << problem.numQHeads << " q-heads and " << problem.numKVHeads
           << " kv-heads";
    return llvm::failure();
  }
  if (problem.numQHeads % problem.numKVHeads != 0) {
    whyNot << "expected the q-head count to be a multiple of the kv-head "
              "count, but got "
           << problem.numQHeads << " q-heads and " << problem.numKVHeads
           << " kv-heads";
    return llvm::failure();
  }
  return llvm::success();
}

/// Depths of whole TMA rows, within the kernels' limits (or MLA's).
static llvm::LogicalResult validateDepths(const AttnProblem &problem,
                                          const TargetInfo &target,
                                          llvm::raw_ostream &whyNot) {
  // Depths are TMA box rows, so each is a whole number of 16-byte units.
  int granule = target.tmaRowGranuleBytes;
  unsigned bytes = elementBytes(problem.elementType);
  for (auto [name, depth] :
       {std::pair<const char *, int>{"qkDepth", problem.qkDepth},
        {"ovDepth", problem.ovDepth}}) {
    if (depth < 1 || depth * bytes % granule != 0) {
      whyNot << "expected " << name << " to be a positive multiple of "
             << granule / bytes << " " << elementTypeName(problem.elementType)
             << " elements (TMA rows are whole " << granule
             << "-byte units), but got " << depth;
      return llvm::failure();
    }
  }
  if (!isMlaProblem(problem) &&
      (problem.qkDepth > kMaxHeadDepth || problem.ovDepth > kMaxHeadDepth)) {
    whyNot << "expected head depths of at most " << kMaxHeadDepth
           << " (or MLA 576/512), but got qkDepth " << problem.qkDepth
           << " and ovDepth " << problem.ovDepth;
    return llvm::failure();
  }
  return llvm::success();
}

/// What the chip's kernel plans: its consumer warpgroups, MLA, FP8 and the
/// output type.
static llvm::LogicalResult validateForChip(const AttnProblem &problem,
                                           const TargetInfo &target,
                                           llvm::raw_ostream &whyNot) {
  llvm::StringRef chip = chipName(target.chip);
  if (problem.consumerWarpgroups != 0 &&
      (target.chip != Chip::SM90a ||
       (problem.consumerWarpgroups != 2 && problem.consumerWarpgroups != 3))) {
    whyNot << "expected consumer-warpgroups to be 0 (the planner's), or 2 or "
              "3 on sm_90a, but got "
           << problem.consumerWarpgroups << " on " << chip;
    return llvm::failure();
  }
  if (problem.consumerWarpgroups == 3 &&
      problem.ovDepth > kMaxThreeConsumerOvDepth) {
    whyNot << "three consumer warpgroups keep "
           << hopperWarpgroupRegisters(3).consumer
           << " registers a thread, too few for a 64 x " << problem.ovDepth
           << " f32 O next to S and P; expected ovDepth <= "
           << kMaxThreeConsumerOvDepth << " with consumer-warpgroups=3";
    return llvm::failure();
  }
  if (isMlaProblem(problem) && target.chip == Chip::SM90a) {
    whyNot << "MLA 576/512 on " << chip
           << " needs O (64 x 512 f32 = 256 registers per thread) split across "
              "warpgroups with P staged in shared memory, which is not "
              "planned; expected head depths of at most "
           << kMaxHeadDepth;
    return llvm::failure();
  }
  if (elementBits(problem.elementType) == 8 && target.chip == Chip::SM90a) {
    whyNot << "f8E4M3FN on " << chip
           << " needs V transposed in shared memory (wgmma takes 8-bit B "
              "operands K-major only), which is not planned; expected bf16 "
              "or f16";
    return llvm::failure();
  }
  if (elementBits(problem.outputElementType) != 16) {
    whyNot << "expected a bf16 or f16 output, but got "
           << elementTypeName(problem.outputElementType);
    return llvm::failure();
  }
  return llvm::success();
}

/// Window bounds in range, a window bounded on a side, a page size exactly
/// for paged K/V.
static llvm::LogicalResult validateMaskAndPages(const AttnProblem &problem,
                                                llvm::raw_ostream &whyNot) {
  if (!limits::isWindowBound(problem.windowLeft) ||
      !limits::isWindowBound(problem.windowRight)) {
    whyNot << "expected window half-widths of 0 to " << limits::kMaxWindow
           << " or -1 (unbounded), but got (" << problem.windowLeft << ", "
           << problem.windowRight << ")";
    return llvm::failure();
  }
  if (problem.mask == MaskKind::Window && problem.windowLeft < 0 &&
      problem.windowRight < 0) {
    whyNot << "expected a window mask to bound at least one side, but got ("
           << problem.windowLeft << ", " << problem.windowRight << ")";
    return llvm::failure();
  }
  if (problem.pageSize < 0) {
    whyNot << "expected a page size >= 0 (0 = contiguous K/V), but got "
           << problem.pageSize;
    return llvm::failure();
  }
  if ((problem.pageSize > 0) != (problem.sequences == SequenceLayout::Paged)) {
    whyNot << "expected a page size exactly when K/V are paged, but got page "
              "size "
           << problem.pageSize << " with "
           << sequenceLayoutName(problem.sequences) << " sequences";
    return llvm::failure();
  }
  return llvm::success();
}

static llvm::LogicalResult validate(const AttnProblem &problem,
                                    const TargetInfo &target,
                                    llvm::raw_ostream &whyNot) {
  return llvm::success(
      llvm::succeeded(validateHeads(problem, whyNot)) &&
      llvm::succeeded(validateSizes(problem, whyNot)) &&
      llvm::succeeded(validateDepths(problem, target, whyNot)) &&
      llvm::succeeded(validateForChip(problem, target, whyNot)) &&
      llvm::succeeded(validateMaskAndPages(problem, whyNot)));
}

/// A paged cache whose pages take boxes of their own (kMinPageBoxRows): the
/// largest multiple of the MMA N granule up to `bn` whose tile, and half
/// tile under a CTA pair, nests with the page, so no box crosses a page
/// (fa4::selectSwizzle's page_boxes). `bn` where none does, or where pages
/// are gathered.
static int pageNestingBN(int bn, int pageSize, int ctaGroup) {
  if (pageSize < kMinPageBoxRows)
    return bn;
  for (int candidate = bn; candidate >= kMmaNGranule; candidate -= kMmaNGranule)
    if (pageNests(candidate, pageSize) &&
        pageNests(candidate / ctaGroup, pageSize))
      return candidate;
  return bn;
}

/// GQA fusion: when an M tile of one q-head would be mostly padding (few
/// query positions), the q-heads of one kv-head fill it together and read
/// their shared K/V once. `maxRows` is the largest CTA tile of the chip. A
/// group larger than the tile still fuses for decode-like queries: its heads
/// fill ceil(group x seqQ / BM) tiles (AttnConfig::tilesHeads), which read K/V
/// once per tile instead of once per q-head.
static bool chooseFuseGqa(const AttnProblem &problem, int maxRows) {
  int group = problem.group();
  int64_t seqQ = problem.plannedSeqQ();
  if (group == 1 || seqQ == kDynamic)
    return false;
  return seqQ * group <= maxRows || seqQ <= kFuseGqaMaxSeqQ;
}

/// Two 128-row Q tiles leave shared memory for a K/V ring of two slots of
/// BN keys (Dqk = 256 with Dv = 128 would need 264 KB; one tile fits).
static bool twoQTilesFit(const AttnConfig &config, const TargetInfo &target,
                         int bn) {
  int64_t bytes = elementBytes(config.elementType);
  int64_t qTiles = 2 * kBlackwellTileRows * config.paddedQkDepth * bytes;
  int64_t slot = int64_t(bn) *
                 std::max(config.paddedQkDepth, config.paddedOvDepth) * bytes;
  return qTiles + 2 * slot + kBlackwellSmemReserveBytes <=
         target.smemCarveoutBytes;
}

/// Sets the tiles and returns the largest BN the chip's resources allow for
/// them (the bound on a user's block-n).
static int chooseBlackwellTiles(const AttnProblem &problem,
                                const TargetInfo &target, AttnConfig &config) {
  if (config.isMla) {
    config.mmaM = kMlaTileRows;
    config.mPack = kBlackwellTileRows / kMlaTileRows;
    config.numQ = 1;
    config.bm = kMlaTileRows;
    config.bn = kMlaBN;
    config.fuseGqa = chooseFuseGqa(problem, config.bm);
    return config.bn;
  }
  int columns = target.tmemColumns;
  int bn2Q = std::min(
      kBlackwellMaxBN,
      roundDownTo((columns - 2 * config.paddedOvDepth) / 2, kMmaNGranule));
  // The FA4 kernel runs fused q-heads (its decode path) on one Q tile whose
  // rows hold whole groups.
  config.fuseGqa = problem.group() <= kBlackwellTileRows &&
                   chooseFuseGqa(problem, kBlackwellTileRows);
  int64_t seqQ = problem.plannedSeqQ();
  int64_t rows =
      seqQ == kDynamic ? kDynamic : seqQ * (config.fuseGqa ? config.group : 1);
  bool oneTileHoldsAllRows = rows != kDynamic && rows <= kBlackwellTileRows;
  config.numQ = (bn2Q >= kBlackwellMinBNFor2Q && !oneTileHoldsAllRows &&
                 !config.fuseGqa && twoQTilesFit(config, target, bn2Q))
                    ? 2
                    : 1;
  config.bm = config.numQ * kBlackwellTileRows;
  config.bn = config.numQ == 2
                  ? bn2Q
                  : std::min(kBlackwellMaxBN,
                             roundDownTo((columns - config.paddedOvDepth) / 2,
                                         kMmaNGranule));
  int64_t batch = problem.plannedBatch();
  int64_t vHalfRowBytes =
      config.paddedOvDepth / 2 * elementBytes(config.elementType);
  if (config.numQ == 2 && !config.fuseGqa && seqQ != kDynamic &&
      seqQ >= kPairCtaMinSeqQ && batch != kDynamic &&
      vHalfRowBytes % kPairCtaVHalfRowBytes == 0) {
    // Checked: past int64 there are tiles enough for pairs.
    std::optional<int64_t> pairTiles = llvm::checkedMul<int64_t>(
        batch, int64_t(config.numQHeads) *
                   llvm::divideCeilSigned(seqQ, 2 * int64_t(config.bm)));
    config.pairCta = !pairTiles || *pairTiles >= target.numSMs / 2;
  }
  config.mmaM = kBlackwellTileRows * config.ctaGroup();
  return config.bn;
}

/// Three consumers at d = 64 measured +7-13% over two from Skv = 4096 to
/// 16k, but -8 to -24% at 512-1024 (a 192-row tile wastes 11% of 512 rows,
/// and the looped twin, which runs those, spills at 160 registers) and
/// -2 to +5% at 2048; against the twin at 2048 keys without a mask +2.4-3%
/// at the sustained clock (D-16, D-12). So the planner takes three, without a
/// window mask (not measured), where the kernel runs only past the twin's bound
/// (1024 keys without a mask, 2048 under a causal one;
/// fa4::loopedTwinMaxSeqKV): a static Skv past it, or a dynamic one (the
/// twin, with its own plan of two, takes the rest: fa4::twinProblem); and
/// Sq past it or unknown.
static bool prefersThreeConsumers(const AttnProblem &problem,
                                  const AttnConfig &config) {
  int64_t seqQ = problem.plannedSeqQ();
  int64_t twinBound = shallowTwinMaxSeqKV(problem.mask);
  return config.paddedQkDepth <= kThreeConsumerMaxDepth &&
         config.paddedOvDepth <= kThreeConsumerMaxDepth &&
         problem.mask != MaskKind::Window &&
         (problem.seqKV == kDynamic || problem.seqKV > twinBound) &&
         (seqQ == kDynamic || seqQ > twinBound);
}

/// Sets the tiles and returns the largest BN the chip's resources allow.
static int chooseHopperTiles(const AttnProblem &problem,
                             const TargetInfo &target, AttnConfig &config) {
  config.mmaM = kHopperTileRows;
  config.numQ = kHopperConsumerWarpgroups;
  config.bm = config.numQ * kHopperTileRows;
  config.fuseGqa = chooseFuseGqa(problem, config.bm);
  int64_t seqQ = problem.plannedSeqQ();
  bool decodeTile =
      seqQ != kDynamic &&
      seqQ * (config.fuseGqa ? config.group : 1) <= kHopperTileRows;
  // A third consumer only for prefill tiles: a fused GQA or decode tile
  // keeps its rows in one or two consumers.
  int64_t consumers = problem.consumerWarpgroups;
  if (consumers == 0)
    consumers = prefersThreeConsumers(problem, config) ? 3 : 2;
  if (consumers == 3 && !config.fuseGqa && !decodeTile) {
    config.numQ = 3;
    config.bm = config.numQ * kHopperTileRows;
    config.numThreads = kHopperThreeConsumerThreads;
  }
  // Per consumer thread, a 64 x BN f32 S is BN/2 registers, P in 16 bits
  // BN/4, and a 64 x Dv f32 O is Dv/2.
  int accumulatorRegisters =
      hopperWarpgroupRegisters(config.numQ).consumer - kHopperReservedRegisters;
  int registerBN = (accumulatorRegisters - config.paddedOvDepth / 2) * 4 / 3;
  // Two stages of a K tile (BN x Dqk) and a V tile (BN x Dv) next to Q.
  int64_t bytes = elementBytes(config.elementType);
  int64_t qBytes = int64_t(config.bm) * config.paddedQkDepth * bytes;
  int64_t stageBytesPerKey =
      (config.paddedQkDepth + config.paddedOvDepth) * bytes;
  int smemBN = int((target.smemCarveoutBytes - qBytes - kSmemReserveBytes) /
                   (2 * stageBytesPerKey));
  int maxBN =
      roundDownTo(std::min({kHopperMaxBN, registerBN, smemBN}), kMmaNGranule);
  config.bn = decodeTile ? std::min(maxBN, kHopperDecodeBN) : maxBN;
  // Under a causal mask a 128-row block's keys end on a 128-key boundary:
  // at BN = 128 only its diagonal tile is masked, at 176 its last tile
  // carries up to 175 masked keys. That pays +3-20% up to 4096 keys; past
  // 8192 the narrower tile's per-tile cost outweighs the waste (-3% at 16k
  // for d = 64), so a longer known sequence keeps the wider tile (D-15).
  int64_t seqKV = problem.plannedSeqKV();
  if (problem.mask == MaskKind::Causal && problem.causalBlockN > 0 &&
      !decodeTile && (seqKV == kDynamic || seqKV <= kCausalBlockNMaxSeqKV))
    config.bn = std::min<int>(config.bn, int(problem.causalBlockN));
  return maxBN;
}

int64_t AttnConfig::workItemsPerHead(int64_t seqQ) const {
  int64_t rowsPerWorkItem = int64_t(bm) * ctaGroup();
  if (tilesHeads())
    return llvm::divideCeilSigned(int64_t(group) * seqQ, rowsPerWorkItem);
  return llvm::divideCeilSigned(seqQ, int64_t(bmEff()) * ctaGroup());
}

std::optional<AttnProblem> fa4::twinProblem(const AttnProblem &problem,
                                            const AttnConfig &config) {
  // A dynamic Skv gets the twin for Skv <= 2048 next to the kernel; the
  // twin needs no plan of its own elsewhere.
  // Packed and paged sequences each have their own Skv: one kernel serves
  // every sequence of a launch, with no twin picked per launch.
  if (config.chip != Chip::SM90a || problem.seqKV != kDynamic ||
      config.fuseGqa || problem.sequences != SequenceLayout::Dense)
    return std::nullopt;
  AttnProblem twin = problem;
  bool ownPlan = false;
  if (config.numQ == 3 && problem.consumerWarpgroups == 0) {
    twin.consumerWarpgroups = 2;
    ownPlan = true;
  }
  if (problem.mask == MaskKind::None && problem.blockN == 0 &&
      problem.qkDepth == problem.ovDepth &&
      llvm::is_contained(kNarrowTwinDepths, problem.qkDepth) &&
      // A twin of two where the kernel has three (d = 64) would take 176.
      (ownPlan || config.bn > kNarrowTwinBN)) {
    twin.blockN = kNarrowTwinBN;
    ownPlan = true;
  }
  if (problem.mask != MaskKind::Window && problem.blockN == 0 &&
      problem.qkDepth == kDeepTwinDepth && problem.ovDepth == kDeepTwinDepth &&
      config.bn > kDeepTwinMaxBN) {
    twin.blockN = kDeepTwinMaxBN;
    ownPlan = true;
  }
  if (!ownPlan)
    return std::nullopt;
  return twin;
}

llvm::FailureOr<AttnConfig> fa4::planConfig(const AttnProblem &problem,
                                            const TargetInfo &target,
                                            llvm::raw_ostream &whyNot) {
  if (llvm::failed(validate(problem, target, whyNot)))
    return llvm::failure();

  AttnConfig config;
  config.chip = target.chip;
  config.elementType = problem.elementType;
  config.outputElementType = problem.outputElementType;
  config.mmaK = target.mmaK(elementBits(problem.elementType));
  config.isMla =
      problem.qkDepth == kMlaQkDepth && problem.ovDepth == kMlaOvDepth;
  config.group = problem.group();
  config.numQHeads = problem.numQHeads;
  config.numKVHeads = problem.numKVHeads;
  config.pageSize = problem.pageSize;
  config.numThreads = target.kernelThreads;

  // Depths are padded to whole swizzle rows (64 elements: 128 bytes of 16-bit
  // or 64 bytes of 8-bit data), which are also whole MMA K steps.
  int bytes = elementBytes(problem.elementType);
  int spanElements = maxSwizzleBytes(bytes) / bytes;
  int depthGranule = std::max(spanElements, config.mmaK);
  config.qkDepth = problem.qkDepth;
  config.ovDepth = problem.ovDepth;
  config.nopeDepth = config.isMla ? kMlaNopeDepth : problem.qkDepth;
  config.paddedQkDepth = llvm::alignTo(config.qkDepth, depthGranule);
  config.paddedOvDepth = llvm::alignTo(config.ovDepth, depthGranule);
  config.paddedNopeDepth = llvm::alignTo(config.nopeDepth, depthGranule);

  int maxBN = target.chip == Chip::SM100a
                  ? chooseBlackwellTiles(problem, target, config)
                  : chooseHopperTiles(problem, target, config);
  if (problem.blockN != 0) {
    if (problem.blockN % kMmaNGranule != 0 || problem.blockN < kMmaNGranule ||
        problem.blockN > maxBN) {
      whyNot << "expected block-n to be a multiple of " << kMmaNGranule
             << " from " << kMmaNGranule << " to " << maxBN
             << " (the largest KV tile this chip's "
             << (target.chip == Chip::SM100a ? "TMEM" : "registers")
             << " and shared memory allow here), but got " << problem.blockN;
      return llvm::failure();
    }
    config.bn = int(problem.blockN);
  }
  if (problem.causalBlockN < 0 || problem.causalBlockN % kMmaNGranule != 0) {
    whyNot << "expected causal-block-n to be 0 (no cap) or a positive "
              "multiple of "
           << kMmaNGranule << ", but got " << problem.causalBlockN;
    return llvm::failure();
  }
  config.singleO = config.numQ == 1;
  if (problem.blockN == 0)
    config.bn = pageNestingBN(config.bn, problem.pageSize, config.ctaGroup());

  // One box of Q/K spans one swizzle row of depth; one P@V step spans as
  // many keys.
  config.bk0 = std::min(config.paddedQkDepth, spanElements);
  config.bk1 = std::min(config.bn, spanElements);

  // One ring of alternating K and V tiles when two separate K and V stages
  // cannot sit next to Q: with K and V in turn, the next tile still loads
  // while the MMAs read the current one. MLA always shares: V is K's nope
  // width, so K_nope and V fit one buffer shape (FA4Config.shared_kv_cols).
  int64_t qBytes = int64_t(config.bm) * config.paddedQkDepth * bytes;
  int64_t kvStageBytes =
      int64_t(config.kRowsPerCta()) * config.paddedQkDepth * bytes +
      int64_t(config.bn) * config.vColsPerCta() * bytes;
  config.useSharedKv =
      config.isMla ||
      qBytes + 2 * kvStageBytes + kSmemReserveBytes > target.smemCarveoutBytes;
  return config;
}

void fa4::explain(const AttnConfig &config, llvm::raw_ostream &os) {
  const TargetInfo &target = getTargetInfo(config.chip);
  os << "config: " << chipName(config.chip) << ", "
     << elementTypeName(config.elementType) << " in, "
     << elementTypeName(config.outputElementType) << " out, "
     << config.numThreads << " threads\n";
  os << "  depths: qk " << config.qkDepth << " -> " << config.paddedQkDepth
     << ", ov " << config.ovDepth << " -> " << config.paddedOvDepth << ", nope "
     << config.nopeDepth << " -> " << config.paddedNopeDepth
     << " (padded to whole 64-element swizzle rows, multiples of MMA_K "
     << config.mmaK << ")\n";
  if (config.isMla)
    os << "  isMla: qk 576 = nope 512 + rope 64, ov 512\n";
  os << "  heads: " << config.numQHeads << " q / " << config.numKVHeads
     << " kv, group " << config.group << "; fuseGqa = "
     << (!config.fuseGqa ? "false"
         : config.tilesHeads()
             ? "true: the group outnumbers the BM rows, so the q-heads of one "
               "kv-head fill ceil(group x seqQ / BM) M tiles of BM heads "
               "(rows = heads), each reading K/V once"
             : "true: the q-heads of one kv-head share an M tile, so K/V is "
               "read once per kv-head")
     << "\n";
  if (config.chip == Chip::SM100a) {
    if (config.isMla) {
      os << "  MMA_M = 64, mPack = 2, BM = 64, numQ = 1, singleO: a 128 x 512 "
            "f32 O would take every TMEM column, so 64-row tiles pack two "
            "rows per lane and O takes 256 columns\n";
      os << "  BN = 64: S0,S1 take 2 x 32 columns; a 64-key K tile (72 KB) "
            "leaves room for a second stage next to Q, a 128-key one would "
            "not\n";
    } else {
      os << "  numQ = " << config.numQ << ", BM = " << config.bm << ": "
         << (config.numQ == 2
                 ? "two 128-row Q tiles ping-pong between the softmax "
                   "warpgroups, one's softmax hiding behind the other's MMAs"
             : config.fuseGqa
                 ? "one 128-row Q tile with a single O accumulator "
                   "(fused q-heads run on one tile)"
                 : "one 128-row Q tile with a single O accumulator (its "
                   "rows fit one tile, two O tiles would leave BN < 64, "
                   "or two Q tiles would leave no room for two K/V "
                   "slots in shared memory)")
         << "\n";
      int used =
          2 * config.bn + (config.singleO ? 1 : 2) * config.paddedOvDepth;
      os << "  BN = " << config.bn << ": S0,S1 (2 x " << config.bn << ") + "
         << (config.singleO ? "O0 (" : "O0,O1 (2 x ") << config.paddedOvDepth
         << ") = " << used << " of " << target.tmemColumns
         << " TMEM columns; at most 128 so a softmax thread holds its S row\n";
      os << "  MMA_M = " << config.mmaM << ", pairCta = "
         << (config.pairCta ? "true: long prefill with enough pair tiles for "
                              "every SM pair; each CTA loads half of K and V"
                            : "false: it needs two Q tiles, a static Sq >= "
                              "4096 and batch, enough pair tiles for every "
                              "SM pair, no fused GQA, and a V half of whole "
                              "128-byte rows")
         << "\n";
    }
  } else {
    bool threeConsumers = config.numQ == 3;
    int consumerRegisters = hopperWarpgroupRegisters(config.numQ).consumer;
    os << "  MMA_M = 64 (wgmma), numQ = " << config.numQ
       << ", BM = " << config.bm << ": "
       << (threeConsumers ? "three consumer warpgroups (consumer-warpgroups="
                            "3, 512 threads)"
                          : "two consumer warpgroups")
       << " own one 64-row tile each and ping-pong\n";
    os << "  BN = " << config.bn << " (S + P + O: "
       << config.bn / 2 + config.bn / 4 + config.paddedOvDepth / 2
       << " registers of " << consumerRegisters - kHopperReservedRegisters
       << " of the consumer's " << consumerRegisters
       << "): the largest multiple of 16 <= 176 whose S + P + O fits and "
          "two K+V stages next to Q in shared memory; at most "
       << kHopperDecodeBN
       << " when a work item's rows fit one 64-row tile (decode: more, "
          "smaller stages in flight); at most causal-block-n (default "
       << kDefaultCausalBlockN << ") under a causal mask up to "
       << kCausalBlockNMaxSeqKV
       << " keys (or an unknown Skv), so tiles end on the 128-row blocks' "
          "diagonals; or block-n\n";
  }
  os << "  BK0 = " << config.bk0 << ", BK1 = " << config.bk1
     << ": one swizzle row of depth per Q/K box, as many keys per P@V step\n";
  os << "  useSharedKv = "
     << (config.useSharedKv ? "true: K and V alternate in one ring, since two "
                              "separate K+V stages do not fit next to Q"
                            : "false: separate K and V rings")
     << "\n";
  os << "  pageSize = " << config.pageSize;
  if (config.pageSize == 0)
    os << " (contiguous K/V)";
  else if (config.pageSize >= kMinPageBoxRows)
    os << " keys per page: BN is the largest multiple of " << kMmaNGranule
       << " up to the chosen tile that nests with the page (one divides the "
          "other), so K/V boxes never cross a page";
  else
    os << " keys per page, fewer than " << kMinPageBoxRows
       << ": rows are gathered, BN as for contiguous K/V";
  os << "\n";
}
