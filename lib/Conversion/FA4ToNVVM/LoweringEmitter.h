//===- LoweringEmitter.h - What every fa4 op lowering uses ------*- C++ -*-===//
//
// Shared by the sm_90a (wgmma) and sm_100a (tcgen05) patterns of
// convert-fa4-to-nvvm: the kernel's dynamic shared memory, the thread's place
// in its warpgroup, 16-bit packing, and the 1:N frag values.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_FA4TONVVM_LOWERINGEMITTER_H
#define LIB_CONVERSION_FA4TONVVM_LOWERINGEMITTER_H

#include "../Common/KernelEmitter.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Planning/SmemPlan.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>
#include <optional>

namespace fa4 {

/// The kernel module's dynamic shared memory: an external, unsized array at
/// 1024-byte alignment (what the 128B swizzle pattern repeats on).
constexpr llvm::StringLiteral kSmemName = "fa4_dynamic_smem";

inline bool isFA4Type(mlir::Type type) {
  return llvm::isa<kernel::FA4Dialect>(type.getDialect());
}

inline llvm::SmallVector<mlir::Value> flatten(mlir::ValueRange values) {
  return llvm::SmallVector<mlir::Value>(values.begin(), values.end());
}

/// A split-K partial staged in shared memory for the cluster combine: O as
/// f32 [rows][columns], then max [rows], sum [rows].
struct StagingLayout {
  int64_t offset, rows, columns;
  int64_t maxOffset() const { return offset + rows * columns * 4; }
  int64_t sumOffset() const { return maxOffset() + rows * 4; }
  /// One partial's bytes: the next one staged in the same CTA starts here.
  int64_t bytes() const { return splitKStagedPartialBytes(rows, columns); }
};

/// The converted operands of an op that stores O (and LSE) rows: O's
/// strides, and LSE's pointer (null without LSE) and strides.
struct OutputOperands {
  llvm::SmallVector<mlir::Value> outStride;
  mlir::Value lsePtr;
  llvm::SmallVector<mlir::Value> lseStride;
};
template <typename OpT, typename Adaptor>
OutputOperands outputOperands(OpT op, Adaptor adaptor) {
  OutputOperands operands;
  for (mlir::ValueRange stride : adaptor.getOutStrides())
    operands.outStride.push_back(stride.front());
  for (mlir::ValueRange stride : adaptor.getLseStrides())
    operands.lseStride.push_back(stride.front());
  if (op.getLsePtr())
    operands.lsePtr = adaptor.getLsePtr().front();
  return operands;
}

class LoweringEmitter : public KernelEmitter {
public:
  LoweringEmitter(mlir::OpBuilder &b, mlir::Operation *op)
      : KernelEmitter(b, op->getLoc()), op(op) {}

  /// Values that depend on nothing but the thread are built once, at the
  /// top of the kernel (CSE merges the copies each pattern makes): computed
  /// at each use inside the K/V loop they cost registers ptxas then spills.
  template <typename Fn> mlir::Value atKernelEntry(Fn build) {
    mlir::OpBuilder::InsertionGuard guard(b);
    mlir::Operation *func = op->getParentOfType<mlir::LLVM::LLVMFuncOp>();
    if (!func)
      func = op->getParentOfType<mlir::gpu::GPUFuncOp>();
    if (func)
      b.setInsertionPointToStart(&func->getRegion(0).front());
    return build();
  }

  mlir::Value smemBase() {
    return atKernelEntry([&] {
      auto global =
          mlir::SymbolTable::lookupNearestSymbolFrom<mlir::LLVM::GlobalOp>(
              op, mlir::StringAttr::get(op->getContext(), kSmemName));
      return mlir::LLVM::AddressOfOp::create(b, loc, global);
    });
  }
  mlir::Value smemPtr(mlir::Value byteOffset) {
    mlir::Value base = smemBase();
    return mlir::LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(),
                                     base, mlir::ValueRange{byteOffset});
  }
  /// The 32-bit shared-window address of byte `byteOffset`.
  mlir::Value smemAddress(mlir::Value byteOffset) {
    mlir::Value base = smemBase();
    mlir::Value address = atKernelEntry([&]() -> mlir::Value {
      b.setInsertionPointAfterValue(base);
      return mlir::arith::TruncIOp::create(
          b, loc, b.getI32Type(),
          mlir::LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), base));
    });
    return add(address, byteOffset);
  }

  /// This thread's index in its warpgroup, lane and warp.
  mlir::Value threadInGroup() {
    return atKernelEntry([&] {
      mlir::Value tid = indexTo(
          b.getI32Type(),
          mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x));
      return remu(tid, i32(kernel::kWarpgroupThreads));
    });
  }
  mlir::Value lane() {
    mlir::Value thread = threadInGroup();
    return atKernelEntry([&]() -> mlir::Value {
      b.setInsertionPointAfterValue(thread);
      return remu(thread, i32(32));
    });
  }

  /// Byte offset in a TMA staging tile of O (fa4.epilogue.stage) of the
  /// 16-byte chunk holding 16-bit column `column` of a row: 64-column boxes
  /// of `boxRows` 128-byte rows, chunk c of row r at (c ^ (r % 8)) * 16 within
  /// its row (128B swizzle). `rowStart` is the row's byte offset in the first
  /// box and `swizzle` its r % 8.
  mlir::Value stagedChunkOffset(mlir::Value rowStart, mlir::Value swizzle,
                                int64_t column, int64_t boxRows) {
    constexpr int64_t kRowBytes = kSwizzleBytes, kChunkBytes = 16;
    int64_t box = column / kBoxColumns;
    int64_t chunk = (column % kBoxColumns) / 8;
    mlir::Value place =
        mul(mlir::arith::XOrIOp::create(b, loc, i32(chunk), swizzle),
            i32(kChunkBytes));
    return add(add(rowStart, i32(box * boxRows * kRowBytes)), place);
  }

  /// Whether a row saw a key (its sum is positive), and 1 / sum where it
  /// did, 0 where it did not (O = 0 then). `zero` is an f32 0, made once by
  /// the caller.
  std::pair<mlir::Value, mlir::Value> rowInverse(mlir::Value sum,
                                                 mlir::Value zero) {
    mlir::Value seesKeys = mlir::arith::CmpFOp::create(
        b, loc, mlir::arith::CmpFPredicate::OGT, sum, zero);
    mlir::Value inverse = select(
        seesKeys, mlir::arith::DivFOp::create(b, loc, f32(1.0), sum), zero);
    return {seesKeys, inverse};
  }

  /// Where `writer`: a row's LSE = ln(sum) + max ln 2 (max in the exp2
  /// domain), -inf where it saw no key, at lse + batch * l0 + head * l1 +
  /// row.
  void storeLse(mlir::Value max, mlir::Value sum, mlir::Value seesKeys,
                mlir::Value lsePtr, llvm::ArrayRef<mlir::Value> lseStride,
                mlir::Value batch, mlir::Value row, mlir::Value head,
                mlir::Value writer) {
    auto ifLse = mlir::scf::IfOp::create(b, loc, writer, false);
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLse.thenBlock());
    mlir::Value lse = select(seesKeys, fmul(fadd(max, log2(sum)), f32(M_LN2)),
                             f32(-INFINITY));
    mlir::Value index = add(mul(sext(batch), lseStride[0]),
                            add(mul(sext(head), lseStride[1]), sext(row)));
    mlir::Value address =
        mlir::LLVM::GEPOp::create(b, loc, lsePtr.getType(), b.getF32Type(),
                                  lsePtr, mlir::ValueRange{index});
    mlir::LLVM::StoreOp::create(b, loc, lse, address, /*alignment=*/4);
  }

  /// fa4.sink.rows's max of tile row `row`: sinks[head + row % group] in
  /// the exp2 domain where `holds`, else -inf. Every thread of the row
  /// reads it, so that all of them hold the row's max.
  mlir::Value sinkMax(mlir::Value sinks, mlir::Value head, mlir::Value holds,
                      mlir::Value row, int64_t group) {
    mlir::Value rowHead = group > 1 ? add(head, remu(row, i32(group))) : head;
    mlir::Value address =
        mlir::LLVM::GEPOp::create(b, loc, sinks.getType(), b.getF32Type(),
                                  sinks, mlir::ValueRange{sext(rowHead)});
    mlir::Value logit = mlir::LLVM::LoadOp::create(b, loc, b.getF32Type(),
                                                   address, /*alignment=*/4);
    return select(holds, fmul(logit, f32(M_LOG2E)), f32(-INFINITY));
  }

  /// Two f32 as one 32-bit register of two 16-bit values, `low` in bits 0-15
  /// (the column with the smaller index, as wgmma's A fragment expects).
  mlir::Value packPair(mlir::Value low, mlir::Value high,
                       mlir::Type elementType) {
    mlir::Value narrow = mlir::arith::TruncFOp::create(
        b, loc, mlir::VectorType::get({2}, elementType), pairOf(low, high));
    return mlir::LLVM::BitcastOp::create(b, loc, b.getI32Type(), narrow);
  }

  /// Four adjacent f32 columns as one word of an 8-bit type, column c in
  /// byte c (cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 puts its first operand in
  /// the high byte).
  mlir::Value packQuad(mlir::ValueRange columns, mlir::Type elementType) {
    auto pair = [&](mlir::Value low, mlir::Value high) {
      mlir::Value packed = mlir::NVVM::ConvertF32x2ToF8x2Op::create(
          b, loc, mlir::TypeRange{b.getI16Type()}, high, low,
          mlir::NVVM::FPRoundingMode::RN, mlir::NVVM::SaturationMode::SATFINITE,
          /*relu=*/false, elementType);
      return mlir::LLVM::ZExtOp::create(b, loc, b.getI32Type(), packed);
    };
    mlir::Value high = mlir::LLVM::ShlOp::create(
        b, loc, pair(columns[2], columns[3]), i32(16));
    return mlir::LLVM::OrOp::create(b, loc, pair(columns[0], columns[1]), high);
  }

  /// Two adjacent output columns as one store: 16-bit pairs packed into 32
  /// bits, or an f32 pair (a split-K workspace partial) as 8 bytes. Returns
  /// the value and its alignment.
  std::pair<mlir::Value, unsigned> outputPair(mlir::Value low, mlir::Value high,
                                              mlir::Type elementType) {
    if (!elementType.isF32())
      return {packPair(low, high, elementType), 4};
    return {pairOf(low, high), 8};
  }

  /// 2^x on the FMA and ALU pipes (FA4's MUFU relief), with no conversion
  /// instruction: F2I and FRND issue to the XU pipe that MUFU's ex2 uses,
  /// so a floor and an fptosi would take two XU slots to free one. x is
  /// clamped to -127 and rounded to the nearest integer j by adding
  /// 1.5 * 2^23 (j lands in the sum's low mantissa bits); 2^(x - j) is a
  /// degree-3 minimax polynomial on [-1/2, 1/2] with p(0) = 1 (relative
  /// error 1.0e-4, below bf16's 2^-9); 2^j adds the sum's bits shifted left
  /// by 23 (j << 23: the high bits fall off) to p's exponent field. x <= -127,
  /// the -inf of masked keys included, gives exactly +0 (j = -127, p = 1).
  /// On a pair (vector<2xf32>, sm_100a), every float step is one packed
  /// f32x2 instruction.
  mlir::Value exp2Polynomial(mlir::Value x) {
    constexpr double kRoundingShift = 12582912.0; // 1.5 * 2^23
    auto c = [&](double v) { return f32Like(x, v); };
    mlir::Value clamped = fmax(x, c(-127.0));
    mlir::Value shifted = fadd(clamped, c(kRoundingShift));
    mlir::Value whole = fsub(shifted, c(kRoundingShift));
    mlir::Value fraction = fsub(clamped, whole);
    mlir::Value p = fma(fraction, c(0.05500906), c(0.24221097));
    p = fma(fraction, p, c(0.6932829));
    p = fma(fraction, p, c(1.0));
    mlir::Type bitsType = b.getI32Type(), floatType = b.getF32Type();
    mlir::Value shift = i32(23);
    if (auto pair = mlir::dyn_cast<mlir::VectorType>(x.getType())) {
      bitsType = mlir::VectorType::get(pair.getShape(), bitsType);
      floatType = pair;
      shift = mlir::arith::ConstantOp::create(
          b, loc,
          mlir::DenseElementsAttr::get(mlir::cast<mlir::ShapedType>(bitsType),
                                       b.getI32IntegerAttr(23).getValue()));
    }
    auto bitsOf = [&](mlir::Value v) {
      return mlir::arith::BitcastOp::create(b, loc, bitsType, v).getResult();
    };
    mlir::Value exponent =
        mlir::arith::ShLIOp::create(b, loc, bitsOf(shifted), shift);
    return mlir::arith::BitcastOp::create(
        b, loc, floatType,
        mlir::arith::AddIOp::create(b, loc, bitsOf(p), exponent));
  }
  /// The f32 constant `v`, or both lanes of a pair where `like` is one.
  mlir::Value f32Like(mlir::Value like, double v) {
    auto pair = mlir::dyn_cast<mlir::VectorType>(like.getType());
    if (!pair)
      return f32(v);
    return mlir::arith::ConstantOp::create(
        b, loc,
        mlir::DenseElementsAttr::get(pair,
                                     llvm::APFloat(static_cast<float>(v))));
  }
  /// Two f32 values as a pair (vector<2xf32>: one 64-bit register, the
  /// operand of sm_100a's f32x2 instructions), `low` in lane 0.
  mlir::Value pairOf(mlir::Value low, mlir::Value high) {
    auto pairType = mlir::VectorType::get({2}, b.getF32Type());
    mlir::Value pair = mlir::LLVM::UndefOp::create(b, loc, pairType);
    pair = mlir::LLVM::InsertElementOp::create(b, loc, pair, low, i32(0));
    return mlir::LLVM::InsertElementOp::create(b, loc, pair, high, i32(1));
  }
  mlir::Value laneOf(mlir::Value pair, int64_t lane) {
    return mlir::LLVM::ExtractElementOp::create(b, loc, pair, i32(lane));
  }

  /// One online-softmax step for `rows` rows (the rows this thread owns:
  /// row of register i is `rowOf(i)`), shared by the targets' layouts.
  /// `reduceMax` finishes a row maximum across the threads that share the
  /// row; each row's max and sum are folded in `chains` chains
  /// (ChainedFold). Returns (probs, kept max, running sum, correction) as
  /// registers.
  struct SoftmaxStep {
    llvm::SmallVector<mlir::Value> probs, max, sum, correction;
  };
  ///
  /// `packed` (sm_100a, every score of the thread in one row): scores go in
  /// pairs through f32x2 instructions (FA4's packed softmax): the
  /// scale-subtract, the polynomial exp2 (on whole pairs, pair q when
  /// q % polyPeriod == polyPeriod - 1, the same share of scores) and the
  /// row sum, whose chains add pairs and whose two lanes meet at the end.
  template <typename RowOf, typename ReduceMax>
  SoftmaxStep softmaxStep(mlir::ValueRange scores, mlir::ValueRange rowMax,
                          mlir::ValueRange rowSum, mlir::Value scaleLog2,
                          std::optional<double> threshold, int64_t polyPeriod,
                          int64_t chains, RowOf rowOf, ReduceMax reduceMax,
                          bool packed = false) {
    using mlir::arith::CmpFPredicate;
    size_t rows = rowMax.size();
    mlir::Value negInf = f32(-INFINITY), zero = f32(0.0);
    auto maxOf = [&](mlir::Value x, mlir::Value y) { return fmax(x, y); };
    llvm::SmallVector<ChainedFold> rowMaxFolds(rows,
                                               ChainedFold(chains, maxOf));
    for (ChainedFold &fold : rowMaxFolds)
      fold.add(negInf);
    for (auto [i, score] : llvm::enumerate(scores))
      rowMaxFolds[rowOf(i)].add(score);
    llvm::SmallVector<mlir::Value> tileMax;
    for (ChainedFold &fold : rowMaxFolds)
      tileMax.push_back(fold.result());
    SoftmaxStep step;
    llvm::SmallVector<mlir::Value> negSafeMax(rows);
    for (size_t r = 0; r < rows; ++r) {
      mlir::Value newMax =
          fmax(rowMax[r], fmul(reduceMax(tileMax[r]), scaleLog2));
      if (threshold) {
        // Keep the stale max while the new one is within 2^threshold of it
        // (a row still at -inf always moves).
        mlir::Value grew = fsub(newMax, rowMax[r]);
        mlir::Value keep = mlir::arith::CmpFOp::create(
            b, loc, CmpFPredicate::OLE, grew, f32(*threshold));
        newMax = select(keep, rowMax[r], newMax);
      }
      // A row with no visible key yet keeps max -inf; exp2 against 0 then
      // gives 0 instead of NaN from (-inf) - (-inf).
      mlir::Value safeMax =
          select(mlir::arith::CmpFOp::create(b, loc, CmpFPredicate::OEQ, newMax,
                                             negInf),
                 zero, newMax);
      negSafeMax[r] = mlir::arith::NegFOp::create(b, loc, safeMax);
      step.correction.push_back(exp2FlushSubnormals(fsub(rowMax[r], safeMax)));
      step.max.push_back(newMax);
      step.sum.push_back(fmul(rowSum[r], step.correction.back()));
    }
    if (packed) {
      packedExponentials(scores, scaleLog2, negSafeMax.front(), polyPeriod,
                         chains, step);
      return step;
    }
    // Each row's sum starts from its corrected running sum.
    auto sumOf = [&](mlir::Value x, mlir::Value y) { return fadd(x, y); };
    llvm::SmallVector<ChainedFold> rowSumFolds(rows,
                                               ChainedFold(chains, sumOf));
    for (auto [fold, sum] : llvm::zip_equal(rowSumFolds, step.sum))
      fold.add(sum);
    for (auto [i, score] : llvm::enumerate(scores)) {
      mlir::Value x = fma(score, scaleLog2, negSafeMax[rowOf(i)]);
      bool onFmaPipe = polyPeriod > 0 &&
                       static_cast<int64_t>(i) % polyPeriod == polyPeriod - 1;
      mlir::Value p = onFmaPipe ? exp2Polynomial(x) : exp2FlushSubnormals(x);
      rowSumFolds[rowOf(i)].add(p);
      step.probs.push_back(p);
    }
    for (auto [fold, sum] : llvm::zip_equal(rowSumFolds, step.sum))
      sum = fold.result();
    return step;
  }

  /// softmaxStep's exponentials and row sum of one row's scores in pairs:
  /// step.sum holds the corrected running sum and gets the new one.
  void packedExponentials(mlir::ValueRange scores, mlir::Value scaleLog2,
                          mlir::Value negSafeMax, int64_t polyPeriod,
                          int64_t chains, SoftmaxStep &step) {
    assert(scores.size() % 2 == 0 && "scores in pairs");
    mlir::Value scale = pairOf(scaleLog2, scaleLog2);
    mlir::Value bias = pairOf(negSafeMax, negSafeMax);
    auto sumOf = [&](mlir::Value x, mlir::Value y) { return fadd(x, y); };
    ChainedFold rowSum(chains, sumOf);
    rowSum.add(pairOf(step.sum.front(), f32(0.0)));
    for (size_t q = 0; q < scores.size() / 2; ++q) {
      mlir::Value x =
          fma(pairOf(scores[2 * q], scores[2 * q + 1]), scale, bias);
      // (Operands are built one statement at a time: the IR's order must
      // not depend on the C++ compiler's order of argument evaluation.)
      bool onFmaPipe = polyPeriod > 0 &&
                       static_cast<int64_t>(q) % polyPeriod == polyPeriod - 1;
      mlir::Value p;
      if (onFmaPipe) {
        p = exp2Polynomial(x);
      } else {
        mlir::Value low = exp2FlushSubnormals(laneOf(x, 0));
        p = pairOf(low, exp2FlushSubnormals(laneOf(x, 1)));
      }
      rowSum.add(p);
      step.probs.push_back(laneOf(p, 0));
      step.probs.push_back(laneOf(p, 1));
    }
    mlir::Value sum = rowSum.result();
    mlir::Value low = laneOf(sum, 0);
    step.sum.front() = fadd(low, laneOf(sum, 1));
  }

  /// A fold of values in `chains` interleaved chains (values k, k + chains,
  /// k + 2 chains, ... in order of `add`), then the chains folded pairwise:
  /// the same n - 1 operations as one chain, but a dependent path of about
  /// n / chains + log2(chains) latencies instead of n. A row's maximum gates
  /// its exponentials, and neither LLVM nor ptxas reassociates max or add.
  /// One chain is the plain left fold.
  class ChainedFold {
  public:
    using Combine = llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)>;
    ChainedFold(int64_t chains, Combine combine)
        : chains(chains), combine(combine) {
      assert(chains >= 1 && "a fold needs a chain");
    }
    void add(mlir::Value value) {
      if (partial.size() < static_cast<size_t>(chains))
        partial.push_back(value);
      else
        partial[count % chains] = combine(partial[count % chains], value);
      ++count;
    }
    mlir::Value result() {
      assert(!partial.empty() && "nothing folded");
      for (size_t width = partial.size(); width > 1; width = (width + 1) / 2) {
        for (size_t i = 0; i < width / 2; ++i)
          partial[i] = combine(partial[2 * i], partial[2 * i + 1]);
        if (width % 2)
          partial[width / 2] = partial[width - 1];
      }
      partial.resize(1);
      return partial.front();
    }

  private:
    int64_t chains;
    Combine combine;
    size_t count = 0;
    llvm::SmallVector<mlir::Value> partial;
  };

  /// fa4.mask's semantics, shared by the targets' layouts: a
  /// warp-uniform test of whether the tile reaches Skv or crosses one of the
  /// mask's (bottom-right aligned) diagonals for any of its rows; only then
  /// the per-register compares, so interior tiles skip them. In the masked
  /// branch `prepare(shift)` runs first, then register i gets key `keyOf(i)`
  /// and the diagonal of its query row `diagonalOf(i, shift)`. With
  /// `foldKeyBound`, a mask with an upper diagonal (causal, a window's right
  /// side) tests key <= min(that bound, Skv - 1): one compare per register
  /// instead of two, the min shared by the registers of a row.
  /// `rowPerThread` (sm_100a: every register is a key of the thread's one
  /// row): the row's bounds are taken relative to the tile's first key
  /// once, and register i compares the constant i against them (D-62).
  template <typename Prepare, typename KeyOf, typename DiagonalOf>
  llvm::SmallVector<mlir::Value>
  maskTile(kernel::MaskOp maskOp, mlir::ValueRange scores, mlir::Value firstKey,
           mlir::Value firstRow, mlir::Value seqQ, mlir::Value seqKV,
           Prepare prepare, KeyOf keyOf, DiagonalOf diagonalOf,
           bool foldKeyBound = false, bool rowPerThread = false) {
    using P = mlir::arith::CmpIPredicate;
    attn::MaskAttr mask = maskOp.getMask();
    auto type = llvm::cast<kernel::FragType>(maskOp.getType());
    int64_t group = maskOp.getGroup();
    mlir::Value shift = sub(seqKV, seqQ);
    mlir::Value lastKey = add(firstKey, i32(type.getColumns() - 1));
    mlir::Value firstDiagonal = add(firstRow, shift);
    mlir::Value lastDiagonal =
        add(firstDiagonal, i32(type.getRows() / group - 1));
    mlir::Value needsMask = cmp(P::sge, lastKey, seqKV);
    auto orNeeds = [&](mlir::Value condition) {
      needsMask = mlir::arith::OrIOp::create(b, loc, needsMask, condition);
    };
    if (mask.getKind() == attn::MaskKind::Causal)
      orNeeds(cmp(P::sgt, lastKey, firstDiagonal));
    if (mask.getKind() == attn::MaskKind::Window) {
      if (mask.getRight() >= 0)
        orNeeds(cmp(P::sgt, lastKey, add(firstDiagonal, i32(mask.getRight()))));
      if (mask.getLeft() >= 0)
        orNeeds(cmp(P::slt, firstKey, sub(lastDiagonal, i32(mask.getLeft()))));
    }

    llvm::SmallVector<mlir::Type> types(scores.size(), b.getF32Type());
    auto ifMask = mlir::scf::IfOp::create(b, loc, types, needsMask,
                                          /*withElseRegion=*/true);
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifMask.elseBlock());
    mlir::scf::YieldOp::create(b, loc, scores);
    b.setInsertionPointToStart(ifMask.thenBlock());
    prepare(shift);
    mlir::Value negInf = f32(-INFINITY);
    // The last visible key of a row by its upper diagonal, if the mask has
    // one (causal: the diagonal; a window: its right side).
    std::optional<int64_t> upperOffset;
    if (mask.getKind() == attn::MaskKind::Causal)
      upperOffset = 0;
    if (mask.getKind() == attn::MaskKind::Window && mask.getRight() >= 0)
      upperOffset = mask.getRight();
    if (rowPerThread) {
      yieldRowMask(scores, firstKey, seqKV, diagonalOf(0, shift), mask,
                   upperOffset);
      return llvm::SmallVector<mlir::Value>(ifMask.getResults());
    }
    bool fold = foldKeyBound && upperOffset;
    mlir::Value lastKeyOfSeq = fold ? sub(seqKV, i32(1)) : mlir::Value();
    llvm::SmallVector<mlir::Value> masked;
    for (auto [i, score] : llvm::enumerate(scores)) {
      mlir::Value key = keyOf(int64_t(i));
      mlir::Value visible;
      auto keep = [&](mlir::Value condition) {
        visible = visible
                      ? mlir::arith::AndIOp::create(b, loc, visible, condition)
                      : condition;
      };
      if (!fold)
        keep(cmp(P::slt, key, seqKV));
      mlir::Value diagonal = diagonalOf(int64_t(i), shift);
      if (upperOffset) {
        // A window adds its right width even when it is 0, as it always
        // did; the causal diagonal is the bound itself.
        mlir::Value upper = mask.getKind() == attn::MaskKind::Causal
                                ? diagonal
                                : add(diagonal, i32(*upperOffset));
        if (fold)
          upper = mlir::arith::MinSIOp::create(b, loc, upper, lastKeyOfSeq);
        keep(cmp(P::sle, key, upper));
      }
      if (mask.getKind() == attn::MaskKind::Window && mask.getLeft() >= 0)
        keep(cmp(P::sge, key, sub(diagonal, i32(mask.getLeft()))));
      masked.push_back(select(visible, score, negInf));
    }
    mlir::scf::YieldOp::create(b, loc, masked);
    return llvm::SmallVector<mlir::Value>(ifMask.getResults());
  }

  /// maskTile's masked branch for a thread that holds one row: the last
  /// and first visible key of the row as counts from the tile's first key
  /// (min of the upper diagonal and Skv - 1; the window's left side). Under
  /// a causal or window mask, per 32 columns one word whose bit c says
  /// column c is visible, and per register a test of its bit: ptxas loads
  /// seven tests at a time into predicates (R2P) instead of comparing every
  /// column. With only the key bound, whose masked step is a row's last,
  /// one compare per column: the words spilled there (D-65).
  void yieldRowMask(mlir::ValueRange scores, mlir::Value firstKey,
                    mlir::Value seqKV, mlir::Value diagonal,
                    attn::MaskAttr mask, std::optional<int64_t> upperOffset) {
    using P = mlir::arith::CmpIPredicate;
    mlir::Value last = sub(seqKV, i32(1));
    if (upperOffset)
      last = mins(last, add(diagonal, i32(*upperOffset)));
    mlir::Value lastColumn = sub(last, firstKey);
    mlir::Value firstColumn;
    if (mask.getKind() == attn::MaskKind::Window && mask.getLeft() >= 0)
      firstColumn = sub(sub(diagonal, i32(mask.getLeft())), firstKey);
    mlir::Value negInf = f32(-INFINITY);
    llvm::SmallVector<mlir::Value> masked;
    if (!upperOffset && !firstColumn) {
      for (auto [i, score] : llvm::enumerate(scores))
        masked.push_back(
            select(cmp(P::sle, i32(static_cast<int64_t>(i)), lastColumn), score,
                   negInf));
      mlir::scf::YieldOp::create(b, loc, masked);
      return;
    }
    mlir::Value visibleEnd = add(lastColumn, i32(1));
    mlir::Value bits;
    for (auto [i, score] : llvm::enumerate(scores)) {
      int64_t bit = static_cast<int64_t>(i) % kMaskWordBits;
      if (bit == 0) {
        int64_t chunk = static_cast<int64_t>(i) - bit;
        bits = lowBits(sub(visibleEnd, i32(chunk)));
        if (firstColumn)
          bits = mlir::arith::AndIOp::create(
              b, loc, bits,
              mlir::arith::XOrIOp::create(
                  b, loc, lowBits(sub(firstColumn, i32(chunk))), i32(-1)));
      }
      // Bit 31 as the negative i32 it is: the constant must fit 32 bits.
      mlir::Value tested = mlir::arith::AndIOp::create(
          b, loc, bits, i32(static_cast<int32_t>(uint32_t(1) << bit)));
      masked.push_back(select(cmp(P::ne, tested, i32(0)), score, negInf));
    }
    mlir::scf::YieldOp::create(b, loc, masked);
  }

  /// A word of the low `count` bits set, `count` clamped to [0, 32]; the
  /// shift is done in 64 bits, where 1 << 32 is defined.
  mlir::Value lowBits(mlir::Value count) {
    mlir::Value clamped = maxs(mins(count, i32(kMaskWordBits)), i32(0));
    mlir::Value wide = mlir::arith::ShLIOp::create(
        b, loc, i64(1),
        mlir::arith::ExtUIOp::create(b, loc, b.getI64Type(), clamped));
    return mlir::arith::TruncIOp::create(
        b, loc, b.getI32Type(),
        mlir::arith::SubIOp::create(b, loc, wide, i64(1)));
  }

  static constexpr int64_t kMaskWordBits = 32;

protected:
  mlir::Operation *op;
};

} // namespace fa4

#endif // LIB_CONVERSION_FA4TONVVM_LOWERINGEMITTER_H
