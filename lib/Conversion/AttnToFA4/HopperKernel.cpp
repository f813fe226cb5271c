//===- HopperKernel.cpp - The sm_90a kernel: the FA3 structure -----------===//
//
// The producer, the work loop and the kernel of the FA3 structure
// (HopperKernel.h), and buildHopperKernel: the kernel, its looped twin and
// its split-K combine for one attn.attention.
//
//===----------------------------------------------------------------------===//

#include "HopperKernel.h"
#include "Kernels.h"
#include "fa4/Planning/SmemPlan.h"

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;
using namespace fa4::hopper;

WarpgroupRegisters
HopperKernelBuilder::warpgroupRegisters(const HopperPlan &plan,
                                        const HopperKernelOptions &schedule,
                                        bool persistent) {
  WarpgroupRegisters registers = hopperWarpgroupRegisters(plan.numConsumers);
  // A paged cache's producer threads compute the addresses of the rows they
  // copy (copyPagedTile): 24 registers spilled up to 176 B (D-58), 40 up to
  // 28 B once only the first thread waits for the TMA tiles' slots (D-59).
  bool pagedCopies = plan.form == ServingForm::Paged;
  if (!pagedCopies && (!persistent || plan.decode || plan.numConsumers != 2 ||
                       plan.paddedOv > 128))
    return registers;
  // The pool the launch gave the CTA, shared out again in setmaxnreg's
  // multiples of 8.
  int64_t pool = registers.producer + plan.numConsumers * registers.consumer;
  int64_t producer =
      pagedCopies ? std::max<int64_t>(schedule.loopProducerRegisters,
                                      kPagedProducerRegisters)
                  : schedule.loopProducerRegisters;
  int64_t consumer = (pool - producer) / plan.numConsumers / 8 * 8;
  return {static_cast<int>(producer), static_cast<int>(consumer)};
}

void HopperKernelBuilder::waitForSlot(Value emptyBarrierOfSlot, Value ringTile,
                                      Value stages) {
  auto ifReuse = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::uge, ringTile, stages), false);
  OpBuilder::InsertionGuard reuseGuard(b);
  b.setInsertionPointToStart(ifReuse.thenBlock());
  Value round = divu(ringTile, stages);
  waitBarrier(emptyBarrierOfSlot,
              arith::AndIOp::create(b, loc, sub(round, i32(1)), i32(1)));
}

void HopperKernelBuilder::loadKvTile(Value tilesLoaded, Value stages,
                                     Value tile, bool isKey) {
  Value ringTile = add(tilesLoaded, tile);
  Value slot = remu(ringTile, stages);
  auto fullBarrier = [&] {
    return isKey ? kFullBarrier(slot) : vFullBarrier(slot);
  };
  OpBuilder::InsertionGuard copiedGuard(b);
  if (copiesFirstTiles()) {
    // Past the tiles copyFirstTiles copied and arrived for.
    auto ifLoaded = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::uge, ringTile, i32(copiedTiles())),
        false);
    b.setInsertionPointToStart(ifLoaded.thenBlock());
  }
  auto waitSlot = [&] {
    waitForSlot(isKey ? kEmptyBarrier(slot) : vEmptyBarrier(slot), ringTile,
                stages);
  };
  // A paged tile waits where it is loaded (loadPagedTile).
  if (plan.form != ServingForm::Paged)
    waitSlot();
  Value keyRow = keyRowOf(mul(add(firstTile, tile), i32(plan.bn)));
  Value full = fullBarrier();
  int64_t boxes = isKey ? plan.qkBoxes : plan.ovBoxes;
  // The whole tile's bytes, with kvMulticast half of them the peer's (a
  // paged tile's: loadPagedTile).
  if (plan.form != ServingForm::Paged)
    expectBytes(full, boxes * plan.kBoxBytes());
  Value slotOffset =
      isKey ? add(i32(plan.kRingOffset), mul(slot, i32(plan.kStageBytes)))
            : add(i32(plan.vRingOffset), mul(slot, i32(plan.vStageBytes)));
  if (plan.form == ServingForm::Paged) {
    loadPagedTile(isKey, slotOffset, keyRow, boxes, full, waitSlot);
    return;
  }
  // Varlen: a packed tensor's 3D box, no batch coordinate.
  Value kvBatch = plan.form == ServingForm::Varlen ? Value() : batch;
  for (int64_t box = 0; box < boxes; ++box) {
    auto load = [&](int64_t multicastMask) {
      tmaLoad(isKey ? args.kMap : args.vMap,
              add(slotOffset, i32(box * plan.kBoxBytes())),
              i32(box * kBoxColumns), kvHead, keyRow, kvBatch, full,
              multicastMask);
    };
    if (!kvMulticast) {
      load(0);
      continue;
    }
    // Box b comes from rank b % 2 into both CTAs of the pair.
    auto ifMine = scf::IfOp::create(
        b, loc,
        cmp(arith::CmpIPredicate::eq, pairRank, i32(box % kKvMulticastCtas)),
        false);
    OpBuilder::InsertionGuard mineGuard(b);
    b.setInsertionPointToStart(ifMine.thenBlock());
    load((1 << kKvMulticastCtas) - 1);
  }
}

/// A paged K or V tile of BN keys from `firstKey`: each of its row groups'
/// depth boxes from its page, at its rows of the slot, by TMA where the
/// plan nests boxes in pages and the tile ends at or before the sequence's
/// last key. Otherwise the producer's threads copy it (copyPagedTile): TMA
/// would read the last page's rows past that key, which may hold anything
/// (a stale or unset cache row: NaN times a zero probability is NaN in
/// P V; D-58). `waitSlot` waits for the tile's ring slot. Where every tile
/// is copied, every thread waits: the copies' named barrier keeps them
/// within a tile of each other. Otherwise only the first thread, which
/// loads the TMA tiles, waits, and the others meet it at that barrier
/// before a copy: a thread that waited on every slot could fall two
/// phases behind the first on one, where its parity reads the phase in
/// flight as the one it waits for, and hang (fa4-emu, pct:3 seed 5, a
/// looped kernel).
void HopperKernelBuilder::loadPagedTile(bool isKey, Value slotOffset,
                                        Value firstKey, int64_t boxes,
                                        Value full,
                                        function_ref<void()> waitSlot) {
  auto copy = [&] { copyPagedTile(isKey, slotOffset, firstKey, boxes, full); };
  if (!plan.pagesHoldBoxes) {
    waitSlot();
    return copy();
  }
  asProducerLeader(waitSlot);
  Value whole =
      cmp(arith::CmpIPredicate::sle, add(firstKey, i32(plan.bn)), args.seqKV);
  auto ifWhole = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifWhole.thenBlock());
  asProducerLeader([&] {
    expectBytes(full, boxes * plan.kBoxBytes());
    ServingSpans(b, loc, plan, launchArgs)
        .forEachPageGroup(
            batch, args.seqKV, firstKey, [&](const PageGroup &group) {
              for (int64_t box = 0; box < boxes; ++box)
                tmaLoad(isKey ? args.kMap : args.vMap,
                        add(slotOffset,
                            i32(box * plan.kBoxBytes() + group.slotBytes)),
                        i32(box * kBoxColumns), kvHead, group.row, group.page,
                        full);
            });
  });
  b.setInsertionPointToStart(ifWhole.elseBlock());
  syncNamedBarrier(i32(kPagedTileCopiedBarrier), i32(kWarpgroupThreads));
  copy();
}

/// A paged K or V tile copied by the producer's 128 threads
/// (ServingSpans::copyPagedTile), fenced for wgmma by each writer before
/// the first thread arrives on the tile's full barrier (one arrival, as
/// TMA's).
void HopperKernelBuilder::copyPagedTile(bool isKey, Value slotOffset,
                                        Value firstKey, int64_t boxes,
                                        Value full) {
  ServingSpans(b, loc, plan, launchArgs)
      .copyPagedTile(batch, args.seqKV, firstKey, isKey ? args.kPtr : args.vPtr,
                     isKey ? args.kStride : args.vStride, kvHead,
                     isKey ? plan.qkDepth : plan.ovDepth, boxes,
                     plan.kBoxBytes(), slotOffset, producerThread,
                     kWarpgroupThreads);
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  // Where every tile is copied, buildProducer completes each tile once the
  // next one's copies are issued.
  if (!plan.copiesEveryKvTile())
    completeCopies(full, /*newerGroups=*/0);
}

/// The copies issued before the `newerGroups` latest commit groups have
/// landed: each thread fences its own for wgmma, then, once all have,
/// the first thread arrives on `full`.
void HopperKernelBuilder::completeCopies(Value full, int64_t newerGroups) {
  NVVM::CpAsyncWaitGroupOp::create(b, loc, newerGroups);
  fenceAsyncProxy();
  syncNamedBarrier(i32(kPagedTileCopiedBarrier), i32(kWarpgroupThreads));
  asProducerLeader([&] { MBarrierArriveOp::create(b, loc, full); });
}

void HopperKernelBuilder::asProducerLeader(function_ref<void()> body) {
  if (!producerWarpgroupLoads())
    return body();
  auto ifLeader = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::eq, producerThread, i32(0)), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLeader.thenBlock());
  body();
}

void HopperKernelBuilder::loadQTiles(Value index) {
  Value buffer = qBufferOf(index);
  for (int64_t qTile = 0; qTile < plan.qTiles(); ++qTile) {
    // Where the producer's warpgroup runs the loop only the thread that
    // loads Q waits for its buffer (loadPagedTile says why).
    asProducerLeader([&] {
      auto ifReuseQ = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::sgt, index, i32(qBuffers() - 1)),
          false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifReuseQ.thenBlock());
      Value previous = sub(index, i32(qBuffers()));
      waitBarrier(qEmptyBarrier(i32(qTile), buffer), qPhaseOf(previous));
    });
    // With fused GQA a box is (query rows) x (the group's heads): TMA
    // writes it head-minor, which is the tile's row order.
    Value qBarrier = qFullBarrier(i32(qTile), buffer);
    // The consumers copied it and arrived (copyFirstTiles).
    if (copiesFirstTiles())
      continue;
    asProducerLeader([&] {
      expectBytes(qBarrier, plan.qkBoxes * plan.qBoxRows() * kSwizzleBytes);
      Value tileOffset = qTileOffset(i32(qTile), buffer);
      for (int64_t box = 0; box < plan.qkBoxes; ++box)
        tmaLoad(args.qMap, add(tileOffset, i32(box * kConsumerBoxBytes)),
                i32(box * kBoxColumns), head,
                queryRowOf(add(blockRow, i32(qTile * plan.queryRowsPerTile()))),
                plan.packedQueries ? Value() : batch, qBarrier);
    });
  }
}

void HopperKernelBuilder::buildProducer() {
  WorkScope work = beginWork();
  Value workDone = work.workDone, tilesLoaded = work.kvTiles;

  // K and V tiles through their rings. A K slot is reused once its readers
  // (both consumers, or the one whose turn it was) have finished the QK^T,
  // a V slot once they finished the P V, one tile later. K runs one tile
  // ahead of V (FA3's order), so the next K load never queues behind a V
  // slot still held by a pending P V.
  Value stages = i32(plan.kvStages);
  auto loadTile = [&](Value tile, bool isKey) {
    loadKvTile(tilesLoaded, stages, tile, isKey);
  };
  // Where every tile is copied (D-58), a tile's copies are completed once
  // the next tile's are issued, keeping two tiles' copies in flight: the
  // load before K(t) is V(t - 2), or K(0) for t = 1; the load before
  // V(t - 1) is K(t).
  bool pipelined = plan.copiesEveryKvTile();
  auto fullOf = [&](Value tile, bool isKey) {
    Value slot = remu(add(tilesLoaded, tile), stages);
    return isKey ? kFullBarrier(slot) : vFullBarrier(slot);
  };
  auto completeBefore = [&](Value tile) {
    if (!pipelined)
      return;
    Value first = cmp(arith::CmpIPredicate::eq, tile, i32(1));
    Value keyIndex = add(i32(kvBarrierBase()), remu(tilesLoaded, stages));
    Value valueIndex = add(i32(kvBarrierBase() + plan.kvStages),
                           remu(add(tilesLoaded, sub(tile, i32(2))), stages));
    completeCopies(barrier(select(first, keyIndex, valueIndex)),
                   /*newerGroups=*/1);
  };
  Value anyTiles = cmp(arith::CmpIPredicate::sgt, numTiles, i32(0));
  {
    auto ifFirst = scf::IfOp::create(b, loc, anyTiles, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    loadTile(i32(0), /*isKey=*/true);
  }
  // The first K tile goes before Q: its slot frees while the consumers still
  // read the previous Q, so a persistent CTA's next tile does not wait for
  // the Q release to start loading K. With doubleQ only the CTA's first Q
  // loads here; each later one loads under the work tile before it (below).
  if (doubleQ) {
    auto ifFirstWork = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, workDone, i32(0)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirstWork.thenBlock());
    loadQTiles(i32(0));
  } else {
    loadQTiles(workDone);
  }

  auto loop = scf::ForOp::create(b, loc, toIndex(i32(1)), toIndex(numTiles),
                                 toIndex(i32(1)));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value tile = fromIndex(loop.getInductionVar());
    loadTile(tile, /*isKey=*/true);
    completeBefore(tile);
    loadTile(sub(tile, i32(1)), /*isKey=*/false);
    if (pipelined)
      completeCopies(fullOf(tile, /*isKey=*/true), /*newerGroups=*/1);
  }
  {
    auto ifLast = scf::IfOp::create(b, loc, anyTiles, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    Value last = sub(numTiles, i32(1));
    loadTile(last, /*isKey=*/false);
    if (pipelined) {
      completeBefore(numTiles);
      completeCopies(fullOf(last, /*isKey=*/false), /*newerGroups=*/0);
    }
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
    loadQTiles(next);
    setWork(current);
  }
  endWork(work);
}

void HopperKernelBuilder::decodeWorkWalk() {
  // CTA i takes work tiles i, i + grid, i + 2 * grid, ... (persistent), or
  // work tile i alone; with kvMulticast the pair (cluster) i / 2 takes work
  // item i / 2, two row blocks.
  int64_t ctasPerItem = ctasPerWorkItem(kvMulticast);
  Value rowsPerItem = i32(ctasPerItem * plan.rowsPerWorkItem());
  Value rowItems = divu(add(args.seqQ, sub(rowsPerItem, i32(1))), rowsPerItem);
  numWork = mul(rowItems, mul(i32(plan.workHeads()), args.batchSize));
  firstWork = fromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  workStride = fromIndex(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
  if (kvMulticast) {
    firstWork = divu(firstWork, i32(ctasPerItem));
    workStride = divu(workStride, i32(ctasPerItem));
    pairRank =
        fromIndex(gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x));
    peerRank = arith::XOrIOp::create(b, loc, pairRank, i32(1));
  }
}

// Barriers: per Q tile Q full (one arrival with its bytes) and Q empty
// (every thread that reads the tile), K/V full (one arrival with its bytes),
// slot empty (every consumer thread, after its P V is done).
void HopperKernelBuilder::initBarriers() {
  int64_t consumerThreads = plan.numConsumers * kWarpgroupThreads;
  // A K/V tile is read by every consumer, or by the one whose turn it is.
  int64_t tileReaders =
      plan.consumersSplitKeys ? kWarpgroupThreads : consumerThreads;
  // With kvMulticast a slot is refilled for both CTAs: it is empty once
  // the peer's consumers released it too (releaseSlot: the same count,
  // a warp's at once).
  int64_t slotReleases =
      kvMulticast ? kKvMulticastCtas * tileReaders : tileReaders;
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
    init(kEmptyBarrier(i32(i)), slotReleases);
  for (int64_t i = 0; i < plan.kvStages; ++i)
    init(vEmptyBarrier(i32(i)), slotReleases);
  FenceMBarrierInitOp::create(b, loc, /*cluster=*/kvMulticast);
}

void HopperKernelBuilder::buildProducerRole(WarpSpecializeOp roles) {
  OpBuilder::InsertionGuard guard(b);
  Type i32Type = b.getI32Type();
  Block *producer =
      b.createBlock(&roles.getRoles()[0], {}, {i32Type, i32Type}, {loc, loc});
  beginRole();
  Value thread = producer->getArgument(1);
  if (producerWarpgroupLoads()) {
    producerThread = thread;
    buildProducer();
  } else {
    auto ifLeader = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, thread, i32(0)), false);
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
  // kvMulticast: neither CTA of a pair exits while the other may still
  // release a slot on its barriers.
  if (kvMulticast)
    ClusterSyncOp::create(b, loc);
}

void HopperKernelBuilder::buildConsumerRole(WarpSpecializeOp roles) {
  OpBuilder::InsertionGuard guard(b);
  Type i32Type = b.getI32Type();
  Block *consumer =
      b.createBlock(&roles.getRoles()[1], {}, {i32Type, i32Type}, {loc, loc});
  beginRole();
  if (kvMulticast && !persistent)
    lane = remu(consumer->getArgument(1), i32(32));
  buildConsumer(consumer->getArgument(0));
  if (plan.clusterSplit())
    buildCombine(consumer->getArgument(0));
  if (kvMulticast)
    ClusterSyncOp::create(b, loc);
}

void HopperKernelBuilder::build(gpu::GPUFuncOp func, KernelABI &abi) {
  b.setInsertionPointToStart(&func.getBody().front());
  if (plan.form != ServingForm::Dense) {
    args = readServingArgs(b, loc, func, plan);
  } else {
    args = AttentionArgs::read(func, plan.hasLse, plan.workspace, plan.sinks);
  }
  decodeWorkWalk();
  Value tid = fromIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  // Device-built tensor maps: the CTA's last warps stage them meanwhile, in
  // the Q tile the producer loads later. Where the consumers copy the first
  // tiles (D-49) the producer's warps, idle until the roles, stage them past
  // the plan and copy them while the consumers issue their copies.
  int64_t mapWarp =
      (copiesFirstTiles() ? kWarpgroupThreads : plan.threads()) / 32 - 1;
  int64_t mapStaging =
      copiesFirstTiles() ? plan.mapStagingOffset : plan.qOffset;
  if (!copiesFirstTiles())
    args.stageTensorMaps(b, loc, plan, mapStaging, tid, mapWarp);

  auto ifInit =
      scf::IfOp::create(b, loc, cmp(arith::CmpIPredicate::eq, tid, i32(0)),
                        /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    initBarriers();
  }
  // With kvMulticast the peer's loads and releases reach this CTA's
  // barriers: the pair meets once both have initialised theirs.
  if (kvMulticast)
    ClusterSyncOp::create(b, loc);
  else
    gpu::BarrierOp::create(b, loc);
  // Past the plan no one waits for the staging but the producer's warps
  // (D-50).
  if (copiesFirstTiles())
    args.stageTensorMaps(b, loc, plan, mapStaging, tid, mapWarp);
  joinPriorGrids(b, loc, abi);
  std::optional<AttentionArgs::MapMeeting> mapMeeting;
  if (copiesFirstTiles())
    mapMeeting = {kMapsCopiedBarrier, kWarpgroupThreads};
  args.publishTensorMaps(
      b, loc, mapStaging, tid, mapWarp,
      [&] {
        if (copiesFirstTiles())
          copyFirstTiles(tid);
      },
      mapMeeting);

  launchArgs = args;
  WarpgroupRegisters registers = warpgroupRegisters(plan, schedule, persistent);
  auto roles = WarpSpecializeOp::create(
      b, loc, b.getDenseI64ArrayAttr({1, plan.numConsumers}),
      b.getDenseI64ArrayAttr({registers.producer, registers.consumer}),
      /*rolesCount=*/2);
  buildProducerRole(roles);
  buildConsumerRole(roles);
  gpu::ReturnOp::create(b, loc);
  placeTensorMapAcquires(func);
}

/// D-49, D-50. Each consumer thread copies its share of Q, then the
/// consumer that reads ring tile t < copiedTiles() (split keys: t % 2)
/// copies its K and V boxes, each held open on its full barrier until they
/// land; Q is waited for and fenced before the consumers meet (both read
/// it), a K/V tile by its reader after its full barrier (fenceCopiedTile).
/// After griddepcontrol.wait: the tensors may be the grid before's output.
void HopperKernelBuilder::copyFirstTiles(Value tid) {
  auto ifConsumer = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::uge, tid, i32(kWarpgroupThreads)),
      false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifConsumer.thenBlock());
  decodeSplitWork();
  Value consumerThread = sub(tid, i32(kWarpgroupThreads));
  Value consumer = divu(consumerThread, i32(kWarpgroupThreads));
  Value groupThread = remu(consumerThread, i32(kWarpgroupThreads));
  copyQTile(consumerThread);
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  for (int64_t tile = 0; tile < copiedTiles(); ++tile) {
    int64_t reader = plan.consumersSplitKeys ? tile % 2 : 0;
    Value mine = arith::AndIOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(reader)),
        cmp(arith::CmpIPredicate::slt, i32(tile), numTiles));
    auto ifMine = scf::IfOp::create(b, loc, mine, false);
    OpBuilder::InsertionGuard tileGuard(b);
    b.setInsertionPointToStart(ifMine.thenBlock());
    Value keyRow = mul(add(firstTile, i32(tile)), i32(plan.bn));
    Value rows = maxs(sub(args.seqKV, keyRow), i32(0));
    copyTileBoxes(elementAt(args.kPtr, args.kStride, keyRow, kvHead), rows,
                  inBytes(args.kStride[1]), plan.qkBoxes, plan.qkDepth,
                  i32(plan.kRingOffset + tile * plan.kStageBytes), groupThread);
    CopyAsyncArriveOp::create(b, loc, kFullBarrier(i32(tile)));
    copyTileBoxes(elementAt(args.vPtr, args.vStride, keyRow, kvHead), rows,
                  inBytes(args.vStride[1]), plan.ovBoxes, plan.ovDepth,
                  i32(plan.vRingOffset + tile * plan.vStageBytes), groupThread);
    CopyAsyncArriveOp::create(b, loc, vFullBarrier(i32(tile)));
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  // Q's group is the older one.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 1);
  fenceAsyncProxy();
  arriveForCopies(consumerThread);
  // The work tile's values live in this branch only: each role computes
  // its own (beginWork).
  setWork(WorkTile());
}

/// D-50: once every consumer thread fenced its share of Q and registered
/// its K/V copies on their full barriers, the first consumer thread gives
/// each of those barriers the one arrival it waits for besides the copies
/// (the producer's, where TMA loads the tile), so that no consumer waits
/// for the maps.
void HopperKernelBuilder::arriveForCopies(Value consumerThread) {
  syncNamedBarrier(i32(kFirstTilesCopiedBarrier),
                   i32(plan.numConsumers * kWarpgroupThreads));
  auto ifFirst = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::eq, consumerThread, i32(0)), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  for (int64_t qTile = 0; qTile < plan.qTiles(); ++qTile)
    MBarrierArriveOp::create(b, loc, qFullBarrier(i32(qTile), Value()));
  for (int64_t tile = 0; tile < copiedTiles(); ++tile) {
    auto ifTile = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::slt, i32(tile), numTiles), false);
    OpBuilder::InsertionGuard tileGuard(b);
    b.setInsertionPointToStart(ifTile.thenBlock());
    MBarrierArriveOp::create(b, loc, kFullBarrier(i32(tile)));
    MBarrierArriveOp::create(b, loc, vFullBarrier(i32(tile)));
  }
}

/// Q: the work tile's query rows, each the group's heads (head minor, as
/// TMA writes a fused-GQA box), by all consumers' threads.
void HopperKernelBuilder::copyQTile(Value consumerThread) {
  Value base = elementAt(args.qPtr, args.qStride, blockRow, head);
  for (int64_t box = 0; box < plan.qkBoxes; ++box)
    CopyAsyncBoxOp::create(
        b, loc, offsetBytes(base, box * kSwizzleBytes),
        maxs(sub(args.seqQ, blockRow), i32(0)), inBytes(args.qStride[1]),
        inBytes(args.qStride[2]),
        add(qTileOffset(i32(0), Value()), i32(box * kConsumerBoxBytes)),
        consumerThread, plan.qBoxRows(), plan.rowGroup,
        chunksInBox(plan.qkDepth, box), plan.numConsumers * kWarpgroupThreads);
}

/// One K or V tile's boxes (`bn` keys of one head), by one consumer's
/// threads.
void HopperKernelBuilder::copyTileBoxes(Value base, Value rows, Value rowStride,
                                        int64_t boxes, int64_t depth,
                                        Value destination, Value thread) {
  for (int64_t box = 0; box < boxes; ++box)
    CopyAsyncBoxOp::create(
        b, loc, offsetBytes(base, box * kSwizzleBytes), rows, rowStride, i64(0),
        add(destination, i32(box * plan.kBoxBytes())), thread, plan.bn,
        /*group=*/1, chunksInBox(depth, box), kWarpgroupThreads);
}

/// The 16-byte chunks of box `box` (64 columns) within `depth` columns.
int64_t HopperKernelBuilder::chunksInBox(int64_t depth, int64_t box) const {
  return fa4::chunksInBox(depth, box, plan.elementBytes());
}

/// Element (batch, `row`, `headIndex`, 0) of the BSHD tensor at `base`.
Value HopperKernelBuilder::elementAt(Value base, ArrayRef<Value> strides,
                                     Value row, Value headIndex) {
  Value offset =
      add(add(mul(sext(batch), strides[0]), mul(sext(row), strides[1])),
          mul(sext(headIndex), strides[2]));
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{inBytes(offset)});
}

/// The cluster reduce-scatter (the seed's fa4_splitk_reduce_scatter_write),
/// run by the consumer warpgroups after they staged their partials: every
/// thread of every CTA meets once all partials are staged, consumer 0
/// combines and stores this CTA's band, and a second meeting keeps each
/// CTA's shared memory alive until its peers have read it.
void HopperKernelBuilder::buildCombine(Value consumer) {
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
static int64_t persistentUpToSeqKV(attn::PlannedAttentionOpInterface op,
                                   const HopperPlan &plan,
                                   const HopperPlan &twinPlan,
                                   const HopperKernelOptions &options) {
  // Packed sequences' prefill: persistent CTAs over the longest sequence's
  // grid, skipping each sequence's row blocks past its rows (D-59); one
  // work tile per CTA where persistent-max-seq-kv says never. A paged
  // cache's prefill keeps one work tile per CTA: looped, its producer's
  // page copies spilled 112-144 B at 40 registers and 4-8 B at 64.
  auto dense = dyn_cast<attn::AttentionOp>(op.getOperation());
  if (!dense)
    return plan.form == ServingForm::Varlen && !plan.decode &&
                   options.persistentMaxSeqKV != 0
               ? kAlwaysPersistent
               : 0;
  if (plan.decode)
    return options.persistentDecode && plan.decodeCanPersist()
               ? kAlwaysPersistent
               : 0;
  if (options.persistent)
    return kAlwaysPersistent;
  int64_t maxSeqKV = options.persistentMaxSeqKV;
  if (maxSeqKV == kPlannersPersistentBound) {
    // Under a causal mask at Dv > 64, a twin that writes O from
    // registers loses to the plain kernel's TMA store (D-4).
    bool causalPlainWins =
        HopperKernelBuilder::storesOByTma(plan, /*persistent=*/false,
                                          options.tmaStoreO) &&
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
  int64_t seqKV = dense.getKeyType().getDimSize(1);
  if (maxSeqKV == 0 || ShapedType::isDynamic(seqKV))
    return maxSeqKV;
  return seqKV > maxSeqKV ? 0 : kAlwaysPersistent;
}

/// The parameters of the plan's form, in ABI order (docs/KernelABI.md).
/// With fused GQA a Q box holds the query rows of the group's heads; a
/// kernel that stores O by TMA takes O's tensor map last.
static SmallVector<KernelParam> formParams(const HopperPlan &plan,
                                           bool storeOByTma, bool deviceMaps) {
  if (plan.form != ServingForm::Dense)
    return servingAttentionParams(
        plan.servingLayout(),
        plan.packedQueries ? packedTmaBox(plan.queryRowsPerTile())
                           : tmaBox(plan.queryRowsPerTile(), plan.rowGroup),
        plan.form == ServingForm::Paged ? tmaBox(plan.kvBoxRows)
                                        : packedTmaBox(plan.bn));
  return attentionParams(
      tmaBox(plan.queryRowsPerTile(), plan.rowGroup), tmaBox(plan.bn),
      tmaBox(plan.bn), plan.hasLse, plan.workspace,
      storeOByTma ? std::optional(tmaBox(kRowsPerConsumer)) : std::nullopt,
      deviceMaps);
}

/// The kernel's parameters: its form's, and the sinks' pointer after O's
/// and LSE's where the op has sinks.
static SmallVector<KernelParam> abiParams(const HopperPlan &plan,
                                          bool storeOByTma, bool deviceMaps) {
  SmallVector<KernelParam> params = formParams(plan, storeOByTma, deviceMaps);
  if (plan.sinks)
    addSinksParam(params);
  return params;
}

namespace {
/// The kernel's plan, and the looped twin's own plan where attn-select-config
/// gave it one (twin_config).
struct HopperPlans {
  HopperPlan kernel;
  std::optional<HopperPlan> ownTwin;
  HopperPlan &twin() { return ownTwin ? *ownTwin : kernel; }
};
} // namespace

static FailureOr<HopperPlans> readPlans(attn::PlannedAttentionOpInterface op) {
  FailureOr<HopperPlan> plan =
      readPlan(op, op.getConfigAttr(), op.getSmemAttr(), op.getSwizzleAttr());
  if (failed(plan))
    return failure();
  HopperPlans plans{*plan, std::nullopt};
  attn::ConfigAttr twinConfig = op.getTwinConfigAttr();
  if (!twinConfig)
    return plans;
  if (!op.getTwinSmemAttr() || !op.getTwinSwizzleAttr())
    return op->emitOpError()
           << "has a twin_config without twin_smem and "
              "twin_swizzle; run attn-plan-pipeline{chip=sm_90a}";
  FailureOr<HopperPlan> twinPlan =
      readPlan(op, twinConfig, op.getTwinSmemAttr(), op.getTwinSwizzleAttr());
  if (failed(twinPlan))
    return failure();
  plans.ownTwin = *twinPlan;
  return plans;
}

/// D-49: a one-shot decode with device-built maps stages them past its
/// plan, where shared memory has room, and copies its first tiles itself.
static void stageMapsPastPlan(HopperPlan &plan,
                              const HopperKernelOptions &options,
                              bool kernelLoops, bool kvMulticast) {
  int64_t chunkElements = 16 / plan.elementBytes();
  if (options.deviceTensorMaps && plan.decode && !kernelLoops && !kvMulticast &&
      plan.qkDepth % chunkElements == 0 && plan.ovDepth % chunkElements == 0)
    if (std::optional<int64_t> offset = pastPlanOffset(
            plan.dynamicSmemBytes(), HopperPlan::kDecodeTensorMapBytes,
            getTargetInfo(Chip::SM90a)))
      plan.mapStagingOffset = *offset;
}

namespace {
/// The looped twin built beside the kernel: its name, its own launch where
/// it differs from the kernel's, and whether it stores O by TMA.
struct HopperTwin {
  std::string name;
  std::optional<KernelLaunch> launch;
  bool storesOByTma = false;
};
} // namespace

/// Builds the looped twin of kernel `name` (whose ABI is `abi`) in
/// `kernels`: its own launch where its plan differs or it runs in pairs.
static HopperTwin buildLoopedTwin(OpBuilder &b, Location loc,
                                  gpu::GPUModuleOp kernels, StringRef name,
                                  const KernelABI &abi, HopperPlans &plans,
                                  const HopperKernelOptions &options,
                                  bool kvMulticast, bool twinPairs) {
  HopperPlan &twinPlan = plans.twin();
  HopperTwin twin;
  twin.name = (name + "_persistent").str();
  KernelABI twinAbi = abi;
  twin.storesOByTma = twinPlan.loopStagingOffset >= 0;
  if (plans.ownTwin || kvMulticast || twinPairs) {
    twin.launch.emplace();
    twin.launch->params =
        abiParams(twinPlan, twin.storesOByTma, options.deviceTensorMaps);
    twin.launch->cluster[0] = HopperKernelBuilder::ctasPerWorkItem(twinPairs);
    twin.launch->grid = twinPlan.workListGrid(twin.launch->cluster[0]);
    twin.launch->block[0] = twinPlan.threads();
    twin.launch->dynamicSmemBytes = twinPlan.dynamicSmemBytes();
  }
  b.setInsertionPointToEnd(kernels.getBody());
  auto twinFunc = createKernelFunc(
      b, loc, twin.name, twin.launch ? twin.launch->params : abi.params,
      twin.launch ? twin.launch->block[0] : plans.kernel.threads());
  HopperKernelBuilder(b, loc, twinPlan, options, /*persistent=*/true,
                      /*shortestSeqKV=*/1)
      .build(twinFunc, twinAbi);
  return twin;
}

std::optional<std::string>
fa4::hopperKernelRefusal(attn::PlannedAttentionOpInterface op,
                         bool deviceTensorMaps) {
  FailureOr<HopperPlans> plans = failure();
  if (std::optional<std::string> why = firstErrorOf(op->getContext(), [&] {
        plans = readPlans(op);
        return LogicalResult(plans);
      }))
    return why;
  return servingPlanRefusal(plans->kernel, deviceTensorMaps);
}

static LogicalResult buildHopperKernel(ModuleOp module,
                                       attn::PlannedAttentionOpInterface op,
                                       const HopperKernelOptions &options) {
  const HopperKernelOptions &schedule = options;
  OpBuilder b(module.getContext());
  FailureOr<HopperPlans> plans = readPlans(op);
  if (failed(plans))
    return failure();
  if (std::optional<std::string> why =
          servingPlanRefusal(plans->kernel, options.deviceTensorMaps))
    return op->emitOpError() << "has no Hopper kernel for " << *why;
  HopperPlan *plan = &plans->kernel;
  std::optional<HopperPlan> &ownTwinPlan = plans->ownTwin;
  auto [kernels, name] = createKernelModule(module, op, "fa4_hopper", "sm_90a");
  Location loc = op->getLoc();
  b.setInsertionPointToEnd(kernels.getBody());

  KernelABI abi;
  HopperPlan &twinPlan = plans->twin();
  int64_t maxSeqKV = persistentUpToSeqKV(op, *plan, twinPlan, options);
  // Persistent up to a bound: at 8192 keys and past them the looped twin
  // measured -2 to +2% against this kernel at d = 128 (D-12), so it runs
  // only up to the bound and this kernel,
  // without the loop, above it. Persistent at every Skv: one kernel,
  // looped.
  bool twin = maxSeqKV > 0 && maxSeqKV != kAlwaysPersistent;
  // The looped kernel's box-by-box store of O (storeOByBoxes) takes its
  // own shared memory: only where a looped kernel is built from the plan.
  if (maxSeqKV == 0 || !schedule.tmaStoreO || (twin && ownTwinPlan))
    plan->loopStagingOffset = -1;
  if (ownTwinPlan && (!twin || !schedule.tmaStoreO))
    ownTwinPlan->loopStagingOffset = -1;
  bool storeOByTma = HopperKernelBuilder::storesOByTma(
                         *plan, /*persistent=*/maxSeqKV == kAlwaysPersistent,
                         schedule.tmaStoreO) ||
                     plan->loopStagingOffset >= 0;
  abi.params = abiParams(*plan, storeOByTma, options.deviceTensorMaps);
  int64_t threads = plan->threads();
  // Pairs of CTAs sharing K/V tiles (kv-multicast), in the kernel and,
  // with kv-multicast-twin (on), in its looped twin; the twin then gets a
  // launch of its own either way. Causal pairs want long rows: the fewest
  // keys a launch of each can have, a static Skv, else past the twin's
  // bound for the kernel beside a twin, else one.
  bool kernelLoops = maxSeqKV > 0 && !twin;
  auto dense = dyn_cast<attn::AttentionOp>(op.getOperation());
  int64_t kernelShortestSeqKV =
      dense ? dense.getKeyType().getDimSize(1) : ShapedType::kDynamic;
  if (ShapedType::isDynamic(kernelShortestSeqKV))
    kernelShortestSeqKV = twin ? maxSeqKV + 1 : 1;
  bool kvMulticast = HopperKernelBuilder::pairsCTAs(
      *plan, schedule, kernelLoops, kernelShortestSeqKV);
  bool twinPairs =
      twin && HopperKernelBuilder::pairsCTAs(twinPlan, schedule, true,
                                             /*shortestSeqKV=*/1);
  stageMapsPastPlan(*plan, options, kernelLoops, kvMulticast);
  auto func = createKernelFunc(b, loc, name, abi.params, threads);
  HopperKernelBuilder(b, loc, *plan, schedule, /*persistent=*/kernelLoops,
                      kernelShortestSeqKV)
      .build(func, abi);
  HopperTwin twinKernel;
  if (twin)
    twinKernel = buildLoopedTwin(b, loc, kernels, name, abi, *plans, options,
                                 kvMulticast, twinPairs);

  // Prefill: a one-dimensional grid of work tiles, which a persistent
  // kernel may run on fewer CTAs (one per SM: one fits, by its shared
  // memory), each looping over work tiles.
  if (maxSeqKV > 0)
    abi.persistent =
        KernelABI::Persistent{1, maxSeqKV, twinKernel.name, twinKernel.launch};
  // Persistent decode flattens the decode grid (heads fastest, the order
  // of WorkTiles::decodeItem) into the prefill kernel's kind of work list.
  if (plan->decode && maxSeqKV == 0)
    setDecodeGrid(abi, *plan, plan->rowGroup, plan->queryRowsPerTile());
  else
    abi.grid =
        plan->workListGrid(HopperKernelBuilder::ctasPerWorkItem(kvMulticast));
  if (kvMulticast)
    abi.cluster[0] = kKvMulticastCtas;
  abi.block[0] = threads;
  abi.dynamicSmemBytes = plan->dynamicSmemBytes();
  setAttentionAlignment(abi, plan->hasLse,
                        storeOByTma || twinKernel.storesOByTma);
  setServingAlignment(abi, plan->form);
  if (plan->workspace) {
    b.setInsertionPointToEnd(kernels.getBody());
    buildWorkspaceCombine(b, loc, name, abi, *plan, plan->partialsPerCta(),
                          plan->numQHeads, plan->ovDepth, plan->elementType,
                          plan->hasLse);
  }
  setKernelABI(op, kernels, name, abi);
  return success();
}

namespace {
class HopperKernels : public KernelBuilder {
public:
  explicit HopperKernels(const HopperKernelOptions &options)
      : options(options) {}
  std::optional<std::string>
  refusal(attn::PlannedAttentionOpInterface op) const override {
    return hopperKernelRefusal(op, options.deviceTensorMaps);
  }
  LogicalResult build(ModuleOp module,
                      attn::PlannedAttentionOpInterface op) const override {
    return buildHopperKernel(module, op, options);
  }

private:
  HopperKernelOptions options;
};
} // namespace

std::unique_ptr<KernelBuilder>
fa4::createHopperKernelBuilder(const HopperKernelOptions &options) {
  return std::make_unique<HopperKernels>(options);
}
