//===- HopperKernel.h - The sm_90a kernel builder --------------*- C++ -*-===//
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
// convert-fa4-to-nvvm's business; this builder decides the schedule. It is
// split by role: the plan (HopperPlan.h, HopperPlan.cpp); the work loop and
// the K/V ring the roles share (HopperWork.cpp); the producer and the
// kernel (HopperKernel.cpp); the consumers and their epilogues
// (HopperConsumer.cpp). The files call in one direction
// (tools/file-cycles.py).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_ATTNTOFA4_HOPPERKERNEL_H
#define LIB_CONVERSION_ATTNTOFA4_HOPPERKERNEL_H

#include "../Common/KernelEmitter.h"
#include "HopperPlan.h"
#include "KernelFunc.h"
#include "Kernels.h"
#include "ServingSpans.h"
#include "WorkTiles.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"
#include "fa4/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <algorithm>
#include <cmath>

namespace fa4::hopper {

/// Writes the kernel body in the fa4 dialect.
class HopperKernelBuilder : KernelEmitter {
public:
  /// `shortestSeqKV`: the fewest keys of any launch the kernel serves (1
  /// where any Skv may come).
  HopperKernelBuilder(OpBuilder &b, Location loc, const HopperPlan &plan,
                      const HopperKernelOptions &schedule, bool persistent,
                      int64_t shortestSeqKV)
      : KernelEmitter(b, loc), plan(plan), schedule(schedule),
        pingPong(schedule.pingPong && plan.numConsumers >= 2 &&
                 !plan.consumersSplitKeys),
        persistent(persistent),
        intraWgOverlap(schedule.intraWgOverlap && allowsIntraWgOverlap(plan)),
        lazyRescale(schedule.lazyRescale && allowsLazyRescale(plan)),
        storeOByTma(storesOByTma(plan, persistent, schedule.tmaStoreO)),
        storeOByBoxes(persistent && plan.loopStagingOffset >= 0 &&
                      !plan.loopDoubleQ),
        doubleQ(persistent && plan.loopStagingOffset >= 0 && plan.loopDoubleQ),
        pairRowBlocks(schedule.pairRowBlocks && persistent &&
                      plan.form == ServingForm::Dense),
        kvMulticast(pairsCTAs(plan, schedule, persistent, shortestSeqKV)),
        trace(schedule.trace && plan.hasLse && !plan.decode &&
              plan.form == ServingForm::Dense && !plan.workspace &&
              !plan.clusterSplit()) {}

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

  /// Where the lazy rescale was measured to pay (D-3): O of 128 or more
  /// columns, whose 64+ multiplies per thread and step it skips (+2-5% at Dv =
  /// 128, +3-8% at 256). At Dv = 64 its 32 multiplies cost less than the branch
  /// breaks in ptxas's schedule
  /// (-1-2%).
  static bool allowsLazyRescale(const HopperPlan &plan) {
    return plan.paddedOv >= 128;
  }

  /// Where a pair of CTAs may share its K/V tiles (kv-multicast): prefill
  /// at Dv >= 128 (FA3's rule for its cluster of two), with two or more
  /// boxes to split between the pair. A looped kernel's pair walks one work
  /// list (work item blockIdx / 2, stride gridDim / 2), so both take the
  /// same tiles in the same order. Packed sequences too: a pair is two row
  /// blocks of one sequence's head (D-59); a paged cache's producer copies
  /// tiles TMA does not load, which no pair shares.
  static bool multicastsKV(const HopperPlan &plan) {
    return plan.form != ServingForm::Paged && !plan.decode && !plan.workspace &&
           !plan.clusterSplit() && !plan.consumersSplitKeys &&
           plan.paddedOv >= 128 && plan.qkBoxes >= kKvMulticastCtas &&
           plan.ovBoxes >= kKvMulticastCtas;
  }

  /// Whether the two row blocks of a pair can share every K/V tile the
  /// pair loads. Without a mask they see the same tiles. Under a causal
  /// mask (kv-multicast-causal) the pair loads the tiles of its last row,
  /// the union, and each consumer runs its GEMMs to its own diagonal and
  /// only keeps its turns and releases after it (trimsTrailingTiles): so
  /// only where the consumers trim, the kernel without a work loop (D-22).
  /// The shorter block's CTA idles for the union's last tiles, which only
  /// long rows amortize: the kernel pairs where every launch has
  /// kv-multicast-causal-min-seq-kv keys (D-10, D-11). A window's left bound
  /// would start the two blocks at different tiles: no pair.
  static bool pairSharesTiles(const HopperPlan &plan,
                              const HopperKernelOptions &schedule,
                              bool persistent, int64_t shortestSeqKV) {
    switch (plan.mask.getKind()) {
    case attn::MaskKind::None:
      return true;
    case attn::MaskKind::Causal:
      return schedule.kvMulticastCausal &&
             shortestSeqKV >= schedule.kvMulticastCausalMinSeqKV && !persistent;
    default:
      return false;
    }
  }

  /// Whether a kernel of `plan` runs in pairs: kv-multicast where the plan
  /// allows it. A looped kernel also needs kv-multicast-twin (on): its
  /// pairs spill 40 B at d = 256 (some in the consumers; at d = 128 28 B in
  /// the producer at FA3's 24 registers, none at 40), and still ran 1.6%
  /// and 5-6% faster than one CTA per work item (D-9).
  static bool pairsCTAs(const HopperPlan &plan,
                        const HopperKernelOptions &schedule, bool persistent,
                        int64_t shortestSeqKV) {
    return schedule.kvMulticast && (!persistent || schedule.kvMulticastTwin) &&
           multicastsKV(plan) &&
           pairSharesTiles(plan, schedule, persistent, shortestSeqKV);
  }

  /// setmaxnreg's split between the producer and the consumers. FA3's
  /// split holds a two-consumer kernel's producer at 24 registers; a
  /// looped prefill kernel's producer also keeps its work list (and a
  /// pair's peer) and spilled there (28 B in the d = 128 twin in pairs).
  /// At a padded Dv up to 128 the consumers have registers to spare: the
  /// producer gets loop-producer-registers (40: no spill; D-7) and the
  /// consumers the rest of the pool. At d = 256 the
  /// consumers need their 240 (the twin spilled more and ran 1.2% slower at
  /// 232).
  static WarpgroupRegisters
  warpgroupRegisters(const HopperPlan &plan,
                     const HopperKernelOptions &schedule, bool persistent);

  /// CTAs per work item: two (a cluster) where the kernel runs in pairs.
  static int64_t ctasPerWorkItem(bool pairs) {
    return pairs ? kKvMulticastCtas : 1;
  }

  void build(gpu::GPUFuncOp func, KernelABI &abi);

private:
  Value fromIndex(Value v) { return indexTo(b.getI32Type(), v); }

  //===--- the kernel's steps, in order (build)
  //----------------------------===//
  /// The work tiles this CTA walks: numWork, firstWork, workStride (and
  /// the pair's ranks with kvMulticast).
  void decodeWorkWalk();
  /// Thread 0 initialises every mbarrier of the kernel.
  void initBarriers();
  /// The producer warpgroup's role: its leader thread loads.
  void buildProducerRole(WarpSpecializeOp roles);
  /// The consumer warpgroups' role.
  void buildConsumerRole(WarpSpecializeOp roles);

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
  /// One 4D TMA box (coordinates innermost first: depth, head, row, batch;
  /// a paged cache's batch is the page), or without `batch` a 3D one of a
  /// packed tensor (depth, head, token).
  /// `multicastMask`: the cluster ranks the box lands in (0: this CTA).
  void tmaLoad(Value tensorMap, Value destination, Value depth, Value head,
               Value row, Value batch, Value barrier,
               int64_t multicastMask = 0) {
    SmallVector<Value, 4> coordinates = {depth, head, row};
    if (batch)
      coordinates.push_back(batch);
    TmaLoadOp::create(b, loc, tensorMap, coordinates, destination, barrier,
                      /*barrierCta=*/Value(),
                      multicastMask ? b.getI64IntegerAttr(multicastMask)
                                    : IntegerAttr(),
                      /*l2Eviction=*/nullptr);
  }
  /// A consumer thread's release of a K/V slot: its own arrival and, with
  /// kvMulticast, its warp's on the peer's barrier of the slot (one lane for
  /// the warp's 32 threads: lane 0, or an elected lane in a looped kernel),
  /// whose producer refills this CTA's slot too.
  void releaseSlot(Value emptyBarrier);
  /// A count of elements (i64) in bytes.
  Value inBytes(Value elements) {
    return mul(elements, i64(plan.elementBytes()));
  }
  /// `pointer` advanced by `bytes`.
  Value offsetBytes(Value pointer, int64_t bytes) {
    return LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI8Type(),
                               pointer, ValueRange{i64(bytes)});
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
  void spanSequence(WorkTile &work, int64_t rows);
  /// The packed tensors' row of a work tile's query row or key (varlen:
  /// from its sequence's first token), as TMA coordinates.
  Value queryRowOf(Value row) { return qRowBase ? add(qRowBase, row) : row; }
  Value keyRowOf(Value key) { return kRowBase ? add(kRowBase, key) : key; }
  /// Serving forms: each role reads its work tile's sequence
  /// (spanSequence) from the launch's arguments.
  void beginRole() {
    if (plan.form == ServingForm::Dense)
      return;
    args = launchArgs;
    qRowBase = kRowBase = Value();
  }
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
    /// A ragged batch's work tile runs only where its sequence has rows
    /// (skipsRowlessTiles); null where every work tile runs.
    scf::IfOp ifHasRows;
    Value tilesOfWork; // its K/V tiles, as decodeWork read them
  };
  bool skipsRowlessTiles() const;
  Value workTileCount();
  bool consumersOwnRows() const;
  bool consumersOwnRowsOfOneTile() const;
  bool idleConsumersSkip() const;
  bool trimsTrailingTiles() const;
  WorkScope beginWork();
  void endWork(WorkScope scope);
  void buildProducer();
  /// The producer waits for ring slot `ringTile % stages` to be released,
  /// from the ring's second round on.
  void waitForSlot(Value emptyBarrierOfSlot, Value ringTile, Value stages);
  /// The producer loads K (`isKey`) or V tile `tile` of the work tile into
  /// its ring slot (`tilesLoaded` tiles went through the ring before).
  void loadKvTile(Value tilesLoaded, Value stages, Value tile, bool isKey);
  void loadPagedTile(bool isKey, Value slotOffset, Value firstKey,
                     int64_t boxes, Value full,
                     llvm::function_ref<void()> waitSlot);
  void copyPagedTile(bool isKey, Value slotOffset, Value firstKey,
                     int64_t boxes, Value full);
  /// A paged cache: the producer's whole warpgroup runs its loop, so that
  /// all its threads can copy a tile TMA does not load (loadPagedTile);
  /// `asProducerLeader` keeps the TMA loads and their arrivals to its first
  /// thread.
  bool producerWarpgroupLoads() const {
    return plan.form == ServingForm::Paged;
  }
  void asProducerLeader(llvm::function_ref<void()> body);
  void completeCopies(Value full, int64_t newerGroups);
  /// The producer loads Q of this CTA's work tile `index` (the current work
  /// tile's coordinates): each consumer's 64 rows, all depth boxes, on
  /// that tile's barrier, once its readers have released the buffer's
  /// previous work tile (the one before, or with doubleQ two before).
  void loadQTiles(Value index);
  /// D-49: the consumers copy Q and the first K/V tiles by cp.async
  /// (copyFirstTiles) while the tensor maps are built, and arrive for them
  /// themselves (arriveForCopies, D-50); the producer loads the tiles after
  /// them, and their readers fence them after the wait (fenceCopiedTile).
  bool copiesFirstTiles() const {
    return plan.mapStagingOffset >= 0 && args.buildsTensorMaps();
  }
  void copyFirstTiles(Value tid);
  void arriveForCopies(Value consumerThread);
  void copyQTile(Value consumerThread);
  void copyTileBoxes(Value base, Value rows, Value rowStride, int64_t boxes,
                     int64_t depth, Value destination, Value thread);
  int64_t chunksInBox(int64_t depth, int64_t box) const;
  Value elementAt(Value base, ArrayRef<Value> strides, Value row,
                  Value headIndex);
  void fenceCopiedTile(Value ringTile);
  /// Whether ring tile `ringTile` is one copyFirstTiles copied (a CTA with
  /// one work tile: its first copiedTiles()).
  Value isCopiedTile(Value ringTile) {
    return cmp(arith::CmpIPredicate::ult, ringTile, i32(copiedTiles()));
  }
  /// The first tile of each consumer that reads tiles: the copies cover
  /// the maps' build and the producer's first load (D-50).
  int64_t copiedTiles() const {
    return std::min<int64_t>(plan.kvStages, plan.consumersSplitKeys ? 2 : 1);
  }

  //===--- a consumer (HopperConsumer.cpp) --------------------------------===//
  /// What buildConsumer fixes for the consumer it builds: its Q tile, the
  /// types of its frags, the ring's stage count and its ping-pong turns.
  struct ConsumerState {
    Value consumer, qTileIndex, qBuffer, qTile, stages;
    FragType scoresType, outType, probsType;
    /// Named barriers: this consumer's turn, the next one's, and the
    /// threads that meet at each (two warpgroups).
    Value ownTurn, nextTurn, pairThreads;
  };
  /// The work tile a step belongs to: the ring position of its first K/V
  /// tile, its first visible K/V tile, and this consumer's first row.
  struct StepWork {
    Value ringBase, firstTile, tileRow;
  };
  /// Whether a step issues the previous tile's P V (emitStep).
  enum class StepPV { Always, Never, AfterFirst };
  void buildConsumer(Value consumer);
  void buildConsumerWork();
  scf::IfOp skipIfIdle(const StepWork &work, Value workDone, Value myTiles);
  void releasePreviousQBuffer(Value workDone);
  Value slotOf(Value tile);
  Value parityOf(Value tile);
  Value waitVTile(Value tile);
  Value issuePV(Value out, Value probs, Value tile);
  Value kTileIn(Value slot);
  void releaseK(Value tile);
  void releaseV(Value tile);
  void waitTurn();
  void passTurn();
  Value tileRowOf(Value blockRow);
  Value myTilesOf(Value numTiles);
  Value workTileOf(Value step);
  void waitQ(Value workDone);
  void keepTurns(Value ringBase, Value from, Value to);
  SoftmaxOp maskedSoftmax(Value scores, Value firstKey, Value tileRow,
                          Value rowMax, Value rowSum);
  SmallVector<Value> emitStep(Value step, ValueRange carried, StepPV pv,
                              const StepWork &work);
  SmallVector<Value> emitFirstStep(Value myTiles, ValueRange initial,
                                   const StepWork &work);
  scf::ForOp emitSteps(Value firstStep, Value myTiles, ValueRange initial,
                       const StepWork &work);
  Value emitLastPV(Value out, Value probs, Value myTiles, const StepWork &work);
  void writeO(Value out, Value rowMax, Value rowSum, Value batch, Value head,
              Value tileRow);
  SmallVector<Value> initialState();
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
  /// The options as asked; the choices below are what the plan allows of
  /// them. l2SectionBytes applies as asked.
  const HopperKernelOptions schedule;
  bool pingPong;
  bool persistent;
  bool intraWgOverlap;
  bool lazyRescale;
  bool storeOByTma;
  /// A looped kernel's O leaves by TMA one box at a time through its own
  /// staging region (storeOByBoxes).
  bool storeOByBoxes;
  /// A looped kernel with two Q buffers: work tile w reads buffer w % 2, the
  /// producer loads the next tile's Q during this one, and O is staged over
  /// the consumer's Q tile for its TMA store (storeOOverQ).
  bool doubleQ;
  /// Persistent, causal: row blocks R - 1 - k and k of a pair go to one CTA
  /// in consecutive strides (pairedSlot).
  bool pairRowBlocks;
  /// Prefill: a cluster of two CTAs on adjacent row blocks of a head, each
  /// loading every other box of every K/V tile for both (pairsCTAs).
  bool kvMulticast;
  /// Prefill: each consumer writes its phase times over its LSE rows
  /// (writeTrace).
  bool trace;
  /// With `trace`, the looped twin's epilogue stamps of the current work
  /// tile (storeOByBox), written after the phase stamps.
  SmallVector<Value> epilogueStamps;
  /// The consumer being built (buildConsumer).
  ConsumerState consumerState;

  // Kernel arguments; serving forms: `args` holds the current sequence's
  // lengths and O/LSE pointers (spanSequence), `launchArgs` the launch's.
  AttentionArgs args, launchArgs;
  // Varlen: the current sequence's first query and key token.
  Value qRowBase, kRowBase;
  Value numWork, firstWork, workStride;
  // The current work tile (decodeWork); a serving form's work item (a
  // pair's two row blocks with kvMulticast) starts within its sequence.
  Value batch, head, kvHead, blockRow, firstTile, numTiles;
  Value itemHasRows;
  // Decode: this CTA's rank in its cluster, which is its K/V partition.
  Value partition;
  // kvMulticast: this CTA's rank in its pair, the other's, and a consumer
  // thread's lane.
  Value pairRank, peerRank, lane;
  // producerWarpgroupLoads: this producer thread (0 to 127).
  Value producerThread;
};
} // namespace fa4::hopper

#endif // LIB_CONVERSION_ATTNTOFA4_HOPPERKERNEL_H
