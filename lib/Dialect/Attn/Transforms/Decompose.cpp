//===- Decompose.cpp - attn-decompose: attn.attention as linalg -----------===//
//
// Writes what attn.attention means as linalg generics on tensors, the
// softmax in f32 (AttnOps.td): the reference raised IR is run against on the
// CPU, where a kernel cannot run.
//
//===----------------------------------------------------------------------===//

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"

#include <functional>
#include <limits>
#include <optional>

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNDECOMPOSE
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;

namespace {

/// Which keys a query sees, built in a generic's body from the loop
/// indices (b, i, j, all index): an i1, or null where every key is seen.
using KeepFn =
    std::function<Value(OpBuilder &, Location, Value b, Value i, Value j)>;

/// One attention as the generics see it: Q [B, Sq, Hq, Dqk], K [B, Skv,
/// Hkv, Dqk], V [B, Skv, Hkv, Dv] (the serving forms' views of theirs),
/// O in `element`. `prepareKeep` builds what the mask reads (sizes, each
/// token's sequence) where the masking generic goes, and returns its keep.
struct DenseView {
  Value query, key, value;
  Type element;
  int64_t numQueryHeads, numKVHeads;
  double scale;
  bool hasLse;
  std::function<KeepFn()> prepareKeep;
  /// The op's softcap c: scaled scores s become c * tanh(s / c).
  std::optional<double> softcap = std::nullopt;
  /// The op's sinks, f32 [Hq], or null.
  Value sinks = Value();
  /// The FP8 operands' descales, f32 [] or [B, Hkv], or null.
  Value qDescale = Value(), kDescale = Value(), vDescale = Value();
};

/// Builds the generics of one attention; loops are named by letter in the
/// comments: b batch, h query head, i query, j key, d QK depth, e OV depth.
class Decomposer {
public:
  Decomposer(OpBuilder &builder, Location loc, DenseView view)
      : builder(builder), loc(loc), view(std::move(view)),
        f32(builder.getF32Type()) {}

  /// O [B, Sq, Hq, Dv], then LSE [B, Hq, Sq] where asked for.
  SmallVector<Value> build();
  /// attn.attention_backward: dQ, dK and dV (each in view.element) from
  /// dO, O (both [B, Sq, Hq, Dv]) and LSE [B, Hq, Sq].
  SmallVector<Value> buildBackward(Value gradOutput, Value output, Value lse);

private:
  AffineMap map(unsigned loops, ArrayRef<AffineExpr> results) {
    return AffineMap::get(loops, 0, results, builder.getContext());
  }
  AffineExpr dim(unsigned position) {
    return builder.getAffineDimExpr(position);
  }
  /// The key/value head query head `h` reads.
  AffineExpr kvHead(AffineExpr h) {
    return h.floorDiv(view.numQueryHeads / view.numKVHeads);
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

  /// The indexing map of `descale` in a generic of `loops` loops: the
  /// tensor's one value (rank 0), or [b, key/value head of h].
  AffineMap descaleMap(Value descale, unsigned loops, AffineExpr b,
                       AffineExpr h) {
    if (cast<ShapedType>(descale.getType()).getRank() == 0)
      return map(loops, {});
    return map(loops, {b, kvHead(h)});
  }
  /// sum_r x[r] y[r] * descales over the reduced loop: the generic of
  /// inputs {x, y} and their descales (those not null), into `init`.
  Value descaledContraction(Value init, Value x, Value y,
                            ArrayRef<Value> descales,
                            ArrayRef<AffineMap> operandMaps, unsigned loops,
                            AffineExpr b, AffineExpr h);

  Value scores();
  Value scaledAndMasked(Value scores);
  Value softcapped(OpBuilder &body, Location at, Value s, double c);
  /// The row reduction of `scores` [B, Hq, Sq, Skv] into [B, Hq, Sq].
  Value rowReduction(Value scores, double identity, bool max);
  Value withSinkInMax(Value max);
  Value withSinkInSum(Value sum, Value max);
  Value exponentials(Value scores, Value max);
  Value output(Value exps, Value sum);
  Value logSumExp(Value max, Value sum);
  /// sum over the reduction loops of the product of `inputs` (in f32)
  /// into `init`.
  Value sumOfProducts(Value init, ValueRange inputs, ArrayRef<AffineMap> maps,
                      ArrayRef<utils::IteratorType> iterators);
  /// A tensor of f32 zeros of `like`'s shape.
  Value zerosLike(Value like);
  /// dK or dV [B, Skv, Hkv, D] (`like`'s shape) = sum over the query heads
  /// h of each key/value head and the queries i of perScore[b, h, i, j]
  /// perQuery[b, i, h, d] (P and dO for dV, dS and Q for dK).
  Value keyGradient(Value perScore, Value perQuery, Value like);
  /// `value` (f32) in view.element.
  Value truncated(Value value);
  Value scoreGradients(Value probs, Value gradProbs, Value rowDots,
                       Value capped);

  OpBuilder &builder;
  Location loc;
  DenseView view;
  Type f32;
  static constexpr auto par = utils::IteratorType::parallel;
  static constexpr auto red = utils::IteratorType::reduction;
};

Value Decomposer::descaledContraction(Value init, Value x, Value y,
                                      ArrayRef<Value> descales,
                                      ArrayRef<AffineMap> operandMaps,
                                      unsigned loops, AffineExpr b,
                                      AffineExpr h) {
  // operandMaps: x's, y's, then the result's.
  SmallVector<Value> inputs = {x, y};
  SmallVector<AffineMap> maps = {operandMaps[0], operandMaps[1]};
  for (Value descale : descales)
    if (descale) {
      inputs.push_back(descale);
      maps.push_back(descaleMap(descale, loops, b, h));
    }
  maps.push_back(operandMaps[2]);
  SmallVector<utils::IteratorType> iterators(loops - 1, par);
  iterators.push_back(red);
  return sumOfProducts(init, inputs, maps, iterators);
}

/// S[b, h, i, j] = sum_d Q[b, i, h, d] K[b, j, h / G, d], each FP8 operand
/// times its descale.
Value Decomposer::scores() {
  Value q = view.query, k = view.key;
  Value init = filled({size(q, 0), size(q, 2), size(q, 1), size(k, 1)}, 0.0);
  AffineExpr b = dim(0), h = dim(1), i = dim(2), j = dim(3), d = dim(4);
  return descaledContraction(init, q, k, {view.qDescale, view.kDescale},
                             {map(5, {b, i, h, d}),
                              map(5, {b, j, kvHead(h), d}),
                              map(5, {b, h, i, j})},
                             5, b, h);
}

/// c * tanh(s / c), tanh(x) as 1 - 2 / (exp(2x) + 1): math.tanh has no
/// lowering on every backend the decomposition runs on, exp does; it
/// saturates to +-1 where exp overflows or vanishes.
Value Decomposer::softcapped(OpBuilder &body, Location at, Value s, double c) {
  auto constant = [&](double v) { return constantF32(body, at, v); };
  Value twice = arith::MulFOp::create(body, at, s, constant(2.0 / c));
  Value e = math::ExpOp::create(body, at, twice);
  Value ratio =
      arith::DivFOp::create(body, at, constant(2.0),
                            arith::AddFOp::create(body, at, e, constant(1.0)));
  Value tanh = arith::SubFOp::create(body, at, constant(1.0), ratio);
  return arith::MulFOp::create(body, at, tanh, constant(c));
}

/// scale * S (softcapped, where asked) where query i sees key j
/// (view.keep), else -inf.
Value Decomposer::scaledAndMasked(Value scores) {
  double scale = view.scale;
  KeepFn keeps = view.prepareKeep();
  AffineMap identity = builder.getMultiDimIdentityMap(4);
  return generic(
      scores, {}, {identity}, {par, par, par, par},
      [&](OpBuilder &body, Location at, ValueRange args) -> Value {
        Value scaled = arith::MulFOp::create(body, at, args[0],
                                             constantF32(body, at, scale));
        if (view.softcap)
          scaled = softcapped(body, at, scaled, *view.softcap);
        if (!keeps)
          return scaled;
        Value i = linalg::IndexOp::create(body, at, 2);
        Value j = linalg::IndexOp::create(body, at, 3);
        auto b = linalg::IndexOp::create(body, at, 0);
        Value keep = keeps(body, at, b, i, j);
        if (b->use_empty())
          b->erase();
        if (!keep)
          return scaled;
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

/// max(max, sinks[h]) per row [B, Hq, Sq]: the sink joins each row's max.
Value Decomposer::withSinkInMax(Value max) {
  AffineExpr h = dim(1);
  AffineMap identity = builder.getMultiDimIdentityMap(3);
  return generic(max, {view.sinks}, {map(3, {h}), identity}, {par, par, par},
                 [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                   return arith::MaximumFOp::create(body, at, args[0], args[1]);
                 });
}

/// sum + exp(sinks[h] - max) per row: the sink's term in the denominator,
/// with no value row.
Value Decomposer::withSinkInSum(Value sum, Value max) {
  AffineExpr h = dim(1);
  AffineMap identity = builder.getMultiDimIdentityMap(3);
  return generic(sum, {view.sinks, max}, {map(3, {h}), identity, identity},
                 {par, par, par},
                 [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                   Value sink = math::ExpOp::create(
                       body, at,
                       arith::SubFOp::create(body, at, args[0], args[1]));
                   return arith::AddFOp::create(body, at, args[2], sink);
                 });
}

/// exp(S - max), 0 in a row that sees no key (its max -inf).
Value Decomposer::exponentials(Value scores, Value max) {
  AffineExpr b = dim(0), h = dim(1), i = dim(2);
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

/// O[b, i, h, e] = (sum_j P[b, h, i, j] V[b, j, h / G, e]) / sum (V times
/// its descale), 0 where the sum is 0, in O's type.
Value Decomposer::output(Value exps, Value sum) {
  Value q = view.query, v = view.value;
  SmallVector<OpFoldResult> sizes = {size(q, 0), size(q, 1), size(q, 2),
                                     size(v, 3)};
  AffineExpr b = dim(0), i = dim(1), h = dim(2), e = dim(3), j = dim(4);
  Value products =
      descaledContraction(filled(sizes, 0.0), exps, v, {view.vDescale},
                          {map(5, {b, h, i, j}), map(5, {b, j, kvHead(h), e}),
                           map(5, {b, i, h, e})},
                          5, b, h);
  Type element = view.element;
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

Value Decomposer::sumOfProducts(Value init, ValueRange inputs,
                                ArrayRef<AffineMap> maps,
                                ArrayRef<utils::IteratorType> iterators) {
  return generic(init, inputs, maps, iterators,
                 [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                   Value product = toF32(body, at, args[0]);
                   for (Value factor : args.drop_front().drop_back())
                     product = arith::MulFOp::create(body, at, product,
                                                     toF32(body, at, factor));
                   return arith::AddFOp::create(body, at, product, args.back());
                 });
}

Value Decomposer::zerosLike(Value like) {
  auto rank = cast<ShapedType>(like.getType()).getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(size(like, d));
  return filled(sizes, 0.0);
}

Value Decomposer::keyGradient(Value perScore, Value perQuery, Value like) {
  // Loops b j h d i; h is reduced into its key/value head h / G.
  AffineExpr b = dim(0), j = dim(1), h = dim(2), d = dim(3), i = dim(4);
  return sumOfProducts(zerosLike(like), {perScore, perQuery},
                       {map(5, {b, h, i, j}), map(5, {b, i, h, d}),
                        map(5, {b, j, kvHead(h), d})},
                       {par, par, red, par, red});
}

Value Decomposer::truncated(Value value) {
  auto type = cast<ShapedType>(value.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(size(value, d));
  Value init = tensor::EmptyOp::create(builder, loc, sizes, view.element);
  AffineMap identity = builder.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(), par);
  return generic(init, {value}, {identity, identity}, iterators,
                 [&](OpBuilder &body, Location at, ValueRange args) -> Value {
                   return arith::TruncFOp::create(body, at, view.element,
                                                  args[0]);
                 });
}

/// dS = P (dP - D) scale [B, Hq, Sq, Skv], times 1 - (s / c)^2 under a
/// softcap c (d(c tanh(x / c)) / dx at the capped score s); 0 where P is 0
/// (a hidden key's s is -inf).
Value Decomposer::scoreGradients(Value probs, Value gradProbs, Value rowDots,
                                 Value capped) {
  AffineExpr b = dim(0), h = dim(1), i = dim(2);
  AffineMap identity = builder.getMultiDimIdentityMap(4);
  return generic(
      probs, {gradProbs, rowDots, capped},
      {identity, map(4, {b, h, i}), identity, identity}, {par, par, par, par},
      [&](OpBuilder &body, Location at, ValueRange args) -> Value {
        Value dP = args[0], rowDot = args[1], s = args[2], p = args[3];
        Value grad = arith::MulFOp::create(
            body, at, p, arith::SubFOp::create(body, at, dP, rowDot));
        if (view.softcap) {
          Value ratio = arith::DivFOp::create(
              body, at, s, constantF32(body, at, *view.softcap));
          Value slope = arith::SubFOp::create(
              body, at, constantF32(body, at, 1.0),
              arith::MulFOp::create(body, at, ratio, ratio));
          Value seen =
              arith::CmpFOp::create(body, at, arith::CmpFPredicate::ONE, p,
                                    constantF32(body, at, 0.0));
          grad = arith::SelectOp::create(
              body, at, seen, arith::MulFOp::create(body, at, grad, slope),
              constantF32(body, at, 0.0));
        }
        return arith::MulFOp::create(body, at, grad,
                                     constantF32(body, at, view.scale));
      });
}

SmallVector<Value> Decomposer::buildBackward(Value gradOutput, Value output,
                                             Value lse) {
  Value q = view.query, k = view.key, v = view.value;
  Value capped = scaledAndMasked(scores());
  // P = exp(s - LSE), 0 in a row that saw no key (LSE -inf).
  Value probs = exponentials(capped, lse);
  Value gradValue = keyGradient(probs, gradOutput, v);
  // dP[b, h, i, j] = sum_e dO[b, i, h, e] V[b, j, h / G, e]: loops b h i j
  // e.
  AffineExpr b = dim(0), h = dim(1), i = dim(2), j = dim(3), e = dim(4);
  Value gradProbs = sumOfProducts(
      filled({size(q, 0), size(q, 2), size(q, 1), size(k, 1)}, 0.0),
      {gradOutput, v},
      {map(5, {b, i, h, e}), map(5, {b, j, kvHead(h), e}),
       map(5, {b, h, i, j})},
      {par, par, par, par, red});
  // D[b, h, i] = sum_e dO[b, i, h, e] O[b, i, h, e]: loops b h i e.
  AffineExpr eo = dim(3);
  Value rowDots = sumOfProducts(
      filled({size(q, 0), size(q, 2), size(q, 1)}, 0.0), {gradOutput, output},
      {map(4, {b, i, h, eo}), map(4, {b, i, h, eo}), map(4, {b, h, i})},
      {par, par, par, red});
  Value gradScores = scoreGradients(probs, gradProbs, rowDots, capped);
  // dQ[b, i, h, d] = sum_j dS[b, h, i, j] K[b, j, h / G, d]: loops b i h d
  // j.
  AffineExpr iQ = dim(1), hQ = dim(2), dQ = dim(3), jQ = dim(4);
  Value gradQuery =
      sumOfProducts(zerosLike(q), {gradScores, k},
                    {map(5, {b, hQ, iQ, jQ}), map(5, {b, jQ, kvHead(hQ), dQ}),
                     map(5, {b, iQ, hQ, dQ})},
                    {par, par, par, par, red});
  Value gradKey = keyGradient(gradScores, q, k);
  return {truncated(gradQuery), truncated(gradKey), truncated(gradValue)};
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
  if (view.sinks)
    max = withSinkInMax(max);
  Value exps = exponentials(masked, max);
  Value sum = rowReduction(exps, 0.0, false);
  if (view.sinks)
    sum = withSinkInSum(sum, max);
  SmallVector<Value> results = {output(exps, sum)};
  if (view.hasLse)
    results.push_back(logSumExp(max, sum));
  return results;
}

/// Whether query `i` sees key `j` of a problem whose diagonal is offset by
/// `offset` = Skv - Sq (AttnAttrs.td's bottom-right masks), or null where
/// the mask hides nothing.
Value maskKeeps(OpBuilder &body, Location at, MaskAttr mask, Value i, Value j,
                Value offset) {
  if (mask.isNone())
    return Value();
  int64_t left = mask.getLeft(), right = mask.getRight();
  if (mask.getKind() == MaskKind::Causal) {
    left = -1;
    right = 0;
  }
  Value diagonal = arith::AddIOp::create(body, at, i, offset);
  Value keep = arith::ConstantIntOp::create(body, at, 1, 1);
  auto bound = [&](int64_t distance, arith::CmpIPredicate predicate) {
    Value edge = arith::AddIOp::create(
        body, at, diagonal, arith::ConstantIndexOp::create(body, at, distance));
    Value inside = arith::CmpIOp::create(body, at, predicate, j, edge);
    keep = arith::AndIOp::create(body, at, keep, inside);
  };
  if (right >= 0)
    bound(right, arith::CmpIPredicate::sle);
  if (left >= 0)
    bound(-left, arith::CmpIPredicate::sge);
  return keep;
}

/// `tensor`'s element at `indices` (index values) as an index.
Value extractIndex(OpBuilder &body, Location at, Value tensor,
                   ValueRange indices) {
  Value element = tensor::ExtractOp::create(body, at, tensor, indices);
  return arith::IndexCastOp::create(body, at, body.getIndexType(), element);
}

OpFoldResult dimOf(OpBuilder &builder, Location loc, Value tensor,
                   int64_t position) {
  return tensor::getMixedSize(builder, loc, tensor, position);
}

/// [T, H, D] as [1, T, H, D].
Value addUnitBatch(OpBuilder &builder, Location loc, Value packed) {
  auto type = cast<RankedTensorType>(packed.getType());
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, type.getShape());
  return tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()), packed,
      SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}});
}

/// [1, ...] as [...], merging the unit batch into the next dimension.
Value dropUnitBatch(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<ReassociationIndices> groups = {{0, 1}};
  for (int64_t d = 2; d < type.getRank(); ++d)
    groups.push_back({d});
  return tensor::CollapseShapeOp::create(builder, loc, value, groups);
}

/// The keep of `mask` over BSHD `query` and `key` of one Sq and Skv for the
/// batch, its diagonal offset built at `builder`'s insertion point; none
/// without a mask.
KeepFn denseKeep(OpBuilder &builder, Location loc, MaskAttr mask, Value query,
                 Value key) {
  if (mask.isNone())
    return KeepFn();
  Value seqQ = getValueOrCreateConstantIndexOp(builder, loc,
                                               dimOf(builder, loc, query, 1));
  Value seqKV = getValueOrCreateConstantIndexOp(builder, loc,
                                                dimOf(builder, loc, key, 1));
  Value offset = arith::SubIOp::create(builder, loc, seqKV, seqQ);
  return [=](OpBuilder &body, Location at, Value, Value i, Value j) {
    return maskKeeps(body, at, mask, i, j, offset);
  };
}

/// attn.attention: one Sq and Skv for the batch (no keep without a mask).
DenseView denseView(OpBuilder &builder, AttentionOp op) {
  Location loc = op.getLoc();
  MaskAttr mask = op.getMask();
  Value query = op.getQuery(), key = op.getKey();
  return {query,
          key,
          op.getValue(),
          cast<ShapedType>(op.getOutput().getType()).getElementType(),
          op.getNumQueryHeads(),
          op.getNumKVHeads(),
          op.getEffectiveScale(),
          static_cast<bool>(op.getLse()),
          [&builder, loc, mask, query, key] {
            return denseKeep(builder, loc, mask, query, key);
          }};
}

/// attn.attention_backward: the forward's view of its Q, K and V.
DenseView backwardView(OpBuilder &builder, AttentionBackwardOp op) {
  Location loc = op.getLoc();
  MaskAttr mask = op.getMask();
  Value query = op.getQuery(), key = op.getKey();
  auto shaped = [](Value value) { return cast<ShapedType>(value.getType()); };
  DenseView view = {query,
                    key,
                    op.getValue(),
                    shaped(query).getElementType(),
                    shaped(query).getDimSize(2),
                    shaped(key).getDimSize(2),
                    op.getEffectiveScale(),
                    /*hasLse=*/false,
                    [&builder, loc, mask, query, key] {
                      return denseKeep(builder, loc, mask, query, key);
                    }};
  if (std::optional<APFloat> softcap = op.getSoftcap())
    view.softcap = softcap->convertToDouble();
  return view;
}

/// How many sequences every index vector has an entry for: the least of
/// each vector's length less its `extra` entries (1 for cu_seqlens), at
/// least 0, so that a dynamic length the verifier could not compare never
/// lets the generics read past a vector.
Value sequenceCount(OpBuilder &builder, Location loc,
                    ArrayRef<std::pair<Value, int64_t>> vectors) {
  SmallVector<AffineExpr> results = {builder.getAffineConstantExpr(0)};
  SmallVector<OpFoldResult> sizes;
  for (auto [vector, extra] : vectors) {
    results.push_back(builder.getAffineSymbolExpr(sizes.size()) - extra);
    sizes.push_back(dimOf(builder, loc, vector, 0));
  }
  AffineMap lengths =
      AffineMap::get(0, sizes.size(), results, builder.getContext());
  // min over the vectors' lengths, then max with 0.
  OpFoldResult least = affine::makeComposedFoldedAffineMin(
      builder, loc, lengths.dropResult(0), sizes);
  return getValueOrCreateConstantIndexOp(
      builder, loc,
      affine::makeComposedFoldedAffineMax(
          builder, loc,
          AffineMap::get(0, 1,
                         {builder.getAffineConstantExpr(0),
                          builder.getAffineSymbolExpr(0)},
                         builder.getContext()),
          {least}));
}

/// `then`'s value where `condition` holds, else `otherwise`'s: only the
/// chosen side is built to run (a read that may not exist stays unread).
Value valueIf(OpBuilder &body, Location at, Value condition,
              function_ref<Value(OpBuilder &, Location)> then,
              function_ref<Value(OpBuilder &, Location)> otherwise) {
  return scf::IfOp::create(
             body, at, condition,
             [&](OpBuilder &in, Location inAt) {
               scf::YieldOp::create(in, inAt, then(in, inAt));
             },
             [&](OpBuilder &in, Location inAt) {
               scf::YieldOp::create(in, inAt, otherwise(in, inAt));
             })
      .getResult(0);
}

/// `keep(body)` where `inBatch` holds, else false: the index vectors are
/// read only at entries that exist.
Value keepInBatch(OpBuilder &body, Location at, Value inBatch,
                  function_ref<Value(OpBuilder &, Location)> keep) {
  return valueIf(body, at, inBatch, keep, [](OpBuilder &in, Location inAt) {
    return arith::ConstantIntOp::create(in, inAt, 0, 1).getResult();
  });
}

/// Whether query `query` of a sequence of `seqQ` queries and `seqKV` keys
/// sees key `key` (indices within the sequence; the key may lie outside
/// it): a key of the sequence, kept by the mask aligned to its corner.
Value sequenceKeeps(OpBuilder &body, Location at, MaskAttr mask, Value query,
                    Value key, Value seqQ, Value seqKV) {
  Value zero = arith::ConstantIndexOp::create(body, at, 0);
  Value keep = arith::AndIOp::create(
      body, at,
      arith::CmpIOp::create(body, at, arith::CmpIPredicate::sge, key, zero),
      arith::CmpIOp::create(body, at, arith::CmpIPredicate::slt, key, seqKV));
  Value offset = arith::SubIOp::create(body, at, seqKV, seqQ);
  Value masked = maskKeeps(body, at, mask, query, key, offset);
  return masked ? arith::AndIOp::create(body, at, keep, masked).getResult()
                : keep;
}

/// Sequence `s`'s first token and token count from cu_seqlens `cu`.
std::pair<Value, Value> spanOf(OpBuilder &body, Location at, Value cu,
                               Value s) {
  Value next = arith::AddIOp::create(
      body, at, s, arith::ConstantIndexOp::create(body, at, 1));
  Value first = extractIndex(body, at, cu, s);
  Value count =
      arith::SubIOp::create(body, at, extractIndex(body, at, cu, next), first);
  return {first, count};
}

/// `keep(s)` for packed query token `i`'s sequence s (`sequenceOf`), false
/// for a token past the `sequences` every index vector has.
Value keepForToken(OpBuilder &body, Location at, Value sequenceOf,
                   Value sequences, Value i,
                   function_ref<Value(OpBuilder &, Location, Value)> keep) {
  Value s = extractIndex(body, at, sequenceOf, i);
  Value inBatch =
      arith::CmpIOp::create(body, at, arith::CmpIPredicate::ult, s, sequences);
  return keepInBatch(body, at, inBatch, [&](OpBuilder &in, Location inAt) {
    return keep(in, inAt, s);
  });
}

/// For each packed query token, its sequence: how many sequences end at or
/// before it (B for a token past cu_seqlens_q[B]).
Value sequenceOfTokens(OpBuilder &builder, Location loc, Value cuSeqlens,
                       OpFoldResult tokens) {
  Type i32 = builder.getI32Type();
  OpFoldResult sequences =
      getAsOpFoldResult(sequenceCount(builder, loc, {{cuSeqlens, 1}}));
  // cu_seqlens[1:]: where each sequence ends.
  Value ends = tensor::ExtractSliceOp::create(
      builder, loc, cuSeqlens, ArrayRef<OpFoldResult>{builder.getIndexAttr(1)},
      ArrayRef<OpFoldResult>{sequences},
      ArrayRef<OpFoldResult>{builder.getIndexAttr(1)});
  Value zero = arith::ConstantIntOp::create(builder, loc, i32, 0);
  Value empty = tensor::EmptyOp::create(builder, loc, {tokens}, i32);
  Value init = linalg::FillOp::create(builder, loc, zero, empty).getResult(0);
  MLIRContext *context = builder.getContext();
  AffineExpr i = getAffineDimExpr(0, context), b = getAffineDimExpr(1, context);
  return linalg::GenericOp::create(
             builder, loc, init.getType(), ValueRange{ends}, ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(2, 0, {b}, context),
                                 AffineMap::get(2, 0, {i}, context)},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                           utils::IteratorType::reduction},
             [&](OpBuilder &body, Location at, ValueRange args) {
               Value token = arith::IndexCastOp::create(
                   body, at, i32, linalg::IndexOp::create(body, at, 0));
               Value ended = arith::CmpIOp::create(
                   body, at, arith::CmpIPredicate::sle, args[0], token);
               Value count = arith::AddIOp::create(
                   body, at, args[1],
                   arith::ExtUIOp::create(body, at, i32, ended));
               linalg::YieldOp::create(body, at, count);
             })
      .getResult(0);
}

/// attn.varlen_attention as one sequence of all tokens (batch 1) where
/// query i sees key j only in its own sequence s, j within the keys s
/// counts (seqused_k), and the mask aligned to s's own corner.
DenseView varlenView(OpBuilder &builder, VarlenAttentionOp op) {
  Location loc = op.getLoc();
  Value cuQ = op.getCuSeqlensQ(), cuK = op.getCuSeqlensK(),
        used = op.getSequsedK();
  MaskAttr mask = op.getMask();
  Value packedQuery = op.getQuery();
  auto type = cast<ShapedType>(packedQuery.getType());
  return {
      addUnitBatch(builder, loc, op.getQuery()),
      addUnitBatch(builder, loc, op.getKey()),
      addUnitBatch(builder, loc, op.getValue()),
      cast<ShapedType>(op.getResults()[0].getType()).getElementType(),
      type.getDimSize(1),
      cast<ShapedType>(op.getKey().getType()).getDimSize(1),
      op.getEffectiveScale(),
      op.getResults().size() == 2,
      [&builder, loc, mask, packedQuery, cuQ, cuK, used]() -> KeepFn {
        Value sequenceOf = sequenceOfTokens(
            builder, loc, cuQ, dimOf(builder, loc, packedQuery, 0));
        SmallVector<std::pair<Value, int64_t>> vectors = {{cuQ, 1}, {cuK, 1}};
        if (used)
          vectors.push_back({used, 0});
        Value sequences = sequenceCount(builder, loc, vectors);
        return [=](OpBuilder &body, Location at, Value, Value i, Value j) {
          return keepForToken(
              body, at, sequenceOf, sequences, i,
              [&](OpBuilder &in, Location inAt, Value s) -> Value {
                auto [firstQ, seqQ] = spanOf(in, inAt, cuQ, s);
                auto [firstK, seqKV] = spanOf(in, inAt, cuK, s);
                if (used)
                  seqKV = arith::MinSIOp::create(
                      in, inAt, seqKV, extractIndex(in, inAt, used, s));
                return sequenceKeeps(
                    in, inAt, mask, arith::SubIOp::create(in, inAt, i, firstQ),
                    arith::SubIOp::create(in, inAt, j, firstK), seqQ, seqKV);
              });
        };
      }};
}

/// A paged cache gathered into [B, max_pages x page_size, H, D]: sequence
/// b's key j from page block_table[b, j / page_size]; keys past
/// seqlens_k[b] are zeros, their block-table entries never read.
Value gatherPages(OpBuilder &builder, Location loc, Value cache,
                  Value blockTable, Value seqlens) {
  auto cacheType = cast<RankedTensorType>(cache.getType());
  int64_t pageSize = cacheType.getDimSize(1);
  OpFoldResult pages = dimOf(builder, loc, blockTable, 1);
  AffineExpr p = builder.getAffineSymbolExpr(0);
  OpFoldResult keys = affine::makeComposedFoldedAffineApply(
      builder, loc, p * pageSize, {pages});
  SmallVector<OpFoldResult> sizes = {dimOf(builder, loc, blockTable, 0), keys,
                                     dimOf(builder, loc, cache, 2),
                                     dimOf(builder, loc, cache, 3)};
  Type element = cacheType.getElementType();
  Value init = tensor::EmptyOp::create(builder, loc, sizes, element);
  Value sequences =
      sequenceCount(builder, loc, {{seqlens, 0}, {blockTable, 0}});
  return linalg::GenericOp::create(
             builder, loc, init.getType(), ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{builder.getMultiDimIdentityMap(4)},
             SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
             [&](OpBuilder &body, Location at, ValueRange) {
               Value b = linalg::IndexOp::create(body, at, 0);
               Value j = linalg::IndexOp::create(body, at, 1);
               Value h = linalg::IndexOp::create(body, at, 2);
               Value d = linalg::IndexOp::create(body, at, 3);
               // seqlens_k[b] read only where it exists (b < sequences).
               auto zeroIndex = [](OpBuilder &in, Location inAt) -> Value {
                 return arith::ConstantIndexOp::create(in, inAt, 0);
               };
               Value length = valueIf(
                   body, at,
                   arith::CmpIOp::create(body, at, arith::CmpIPredicate::ult, b,
                                         sequences),
                   [&](OpBuilder &in, Location inAt) {
                     return extractIndex(in, inAt, seqlens, b);
                   },
                   zeroIndex);
               Value read = valueIf(
                   body, at,
                   arith::CmpIOp::create(body, at, arith::CmpIPredicate::slt, j,
                                         length),
                   [&](OpBuilder &in, Location inAt) -> Value {
                     Value size =
                         arith::ConstantIndexOp::create(in, inAt, pageSize);
                     Value page = extractIndex(
                         in, inAt, blockTable,
                         {b, arith::DivUIOp::create(in, inAt, j, size)});
                     Value row = arith::RemUIOp::create(in, inAt, j, size);
                     return tensor::ExtractOp::create(
                         in, inAt, cache, ValueRange{page, row, h, d});
                   },
                   [&](OpBuilder &in, Location inAt) -> Value {
                     return arith::ConstantOp::create(in, inAt,
                                                      in.getZeroAttr(element));
                   });
               linalg::YieldOp::create(body, at, read);
             })
      .getResult(0);
}

/// attn.paged_attention with dense queries: the gathered cache, each
/// sequence's keys counted by seqlens_k and the mask aligned to its own
/// corner.
DenseView pagedView(OpBuilder &builder, PagedAttentionOp op) {
  Location loc = op.getLoc();
  Value seqlens = op.getSeqlensK();
  MaskAttr mask = op.getMask();
  Value queryValue = op.getQuery();
  auto query = cast<ShapedType>(queryValue.getType());
  return {
      op.getQuery(),
      gatherPages(builder, loc, op.getKeyCache(), op.getBlockTable(), seqlens),
      gatherPages(builder, loc, op.getValueCache(), op.getBlockTable(),
                  seqlens),
      cast<ShapedType>(op.getResults()[0].getType()).getElementType(),
      query.getDimSize(2),
      cast<ShapedType>(op.getKeyCache().getType()).getDimSize(2),
      op.getEffectiveScale(),
      op.getResults().size() == 2,
      [&builder, loc, mask, queryValue, seqlens,
       blockTable = op.getBlockTable()]() -> KeepFn {
        Value seqQ = getValueOrCreateConstantIndexOp(
            builder, loc, dimOf(builder, loc, queryValue, 1));
        Value sequences =
            sequenceCount(builder, loc, {{seqlens, 0}, {blockTable, 0}});
        return [=](OpBuilder &body, Location at, Value b, Value i, Value j) {
          // A batch entry past the index vectors sees no key.
          Value inBatch = arith::CmpIOp::create(
              body, at, arith::CmpIPredicate::ult, b, sequences);
          return keepInBatch(
              body, at, inBatch, [&](OpBuilder &in, Location inAt) -> Value {
                return sequenceKeeps(in, inAt, mask, i, j, seqQ,
                                     extractIndex(in, inAt, seqlens, b));
              });
        };
      }};
}

/// attn.paged_attention with packed queries: one batch of all query
/// tokens over every sequence's gathered keys laid end to end (key j is
/// key j % K of sequence j / K, K = max_pages x page_size); query i sees
/// only its own sequence's keys, counted by seqlens_k, under the mask
/// aligned to its sequence's corner.
DenseView pagedPackedView(OpBuilder &builder, PagedAttentionOp op) {
  Location loc = op.getLoc();
  Value seqlens = op.getSeqlensK(), cuQ = op.getCuSeqlensQ(),
        blockTable = op.getBlockTable();
  MaskAttr mask = op.getMask();
  auto endToEnd = [&](Value cache) {
    Value gathered =
        gatherPages(builder, loc, cache, op.getBlockTable(), seqlens);
    return addUnitBatch(
        builder, loc,
        tensor::CollapseShapeOp::create(
            builder, loc, gathered,
            SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}}));
  };
  Value packedQuery = op.getQuery();
  Value key = endToEnd(op.getKeyCache());
  OpFoldResult keysPerSequence = affine::makeComposedFoldedAffineApply(
      builder, loc,
      builder.getAffineSymbolExpr(0) *
          cast<ShapedType>(op.getKeyCache().getType()).getDimSize(1),
      {dimOf(builder, loc, op.getBlockTable(), 1)});
  return {
      addUnitBatch(builder, loc, packedQuery),
      key,
      endToEnd(op.getValueCache()),
      cast<ShapedType>(op.getResults()[0].getType()).getElementType(),
      cast<ShapedType>(packedQuery.getType()).getDimSize(1),
      cast<ShapedType>(op.getKeyCache().getType()).getDimSize(2),
      op.getEffectiveScale(),
      op.getResults().size() == 2,
      [&builder, loc, mask, packedQuery, cuQ, seqlens, blockTable,
       keysPerSequence]() -> KeepFn {
        Value sequenceOf = sequenceOfTokens(
            builder, loc, cuQ, dimOf(builder, loc, packedQuery, 0));
        Value sequences = sequenceCount(
            builder, loc, {{cuQ, 1}, {seqlens, 0}, {blockTable, 0}});
        Value span =
            getValueOrCreateConstantIndexOp(builder, loc, keysPerSequence);
        return [=](OpBuilder &body, Location at, Value, Value i, Value j) {
          return keepForToken(
              body, at, sequenceOf, sequences, i,
              [&](OpBuilder &in, Location inAt, Value s) -> Value {
                auto [firstQ, seqQ] = spanOf(in, inAt, cuQ, s);
                // Key j is key j % span of sequence j / span.
                Value own = arith::CmpIOp::create(
                    in, inAt, arith::CmpIPredicate::eq,
                    arith::DivUIOp::create(in, inAt, j, span), s);
                Value keep = sequenceKeeps(
                    in, inAt, mask, arith::SubIOp::create(in, inAt, i, firstQ),
                    arith::RemUIOp::create(in, inAt, j, span), seqQ,
                    extractIndex(in, inAt, seqlens, s));
                return arith::AndIOp::create(in, inAt, own, keep).getResult();
              });
        };
      }};
}

/// Replaces `op`'s results by `computed`, cast to the types it declares
/// (dynamic dims included).
void replaceResults(OpBuilder &builder, Operation *op,
                    ArrayRef<Value> computed) {
  for (auto [old, value] : llvm::zip(op->getResults(), computed)) {
    Value replacement = value;
    if (value.getType() != old.getType())
      replacement =
          tensor::CastOp::create(builder, op->getLoc(), old.getType(), value);
    old.replaceAllUsesWith(replacement);
  }
  op->erase();
}

struct AttnDecomposePass
    : public fa4::attn::impl::AttnDecomposeBase<AttnDecomposePass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (auto attention = dyn_cast<AttentionOp>(op)) {
        if (!attention.hasBufferSemantics())
          ops.push_back(op);
      } else if (isa<VarlenAttentionOp, PagedAttentionOp, AttentionBackwardOp>(
                     op)) {
        ops.push_back(op);
      }
    });
    for (Operation *op : ops) {
      OpBuilder builder(op);
      if (auto backward = dyn_cast<AttentionBackwardOp>(op)) {
        SmallVector<Value> gradients =
            Decomposer(builder, op->getLoc(), backwardView(builder, backward))
                .buildBackward(backward.getGradOutput(), backward.getOutput(),
                               backward.getLse());
        replaceResults(builder, op, gradients);
        continue;
      }
      decompose(builder, op);
    }
  }

  void decompose(OpBuilder &builder, Operation *op) {
    Location loc = op->getLoc();
    // Packed queries are viewed as one sequence of a unit batch, which the
    // results drop again.
    bool unitBatch = true;
    std::optional<DenseView> view;
    if (auto attention = dyn_cast<AttentionOp>(op)) {
      unitBatch = false;
      view = denseView(builder, attention);
      view->qDescale = attention.getQDescale();
      view->kDescale = attention.getKDescale();
      view->vDescale = attention.getVDescale();
    } else if (auto varlen = dyn_cast<VarlenAttentionOp>(op)) {
      view = varlenView(builder, varlen);
    } else {
      auto paged = cast<PagedAttentionOp>(op);
      unitBatch = static_cast<bool>(paged.getCuSeqlensQ());
      view = unitBatch ? pagedPackedView(builder, paged)
                       : pagedView(builder, paged);
    }
    auto planned = cast<PlannedAttentionOpInterface>(op);
    if (std::optional<APFloat> softcap = planned.getSoftcap())
      view->softcap = softcap->convertToDouble();
    view->sinks = planned.getSinks();
    SmallVector<Value> results =
        Decomposer(builder, loc, std::move(*view)).build();
    if (unitBatch)
      for (Value &result : results)
        result = dropUnitBatch(builder, loc, result);
    replaceResults(builder, op, results);
  }
};

} // namespace
