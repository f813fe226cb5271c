//===- SplitKPatterns.cpp - convert-fa4-to-nvvm, split-K combines ---------===//
//
// The split-K combines both chips share: across a cluster, each CTA of a
// partition's cluster combines one band of the depth columns from every
// peer's staged partial through DSMEM; through a global workspace, a
// combine kernel merges the partials' f32 rows by their LSE.
//
//===----------------------------------------------------------------------===//

#include "../Common/SplitKWorkspace.h"
#include "LoweringEmitter.h"
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {

//===----------------------------------------------------------------------===//
// Split-K across a cluster
//===----------------------------------------------------------------------===//

struct ClusterSyncLowering : OpConversionPattern<ClusterSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterSyncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // barrier.cluster.arrive is a release, barrier.cluster.wait an acquire.
    NVVM::ClusterArriveOp::create(rewriter, op.getLoc(),
                                  rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<NVVM::ClusterWaitOp>(op,
                                                     rewriter.getUnitAttr());
    return success();
  }
};

/// One warpgroup walks the (row, column pair) items of this CTA's band, 128
/// at a time: the row's (max, sum) of every partition, then the weighted sum
/// of the partitions' column pairs, all read through DSMEM (mapa +
/// ld.shared::cluster). The partition count and the band are compile-time,
/// so the loop over peers unrolls.
class ClusterCombiner {
public:
  /// `adaptor`: the op's converted operands (one value each).
  template <typename Adaptor>
  ClusterCombiner(LoweringEmitter &e, OpBuilder &b, SplitKCombineOp op,
                  Adaptor adaptor)
      : e(e), b(b), loc(op.getLoc()),
        op(op), layout{static_cast<int64_t>(op.getOffset()),
                       static_cast<int64_t>(op.getRows()),
                       static_cast<int64_t>(op.getColumns())},
        partitions(op.getPartitions()), band(op.getBand()),
        partials(op.getPartials()), group(op.getGroup()), depth(op.getDepth()),
        pairs(band / 2), rank(adaptor.getRank().front()),
        outPtr(adaptor.getOutPtr().front()), batch(adaptor.getBatch().front()),
        head(adaptor.getHead().front()),
        firstRow(adaptor.getFirstRow().front()),
        seqQ(adaptor.getSeqQ().front()),
        clusterPtr(LLVM::LLVMPointerType::get(op.getContext(), 7)) {
    OutputOperands outputs = outputOperands(op, adaptor);
    outStride = outputs.outStride;
    lsePtr = outputs.lsePtr;
    lseStride = outputs.lseStride;
  }

  /// The walk over this CTA's band.
  void build();

private:
  /// A row's combine: each staged partial's weight and the total sum.
  struct RowWeights {
    Value globalMax, total, seesKeys, inverse;
    SmallVector<Value> scales;
    /// The constants the row's combine starts from.
    Value negInf, zero;
  };

  /// Byte `byteOffset` of staged partial k's shared memory, in the cluster
  /// window: partial k is the (k % partials)-th of partition k / partials.
  Value peer(int64_t k, Value byteOffset) {
    int64_t slot = k % partials;
    Value local =
        slot ? e.add(byteOffset, e.i32(slot * layout.bytes())) : byteOffset;
    return NVVM::MapaOp::create(b, loc, clusterPtr, e.smemPtr(local),
                                e.i32(k / partials));
  }
  Value loadF32(Value address) {
    return LLVM::LoadOp::create(b, loc, b.getF32Type(), address, 4);
  }
  RowWeights weighRow(Value tileRow);
  /// Writes the weighted sum of the partials' columns (column, column + 1)
  /// of `tileRow` to O's `row`, head `rowHead`.
  void storeColumnPair(const RowWeights &weights, Value tileRow, Value column,
                       Value row, Value rowHead);
  /// Rank 0 writes the row's LSE, once per row.
  void storeLse(const RowWeights &weights, Value pair, Value row,
                Value rowHead);

  LoweringEmitter &e;
  OpBuilder &b;
  Location loc;
  SplitKCombineOp op;
  StagingLayout layout;
  int64_t partitions, band, partials, group, depth, pairs;
  Value rank, outPtr, batch, head, firstRow, seqQ;
  SmallVector<Value> outStride, lseStride;
  Value lsePtr;
  Type clusterPtr;
  using P = arith::CmpIPredicate;
};

ClusterCombiner::RowWeights ClusterCombiner::weighRow(Value tileRow) {
  Value rowBytes = e.mul(tileRow, e.i32(4));
  Value negInf = e.f32(-INFINITY), zero = e.f32(0.0);
  SmallVector<Value> maxes, sums;
  RowWeights weights;
  weights.negInf = negInf;
  weights.zero = zero;
  weights.globalMax = negInf;
  for (int64_t p = 0; p < partitions * partials; ++p) {
    maxes.push_back(
        loadF32(peer(p, e.add(e.i32(layout.maxOffset()), rowBytes))));
    sums.push_back(
        loadF32(peer(p, e.add(e.i32(layout.sumOffset()), rowBytes))));
    weights.globalMax = e.fmax(weights.globalMax, maxes.back());
  }
  // A row no partition saw keeps max -inf: subtract 0 instead of -inf so
  // its weights are 0, not NaN.
  Value safeMax =
      e.select(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                     weights.globalMax, negInf),
               zero, weights.globalMax);
  weights.total = zero;
  for (int64_t p = 0; p < partitions * partials; ++p) {
    weights.scales.push_back(e.exp2(e.fsub(maxes[p], safeMax)));
    weights.total = e.fma(sums[p], weights.scales[p], weights.total);
  }
  weights.seesKeys = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                           weights.total, zero);
  weights.inverse =
      e.select(weights.seesKeys,
               arith::DivFOp::create(b, loc, e.f32(1.0), weights.total), zero);
  return weights;
}

void ClusterCombiner::storeColumnPair(const RowWeights &weights, Value tileRow,
                                      Value column, Value row, Value rowHead) {
  Type elementType = op.getElementType();
  Value zero = weights.zero;
  Value element = e.add(e.mul(tileRow, e.i32(layout.columns)), column);
  Value elementBytes = e.add(e.i32(layout.offset), e.mul(element, e.i32(4)));
  Value acc[2] = {zero, zero};
  for (int64_t p = 0; p < partitions * partials; ++p) {
    Value weight = e.fmul(weights.scales[p], weights.inverse);
    Value address = peer(p, elementBytes);
    Value next = LLVM::GEPOp::create(b, loc, clusterPtr, b.getF32Type(),
                                     address, ValueRange{e.i32(1)});
    acc[0] = e.fma(loadF32(address), weight, acc[0]);
    acc[1] = e.fma(loadF32(next), weight, acc[1]);
  }
  Value packed = e.packPair(acc[0], acc[1], elementType);
  Value index =
      e.add(e.mul(e.sext(batch), outStride[0]),
            e.add(e.mul(e.sext(row), outStride[1]),
                  e.add(e.mul(e.sext(rowHead), outStride[2]), e.sext(column))));
  Value outAddress = LLVM::GEPOp::create(b, loc, outPtr.getType(), elementType,
                                         outPtr, ValueRange{index});
  LLVM::StoreOp::create(b, loc, packed, outAddress, /*alignment=*/4);
}

void ClusterCombiner::storeLse(const RowWeights &weights, Value pair, Value row,
                               Value rowHead) {
  Value writer = arith::AndIOp::create(b, loc, e.cmp(P::eq, rank, e.i32(0)),
                                       e.cmp(P::eq, pair, e.i32(0)));
  auto ifLse = scf::IfOp::create(b, loc, writer, false);
  OpBuilder::InsertionGuard lseGuard(b);
  b.setInsertionPointToStart(ifLse.thenBlock());
  Value lse = e.select(
      weights.seesKeys,
      e.fmul(e.fadd(weights.globalMax, e.log2(weights.total)), e.f32(M_LN2)),
      weights.negInf);
  Value index = e.add(e.mul(e.sext(batch), lseStride[0]),
                      e.add(e.mul(e.sext(rowHead), lseStride[1]), e.sext(row)));
  Value address = LLVM::GEPOp::create(b, loc, lsePtr.getType(), b.getF32Type(),
                                      lsePtr, ValueRange{index});
  LLVM::StoreOp::create(b, loc, lse, address, /*alignment=*/4);
}

void ClusterCombiner::build() {
  Value thread = e.threadInGroup();
  Value bandStart = e.mul(rank, e.i32(band));
  int64_t items = layout.rows * pairs;
  auto loop =
      scf::ForOp::create(b, loc, e.toIndex(thread), e.toIndex(e.i32(items)),
                         e.toIndex(e.i32(kWarpgroupThreads)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value item = e.indexTo(b.getI32Type(), loop.getInductionVar());
  Value tileRow = e.divu(item, e.i32(pairs));
  Value pair = e.remu(item, e.i32(pairs));
  Value column = e.add(bandStart, e.mul(pair, e.i32(2)));
  Value row = e.add(firstRow, e.divu(tileRow, e.i32(group)));
  Value rowHead = e.add(head, e.remu(tileRow, e.i32(group)));
  Value valid = arith::AndIOp::create(
      b, loc, e.cmp(P::slt, row, seqQ),
      e.cmp(P::slt, tileRow, e.i32(layout.rows / group * group)));
  Value inBand = e.cmp(P::slt, column, e.i32(depth));
  auto ifRow = scf::IfOp::create(b, loc, valid, false);
  b.setInsertionPointToStart(ifRow.thenBlock());
  RowWeights weights = weighRow(tileRow);
  {
    auto ifStore = scf::IfOp::create(b, loc, inBand, false);
    OpBuilder::InsertionGuard storeGuard(b);
    b.setInsertionPointToStart(ifStore.thenBlock());
    storeColumnPair(weights, tileRow, column, row, rowHead);
  }
  if (lsePtr)
    storeLse(weights, pair, row, rowHead);
}

struct SplitKCombineLowering : OpConversionPattern<SplitKCombineOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitKCombineOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    ClusterCombiner(e, rewriter, op, adaptor).build();
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Split-K through a global workspace
//===----------------------------------------------------------------------===//

/// One warp per 32 columns of an output row; lane l owns column `column +
/// l`, so each partial's band is one coalesced 128-byte read. One pass over
/// the partials, kBlocksPerStep blocks of a warp's width a step: lane l
/// loads the LSE of partial first + l of each block (a row's partials lie
/// side by side, so at Sq = 1 that is one line), and each lane its column
/// of every partial of the step, at constant offsets from one address, all
/// before any use, so a step is one round trip to memory. The step's max (a
/// butterfly) raises the running max, which rescales the accumulators as the
/// attention kernel rescales O; lane l computes the weight of its partial and
/// each lane takes the weights by shuffle. Steps run unclamped while a whole
/// step remains, then one clamped step takes the rest (past the last partial,
/// the last one's memory with LSE -inf, so weight 0). A row's P partials
/// cost ceil(P / 96) round trips; a separate pass for the max first had
/// cost another ceil(P / 128), and single blocks a step P / 32. Three
/// blocks a step take 168 registers at launch, as two do; four took 255,
/// and spilled for a known count of 128.
/// One fa4.splitk.workspace_combine, as the steps of the walk above.
class WorkspaceCombiner {
public:
  /// Blocks of 32 partials a step reads; the lane's column is summed in
  /// kAccumulators chains.
  static constexpr int64_t kAccumulators = 4;
  static constexpr int64_t kBlocksPerStep = 3;
  static constexpr int64_t kKnownCountBlocksPerStep = 2;

  /// The row (batch, row, head) of the op's workspace, from `firstColumn`;
  /// `partialCount`, `batchSize` and `seqQ` are the launch's i32 values.
  WorkspaceCombiner(LoweringEmitter &e, SplitKWorkspaceCombineOp op,
                    Value workspace, Value batch, Value row, Value head,
                    Value firstColumn, Value batchSize, Value seqQ,
                    Value partialCount);

  /// The carried state: the running max (warp-uniform), kAccumulators
  /// partial sums of the lane's column, and the lane's weights' sum.
  enum { kMax = 0, kFirstAccumulator = 1, kWeightSum = 1 + kAccumulators };

  /// Every partial of the row: whole steps, then one clamped step.
  SmallVector<Value> sumPartials(std::optional<int64_t> knownPartials);
  /// O's column and, from lane 0's column, the LSE of the row.
  void store(ArrayRef<Value> sums, Value outPtr, ValueRange outStride,
             Value lsePtr, ValueRange lseStride, Type elementType);

private:
  Value elementAddress(Value base, Value element) {
    return LLVM::GEPOp::create(b, loc, workspace.getType(), f32, base,
                               ValueRange{element});
  }
  Value loadFrom(Value base, Value element) {
    return LLVM::LoadOp::create(b, loc, f32, elementAddress(base, element), 4);
  }
  Value loadLse(Value s) {
    return loadFrom(workspace,
                    e.add(lseRow, e.mul(s, layout.lsePartialStride())));
  }
  /// Past the last partial, read the last one (its LSE replaced by -inf).
  Value clampToLast(Value s) {
    return e.select(e.cmp(arith::CmpIPredicate::slt, s, partials), s,
                    lastPartial);
  }
  Value isNegInf(Value x) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, negInf);
  }
  SmallVector<Value> step(Value first, int64_t blocks, bool clamp,
                          SmallVector<Value> state);
  SmallVector<Value> tail(int64_t blocks, ArrayRef<Value> full, Value fullEnd,
                          Value remaining);

  LoweringEmitter &e;
  OpBuilder &b;
  Location loc;
  Type f32;
  int64_t depth;
  Value workspace, batch, row, head, partials, negInf, zero;
  SplitKWorkspaceLayout layout;
  Value oRow, lseRow, lane64, lastPartial, column, inDepth, columnOfPartial0;
};

WorkspaceCombiner::WorkspaceCombiner(LoweringEmitter &e,
                                     SplitKWorkspaceCombineOp op,
                                     Value workspace, Value batch, Value row,
                                     Value head, Value firstColumn,
                                     Value batchSize, Value seqQ,
                                     Value partialCount)
    : e(e), b(e.b), loc(e.loc), f32(e.b.getF32Type()), depth(op.getDepth()),
      workspace(workspace), batch(batch), row(row), head(head),
      partials(e.sext(partialCount)), negInf(e.f32(-INFINITY)),
      zero(e.f32(0.0)),
      // Element offsets into the workspace (docs of the op): partial s of
      // this row is `depth` floats at `oRow + s * depth`, its LSE at
      // `lseRow + s * Sq`.
      layout(e, partialCount, batchSize, seqQ, op.getHeads(), depth) {
  oRow = layout.oOfRow(batch, row, head);
  lseRow = layout.lseOfRow(batch, row, head);
  Value lane = e.lane();
  lane64 = e.sext(lane);
  lastPartial = e.sub(partials, e.i64(1));
  // The lane's column; a lane past the depth reads the last column (and
  // stores nothing), so the loads need no branch.
  column = e.add(firstColumn, lane);
  inDepth = e.cmp(arith::CmpIPredicate::slt, column, e.i32(depth));
  Value loadColumn = e.sext(e.mins(column, e.i32(depth - 1)));
  // The lane's column of partial 0; partial s is s * depth floats on.
  columnOfPartial0 = elementAddress(workspace, e.add(oRow, loadColumn));
}

/// Partials first + 32 k + [0, 32) for k < blocks; `clamp`: past the last
/// partial, the last one's memory with LSE -inf.
SmallVector<Value> WorkspaceCombiner::step(Value first, int64_t blocks,
                                           bool clamp,
                                           SmallVector<Value> state) {
  using P = arith::CmpIPredicate;
  SmallVector<Value> lse, values;
  // An unclamped step's partials lie at constant offsets from its first.
  Value columnOfFirst =
      clamp ? Value()
            : elementAddress(columnOfPartial0, layout.oOfPartial(first));
  for (int64_t k = 0; k < blocks; ++k) {
    Value mine = e.add(e.add(first, e.i64(32 * k)), lane64);
    Value l = loadLse(clamp ? clampToLast(mine) : mine);
    if (clamp)
      l = e.select(e.cmp(P::slt, mine, partials), l, negInf);
    lse.push_back(l);
    for (int64_t j = 0; j < 32; ++j) {
      if (!clamp) {
        values.push_back(loadFrom(columnOfFirst, e.i64((32 * k + j) * depth)));
        continue;
      }
      Value s = clampToLast(e.add(first, e.i64(32 * k + j)));
      values.push_back(loadFrom(columnOfPartial0, layout.oOfPartial(s)));
    }
  }
  Value stepMax;
  for (Value l : lse)
    stepMax = stepMax ? e.fmax(stepMax, l) : l;
  Value runningMax = state[kMax];
  Value newMax = e.fmax(runningMax, e.warpMax(stepMax));
  // Subtract 0 while no partial saw a key, so that the weights are 0, not
  // NaN; nothing is summed yet then, so any scale will do.
  Value safeMax = e.select(isNegInf(newMax), zero, newMax);
  Value scale =
      e.select(isNegInf(runningMax), e.f32(1.0),
               e.exp2(e.fmul(e.fsub(runningMax, newMax), e.f32(M_LOG2E))));
  state[kMax] = newMax;
  for (int64_t i = kFirstAccumulator; i <= kWeightSum; ++i)
    state[i] = e.fmul(state[i], scale);
  for (int64_t k = 0; k < blocks; ++k) {
    Value weight = e.exp2(e.fmul(e.fsub(lse[k], safeMax), e.f32(M_LOG2E)));
    state[kWeightSum] = e.fadd(state[kWeightSum], weight);
    for (int64_t j = 0; j < 32; ++j) {
      Value &sum = state[kFirstAccumulator + j % kAccumulators];
      sum = e.fma(values[32 * k + j], e.laneValue(weight, j), sum);
    }
  }
  return state;
}

/// The rest, fewer than a step, in one clamped step of as many blocks as it
/// needs: tail(n) takes n blocks where more than (n - 1) x 32 partials
/// remain, else tail(n - 1).
SmallVector<Value> WorkspaceCombiner::tail(int64_t blocks, ArrayRef<Value> full,
                                           Value fullEnd, Value remaining) {
  if (blocks == 0)
    return SmallVector<Value>(full);
  auto ifTail = scf::IfOp::create(
      b, loc, ValueRange(full).getTypes(),
      e.cmp(arith::CmpIPredicate::sgt, remaining, e.i64(32 * (blocks - 1))),
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifTail.thenBlock());
  scf::YieldOp::create(
      b, loc, step(fullEnd, blocks, /*clamp=*/true, SmallVector<Value>(full)));
  b.setInsertionPointToStart(ifTail.elseBlock());
  scf::YieldOp::create(b, loc, tail(blocks - 1, full, fullEnd, remaining));
  return SmallVector<Value>(ifTail.getResults());
}

SmallVector<Value>
WorkspaceCombiner::sumPartials(std::optional<int64_t> knownPartials) {
  SmallVector<Value> init(kWeightSum + 1, zero);
  init[kMax] = negInf;
  // kBlocksPerStep blocks a step, or as many as a smaller count known here
  // needs (a hinted split's partials in one step). A larger known count
  // takes kKnownCountBlocksPerStep: ptxas hoisted the last, clamped step's
  // loads above the whole steps' (138 partials as 96 and 42 spilled 52
  // bytes).
  int64_t blocksPerStep = kBlocksPerStep;
  if (knownPartials) {
    int64_t blocks = std::max<int64_t>(1, llvm::divideCeil(*knownPartials, 32));
    blocksPerStep =
        blocks <= kBlocksPerStep ? blocks : kKnownCountBlocksPerStep;
  }
  // Whole steps while that many partials remain: no clamps, and ptxas keeps
  // a step's loads in flight together.
  int64_t stepPartials = 32 * blocksPerStep;
  Value fullEnd =
      e.mul(e.divu(partials, e.i64(stepPartials)), e.i64(stepPartials));
  Value from = e.i64(0);
  auto loop =
      scf::ForOp::create(b, loc, from, fullEnd, e.i64(stepPartials), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(b, loc,
                         step(loop.getInductionVar(), blocksPerStep,
                              /*clamp=*/false,
                              SmallVector<Value>(loop.getRegionIterArgs())));
  }
  SmallVector<Value> full(loop.getResults());
  Value remaining = e.sub(partials, fullEnd);
  return tail(blocksPerStep, full, fullEnd, remaining);
}

void WorkspaceCombiner::store(ArrayRef<Value> sums, Value outPtr,
                              ValueRange outStride, Value lsePtr,
                              ValueRange lseStride, Type elementType) {
  using P = arith::CmpIPredicate;
  Value maxLse = sums[kMax];
  Value weighted = sums[kFirstAccumulator];
  for (int64_t k = 1; k < kAccumulators; ++k)
    weighted = e.fadd(weighted, sums[kFirstAccumulator + k]);
  Value total = e.warpSum(sums[kWeightSum]);
  Value seesKeys =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, total, zero);
  Value inverse = e.select(
      seesKeys, arith::DivFOp::create(b, loc, e.f32(1.0), total), zero);
  Value rowBase = e.add(e.mul(e.sext(batch), outStride[0]),
                        e.add(e.mul(e.sext(row), outStride[1]),
                              e.mul(e.sext(head), outStride[2])));
  {
    auto ifIn = scf::IfOp::create(b, loc, inDepth, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifIn.thenBlock());
    Value value =
        arith::TruncFOp::create(b, loc, elementType, e.fmul(weighted, inverse));
    Value address =
        LLVM::GEPOp::create(b, loc, outPtr.getType(), elementType, outPtr,
                            ValueRange{e.add(rowBase, e.sext(column))});
    LLVM::StoreOp::create(b, loc, value, address, /*alignment=*/2);
  }
  if (!lsePtr)
    return;
  auto ifFirst =
      scf::IfOp::create(b, loc, e.cmp(P::eq, column, e.i32(0)), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  Value lse = e.select(
      seesKeys, e.fadd(maxLse, e.fmul(e.log2(total), e.f32(M_LN2))), negInf);
  Value index = e.add(e.mul(e.sext(batch), lseStride[0]),
                      e.add(e.mul(e.sext(head), lseStride[1]), e.sext(row)));
  Value address = LLVM::GEPOp::create(b, loc, lsePtr.getType(), f32, lsePtr,
                                      ValueRange{index});
  LLVM::StoreOp::create(b, loc, lse, address, /*alignment=*/4);
}

struct SplitKWorkspaceCombineLowering
    : OpConversionPattern<SplitKWorkspaceCombineOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitKWorkspaceCombineOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    auto front = [](ValueRange values) { return values.front(); };
    auto [outStride, lsePtr, lseStride] = outputOperands(op, adaptor);
    WorkspaceCombiner combiner(
        e, op, front(adaptor.getWorkspace()), front(adaptor.getBatch()),
        front(adaptor.getRow()), front(adaptor.getHead()),
        front(adaptor.getColumn()), front(adaptor.getBatchSize()),
        front(adaptor.getSeqQ()), front(adaptor.getPartials()));
    SmallVector<Value> sums =
        combiner.sumPartials(getConstantIntValue(op.getPartials()));
    combiner.store(sums, front(adaptor.getOutPtr()), outStride, lsePtr,
                   lseStride, op.getElementType());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void fa4::populateSplitKPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<ClusterSyncLowering, SplitKCombineLowering,
               SplitKWorkspaceCombineLowering>(converter,
                                               patterns.getContext());
}
