//===- Decompose.cpp - attn-decompose: attn.attention as linalg -----------===//
//
// Writes what attn.attention means as linalg generics on tensors, the
// softmax in f32 (AttnOps.td): the reference raised IR is run against on the
// CPU, where a kernel cannot run.
//
//===----------------------------------------------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"

#include <limits>

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNDECOMPOSE
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {

/// Builds the generics of one attention; loops are named by letter in the
/// comments: b batch, h query head, i query, j key, d QK depth, e OV depth.
class Decomposer {
public:
  Decomposer(OpBuilder &builder, AttentionOp op)
      : builder(builder), loc(op.getLoc()), op(op), f32(builder.getF32Type()) {}

  /// O, then LSE where the op returns it.
  SmallVector<Value> build();

private:
  AffineMap map(unsigned loops, ArrayRef<AffineExpr> results) {
    return AffineMap::get(loops, 0, results, builder.getContext());
  }
  AffineExpr dim(unsigned position) {
    return builder.getAffineDimExpr(position);
  }
  /// The key/value head query head `h` reads.
  AffineExpr kvHead(AffineExpr h) {
    return h.floorDiv(op.getNumQueryHeads() / op.getNumKVHeads());
  }
  OpFoldResult size(Value tensor, int64_t position) {
    return tensor::getMixedSize(builder, loc, tensor, position);
  }
  /// A tensor of `sizes` f32 filled with `value`.
  Value filled(ArrayRef<OpFoldResult> sizes, double value) {
    Value empty = tensor::EmptyOp::create(builder, loc, sizes, f32);
    Value scalar =
        arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(value));
    return linalg::FillOp::create(builder, loc, scalar, empty).getResult(0);
  }
  Value toF32(OpBuilder &body, Location at, Value value) {
    return value.getType() == f32
               ? value
               : arith::ExtFOp::create(body, at, f32, value).getResult();
  }
  Value constantF32(OpBuilder &body, Location at, double value) {
    return arith::ConstantOp::create(body, at, body.getF32FloatAttr(value));
  }
  using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;
  /// A one-result generic whose body yields `body`'s value.
  Value generic(Value init, ValueRange inputs, ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators, BodyFn body) {
    return linalg::GenericOp::create(
               builder, loc, init.getType(), inputs, init, maps, iterators,
               [&](OpBuilder &nested, Location at, ValueRange args) {
                 linalg::YieldOp::create(nested, at, body(nested, at, args));
               })
        .getResult(0);
  }

  Value scores();
  Value scaledAndMasked(Value scores);
  /// The row reduction of `scores` [B, Hq, Sq, Skv] into [B, Hq, Sq].
  Value rowReduction(Value scores, double identity, bool max);
  Value exponentials(Value scores, Value max);
  Value output(Value exps, Value sum);
  Value logSumExp(Value max, Value sum);

  OpBuilder &builder;
  Location loc;
  AttentionOp op;
  Type f32;
  static constexpr auto par = utils::IteratorType::parallel;
  static constexpr auto red = utils::IteratorType::reduction;
};

/// S[b, h, i, j] = sum_d Q[b, i, h, d] K[b, j, h / G, d].
Value Decomposer::scores() {
  Value q = op.getQuery(), k = op.getKey();
  Value init = filled({size(q, 0), size(q, 2), size(q, 1), size(k, 1)}, 0.0);
  AffineExpr b = dim(0), h = dim(1), i = dim(2), j = dim(3), d = dim(4);
  return generic(init, {q, k},
                 {map(5, {b, i, h, d}), map(5, {b, j, kvHead(h), d}),
                  map(5, {b, h, i, j})},
                 {par, par, par, par, red},
                 [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                   Value product =
                       arith::MulFOp::create(body, at, toF32(body, at, args[0]),
                                             toF32(body, at, args[1]));
                   return arith::AddFOp::create(body, at, product, args[2]);
                 });
}

/// scale * S where query i sees key j (AttnAttrs.td's bottom-right
/// masks), else -inf.
Value Decomposer::scaledAndMasked(Value scores) {
  MaskAttr mask = op.getMask();
  double scale = op.getEffectiveScale();
  // The diagonal's offset Skv - Sq, from the sizes when they are dynamic.
  Value offset;
  if (!mask.isNone()) {
    Value seqQ =
        getValueOrCreateConstantIndexOp(builder, loc, size(op.getQuery(), 1));
    Value seqKV =
        getValueOrCreateConstantIndexOp(builder, loc, size(op.getKey(), 1));
    offset = arith::SubIOp::create(builder, loc, seqKV, seqQ);
  }
  int64_t left = mask.getLeft(), right = mask.getRight();
  if (mask.getKind() == MaskKind::Causal) {
    left = -1;
    right = 0;
  }
  AffineMap identity = builder.getMultiDimIdentityMap(4);
  return generic(
      scores, {}, {identity}, {par, par, par, par},
      [&](OpBuilder &body, Location at, ValueRange args) -> Value {
        Value scaled = arith::MulFOp::create(body, at, args[0],
                                             constantF32(body, at, scale));
        if (mask.isNone())
          return scaled;
        Value i = linalg::IndexOp::create(body, at, 2);
        Value j = linalg::IndexOp::create(body, at, 3);
        Value diagonal = arith::AddIOp::create(body, at, i, offset);
        Value keep = arith::ConstantIntOp::create(body, at, 1, 1);
        auto bound = [&](int64_t distance, arith::CmpIPredicate predicate) {
          Value edge = arith::AddIOp::create(
              body, at, diagonal,
              arith::ConstantIndexOp::create(body, at, distance));
          Value inside = arith::CmpIOp::create(body, at, predicate, j, edge);
          keep = arith::AndIOp::create(body, at, keep, inside);
        };
        if (right >= 0)
          bound(right, arith::CmpIPredicate::sle);
        if (left >= 0)
          bound(-left, arith::CmpIPredicate::sge);
        Value hidden =
            constantF32(body, at, -std::numeric_limits<double>::infinity());
        return arith::SelectOp::create(body, at, keep, scaled, hidden);
      });
}

Value Decomposer::rowReduction(Value scores, double identity, bool max) {
  SmallVector<OpFoldResult> sizes = {size(scores, 0), size(scores, 1),
                                     size(scores, 2)};
  AffineExpr b = dim(0), h = dim(1), i = dim(2), j = dim(3);
  return generic(
      filled(sizes, identity), {scores},
      {map(4, {b, h, i, j}), map(4, {b, h, i})}, {par, par, par, red},
      [&](OpBuilder &body, Location at, ValueRange args) -> Value {
        if (max)
          return arith::MaximumFOp::create(body, at, args[0], args[1]);
        return arith::AddFOp::create(body, at, args[0], args[1]);
      });
}

/// exp(S - max), 0 in a row that sees no key (its max -inf).
Value Decomposer::exponentials(Value scores, Value max) {
  AffineExpr b = dim(0), h = dim(1), i = dim(2), j = dim(3);
  AffineMap identity = builder.getMultiDimIdentityMap(4);
  return generic(
      scores, {max}, {map(4, {b, h, i}), identity}, {par, par, par, par},
      [&](OpBuilder &body, Location at, ValueRange args) -> Value {
        Value rowMax = args[0], score = args[1];
        Value exp = math::ExpOp::create(
            body, at, arith::SubFOp::create(body, at, score, rowMax));
        Value empty = arith::CmpFOp::create(
            body, at, arith::CmpFPredicate::OEQ, rowMax,
            constantF32(body, at, -std::numeric_limits<double>::infinity()));
        return arith::SelectOp::create(body, at, empty,
                                       constantF32(body, at, 0.0), exp);
      });
}

/// O[b, i, h, e] = (sum_j P[b, h, i, j] V[b, j, h / G, e]) / sum, 0 where
/// the sum is 0, in the operands' type.
Value Decomposer::output(Value exps, Value sum) {
  Value q = op.getQuery(), v = op.getValue();
  SmallVector<OpFoldResult> sizes = {size(q, 0), size(q, 1), size(q, 2),
                                     size(v, 3)};
  AffineExpr b = dim(0), i = dim(1), h = dim(2), e = dim(3), j = dim(4);
  Value products =
      generic(filled(sizes, 0.0), {exps, v},
              {map(5, {b, h, i, j}), map(5, {b, j, kvHead(h), e}),
               map(5, {b, i, h, e})},
              {par, par, par, par, red},
              [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                Value product = arith::MulFOp::create(body, at, args[0],
                                                      toF32(body, at, args[1]));
                return arith::AddFOp::create(body, at, product, args[2]);
              });
  Type element = cast<ShapedType>(q.getType()).getElementType();
  Value init = tensor::EmptyOp::create(builder, loc, sizes, element);
  AffineMap identity = builder.getMultiDimIdentityMap(4);
  return generic(
      init, {products, sum}, {identity, map(4, {b, h, i}), identity},
      {par, par, par, par},
      [&](OpBuilder &body, Location at, ValueRange args) -> Value {
        Value zero = constantF32(body, at, 0.0);
        Value divided = arith::DivFOp::create(body, at, args[0], args[1]);
        Value empty = arith::CmpFOp::create(body, at, arith::CmpFPredicate::OEQ,
                                            args[1], zero);
        Value o = arith::SelectOp::create(body, at, empty, zero, divided);
        return element == f32
                   ? o
                   : arith::TruncFOp::create(body, at, element, o).getResult();
      });
}

/// LSE = max + log(sum): -inf in a row that sees no key.
Value Decomposer::logSumExp(Value max, Value sum) {
  AffineMap identity = builder.getMultiDimIdentityMap(3);
  Value init = tensor::EmptyOp::create(
      builder, loc, {size(max, 0), size(max, 1), size(max, 2)}, f32);
  return generic(init, {max, sum}, {identity, identity, identity},
                 {par, par, par},
                 [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                   Value log = math::LogOp::create(body, at, args[1]);
                   return arith::AddFOp::create(body, at, args[0], log);
                 });
}

SmallVector<Value> Decomposer::build() {
  Value masked = scaledAndMasked(scores());
  Value max =
      rowReduction(masked, -std::numeric_limits<double>::infinity(), true);
  Value exps = exponentials(masked, max);
  Value sum = rowReduction(exps, 0.0, false);
  SmallVector<Value> results = {output(exps, sum)};
  if (op->getNumResults() == 2)
    results.push_back(logSumExp(max, sum));
  return results;
}

struct AttnDecomposePass
    : public fa4::attn::impl::AttnDecomposeBase<AttnDecomposePass> {
  void runOnOperation() override {
    SmallVector<AttentionOp> ops;
    getOperation()->walk([&](AttentionOp op) {
      if (!op.hasBufferSemantics())
        ops.push_back(op);
    });
    for (AttentionOp op : ops) {
      OpBuilder builder(op);
      SmallVector<Value> results = Decomposer(builder, op).build();
      // The results' types as the op declares them (dynamic dims included).
      for (auto [old, computed] : llvm::zip(op->getResults(), results)) {
        Value replacement = computed;
        if (computed.getType() != old.getType())
          replacement = tensor::CastOp::create(builder, op.getLoc(),
                                               old.getType(), computed);
        old.replaceAllUsesWith(replacement);
      }
      op->erase();
    }
  }
};

} // namespace
