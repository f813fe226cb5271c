//===- RaiseTosa.cpp - attn-raise: attention in tosa ----------------------===//
//
// Attention as torch-mlir's TOSA backend writes it (static shapes): BHSD
// operands reshaped to [B*H, S, D] for tosa.matmul (accumulating in f32,
// cast back), K transposed by tosa.transpose, the scores scaled by a splat
// constant (tosa.mul), an optional constant mask (tosa.add of 0/-inf, or a
// tosa.select of the scores and -inf), a softmax as reduce_max, sub, exp,
// reduce_sum, reciprocal and mul over the last dim. GQA repeats K and V
// per query head of their group by a reshape to [B, Hkv, 1, S, D] and a
// tosa.tile. Without a batch, [H, S, D] operands are the matmul's own and
// one head's [S, D] is reshaped to [1, S, D]. TOSA broadcasts only dims of
// size 1 between operands of equal rank, so a reduction that keeps its dim
// as 1 is read back once per row.
//
//===----------------------------------------------------------------------===//

#include "Raise.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;

namespace fa4::attn::raise {
namespace {

/// `value`'s shape where it is a ranked tensor of static shape, else empty
/// (which no rule below accepts: the TOSA the matcher reads is static).
ArrayRef<int64_t> shapeOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0)
    return {};
  return type.getShape();
}

bool isFloatTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && isa<FloatType>(type.getElementType());
}

/// The value before float precision casts.
Value skipCasts(Value value) {
  while (auto cast = value.getDefiningOp<tosa::CastOp>()) {
    if (!isFloatTensor(cast.getInput()) || !isFloatTensor(cast.getOutput()))
      break;
    value = cast.getInput();
  }
  return value;
}

/// Whether `to` is `from` with its dims [first, first + count) merged into
/// one.
bool merges(ArrayRef<int64_t> from, ArrayRef<int64_t> to, size_t first,
            size_t count) {
  if (from.size() != to.size() + count - 1 || first + count > from.size())
    return false;
  int64_t merged = 1;
  for (int64_t size : from.slice(first, count))
    merged *= size;
  return from.take_front(first) == to.take_front(first) &&
         to[first] == merged &&
         from.drop_front(first + count) == to.drop_front(first + 1);
}

/// [B, Hkv, S, D] where `value` is its GQA broadcast: a tile of
/// [B, Hkv, 1, S, D] to [B, Hkv, G, S, D]; null otherwise.
Value untiledHeads(Value value) {
  auto tile = value.getDefiningOp<tosa::TileOp>();
  auto grouped =
      tile ? tile.getInput1().getDefiningOp<tosa::ReshapeOp>() : nullptr;
  if (!grouped)
    return nullptr;
  ArrayRef<int64_t> heads = shapeOf(grouped.getInput1());
  ArrayRef<int64_t> unit = shapeOf(grouped.getOutput());
  ArrayRef<int64_t> tiled = shapeOf(tile.getOutput());
  if (heads.size() != 4 || !merges(unit, heads, 1, 2) || unit[2] != 1 ||
      tiled.take_front(2) != unit.take_front(2) ||
      tiled.drop_front(3) != unit.drop_front(3))
    return nullptr;
  return grouped.getInput1();
}

/// [B, Hkv, S, D] where `value` is its GQA broadcast reshaped to
/// [B, Hkv * G, S, D]; `value` otherwise.
Value withoutHeadBroadcast(Value value) {
  auto reshape = value.getDefiningOp<tosa::ReshapeOp>();
  if (!reshape || !merges(shapeOf(reshape.getInput1()), shapeOf(value), 1, 2))
    return value;
  Value source = untiledHeads(reshape.getInput1());
  return source ? source : value;
}

/// The model's value behind a tosa.matmul operand [N, S, D]: [B, H, S, D]
/// reshaped to [B*H, S, D] (or a GQA broadcast [B, Hkv, G, S, D], then
/// [B, Hkv, S, D]), [S, D] given a unit batch, or [H, S, D] itself; null
/// for any other reshape.
Value unbatched(Value operand) {
  auto reshape = operand.getDefiningOp<tosa::ReshapeOp>();
  if (!reshape)
    return operand;
  Value source = reshape.getInput1();
  ArrayRef<int64_t> from = shapeOf(source), to = shapeOf(operand);
  if (merges(from, to, 0, 2))
    return source;
  if (merges(from, to, 0, 3))
    return untiledHeads(source);
  if (from.size() == 2 && to.size() == 3 && to[0] == 1 &&
      to.drop_front() == from)
    return source;
  return nullptr;
}

/// Whether `rebatched` is a product [N, S, X] back in its model's rank:
/// [B*H, S, X] to [B, H, S, X] or [1, S, X] to [S, X].
bool unbatches(tosa::ReshapeOp rebatched) {
  ArrayRef<int64_t> from = shapeOf(rebatched.getInput1());
  ArrayRef<int64_t> to = shapeOf(rebatched.getOutput());
  return merges(to, from, 0, 2) ||
         (from.size() == 3 && from[0] == 1 && from.drop_front() == to);
}

/// The model's value a tosa.matmul result becomes: reshaped back to the
/// model's rank and cast back to its precision (either order, each once at
/// most, each its sole user); null where something else reads it.
Value attentionResult(tosa::MatMulOp pv) {
  Value value = pv.getOutput();
  bool reshaped = false, cast = false;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (auto reshape = dyn_cast<tosa::ReshapeOp>(user);
        reshape && !reshaped && unbatches(reshape))
      reshaped = true;
    else if (isa<tosa::CastOp>(user) && !cast &&
             isFloatTensor(user->getResult(0)))
      cast = true;
    else
      break;
    value = user->getResult(0);
  }
  return value;
}

/// The product value behind `scores` in the model's rank (the inverse of
/// `unbatches`), through casts: the Q.K^T matmul; null otherwise.
tosa::MatMulOp scoresProduct(Value scores) {
  Value product = skipCasts(scores);
  if (auto reshape = product.getDefiningOp<tosa::ReshapeOp>()) {
    if (!unbatches(reshape))
      return nullptr;
    product = skipCasts(reshape.getInput1());
  }
  return product.getDefiningOp<tosa::MatMulOp>();
}

bool isZero(Value value) {
  DenseElementsAttr constant;
  if (!matchPattern(value, m_Constant(&constant)) || !constant.isSplat())
    return false;
  if (auto floats = dyn_cast<DenseFPElementsAttr>(constant))
    return floats.getSplatValue<APFloat>().isZero();
  return constant.getSplatValue<APInt>().isZero();
}

/// A float product: no zero points, no shift.
bool isPlainMatMul(tosa::MatMulOp matmul) {
  return matmul && isZero(matmul.getAZp()) && isZero(matmul.getBZp()) &&
         isFloatTensor(matmul.getA()) && isFloatTensor(matmul.getB());
}

/// The operands of `value = a * b` (tosa.mul without a shift), or nullopt.
std::optional<std::pair<Value, Value>> multiplied(Value value) {
  auto mul = value.getDefiningOp<tosa::MulOp>();
  if (!mul || (mul.getShift() && !isZero(mul.getShift())))
    return std::nullopt;
  return std::make_pair(mul.getInput1(), mul.getInput2());
}

/// A splat constant factor, also as the reciprocal of one.
std::optional<double> constantFactor(Value value) {
  if (auto reciprocal = value.getDefiningOp<tosa::ReciprocalOp>()) {
    std::optional<double> divisor = splatConstant(reciprocal.getInput1());
    if (!divisor || *divisor == 0)
      return std::nullopt;
    return 1.0 / *divisor;
  }
  return splatConstant(value);
}

/// `value` before a multiply by a constant (either side, through casts),
/// the constant folded into `scale`; `value` itself where there is none.
Value withoutScale(Value value, double &scale) {
  std::optional<std::pair<Value, Value>> product = multiplied(skipCasts(value));
  if (!product)
    return value;
  auto [lhs, rhs] = *product;
  if (std::optional<double> factor = constantFactor(rhs)) {
    scale *= *factor;
    return skipCasts(lhs);
  }
  if (std::optional<double> factor = constantFactor(lhs)) {
    scale *= *factor;
    return skipCasts(rhs);
  }
  return value;
}

/// Whether `reduced` is a reduction of `input` with OpT over its last dim.
template <typename OpT> bool reducesLastDim(Value reduced, Value input) {
  auto reduce = reduced.getDefiningOp<OpT>();
  size_t rank = shapeOf(input).size();
  return reduce && rank > 0 && reduce.getInput() == input &&
         reduce.getAxis() == uint64_t(rank - 1);
}

/// The scores S behind softmax(S) over the last dim: E * reciprocal(sum E)
/// (either order), E = exp(S - max S); null otherwise.
Value softmaxInput(Value probabilities) {
  std::optional<std::pair<Value, Value>> product =
      multiplied(skipCasts(probabilities));
  if (!product)
    return nullptr;
  auto [exps, inverse] = *product;
  if (!inverse.getDefiningOp<tosa::ReciprocalOp>())
    std::swap(exps, inverse);
  auto reciprocal = inverse.getDefiningOp<tosa::ReciprocalOp>();
  auto exp = exps.getDefiningOp<tosa::ExpOp>();
  if (!reciprocal || !exp ||
      !reducesLastDim<tosa::ReduceSumOp>(reciprocal.getInput1(), exps))
    return nullptr;
  auto shifted = exp.getInput1().getDefiningOp<tosa::SubOp>();
  if (!shifted || !reducesLastDim<tosa::ReduceMaxOp>(shifted.getInput2(),
                                                     shifted.getInput1()))
    return nullptr;
  return shifted.getInput1();
}

/// A constant `[.., Sq, Skv]` mask of `scores` (leading dims 1): its
/// elements and its [Sq, Skv] type; nullopt otherwise.
std::optional<std::pair<DenseElementsAttr, ShapedType>>
queryKeyConstant(Value mask, Value scores) {
  DenseElementsAttr constant;
  if (!matchPattern(mask, m_Constant(&constant)))
    return std::nullopt;
  ArrayRef<int64_t> shape = constant.getType().getShape();
  ArrayRef<int64_t> scoresShape = shapeOf(scores);
  if (shape.size() != scoresShape.size() || shape.size() < 2 ||
      shape.take_back(2) != scoresShape.take_back(2) ||
      llvm::any_of(shape.drop_back(2), [](int64_t size) { return size != 1; }))
    return std::nullopt;
  auto type = RankedTensorType::get(shape.take_back(2),
                                    constant.getType().getElementType());
  return std::make_pair(constant, ShapedType(type));
}

/// Takes a constant mask off `scores` into `mask`: an additive 0/-inf
/// tosa.add, or a tosa.select of the scores and -inf; fails on a mask or
/// bias fa4 cannot express.
LogicalResult peelMask(Value &scores, MaskAttr &mask) {
  MLIRContext *context = scores.getContext();
  std::optional<MaskAttr> found = MaskAttr::get(context, MaskKind::None);
  if (auto add = scores.getDefiningOp<tosa::AddOp>()) {
    Value masked = add.getInput1(), constant = add.getInput2();
    if (matchPattern(masked, m_Constant()))
      std::swap(masked, constant);
    auto additive = queryKeyConstant(constant, scores);
    auto values =
        additive ? dyn_cast<DenseFPElementsAttr>(additive->first) : nullptr;
    std::optional<SmallVector<bool>> keep =
        values ? keptByAdditive(values) : std::nullopt;
    found =
        keep ? classifyMask(context, additive->second, *keep) : std::nullopt;
    scores = skipCasts(masked);
  } else if (auto select = scores.getDefiningOp<tosa::SelectOp>()) {
    auto hidden = [](Value value) { return isHidingSplat(value); };
    // select(cond, scores, -inf) keeps where cond holds, masked_fill's
    // select(cond, -inf, scores) where it does not.
    bool keepWhere = hidden(select.getOnFalse());
    if (!keepWhere && !hidden(select.getOnTrue()))
      return failure();
    Value masked = keepWhere ? select.getOnTrue() : select.getOnFalse();
    auto condition = queryKeyConstant(select.getInput1(), scores);
    if (!condition || !condition->first.getElementType().isInteger(1))
      return failure();
    SmallVector<bool> keep;
    for (bool value : condition->first.getValues<bool>())
      keep.push_back(value == keepWhere);
    found = classifyMask(context, condition->second, keep);
    scores = skipCasts(masked);
  }
  if (!found)
    return failure();
  mask = *found;
  return success();
}

bool hasPerms(tosa::TransposeOp transpose, ArrayRef<int32_t> perms) {
  return transpose && transpose.getPerms() == perms;
}

/// Q and K behind the product Q.K^T, any scale split over them folded into
/// `match.scale`; K^T is K transposed in its last two dims (from BHSD, the
/// GQA broadcast taken off) or in one transpose from BSHD.
LogicalResult matchQueryAndKey(tosa::MatMulOp qk, Match &match) {
  if (!isPlainMatMul(qk))
    return failure();
  Value query = unbatched(qk.getA()), keyT = unbatched(qk.getB());
  if (!query || !keyT)
    return failure();
  query = withoutScale(query, match.scale);
  keyT = withoutScale(keyT, match.scale);
  auto transpose = keyT.getDefiningOp<tosa::TransposeOp>();
  if (!transpose)
    return failure();
  Value key = transpose.getInput1();
  switch (shapeOf(query).size()) {
  case 2:
    match.query = {query};
    match.key = {key};
    return success(hasPerms(transpose, {1, 0}));
  case 3:
    match.query = {query};
    match.key = {key};
    return success(hasPerms(transpose, {0, 2, 1}));
  case 4:
    match.query = asOperand(query);
    if (hasPerms(transpose, {0, 1, 3, 2}))
      match.key = {withoutHeadBroadcast(key)};
    else if (hasPerms(transpose, {0, 2, 3, 1}))
      match.key = {key, /*bshd=*/true};
    else
      return failure();
    return success();
  default:
    return failure();
  }
}

} // namespace

std::optional<Match> matchTosaAttention(tosa::MatMulOp pv) {
  if (!isPlainMatMul(pv))
    return std::nullopt;
  Match match;
  match.result = attentionResult(pv);
  Value probabilities = unbatched(pv.getA()), value = unbatched(pv.getB());
  if (!probabilities || !value ||
      shapeOf(probabilities).size() != shapeOf(value).size())
    return std::nullopt;
  match.value = shapeOf(value).size() == 4 ? asOperand(value) : Operand{value};
  Value scores = softmaxInput(probabilities);
  if (!scores)
    return std::nullopt;
  scores = skipCasts(scores);
  if (failed(peelMask(scores, match.mask)))
    return std::nullopt;
  scores = withoutScale(scores, match.scale);
  tosa::MatMulOp qk = scoresProduct(scores);
  if (!qk || shapeOf(scores).size() != shapeOf(value).size() ||
      failed(matchQueryAndKey(qk, match)))
    return std::nullopt;
  // Every operand and the result static and of the query's rank (what
  // Operand assumes).
  size_t rank = shapeOf(match.query.value).size();
  if (rank < 2 || shapeOf(match.key.value).size() != rank ||
      shapeOf(match.value.value).size() != rank ||
      shapeOf(match.result).size() != rank)
    return std::nullopt;
  return match;
}

} // namespace fa4::attn::raise
