//===- HopperKernel.cpp - The sm_90a kernel: the FA3 structure -----------===//
//
// The FA3 structure, read from the plan attributes and written in the fa4
// kernel dialect:
//
//   role 0 (1 warpgroup)     producer: setmaxnreg down; one thread issues the
//                            TMA loads of Q (once per work tile) and of each
//                            K and V tile into rings of `kv_stages` slots,
//                            each slot guarded by a full barrier
//                            (transaction bytes) and an empty barrier
//                            (consumers), K one tile ahead of V.
//   role 1 (num_q groups)    consumers: setmaxnreg up; each owns a 64-row Q
//                            tile: S = Q K^T (fa4.mma), the mask on edge
//                            tiles, the online softmax, and O += P V with P
//                            taken from the softmax, one tile behind so both
//                            GEMMs of a turn are in flight together.
//
// Which instructions implement a frag, an MMA or a barrier is
// convert-fa4-to-nvvm's business; this file decides the schedule.
//
//===----------------------------------------------------------------------===//

#include "../Common/KernelEmitter.h"
#include "KernelFunc.h"
#include "Kernels.h"
#include "WorkTiles.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {
/// wgmma's M: each consumer warpgroup owns a 64-row Q tile.
constexpr int kRowsPerConsumer = 64;
/// One TMA box and one 128B swizzle atom row: 64 16-bit elements.
constexpr int kBoxColumns = 64;
constexpr int kSwizzleBytes = 128;
/// One consumer's box of a Q or O tile: 64 rows of 64 16-bit columns.
constexpr int64_t kConsumerBoxBytes = kRowsPerConsumer * kSwizzleBytes;
constexpr int64_t kMBarrierBytes = 8;
/// A looped twin stages O over a second Q buffer only where O has two or
/// more 64-column boxes, each of which waited for the previous box's store
/// to read the one slot (+1.8-6.5% at Dv = 128). With one box (Dv = 64)
/// that slot's wait is for the previous tile's store, long done, and the
/// Q buffer's release after the next step 0 cost 1-2.7% at 512-2048 keys
/// (bench/RESULTS.md, session 16).
constexpr int64_t kMinBoxesToStageOverQ = 2;
/// K/V stages a split-K decode needs before its two consumers take the
/// tiles in turn (see readPlan).
constexpr int64_t kMinStagesToSplitKeys = 4;
/// K of one wgmma (16-bit inputs): the granule of the last P V's narrowing.
constexpr int64_t kMmaK = 16;
/// Named barrier the two consumers meet at before staging split-K partials
/// (the ping-pong turns use 1 to the number of consumers; a split takes
/// two).
constexpr int kConsumersDoneBarrier = 3;
/// Named barriers 4 + c: consumer c's warpgroup meets before its TMA store
/// of O.
constexpr int kEpilogueBarrierBase = 4;

/// Everything the emitter needs, read from the op and its plan attributes;
/// the split-K part as readSplit reads it for both chips.
struct HopperPlan : SplitPlan {
  int64_t numConsumers, bn, kvStages, qkBoxes, ovBoxes, group, numQHeads;
  int64_t qkDepth, ovDepth, paddedOv;
  int64_t qOffset, kRingOffset, vRingOffset, barrierOffset, barrierBytes;
  int64_t kStageBytes, vStageBytes, smemUsed;
  attn::MaskAttr mask;
  bool hasLse;
  Type elementType;
  /// Decode (split-K or GQA-fused): a 3D grid of (partition, head, batch x
  /// row tile), the cluster's partitions combined by a reduce-scatter.
  /// Otherwise prefill: a 1D list of work tiles.
  bool decode = false;
  /// Split-K decode: both consumers work on the same 64-row Q tile, taking
  /// the partition's K/V tiles in turn (even tiles, odd tiles), and each
  /// stages its own partial for the combine. A decode tile has a few real
  /// rows, so one warpgroup's softmax and barrier waits, not the tensor
  /// cores, bound it; the second hides them (bench/RESULTS.md).
  bool consumersSplitKeys = false;
  /// Query rows per tile row: q-heads of one kv-head share a tile (fused
  /// GQA), tile row r holding head r % rowGroup of query row r / rowGroup.
  int64_t rowGroup = 1;
  int64_t numKVHeads = 0;
  /// Prefill O may leave through shared memory and TMA stores: each
  /// consumer stages its 64 x Dv tile at `oStagingOffset + c x
  /// oStagedTileBytes()`, which is its own Q tile (dead after its last
  /// QK^T) or a region of its own.
  bool canStoreOByTma = false;
  int64_t oStagingOffset = 0;
  /// A looped (persistent) prefill kernel's region past the plan's, where
  /// shared memory has room and the module builds a looped kernel that
  /// drains each work tile with tma-store-o (-1: none; it writes O from
  /// registers). Either a second Q buffer with its Q full and Q empty
  /// barriers (`loopDoubleQ`): work tile w reads buffer w % 2, the producer
  /// loads the next tile's Q while this one runs, and each consumer stages
  /// O over its own Q tile once its last Q K^T is done. Or, where that
  /// does not fit, one 64-column box of O per consumer, through which O
  /// leaves a box at a time (the single Q buffer holds the next tile's Q
  /// by the epilogue).
  int64_t loopStagingOffset = -1;
  bool loopDoubleQ = false;
  int64_t loopStagingBytes() const {
    return loopDoubleQ
               ? secondQBufferBytes()
               : loopedTwinStagingBytes(numConsumers * kRowsPerConsumer);
  }
  /// The second Q buffer and its Q full and Q empty barrier per Q tile.
  int64_t secondQBufferBytes() const {
    return qTiles() * (qTileBytes() + 2 * kMBarrierBytes);
  }
  /// The second Q buffer's barriers: Q full per Q tile, then Q empty.
  int64_t loopQBarrierOffset() const {
    return loopStagingOffset + qTiles() * qTileBytes();
  }
  /// The dynamic shared memory a launch needs.
  int64_t dynamicSmemBytes() const {
    return loopStagingOffset < 0 ? smemUsed
                                 : loopStagingOffset + loopStagingBytes();
  }
  int64_t oStagedTileBytes() const { return kRowsPerConsumer * paddedOv * 2; }

  /// Query rows one consumer's 64-row tile covers, and the rows TMA fills.
  int64_t queryRowsPerTile() const { return kRowsPerConsumer / rowGroup; }
  /// The decode grid's head dimension: kv heads under fused GQA.
  int64_t decodeHeads() const { return rowGroup > 1 ? numKVHeads : numQHeads; }
  /// A decode plan without a split can run on persistent CTAs: its work
  /// items are independent, with no cluster or workspace to share.
  bool decodeCanPersist() const { return decode && partitions == 1; }
  /// The one-dimensional work list (prefill, persistent decode): work items
  /// of this many query rows, per head of `workHeadsSymbol` and batch.
  int64_t rowsPerWorkItem() const {
    return decode ? queryRowsPerTile() : numConsumers * kRowsPerConsumer;
  }
  int64_t workHeads() const { return decode ? decodeHeads() : numQHeads; }
  const char *workHeadsSymbol() const {
    return decode && rowGroup > 1 ? "hkv" : "hq";
  }
  /// The one-dimensional grid of that work list (the manifest's spelling).
  SmallVector<SmallVector<std::string>> workListGrid() const {
    return {{("ceil_div:sq:" + Twine(rowsPerWorkItem())).str(),
             workHeadsSymbol(), "b"},
            {"1"},
            {"1"}};
  }
  /// Threads of a CTA: the producer warpgroup and the consumers.
  int64_t threads() const { return (1 + numConsumers) * kWarpgroupThreads; }
  int64_t qBoxRows() const { return queryRowsPerTile() * rowGroup; }

  int64_t qTileBytes() const { return qkBoxes * kConsumerBoxBytes; }
  int64_t kBoxBytes() const { return bn * kSwizzleBytes; }
  /// Bytes of one staged partial: O (f32), then row max and row sum.
  int64_t stagedPartialBytes() const {
    return splitKStagedPartialBytes(kRowsPerConsumer, paddedOv);
  }
  /// Partials each CTA stages for the split-K combine.
  int64_t partialsPerCta() const { return consumersSplitKeys ? 2 : 1; }
  /// Q tiles the producer loads: one shared tile when the consumers split
  /// the keys of the same rows.
  int64_t qTiles() const { return consumersSplitKeys ? 1 : numConsumers; }
  /// mbarriers: per Q tile Q full, then per Q tile Q empty; per slot K
  /// full, V full, K empty, V empty.
  int64_t numBarriers() const { return 2 * qTiles() + 4 * kvStages; }
};

/// Reads a plan, the kernel's or its looped twin's (twin_config,
/// twin_smem, twin_swizzle); fails with a diagnostic for plans this kernel
/// cannot run.
FailureOr<HopperPlan> readPlan(attn::AttentionOp op, attn::ConfigAttr config,
                               attn::SmemAttr smem, attn::SwizzleAttr swizzle) {
  if (!config || !smem || !swizzle)
    return op.emitOpError()
           << "needs #attn.config, #attn.swizzle and #attn.smem; run "
              "attn-plan-pipeline{chip=sm_90a} first";
  if (config.getChip() != attn::Chip::SM90a)
    return op.emitOpError()
           << "has a plan for " << attn::stringifyChip(config.getChip())
           << "; this lowering targets sm_90a";
  HopperPlan plan;
  plan.numConsumers = config.getNumQ();
  FailureOr<SplitPlan> split = readSplit(op);
  if (failed(split))
    return failure();
  static_cast<SplitPlan &>(plan) = *split;
  plan.rowGroup = config.getFuseGqa() ? config.getGroup() : 1;
  plan.decode = plan.partitions > 1 || config.getFuseGqa();
  // Without a split there is no combine to merge two consumers' partials:
  // one consumer takes the work item's rows. Each consumer holds its last
  // tile's slot until that tile's P V is issued after the next QK^T, two
  // tiles on: with two stages its next tile would wait for the very slot it
  // holds (a deadlock), and with three only one tile loads while both
  // consumers hold theirs (2.26 TB/s against 2.96 for one consumer,
  // bench/RESULTS.md). The split takes four or more.
  plan.consumersSplitKeys = plan.partitions > 1 && plan.numConsumers == 2 &&
                            smem.getKvStages() >= kMinStagesToSplitKeys;
  if (plan.decode && !plan.consumersSplitKeys)
    plan.numConsumers = 1;
  plan.numKVHeads = config.getNumKvHeads();
  plan.bn = config.getBn();
  plan.kvStages = smem.getKvStages();
  plan.qkDepth = config.getQkDepth();
  plan.ovDepth = config.getOvDepth();
  plan.qkBoxes = config.getPaddedQkDepth() / kBoxColumns;
  plan.paddedOv = config.getPaddedOvDepth();
  plan.ovBoxes = plan.paddedOv / kBoxColumns;
  plan.group = config.getGroup();
  plan.numQHeads = config.getNumQHeads();
  plan.mask = op.getMask();
  plan.hasLse = static_cast<bool>(op.getLse());
  plan.elementType = op.getQueryType().getElementType();
  plan.kStageBytes = smem.getKStageBytes();
  plan.vStageBytes = smem.getVStageBytes();
  plan.smemUsed = smem.getSmemUsed();
  fa4::SmemPlan regions = smem.toPlan();
  plan.qOffset = regions.q.offset;
  plan.kRingOffset = regions.kRing.offset;
  plan.vRingOffset = regions.vRing.offset;
  plan.barrierOffset = regions.barriers.offset;
  plan.barrierBytes = regions.barriers.bytes;

  auto box = [](attn::TmaBoxAttr b) {
    return std::make_tuple(b.getRows(), b.getColumns(), b.getSwizzle());
  };
  // Staged over Q, consumer c's O tile must lie in its own Q tile: the
  // other consumer may still be reading its own.
  plan.oStagingOffset = regions.oStaging.offset;
  bool stagedOverQ =
      regions.oStaging.offset < regions.q.offset + regions.q.bytes &&
      regions.q.offset < regions.oStaging.offset + regions.oStaging.bytes;
  plan.canStoreOByTma =
      !plan.decode && !plan.workspace && !plan.clusterSplit() &&
      regions.oStaging.bytes >=
          config.getNumQ() * kRowsPerConsumer * plan.paddedOv * 2 &&
      (!stagedOverQ || (regions.oStaging.offset == regions.q.offset &&
                        plan.paddedOv <= config.getPaddedQkDepth())) &&
      box(swizzle.getO()) == std::make_tuple(int64_t(kRowsPerConsumer),
                                             int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes));
  // The looped kernel's region past the plan: a second Q buffer where O
  // fits in a Q tile and shared memory has room, else one box of O per
  // consumer (HopperPlan::loopStagingOffset).
  const TargetInfo &hopper = getTargetInfo(Chip::SM90a);
  std::optional<int64_t> secondQ =
      pastPlanOffset(plan.smemUsed, plan.secondQBufferBytes(), hopper);
  plan.loopDoubleQ =
      plan.canStoreOByTma && !plan.decode && !plan.consumersSplitKeys &&
      plan.rowGroup == 1 && plan.ovBoxes >= kMinBoxesToStageOverQ &&
      plan.paddedOv <= config.getPaddedQkDepth() && secondQ.has_value();
  std::optional<int64_t> loopStaging =
      plan.loopDoubleQ
          ? secondQ
          : loopedTwinStagingOffset(plan.smemUsed, config.getBm(), hopper);
  if (plan.canStoreOByTma && loopStaging)
    plan.loopStagingOffset = *loopStaging;
  if (config.getMmaM() != kRowsPerConsumer ||
      config.getBm() != config.getNumQ() * kRowsPerConsumer ||
      config.getPaddedQkDepth() % kBoxColumns || plan.paddedOv % kBoxColumns ||
      plan.paddedOv > 256 || plan.bn % 16 || plan.bn > 256 ||
      config.getUseSharedKv() ||
      box(swizzle.getQ()) != std::make_tuple(int64_t(kRowsPerConsumer),
                                             int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes)) ||
      box(swizzle.getK()) != std::make_tuple(plan.bn, int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes)) ||
      box(swizzle.getV()) != std::make_tuple(plan.bn, int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes)))
    return op.emitOpError()
           << "has an sm_90a plan this kernel does not implement (it needs "
              "64-row consumer tiles, depths in 64-column 128B-swizzled boxes, "
              "Dv <= 256, BN a multiple of 16 up to 256 and separate K/V "
              "rings), got "
           << config;
  if (plan.rowGroup > kRowsPerConsumer)
    return op.emitOpError() << "fuses " << plan.rowGroup
                            << " q-heads per kv-head into a 64-row tile; at "
                               "most 64 fit";
  if (plan.clusterSplit() &&
      plan.stagingOffset + plan.partialsPerCta() * plan.stagedPartialBytes() >
          plan.barrierOffset)
    return op.emitOpError() << "has a split-K staging region that overlaps "
                               "its barriers: "
                            << smem;
  if (plan.kStageBytes < plan.qkBoxes * plan.kBoxBytes() ||
      plan.vStageBytes < plan.ovBoxes * plan.kBoxBytes() ||
      plan.barrierBytes < plan.numBarriers() * 8)
    return op.emitOpError() << "has a shared-memory plan too small for its "
                               "K/V slots or its "
                            << plan.numBarriers() << " mbarriers: " << smem;
  return plan;
}

/// Writes the kernel body in the fa4 dialect.
class FA3KernelBuilder : KernelEmitter {
public:
  FA3KernelBuilder(OpBuilder &b, Location loc, const HopperPlan &plan,
                   const FA3Schedule &schedule, bool persistent)
      : KernelEmitter(b, loc), plan(plan),
        pingPong(schedule.pingPong && plan.numConsumers >= 2 &&
                 !plan.consumersSplitKeys),
        persistent(persistent),
        intraWgOverlap(schedule.intraWgOverlap && allowsIntraWgOverlap(plan)),
        lazyRescale(schedule.lazyRescale && allowsLazyRescale(plan)),
        storeOByTma(storesOByTma(plan, persistent, schedule.tmaStoreO)),
        fusedWorkTiles(schedule.fuseWorkTiles && persistent && !plan.decode &&
                       this->intraWgOverlap && !plan.consumersSplitKeys &&
                       !plan.workspace && !plan.clusterSplit() && !storeOByTma),
        storeOByBoxes(persistent && plan.loopStagingOffset >= 0 &&
                      !plan.loopDoubleQ),
        doubleQ(persistent && plan.loopStagingOffset >= 0 && plan.loopDoubleQ),
        narrowLastPV(schedule.narrowLastPV),
        polyExp2Period(schedule.polyExp2Period),
        softmaxReductionChains(schedule.softmaxReductionChains),
        l2SectionBytes(schedule.l2SectionBytes),
        pairRowBlocks(schedule.pairRowBlocks && persistent),
        l2EvictionHints(schedule.l2EvictionHints && !plan.decode),
        twinOwnTiles(schedule.twinOwnTiles),
        trace(schedule.trace && plan.hasLse && !fusedWorkTiles &&
              !plan.decode && !plan.workspace && !plan.clusterSplit()) {}

  /// O through shared memory and TMA stores, in the kernel without a work
  /// loop: a persistent kernel's Q region already holds the next work
  /// tile's Q by its epilogue, so it writes O from registers.
  static bool storesOByTma(const HopperPlan &plan, bool persistent,
                           bool tmaStoreO) {
    return tmaStoreO && plan.canStoreOByTma && !persistent;
  }

  /// Where the overlap was measured and assembles clean: prefill under no
  /// mask or the causal one. A decode CTA's consumers split the keys and
  /// keep the schedule their numbers were taken with; a window mask's
  /// compares on top of the previous tile's P spill (292 B at Dv = 128,
  /// BN = 176; test/Pipelines/hopper-ptxas-matrix.mlir).
  static bool allowsIntraWgOverlap(const HopperPlan &plan) {
    return !plan.decode && plan.mask.getKind() != attn::MaskKind::Window;
  }

  /// Where the lazy rescale was measured to pay (bench/RESULTS.md, session
  /// 6): O of 128 or more columns, whose 64+ multiplies per thread and
  /// step it skips (+2-5% at Dv = 128, +3-8% at 256). At Dv = 64 its
  /// 32 multiplies cost less than the branch breaks in ptxas's schedule
  /// (-1-2%).
  static bool allowsLazyRescale(const HopperPlan &plan) {
    return plan.paddedOv >= 128;
  }

  void build(gpu::GPUFuncOp func, KernelABI &abi);

private:
  Value fromIndex(Value v) { return indexTo(b.getI32Type(), v); }

  //===--- barriers, TMA, tiles -------------------------------------------===//
  Value barrier(Value index) {
    return MBarrierGetOp::create(b, loc, MBarrierType::get(b.getContext()),
                                 index,
                                 b.getI64IntegerAttr(plan.barrierOffset));
  }
  Value barrier(int64_t index) { return barrier(i32(index)); }
  /// Each Q tile has its own pair, so that a consumer's next Q loads as soon
  /// as that consumer, not both, is done with its last QK^T. With doubleQ,
  /// `buffer` (0 or 1) picks the pair of the plan's Q region or of the
  /// second buffer's, which follows that buffer past the plan.
  Value qFullBarrier(Value qTile, Value buffer = {}) {
    return barrier(qBarrierIndex(qTile, buffer));
  }
  Value qEmptyBarrier(Value qTile, Value buffer = {}) {
    return barrier(add(qBarrierIndex(qTile, buffer), i32(plan.qTiles())));
  }
  Value qBarrierIndex(Value qTile, Value buffer) {
    if (!buffer)
      return qTile;
    int64_t secondPair =
        (plan.loopQBarrierOffset() - plan.barrierOffset) / kMBarrierBytes;
    return add(qTile, mul(buffer, i32(secondPair)));
  }
  /// The Q buffer of this CTA's work tile `workDone` (none: the plan's one
  /// region), and the phase of that buffer's barriers the tile uses: with
  /// doubleQ buffer w % 2 serves work tiles w, w + 2, ..., else the one
  /// region serves every tile.
  Value qBufferOf(Value workDone) {
    if (!doubleQ)
      return Value();
    return arith::AndIOp::create(b, loc, workDone, i32(1));
  }
  Value qPhaseOf(Value workDone) {
    Value use = doubleQ ? divu(workDone, i32(qBuffers())) : workDone;
    return arith::AndIOp::create(b, loc, use, i32(1));
  }
  int64_t qBuffers() const { return doubleQ ? 2 : 1; }
  /// Where Q tile `qTileIndex` starts in `buffer` (none: the plan's region).
  Value qTileOffset(Value qTileIndex, Value buffer) {
    Value offset =
        add(i32(plan.qOffset), mul(qTileIndex, i32(plan.qTileBytes())));
    if (buffer)
      offset =
          add(offset, mul(buffer, i32(plan.loopStagingOffset - plan.qOffset)));
    return offset;
  }
  Value qTileIn(Value qTileIndex, Value buffer) {
    return smemTile(qTileOffset(qTileIndex, buffer), kRowsPerConsumer,
                    plan.qkBoxes * kBoxColumns, Major::K);
  }
  Value kFullBarrier(Value slot) {
    return barrier(add(i32(kvBarrierBase()), slot));
  }
  Value vFullBarrier(Value slot) {
    return barrier(add(i32(kvBarrierBase() + plan.kvStages), slot));
  }
  Value kEmptyBarrier(Value slot) {
    return barrier(add(i32(kvBarrierBase() + 2 * plan.kvStages), slot));
  }
  Value vEmptyBarrier(Value slot) {
    return barrier(add(i32(kvBarrierBase() + 3 * plan.kvStages), slot));
  }
  int64_t kvBarrierBase() const { return 2 * plan.qTiles(); }
  void waitBarrier(Value barrier, Value parity) {
    MBarrierWaitOp::create(b, loc, barrier, parity);
  }
  void expectBytes(Value barrier, int64_t bytes) {
    MBarrierExpectTxOp::create(b, loc, barrier, b.getI64IntegerAttr(bytes));
  }
  /// The L2 eviction priority of a copy of an operand that every row block
  /// of a head reads again (K, V: `reused`) or that is touched once (Q, O);
  /// none without l2EvictionHints.
  L2EvictionAttr l2EvictionFor(bool reused) {
    if (!l2EvictionHints)
      return nullptr;
    return L2EvictionAttr::get(b.getContext(),
                               reused ? L2Eviction::Last : L2Eviction::First);
  }
  /// One 4D TMA box (coordinates innermost first: depth, head, row, batch).
  void tmaLoad(Value tensorMap, Value destination, Value depth, Value head,
               Value row, Value batch, Value barrier, bool reused) {
    TmaLoadOp::create(b, loc, tensorMap, ValueRange{depth, head, row, batch},
                      destination, barrier, /*barrierCta=*/Value(),
                      l2EvictionFor(reused));
  }
  Value smemTile(Value offset, int64_t rows, int64_t columns, Major major) {
    return SmemTileOp::create(b, loc,
                              SmemTileType::get(b.getContext(), rows, columns,
                                                plan.elementType, major),
                              offset);
  }
  FragType accType(int64_t columns) {
    return FragType::get(b.getContext(), kRowsPerConsumer, columns,
                         b.getF32Type());
  }
  RowsType rowsType() {
    return RowsType::get(b.getContext(), kRowsPerConsumer, b.getF32Type());
  }
  Value splat(Type type, double value) {
    return SplatOp::create(b, loc, type, f32(value));
  }

  //===--- parts of the kernel --------------------------------------------===//
  void decodeWork(Value index);
  void decodeSplitWork();
  void setWork(const WorkTile &work) {
    batch = work.batch;
    head = work.head;
    kvHead = work.kvHead;
    blockRow = work.blockRow;
    firstTile = work.firstTile;
    numTiles = work.numTiles;
  }
  /// Where a producer or consumer is in its list of work tiles.
  struct WorkScope {
    scf::ForOp loop; // null when not persistent: one work tile per CTA
    Value workDone;  // work tiles this CTA finished before this one
    Value kvTiles;   // K/V ring tiles used before this work tile
  };
  Value workTileCount();
  bool consumersOwnRows() const;
  bool consumersOwnRowsOfOneTile() const;
  bool idleConsumersSkip() const;
  bool trimsTrailingTiles() const;
  WorkScope beginWork();
  void endWork(WorkScope scope);
  void buildProducer();
  void buildConsumer(Value consumer);
  void stagePartial(Value consumer, Value out, Value rowMax, Value rowSum);
  void storeO(Value consumer, Value out, Value rowMax, Value rowSum,
              Value batch, Value head, Value tileRow);
  void writeWorkspacePartial(Value consumer, Value out, Value rowMax,
                             Value rowSum, Value tileRow);
  void buildCombine(Value consumer);
  scf::IfOp meetThenFirstThread(Value consumer);
  void meetWarpgroup(Value consumer);
  void stageByConsumer(Value consumer, Value out, Value rowSum, int64_t base,
                       int64_t stride, std::optional<int64_t> box);
  scf::IfOp firstThreadOf();
  Value isFirstThread();
  void storeOByBox(Value consumer, Value out, Value rowMax, Value rowSum,
                   Value batch, Value head, Value tileRow);
  void storeOOverQ(Value consumer, Value out, Value rowMax, Value rowSum,
                   Value batch, Value head, Value tileRow, Value buffer);
  void storeLse(Value rowMax, Value rowSum, Value batch, Value head,
                Value tileRow);
  void storeOBoxes(Value staging, Value batch, Value head, Value tileRow);
  void storeOBox(int64_t box, Value source, Value batch, Value head,
                 Value tileRow);
  Value traceStamp();
  void epilogueStamp();
  void writeTrace(Value consumer, ArrayRef<Value> stamps, Value tileRow);

  const HopperPlan &plan;
  bool pingPong;
  bool persistent;
  bool intraWgOverlap;
  bool lazyRescale;
  bool storeOByTma;
  /// Persistent prefill: a work tile's tail is fused with the next one's
  /// head (buildConsumer).
  bool fusedWorkTiles;
  /// A looped kernel's O leaves by TMA one box at a time through its own
  /// staging region (storeOByBoxes).
  bool storeOByBoxes;
  /// A looped kernel with two Q buffers: work tile w reads buffer w % 2, the
  /// producer loads the next tile's Q during this one, and O is staged over
  /// the consumer's Q tile for its TMA store (storeOOverQ).
  bool doubleQ;
  /// The last P V issues only the MMA_K steps with visible keys.
  bool narrowLastPV;
  /// One exp2 of the softmax in this many on the FMA pipe (0: none).
  int64_t polyExp2Period;
  /// A softmax row's max and sum reduced in this many chains.
  int64_t softmaxReductionChains;
  /// Masked prefill: work tiles in sections whose K and V take at most
  /// this many bytes (WorkTiles::prefill; 0: one section).
  int64_t l2SectionBytes;
  /// Persistent, causal: row blocks R - 1 - k and k of a pair go to one CTA
  /// in consecutive strides (pairedSlot).
  bool pairRowBlocks;
  /// Prefill: K and V loads evict last, Q loads and O stores evict first.
  bool l2EvictionHints;
  /// trimsTrailingTiles in the looped twin too.
  bool twinOwnTiles;
  /// Prefill: each consumer writes its phase times over its LSE rows
  /// (writeTrace).
  bool trace;
  /// With `trace`, the looped twin's epilogue stamps of the current work
  /// tile (storeOByBox), written after the phase stamps.
  SmallVector<Value> epilogueStamps;

  // Kernel arguments.
  AttentionArgs args;
  Value numWork, firstWork, workStride;
  // The current work tile (decodeWork).
  Value batch, head, kvHead, blockRow, firstTile, numTiles;
  // Decode: this CTA's rank in its cluster, which is its K/V partition.
  Value partition;
};
} // namespace

/// The work tile `index` names: a 128-row block of one (batch, head), and the
/// KV tiles its rows can see. Causal and window masks go heaviest first (the
/// last row blocks see the most keys): longest-processing-time order for the
/// persistent CTAs, within L2 sections of heads (l2-section-bytes).
/// Otherwise the row blocks of one head are adjacent, so CTAs running
/// together share K and V in L2. A decode kernel on persistent CTAs: work
/// item `index` of its flattened grid (WorkTiles::decodeItem).
void FA3KernelBuilder::decodeWork(Value index) {
  WorkTiles tiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn);
  if (plan.decode) {
    partition = i32(0);
    return setWork(tiles.decodeItem(index, plan.decodeHeads(),
                                    plan.queryRowsPerTile(), plan.rowGroup,
                                    plan.group));
  }
  // A work tile's K and V: its boxes' 128-byte rows per key (as sm_100a's).
  int64_t kvBytesPerKey = (plan.qkBoxes + plan.ovBoxes) * kSwizzleBytes;
  setWork(tiles.prefill(
      index, args.batchSize, plan.numConsumers * kRowsPerConsumer,
      plan.numQHeads, plan.group,
      fa4::sectionKeyHeads(l2SectionBytes, kvBytesPerKey, plan.group),
      pairRowBlocks ? workStride : Value()));
}

/// Decode: see WorkTiles::decode.
void FA3KernelBuilder::decodeSplitWork() {
  setWork(WorkTiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn)
              .decode(plan.partitions, plan.queryRowsPerTile(), plan.rowGroup,
                      plan.group, partition, /*inCluster=*/!plan.workspace));
}

/// How many work tiles this persistent CTA takes: firstWork, firstWork +
/// workStride, ... below numWork.
Value FA3KernelBuilder::workTileCount() {
  Value myWork =
      divu(add(sub(numWork, firstWork), sub(workStride, i32(1))), workStride);
  return select(cmp(arith::CmpIPredicate::sgt, numWork, firstWork), myWork,
                i32(0));
}

/// Whether this is a prefill kernel whose several consumers each own their
/// rows and write O themselves (not split keys, a cluster or a workspace,
/// whose combine expects every consumer's partial): where a consumer may
/// take its turns without GEMMs.
bool FA3KernelBuilder::consumersOwnRows() const {
  return !plan.decode && !plan.consumersSplitKeys && !plan.clusterSplit() &&
         !plan.workspace && plan.numConsumers > 1;
}

/// consumersOwnRows with one work tile per CTA.
bool FA3KernelBuilder::consumersOwnRowsOfOneTile() const {
  return consumersOwnRows() && !persistent;
}

/// Whether a consumer with no rows in the work tile skips its GEMMs:
/// without a window mask. (The branch costs registers: ptxas spilled
/// 28-32 B in the d = 128 causal and d = 256 looped twins, across their
/// work loop, and 4 B in the window-masked kernels at d = 96 and 128.)
bool FA3KernelBuilder::idleConsumersSkip() const {
  return consumersOwnRowsOfOneTile() &&
         plan.mask.getKind() != attn::MaskKind::Window;
}

/// Whether each consumer stops its GEMMs at the last K/V tile its own rows
/// see, where a mask's right bound (causal, or a window's) can end them
/// before the work tile's last rows do. Not in the looped twins: there the
/// trailing loops cost 2.4-3.8% where no count changes (d = 64 and 128,
/// whose 128-key tiles give both consumers the same count) and more than
/// the GEMMs they save at d = 256 (-2.6%, with 10% fewer GEMM steps at 512
/// keys), before or after the last P V (bench/RESULTS.md, session 15);
/// `twin-own-tiles` builds them there too, for the power-limited clock,
/// where the GEMM steps they skip are energy.
bool FA3KernelBuilder::trimsTrailingTiles() const {
  bool rightBound = plan.mask.getKind() == attn::MaskKind::Causal ||
                    (plan.mask.getKind() == attn::MaskKind::Window &&
                     plan.mask.getRight() >= 0);
  return rightBound && consumersOwnRows() && (!persistent || twinOwnTiles);
}

/// Persistent: a loop over this CTA's work tiles carrying (work tiles done,
/// K/V tiles used so far); the K/V ring and the Q buffer continue from one
/// work tile to the next, so their slots and barrier parities count across
/// tiles. Otherwise the CTA's one work tile, with both counts 0.
FA3KernelBuilder::WorkScope FA3KernelBuilder::beginWork() {
  if (plan.decode && !persistent) {
    decodeSplitWork();
    return {scf::ForOp(), i32(0), i32(0)};
  }
  if (!persistent) {
    decodeWork(firstWork);
    return {scf::ForOp(), i32(0), i32(0)};
  }
  // The loop counts this CTA's work tiles, so the count done is its
  // induction variable and only the ring position is carried: one value
  // fewer held across the K/V loop, where the consumers' 240 registers are
  // all in use.
  Value myWork = workTileCount();
  auto loop = scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(myWork),
                                 toIndex(i32(1)), ValueRange{i32(0)});
  b.setInsertionPointToStart(loop.getBody());
  Value workDone = fromIndex(loop.getInductionVar());
  decodeWork(add(firstWork, mul(workDone, workStride)));
  return {loop, workDone, loop.getRegionIterArgs()[0]};
}

void FA3KernelBuilder::endWork(WorkScope scope) {
  if (!scope.loop)
    return;
  scf::YieldOp::create(b, loc, ValueRange{add(scope.kvTiles, numTiles)});
  b.setInsertionPointAfter(scope.loop);
}

void FA3KernelBuilder::buildProducer() {
  WorkScope work = beginWork();
  Value workDone = work.workDone, tilesLoaded = work.kvTiles;

  // K and V tiles through their rings. A K slot is reused once its readers
  // (both consumers, or the one whose turn it was) have finished the QK^T,
  // a V slot once they finished the P V, one tile later. K runs one tile
  // ahead of V (FA3's order), so the next K load never queues behind a V
  // slot still held by a pending P V.
  Value stages = i32(plan.kvStages);
  auto waitForSlot = [&](Value emptyBarrierOfSlot, Value ringTile) {
    auto ifReuse = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::uge, ringTile, stages), false);
    OpBuilder::InsertionGuard reuseGuard(b);
    b.setInsertionPointToStart(ifReuse.thenBlock());
    Value round = divu(ringTile, stages);
    waitBarrier(emptyBarrierOfSlot,
                arith::AndIOp::create(b, loc, sub(round, i32(1)), i32(1)));
  };
  auto loadTile = [&](Value tile, bool isKey) {
    Value ringTile = add(tilesLoaded, tile);
    Value slot = remu(ringTile, stages);
    waitForSlot(isKey ? kEmptyBarrier(slot) : vEmptyBarrier(slot), ringTile);
    Value keyRow = mul(add(firstTile, tile), i32(plan.bn));
    Value full = isKey ? kFullBarrier(slot) : vFullBarrier(slot);
    int64_t boxes = isKey ? plan.qkBoxes : plan.ovBoxes;
    expectBytes(full, boxes * plan.kBoxBytes());
    Value slotOffset =
        isKey ? add(i32(plan.kRingOffset), mul(slot, i32(plan.kStageBytes)))
              : add(i32(plan.vRingOffset), mul(slot, i32(plan.vStageBytes)));
    for (int64_t box = 0; box < boxes; ++box)
      tmaLoad(isKey ? args.kMap : args.vMap,
              add(slotOffset, i32(box * plan.kBoxBytes())),
              i32(box * kBoxColumns), kvHead, keyRow, batch, full,
              /*reused=*/true);
  };
  Value anyTiles = cmp(arith::CmpIPredicate::sgt, numTiles, i32(0));
  {
    auto ifFirst = scf::IfOp::create(b, loc, anyTiles, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    loadTile(i32(0), /*isKey=*/true);
  }
  // Q of this CTA's work tile `index` (the current work tile's
  // coordinates): each consumer's 64 rows, all depth boxes, on that tile's
  // barrier, once its readers have released the buffer's previous work
  // tile (the one before, or with doubleQ two before).
  auto loadQ = [&](Value index) {
    Value buffer = qBufferOf(index);
    for (int64_t qTile = 0; qTile < plan.qTiles(); ++qTile) {
      auto ifReuseQ = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::sgt, index, i32(qBuffers() - 1)),
          false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifReuseQ.thenBlock());
        Value previous = sub(index, i32(qBuffers()));
        waitBarrier(qEmptyBarrier(i32(qTile), buffer), qPhaseOf(previous));
      }
      // With fused GQA a box is (query rows) x (the group's heads): TMA
      // writes it head-minor, which is the tile's row order.
      Value qBarrier = qFullBarrier(i32(qTile), buffer);
      expectBytes(qBarrier, plan.qkBoxes * plan.qBoxRows() * kSwizzleBytes);
      Value tileOffset = qTileOffset(i32(qTile), buffer);
      for (int64_t box = 0; box < plan.qkBoxes; ++box)
        tmaLoad(args.qMap, add(tileOffset, i32(box * kConsumerBoxBytes)),
                i32(box * kBoxColumns), head,
                add(blockRow, i32(qTile * plan.queryRowsPerTile())), batch,
                qBarrier, /*reused=*/false);
    }
  };
  // The first K tile goes before Q: its slot frees while the consumers still
  // read the previous Q, so a persistent CTA's next tile does not wait for
  // the Q release to start loading K. With doubleQ only the CTA's first Q
  // loads here; each later one loads under the work tile before it (below).
  if (doubleQ) {
    auto ifFirstWork = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, workDone, i32(0)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirstWork.thenBlock());
    loadQ(i32(0));
  } else {
    loadQ(workDone);
  }

  auto loop = scf::ForOp::create(b, loc, toIndex(i32(1)), toIndex(numTiles),
                                 toIndex(i32(1)));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value tile = fromIndex(loop.getInductionVar());
    loadTile(tile, /*isKey=*/true);
    loadTile(sub(tile, i32(1)), /*isKey=*/false);
  }
  {
    auto ifLast = scf::IfOp::create(b, loc, anyTiles, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    loadTile(sub(numTiles, i32(1)), /*isKey=*/false);
  }
  // With doubleQ the next work tile's Q, once this tile's K and V are
  // issued: its buffer was released two work tiles back, so it lands during
  // this tile instead of after its last Q K^T.
  if (doubleQ) {
    Value next = add(workDone, i32(1));
    auto ifNext = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::slt, next, workTileCount()), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifNext.thenBlock());
    WorkTile current{batch, head, kvHead, blockRow, firstTile, numTiles};
    decodeWork(add(firstWork, mul(next, workStride)));
    loadQ(next);
    setWork(current);
  }
  endWork(work);
}

void FA3KernelBuilder::buildConsumer(Value consumer) {
  // With the keys split, both consumers read the one Q tile of their rows.
  Value qTileIndex = plan.consumersSplitKeys ? i32(0) : consumer;
  // With doubleQ, each work tile's buffer (set per work tile below).
  Value qBuffer;
  Value qTile = qTileIn(qTileIndex, qBuffer);
  FragType scoresType = accType(plan.bn), outType = accType(plan.paddedOv);
  auto probsType = FragType::get(b.getContext(), kRowsPerConsumer, plan.bn,
                                 plan.elementType);
  Value stages = i32(plan.kvStages);
  auto slotOf = [&](Value tile) { return remu(tile, stages); };
  auto parityOf = [&](Value tile) {
    return arith::AndIOp::create(b, loc, divu(tile, stages), i32(1));
  };
  // O += P V for `tile`, P from the softmax.
  // The V tile of `tile`, once it has landed: the B of O += P V.
  auto waitVTile = [&](Value tile) {
    waitBarrier(vFullBarrier(slotOf(tile)), parityOf(tile));
    return smemTile(
        add(i32(plan.vRingOffset), mul(slotOf(tile), i32(plan.vStageBytes))),
        plan.bn, plan.paddedOv, Major::MN);
  };
  auto issuePV = [&](Value out, Value probs, Value tile) -> Value {
    return MmaOp::create(b, loc, outType, probs, waitVTile(tile), out);
  };
  // The K tile in ring slot `slot`, the B of S = Q K^T.
  auto kTileIn = [&](Value slot) {
    return smemTile(
        add(i32(plan.kRingOffset), mul(slot, i32(plan.kStageBytes))), plan.bn,
        plan.qkBoxes * kBoxColumns, Major::K);
  };
  auto releaseK = [&](Value tile) {
    MBarrierArriveOp::create(b, loc, kEmptyBarrier(slotOf(tile)));
  };
  auto releaseV = [&](Value tile) {
    MBarrierArriveOp::create(b, loc, vEmptyBarrier(slotOf(tile)));
  };
  // Ping-pong (FA3): named barrier 1 + c orders consumer c's GEMM issue after
  // the previous consumer's (c - 1, cyclically), so one warpgroup's softmax
  // runs under the others' GEMMs. The last consumer lets consumer 0 go
  // first.
  int64_t numConsumers = plan.numConsumers;
  Value ownTurn = add(consumer, i32(1));
  Value nextTurn =
      numConsumers == 2
          ? sub(i32(2), consumer)
          : add(remu(add(consumer, i32(1)), i32(numConsumers)), i32(1));
  Value pairThreads = i32(2 * kWarpgroupThreads);
  auto waitTurn = [&] {
    NVVM::BarrierOp::create(b, loc, Type(), ownTurn, pairThreads,
                            NVVM::BarrierReductionAttr(), Value());
  };
  auto passTurn = [&] {
    NVVM::BarrierArriveOp::create(b, loc, nextTurn, pairThreads);
  };
  if (pingPong) {
    auto ifLast = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(numConsumers - 1)),
        false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    passTurn();
  }

  // The work tile a step belongs to: the ring position of its first K/V
  // tile, its first visible K/V tile, and this consumer's first row.
  struct StepWork {
    Value ringBase, firstTile, tileRow;
  };
  auto tileRowOf = [&](Value blockRow) -> Value {
    return plan.consumersSplitKeys
               ? blockRow
               : add(blockRow, mul(consumer, i32(plan.queryRowsPerTile())));
  };
  // The work item's K/V tiles this consumer takes: all, or every other one
  // from its index.
  int64_t tileStride = plan.consumersSplitKeys ? 2 : 1;
  auto myTilesOf = [&](Value numTiles) -> Value {
    return plan.consumersSplitKeys
               ? divu(sub(add(numTiles, i32(1)), consumer), i32(2))
               : numTiles;
  };
  auto workTileOf = [&](Value step) -> Value {
    return plan.consumersSplitKeys ? add(consumer, mul(step, i32(2))) : step;
  };
  auto waitQ = [&](Value workDone) {
    waitBarrier(qFullBarrier(qTileIndex, qBufferOf(workDone)),
                qPhaseOf(workDone));
  };
  // Turns without GEMMs for the work tile's K/V tiles [from, to) (ring
  // positions from `ringBase`): wait for each K and V tile, take and pass
  // the turn, release both, so that the producer's and the other
  // consumers' barrier counts stand.
  auto keepTurns = [&](Value ringBase, Value from, Value to) {
    auto steps =
        scf::ForOp::create(b, loc, toIndex(from), toIndex(to), toIndex(i32(1)));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(steps.getBody());
    Value ringTile = add(ringBase, fromIndex(steps.getInductionVar()));
    waitBarrier(kFullBarrier(slotOf(ringTile)), parityOf(ringTile));
    if (pingPong) {
      waitTurn();
      passTurn();
    }
    releaseK(ringTile);
    waitBarrier(vFullBarrier(slotOf(ringTile)), parityOf(ringTile));
    releaseV(ringTile);
  };

  // Each iteration issues S(t) = Q K^T(t) and, in the same GEMM turn,
  // O += P(t-1) V(t-1); then the softmax of S(t) makes P(t). P V lags one
  // tile so that both GEMMs of a turn are in flight together. `pv` says
  // whether the step issues that P V: always (FA3's intra-warpgroup
  // overlap, step 0 peeled off), never (that peeled step), or from step 1
  // on (decided at run time).
  enum class PV { Always, Never, AfterFirst };
  // The mask on S (keys from `firstKey`, rows from `tileRow`) and the online
  // softmax continuing from (rowMax, rowSum).
  auto maskedSoftmax = [&](Value scores, Value firstKey, Value tileRow,
                           Value rowMax, Value rowSum) {
    scores = MaskOp::create(b, loc, scoresType, scores, firstKey, tileRow,
                            args.seqQ, args.seqKV, plan.mask,
                            b.getI64IntegerAttr(plan.rowGroup));
    return SoftmaxOp::create(b, loc, scoresType, rowsType(), rowsType(),
                             rowsType(), scores, rowMax, rowSum, args.scaleLog2,
                             lazyRescale ? b.getF64FloatAttr(kRescaleThreshold)
                                         : FloatAttr(),
                             polyExp2Period, softmaxReductionChains);
  };
  auto emitStep = [&](Value step, ValueRange carried, PV pv,
                      const StepWork &work) {
    Value out = carried[0], rowMax = carried[1], rowSum = carried[2],
          previousP = carried[3];
    Value tile = workTileOf(step);
    Value ringTile = add(work.ringBase, tile);
    Value slot = slotOf(ringTile);
    Value firstKey = mul(add(work.firstTile, tile), i32(plan.bn));
    Value hasPrevious = cmp(arith::CmpIPredicate::sgt, step, i32(0));
    Value previous = sub(ringTile, i32(tileStride));

    waitBarrier(kFullBarrier(slot), parityOf(ringTile));
    if (pingPong)
      waitTurn();
    Value scores = MmaOp::create(b, loc, scoresType, qTile, kTileIn(slot),
                                 splat(scoresType, 0.0));
    if (pv == PV::Always) {
      out = issuePV(out, previousP, previous);
    } else if (pv == PV::AfterFirst) {
      auto ifPV = scf::IfOp::create(b, loc, TypeRange{outType}, hasPrevious,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard pvGuard(b);
      b.setInsertionPointToStart(ifPV.thenBlock());
      scf::YieldOp::create(b, loc, issuePV(out, previousP, previous));
      b.setInsertionPointToStart(ifPV.elseBlock());
      scf::YieldOp::create(b, loc, out);
      out = ifPV.getResult(0);
    }
    if (pingPong)
      passTurn();
    // With the overlap, wait for S only: groups complete in order, so at
    // most the P V still runs, under the softmax.
    MmaWaitOp::create(b, loc, /*pending=*/pv == PV::Always ? 1 : 0);
    // S is in registers: this tile's K slot can refill now; the previous
    // tile's V slot once its P V is done.
    releaseK(ringTile);
    if (pv == PV::AfterFirst) {
      auto ifRelease = scf::IfOp::create(b, loc, hasPrevious, false);
      OpBuilder::InsertionGuard releaseGuard(b);
      b.setInsertionPointToStart(ifRelease.thenBlock());
      releaseV(previous);
    }

    auto softmax =
        maskedSoftmax(scores, firstKey, work.tileRow, rowMax, rowSum);
    if (pv == PV::Always) {
      // O is read only once the P V that ran under the softmax is done.
      MmaWaitOp::create(b, loc);
      releaseV(previous);
    }
    out = ScaleRowsOp::create(b, loc, outType, out, softmax.getCorrection(),
                              lazyRescale);
    // P as an MMA operand, rounded here, before the next turn's MMAs.
    Value probs = TruncFOp::create(b, loc, probsType, softmax.getProbs());
    return SmallVector<Value>{out, softmax.getNewMax(), softmax.getNewSum(),
                              probs};
  };
  // Step 0 of a work tile with any tiles; `initial` otherwise. With the
  // overlap step 0 has no P V to overlap and is peeled off the loop, so
  // that the loop's P V and its wait never depend on a run-time branch
  // (ptxas serialises the wgmma pipeline around the branch's accumulator
  // copies, C7514).
  auto emitFirstStep = [&](Value myTiles, ValueRange initial,
                           const StepWork &work) -> SmallVector<Value> {
    auto ifFirst = scf::IfOp::create(
        b, loc, initial.getTypes(),
        cmp(arith::CmpIPredicate::sgt, myTiles, i32(0)), true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    scf::YieldOp::create(b, loc, emitStep(i32(0), initial, PV::Never, work));
    b.setInsertionPointToStart(ifFirst.elseBlock());
    scf::YieldOp::create(b, loc, initial);
    return SmallVector<Value>(ifFirst.getResults());
  };
  auto emitSteps = [&](Value firstStep, Value myTiles, ValueRange initial,
                       const StepWork &work) -> scf::ForOp {
    auto loop = scf::ForOp::create(b, loc, toIndex(firstStep), toIndex(myTiles),
                                   toIndex(i32(1)), initial);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(
        b, loc,
        emitStep(fromIndex(loop.getInductionVar()), loop.getRegionIterArgs(),
                 intraWgOverlap ? PV::Always : PV::AfterFirst, work));
    return loop;
  };
  // The work tile's last P V, outside any GEMM turn. With narrowLastPV, its
  // tile may end past the last key this consumer's rows see (Skv not a
  // multiple of BN, or a causal diagonal mid-tile): P is 0 there, so only
  // the MMA_K steps up to that key are issued, one variant per step count
  // (each waits for its MMA, so no accumulator is in flight across the
  // switch's merge). Off by default: measured no faster (RESULTS.md).
  auto emitNarrowedPV = [&](Value out, Value probs, Value last, Value lastStep,
                            const StepWork &work) -> Value {
    Value lastKey = mul(add(work.firstTile, lastStep), i32(plan.bn));
    Value keyEnd = WorkTiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn)
                       .keyEnd(work.tileRow, plan.queryRowsPerTile());
    int64_t fullSteps = plan.bn / kMmaK;
    Value steps = divu(add(maxs(sub(keyEnd, lastKey), i32(0)), i32(kMmaK - 1)),
                       i32(kMmaK));
    Value vTile = waitVTile(last);
    SmallVector<int64_t> narrower =
        llvm::to_vector(llvm::seq<int64_t>(0, fullSteps));
    auto bySteps = scf::IndexSwitchOp::create(
        b, loc, TypeRange{outType}, toIndex(steps), narrower, narrower.size());
    auto emitCase = [&](Region &region, int64_t caseSteps) {
      b.setInsertionPointToStart(&region.emplaceBlock());
      Value caseOut = out;
      if (caseSteps > 0) {
        auto mma = MmaOp::create(b, loc, outType, probs, vTile, out);
        if (caseSteps < fullSteps)
          mma.setKExtentAttr(b.getI64IntegerAttr(caseSteps * kMmaK));
        caseOut = mma;
        MmaWaitOp::create(b, loc);
      }
      scf::YieldOp::create(b, loc, caseOut);
    };
    for (auto [region, caseSteps] :
         llvm::zip(bySteps.getCaseRegions(), narrower))
      emitCase(region, caseSteps);
    emitCase(bySteps.getDefaultRegion(), fullSteps);
    b.setInsertionPointAfter(bySteps);
    return bySteps.getResult(0);
  };
  auto emitLastPV = [&](Value out, Value probs, Value myTiles,
                        const StepWork &work) -> Value {
    auto ifLast = scf::IfOp::create(
        b, loc, TypeRange{outType},
        cmp(arith::CmpIPredicate::sgt, myTiles, i32(0)), true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    Value lastStep = workTileOf(sub(myTiles, i32(1)));
    Value last = add(work.ringBase, lastStep);
    Value finalOut;
    if (narrowLastPV) {
      finalOut = emitNarrowedPV(out, probs, last, lastStep, work);
    } else {
      finalOut = issuePV(out, probs, last);
      MmaWaitOp::create(b, loc);
    }
    releaseV(last);
    scf::YieldOp::create(b, loc, finalOut);
    b.setInsertionPointToStart(ifLast.elseBlock());
    scf::YieldOp::create(b, loc, out);
    return ifLast.getResult(0);
  };
  auto writeO = [&](Value out, Value rowMax, Value rowSum, Value batch,
                    Value head, Value tileRow) {
    if (plan.workspace)
      writeWorkspacePartial(consumer, out, rowMax, rowSum, tileRow);
    else if (plan.clusterSplit())
      stagePartial(consumer, out, rowMax, rowSum);
    else if (storeOByTma)
      storeO(consumer, out, rowMax, rowSum, batch, head, tileRow);
    else if (storeOByBoxes)
      storeOByBox(consumer, out, rowMax, rowSum, batch, head, tileRow);
    else if (doubleQ)
      storeOOverQ(consumer, out, rowMax, rowSum, batch, head, tileRow, qBuffer);
    else
      EpilogueOp::create(b, loc, out, rowMax, rowSum, args.outPtr, batch,
                         tileRow, head, args.outStride, args.seqQ, args.lsePtr,
                         args.lseStride, b.getI64IntegerAttr(plan.ovDepth),
                         TypeAttr::get(plan.elementType),
                         b.getI64IntegerAttr(plan.rowGroup));
  };
  // O = 0, row max = -inf, row sum = 0, P = 0.
  auto initialState = [&] {
    Value noProbs = TruncFOp::create(b, loc, probsType, splat(scoresType, 0.0));
    return SmallVector<Value>{splat(outType, 0.0), splat(rowsType(), -INFINITY),
                              splat(rowsType(), 0.0), noProbs};
  };

  if (fusedWorkTiles) {
    // Persistent prefill, each work tile running into the next: the last
    // GEMM turn of a work tile issues its last P V and then the next tile's
    // first Q K^T, and the consumer writes this tile's O while that Q K^T
    // runs, then starts the next tile's softmax. The tensor cores get the
    // next tile's work before this one's epilogue instead of after it.
    // Carried from tile to tile: the softmax state, the ring position of
    // the tile's first K/V tile, and whether its step 0 already ran (in the
    // previous tile's last turn). Where this tile or the next has no keys,
    // or at the last work tile, the tile drains as the unfused kernel does.
    // Off by default: 0-4% slower on the H200 (bench/RESULTS.md, session
    // 8). The ping-pong hides one turn's worth of the other consumer's
    // softmax per GEMM turn; merging two turns leaves this tile's epilogue
    // and the next tile's first softmax in one gap, longer than the other
    // consumer's turn.
    SmallVector<Value> initial = initialState();
    Value myWork = workTileCount();
    SmallVector<Value> carried = initial;
    carried.push_back(i32(0));
    carried.push_back(arith::ConstantOp::create(b, loc, b.getBoolAttr(false)));
    auto workLoop = scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(myWork),
                                       toIndex(i32(1)), carried);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(workLoop.getBody());
    Value workDone = fromIndex(workLoop.getInductionVar());
    ValueRange state = workLoop.getRegionIterArgs();
    ValueRange softmaxState = state.take_front(initial.size());
    Value started = state[initial.size() + 1];
    decodeWork(add(firstWork, mul(workDone, workStride)));
    StepWork current{state[initial.size()], firstTile, tileRowOf(blockRow)};
    Value myTiles = numTiles, currentBatch = batch, currentHead = head;
    auto ifStarted = scf::IfOp::create(b, loc, softmaxState.getTypes(), started,
                                       /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard startGuard(b);
      b.setInsertionPointToStart(ifStarted.thenBlock());
      scf::YieldOp::create(b, loc, softmaxState);
      b.setInsertionPointToStart(ifStarted.elseBlock());
      waitQ(workDone);
      scf::YieldOp::create(b, loc, emitFirstStep(myTiles, initial, current));
    }
    scf::ForOp steps =
        emitSteps(i32(1), myTiles, ifStarted.getResults(), current);
    MBarrierArriveOp::create(b, loc, qEmptyBarrier(qTileIndex));

    Value nextDone = add(workDone, i32(1));
    decodeWork(add(firstWork, mul(nextDone, workStride)));
    StepWork next{add(current.ringBase, myTiles), firstTile,
                  tileRowOf(blockRow)};
    Value hasNext = cmp(arith::CmpIPredicate::slt, nextDone, myWork);
    Value hereKeys = cmp(arith::CmpIPredicate::sgt, myTiles, i32(0));
    Value nextKeys = cmp(arith::CmpIPredicate::sgt, numTiles, i32(0));
    Value fuse = arith::AndIOp::create(
        b, loc, hasNext, arith::AndIOp::create(b, loc, hereKeys, nextKeys));
    auto ifFuse = scf::IfOp::create(b, loc, softmaxState.getTypes(), fuse,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard fuseGuard(b);
      b.setInsertionPointToStart(ifFuse.thenBlock());
      Value out = steps.getResult(0), probs = steps.getResult(3);
      Value last = add(current.ringBase, sub(myTiles, i32(1)));
      Value ringTile = next.ringBase, slot = slotOf(ringTile);
      waitBarrier(kFullBarrier(slot), parityOf(ringTile));
      if (pingPong)
        waitTurn();
      out = issuePV(out, probs, last);
      waitQ(nextDone);
      Value scores = MmaOp::create(b, loc, scoresType, qTile, kTileIn(slot),
                                   splat(scoresType, 0.0));
      if (pingPong)
        passTurn();
      // Groups complete in order: the P V first, then O leaves while the
      // next tile's Q K^T runs.
      MmaWaitOp::create(b, loc, /*pending=*/1);
      releaseV(last);
      writeO(out, steps.getResult(1), steps.getResult(2), currentBatch,
             currentHead, current.tileRow);
      MmaWaitOp::create(b, loc);
      releaseK(ringTile);
      auto softmax = maskedSoftmax(scores, mul(next.firstTile, i32(plan.bn)),
                                   next.tileRow, initial[1], initial[2]);
      scf::YieldOp::create(
          b, loc,
          ValueRange{initial[0], softmax.getNewMax(), softmax.getNewSum(),
                     TruncFOp::create(b, loc, probsType, softmax.getProbs())});

      b.setInsertionPointToStart(ifFuse.elseBlock());
      out =
          emitLastPV(steps.getResult(0), steps.getResult(3), myTiles, current);
      writeO(out, steps.getResult(1), steps.getResult(2), currentBatch,
             currentHead, current.tileRow);
      scf::YieldOp::create(b, loc, initial);
    }
    SmallVector<Value> yielded(ifFuse.getResults());
    yielded.push_back(next.ringBase);
    yielded.push_back(fuse);
    scf::YieldOp::create(b, loc, yielded);
  } else {
    Value roleStart = trace ? traceStamp() : Value();
    WorkScope work = beginWork();
    if (doubleQ) {
      qBuffer = qBufferOf(work.workDone);
      qTile = qTileIn(qTileIndex, qBuffer);
    }
    StepWork current{work.kvTiles, firstTile, tileRowOf(blockRow)};
    Value myTiles = myTilesOf(numTiles);
    // A consumer whose rows all lie past Sq (the last row block of a head
    // where BM does not divide Sq: 64 or 128 of a 192-row tile at
    // Sq = 4096 or 8192) only keeps the barriers' counts: it takes its
    // turns and releases each K/V tile and its Q without a GEMM, so the
    // others have the tensor cores to themselves.
    scf::IfOp ifIdle;
    if (idleConsumersSkip()) {
      ifIdle = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::sge, current.tileRow, args.seqQ),
          /*withElseRegion=*/true);
      b.setInsertionPointToStart(ifIdle.thenBlock());
      waitQ(work.workDone);
      keepTurns(current.ringBase, i32(0), myTiles);
      MBarrierArriveOp::create(b, loc, qEmptyBarrier(qTileIndex));
      b.setInsertionPointToStart(ifIdle.elseBlock());
    }
    // The trace's phases (writeTrace): work tile start, Q in, step 0 done,
    // loop done, last P V done, O written.
    SmallVector<Value> stamps;
    auto stamp = [&] {
      if (trace)
        stamps.push_back(traceStamp());
    };
    stamp();
    waitQ(work.workDone);
    stamp();
    // Where the mask ends keys at a diagonal, this consumer's rows may end
    // a K/V tile (or more) before the work tile's last rows do: at BN = 80
    // the first 64 rows of most 128-row causal blocks see one tile fewer.
    // It runs GEMMs only on its own tiles and keeps its turns for the rest.
    Value ownTiles =
        trimsTrailingTiles()
            ? WorkTiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn)
                  .tilesUpToKeyEnd(firstTile, myTiles, current.tileRow,
                                   plan.queryRowsPerTile())
            : myTiles;
    SmallVector<Value> initial = initialState();
    Value firstLoopStep = i32(0);
    if (intraWgOverlap) {
      initial = emitFirstStep(ownTiles, initial, current);
      firstLoopStep = i32(1);
    }
    // With doubleQ the previous work tile's O left through its Q buffer:
    // once its store has read it, the storing thread releases that buffer
    // for the next tile's Q, which the producer loads during this one. The
    // store may still be reading here (0.2 us at d = 128, which the early
    // Q pays back); released after the K/V loop, or between two loops
    // split after its first step, the buffer cost 2.4-9% (session 16).
    if (doubleQ) {
      auto ifReleases = scf::IfOp::create(
          b, loc,
          arith::AndIOp::create(
              b, loc, cmp(arith::CmpIPredicate::sgt, work.workDone, i32(0)),
              isFirstThread()),
          false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifReleases.thenBlock());
      TmaStoreWaitOp::create(b, loc);
      MBarrierArriveOp::create(
          b, loc,
          qEmptyBarrier(qTileIndex, qBufferOf(sub(work.workDone, i32(1)))));
    }
    stamp();
    scf::ForOp loop = emitSteps(firstLoopStep, ownTiles, initial, current);
    stamp();
    // Q is dead once the loop has waited for its last QK^T: the producer may
    // load the next work tile's Q under this tile's last P V and epilogue.
    // (With doubleQ it is already loading; this tile's O is staged here.)
    if (!doubleQ)
      MBarrierArriveOp::create(b, loc, qEmptyBarrier(qTileIndex));
    Value out =
        emitLastPV(loop.getResult(0), loop.getResult(3), ownTiles, current);
    // After the last P V, which releases this consumer's last V slot: with
    // two stages the producer refills it only then, and a trailing turn may
    // wait for that tile. Before the epilogue, so the other consumers' turns
    // do not wait for it.
    if (trimsTrailingTiles())
      keepTurns(current.ringBase, ownTiles, myTiles);
    stamp();
    writeO(out, loop.getResult(1), loop.getResult(2), batch, head,
           current.tileRow);
    stamp();
    if (trace) {
      stamps.push_back(roleStart);
      writeTrace(consumer, stamps, current.tileRow);
    }
    if (ifIdle)
      b.setInsertionPointAfter(ifIdle);
    endWork(work);
    // The last box's store must have read shared memory before the CTA
    // exits.
    if (storeOByBoxes || doubleQ) {
      auto ifFirst = firstThreadOf();
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      TmaStoreWaitOp::create(b, loc);
    }
  }
  if (pingPong) {
    // Consumer 0 takes the turn that consumer 1's first arrive granted, so
    // every named-barrier phase completes before exit.
    auto ifFirst = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(0)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    waitTurn();
  }
}

/// The consumer's warpgroup meets (named barrier 4 + consumer), then a
/// branch for its first thread: the one that issues what the warpgroup
/// staged or stamped.
scf::IfOp FA3KernelBuilder::meetThenFirstThread(Value consumer) {
  meetWarpgroup(consumer);
  return firstThreadOf();
}

/// The consumer's warpgroup meets at named barrier 4 + consumer.
void FA3KernelBuilder::meetWarpgroup(Value consumer) {
  NVVM::BarrierOp::create(
      b, loc, Type(), add(i32(kEpilogueBarrierBase), consumer),
      i32(kWarpgroupThreads), NVVM::BarrierReductionAttr(), Value());
}

/// Consumer c stages O / sum at `base + c * stride` (the op takes a constant
/// offset: one branch per consumer): the whole tile, or only `box`.
void FA3KernelBuilder::stageByConsumer(Value consumer, Value out, Value rowSum,
                                       int64_t base, int64_t stride,
                                       std::optional<int64_t> box) {
  for (int64_t c = 0; c < plan.numConsumers; ++c) {
    auto ifConsumer = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(c)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifConsumer.thenBlock());
    EpilogueStageOp::create(b, loc, out, rowSum,
                            b.getI64IntegerAttr(base + c * stride),
                            /*base=*/Value(), TypeAttr::get(plan.elementType),
                            box ? b.getI64IntegerAttr(*box) : IntegerAttr());
  }
}

/// A branch for the first thread of the caller's warpgroup.
scf::IfOp FA3KernelBuilder::firstThreadOf() {
  return scf::IfOp::create(b, loc, isFirstThread(), false);
}

/// Whether this is the first thread of its warpgroup.
Value FA3KernelBuilder::isFirstThread() {
  Value thread =
      remu(indexTo(b.getI32Type(),
                   gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x)),
           i32(kWarpgroupThreads));
  return cmp(arith::CmpIPredicate::eq, thread, i32(0));
}

/// With `trace`, a stamp of the looped twin's epilogue (writeTrace writes
/// them after the phase stamps): after the LSE, then with two Q buffers
/// after staging O and after the meeting and the stores' issue; with a
/// box of staging, per box of O after the wait for its slot and the
/// meeting, after staging, and after the meeting and the store's issue.
void FA3KernelBuilder::epilogueStamp() {
  if (trace)
    epilogueStamps.push_back(traceStamp());
}

/// The `trace` option's clock: globaltimer (ns), its low 32 bits.
Value FA3KernelBuilder::traceStamp() {
  return arith::TruncIOp::create(
      b, loc, b.getI32Type(),
      NVVM::GlobalTimerOp::create(b, loc, b.getI64Type()));
}

/// The `trace` option: once the consumer's warpgroup has written its O and
/// LSE, its first thread writes the work tile's phase times, then the
/// role's start time, its SM and the number of epilogue stamps, then the
/// looped twin's epilogue stamps (bench/trace_phases.py reads them), as
/// 32-bit integers over the LSE of the consumer's first rows. Rows past Sq
/// are skipped.
void FA3KernelBuilder::writeTrace(Value consumer, ArrayRef<Value> stamps,
                                  Value tileRow) {
  auto ifFirst = meetThenFirstThread(consumer);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  SmallVector<Value> words(stamps);
  words.push_back(NVVM::SmIdOp::create(b, loc, b.getI32Type()));
  // How many epilogue stamps follow: the reader tells the layouts apart.
  words.push_back(i32(epilogueStamps.size()));
  words.append(epilogueStamps);
  epilogueStamps.clear();
  auto i64 = [&](Value v) {
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  Value rowBase = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, i64(batch), args.lseStride[0]),
      arith::MulIOp::create(b, loc, i64(head), args.lseStride[1]));
  for (auto [index, word] : llvm::enumerate(words)) {
    Value row = add(tileRow, i32(index));
    auto ifRow = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::slt, row, args.seqQ), false);
    OpBuilder::InsertionGuard rowGuard(b);
    b.setInsertionPointToStart(ifRow.thenBlock());
    Value element = arith::AddIOp::create(b, loc, rowBase, i64(row));
    Value address =
        LLVM::GEPOp::create(b, loc, args.lsePtr.getType(), b.getI32Type(),
                            args.lsePtr, ValueRange{element});
    LLVM::StoreOp::create(b, loc, word, address);
  }
}

/// O through shared memory: the consumer stages its normalised tile over its
/// own Q tile (128B-swizzled 64-column boxes), writes LSE directly, meets
/// its warpgroup (the staging is fenced for the async proxy), and one thread
/// stores the boxes by TMA, waiting for them to read shared memory before
/// the CTA may exit. Rows past Sq and columns past Dv are clipped by TMA.
void FA3KernelBuilder::storeO(Value consumer, Value out, Value rowMax,
                              Value rowSum, Value batch, Value head,
                              Value tileRow) {
  Value staging = add(i32(plan.oStagingOffset),
                      mul(consumer, i32(plan.oStagedTileBytes())));
  stageByConsumer(consumer, out, rowSum, plan.oStagingOffset,
                  plan.oStagedTileBytes(), /*box=*/std::nullopt);
  storeLse(rowMax, rowSum, batch, head, tileRow);
  auto ifFirst = meetThenFirstThread(consumer);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  storeOBoxes(staging, batch, head, tileRow);
  TmaStoreWaitOp::create(b, loc);
}

/// The LSE of the consumer's rows, where the op has one.
void FA3KernelBuilder::storeLse(Value rowMax, Value rowSum, Value batch,
                                Value head, Value tileRow) {
  if (plan.hasLse)
    LseStoreOp::create(b, loc, rowMax, rowSum, args.lsePtr, batch, tileRow,
                       head, args.lseStride, args.seqQ);
}

/// TMA stores of every 64-column box of a consumer's O tile staged at
/// `staging` (boxes kConsumerBoxBytes apart), by the calling thread.
void FA3KernelBuilder::storeOBoxes(Value staging, Value batch, Value head,
                                   Value tileRow) {
  for (int64_t box = 0; box < plan.ovBoxes; ++box)
    storeOBox(box, add(staging, i32(box * kConsumerBoxBytes)), batch, head,
              tileRow);
}

/// The TMA store of 64-column box `box` of a consumer's O tile, staged at
/// `source`.
void FA3KernelBuilder::storeOBox(int64_t box, Value source, Value batch,
                                 Value head, Value tileRow) {
  TmaStoreOp::create(b, loc, args.oMap,
                     ValueRange{i32(box * kBoxColumns), head, tileRow, batch},
                     source, l2EvictionFor(/*reused=*/false));
}

/// O of a looped kernel, whose Q region holds the next work tile's Q: one
/// 64-column box at a time through the consumer's own box of shared memory
/// past the plan (`loopStagingOffset`). Before staging a box, the thread
/// that stores waits for its last store to have read the box (the previous
/// box, or the previous work tile's last one), and the warpgroup meets; the
/// last box is left in flight, waited for by the next work tile's first box
/// or by the CTA's exit (buildConsumer).
void FA3KernelBuilder::storeOByBox(Value consumer, Value out, Value rowMax,
                                   Value rowSum, Value batch, Value head,
                                   Value tileRow) {
  storeLse(rowMax, rowSum, batch, head, tileRow);
  epilogueStamp();
  Value staging =
      add(i32(plan.loopStagingOffset), mul(consumer, i32(kConsumerBoxBytes)));
  for (int64_t box = 0; box < plan.ovBoxes; ++box) {
    {
      auto ifFirst = firstThreadOf();
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      TmaStoreWaitOp::create(b, loc);
    }
    meetWarpgroup(consumer);
    epilogueStamp();
    stageByConsumer(consumer, out, rowSum, plan.loopStagingOffset,
                    kConsumerBoxBytes, box);
    epilogueStamp();
    auto ifFirst = meetThenFirstThread(consumer);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      storeOBox(box, staging, batch, head, tileRow);
    }
    // The first thread's stamp follows its store's issue; the others' only
    // the meeting.
    epilogueStamp();
  }
}

/// O of a looped kernel with two Q buffers: the consumer stages its tile
/// over its own Q tile of this work tile, dead after its last Q K^T (the
/// producer loads the next tile's Q into the other buffer), meets its
/// warpgroup, and its first thread stores every box by TMA. The store is
/// left in flight: that thread waits for it to have read the tile, then
/// releases the buffer, after the next work tile's step 0 or before the
/// CTA exits (buildConsumer). The LSE goes first, as in storeOByBox.
void FA3KernelBuilder::storeOOverQ(Value consumer, Value out, Value rowMax,
                                   Value rowSum, Value batch, Value head,
                                   Value tileRow, Value buffer) {
  storeLse(rowMax, rowSum, batch, head, tileRow);
  epilogueStamp();
  Value staging = qTileOffset(consumer, buffer);
  EpilogueStageOp::create(b, loc, out, rowSum, b.getI64IntegerAttr(0), staging,
                          TypeAttr::get(plan.elementType), IntegerAttr());
  epilogueStamp();
  auto ifFirst = meetThenFirstThread(consumer);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    storeOBoxes(staging, batch, head, tileRow);
  }
  epilogueStamp();
}

/// Workspace split-K: the consumer's partial, normalised, and its LSE go to
/// its own slice of the workspace (partial `partition * partials per CTA +
/// consumer`), written by the epilogue in f32.
void FA3KernelBuilder::writeWorkspacePartial(Value consumer, Value out,
                                             Value rowMax, Value rowSum,
                                             Value tileRow) {
  Value index = mul(partition, i32(plan.partialsPerCta()));
  if (plan.consumersSplitKeys)
    index = add(index, consumer);
  Value partials = mul(workspacePartitions(b, loc), i32(plan.partialsPerCta()));
  WorkspacePartial partial =
      workspacePartial(b, loc, args.workspace, index, partials, args.batchSize,
                       args.seqQ, plan.numQHeads, plan.ovDepth);
  EpilogueOp::create(
      b, loc, out, rowMax, rowSum, partial.outPtr, batch, tileRow, head,
      partial.outStride, args.seqQ, partial.lsePtr, partial.lseStride,
      b.getI64IntegerAttr(plan.ovDepth), TypeAttr::get(b.getF32Type()),
      b.getI64IntegerAttr(plan.rowGroup));
}

/// Split-K: the consumer's partial goes to its own staging slot.
void FA3KernelBuilder::stagePartial(Value consumer, Value out, Value rowMax,
                                    Value rowSum) {
  // The staging slots alias Q and the K/V rings: a consumer done with its
  // tiles waits for the other to finish reading them.
  if (plan.consumersSplitKeys)
    NVVM::BarrierOp::create(b, loc, Type(), i32(kConsumersDoneBarrier),
                            i32(2 * kWarpgroupThreads),
                            NVVM::BarrierReductionAttr(), Value());
  auto stageAt = [&](int64_t slot) {
    SplitKStageOp::create(
        b, loc, out, rowMax, rowSum,
        b.getI64IntegerAttr(plan.stagingOffset +
                            slot * plan.stagedPartialBytes()));
  };
  if (!plan.consumersSplitKeys)
    return stageAt(0);
  auto ifFirst = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(0)), true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  stageAt(0);
  b.setInsertionPointToStart(ifFirst.elseBlock());
  stageAt(1);
}

void FA3KernelBuilder::build(gpu::GPUFuncOp func, KernelABI &abi) {
  b.setInsertionPointToStart(&func.getBody().front());
  args = AttentionArgs::read(func, plan.hasLse, plan.workspace);

  // CTA i takes work tiles i, i + grid, i + 2 * grid, ... (persistent), or
  // work tile i alone.
  Value rowsPerItem = i32(plan.rowsPerWorkItem());
  Value rowItems = divu(add(args.seqQ, sub(rowsPerItem, i32(1))), rowsPerItem);
  numWork = mul(rowItems, mul(i32(plan.workHeads()), args.batchSize));
  firstWork = fromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  workStride = fromIndex(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
  Value tid = fromIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));

  // Barriers: per Q tile Q full (one arrival with its bytes) and Q empty
  // (every thread that reads the tile), K/V full (one arrival with its bytes),
  // slot empty (every consumer thread, after its P V is done).
  auto ifInit =
      scf::IfOp::create(b, loc, cmp(arith::CmpIPredicate::eq, tid, i32(0)),
                        /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    int64_t consumerThreads = plan.numConsumers * kWarpgroupThreads;
    // A K/V tile is read by every consumer, or by the one whose turn it is.
    int64_t tileReaders =
        plan.consumersSplitKeys ? kWarpgroupThreads : consumerThreads;
    auto init = [&](Value barrier, int64_t count) {
      MBarrierInitOp::create(b, loc, barrier, b.getI64IntegerAttr(count));
    };
    // With doubleQ a Q tile is released by its consumer's storing thread,
    // once the TMA store of the O staged over it has read it.
    int64_t qReleases = doubleQ ? 1 : consumerThreads / plan.qTiles();
    for (int64_t buffer = 0; buffer < qBuffers(); ++buffer) {
      Value bufferIndex = doubleQ ? i32(buffer) : Value();
      for (int64_t qTile = 0; qTile < plan.qTiles(); ++qTile) {
        init(qFullBarrier(i32(qTile), bufferIndex), 1);
        init(qEmptyBarrier(i32(qTile), bufferIndex), qReleases);
      }
    }
    for (int64_t i = 0; i < 2 * plan.kvStages; ++i)
      init(barrier(kvBarrierBase() + i), 1);
    for (int64_t i = 0; i < plan.kvStages; ++i)
      init(kEmptyBarrier(i32(i)), tileReaders);
    for (int64_t i = 0; i < plan.kvStages; ++i)
      init(vEmptyBarrier(i32(i)), tileReaders);
    FenceMBarrierInitOp::create(b, loc);
  }
  gpu::BarrierOp::create(b, loc);
  joinPriorGrids(b, loc, abi);

  WarpgroupRegisters registers = sm90WarpgroupRegisters(plan.numConsumers);
  auto roles = WarpSpecializeOp::create(
      b, loc, b.getDenseI64ArrayAttr({1, plan.numConsumers}),
      b.getDenseI64ArrayAttr({registers.producer, registers.consumer}),
      /*rolesCount=*/2);
  Type i32Type = b.getI32Type();
  {
    OpBuilder::InsertionGuard guard(b);
    Block *producer =
        b.createBlock(&roles.getRoles()[0], {}, {i32Type, i32Type}, {loc, loc});
    Value thread = producer->getArgument(1);
    auto ifLeader = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, thread, i32(0)), false);
    {
      OpBuilder::InsertionGuard leaderGuard(b);
      b.setInsertionPointToStart(ifLeader.thenBlock());
      buildProducer();
    }
    // Every thread of the cluster meets twice in the combine (publish, then
    // read); the producer's threads only arrive. They stay in their role:
    // code after the roles join would be held to the producer's 24
    // registers.
    if (plan.clusterSplit()) {
      ClusterSyncOp::create(b, loc);
      ClusterSyncOp::create(b, loc);
    }
  }
  {
    OpBuilder::InsertionGuard guard(b);
    Block *consumer =
        b.createBlock(&roles.getRoles()[1], {}, {i32Type, i32Type}, {loc, loc});
    buildConsumer(consumer->getArgument(0));
    if (plan.clusterSplit())
      buildCombine(consumer->getArgument(0));
  }
  gpu::ReturnOp::create(b, loc);
}

/// The cluster reduce-scatter (the seed's fa4_splitk_reduce_scatter_write),
/// run by the consumer warpgroups after they staged their partials: every
/// thread of every CTA meets once all partials are staged, consumer 0
/// combines and stores this CTA's band, and a second meeting keeps each
/// CTA's shared memory alive until its peers have read it.
void FA3KernelBuilder::buildCombine(Value consumer) {
  ClusterSyncOp::create(b, loc);
  scf::IfOp ifFirst;
  if (plan.consumersSplitKeys) {
    ifFirst = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(0)), false);
    b.setInsertionPointToStart(ifFirst.thenBlock());
  }
  SplitKCombineOp::create(
      b, loc, partition, args.outPtr, batch, blockRow, head, args.outStride,
      args.seqQ, args.lsePtr, args.lseStride,
      b.getI64IntegerAttr(plan.stagingOffset),
      b.getI64IntegerAttr(plan.partitions), b.getI64IntegerAttr(plan.band),
      b.getI64IntegerAttr(kRowsPerConsumer), b.getI64IntegerAttr(plan.paddedOv),
      b.getI64IntegerAttr(plan.ovDepth), TypeAttr::get(plan.elementType),
      b.getI64IntegerAttr(plan.rowGroup),
      b.getI64IntegerAttr(plan.partialsPerCta()));
  if (ifFirst)
    b.setInsertionPointAfter(ifFirst);
  ClusterSyncOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// The kernel, its looped twin and its combine
//===----------------------------------------------------------------------===//

/// The Skv up to which prefill runs on persistent CTAs; 0: never.
/// `twinPlan`: the looped twin's, its own or the kernel's.
static int64_t persistentUpToSeqKV(attn::AttentionOp op, const HopperPlan &plan,
                                   const HopperPlan &twinPlan,
                                   const HopperKernelOptions &options) {
  if (plan.decode)
    return options.persistentDecode && plan.decodeCanPersist()
               ? kAlwaysPersistent
               : 0;
  if (options.persistent)
    return kAlwaysPersistent;
  int64_t maxSeqKV = options.persistentMaxSeqKV;
  if (maxSeqKV == kPlannersPersistentBound) {
    // Under a causal mask at Dv > 64, a twin that writes O from
    // registers loses to the plain kernel's TMA store (session 7).
    bool causalPlainWins =
        FA3KernelBuilder::storesOByTma(plan, /*persistent=*/false,
                                       options.schedule.tmaStoreO) &&
        twinPlan.loopStagingOffset < 0 &&
        plan.mask.getKind() == attn::MaskKind::Causal && plan.paddedOv > 64;
    // The planner's rule, which also gave the plan room for the twin's
    // staging (attn-plan-smem).
    AttnProblem problem = op.getProblem();
    SplitKPlan splitK; // No #attn.splitk: no split.
    if (attn::SplitKAttr attr = op.getSplitkAttr())
      splitK = attr.toPlan();
    attn::ConfigAttr twinConfigAttr =
        op.getTwinConfigAttr() ? op.getTwinConfigAttr() : op.getConfigAttr();
    AttnConfig twinConfig = twinConfigAttr.toPlan(problem);
    bool twin = plansLoopedTwin(problem, twinConfig, splitK);
    maxSeqKV = twin && !causalPlainWins
                   ? loopedTwinMaxSeqKV(twinConfig, problem.mask)
                   : 0;
  }
  // A static Skv decides now: one kernel, looped or not.
  int64_t seqKV = op.getKeyType().getDimSize(1);
  if (maxSeqKV == 0 || ShapedType::isDynamic(seqKV))
    return maxSeqKV;
  return seqKV > maxSeqKV ? 0 : kAlwaysPersistent;
}

/// The kernel's parameters in ABI order (docs/KernelABI.md), short form.
/// With fused GQA a Q box holds the query rows of the group's heads; a
/// kernel that stores O by TMA takes O's tensor map last.
static SmallVector<std::string> abiParams(const HopperPlan &plan,
                                          bool storeOByTma) {
  return attentionParams(tmaBox(plan.queryRowsPerTile(), plan.rowGroup),
                         tmaBox(plan.bn), tmaBox(plan.bn), plan.hasLse,
                         plan.workspace,
                         storeOByTma ? tmaBox(kRowsPerConsumer) : "");
}

LogicalResult fa4::buildHopperKernel(ModuleOp module, attn::AttentionOp op,
                                     const HopperKernelOptions &options) {
  const FA3Schedule &schedule = options.schedule;
  OpBuilder b(module.getContext());
  FailureOr<HopperPlan> plan =
      readPlan(op, op.getConfigAttr(), op.getSmemAttr(), op.getSwizzleAttr());
  if (failed(plan))
    return failure();
  // The looped twin's own plan (attn-select-config's twin_config), else
  // the kernel's.
  std::optional<HopperPlan> ownTwinPlan;
  if (attn::ConfigAttr twinConfig = op.getTwinConfigAttr()) {
    if (!op.getTwinSmemAttr() || !op.getTwinSwizzleAttr()) {
      op.emitOpError() << "has a twin_config without twin_smem and "
                          "twin_swizzle; run attn-plan-pipeline{chip=sm_90a}";
      return failure();
    }
    FailureOr<HopperPlan> twinPlan =
        readPlan(op, twinConfig, op.getTwinSmemAttr(), op.getTwinSwizzleAttr());
    if (failed(twinPlan))
      return failure();
    ownTwinPlan = *twinPlan;
  }
  auto [kernels, name] = createKernelModule(module, op, "fa4_fa3", "sm_90a");
  Location loc = op.getLoc();
  b.setInsertionPointToEnd(kernels.getBody());

  KernelABI abi;
  HopperPlan &twinPlan = ownTwinPlan ? *ownTwinPlan : *plan;
  int64_t maxSeqKV = persistentUpToSeqKV(op, *plan, twinPlan, options);
  // Persistent up to a bound: at 8192 keys and past them the looped twin
  // measured -2 to +2% against this kernel at d = 128 (bench/RESULTS.md,
  // sessions 8 and 14), so it runs only up to the bound and this kernel,
  // without the loop, above it. Persistent at every Skv: one kernel,
  // looped.
  bool twin = maxSeqKV > 0 && maxSeqKV != kAlwaysPersistent;
  // The looped kernel's box-by-box store of O (storeOByBoxes) takes its
  // own shared memory: only where a looped kernel is built from the plan.
  if (maxSeqKV == 0 || !schedule.tmaStoreO || schedule.fuseWorkTiles ||
      (twin && ownTwinPlan))
    plan->loopStagingOffset = -1;
  if (ownTwinPlan && (!twin || !schedule.tmaStoreO || schedule.fuseWorkTiles))
    ownTwinPlan->loopStagingOffset = -1;
  bool storeOByTma = FA3KernelBuilder::storesOByTma(
                         *plan, /*persistent=*/maxSeqKV == kAlwaysPersistent,
                         schedule.tmaStoreO) ||
                     plan->loopStagingOffset >= 0;
  abi.params = abiParams(*plan, storeOByTma);
  int64_t threads = plan->threads();
  auto func = createKernelFunc(b, loc, name, abi.params, threads);
  FA3KernelBuilder(b, loc, *plan, schedule,
                   /*persistent=*/maxSeqKV > 0 && !twin)
      .build(func, abi);
  std::string twinName;
  std::optional<KernelABI::Persistent::OwnLaunch> twinLaunch;
  bool twinStoresOByTma = false;
  if (twin) {
    twinName = name + "_persistent";
    KernelABI twinAbi = abi;
    twinStoresOByTma = twinPlan.loopStagingOffset >= 0;
    if (ownTwinPlan) {
      twinLaunch.emplace();
      twinLaunch->params = abiParams(twinPlan, twinStoresOByTma);
      twinLaunch->grid = twinPlan.workListGrid();
      twinLaunch->block[0] = twinPlan.threads();
      twinLaunch->dynamicSmemBytes = twinPlan.dynamicSmemBytes();
    }
    b.setInsertionPointToEnd(kernels.getBody());
    auto twinFunc = createKernelFunc(
        b, loc, twinName, twinLaunch ? twinLaunch->params : abi.params,
        twinLaunch ? twinLaunch->block[0] : threads);
    FA3KernelBuilder(b, loc, twinPlan, schedule, /*persistent=*/true)
        .build(twinFunc, twinAbi);
  }

  // Prefill: a one-dimensional grid of work tiles, which a persistent
  // kernel may run on fewer CTAs (one per SM: one fits, by its shared
  // memory), each looping over work tiles.
  if (maxSeqKV > 0)
    abi.persistent = KernelABI::Persistent{1, maxSeqKV, twinName, twinLaunch};
  // Persistent decode flattens the decode grid (heads fastest, the order
  // of WorkTiles::decodeItem) into the prefill kernel's kind of work list.
  if (plan->decode && maxSeqKV == 0)
    setDecodeGrid(abi, *plan, plan->rowGroup, plan->queryRowsPerTile());
  else
    abi.grid = plan->workListGrid();
  abi.block[0] = threads;
  abi.dynamicSmemBytes = plan->dynamicSmemBytes();
  setAttentionAlignment(abi, plan->hasLse, storeOByTma || twinStoresOByTma);
  if (plan->workspace) {
    b.setInsertionPointToEnd(kernels.getBody());
    buildWorkspaceCombine(b, loc, name, abi, *plan, plan->partialsPerCta(),
                          plan->numQHeads, plan->ovDepth, plan->elementType,
                          plan->hasLse);
  }
  setKernelABI(op, kernels, name, abi);
  return success();
}
