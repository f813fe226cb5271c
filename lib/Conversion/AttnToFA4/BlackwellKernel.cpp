//===- BlackwellKernel.cpp - Planned attn.attention -> FA4 kernel IR
//-------===//
//
// The FA4 structure for sm_100a, written in the fa4 kernel dialect. 512
// threads in four warpgroup roles, each at its own register budget (the
// 128 x 512 launch pool, exactly):
//
//   softmax  (2 warpgroups, 184)  warpgroup i owns Q tile i (128 rows, one
//                                 row per thread): S_i from TMEM, the mask,
//                                 the online softmax with FA4's lazy rescale
//                                 and part of exp2 on the FMA pipe, P_i back
//                                 into TMEM over S_i.
//   correction (1 warpgroup, 72)  rescales O_i in TMEM when a row's max
//                                 moved, then the epilogue from TMEM.
//   other    (1 warpgroup, 72)    warp 0: TMA loads of Q and the K/V rings;
//                                 warp 1, whole and converged: one elected
//                                 lane issues every tcgen05.mma (S_i = Q_i
//                                 K^T, O_i += P_i V) and commits them onto
//                                 mbarriers (D-60); warp 2, the epilogue
//                                 warp: TMA stores of O, which the correction
//                                 warpgroup normalised into shared memory
//                                 (over Q, dead by then).
//
// Tensor memory is allocated by the MMA warp before the roles split and
// freed by it after they join; S0, S1, O0, O1 and P0, P1 (aliased in S) sit
// at the planned columns of #attn.tmem.
//
// A pair_cta plan runs the same roles on a cluster of two CTAs (FA4's
// 2-CTA mode): each CTA holds its own two Q tiles and half of every K/V
// tile (half the keys of K, half the depth columns of V), and the even
// CTA's MMA thread issues each MMA once for both, cta_group::2 over M = 256
// (Q tile i of both CTAs), so each CTA loads half the K/V bytes per row it
// computes. Both CTAs' TMA loads count on the even CTA's full barriers; its
// commits arrive in both CTAs (multicast); the softmax and correction warps
// of both hand P over on the even CTA's barriers (remote arrivals).
//
// Decode plans (a work item's rows fit one tile) run one softmax warpgroup
// on one Q tile, with the q-heads of a kv-head fused into its rows, on a 3D
// grid of (partition, head, batch x row tile). A cluster split ends in the
// reduce-scatter combine: the correction warpgroup stages O from TMEM and
// combines its band through DSMEM; every other role meets the cluster.
//
//===----------------------------------------------------------------------===//

#include "../Common/KernelEmitter.h"
#include "KernelFunc.h"
#include "Kernels.h"
#include "ServingSpans.h"
#include "WorkTiles.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <map>
#include <optional>
#include <tuple>

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {
constexpr int64_t kTileRows = 128;
/// The 65536 registers of a 512-thread CTA: FA4 gives softmax 192,
/// correction 80 and the rest 48; here the correction's TMEM passes and the
/// MMA issuer need 72 each for ptxas to keep them out of local memory
/// (measured over the ptxas matrix: 192 / 80 / 48 spills 52 bytes at
/// d = 128, 192 / 64 / 64 spills 8 bytes with FA4's MMA order).
constexpr int64_t kSoftmaxRegisters = 184;
constexpr int64_t kCorrectionRegisters = 72;
constexpr int64_t kOtherRegisters = 72;
/// Two Q tiles of Dqk = 192 (three depth boxes): the MMA issuer keeps both
/// Q tiles' descriptors (36 64-bit values) live across the loop, and with a
/// shared K/V ring of two slots K's as well. 184 / 72 / 72 spills 456 bytes
/// with the shared ring and 32 bytes under pair_cta (separate rings);
/// 168 / 72 / 104 is the split of the 512 x 128 pool that assembles clean
/// for both (ptxas 13.0; 152 / 104 / 104 and 160 / 72 / 120 spill).
constexpr int64_t kSoftmaxRegistersDeepQk = 168;
constexpr int64_t kOtherRegistersDeepQk = 104;
/// The MMA warp makes its TMEM tiles once, at its start, up to this many
/// Q boxes (D-66).
constexpr int64_t kMaxQkBoxesForRoleTiles = 2;
/// One Q tile: three warpgroups share the 384 x 168 launch pool (64512),
/// 232 + 112 + 112 of it. At Dv = 256 the 2Q budgets (184 / 72 / 72) spill
/// 208 bytes; 200 / 104 / 104 up to this split assemble clean (ptxas 13.0).
constexpr int64_t kSoftmaxRegisters1Q = 232;
constexpr int64_t kCorrectionRegisters1Q = 112;
constexpr int64_t kOtherRegisters1Q = 112;
/// The CTA pair of a pair_cta plan: its even CTA (rank 0 of the two-CTA
/// cluster) issues the MMAs and holds the barriers they wait on.
constexpr int64_t kPairCtas = 2;
constexpr int64_t kPairLeaderRank = 0;
constexpr int64_t kPairPeerRank = 1;
/// One exponential in this many on the FMA pipe (FA4 emulates a share of
/// exp2 because MUFU throughput, not the tensor cores, bounds the softmax);
/// one in four on every tile kind, by the timing model (D-64). Under a
/// softcap every score also takes a MUFU.TANH: one in three, by the timing
/// model and the register budget (D-67).
constexpr int64_t kPolyExp2Period = 4;
constexpr int64_t kSoftcapPolyExp2Period = 3;

/// The plan the FA4 structure is built from; the part both chips share as
/// readKernelPlan reads it.
struct BlackwellPlan : KernelPlan {
  int64_t numQ;
  int64_t correctionOffset, tmemAddressOffset;
  int64_t tmemAlloc;
  int64_t sColumn[2], oColumn[2], pColumn[2];
  /// pair_cta: a cluster of two CTAs shares each MMA (cta_group::2).
  bool pair = false;
  /// Prefill: O leaves through shared memory (the plan's oStaging region)
  /// and the epilogue warp's TMA stores; decode writes it from TMEM.
  bool storeOByTma = false;
  int64_t oStagingOffset = 0;
  /// The O staging reuses the Q region (the plan's oStaging overlaps q).
  bool oStagedOverQ = false;

  int64_t ctaGroup() const { return pair ? kPairCtas : 1; }
  /// This CTA's share of a K tile (keys) and of a V tile (depth columns).
  int64_t kRowsPerCta() const { return bn / ctaGroup(); }
  int64_t vColumnsPerCta() const { return paddedOv / ctaGroup(); }
  int64_t vBoxes() const { return vColumnsPerCta() / kBoxColumns; }
  /// Query rows of one work item: both CTAs' tiles under pair_cta.
  int64_t rowsPerWorkItem() const { return ctaGroup() * numQ * kTileRows; }

  int64_t queryRowsPerTile() const { return kTileRows / rowGroup; }
  /// Rows a Q box fills: whole groups of q-heads.
  int64_t qBoxRows() const { return queryRowsPerTile() * rowGroup; }
  int64_t qTileBytes() const { return qkBoxes * kTileRows * boxBytes(); }
  int64_t kBoxBytes() const { return kRowsPerCta() * boxBytes(); }
  int64_t vBoxBytes() const { return bn * boxBytes(); }
  // mbarriers: Q full; K full, V full, K empty, V empty per stage (a full and
  // an empty per slot of a shared ring); per Q tile S full, P ready (softmax
  // + correction), O done, stats ready.
  int64_t qFull() const { return 0; }
  /// K and V alternate in one ring of `kvStages` slots (K(t) in ring slot
  /// 2t, V(t) in 2t + 1), each with one full and one empty barrier.
  bool sharedKv = false;
  int64_t ringBarriers() const { return (sharedKv ? 2 : 4) * kvStages; }
  /// Under storeOByTma, one more per Q tile: O staged; under pair_cta,
  /// one more: factors taken.
  int64_t oStagedKind() const { return 4; }
  int64_t factorsTakenKind() const { return storeOByTma ? 5 : 4; }
  int64_t numBarriers() const {
    return 1 + ringBarriers() +
           (4 + int64_t(storeOByTma) + int64_t(pair)) * numQ;
  }
  int64_t oStagedTileBytes() const {
    return kTileRows * paddedOv * outputType.getIntOrFloatBitWidth() / 8;
  }
};

/// FP8 (issue 62, D-69): Q, K and V e4m3 in the dense form, one CTA per work
/// tile (prefill, decode and their splits). An FP8 K/V under a 16-bit Q,
/// the serving forms' FP8 caches and CTA pairs are refused by name.
LogicalResult checkFp8(attn::PlannedAttentionOpInterface op,
                       const KernelPlan &plan, attn::ConfigAttr config) {
  auto is8Bit = [](Value operand) {
    return getElementTypeOrSelf(operand.getType()).getIntOrFloatBitWidth() == 8;
  };
  int64_t fp8Operands = llvm::count_if(op->getOperands().take_front(3), is8Bit);
  if (fp8Operands == 0)
    return success();
  if (fp8Operands != 3)
    return op->emitOpError()
           << "has FP8 keys and values under a 16-bit query, which the FA4 "
              "kernel does not implement yet (Q, K and V e4m3 only)";
  if (plan.form != ServingForm::Dense || config.getPairCta())
    return op->emitOpError()
           << "has an FP8 plan the FA4 kernel does not implement yet (Q, K "
              "and V e4m3 in the dense form, one CTA per work tile: "
              "kind::f8f6f4 is lowered for cta_group::1): "
           << config;
  return success();
}

/// The plan's tile counts and its shared-memory and tensor-memory places.
static void readPlanLayout(BlackwellPlan &plan, attn::ConfigAttr config,
                           const SmemPlan &regions, attn::TmemAttr tmem) {
  plan.pair = config.getPairCta();
  plan.numQ = config.getNumQ();
  plan.sharedKv = config.getUseSharedKv();
  // A shared ring holds K and V tiles in turn.
  if (plan.sharedKv)
    plan.vRingOffset = regions.kRing.offset;
  plan.correctionOffset = regions.correction.offset;
  // Serving forms write O from TMEM, each row checked against its
  // sequence's length: a TMA store of a packed sequence's last rows would
  // write the next sequence's.
  plan.storeOByTma = !plan.decode && plan.form == ServingForm::Dense;
  plan.oStagingOffset = regions.oStaging.offset;
  plan.oStagedOverQ = regions.oStaging.offset < regions.q.end() &&
                      regions.q.offset < regions.oStaging.end();
  plan.tmemAddressOffset = regions.tmemAddress.offset;
  plan.tmemAlloc = tmem.getAlloc();
  plan.sColumn[0] = tmem.getS0();
  plan.sColumn[1] = tmem.getS1();
  plan.oColumn[0] = tmem.getO0();
  plan.oColumn[1] = tmem.getO1();
  plan.pColumn[0] = tmem.getP0();
  plan.pColumn[1] = tmem.getP1();
}

/// The TMA box the kernel expects: `rows` of 64 columns, swizzled.
static std::tuple<int64_t, int64_t, int64_t> expected(int64_t rows,
                                                      int64_t swizzleBytes) {
  return std::make_tuple(rows, kBoxColumns, swizzleBytes);
}

/// The TMA boxes of Q, K and V the kernel implements.
static LogicalResult checkBoxes(attn::PlannedAttentionOpInterface op,
                                BlackwellPlan &plan, attn::ConfigAttr config,
                                attn::SwizzleAttr swizzle) {
  if (failed(readKvBoxRows(op, plan, swizzle, plan.kRowsPerCta(), "FA4",
                           /*copiesGatheredPages=*/true)))
    return failure();
  bool paged = plan.form == ServingForm::Paged;
  // Gathered pages are copied in groups of any row count (cp.async places
  // each row as the tile's TMA box would): the swizzle plans a tile's box.
  bool copied = paged && !plan.pagesHoldBoxes;
  int64_t kBoxRows = copied ? plan.bn : plan.kvBoxRows;
  int64_t inputSwizzle = plan.boxBytes();
  if (boxShape(swizzle.getQ()) != expected(kTileRows, inputSwizzle) ||
      boxShape(swizzle.getK()) != expected(kBoxRows, inputSwizzle) ||
      boxShape(swizzle.getV()) !=
          expected(paged ? kBoxRows : plan.bn, inputSwizzle) ||
      (paged && (plan.pair || (copied ? 0 : plan.kvBoxRows % 8) ||
                 plan.bn % plan.kvBoxRows || plan.pageSize % plan.kvBoxRows)) ||
      plan.vColumnsPerCta() % kBoxColumns ||
      config.getPaddedQkDepth() % kBoxColumns || plan.paddedOv % kBoxColumns ||
      plan.bn % 16 || plan.bn > 256 || plan.paddedOv > 256)
    return op->emitOpError() << "has an sm_100a plan whose boxes or tiles the "
                                "FA4 kernel does not implement (128-row Q "
                                "boxes, BN-row K/V boxes of 64 columns "
                                "swizzled to their row, 128 bytes of 16-bit "
                                "and 64 of 8-bit types, BN and Dv up to 256; "
                                "under pair_cta "
                                "BN / 2-row K boxes and a V half of whole "
                                "64-column boxes; paged, boxes of whole 8-row "
                                "groups within a page that tile BN): "
                             << swizzle;
  return success();
}

/// O's staging, the pair and decode shapes, and the shared memory its
/// roles need.
static LogicalResult checkRoles(attn::PlannedAttentionOpInterface op,
                                const BlackwellPlan &plan,
                                attn::ConfigAttr config,
                                attn::SwizzleAttr swizzle,
                                attn::SmemAttr smem) {
  SmemPlan regions = smem.toPlan();
  if (plan.storeOByTma &&
      (boxShape(swizzle.getO()) != expected(kTileRows, kSwizzleBytes) ||
       regions.oStaging.bytes < plan.numQ * plan.oStagedTileBytes()))
    return op->emitOpError()
           << "has an O staging plan the FA4 kernel's TMA "
              "store does not implement (128-row boxes of "
              "64 128B-swizzled columns, "
           << plan.numQ * plan.oStagedTileBytes()
           << " bytes of staging): " << swizzle << ", " << smem;
  if (plan.pair && (plan.decode || plan.numQ != 2))
    return op->emitOpError() << "has a pair_cta plan the FA4 kernel does not "
                                "implement (a CTA pair of two 128-row Q tiles "
                                "each, prefill without a split): "
                             << config;
  if (plan.rowGroup > kTileRows || (plan.decode && plan.numQ != 1))
    return op->emitOpError() << "has a decode plan the FA4 kernel does not "
                                "implement (one 128-row Q tile holding at most "
                                "128 fused q-heads): "
                             << config;
  if (plan.clusterSplit() &&
      plan.stagingOffset + splitKStagedPartialBytes(kTileRows, plan.paddedOv) >
          regions.correction.offset)
    return op->emitOpError() << "has a split-K staging region that overlaps "
                                "its correction rows: "
                             << smem;
  // Per Q tile: the rescale factors (later the final max) and the final sums.
  if (regions.correction.bytes < plan.numQ * 2 * kTileRows * 4 ||
      plan.barrierBytes < plan.numBarriers() * 8 ||
      plan.kStageBytes < plan.qkBoxes * plan.kBoxBytes() ||
      plan.vStageBytes < plan.vBoxes() * plan.vBoxBytes())
    return op->emitOpError() << "has a shared-memory plan too small for the "
                                "FA4 kernel's "
                             << plan.numBarriers()
                             << " mbarriers, its correction rows or its K/V "
                                "slots: "
                             << smem;
  return success();
}

FailureOr<BlackwellPlan> readPlan(attn::PlannedAttentionOpInterface op) {
  attn::ConfigAttr config = op.getConfigAttr();
  attn::SmemAttr smem = op.getSmemAttr();
  attn::SwizzleAttr swizzle = op.getSwizzleAttr();
  attn::TmemAttr tmem = op.getTmemAttr();
  if (!config || !smem || !swizzle || !tmem)
    return op->emitOpError()
           << "needs #attn.config, #attn.swizzle, #attn.smem and #attn.tmem; "
              "run attn-plan-pipeline{chip=sm_100a} first";
  if (config.getIsMla())
    return op->emitOpError()
           << "has an sm_100a MLA plan, which the FA4 kernel does not lower "
              "yet (it implements 128-row Q tiles, one CTA or a CTA pair): "
           << config;
  FailureOr<KernelPlan> common = readKernelPlan(op, config, smem);
  if (failed(common))
    return failure();
  BlackwellPlan plan;
  static_cast<KernelPlan &>(plan) = *common;
  if (failed(checkFp8(op, plan, config)))
    return failure();
  readPlanLayout(plan, config, smem.toPlan(), tmem);
  if (failed(checkBoxes(op, plan, config, swizzle)) ||
      failed(checkRoles(op, plan, config, swizzle, smem)))
    return failure();
  return plan;
}

/// Whether the softmax packs its scores in f32x2 pairs (D-61): where its
/// budget holds them. Packed, the d = 192 kernels at 168 registers spilled
/// 116-140 bytes and the CTA-pair kernels 24-148 (ptxas 13.0), where the
/// scalar softmax assembles clean.
bool packsSoftmax(const BlackwellPlan &plan, int64_t softmaxRegisters) {
  return !plan.pair && softmaxRegisters >= kSoftmaxRegisters;
}

/// setmaxnreg budgets of the softmax, correction and load/MMA roles.
SmallVector<int64_t, 3> roleRegisters(const BlackwellPlan &plan) {
  if (plan.numQ == 1)
    return {kSoftmaxRegisters1Q, kCorrectionRegisters1Q, kOtherRegisters1Q};
  if (plan.qkBoxes > 2)
    return {kSoftmaxRegistersDeepQk, kCorrectionRegisters,
            kOtherRegistersDeepQk};
  return {kSoftmaxRegisters, kCorrectionRegisters, kOtherRegisters};
}

class BlackwellKernelBuilder : KernelEmitter {
public:
  BlackwellKernelBuilder(OpBuilder &b, Location loc, const BlackwellPlan &plan,
                         int64_t l2SectionBytes)
      : KernelEmitter(b, loc), plan(plan), l2SectionBytes(l2SectionBytes) {}
  void build(gpu::GPUFuncOp func, KernelABI &abi);

private:
  Value fromIndex(Value v) { return indexTo(b.getI32Type(), v); }
  Value barrier(int64_t index) { return barrier(i32(index)); }
  Value barrier(Value index) {
    return MBarrierGetOp::create(b, loc, MBarrierType::get(b.getContext()),
                                 index,
                                 b.getI64IntegerAttr(plan.barrierOffset));
  }
  int64_t S() const { return plan.kvStages; }
  /// Where K(tile) or V(tile) sits in its ring: separate rings index both
  /// by the tile; a shared ring alternates K(t) and V(t) in 2t and 2t + 1.
  Value ringIndex(Value tile, bool isV) {
    if (!plan.sharedKv)
      return tile;
    Value twice = mul(tile, i32(2));
    return isV ? add(twice, i32(1)) : twice;
  }
  Value slotOf(Value ring) { return remu(ring, i32(S())); }
  Value fullBarrier(Value ring, bool isV) {
    int64_t base = plan.sharedKv || !isV ? 1 : 1 + S();
    return barrier(add(i32(base), slotOf(ring)));
  }
  Value emptyBarrier(Value ring, bool isV) {
    int64_t base = plan.sharedKv ? 1 + S() : (isV ? 1 + 3 * S() : 1 + 2 * S());
    return barrier(add(i32(base), slotOf(ring)));
  }
  int64_t tileBarrier(int64_t kind, int64_t tile) const {
    return 1 + plan.ringBarriers() + kind * plan.numQ + tile;
  }
  Value sFull(int64_t i) { return barrier(tileBarrier(0, i)); }
  Value pReady(int64_t i) { return barrier(tileBarrier(1, i)); }
  Value oDone(int64_t i) { return barrier(tileBarrier(2, i)); }
  Value statsReady(int64_t i) { return barrier(tileBarrier(3, i)); }
  Value oStaged(int64_t i) {
    return barrier(tileBarrier(plan.oStagedKind(), i));
  }
  /// pair_cta: the correction warpgroup has read Q tile i's factors (its
  /// hand-over on pReady goes to the leader CTA, where this CTA's softmax
  /// cannot wait).
  Value factorsTaken(int64_t i) {
    return barrier(tileBarrier(plan.factorsTakenKind(), i));
  }
  int64_t oStagingOffset(int64_t i) const {
    return plan.oStagingOffset + i * plan.oStagedTileBytes();
  }
  /// The first query row of Q tile i of this CTA's work tile.
  Value tileRow(int64_t i) {
    return add(work.blockRow, i32(i * plan.queryRowsPerTile()));
  }
  void wait(Value barrier, Value parity) {
    MBarrierWaitOp::create(b, loc, barrier, parity);
  }
  Value parityOf(Value phase) {
    return arith::AndIOp::create(b, loc, phase, i32(1));
  }
  Value smemTile(Value offset, int64_t rows, int64_t columns, Major major) {
    return SmemTileOp::create(b, loc,
                              SmemTileType::get(b.getContext(), rows, columns,
                                                plan.elementType, major),
                              offset);
  }
  /// A TMEM tile; inside a role (RoleTmemTiles), made once at the role's
  /// start: each lowers to a shared-memory load of the allocation's
  /// address, which LLVM keeps inside the K/V loop, past its barriers.
  Value tmemTile(int64_t column, int64_t columns, Type element) {
    auto make = [&] {
      return TmemTileOp::create(
          b, loc,
          TmemTileType::get(b.getContext(), kTileRows, columns, element),
          b.getI64IntegerAttr(plan.tmemAddressOffset),
          b.getI64IntegerAttr(column));
    };
    if (!roleStart)
      return make();
    auto [it, inserted] = roleTmemTiles.try_emplace(
        std::make_tuple(column, columns, element.getAsOpaquePointer()));
    if (inserted) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(roleStart);
      it->second = make();
    }
    return it->second;
  }
  /// For its lifetime, the TMEM tiles of the role being built are made
  /// once, where it starts.
  struct RoleTmemTiles {
    BlackwellKernelBuilder &builder;
    explicit RoleTmemTiles(BlackwellKernelBuilder &builder) : builder(builder) {
      builder.roleStart = builder.i32(0).getDefiningOp();
      builder.roleTmemTiles.clear();
    }
    ~RoleTmemTiles() {
      builder.roleStart = nullptr;
      builder.roleTmemTiles.clear();
    }
  };
  Operation *roleStart = nullptr;
  std::map<std::tuple<int64_t, int64_t, const void *>, Value> roleTmemTiles;
  Value sTile(int64_t i) {
    return tmemTile(plan.sColumn[i], plan.bn, b.getF32Type());
  }
  Value pTile(int64_t i) {
    return tmemTile(plan.pColumn[i], plan.bn, plan.elementType);
  }
  Value oTile(int64_t i) {
    return tmemTile(plan.oColumn[i], plan.paddedOv, b.getF32Type());
  }
  Value qTile(int64_t i) {
    return smemTile(i32(plan.qOffset + i * plan.qTileBytes()), kTileRows,
                    plan.qkBoxes * kBoxColumns, Major::K);
  }
  Value slotOffset(int64_t ring, int64_t stageBytes, Value slot) {
    return add(i32(ring), mul(slot, i32(stageBytes)));
  }
  RowsType rowsType() {
    return RowsType::get(b.getContext(), kTileRows, b.getF32Type());
  }
  int64_t factorOffset(int64_t i) const {
    return plan.correctionOffset + i * 2 * kTileRows * 4;
  }
  int64_t sumOffset(int64_t i) const { return factorOffset(i) + kTileRows * 4; }
  /// for (t = 0; t < numTiles; ++t) body(t), t as i32.
  template <typename Body> void forTiles(Value count, Body body) {
    auto loop = scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(count),
                                   toIndex(i32(1)));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(fromIndex(loop.getInductionVar()));
  }
  template <typename Body> void ifThen(Value condition, Body body) {
    auto branch = scf::IfOp::create(b, loc, condition, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    body();
  }

  Value isPairLeader() {
    return cmp(arith::CmpIPredicate::eq, ctaRank, i32(kPairLeaderRank));
  }
  void commit(Value barrier) {
    TmemCommitOp::create(b, loc, barrier, mmaIssuer, plan.pair);
  }
  void handOver(Value barrier);
  void expectLoads(Value barrier, int64_t bytes);
  void load(Value map, ValueRange coordinates, Value destination,
            Value barrier);
  void drainRings();
  void buildLoader();
  void buildMma();
  void buildEpilogue();
  void buildSoftmax(Value tile);
  SmallVector<Value> initialRows();
  void buildCorrection();
  void buildCombine(Value out, Value max, Value sum);
  void joinCluster();
  /// Thread 0 initialises every mbarrier of the kernel.
  void initBarriers();
  /// The whole CTA meets, or under pair_cta the whole cluster.
  void meet();
  /// Opens role `index` of `roles` and decodes its work tile (each role
  /// decodes its own: values computed before the roles split stay live
  /// across every setmaxnreg, and ptxas then spills them in the roles with
  /// the smallest budgets).
  Block *beginRole(WarpSpecializeOp roles, int index);
  /// The third role: the load warp, the MMA warp and the epilogue warp.
  void buildWarpRoles(Block *role);
  void spanSequence(int64_t rows);
  void loadPagedTile(bool isV, Value base, Value firstKeyOfTile, int64_t boxes,
                     int64_t boxBytes, Value full);
  void copyPagedTile(bool isV, Value base, Value firstKeyOfTile, int64_t boxes,
                     int64_t boxBytes, Value full);
  /// A paged cache's loader is warp 0's 32 lanes (loaderLane); the TMA loads
  /// and their arrivals stay with lane 0.
  void asLoaderLeader(llvm::function_ref<void()> body);
  void completeCopies(Value full, int64_t newerGroups);
  /// TMA coordinates of a box of Q (`row` a work tile's query row) or of
  /// K/V (`row` a key) of the current sequence: 4D with the batch, or 3D
  /// from the sequence's first token in a packed tensor.
  SmallVector<Value, 4> qCoordinates(Value column, Value row) {
    if (firstQuery)
      return {column, work.head, add(firstQuery, row)};
    return {column, work.head, row, work.batch};
  }
  SmallVector<Value, 4> kvCoordinates(Value column, Value row) {
    if (firstKey)
      return {column, work.kvHead, add(firstKey, row)};
    return {column, work.kvHead, row, work.batch};
  }
  void waitForK(Value tile);
  void issueScore(Value tile, int64_t i);
  /// FP8: descale `operand` (0: Q, 1: K, 2: V) of this work tile's batch
  /// and kv-head, or null where the op has none.
  Value descale(int64_t operand);

  const BlackwellPlan &plan;
  /// Masked prefill: work tiles in sections whose K and V take at most this
  /// many bytes (WorkTiles::prefill; 0: one section).
  int64_t l2SectionBytes;
  // Serving forms: `args` holds the current sequence's lengths and O/LSE
  // pointers (ServingSpans), `launchArgs` the launch's.
  AttentionArgs args, launchArgs;
  // Serving forms: the current sequence's first query and key token where
  // those are packed (TMA rows), else null.
  Value firstQuery, firstKey;
  WorkTile work;
  // Decode: this CTA's rank in its cluster, which is its K/V partition.
  Value partition;
  // pair_cta: this CTA's rank in its pair (0 issues the MMAs).
  Value ctaRank;
  // The thread's index within its role's warpgroups.
  Value roleThread;
  // A paged cache's loader lane (0 to 31); null where one lane loads.
  Value loaderLane;
  // The MMA warp's lane that issues its MMAs and commits (buildMma).
  Value mmaIssuer;
};
} // namespace

/// Arrives on `barrier` expecting `bytes` of this CTA's loads. Under
/// pair_cta the even CTA's barrier counts both CTAs' loads: it arrives once
/// for the pair, expecting twice the bytes, and the odd CTA does not arrive.
void BlackwellKernelBuilder::expectLoads(Value barrier, int64_t bytes) {
  if (!plan.pair) {
    MBarrierExpectTxOp::create(b, loc, barrier, b.getI64IntegerAttr(bytes));
    return;
  }
  ifThen(isPairLeader(), [&] {
    MBarrierExpectTxOp::create(b, loc, barrier,
                               b.getI64IntegerAttr(kPairCtas * bytes));
  });
}

/// A TMA load whose bytes count on `barrier`, the pair leader's under
/// pair_cta.
void BlackwellKernelBuilder::load(Value map, ValueRange coordinates,
                                  Value destination, Value barrier) {
  TmaLoadOp::create(b, loc, map, coordinates, destination, barrier,
                    plan.pair ? i32(kPairLeaderRank) : Value(),
                    /*multicast=*/nullptr, /*l2Eviction=*/nullptr);
}

void BlackwellKernelBuilder::buildLoader() {
  Value qBarrier = barrier(plan.qFull());
  // With fused GQA a box is (query rows) x (the group's heads): TMA writes
  // it head-minor, which is the tile's row order.
  asLoaderLeader([&] {
    expectLoads(qBarrier,
                plan.numQ * plan.qkBoxes * plan.qBoxRows() * plan.boxBytes());
    for (int64_t i = 0; i < plan.numQ; ++i)
      for (int64_t box = 0; box < plan.qkBoxes; ++box)
        load(args.qMap, qCoordinates(i32(box * kBoxColumns), tileRow(i)),
             i32(plan.qOffset + i * plan.qTileBytes() +
                 box * kTileRows * plan.boxBytes()),
             qBarrier);
  });
  // Under pair_cta this CTA loads keys [BN/2 rank, BN/2 (rank + 1)) of each
  // K tile and depth columns [Dv/2 rank, Dv/2 (rank + 1)) of each V tile.
  Value kRowOffset = plan.pair ? mul(ctaRank, i32(plan.kRowsPerCta())) : i32(0);
  Value vColumnOffset =
      plan.pair ? mul(ctaRank, i32(plan.vColumnsPerCta())) : i32(0);
  forTiles(work.numTiles, [&](Value tile) {
    Value stages = i32(S());
    Value keyRow = mul(add(work.firstTile, tile), i32(plan.bn));
    auto loadTile = [&](bool isV) {
      Value ring = ringIndex(tile, isV);
      Value slot = slotOf(ring);
      ifThen(cmp(arith::CmpIPredicate::uge, ring, stages), [&] {
        wait(emptyBarrier(ring, isV),
             parityOf(sub(divu(ring, stages), i32(1))));
      });
      Value full = fullBarrier(ring, isV);
      int64_t boxes = isV ? plan.vBoxes() : plan.qkBoxes;
      int64_t boxBytes = isV ? plan.vBoxBytes() : plan.kBoxBytes();
      // A paged tile's bytes: loadPagedTile.
      if (plan.form != ServingForm::Paged)
        expectLoads(full, boxes * boxBytes);
      Value base = isV ? slotOffset(plan.vRingOffset, plan.vStageBytes, slot)
                       : slotOffset(plan.kRingOffset, plan.kStageBytes, slot);
      if (plan.form == ServingForm::Paged) {
        loadPagedTile(isV, base, keyRow, boxes, boxBytes, full);
        return;
      }
      for (int64_t box = 0; box < boxes; ++box) {
        Value column = i32(box * kBoxColumns);
        Value row = keyRow;
        if (isV)
          column = add(column, vColumnOffset);
        else
          row = add(row, kRowOffset);
        load(isV ? args.vMap : args.kMap, kvCoordinates(column, row),
             add(base, i32(box * boxBytes)), full);
      }
    };
    // Where every tile is copied (D-58), a tile's copies are completed once
    // the next one's are issued, two tiles' in flight: V(t - 1) after K(t)
    // is issued, K(t) after V(t).
    loadTile(/*isV=*/false);
    if (plan.copiesEveryKvTile())
      ifThen(cmp(arith::CmpIPredicate::sgt, tile, i32(0)), [&] {
        completeCopies(fullBarrier(ringIndex(sub(tile, i32(1)), true), true),
                       /*newerGroups=*/1);
      });
    loadTile(/*isV=*/true);
    if (plan.copiesEveryKvTile())
      completeCopies(fullBarrier(ringIndex(tile, false), false),
                     /*newerGroups=*/1);
  });
  if (plan.copiesEveryKvTile())
    ifThen(cmp(arith::CmpIPredicate::sgt, work.numTiles, i32(0)), [&] {
      Value last = sub(work.numTiles, i32(1));
      completeCopies(fullBarrier(ringIndex(last, true), true),
                     /*newerGroups=*/0);
    });
  if (plan.pair)
    drainRings();
}

/// A paged K or V tile of BN keys from `firstKeyOfTile`: each of its row
/// groups' depth boxes from its page, at its rows of the slot, by TMA where
/// the plan nests boxes in pages and the tile ends at or before the
/// sequence's last key; otherwise copied by the loader warp's lanes
/// (copyPagedTile), since TMA would read the last page's rows past that
/// key, which may hold anything (NaN times a zero probability is NaN;
/// D-58).
void BlackwellKernelBuilder::loadPagedTile(bool isV, Value base,
                                           Value firstKeyOfTile, int64_t boxes,
                                           int64_t boxBytes, Value full) {
  auto copy = [&] {
    copyPagedTile(isV, base, firstKeyOfTile, boxes, boxBytes, full);
  };
  if (!plan.pagesHoldBoxes)
    return copy();
  Value whole = cmp(arith::CmpIPredicate::sle,
                    add(firstKeyOfTile, i32(plan.bn)), args.seqKV);
  auto ifWhole = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifWhole.thenBlock());
  asLoaderLeader([&] {
    expectLoads(full, boxes * boxBytes);
    ServingSpans(b, loc, plan, launchArgs)
        .forEachPageGroup(
            work.batch, args.seqKV, firstKeyOfTile,
            [&](const PageGroup &group) {
              for (int64_t box = 0; box < boxes; ++box)
                load(isV ? args.vMap : args.kMap,
                     ValueRange{i32(box * kBoxColumns), work.kvHead, group.row,
                                group.page},
                     add(base, i32(box * boxBytes + group.slotBytes)), full);
            });
  });
  b.setInsertionPointToStart(ifWhole.elseBlock());
  copy();
}

/// A paged K or V tile copied by the loader warp's 32 lanes
/// (ServingSpans::copyPagedTile), fenced for the MMAs by the warp before
/// lane 0 arrives on the tile's full barrier (one arrival, as TMA's).
void BlackwellKernelBuilder::copyPagedTile(bool isV, Value base,
                                           Value firstKeyOfTile, int64_t boxes,
                                           int64_t boxBytes, Value full) {
  ServingSpans(b, loc, plan, launchArgs)
      .copyPagedTile(work.batch, args.seqKV, firstKeyOfTile,
                     isV ? args.vPtr : args.kPtr,
                     isV ? args.vStride : args.kStride, work.kvHead,
                     isV ? plan.ovDepth : plan.qkDepth, boxes, boxBytes, base,
                     loaderLane, /*threads=*/32);
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  // Where every tile is copied, buildLoader completes each tile once the
  // next one's copies are issued.
  if (!plan.copiesEveryKvTile())
    completeCopies(full, /*newerGroups=*/0);
}

/// The copies issued before the `newerGroups` latest commit groups have
/// landed: each lane fences its own for the MMAs, then, once the warp has,
/// lane 0 arrives on `full`.
void BlackwellKernelBuilder::completeCopies(Value full, int64_t newerGroups) {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, newerGroups);
  fenceAsyncProxy();
  NVVM::SyncWarpOp::create(b, loc, i32(-1));
  asLoaderLeader([&] { MBarrierArriveOp::create(b, loc, full); });
}

void BlackwellKernelBuilder::asLoaderLeader(function_ref<void()> body) {
  if (!loaderLane)
    return body();
  ifThen(cmp(arith::CmpIPredicate::eq, loaderLane, i32(0)), body);
}

/// The producer tail of a cluster pipeline: waits until the MMAs have
/// released the last use of every ring slot. The leader's commits arrive on
/// this CTA's empty barriers asynchronously; a CTA that exited (or a peer
/// that freed its shared memory) before they land would take arrivals on
/// memory it no longer owns.
void BlackwellKernelBuilder::drainRings() {
  int64_t rings = plan.sharedKv ? 1 : 2;
  Value uses = plan.sharedKv ? mul(work.numTiles, i32(2)) : work.numTiles;
  Value first = maxs(sub(uses, i32(S())), i32(0));
  for (int64_t r = 0; r < rings; ++r) {
    bool isV = r == 1;
    auto loop = scf::ForOp::create(b, loc, toIndex(first), toIndex(uses),
                                   toIndex(i32(1)));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value ring = fromIndex(loop.getInductionVar());
    wait(emptyBarrier(ring, isV), parityOf(divu(ring, i32(S()))));
  }
}

/// A warpgroup tells the MMA thread that its P_i (softmax) or rescaled O_i
/// (correction) is in tensor memory. Alone, every thread arrives (the
/// arrival orders its own tcgen05.st). Under pair_cta the barrier is the
/// pair leader's: each warp meets (bar.warp.sync orders its lanes' fenced
/// stores before lane 0) and lane 0 arrives remotely, one arrival per warp
/// instead of 128 remote ones per warpgroup.
void BlackwellKernelBuilder::handOver(Value barrier) {
  if (!plan.pair) {
    MBarrierArriveOp::create(b, loc, barrier);
    return;
  }
  TmemFenceOp::create(b, loc, /*after=*/false);
  NVVM::SyncWarpOp::create(b, loc, i32(-1));
  Value lane = remu(roleThread, i32(32));
  ifThen(cmp(arith::CmpIPredicate::eq, lane, i32(0)), [&] {
    MBarrierArriveOp::create(b, loc, barrier, i32(kPairLeaderRank),
                             /*count=*/IntegerAttr(), /*ctaScope=*/false);
  });
}

Value BlackwellKernelBuilder::descale(int64_t operand) {
  Value pointer = args.descalePtr[operand];
  if (!pointer)
    return {};
  if (Value batchStride = args.descaleStride[operand]) {
    Value index = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, sext(work.batch), batchStride),
        sext(work.kvHead));
    pointer = LLVM::GEPOp::create(b, loc, pointer.getType(), b.getF32Type(),
                                  pointer, ValueRange{index});
  }
  return LLVM::LoadOp::create(b, loc, b.getF32Type(), pointer,
                              /*alignment=*/4);
}

/// Waits for K(tile) and orders the MMAs after that wait.
void BlackwellKernelBuilder::waitForK(Value tile) {
  Value ring = ringIndex(tile, /*isV=*/false);
  wait(fullBarrier(ring, /*isV=*/false), parityOf(divu(ring, i32(S()))));
  TmemFenceOp::create(b, loc, /*after=*/true);
}

/// S_i(tile) = Q_i K(tile)^T, committed onto S full.
void BlackwellKernelBuilder::issueScore(Value tile, int64_t i) {
  Value slot = slotOf(ringIndex(tile, /*isV=*/false));
  Value kTile =
      smemTile(slotOffset(plan.kRingOffset, plan.kStageBytes, slot),
               plan.kRowsPerCta(), plan.qkBoxes * kBoxColumns, Major::K);
  Value overwrite = arith::ConstantIntOp::create(b, loc, 0, 1);
  TmemMmaOp::create(b, loc, qTile(i), kTile, sTile(i), overwrite, mmaIssuer,
                    plan.pair);
  commit(sFull(i));
}

/// One thread issues every MMA in FA4's order: O_i += P_i V(t) as softmax
/// i publishes P_i, and right after it S_i(t + 1), so softmax i starts on
/// the next tile while the other softmax still works. S_i(t + 1) may
/// overwrite P_i(t) because the tcgen05.mma of one thread run in issue
/// order. The K slot is released once both S of its tile are committed, the
/// V slot once both P V are.
///
/// The whole warp runs this, converged, and one lane chosen once by
/// elect.sync (always the same lane, so the order above holds) issues: the
/// warp computes every descriptor, warp-uniform, into uniform registers.
/// Issued from one lane of a divergent branch, ptxas wrapped each MMA in a
/// loop that proves its operands uniform lane by lane (ELECT, R2UR.BROADCAST,
/// BRA.U.ANY), and the MMA warp, not the tensor core, bounded the KV loop
/// (D-60).
void BlackwellKernelBuilder::buildMma() {
  // Its TMEM tiles made once (D-66), up to two Q boxes: past them the
  // issuer's descriptors and the tiles spilled 100 bytes (ptxas 13.0).
  std::optional<RoleTmemTiles> tiles;
  if (plan.qkBoxes <= kMaxQkBoxesForRoleTiles)
    tiles.emplace(*this);
  mmaIssuer = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
  wait(barrier(plan.qFull()), i32(0));
  // Under pair_cta both CTAs' Q bytes count on this (the leader's)
  // barrier, so a peer whose tile sees no key could never see its own Q
  // land before staging O over it: the leader, having seen both, completes
  // the peer's (found on fa4-emu: a causal pair whose 512 rows see no key
  // deadlocked).
  if (plan.pair && plan.storeOByTma && plan.oStagedOverQ)
    ifThen(arith::AndIOp::create(
               b, loc, mmaIssuer,
               cmp(arith::CmpIPredicate::eq, work.numTiles, i32(0))),
           [&] {
             MBarrierArriveOp::create(b, loc, barrier(plan.qFull()),
                                      i32(kPairPeerRank),
                                      /*count=*/IntegerAttr(),
                                      /*ctaScope=*/false);
           });
  ifThen(cmp(arith::CmpIPredicate::sgt, work.numTiles, i32(0)), [&] {
    waitForK(i32(0));
    for (int64_t i = 0; i < plan.numQ; ++i)
      issueScore(i32(0), i);
    commit(emptyBarrier(ringIndex(i32(0), false), false));
  });
  forTiles(work.numTiles, [&](Value tile) {
    Value vRing = ringIndex(tile, /*isV=*/true);
    Value slot = slotOf(vRing);
    wait(fullBarrier(vRing, /*isV=*/true), parityOf(divu(vRing, i32(S()))));
    Value vTile = smemTile(slotOffset(plan.vRingOffset, plan.vStageBytes, slot),
                           plan.bn, plan.vColumnsPerCta(), Major::MN);
    Value accumulate = cmp(arith::CmpIPredicate::sgt, tile, i32(0));
    Value next = add(tile, i32(1));
    Value hasNext = cmp(arith::CmpIPredicate::slt, next, work.numTiles);
    for (int64_t i = 0; i < plan.numQ; ++i) {
      // Under pair_cta both CTAs' warps arrive here, released at cluster
      // scope; the wait acquires at cluster scope to see their P and O.
      MBarrierWaitOp::create(b, loc, pReady(i), parityOf(tile),
                             /*cluster=*/plan.pair);
      TmemFenceOp::create(b, loc, /*after=*/true);
      TmemMmaOp::create(b, loc, pTile(i), vTile, oTile(i), accumulate,
                        mmaIssuer, plan.pair);
      commit(oDone(i));
      ifThen(hasNext, [&] {
        if (i == 0)
          waitForK(next);
        issueScore(next, i);
      });
    }
    commit(emptyBarrier(vRing, /*isV=*/true));
    ifThen(hasNext, [&] {
      commit(emptyBarrier(ringIndex(next, /*isV=*/false), false));
    });
  });
}

/// Each row's (max, sum) before its first key tile: -inf and 0, or under
/// sinks the row's sink, held by partition 0 alone where keys are split.
SmallVector<Value> BlackwellKernelBuilder::initialRows() {
  if (!plan.sinks)
    return {SplatOp::create(b, loc, rowsType(), f32(-INFINITY)),
            SplatOp::create(b, loc, rowsType(), f32(0.0))};
  Value holds = partition ? cmp(arith::CmpIPredicate::eq, partition, i32(0))
                          : boolean(true);
  auto sink =
      SinkRowsOp::create(b, loc, rowsType(), rowsType(), args.sinksPtr,
                         work.head, holds, b.getI64IntegerAttr(plan.rowGroup));
  return {sink.getMax(), sink.getSum()};
}

void BlackwellKernelBuilder::buildSoftmax(Value tileIndex) {
  // Each softmax warpgroup is one Q tile; the two run the same code on
  // their own columns, so the role branches once on its index.
  for (int64_t i = 0; i < plan.numQ; ++i) {
    ifThen(cmp(arith::CmpIPredicate::eq, tileIndex, i32(i)), [&] {
      auto scoresType =
          FragType::get(b.getContext(), kTileRows, plan.bn, b.getF32Type());
      auto probsType =
          FragType::get(b.getContext(), kTileRows, plan.bn, plan.elementType);
      Value firstRow = tileRow(i);
      // FP8: S = (Q K^T) of the stored values times both descales.
      Value scaleLog2 = args.scaleLog2;
      for (int64_t operand : {0, 1})
        if (Value factor = descale(operand))
          scaleLog2 = fmul(scaleLog2, factor);
      auto loop =
          scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(work.numTiles),
                             toIndex(i32(1)), initialRows());
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value tile = fromIndex(loop.getInductionVar());
        wait(sFull(i), parityOf(tile));
        Value scores =
            TmemLoadOp::create(b, loc, scoresType, sTile(i)).getResult();
        Value firstKey = mul(add(work.firstTile, tile), i32(plan.bn));
        SoftmaxInput input = softmaxInput(b, loc, plan, scores, scaleLog2);
        scores = MaskOp::create(b, loc, scoresType, input.scores, firstKey,
                                firstRow, args.seqQ, args.seqKV, plan.mask,
                                b.getI64IntegerAttr(plan.rowGroup));
        auto softmax = SoftmaxOp::create(
            b, loc, scoresType, rowsType(), rowsType(), rowsType(), scores,
            loop.getRegionIterArgs()[0], loop.getRegionIterArgs()[1],
            input.scaleLog2, b.getF64FloatAttr(kRescaleThreshold),
            plan.softcap ? kSoftcapPolyExp2Period : kPolyExp2Period,
            /*reductionChains=*/1, packsSoftmax(plan, roleRegisters(plan)[0]));
        // The correction warpgroup rescales O_i by these factors.
        RowsStoreOp::create(b, loc, softmax.getCorrection(),
                            b.getI64IntegerAttr(factorOffset(i)));
        MBarrierArriveOp::create(b, loc, statsReady(i));
        Value probs = TruncFOp::create(b, loc, probsType, softmax.getProbs());
        TmemStoreOp::create(b, loc, probs, pTile(i));
        handOver(pReady(i));
        scf::YieldOp::create(
            b, loc,
            ValueRange{Value(softmax.getNewMax()), Value(softmax.getNewSum())});
      }
      // The final max and sum, for the epilogue. They overwrite the last
      // tile's correction factors and complete the next statsReady phase,
      // so first wait until the correction warpgroup has taken those
      // factors (its hand-over of the last P): otherwise it could read the
      // max as factors, and the two phases could complete before its wait,
      // whose parity would then never come (both found on fa4-emu). Under
      // pair_cta that hand-over goes to the leader CTA, so the correction
      // also says so on this CTA's factorsTaken.
      ifThen(cmp(arith::CmpIPredicate::sgt, work.numTiles, i32(0)), [&] {
        wait(plan.pair ? factorsTaken(i) : pReady(i),
             parityOf(sub(work.numTiles, i32(1))));
      });
      RowsStoreOp::create(b, loc, loop.getResult(0),
                          b.getI64IntegerAttr(factorOffset(i)));
      RowsStoreOp::create(b, loc, loop.getResult(1),
                          b.getI64IntegerAttr(sumOffset(i)));
      MBarrierArriveOp::create(b, loc, statsReady(i));
    });
  }
}

void BlackwellKernelBuilder::buildCorrection() {
  forTiles(work.numTiles, [&](Value tile) {
    for (int64_t i = 0; i < plan.numQ; ++i) {
      wait(statsReady(i), parityOf(tile));
      Value factors = RowsLoadOp::create(b, loc, rowsType(),
                                         b.getI64IntegerAttr(factorOffset(i)));
      if (plan.pair)
        MBarrierArriveOp::create(b, loc, factorsTaken(i));
      // O_i holds P V of earlier tiles once the previous P V is done.
      ifThen(cmp(arith::CmpIPredicate::sgt, tile, i32(0)), [&] {
        wait(oDone(i), parityOf(sub(tile, i32(1))));
        TmemScaleRowsOp::create(b, loc, oTile(i), factors);
      });
      handOver(pReady(i));
    }
  });
  for (int64_t i = 0; i < plan.numQ; ++i) {
    wait(statsReady(i), parityOf(work.numTiles));
    Value max = RowsLoadOp::create(b, loc, rowsType(),
                                   b.getI64IntegerAttr(factorOffset(i)));
    Value sum = RowsLoadOp::create(b, loc, rowsType(),
                                   b.getI64IntegerAttr(sumOffset(i)));
    Value hasTiles = cmp(arith::CmpIPredicate::sgt, work.numTiles, i32(0));
    ifThen(hasTiles,
           [&] { wait(oDone(i), parityOf(sub(work.numTiles, i32(1)))); });
    // No visible key: O_i was never written; store zeros from TMEM.
    ifThen(cmp(arith::CmpIPredicate::eq, work.numTiles, i32(0)), [&] {
      // Nor did an MMA wait for this tile's Q load: let it land before O
      // is staged over it (found on fa4-emu at d = 256, Sq > Skv). A pair
      // peer's barrier is completed by the leader (buildMma), at cluster
      // scope.
      if (plan.storeOByTma && plan.oStagedOverQ)
        MBarrierWaitOp::create(b, loc, barrier(plan.qFull()), i32(0),
                               /*cluster=*/plan.pair);
      auto zeroType = FragType::get(b.getContext(), kTileRows, plan.paddedOv,
                                    b.getF32Type());
      TmemStoreOp::create(b, loc, SplatOp::create(b, loc, zeroType, f32(0.0)),
                          oTile(i));
    });
    // FP8: O = P V of the stored values times V's descale, once.
    if (Value factor = descale(2))
      TmemScaleRowsOp::create(b, loc, oTile(i),
                              SplatOp::create(b, loc, rowsType(), factor));
    if (plan.workspace) {
      // Partial `partition` of every row of the tile, normalised, in f32.
      WorkspacePartial partial = workspacePartial(
          b, loc, args.workspace, partition, workspacePartitions(b, loc),
          args.batchSize, args.seqQ, plan.numQHeads, plan.ovDepth);
      EpilogueOp::create(
          b, loc, oTile(i), max, sum, partial.outPtr, work.batch, work.blockRow,
          work.head, partial.outStride, args.seqQ, partial.lsePtr,
          partial.lseStride, b.getI64IntegerAttr(plan.ovDepth),
          TypeAttr::get(b.getF32Type()), b.getI64IntegerAttr(plan.rowGroup));
      continue;
    }
    if (plan.clusterSplit()) {
      // The combine stages partials over the Q buffer. A partition with no
      // key tile has its Q load waited by nobody else: let it land before
      // the stores (found on fa4-emu).
      wait(barrier(plan.qFull()), i32(0));
      buildCombine(oTile(i), max, sum);
      continue;
    }
    if (plan.storeOByTma) {
      // O / sum into shared memory for the epilogue warp; LSE directly.
      EpilogueStageOp::create(b, loc, oTile(i), sum, oStagingOffset(i),
                              plan.outputType);
      if (plan.hasLse)
        LseStoreOp::create(b, loc, max, sum, args.lsePtr, work.batch,
                           tileRow(i), work.head, args.lseStride, args.seqQ);
      MBarrierArriveOp::create(b, loc, oStaged(i));
      continue;
    }
    EpilogueOp::create(
        b, loc, oTile(i), max, sum, args.outPtr, work.batch, tileRow(i),
        work.head, args.outStride, args.seqQ, args.lsePtr, args.lseStride,
        b.getI64IntegerAttr(plan.ovDepth), TypeAttr::get(plan.outputType),
        b.getI64IntegerAttr(plan.rowGroup));
  }
}

/// The epilogue warp: each Q tile's O, once the correction warpgroup staged
/// it, leaves in 64-column TMA boxes (rows past Sq and columns past Dv are
/// clipped by the TMA); the warp waits for the stores to read shared memory
/// before the CTA may exit.
void BlackwellKernelBuilder::buildEpilogue() {
  for (int64_t i = 0; i < plan.numQ; ++i) {
    wait(oStaged(i), i32(0));
    for (int64_t box = 0; box < plan.ovBoxes; ++box)
      TmaStoreOp::create(
          b, loc, args.oMap,
          ValueRange{i32(box * kBoxColumns), work.head, tileRow(i), work.batch},
          i32(oStagingOffset(i) + box * kTileRows * kSwizzleBytes),
          /*l2Eviction=*/nullptr);
  }
  TmaStoreWaitOp::create(b, loc);
}

/// The cluster reduce-scatter (the seed's fa4_splitk_reduce_scatter_write)
/// run by the correction warpgroup: it stages O from TMEM with the row
/// (max, sum) over Q and the K/V rings (every MMA reading them is done),
/// meets the cluster, combines and stores this CTA's band of columns from
/// every partition's staging through DSMEM, and meets the cluster again so
/// that no CTA's shared memory goes away while a peer reads it. The other
/// roles only meet the cluster (joinCluster).
void BlackwellKernelBuilder::buildCombine(Value out, Value max, Value sum) {
  SplitKStageOp::create(b, loc, out, max, sum,
                        b.getI64IntegerAttr(plan.stagingOffset));
  ClusterSyncOp::create(b, loc);
  SplitKCombineOp::create(
      b, loc, partition, args.outPtr, work.batch, work.blockRow, work.head,
      args.outStride, args.seqQ, args.lsePtr, args.lseStride,
      b.getI64IntegerAttr(plan.stagingOffset),
      b.getI64IntegerAttr(plan.partitions), b.getI64IntegerAttr(plan.band),
      b.getI64IntegerAttr(kTileRows), b.getI64IntegerAttr(plan.paddedOv),
      b.getI64IntegerAttr(plan.ovDepth), TypeAttr::get(plan.outputType),
      b.getI64IntegerAttr(plan.rowGroup), b.getI64IntegerAttr(1));
  ClusterSyncOp::create(b, loc);
}

void BlackwellKernelBuilder::joinCluster() {
  if (!plan.clusterSplit())
    return;
  ClusterSyncOp::create(b, loc);
  ClusterSyncOp::create(b, loc);
}

void BlackwellKernelBuilder::initBarriers() {
  auto init = [&](int64_t index, int64_t count) {
    MBarrierInitOp::create(b, loc, barrier(index), b.getI64IntegerAttr(count));
  };
  init(plan.qFull(), 1);
  for (int64_t s = 0; s < plan.ringBarriers(); ++s)
    init(1 + s, 1);
  // P ready: the softmax and the correction warpgroup of the tile, every
  // thread alone, one lane per warp of both CTAs under pair_cta.
  int64_t pReadyArrivals = plan.pair ? kPairCtas * 2 * kWarpgroupThreads / 32
                                     : 2 * kWarpgroupThreads;
  for (int64_t i = 0; i < plan.numQ; ++i) {
    init(tileBarrier(0, i), 1);                 // S full: a commit
    init(tileBarrier(1, i), pReadyArrivals);    // P ready
    init(tileBarrier(2, i), 1);                 // O done: a commit
    init(tileBarrier(3, i), kWarpgroupThreads); // stats ready
    if (plan.storeOByTma)
      init(tileBarrier(plan.oStagedKind(), i), kWarpgroupThreads);
    if (plan.pair) // factors taken
      init(tileBarrier(plan.factorsTakenKind(), i), kWarpgroupThreads);
  }
  FenceMBarrierInitOp::create(b, loc);
}

void BlackwellKernelBuilder::meet() {
  if (plan.pair)
    ClusterSyncOp::create(b, loc);
  else
    gpu::BarrierOp::create(b, loc);
}

Block *BlackwellKernelBuilder::beginRole(WarpSpecializeOp roles, int index) {
  Type i32Type = b.getI32Type();
  Block *block = b.createBlock(&roles.getRoles()[index], {}, {i32Type, i32Type},
                               {loc, loc});
  roleThread = block->getArgument(1);
  if (plan.form != ServingForm::Dense) {
    args = launchArgs;
    firstQuery = firstKey = Value();
  }
  WorkTiles tiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn);
  if (plan.decode) {
    // A serving form's work item reads its sequence before its K/V tiles
    // are dealt out to the partitions.
    auto span = [&](WorkTile &item) {
      work = item;
      if (plan.form != ServingForm::Dense)
        spanSequence(plan.queryRowsPerTile());
      item = work;
    };
    work = tiles.decode(plan.partitions, plan.queryRowsPerTile(), plan.rowGroup,
                        plan.group, partition,
                        /*inCluster=*/!plan.workspace, span);
    return block;
  }
  Value blockId = fromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  // A work item's K and V: its boxes' rows per key.
  int64_t sectionKeyHeads = fa4::sectionKeyHeads(
      l2SectionBytes, (plan.qkBoxes + plan.ovBoxes) * plan.boxBytes(),
      plan.group);
  if (!plan.pair) {
    work = tiles.prefill(blockId, args.batchSize, plan.rowsPerWorkItem(),
                         plan.numQHeads, plan.group, sectionKeyHeads);
    if (plan.form != ServingForm::Dense)
      spanSequence(plan.rowsPerWorkItem());
    return block;
  }
  // A pair's work item is 512 rows, both CTAs see the K/V tiles of all of
  // them (the MMAs are shared), and CTA `rank` holds rows [256 rank,
  // 256 (rank + 1)) of it.
  ctaRank = fromIndex(gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x));
  work = tiles.prefill(divu(blockId, i32(kPairCtas)), args.batchSize,
                       plan.rowsPerWorkItem(), plan.numQHeads, plan.group,
                       sectionKeyHeads);
  work.blockRow = add(work.blockRow, mul(ctaRank, i32(plan.numQ * kTileRows)));
  return block;
}

/// A serving form's work tile reads its sequence (ServingSpans): `args`
/// takes its lengths and O/LSE pointers, the TMA rows start at its first
/// query and key token where those are packed.
void BlackwellKernelBuilder::spanSequence(int64_t rows) {
  SequenceSpan span = ServingSpans(b, loc, plan, launchArgs).span(work, rows);
  span.applyTo(args);
  firstQuery = span.firstQuery;
  firstKey = span.firstKey;
}

void BlackwellKernelBuilder::buildWarpRoles(Block *role) {
  Value thread = role->getArgument(1);
  Value otherWarp = divu(thread, i32(32));
  Value leader = cmp(arith::CmpIPredicate::eq, remu(thread, i32(32)), i32(0));
  auto isWarp = [&](int64_t w) {
    return arith::AndIOp::create(
        b, loc, leader, cmp(arith::CmpIPredicate::eq, otherWarp, i32(w)));
  };
  // A paged cache's loader is the whole warp: its lanes copy the tiles TMA
  // does not load (loadPagedTile), lane 0 issues the TMA loads.
  if (plan.form == ServingForm::Paged) {
    loaderLane = remu(thread, i32(32));
    ifThen(cmp(arith::CmpIPredicate::eq, otherWarp, i32(0)),
           [&] { buildLoader(); });
  } else {
    ifThen(isWarp(0), [&] { buildLoader(); });
  }
  // Under pair_cta only the even CTA issues MMAs (for both). The MMA warp
  // runs whole (buildMma).
  Value issues = cmp(arith::CmpIPredicate::eq, otherWarp, i32(1));
  if (plan.pair)
    issues = arith::AndIOp::create(b, loc, issues, isPairLeader());
  ifThen(issues, [&] { buildMma(); });
  if (plan.storeOByTma)
    ifThen(isWarp(2), [&] { buildEpilogue(); });
  joinCluster();
}

void BlackwellKernelBuilder::build(gpu::GPUFuncOp func, KernelABI &abi) {
  b.setInsertionPointToStart(&func.getBody().front());
  if (plan.form != ServingForm::Dense) {
    args = readServingArgs(b, loc, func, plan);
  } else {
    args = AttentionArgs::read(func, plan.hasLse, plan.workspace, plan.sinks);
    args.readDescales(func, abi.params);
  }

  Value tid = fromIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value warp = divu(tid, i32(32));
  // The MMA warp allocates tensor memory (and frees it at the end), as in
  // FA4: the warp that issues every tcgen05.mma owns the allocation. It does
  // so before the roles split, so the CTA barrier below publishes the
  // address to every role. Thread 0
  // initialises the mbarriers; then the whole CTA meets.
  // Warps: numQ softmax warpgroups, the correction warpgroup, then the
  // load warp and the MMA warp.
  int64_t loadWarp = (plan.numQ + 1) * kWarpgroupThreads / 32;
  Value mmaWarp = i32(loadWarp + 1);
  // Device-built tensor maps: the load warp and the warps below it stage
  // them meanwhile, in the Q tile the load warp loads later.
  args.stageTensorMaps(b, loc, plan, plan.qOffset, tid, loadWarp);
  ifThen(cmp(arith::CmpIPredicate::eq, warp, mmaWarp), [&] {
    TmemAllocOp::create(b, loc, plan.tmemAlloc, plan.tmemAddressOffset,
                        plan.pair);
  });
  ifThen(cmp(arith::CmpIPredicate::eq, tid, i32(0)), [&] { initBarriers(); });
  // Under pair_cta the peer's loads, commits and arrivals reach this CTA's
  // barriers: the whole cluster meets once they are initialised.
  meet();
  joinPriorGrids(b, loc, abi);
  args.publishTensorMaps(b, loc, plan.qOffset, tid, loadWarp);

  launchArgs = args;
  auto roles = WarpSpecializeOp::create(
      b, loc, b.getDenseI64ArrayAttr({plan.numQ, 1, 1}),
      b.getDenseI64ArrayAttr(roleRegisters(plan)),
      /*rolesCount=*/3);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *softmax = beginRole(roles, 0);
    buildSoftmax(softmax->getArgument(0));
    joinCluster();
  }
  {
    OpBuilder::InsertionGuard guard(b);
    beginRole(roles, 1);
    buildCorrection();
  }
  {
    OpBuilder::InsertionGuard guard(b);
    buildWarpRoles(beginRole(roles, 2));
  }
  // Every role is done with tensor memory: the MMA warp frees it. Under
  // pair_cta the pair meets first: each CTA's tensor memory and shared
  // memory served the other's MMAs, and the two MMA warps free the pair's
  // allocation together.
  meet();
  ifThen(cmp(arith::CmpIPredicate::eq, warp, mmaWarp), [&] {
    TmemDeallocOp::create(b, loc, plan.tmemAlloc, plan.tmemAddressOffset,
                          plan.pair);
  });
  gpu::ReturnOp::create(b, loc);
  placeTensorMapAcquires(func);
}

/// Why the kernel does not serve `plan`'s serving form, or nothing: what
/// neither chip's serving kernel runs (servingPlanRefusal), and a CTA pair.
static std::optional<std::string> servingFormRefusal(const BlackwellPlan &plan,
                                                     bool deviceMaps) {
  if (plan.form != ServingForm::Dense && plan.pair)
    return std::string("a pair_cta plan of a serving form: its kernel runs "
                       "one CTA per work tile");
  if (plan.fp8() && deviceMaps)
    return std::string("FP8 inputs under device-tensor-maps: the kernel "
                       "builds maps of 16-bit tensors only");
  return servingPlanRefusal(plan, deviceMaps);
}

std::optional<std::string>
fa4::blackwellKernelRefusal(attn::PlannedAttentionOpInterface op,
                            bool deviceTensorMaps) {
  FailureOr<BlackwellPlan> plan = failure();
  if (std::optional<std::string> why = firstErrorOf(op->getContext(), [&] {
        plan = readPlan(op);
        return LogicalResult(plan);
      }))
    return why;
  return servingFormRefusal(*plan, deviceTensorMaps);
}

static LogicalResult
buildBlackwellKernel(ModuleOp module, attn::PlannedAttentionOpInterface op,
                     const BlackwellKernelOptions &options) {
  int64_t l2SectionBytes = options.l2SectionBytes;
  bool deviceMaps = options.deviceTensorMaps;
  FailureOr<BlackwellPlan> plan = readPlan(op);
  if (failed(plan))
    return failure();
  if (std::optional<std::string> why = servingFormRefusal(*plan, deviceMaps))
    return op->emitOpError() << "has no Blackwell kernel for " << *why;
  MLIRContext *context = module.getContext();
  OpBuilder b(context);
  auto [kernels, name] =
      createKernelModule(module, op, "fa4_blackwell", "sm_100a");
  Location loc = op->getLoc();
  b.setInsertionPointToEnd(kernels.getBody());

  KernelABI abi;
  if (plan->form == ServingForm::Dense)
    abi.params = attentionParams(
        tmaBox(plan->queryRowsPerTile(), plan->rowGroup, plan->boxBytes()),
        tmaBox(plan->kRowsPerCta(), 1, plan->boxBytes()),
        tmaBox(plan->bn, 1, plan->boxBytes()), plan->hasLse, plan->workspace,
        plan->storeOByTma ? std::optional(tmaBox(kTileRows)) : std::nullopt,
        deviceMaps);
  else
    abi.params = servingAttentionParams(
        plan->servingLayout(),
        plan->packedQueries ? packedTmaBox(kTileRows)
                            : tmaBox(plan->queryRowsPerTile(), plan->rowGroup),
        plan->form == ServingForm::Paged ? tmaBox(plan->kvBoxRows)
                                         : packedTmaBox(plan->bn));
  if (plan->sinks)
    addSinksParam(abi.params);
  addDescaleParams(abi.params, plan->descales);
  int64_t threads = (plan->numQ + 2) * kWarpgroupThreads;
  auto func = createKernelFunc(b, loc, name, abi.params, threads);
  BlackwellKernelBuilder(b, loc, *plan, l2SectionBytes).build(func, abi);

  if (plan->decode) {
    setDecodeGrid(abi, *plan, plan->rowGroup, plan->queryRowsPerTile());
  } else {
    // Under pair_cta, two CTAs (one cluster) per work item of 512 rows.
    GridFactors x;
    if (plan->pair)
      x.push_back(kPairCtas);
    // Packed queries: the row blocks of the longest sequence, for every
    // sequence.
    x.append({GridFactor::ceilDivOf(plan->packedQueries ? "max_sq" : "sq",
                                    plan->rowsPerWorkItem()),
              "hq", "b"});
    abi.grid = {x, {1}, {1}};
    abi.cluster[0] = plan->ctaGroup();
  }
  abi.block[0] = threads;
  abi.dynamicSmemBytes = plan->smemUsed;
  setAttentionAlignment(abi, plan->hasLse, plan->storeOByTma);
  setServingAlignment(abi, plan->form);
  if (plan->workspace) {
    b.setInsertionPointToEnd(kernels.getBody());
    buildWorkspaceCombine(b, loc, name, abi, *plan, /*partialsPerPartition=*/1,
                          plan->numQHeads, plan->ovDepth, plan->outputType,
                          plan->hasLse);
  }
  setKernelABI(op, kernels, name, abi);
  return success();
}

namespace {
class BlackwellKernels : public KernelBuilder {
public:
  explicit BlackwellKernels(const BlackwellKernelOptions &options)
      : options(options) {}
  std::optional<std::string>
  refusal(attn::PlannedAttentionOpInterface op) const override {
    return blackwellKernelRefusal(op, options.deviceTensorMaps);
  }
  LogicalResult build(ModuleOp module,
                      attn::PlannedAttentionOpInterface op) const override {
    return buildBlackwellKernel(module, op, options);
  }

private:
  BlackwellKernelOptions options;
};
} // namespace

std::unique_ptr<KernelBuilder>
fa4::createBlackwellKernelBuilder(const BlackwellKernelOptions &options) {
  return std::make_unique<BlackwellKernels>(options);
}
