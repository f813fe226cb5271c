//===- HopperConsumer.cpp - The sm_90a kernel's consumers -----------------===//
//
// The consumers of the FA3 structure (HopperKernel.h): each Q tile's
// GEMMs, mask and online softmax in ping-pong, and the epilogues that
// write O and the LSE (TMA stores, split-K partials, the trace).
//
//===----------------------------------------------------------------------===//

#include "HopperKernel.h"

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;
using namespace fa4::hopper;

void HopperKernelBuilder::buildConsumer(Value consumer) {
  ConsumerState &state = consumerState;
  state.consumer = consumer;
  // With the keys split, both consumers read the one Q tile of their rows.
  state.qTileIndex = plan.consumersSplitKeys ? i32(0) : consumer;
  // With doubleQ, each work tile's buffer (set per work tile below).
  state.qBuffer = Value();
  state.qTile = qTileIn(state.qTileIndex, state.qBuffer);
  state.scoresType = accType(plan.bn);
  state.outType = accType(plan.paddedOv);
  state.probsType = FragType::get(b.getContext(), kRowsPerConsumer, plan.bn,
                                  plan.elementType);
  state.stages = i32(plan.kvStages);
  // Ping-pong (FA3): named barrier 1 + c orders consumer c's GEMM issue after
  // the previous consumer's (c - 1, cyclically), so one warpgroup's softmax
  // runs under the others' GEMMs. The last consumer lets consumer 0 go
  // first.
  int64_t numConsumers = plan.numConsumers;
  state.ownTurn = add(consumer, i32(1));
  state.nextTurn =
      numConsumers == 2
          ? sub(i32(2), consumer)
          : add(remu(add(consumer, i32(1)), i32(numConsumers)), i32(1));
  state.pairThreads = i32(2 * kWarpgroupThreads);
  if (pingPong) {
    auto ifLast = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(numConsumers - 1)),
        false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    passTurn();
  }
  buildConsumerWork();
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

//===--- the K/V ring and the GEMM turns, as a consumer sees them
//----------===//

Value HopperKernelBuilder::slotOf(Value tile) {
  return remu(tile, consumerState.stages);
}

Value HopperKernelBuilder::parityOf(Value tile) {
  return arith::AndIOp::create(b, loc, divu(tile, consumerState.stages),
                               i32(1));
}

/// The V tile of `tile`, once it has landed: the B of O += P V.
Value HopperKernelBuilder::waitVTile(Value tile) {
  waitBarrier(vFullBarrier(slotOf(tile)), parityOf(tile));
  fenceCopiedTile(tile);
  return smemTile(
      add(i32(plan.vRingOffset), mul(slotOf(tile), i32(plan.vStageBytes))),
      plan.bn, plan.paddedOv, Major::MN);
}

/// O += P V for `tile`, P from the softmax.
Value HopperKernelBuilder::issuePV(Value out, Value probs, Value tile) {
  return MmaOp::create(b, loc, consumerState.outType, probs, waitVTile(tile),
                       out);
}

/// The K tile in ring slot `slot`, the B of S = Q K^T.
Value HopperKernelBuilder::kTileIn(Value slot) {
  return smemTile(add(i32(plan.kRingOffset), mul(slot, i32(plan.kStageBytes))),
                  plan.bn, plan.qkBoxes * kBoxColumns, Major::K);
}

void HopperKernelBuilder::releaseK(Value tile) {
  releaseSlot(kEmptyBarrier(slotOf(tile)));
}

void HopperKernelBuilder::releaseV(Value tile) {
  releaseSlot(vEmptyBarrier(slotOf(tile)));
}

void HopperKernelBuilder::waitTurn() {
  syncNamedBarrier(consumerState.ownTurn, consumerState.pairThreads);
}

void HopperKernelBuilder::passTurn() {
  NVVM::BarrierArriveOp::create(b, loc, consumerState.nextTurn,
                                consumerState.pairThreads);
}

/// This consumer's first row of a work tile whose first row is `blockRow`.
Value HopperKernelBuilder::tileRowOf(Value blockRow) {
  return plan.consumersSplitKeys
             ? blockRow
             : add(blockRow,
                   mul(consumerState.consumer, i32(plan.queryRowsPerTile())));
}

/// The work item's K/V tiles this consumer takes: all, or every other one
/// from its index.
Value HopperKernelBuilder::myTilesOf(Value numTiles) {
  return plan.consumersSplitKeys
             ? divu(sub(add(numTiles, i32(1)), consumerState.consumer), i32(2))
             : numTiles;
}

Value HopperKernelBuilder::workTileOf(Value step) {
  return plan.consumersSplitKeys
             ? add(consumerState.consumer, mul(step, i32(2)))
             : step;
}

void HopperKernelBuilder::waitQ(Value workDone) {
  waitBarrier(qFullBarrier(consumerState.qTileIndex, qBufferOf(workDone)),
              qPhaseOf(workDone));
}

/// Turns without GEMMs for the work tile's K/V tiles [from, to) (ring
/// positions from `ringBase`): wait for each K and V tile, take and pass the
/// turn, release both, so that the producer's and the other consumers'
/// barrier counts stand.
void HopperKernelBuilder::keepTurns(Value ringBase, Value from, Value to) {
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
}

//===--- the steps of a work tile
//------------------------------------------===//

/// The softcap and mask on S (keys from `firstKey`, rows from `tileRow`) and
/// the online softmax continuing from (rowMax, rowSum). Under a softcap too
/// it tracks row maxima: a fixed max measured no faster (D-68).
SoftmaxOp HopperKernelBuilder::maskedSoftmax(Value scores, Value firstKey,
                                             Value tileRow, Value rowMax,
                                             Value rowSum) {
  FragType scoresType = consumerState.scoresType;
  SoftmaxInput input = softmaxInput(b, loc, plan, scores, args.scaleLog2);
  scores = MaskOp::create(b, loc, scoresType, input.scores, firstKey, tileRow,
                          args.seqQ, args.seqKV, plan.mask,
                          b.getI64IntegerAttr(plan.rowGroup));
  return SoftmaxOp::create(b, loc, scoresType, rowsType(), rowsType(),
                           rowsType(), scores, rowMax, rowSum, input.scaleLog2,
                           lazyRescale ? b.getF64FloatAttr(kRescaleThreshold)
                                       : FloatAttr(),
                           /*polyExp2Period=*/0, /*reductionChains=*/1);
}

/// One step: S(t) = Q K^T(t) and, in the same GEMM turn,
/// O += P(t-1) V(t-1); then the softmax of S(t) makes P(t). P V lags one
/// tile so that both GEMMs of a turn are in flight together. `pv` says
/// whether the step issues that P V: always (FA3's intra-warpgroup overlap,
/// step 0 peeled off), never (that peeled step), or from step 1 on (decided
/// at run time). Carried: O, row max, row sum, P.
SmallVector<Value> HopperKernelBuilder::emitStep(Value step, ValueRange carried,
                                                 StepPV pv,
                                                 const StepWork &work) {
  const ConsumerState &state = consumerState;
  Value out = carried[0], rowMax = carried[1], rowSum = carried[2],
        previousP = carried[3];
  Value tile = workTileOf(step);
  Value ringTile = add(work.ringBase, tile);
  Value slot = slotOf(ringTile);
  Value firstKey = mul(add(work.firstTile, tile), i32(plan.bn));
  Value hasPrevious = cmp(arith::CmpIPredicate::sgt, step, i32(0));
  Value previous = sub(ringTile, i32(plan.consumersSplitKeys ? 2 : 1));

  waitBarrier(kFullBarrier(slot), parityOf(ringTile));
  fenceCopiedTile(ringTile);
  if (pingPong)
    waitTurn();
  Value scores = MmaOp::create(b, loc, state.scoresType, state.qTile,
                               kTileIn(slot), splat(state.scoresType, 0.0));
  if (pv == StepPV::Always) {
    out = issuePV(out, previousP, previous);
  } else if (pv == StepPV::AfterFirst) {
    auto ifPV = scf::IfOp::create(b, loc, TypeRange{state.outType}, hasPrevious,
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
  // With the overlap, wait for S only: groups complete in order, so at most
  // the P V still runs, under the softmax.
  MmaWaitOp::create(b, loc, /*pending=*/pv == StepPV::Always ? 1 : 0);
  // S is in registers: this tile's K slot can refill now; the previous
  // tile's V slot once its P V is done.
  releaseK(ringTile);
  if (pv == StepPV::AfterFirst) {
    auto ifRelease = scf::IfOp::create(b, loc, hasPrevious, false);
    OpBuilder::InsertionGuard releaseGuard(b);
    b.setInsertionPointToStart(ifRelease.thenBlock());
    releaseV(previous);
  }

  auto softmax = maskedSoftmax(scores, firstKey, work.tileRow, rowMax, rowSum);
  if (pv == StepPV::Always) {
    // O is read only once the P V that ran under the softmax is done.
    MmaWaitOp::create(b, loc);
    releaseV(previous);
  }
  out = ScaleRowsOp::create(b, loc, state.outType, out, softmax.getCorrection(),
                            lazyRescale);
  // P as an MMA operand, rounded here, before the next turn's MMAs.
  Value probs = TruncFOp::create(b, loc, state.probsType, softmax.getProbs());
  return SmallVector<Value>{out, softmax.getNewMax(), softmax.getNewSum(),
                            probs};
}

/// Step 0 of a work tile with any tiles; `initial` otherwise. With the
/// overlap step 0 has no P V to overlap and is peeled off the loop, so that
/// the loop's P V and its wait never depend on a run-time branch (ptxas
/// serialises the wgmma pipeline around the branch's accumulator copies,
/// C7514).
SmallVector<Value> HopperKernelBuilder::emitFirstStep(Value myTiles,
                                                      ValueRange initial,
                                                      const StepWork &work) {
  auto ifFirst =
      scf::IfOp::create(b, loc, initial.getTypes(),
                        cmp(arith::CmpIPredicate::sgt, myTiles, i32(0)), true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  scf::YieldOp::create(b, loc, emitStep(i32(0), initial, StepPV::Never, work));
  b.setInsertionPointToStart(ifFirst.elseBlock());
  scf::YieldOp::create(b, loc, initial);
  return SmallVector<Value>(ifFirst.getResults());
}

/// Steps [firstStep, myTiles) of a work tile, as a loop.
scf::ForOp HopperKernelBuilder::emitSteps(Value firstStep, Value myTiles,
                                          ValueRange initial,
                                          const StepWork &work) {
  auto loop = scf::ForOp::create(b, loc, toIndex(firstStep), toIndex(myTiles),
                                 toIndex(i32(1)), initial);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  scf::YieldOp::create(
      b, loc,
      emitStep(fromIndex(loop.getInductionVar()), loop.getRegionIterArgs(),
               intraWgOverlap ? StepPV::Always : StepPV::AfterFirst, work));
  return loop;
}

/// The work tile's last P V, outside any GEMM turn.
Value HopperKernelBuilder::emitLastPV(Value out, Value probs, Value myTiles,
                                      const StepWork &work) {
  auto ifLast =
      scf::IfOp::create(b, loc, TypeRange{consumerState.outType},
                        cmp(arith::CmpIPredicate::sgt, myTiles, i32(0)), true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLast.thenBlock());
  Value lastStep = workTileOf(sub(myTiles, i32(1)));
  Value last = add(work.ringBase, lastStep);
  Value finalOut = issuePV(out, probs, last);
  MmaWaitOp::create(b, loc);
  releaseV(last);
  scf::YieldOp::create(b, loc, finalOut);
  b.setInsertionPointToStart(ifLast.elseBlock());
  scf::YieldOp::create(b, loc, out);
  return ifLast.getResult(0);
}

/// O and the LSE of a work tile, by the path the plan takes.
void HopperKernelBuilder::writeO(Value out, Value rowMax, Value rowSum,
                                 Value batch, Value head, Value tileRow) {
  Value consumer = consumerState.consumer;
  if (plan.workspace)
    writeWorkspacePartial(consumer, out, rowMax, rowSum, tileRow);
  else if (plan.clusterSplit())
    stagePartial(consumer, out, rowMax, rowSum);
  else if (storeOByTma)
    storeO(consumer, out, rowMax, rowSum, batch, head, tileRow);
  else if (storeOByBoxes)
    storeOByBox(consumer, out, rowMax, rowSum, batch, head, tileRow);
  else if (doubleQ)
    storeOOverQ(consumer, out, rowMax, rowSum, batch, head, tileRow,
                consumerState.qBuffer);
  else
    EpilogueOp::create(b, loc, out, rowMax, rowSum, args.outPtr, batch, tileRow,
                       head, args.outStride, args.seqQ, args.lsePtr,
                       args.lseStride, b.getI64IntegerAttr(plan.ovDepth),
                       TypeAttr::get(plan.elementType),
                       b.getI64IntegerAttr(plan.rowGroup));
}

/// O = 0, row max = -inf, row sum = 0, P = 0. Under sinks each row starts
/// from its sink instead, in one partial of its split: partition 0's, and
/// where consumers split the keys, consumer 0's.
SmallVector<Value> HopperKernelBuilder::initialState() {
  const ConsumerState &state = consumerState;
  Value noProbs =
      TruncFOp::create(b, loc, state.probsType, splat(state.scoresType, 0.0));
  Value out = splat(state.outType, 0.0);
  if (!plan.sinks)
    return SmallVector<Value>{out, splat(rowsType(), -INFINITY),
                              splat(rowsType(), 0.0), noProbs};
  Value holds = partition ? cmp(arith::CmpIPredicate::eq, partition, i32(0))
                          : boolean(true);
  if (plan.consumersSplitKeys)
    holds = arith::AndIOp::create(
        b, loc, holds, cmp(arith::CmpIPredicate::eq, state.consumer, i32(0)));
  auto sink =
      SinkRowsOp::create(b, loc, rowsType(), rowsType(), args.sinksPtr, head,
                         holds, b.getI64IntegerAttr(plan.rowGroup));
  return SmallVector<Value>{out, sink.getMax(), sink.getSum(), noProbs};
}

//===--- a consumer's work tiles
//-------------------------------------------===//

/// With doubleQ the previous work tile's O left through its Q buffer: once
/// its store has read it, the storing thread releases that buffer for the
/// next tile's Q, which the producer loads during this one. The store may
/// still be reading here (0.2 us at d = 128, which the early Q pays back);
/// released after the K/V loop, or between two loops split after its first
/// step, the buffer cost 2.4-9% (D-37).
void HopperKernelBuilder::releasePreviousQBuffer(Value workDone) {
  auto ifReleases = scf::IfOp::create(
      b, loc,
      arith::AndIOp::create(b, loc,
                            cmp(arith::CmpIPredicate::sgt, workDone, i32(0)),
                            isFirstThread()),
      false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifReleases.thenBlock());
  TmaStoreWaitOp::create(b, loc);
  MBarrierArriveOp::create(b, loc,
                           qEmptyBarrier(consumerState.qTileIndex,
                                         qBufferOf(sub(workDone, i32(1)))));
}

/// A consumer whose rows all lie past Sq (the last row block of a head where
/// BM does not divide Sq: 64 or 128 of a 192-row tile at Sq = 4096 or 8192)
/// only keeps the barriers' counts: it takes its turns and releases each K/V
/// tile and its Q without a GEMM, so the others have the tensor cores to
/// themselves. Returns the branch whose else block does the work.
scf::IfOp HopperKernelBuilder::skipIfIdle(const StepWork &work, Value workDone,
                                          Value myTiles) {
  auto ifIdle = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::sge, work.tileRow, args.seqQ),
      /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifIdle.thenBlock());
  waitQ(workDone);
  keepTurns(work.ringBase, i32(0), myTiles);
  MBarrierArriveOp::create(b, loc, qEmptyBarrier(consumerState.qTileIndex));
  b.setInsertionPointToStart(ifIdle.elseBlock());
  return ifIdle;
}

/// The consumer's work tiles, one or a loop of them (beginWork): Q in, the
/// steps over the K/V tiles, the last P V, then O out.
void HopperKernelBuilder::buildConsumerWork() {
  ConsumerState &state = consumerState;
  Value roleStart = trace ? traceStamp() : Value();
  WorkScope work = beginWork();
  if (doubleQ) {
    state.qBuffer = qBufferOf(work.workDone);
    state.qTile = qTileIn(state.qTileIndex, state.qBuffer);
  }
  StepWork current{work.kvTiles, firstTile, tileRowOf(blockRow)};
  Value myTiles = myTilesOf(numTiles);
  scf::IfOp ifIdle;
  if (idleConsumersSkip())
    ifIdle = skipIfIdle(current, work.workDone, myTiles);
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
  // Where the mask ends keys at a diagonal, this consumer's rows may end a
  // K/V tile (or more) before the work tile's last rows do: at BN = 80 the
  // first 64 rows of most 128-row causal blocks see one tile fewer. It runs
  // GEMMs only on its own tiles and keeps its turns for the rest.
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
  if (doubleQ)
    releasePreviousQBuffer(work.workDone);
  stamp();
  scf::ForOp loop = emitSteps(firstLoopStep, ownTiles, initial, current);
  stamp();
  // Q is dead once the loop has waited for its last QK^T: the producer may
  // load the next work tile's Q under this tile's last P V and epilogue.
  // (With doubleQ it is already loading; this tile's O is staged here.)
  if (!doubleQ)
    MBarrierArriveOp::create(b, loc, qEmptyBarrier(state.qTileIndex));
  Value out =
      emitLastPV(loop.getResult(0), loop.getResult(3), ownTiles, current);
  // After the last P V, which releases this consumer's last V slot: with two
  // stages the producer refills it only then, and a trailing turn may wait
  // for that tile. Before the epilogue, so the other consumers' turns do not
  // wait for it.
  if (trimsTrailingTiles())
    keepTurns(current.ringBase, ownTiles, myTiles);
  stamp();
  writeO(out, loop.getResult(1), loop.getResult(2), batch, head,
         current.tileRow);
  stamp();
  if (trace) {
    stamps.push_back(roleStart);
    writeTrace(state.consumer, stamps, current.tileRow);
  }
  if (ifIdle)
    b.setInsertionPointAfter(ifIdle);
  endWork(work);
  // The last box's store must have read shared memory before the CTA exits.
  if (storeOByBoxes || doubleQ) {
    auto ifFirst = firstThreadOf();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    TmaStoreWaitOp::create(b, loc);
  }
}

/// The consumer's warpgroup meets (named barrier 4 + consumer), then a
/// branch for its first thread: the one that issues what the warpgroup
/// staged or stamped.
scf::IfOp HopperKernelBuilder::meetThenFirstThread(Value consumer) {
  meetWarpgroup(consumer);
  return firstThreadOf();
}

/// Consumer c stages O / sum at `base + c * stride` (the op takes a constant
/// offset: one branch per consumer): the whole tile, or only `box`.
void HopperKernelBuilder::stageByConsumer(Value consumer, Value out,
                                          Value rowSum, int64_t base,
                                          int64_t stride,
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
scf::IfOp HopperKernelBuilder::firstThreadOf() {
  return scf::IfOp::create(b, loc, isFirstThread(), false);
}

/// Whether this is the first thread of its warpgroup.
Value HopperKernelBuilder::isFirstThread() {
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
void HopperKernelBuilder::epilogueStamp() {
  if (trace)
    epilogueStamps.push_back(traceStamp());
}

/// The `trace` option's clock: globaltimer (ns), its low 32 bits.
Value HopperKernelBuilder::traceStamp() {
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
void HopperKernelBuilder::writeTrace(Value consumer, ArrayRef<Value> stamps,
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
void HopperKernelBuilder::storeO(Value consumer, Value out, Value rowMax,
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
void HopperKernelBuilder::storeLse(Value rowMax, Value rowSum, Value batch,
                                   Value head, Value tileRow) {
  if (plan.hasLse)
    LseStoreOp::create(b, loc, rowMax, rowSum, args.lsePtr, batch, tileRow,
                       head, args.lseStride, args.seqQ);
}

/// TMA stores of every 64-column box of a consumer's O tile staged at
/// `staging` (boxes kConsumerBoxBytes apart), by the calling thread.
void HopperKernelBuilder::storeOBoxes(Value staging, Value batch, Value head,
                                      Value tileRow) {
  for (int64_t box = 0; box < plan.ovBoxes; ++box)
    storeOBox(box, add(staging, i32(box * kConsumerBoxBytes)), batch, head,
              tileRow);
}

/// The TMA store of 64-column box `box` of a consumer's O tile, staged at
/// `source`.
void HopperKernelBuilder::storeOBox(int64_t box, Value source, Value batch,
                                    Value head, Value tileRow) {
  TmaStoreOp::create(b, loc, args.oMap,
                     ValueRange{i32(box * kBoxColumns), head, tileRow, batch},
                     source, /*l2Eviction=*/nullptr);
}

/// O of a looped kernel, whose Q region holds the next work tile's Q: one
/// 64-column box at a time through the consumer's own box of shared memory
/// past the plan (`loopStagingOffset`). Before staging a box, the thread
/// that stores waits for its last store to have read the box (the previous
/// box, or the previous work tile's last one), and the warpgroup meets; the
/// last box is left in flight, waited for by the next work tile's first box
/// or by the CTA's exit (buildConsumer).
void HopperKernelBuilder::storeOByBox(Value consumer, Value out, Value rowMax,
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
void HopperKernelBuilder::storeOOverQ(Value consumer, Value out, Value rowMax,
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
void HopperKernelBuilder::writeWorkspacePartial(Value consumer, Value out,
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
void HopperKernelBuilder::stagePartial(Value consumer, Value out, Value rowMax,
                                       Value rowSum) {
  // The staging slots alias Q and the K/V rings: a consumer done with its
  // tiles waits for the other to finish reading them.
  if (plan.consumersSplitKeys)
    syncNamedBarrier(i32(kConsumersDoneBarrier), i32(2 * kWarpgroupThreads));
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
