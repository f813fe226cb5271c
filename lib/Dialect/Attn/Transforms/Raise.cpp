//===- Raise.cpp - attn-raise: attention in linalg to attn.attention ------===//
//
// Finds scaled dot-product attention as frontends lower it to linalg on
// tensors (torch-mlir's linalg-on-tensors form, as IREE's ONNX and torch
// importers produce it): BHSD operands flattened to [B*H, S, D] for
// batch_matmul, K transposed by linalg.transpose, the scores scaled by a
// constant, an optional additive constant mask, a softmax as generics (max,
// subtract, exp, sum, divide) or linalg.softmax, and precision casts
// between them; and the same in tosa (RaiseTosa.cpp). Each match becomes
// attn.attention on BSHD transposes of the operands; anything else, and
// masks fa4 cannot express, is left alone. A match is proven, not taken
// from its shape: every init is its reduction's identity and every body
// reads its inputs (Mismatch says why not, in a remark).
//
//===----------------------------------------------------------------------===//

#include "Raise.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <optional>

namespace fa4::attn {
#define GEN_PASS_DEF_ATTNRAISE
#include "fa4/Dialect/Attn/Transforms/Passes.h.inc"
} // namespace fa4::attn

using namespace mlir;
using namespace fa4::attn;
using namespace fa4::attn::raise;

namespace fa4::attn::raise {

/// The element of a splat float constant.
static std::optional<APFloat> splatFloat(Value value) {
  DenseFPElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APFloat>();
}

std::optional<double> splatConstant(Value value) {
  if (std::optional<APFloat> splat = splatFloat(value))
    return splat->convertToDouble();
  return std::nullopt;
}

Value seqHeadsSwapSource(Value value) {
  Operation *op = value.getDefiningOp();
  if (auto transpose = dyn_cast_if_present<linalg::TransposeOp>(op))
    return transpose.getPermutation() == ArrayRef<int64_t>{0, 2, 1, 3}
               ? transpose.getInput()
               : nullptr;
  if (auto transpose = dyn_cast_if_present<tosa::TransposeOp>(op))
    return transpose.getPerms() == ArrayRef<int32_t>{0, 2, 1, 3}
               ? transpose.getInput1()
               : nullptr;
  return nullptr;
}

Operand asOperand(Value bhsd) {
  if (Value bshd = seqHeadsSwapSource(bhsd))
    return {bshd, /*bshd=*/true};
  return {bhsd};
}

MaskAttr maskFromBounds(MLIRContext *context, std::optional<int64_t> left,
                        std::optional<int64_t> right) {
  if (!left && !right)
    return MaskAttr::get(context, MaskKind::None);
  if (!left && *right == 0)
    return MaskAttr::get(context, MaskKind::Causal);
  return MaskAttr::get(context, MaskKind::Window, left.value_or(-1),
                       right.value_or(-1));
}

bool hidesKey(const APFloat &value) {
  return (value.isInfinity() && value.isNegative()) ||
         value.bitwiseIsEqual(
             APFloat::getLargest(value.getSemantics(), /*Negative=*/true));
}

bool isHidingSplat(Value value) {
  std::optional<APFloat> splat = splatFloat(value);
  return splat && hidesKey(*splat);
}

std::optional<SmallVector<bool>> keptByAdditive(DenseFPElementsAttr mask) {
  SmallVector<bool> keep;
  for (APFloat value : mask.getValues<APFloat>()) {
    if (value.isZero())
      keep.push_back(true);
    else if (hidesKey(value))
      keep.push_back(false);
    else
      return std::nullopt;
  }
  return keep;
}

std::optional<MaskAttr> classifyMask(MLIRContext *context, ShapedType type,
                                     ArrayRef<bool> keep) {
  if (type.getRank() != 2)
    return std::nullopt;
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  // Row i sees keys [i + offset - left, i + offset + right], each side
  // unbounded (nullopt) where no row's interval stops short of the edge.
  int64_t offset = cols - rows;
  std::optional<int64_t> left, right;
  auto agree = [](std::optional<int64_t> &side, int64_t row) {
    if (side && *side != row)
      return false;
    side = row;
    return row >= 0; // fa4 windows keep the diagonal
  };
  for (int64_t i = 0; i < rows; ++i) {
    int64_t first = -1, last = -1;
    for (int64_t j = 0; j < cols; ++j) {
      if (!keep[i * cols + j])
        continue;
      if (last >= 0 && last != j - 1)
        return std::nullopt; // not one interval
      if (first < 0)
        first = j;
      last = j;
    }
    if (first < 0)
      return std::nullopt; // an empty row
    int64_t diagonal = i + offset;
    if ((first > 0 && !agree(left, diagonal - first)) ||
        (last < cols - 1 && !agree(right, last - diagonal)))
      return std::nullopt;
  }
  // Rows that reached an edge must agree with the bounds found elsewhere.
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int64_t diagonal = i + offset;
      bool inside = (!left || j >= diagonal - *left) &&
                    (!right || j <= diagonal + *right);
      if (inside != keep[i * cols + j])
        return std::nullopt;
    }
  return maskFromBounds(context, left, right);
}

} // namespace fa4::attn::raise

namespace {

/// The body of `generic` is one op of type OpT on block arguments, yielded.
template <typename OpT> OpT soleBodyOp(linalg::GenericOp generic) {
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  auto op = dyn_cast<OpT>(body.front());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (!op || yield->getNumOperands() != 1 ||
      yield->getOperand(0) != op->getResult(0))
    return nullptr;
  return op;
}

bool allParallel(linalg::GenericOp generic) {
  return llvm::all_of(generic.getIteratorTypesArray(), [](auto type) {
    return type == utils::IteratorType::parallel;
  });
}

/// Why an attention-shaped computation is not the attention attn.attention
/// means (an initial value, a combiner or an operand that differs): the
/// reason attn-raise's remark gives. Empty where nothing attention-shaped
/// was found wrong.
struct Mismatch {
  std::string reason;
  /// Records `why` (the first reason found wins).
  void note(const Twine &why) {
    if (reason.empty())
      reason = why.str();
  }
};

/// The float every element of `value` holds: a linalg.fill of a constant,
/// or a splat constant; nullopt for anything else.
std::optional<APFloat> filledWith(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    FloatAttr scalar;
    if (!matchPattern(fill.getDpsInputOperand(0)->get(), m_Constant(&scalar)))
      return std::nullopt;
    return scalar.getValue();
  }
  return splatFloat(value);
}

/// Whether `value` is all zeros: what a sum and a product start from.
bool isZeroFilled(Value value) {
  std::optional<APFloat> element = filledWith(value);
  return element && element->isZero();
}

/// Whether `value` is all -inf (or the type's lowest finite value, which
/// no score falls below): what a row max starts from.
bool isMaxIdentityFilled(Value value) {
  std::optional<APFloat> element = filledWith(value);
  return element && hidesKey(*element);
}

/// The value before precision casts (elementwise truncf/extf generics).
Value skipCasts(Value value) {
  while (auto generic = value.getDefiningOp<linalg::GenericOp>()) {
    if (generic.getNumDpsInputs() != 1 || generic->getNumResults() != 1 ||
        !allParallel(generic) ||
        !llvm::all_of(generic.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }))
      break;
    Block &body = generic.getRegion().front();
    if (body.getOperations().size() != 2 ||
        !isa<arith::TruncFOp, arith::ExtFOp>(body.front()) ||
        body.front().getOperand(0) != body.getArgument(0) ||
        body.getTerminator()->getOperand(0) != body.front().getResult(0))
      break;
    value = generic.getDpsInputOperand(0)->get();
  }
  return value;
}

/// [B, Hkv, S, D] behind the broadcast of its heads to [B, Hkv, G, S, D]
/// (GQA as frontends write it: K and V repeated for each query head of
/// their group), or null.
Value unbroadcastHeads(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 || !allParallel(generic) ||
      generic.getNumLoops() != 5)
    return nullptr;
  MLIRContext *context = generic.getContext();
  AffineMap heads = AffineMap::get(
      5, 0,
      {getAffineDimExpr(0, context), getAffineDimExpr(1, context),
       getAffineDimExpr(3, context), getAffineDimExpr(4, context)},
      context);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  Block &body = generic.getRegion().front();
  if (maps[0] != heads || !maps[1].isIdentity() ||
      body.getOperations().size() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0))
    return nullptr;
  return generic.getDpsInputOperand(0)->get();
}

/// The BHSD value behind a batch_matmul operand flattened to [B*H, S, D]:
/// [B, H, S, D] through a collapse_shape, or [B, Hkv, S, D] where the
/// collapse flattens a GQA broadcast ([B, Hkv, G, S, D]); null otherwise.
Value unflattened(Value value) {
  auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return nullptr;
  SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
  SmallVector<ReassociationIndices> batchHeads = {{0, 1}, {2}, {3}};
  SmallVector<ReassociationIndices> batchGroups = {{0, 1, 2}, {3}, {4}};
  if (groups == batchHeads)
    return collapse.getSrc();
  if (groups == batchGroups)
    return unbroadcastHeads(collapse.getSrc());
  return nullptr;
}

/// [B, Hkv, S, D] where `value` is its GQA broadcast collapsed to
/// [B, Hkv * G, S, D], else `value`.
Value withoutHeadBroadcast(Value value) {
  auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
  SmallVector<ReassociationIndices> heads = {{0}, {1, 2}, {3}, {4}};
  if (!collapse || collapse.getReassociationIndices() != heads)
    return value;
  Value source = unbroadcastHeads(collapse.getSrc());
  return source ? source : value;
}

/// The [B, H, S, D] value `expanded` expands from [B*H, S, D], or null.
Value flattenedSource(Value expanded) {
  auto expand = expanded.getDefiningOp<tensor::ExpandShapeOp>();
  SmallVector<ReassociationIndices> batchHeads = {{0, 1}, {2}, {3}};
  if (!expand || expand.getReassociationIndices() != batchHeads)
    return nullptr;
  return expand.getSrc();
}

/// The generic computing `lhs OP rhs` elementwise with OpT, its operands:
/// lhs and the result read and written elementwise, rhs as its map says
/// (the callers check it).
template <typename OpT>
std::optional<std::pair<Value, Value>> binaryOperands(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 2 || !allParallel(generic))
    return std::nullopt;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (!maps[0].isIdentity() || !maps[2].isIdentity())
    return std::nullopt;
  OpT op = soleBodyOp<OpT>(generic);
  Block &body = generic.getRegion().front();
  if (!op || op->getOperand(0) != body.getArgument(0) ||
      op->getOperand(1) != body.getArgument(1))
    return std::nullopt;
  return std::make_pair(generic.getDpsInputOperand(0)->get(),
                        generic.getDpsInputOperand(1)->get());
}

/// Whether `map` reads one value per row: (d0, ..., dn-1) to
/// (d0, ..., dn-2), with or without a trailing 0 (a kept unit dim).
bool readsPerRow(AffineMap map) {
  unsigned loops = map.getNumDims();
  unsigned results = map.getNumResults();
  if (loops < 1 || (results != loops - 1 && results != loops))
    return false;
  for (unsigned dim = 0; dim + 1 < loops; ++dim)
    if (map.getResult(dim) != getAffineDimExpr(dim, map.getContext()))
      return false;
  return results == loops - 1 ||
         map.getResult(loops - 1) == getAffineConstantExpr(0, map.getContext());
}

/// The input a last-dim reduction generic with body `out = OpT(in, out)`
/// reduces (other results, like torch's argmax, are allowed), reading it
/// elementwise into one value per row, from an init `isIdentity` accepts
/// (else null, the reduction `what` noted in `mismatch`).
template <typename OpT>
Value reducedInput(Value value, bool (*isIdentity)(Value), StringRef what,
                   Mismatch &mismatch) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1)
    return nullptr;
  unsigned result = cast<OpResult>(value).getResultNumber();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (!maps[0].isIdentity() || !readsPerRow(maps[1 + result]))
    return nullptr;
  auto iterators = generic.getIteratorTypesArray();
  if (iterators.empty() || iterators.back() != utils::IteratorType::reduction ||
      llvm::count(iterators, utils::IteratorType::reduction) != 1)
    return nullptr;
  Block &body = generic.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(result);
  auto op = yielded.getDefiningOp<OpT>();
  Value in = body.getArgument(0), out = body.getArgument(1 + result);
  if (!op || !((op->getOperand(0) == in && op->getOperand(1) == out) ||
               (op->getOperand(0) == out && op->getOperand(1) == in)))
    return nullptr;
  if (!isIdentity(generic.getDpsInitOperand(result)->get())) {
    mismatch.note(what);
    return nullptr;
  }
  return generic.getDpsInputOperand(0)->get();
}

/// Through an expand_shape that only appends a unit dim.
Value withoutUnitDim(Value value) {
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
    return expand.getSrc();
  return value;
}

/// The scores S behind softmax(S) over the last dim, or null: generics
/// (max, subtract, exp, sum, divide) or linalg.softmax. What differs from a
/// softmax in one that looks like it goes into `mismatch`.
Value softmaxInput(Value probabilities, Mismatch &mismatch) {
  if (auto softmax = probabilities.getDefiningOp<linalg::SoftmaxOp>()) {
    auto type = cast<ShapedType>(softmax.getInput().getType());
    return softmax.getDimension() == uint64_t(type.getRank() - 1)
               ? softmax.getInput()
               : nullptr;
  }
  // The row's sum and max are read once per row: anything else is no
  // softmax over the keys.
  auto perRow = [](Value value) {
    SmallVector<AffineMap> maps =
        value.getDefiningOp<linalg::GenericOp>().getIndexingMapsArray();
    return maps[0].isIdentity() && readsPerRow(maps[1]);
  };
  auto divided = binaryOperands<arith::DivFOp>(probabilities);
  if (!divided || !perRow(probabilities))
    return nullptr;
  Value exps = divided->first;
  if (reducedInput<arith::AddFOp>(
          withoutUnitDim(divided->second), isZeroFilled,
          "the softmax's row sum starts from a value that is not 0",
          mismatch) != exps)
    return nullptr;
  auto exp = exps.getDefiningOp<linalg::GenericOp>();
  if (!exp || exp.getNumDpsInputs() != 1 || !soleBodyOp<math::ExpOp>(exp) ||
      !llvm::all_of(exp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return nullptr;
  if (soleBodyOp<math::ExpOp>(exp).getOperand() !=
      exp.getRegion().front().getArgument(0)) {
    mismatch.note("the softmax's exp reads its init, not the scores");
    return nullptr;
  }
  Value exponent = exp.getDpsInputOperand(0)->get();
  auto shifted = binaryOperands<arith::SubFOp>(exponent);
  if (!shifted || !perRow(exponent))
    return nullptr;
  Value scores = shifted->first;
  Value max = withoutUnitDim(shifted->second);
  StringRef maxInit = "the softmax's row max starts from a value that is "
                      "not -inf";
  if (reducedInput<arith::MaximumFOp>(max, isMaxIdentityFilled, maxInit,
                                      mismatch) != scores &&
      reducedInput<arith::MaxNumFOp>(max, isMaxIdentityFilled, maxInit,
                                     mismatch) != scores)
    return nullptr;
  return scores;
}

/// A select-based mask: `select(cond, scores, -inf)` (torch.where) or
/// `select(cond, -inf, scores)` (masked_fill) over a constant boolean
/// [Sq, Skv] condition.
struct SelectMask {
  Value scores;
  /// The [Sq, Skv] booleans; its elements and the keys they keep where it
  /// is a constant (else null and empty: a mask computed from sizes).
  Value conditionValue;
  DenseIntElementsAttr condition;
  SmallVector<bool> keep;
  /// select(cond, scores, -inf) (the scores are input 1), else
  /// select(cond, -inf, scores) (input 2).
  bool keepWhere;
};

std::optional<SelectMask> selectMasked(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 3 || !allParallel(generic))
    return std::nullopt;
  auto select = soleBodyOp<arith::SelectOp>(generic);
  Block &body = generic.getRegion().front();
  if (!select || select.getCondition() != body.getArgument(0))
    return std::nullopt;
  SelectMask mask;
  mask.conditionValue = generic.getDpsInputOperand(0)->get();
  if (!getElementTypeOrSelf(mask.conditionValue.getType()).isInteger(1))
    return std::nullopt;
  (void)matchPattern(mask.conditionValue, m_Constant(&mask.condition));
  auto isHidden = [&](unsigned input) {
    return isHidingSplat(generic.getDpsInputOperand(input)->get());
  };
  bool &keepWhere = mask.keepWhere;
  if (select.getTrueValue() == body.getArgument(1) &&
      select.getFalseValue() == body.getArgument(2) && isHidden(2)) {
    keepWhere = true;
    mask.scores = generic.getDpsInputOperand(1)->get();
  } else if (select.getTrueValue() == body.getArgument(1) &&
             select.getFalseValue() == body.getArgument(2) && isHidden(1)) {
    keepWhere = false;
    mask.scores = generic.getDpsInputOperand(2)->get();
  } else {
    return std::nullopt;
  }
  if (mask.condition)
    for (bool condition : mask.condition.getValues<bool>())
      mask.keep.push_back(condition == keepWhere);
  return mask;
}

/// `value` before an elementwise multiply by a constant (through casts),
/// the constant folded into `scale`; `value` itself where there is none.
Value withoutScale(Value value, double &scale) {
  auto scaled = binaryOperands<arith::MulFOp>(skipCasts(value));
  if (!scaled)
    return value;
  std::optional<double> factor = splatConstant(scaled->second);
  if (!factor)
    return value;
  scale *= *factor;
  return skipCasts(scaled->first);
}

bool isPermutation(linalg::TransposeOp transpose, ArrayRef<int64_t> order) {
  return transpose && transpose.getPermutation() == order;
}

/// One of attention's two products: lhs [(batch,) m, k] times rhs
/// [(batch,) k, n], or with `rhsTransposed` rhs [(batch,) n, k], into
/// [(batch,) m, n] plus the init.
struct Product {
  linalg::LinalgOp op;
  bool batched = false;
  bool rhsTransposed = false;
};

/// `op` as a Product: linalg.matmul or linalg.batch_matmul (with their own
/// maps or rhs-transposed ones), or a generic whose body is a contraction
/// (multiply, add, casts) over those maps; nullopt otherwise.
std::optional<Product> asProduct(Operation *op) {
  auto linalgOp = dyn_cast_if_present<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 2 ||
      linalgOp.getNumDpsInits() != 1 || linalgOp->getNumResults() != 1)
    return std::nullopt;
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
      !(isa<linalg::GenericOp>(op) &&
        linalg::isaContractionOpInterface(linalgOp)))
    return std::nullopt;
  unsigned loops = linalgOp.getNumLoops();
  if (loops != 3 && loops != 4)
    return std::nullopt;
  bool batched = loops == 4;
  MLIRContext *context = op->getContext();
  // Loops (batch,) m, n, k.
  unsigned m = batched ? 1 : 0;
  auto map = [&](unsigned row, unsigned col) {
    SmallVector<AffineExpr> results;
    if (batched)
      results.push_back(getAffineDimExpr(0, context));
    results.push_back(getAffineDimExpr(row, context));
    results.push_back(getAffineDimExpr(col, context));
    return AffineMap::get(loops, 0, results, context);
  };
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
  if (linalgOp.getIteratorTypesArray() != iterators ||
      maps[0] != map(m, m + 2) || maps[2] != map(m, m + 1))
    return std::nullopt;
  if (maps[1] == map(m + 2, m + 1))
    return Product{linalgOp, batched, /*rhsTransposed=*/false};
  if (maps[1] == map(m + 1, m + 2))
    return Product{linalgOp, batched, /*rhsTransposed=*/true};
  return std::nullopt;
}

Value lhs(linalg::LinalgOp contraction) {
  return contraction.getDpsInputOperand(0)->get();
}
Value rhs(linalg::LinalgOp contraction) {
  return contraction.getDpsInputOperand(1)->get();
}

/// The value P.V's `contraction` becomes: its result back to the input
/// precision, unflattened to [B, H, Sq, Dv] where it multiplies flattened
/// BHSD operands; null otherwise.
Value attentionResult(linalg::LinalgOp contraction, bool flattened) {
  Value product = contraction->getResult(0);
  if (!product.hasOneUse())
    return nullptr;
  Operation *user = *product.getUsers().begin();
  Value cast = product;
  if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
    if (skipCasts(generic->getResult(0)) != product ||
        !generic->getResult(0).hasOneUse())
      return nullptr;
    cast = generic->getResult(0);
    user = *cast.getUsers().begin();
  }
  if (!flattened)
    return cast;
  auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
  if (!expand || flattenedSource(expand.getResult()) != cast)
    return nullptr;
  return expand.getResult();
}

/// Whether the generic defining `masked` reads its input `scoresInput`
/// elementwise and its [Sq, Skv] input `maskInput` at (query, key), the
/// last two loops: a mask indexed otherwise (transposed, or by heads) is no
/// mask of these scores' rows.
bool masksQueryAndKey(Value masked, unsigned scoresInput, unsigned maskInput) {
  auto generic = masked.getDefiningOp<linalg::GenericOp>();
  unsigned loops = generic.getNumLoops();
  if (loops < 2)
    return false;
  MLIRContext *context = generic.getContext();
  AffineMap queryKey = AffineMap::get(loops, 0,
                                      {getAffineDimExpr(loops - 2, context),
                                       getAffineDimExpr(loops - 1, context)},
                                      context);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  return maps[scoresInput].isIdentity() && maps[maskInput] == queryKey;
}

/// Takes a mask off `scores` into `match`: a constant one into its mask
/// (none where there is none), one computed from sizes into its
/// computedMask; fails on a mask or bias fa4 cannot express.
LogicalResult peelMask(Value &scores, Match &match) {
  MLIRContext *context = scores.getContext();
  std::optional<MaskAttr> found = MaskAttr::get(context, MaskKind::None);
  if (auto masked = binaryOperands<arith::AddFOp>(scores)) {
    DenseFPElementsAttr constant;
    if (!matchPattern(masked->second, m_Constant(&constant)) ||
        !masksQueryAndKey(scores, 0, 1))
      return failure();
    std::optional<SmallVector<bool>> keep = keptByAdditive(constant);
    found =
        keep ? classifyMask(context, constant.getType(), *keep) : std::nullopt;
    scores = skipCasts(masked->first);
  } else if (auto selected = selectMasked(scores)) {
    unsigned scoresInput = selected->keepWhere ? 1 : 2;
    if (!masksQueryAndKey(scores, scoresInput, 0))
      return failure();
    if (selected->condition) {
      found =
          classifyMask(context, selected->condition.getType(), selected->keep);
    } else {
      match.computedMask =
          computedMask(selected->conditionValue, selected->keepWhere);
      if (!match.computedMask)
        return failure();
    }
    scores = skipCasts(selected->scores);
  }
  if (!found)
    return failure();
  match.mask = *found;
  return success();
}

/// Takes a constant scale (a multiply or divide) off `scores` into `scale`;
/// fails on a non-constant one.
LogicalResult peelScale(Value &scores, double &scale) {
  if (auto scaled = binaryOperands<arith::MulFOp>(scores)) {
    std::optional<double> factor = splatConstant(scaled->second);
    if (!factor)
      return failure();
    scale *= *factor;
    scores = skipCasts(scaled->first);
  } else if (auto divided = binaryOperands<arith::DivFOp>(scores)) {
    std::optional<double> divisor = splatConstant(divided->second);
    if (!divisor || *divisor == 0)
      return failure();
    scale /= *divisor;
    scores = skipCasts(divided->first);
  }
  return success();
}

/// Whether `product`, a contraction of attention's, starts from zero: its
/// init is added to the product (a bias otherwise), noted in `mismatch`.
LogicalResult accumulatesFromZero(linalg::LinalgOp product, StringRef name,
                                  Mismatch &mismatch) {
  if (isZeroFilled(product.getDpsInitOperand(0)->get()))
    return success();
  mismatch.note(Twine("the ") + name +
                " product accumulates onto a value that is not 0");
  return failure();
}

/// K behind the Q.K^T product's rhs: K^T by a linalg.transpose, or K
/// itself where the product reads it transposed (`rhsTransposed`); [H, S,
/// D] or [S, D] when not `flattened`, BHSD or BSHD when flattened. A scale
/// on K is folded into `match.scale`.
LogicalResult matchKey(Value rhs, bool rhsTransposed, bool flattened,
                       Match &match) {
  Value key = rhs;
  if (!rhsTransposed) {
    auto transpose = rhs.getDefiningOp<linalg::TransposeOp>();
    if (!transpose)
      return failure();
    key = transpose.getInput();
    if (flattened && isPermutation(transpose, {0, 2, 3, 1})) {
      // K^T in one transpose from BSHD K.
      match.key = {key, /*bshd=*/true};
      return success();
    }
    // [H, S, D] or [S, D]: K^T swaps the last two dims, nothing else.
    bool swapsLastTwo = flattened ? isPermutation(transpose, {0, 1, 3, 2})
                                  : isPermutation(transpose, {0, 2, 1}) ||
                                        isPermutation(transpose, {1, 0});
    if (!swapsLastTwo)
      return failure();
    key = withoutScale(key, match.scale);
  }
  match.key = flattened ? asOperand(withoutHeadBroadcast(key)) : Operand{key};
  return success();
}

/// Q and K behind the unscaled scores Q.K^T, a contraction like P.V's
/// (`flattened` as it is; `flatScores`: the scores stay [B*H, Sq, Skv]
/// rather than expand to BHSD), any scale split over them folded into
/// `match.scale`.
LogicalResult matchQueryAndKey(Value scores, const Product &pv, bool flattened,
                               bool flatScores, Match &match,
                               Mismatch &mismatch) {
  Value product = flattened && !flatScores ? flattenedSource(scores) : scores;
  std::optional<Product> qk =
      product ? asProduct(skipCasts(product).getDefiningOp()) : std::nullopt;
  if (!qk || qk->batched != pv.batched)
    return failure();
  Value query = lhs(qk->op), keyRhs = rhs(qk->op);
  if (flattened) {
    query = unflattened(query);
    keyRhs = unflattened(keyRhs);
  }
  if (!query || !keyRhs)
    return failure();
  // A scale on Q, or split over Q and K^T (sqrt(scale) each, as torch's
  // ONNX export of scaled_dot_product_attention writes it).
  query = withoutScale(query, match.scale);
  keyRhs = withoutScale(keyRhs, match.scale);
  match.query = flattened ? asOperand(query) : Operand{query};
  if (failed(matchKey(keyRhs, qk->rhsTransposed, flattened, match)))
    return failure();
  return accumulatesFromZero(qk->op, "Q.K^T", mismatch);
}

/// Matches the attention whose P.V is `contraction`: a batch_matmul of
/// flattened BHSD operands (P flattened from BHSD scores, or the softmax
/// on the flattened scores themselves), or of [H, S, D] ones, or a matmul
/// of [S, D].
/// Where it looks like attention but computes something else, `mismatch`
/// says what differs.
std::optional<Match> matchAttention(const Product &pv, Mismatch &mismatch) {
  linalg::LinalgOp contraction = pv.op;
  if (pv.rhsTransposed)
    return std::nullopt; // V^T: no attention of fa4's
  Match match;
  Value value = rhs(contraction), probabilities = lhs(contraction);
  bool flattened = unflattened(value) != nullptr;
  bool flatScores = flattened && !unflattened(probabilities);
  if (flattened) {
    value = unflattened(value);
    if (!flatScores)
      probabilities = unflattened(probabilities);
  }
  match.result = attentionResult(contraction, flattened);
  if (!match.result)
    return std::nullopt;
  match.value = flattened ? asOperand(value) : Operand{value};
  Value scores = softmaxInput(skipCasts(probabilities), mismatch);
  if (!scores)
    return std::nullopt;
  scores = skipCasts(scores);
  if (failed(peelMask(scores, match)) ||
      failed(peelScale(scores, match.scale)) ||
      failed(matchQueryAndKey(scores, pv, flattened, flatScores, match,
                              mismatch)) ||
      failed(accumulatesFromZero(contraction, "P.V", mismatch)))
    return std::nullopt;
  if (match.computedMask) {
    std::optional<MaskAttr> mask =
        resolveComputedMask(*match.computedMask, match.query, match.key);
    if (!mask)
      return std::nullopt;
    match.mask = *mask;
  }
  return match;
}

/// [B, H, S, D] and [B, S, H, D] into each other.
Value swapSeqAndHeads(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> permutation = {0, 2, 1, 3};
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : permutation)
    sizes.push_back(tensor::getMixedSize(builder, loc, value, d));
  Value init =
      tensor::EmptyOp::create(builder, loc, sizes, type.getElementType());
  return linalg::TransposeOp::create(builder, loc, value, init, permutation)
      ->getResult(0);
}

/// The sizes `match.result` has where it is the attention of its operands:
/// [B, H, Sq, Dv], [H, Sq, Dv] or [Sq, Dv].
SmallVector<int64_t> resultShape(const Match &match) {
  SmallVector<int64_t> shape = {match.query.batch(), match.query.heads(),
                                match.query.seq(), match.value.depth()};
  return SmallVector<int64_t>(
      ArrayRef<int64_t>(shape).drop_front(4 - match.query.rank()));
}

/// Whether fa4 can run the match: f16/bf16 alike, static heads and
/// depths, query heads a multiple of the key/value heads, one batch, the
/// keys and values alike long, the result the attention's shape, and a
/// scale attn.attention takes (finite and > 0 as an f32). Why not, where
/// a user can act on it, goes into `mismatch`.
bool supported(const Match &match, Mismatch &mismatch) {
  float scale = float(match.scale);
  if (!std::isfinite(scale) || !(scale > 0)) {
    mismatch.note("its scale is not finite and > 0 as an f32");
    return false;
  }
  Type element = match.query.type().getElementType();
  auto resultType = cast<RankedTensorType>(match.result.getType());
  if (!isa<Float16Type, BFloat16Type>(element)) {
    mismatch.note("its operands are not f16 or bf16");
    return false;
  }
  if (resultType.getElementType() != element)
    return false;
  for (const Operand &operand : {match.query, match.key, match.value})
    if (operand.type().getElementType() != element ||
        !operand.staticHeadsAndDepth() || operand.rank() != match.query.rank())
      return false;
  // Static sizes that must agree (dynamic ones are checked at launch).
  auto agree = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  if (!agree(match.query.batch(), match.key.batch()) ||
      !agree(match.query.batch(), match.value.batch()) ||
      !agree(match.key.seq(), match.value.seq()) ||
      !llvm::all_of_zip(resultType.getShape(), resultShape(match), agree))
    return false;
  return match.key.heads() == match.value.heads() &&
         match.query.heads() % match.key.heads() == 0 &&
         match.query.depth() == match.key.depth();
}

/// `value` with unit dims: [S, D] to [1, S, 1, D], [H, S, D] to
/// [1, H, S, D].
Value withUnitDims(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<ReassociationIndices> groups = {{0, 1}, {2}, {3}};
  shape.insert(shape.begin(), 1);
  if (type.getRank() == 2) {
    shape.insert(shape.begin() + 2, 1);
    groups = {{0, 1}, {2, 3}};
  }
  return tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

/// `value` without the unit dims withUnitDims adds, back to `rank`.
Value withoutUnitDims(OpBuilder &builder, Location loc, Value value,
                      int64_t rank) {
  SmallVector<ReassociationIndices> groups =
      rank == 2 ? SmallVector<ReassociationIndices>{{0, 1}, {2, 3}}
                : SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}};
  return tensor::CollapseShapeOp::create(builder, loc, value, groups);
}

/// The operand as the BSHD value attn.attention takes.
Value asBshd(OpBuilder &builder, Location loc, const Operand &operand) {
  if (operand.bshd)
    return operand.value;
  if (operand.rank() == 2)
    return withUnitDims(builder, loc, operand.value); // [1, S, 1, D]
  Value bhsd = operand.rank() == 3 ? withUnitDims(builder, loc, operand.value)
                                   : operand.value;
  return swapSeqAndHeads(builder, loc, bhsd);
}

/// attn.attention's BSHD `o` as the value the match replaces.
Value fromBshd(OpBuilder &builder, Location loc, Value o, int64_t rank) {
  if (rank == 2)
    return withoutUnitDims(builder, loc, o, rank);
  Value bhsd = swapSeqAndHeads(builder, loc, o);
  return rank == 3 ? withoutUnitDims(builder, loc, bhsd, rank) : bhsd;
}

/// The BSHD type asBshd gives `operand`.
RankedTensorType bshdType(const Operand &operand) {
  RankedTensorType type = operand.type();
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> bshd;
  if (operand.bshd)
    bshd.assign(shape.begin(), shape.end());
  else if (operand.rank() == 2)
    bshd = {1, shape[0], 1, shape[1]};
  else if (operand.rank() == 3)
    bshd = {1, shape[1], shape[0], shape[2]};
  else
    bshd = {shape[0], shape[2], shape[1], shape[3]};
  return RankedTensorType::get(bshd, type.getElementType());
}

/// The scale attribute of the raised op: none where it is 1/sqrt(depth).
FloatAttr scaleAttr(Builder &builder, const Match &match) {
  int64_t depth = match.query.depth();
  if (std::abs(match.scale - 1.0 / std::sqrt(double(depth))) <=
      1e-6 * match.scale)
    return nullptr;
  return builder.getF32FloatAttr(match.scale);
}

AttentionOp createAttention(OpBuilder &builder, Location loc,
                            const Match &match, Value q, Value k, Value v) {
  auto qType = cast<RankedTensorType>(q.getType());
  auto vType = cast<RankedTensorType>(v.getType());
  auto oType = RankedTensorType::get({qType.getDimSize(0), qType.getDimSize(1),
                                      qType.getDimSize(2), vType.getDimSize(3)},
                                     qType.getElementType());
  return AttentionOp::create(
      builder, loc, TypeRange{oType}, q, k, v, /*sinks=*/Value(),
      /*q_descale=*/Value(), /*k_descale=*/Value(), /*v_descale=*/Value(),
      ValueRange{}, scaleAttr(builder, match), match.mask, /*softcap=*/nullptr,
      /*config=*/nullptr, /*splitk=*/nullptr, /*tmem=*/nullptr,
      /*swizzle=*/nullptr, /*smem=*/nullptr, /*twin_config=*/nullptr,
      /*twin_swizzle=*/nullptr, /*twin_smem=*/nullptr);
}

/// Whether attn.attention of the match verifies (sizes within a kernel's
/// limits, no zero-sized dim: the verifier's rules, not copied here),
/// checked on a detached op over placeholder operands, silently.
bool verifiesAsAttention(const Match &match, Location loc) {
  MLIRContext *context = loc.getContext();
  Block placeholders;
  Value q = placeholders.addArgument(bshdType(match.query), loc);
  Value k = placeholders.addArgument(bshdType(match.key), loc);
  Value v = placeholders.addArgument(bshdType(match.value), loc);
  OpBuilder builder(context);
  AttentionOp attention = createAttention(builder, loc, match, q, k, v);
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  bool verifies = succeeded(verify(attention));
  attention->destroy();
  return verifies;
}

/// Replaces the match by attn.attention; false, with nothing changed, where
/// that op would not verify.
bool raise(Match match, Operation *anchor) {
  Location loc = anchor->getLoc();
  if (!verifiesAsAttention(match, loc))
    return false;
  OpBuilder builder(match.result.getDefiningOp());
  builder.setInsertionPointAfter(match.result.getDefiningOp());
  Value q = asBshd(builder, loc, match.query);
  Value k = asBshd(builder, loc, match.key);
  Value v = asBshd(builder, loc, match.value);
  AttentionOp attention = createAttention(builder, loc, match, q, k, v);
  Value o = attention->getResult(0);
  // O goes to BSHD anyway where the model transposes it there.
  if (match.query.rank() == 4 && match.result.hasOneUse()) {
    Operation *user = *match.result.getUsers().begin();
    if (user->getNumResults() == 1 &&
        seqHeadsSwapSource(user->getResult(0)) == match.result) {
      user->getResult(0).replaceAllUsesWith(o);
      return true;
    }
  }
  match.result.replaceAllUsesWith(
      fromBshd(builder, loc, o, match.query.rank()));
  return true;
}

/// The ops `match` replaces: everything `result` is computed from, and
/// its users (a transpose back to BSHD).
SetVector<Operation *> replacedOps(const Match &match) {
  SetVector<Operation *> ops;
  Operation *producer = match.result.getDefiningOp();
  BackwardSliceOptions options;
  options.omitBlockArguments = true;
  // A computed mask's generic reads its bounds from above.
  options.omitUsesFromAbove = false;
  // Ops of the producer's block only: erasing a linalg.generic erases its
  // body with it.
  options.filter = [&](Operation *op) {
    return op->getBlock() == producer->getBlock();
  };
  (void)getBackwardSlice(producer, &ops, options);
  ops.insert(producer);
  for (Operation *user : match.result.getUsers()) {
    if (user->getBlock() != producer->getBlock())
      continue;
    (void)getBackwardSlice(user, &ops, options); // its init tensor
    ops.insert(user);
  }
  return ops;
}

/// Says why the attention `pv` ends was not raised, where a reason was
/// found (nothing for a product that is no attention).
void remarkNotRaised(Operation *pv, const Mismatch &mismatch) {
  if (!mismatch.reason.empty())
    pv->emitRemark("attn-raise: not raised: ") << mismatch.reason;
}

struct AttnRaisePass : public fa4::attn::impl::AttnRaiseBase<AttnRaisePass> {
  void runOnOperation() override {
    SmallVector<std::pair<Match, Operation *>, 0> found;
    getOperation()->walk([&](linalg::LinalgOp contraction) {
      // Products on tensors: on buffers there is no value to replace.
      std::optional<Product> pv = asProduct(contraction);
      if (!pv || !contraction.hasPureTensorSemantics())
        return;
      Mismatch mismatch;
      std::optional<Match> match = matchAttention(*pv, mismatch);
      if (match && supported(*match, mismatch))
        found.emplace_back(*match, contraction);
      else
        remarkNotRaised(contraction, mismatch);
    });
    getOperation()->walk([&](tosa::MatMulOp pv) {
      Mismatch mismatch;
      std::optional<Match> match = matchTosaAttention(pv);
      if (match && supported(*match, mismatch))
        found.emplace_back(*match, pv);
      else
        remarkNotRaised(pv, mismatch);
    });
    SetVector<Operation *> replaced;
    for (auto &[match, anchor] : found) {
      SetVector<Operation *> ops = replacedOps(match);
      if (raise(match, anchor))
        replaced.insert_range(ops);
    }
    // What the matches computed is dead now; nothing else is touched.
    bool erased = true;
    while (erased) {
      erased = false;
      SmallVector<Operation *> candidates = replaced.takeVector();
      for (Operation *op : llvm::reverse(candidates)) {
        if (isOpTriviallyDead(op)) {
          op->erase();
          erased = true;
        } else {
          replaced.insert(op);
        }
      }
    }
  }
};

} // namespace
