//===- HopperWork.cpp - The Hopper kernel's work loop and K/V ring -------===//
//
// What the producer and the consumers of the FA3 structure share
// (HopperKernel.h): which work tiles a CTA walks and how the K/V ring's
// slots are released and fenced. HopperKernel.cpp (the producer, the
// kernel) and HopperConsumer.cpp (the consumers) both build on it; it calls
// neither.
//
//===----------------------------------------------------------------------===//

#include "HopperKernel.h"

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;
using namespace fa4::hopper;

/// Whether this is a prefill kernel whose several consumers each own their
/// rows and write O themselves (not split keys, a cluster or a workspace,
/// whose combine expects every consumer's partial): where a consumer may
/// take its turns without GEMMs.
bool HopperKernelBuilder::consumersOwnRows() const {
  return !plan.decode && !plan.consumersSplitKeys && !plan.clusterSplit() &&
         !plan.workspace && plan.numConsumers > 1;
}

/// consumersOwnRows with one work tile per CTA.
bool HopperKernelBuilder::consumersOwnRowsOfOneTile() const {
  return consumersOwnRows() && !persistent;
}

/// How many work tiles this persistent CTA takes: firstWork, firstWork +
/// workStride, ... below numWork.
Value HopperKernelBuilder::workTileCount() {
  Value myWork =
      divu(add(sub(numWork, firstWork), sub(workStride, i32(1))), workStride);
  return select(cmp(arith::CmpIPredicate::sgt, numWork, firstWork), myWork,
                i32(0));
}

/// The work tile `index` names: a 128-row block of one (batch, head), and the
/// KV tiles its rows can see. Causal and window masks go heaviest first (the
/// last row blocks see the most keys): longest-processing-time order for the
/// persistent CTAs, within L2 sections of heads (l2-section-bytes).
/// Otherwise the row blocks of one head are adjacent, so CTAs running
/// together share K and V in L2. A decode kernel on persistent CTAs: work
/// item `index` of its flattened grid (WorkTiles::decodeItem).
void HopperKernelBuilder::decodeWork(Value index) {
  WorkTiles tiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn);
  if (plan.decode) {
    partition = i32(0);
    WorkTile work =
        tiles.decodeItem(index, plan.decodeHeads(), plan.queryRowsPerTile(),
                         plan.rowGroup, plan.group);
    if (plan.form != ServingForm::Dense)
      spanSequence(work, plan.queryRowsPerTile());
    return setWork(work);
  }
  // A work tile's K and V: its boxes' 128-byte rows per key (as sm_100a's).
  int64_t kvBytesPerKey = (plan.qkBoxes + plan.ovBoxes) * kSwizzleBytes;
  int64_t blockRows = plan.numConsumers * kRowsPerConsumer;
  // With kvMulticast `index` names a pair of row blocks, and this CTA takes
  // the one of its rank; without a mask both see every K/V tile.
  int64_t itemRows = ctasPerWorkItem(kvMulticast) * blockRows;
  WorkTile work = tiles.prefill(
      index, args.batchSize, itemRows, plan.numQHeads, plan.group,
      fa4::sectionKeyHeads(schedule.l2SectionBytes, kvBytesPerKey, plan.group),
      pairRowBlocks ? workStride : Value());
  // A pair's CTAs read one sequence's spans for the pair's rows, so both
  // load the same K/V tiles and skip or run the work item together.
  if (plan.form != ServingForm::Dense) {
    spanSequence(work, itemRows);
    itemHasRows = cmp(arith::CmpIPredicate::slt, work.blockRow, args.seqQ);
  }
  if (kvMulticast)
    work.blockRow = add(work.blockRow, mul(pairRank, i32(blockRows)));
  setWork(work);
}

/// A serving form's work tile reads its sequence (ServingSpans): `args`
/// takes its lengths and O/LSE pointers, the TMA rows start at its first
/// query and key token where those are packed.
void HopperKernelBuilder::spanSequence(WorkTile &work, int64_t rows) {
  SequenceSpan span = ServingSpans(b, loc, plan, launchArgs).span(work, rows);
  span.applyTo(args);
  qRowBase = span.firstQuery;
  kRowBase = span.firstKey;
}

/// Decode: see WorkTiles::decode. A serving form's work item reads its
/// sequence before its K/V tiles are dealt out to the partitions.
void HopperKernelBuilder::decodeSplitWork() {
  auto span = [&](WorkTile &work) {
    if (plan.form != ServingForm::Dense)
      spanSequence(work, plan.queryRowsPerTile());
  };
  setWork(WorkTiles(b, loc, plan.mask, args.seqQ, args.seqKV, plan.bn)
              .decode(plan.partitions, plan.queryRowsPerTile(), plan.rowGroup,
                      plan.group, partition, /*inCluster=*/!plan.workspace,
                      span));
}

/// Whether a persistent prefill CTA skips the work tiles whose row block
/// lies past its sequence's rows, loading not even Q: a serving form's
/// work list covers the longest sequence's row blocks for every sequence,
/// and in a ragged batch most of them are such (D-59).
bool HopperKernelBuilder::skipsRowlessTiles() const {
  return persistent && !plan.decode && plan.form != ServingForm::Dense;
}

/// Persistent: a loop over this CTA's work tiles carrying (K/V tiles used
/// so far, and where rowless tiles are skipped, work tiles run so far); the
/// K/V ring and the Q buffer continue from one work tile to the next, so
/// their slots and barrier parities count across tiles. Otherwise the
/// CTA's one work tile, with both counts 0.
HopperKernelBuilder::WorkScope HopperKernelBuilder::beginWork() {
  if (plan.decode && !persistent) {
    decodeSplitWork();
    return {scf::ForOp(), i32(0), i32(0), scf::IfOp(), numTiles};
  }
  if (!persistent) {
    decodeWork(firstWork);
    return {scf::ForOp(), i32(0), i32(0), scf::IfOp(), numTiles};
  }
  // The loop counts this CTA's work tiles, so where every tile runs the
  // count done is its induction variable and only the ring position is
  // carried: one value fewer held across the K/V loop, where the
  // consumers' 240 registers are all in use.
  bool skips = skipsRowlessTiles();
  SmallVector<Value> counts{i32(0)};
  if (skips)
    counts.push_back(i32(0));
  Value myWork = workTileCount();
  auto loop = scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(myWork),
                                 toIndex(i32(1)), counts);
  b.setInsertionPointToStart(loop.getBody());
  Value slot = fromIndex(loop.getInductionVar());
  Value workDone = skips ? loop.getRegionIterArgs()[1] : slot;
  decodeWork(add(firstWork, mul(slot, workStride)));
  Value tilesOfWork = numTiles;
  scf::IfOp ifHasRows;
  if (skips) {
    // Every role reads the same sequence, so all skip the same tiles.
    ifHasRows = scf::IfOp::create(b, loc, itemHasRows, false);
    b.setInsertionPointToStart(ifHasRows.thenBlock());
  }
  return {loop, workDone, loop.getRegionIterArgs()[0], ifHasRows, tilesOfWork};
}

void HopperKernelBuilder::endWork(WorkScope scope) {
  if (!scope.loop)
    return;
  if (scope.ifHasRows)
    b.setInsertionPointAfter(scope.ifHasRows);
  // A skipped tile has no K/V tiles (ServingSpans::span).
  SmallVector<Value> counts{add(scope.kvTiles, scope.tilesOfWork)};
  if (scope.ifHasRows)
    counts.push_back(add(scope.workDone, select(scope.ifHasRows.getCondition(),
                                                i32(1), i32(0))));
  scf::YieldOp::create(b, loc, counts);
  b.setInsertionPointAfter(scope.loop);
}

/// Whether a consumer with no rows in the work tile skips its GEMMs:
/// without a window mask. (The branch costs registers: ptxas spilled
/// 28-32 B in the d = 128 causal and d = 256 looped twins, across their
/// work loop, and 4 B in the window-masked kernels at d = 96 and 128.)
bool HopperKernelBuilder::idleConsumersSkip() const {
  return consumersOwnRowsOfOneTile() &&
         plan.mask.getKind() != attn::MaskKind::Window;
}

/// Whether each consumer stops its GEMMs at the last K/V tile its own rows
/// see, where a mask's right bound (causal, or a window's) can end them
/// before the work tile's last rows do. Not in the looped twins: there the
/// trailing loops cost 2.4-3.8% where no count changes (d = 64 and 128,
/// whose 128-key tiles give both consumers the same count) and more than
/// the GEMMs they save at d = 256 (-2.6%, with 10% fewer GEMM steps at 512
/// keys), before or after the last P V (D-45, D-22).
bool HopperKernelBuilder::trimsTrailingTiles() const {
  bool rightBound = plan.mask.getKind() == attn::MaskKind::Causal ||
                    (plan.mask.getKind() == attn::MaskKind::Window &&
                     plan.mask.getRight() >= 0);
  return rightBound && consumersOwnRows() && !persistent;
}

void HopperKernelBuilder::releaseSlot(Value emptyBarrier) {
  MBarrierArriveOp::create(b, loc, emptyBarrier);
  if (!kvMulticast)
    return;
  // Lane 0, or in a looped kernel an elected lane (elect.sync: no lane
  // index held across the work loop, 12 B fewer spills).
  Value lead =
      persistent
          ? Value(NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value()))
          : cmp(arith::CmpIPredicate::eq, lane, i32(0));
  auto ifLeadLane = scf::IfOp::create(b, loc, lead, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLeadLane.thenBlock());
  // At CTA scope (CUTLASS's): the slot's reads are complete, nothing
  // needs ordering for the peer's producer.
  MBarrierArriveOp::create(b, loc, emptyBarrier, peerRank,
                           b.getI64IntegerAttr(32),
                           /*ctaScope=*/true);
}

/// A K/V tile the consumers copied is fenced by each of its writers, its
/// reader's threads, once its full barrier says it landed; the warpgroup
/// then meets, so that its wgmma reads no warp's bytes before that warp's
/// fence.
void HopperKernelBuilder::fenceCopiedTile(Value ringTile) {
  if (!copiesFirstTiles())
    return;
  auto ifCopied = scf::IfOp::create(b, loc, isCopiedTile(ringTile), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifCopied.thenBlock());
  fenceAsyncProxy();
  meetWarpgroup(consumerState.consumer);
}

/// The consumer's warpgroup meets at named barrier 4 + consumer.
void HopperKernelBuilder::meetWarpgroup(Value consumer) {
  syncNamedBarrier(add(i32(kEpilogueBarrierBase), consumer),
                   i32(kWarpgroupThreads));
}
