//===- RaiseComputedMask.cpp - attn-raise: masks computed from sizes ------===//
//
// A causal or window mask that a model computes when it runs, from the
// lengths it is given, as torch-mlir lowers ONNX's Trilu with symbolic
// lengths: ones of the scores' [Sq, Skv] shape, a generic that keeps them
// where `key <= query + k` (Trilu's diagonal k, itself computed from the
// inputs' shapes through tensor.dim, from_elements, extract_slice and a
// one-element generic) and writes 0 elsewhere, then `!= 0` as booleans for
// the select. The bounds are evaluated as integer combinations of the two
// loop indices, constants and tensor.dim sizes; the mask is fa4's where
// they are its bottom-right diagonal, `query + Skv - Sq`, plus constants.
//
//===----------------------------------------------------------------------===//

#include "Raise.h"

#include "fa4/Limits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace fa4::attn::raise {

SizeExpr SizeExpr::operator-(const SizeExpr &other) const {
  return *this + other.scaled(-1);
}

/// `into += value`, noting an overflow in `overflowed`.
static void accumulate(int64_t &into, int64_t value, bool &overflowed) {
  overflowed |= llvm::AddOverflow(into, value, into);
}

SizeExpr SizeExpr::operator+(const SizeExpr &other) const {
  SizeExpr sum = *this;
  sum.overflowed |= other.overflowed;
  accumulate(sum.query, other.query, sum.overflowed);
  accumulate(sum.key, other.key, sum.overflowed);
  accumulate(sum.constant, other.constant, sum.overflowed);
  for (const SizeTerm &term : other.sizes) {
    auto same = llvm::find_if(sum.sizes, [&](const SizeTerm &mine) {
      return mine.tensor == term.tensor && mine.dim == term.dim;
    });
    if (same == sum.sizes.end())
      sum.sizes.push_back(term);
    else
      accumulate(same->coefficient, term.coefficient, sum.overflowed);
  }
  llvm::erase_if(sum.sizes,
                 [](const SizeTerm &term) { return term.coefficient == 0; });
  return sum;
}

SizeExpr SizeExpr::scaled(int64_t factor) const {
  SizeExpr product = *this;
  auto scale = [&](int64_t &value) {
    product.overflowed |= llvm::MulOverflow(value, factor, value);
  };
  scale(product.query);
  scale(product.key);
  scale(product.constant);
  for (SizeTerm &term : product.sizes)
    scale(term.coefficient);
  return product;
}

bool SizeExpr::isConstant() const {
  return !overflowed && query == 0 && key == 0 && sizes.empty();
}

SizeExpr SizeExpr::size(Value tensor, int64_t dim) {
  // The same size through transposes and reshapes that keep the dim whole.
  while (Operation *op = tensor.getDefiningOp()) {
    if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
      dim = transpose.getPermutation()[dim];
      tensor = transpose.getInput();
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      ReassociationIndices group = collapse.getReassociationIndices()[dim];
      if (group.size() != 1)
        break;
      dim = group.front();
      tensor = collapse.getSrc();
    } else {
      break;
    }
  }
  auto type = cast<ShapedType>(tensor.getType());
  SizeExpr expr;
  if (!type.isDynamicDim(dim))
    expr.constant = type.getDimSize(dim);
  else
    expr.sizes.push_back({tensor, dim, 1});
  return expr;
}

namespace {

/// Evaluates integer values of a mask's computation: inside a 2-D generic
/// over [Sq, Skv] (its linalg.index 0 and 1), and the sizes around it.
class Evaluator {
public:
  std::optional<SizeExpr> evaluate(Value value);

private:
  std::optional<SizeExpr> evaluateOp(Operation *op);
  /// Element `index` (row-major) of an integer tensor.
  std::optional<SizeExpr> element(Value tensor, int64_t index);

  /// Block arguments bound to the element a generic reads.
  llvm::DenseMap<Value, SizeExpr> bound;
};

std::optional<SizeExpr> Evaluator::evaluate(Value value) {
  if (auto found = bound.find(value); found != bound.end())
    return found->second;
  if (Operation *op = value.getDefiningOp())
    return evaluateOp(op);
  return std::nullopt;
}

std::optional<SizeExpr> Evaluator::evaluateOp(Operation *op) {
  SizeExpr expr;
  if (auto index = dyn_cast<linalg::IndexOp>(op)) {
    if (index.getDim() > 1)
      return std::nullopt;
    (index.getDim() == 0 ? expr.query : expr.key) = 1;
    return expr;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(op))
    return evaluate(op->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    std::optional<SizeExpr> lhs = evaluate(op->getOperand(0));
    std::optional<SizeExpr> rhs = evaluate(op->getOperand(1));
    if (!lhs || !rhs)
      return std::nullopt;
    if (isa<arith::AddIOp>(op))
      return *lhs + *rhs;
    if (isa<arith::SubIOp>(op))
      return *lhs - *rhs;
    if (rhs->isConstant())
      return lhs->scaled(rhs->constant);
    if (lhs->isConstant())
      return rhs->scaled(lhs->constant);
    return std::nullopt;
  }
  APInt constant;
  if (matchPattern(op->getResult(0), m_ConstantInt(&constant))) {
    if (constant.getSignificantBits() > 64)
      return std::nullopt;
    expr.constant = constant.getSExtValue();
    return expr;
  }
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<int64_t> which = dim.getConstantIndex();
    auto type = dyn_cast<RankedTensorType>(dim.getSource().getType());
    if (!which || !type || *which < 0 || *which >= type.getRank())
      return std::nullopt;
    return SizeExpr::size(dim.getSource(), *which);
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    auto type = extract.getTensor().getType();
    if (!type.hasStaticShape() || type.getNumElements() != 1)
      return std::nullopt;
    return element(extract.getTensor(), 0);
  }
  return std::nullopt;
}

std::optional<SizeExpr> Evaluator::element(Value tensor, int64_t index) {
  Operation *op = tensor.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
    return element(op->getOperand(0), index); // row-major order is kept
  if (auto elements = dyn_cast<tensor::FromElementsOp>(op)) {
    if (elements.getType().getRank() != 1 ||
        index >= int64_t(elements.getElements().size()))
      return std::nullopt;
    return evaluate(elements.getElements()[index]);
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    if (slice.getSourceType().getRank() != 1 ||
        ShapedType::isDynamic(slice.getStaticOffsets().front()) ||
        ShapedType::isDynamic(slice.getStaticStrides().front()))
      return std::nullopt;
    int64_t offset = slice.getStaticOffsets().front();
    int64_t stride = slice.getStaticStrides().front();
    if (llvm::MulOverflow(index, stride, index) ||
        llvm::AddOverflow(index, offset, index) || index < 0)
      return std::nullopt;
    return element(slice.getSource(), index);
  }
  DenseIntElementsAttr constant;
  if (matchPattern(tensor, m_Constant(&constant))) {
    if (index >= constant.getNumElements())
      return std::nullopt;
    APInt value = *(constant.value_begin<APInt>() + index);
    if (value.getSignificantBits() > 64)
      return std::nullopt;
    SizeExpr expr;
    expr.constant = value.getSExtValue();
    return expr;
  }
  // An elementwise generic of one-element tensors (torch-mlir's Sub of
  // two shapes' entries).
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic->getNumResults() != 1 ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  Block &body = generic.getRegion().front();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    std::optional<SizeExpr> value = element(input->get(), index);
    if (!value)
      return std::nullopt;
    bound[body.getArgument(input->getOperandNumber())] = *value;
  }
  return evaluate(body.getTerminator()->getOperand(0));
}

/// A keep predicate over (query, key): each bound, where there is one.
struct Bounds {
  std::optional<SizeExpr> upper, lower;
};

/// The bound `cmpi` puts on the key: `key <= query + upper` or
/// `key >= query + lower`, negated where `negate` (the cond hides).
std::optional<Bounds> boundOf(arith::CmpIOp cmp, Evaluator &evaluator,
                              bool negate) {
  std::optional<SizeExpr> lhs = evaluator.evaluate(cmp.getLhs());
  std::optional<SizeExpr> rhs = evaluator.evaluate(cmp.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  // As `e <= 0`; signed comparisons only (the bounds may be negative).
  SizeExpr e = *lhs - *rhs;
  SizeExpr one;
  one.constant = 1;
  arith::CmpIPredicate predicate = cmp.getPredicate();
  if (negate)
    predicate = arith::invertPredicate(predicate);
  switch (predicate) {
  case arith::CmpIPredicate::sle:
    break;
  case arith::CmpIPredicate::slt:
    e = e + one;
    break;
  case arith::CmpIPredicate::sge:
    e = e.scaled(-1);
    break;
  case arith::CmpIPredicate::sgt:
    e = e.scaled(-1) + one;
    break;
  default:
    return std::nullopt;
  }
  Bounds bounds;
  SizeExpr rest = e;
  rest.query = rest.key = 0;
  if (e.query == -1 && e.key == 1) // key - query + rest <= 0
    bounds.upper = rest.scaled(-1);
  else if (e.query == 1 && e.key == -1) // query - key + rest <= 0
    bounds.lower = rest;
  else
    return std::nullopt;
  return bounds;
}

/// The i1 or keep value a mask generic yields, as bounds.
std::optional<Bounds> predicateOf(Value value, Evaluator &evaluator,
                                  bool negate) {
  if (auto cmp = value.getDefiningOp<arith::CmpIOp>())
    return boundOf(cmp, evaluator, negate);
  auto both = value.getDefiningOp<arith::AndIOp>();
  if (!both || negate)
    return std::nullopt;
  std::optional<Bounds> lhs = predicateOf(both.getLhs(), evaluator, false);
  std::optional<Bounds> rhs = predicateOf(both.getRhs(), evaluator, false);
  if (!lhs || !rhs || (lhs->upper && rhs->upper) || (lhs->lower && rhs->lower))
    return std::nullopt;
  return Bounds{lhs->upper ? lhs->upper : rhs->upper,
                lhs->lower ? lhs->lower : rhs->lower};
}

/// The 2-D elementwise generic (identity maps, one result) defining
/// `value`, or null.
linalg::GenericOp elementwise2d(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumLoops() != 2 || generic->getNumResults() != 1 ||
      !llvm::all_of(generic.getIteratorTypesArray(),
                    [](utils::IteratorType type) {
                      return type == utils::IteratorType::parallel;
                    }) ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return nullptr;
  return generic;
}

bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Whether every element of `value` is a nonzero constant: a splat, or a
/// generic that broadcasts one.
bool allNonzero(Value value) {
  if (std::optional<double> splat = splatConstant(value))
    return *splat != 0;
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic->getNumResults() != 1)
    return false;
  Block &body = generic.getRegion().front();
  if (body.getTerminator()->getOperand(0) != body.getArgument(0))
    return false;
  std::optional<double> splat =
      splatConstant(generic.getDpsInputOperand(0)->get());
  return splat && *splat != 0;
}

/// Where `ones` (all nonzero) is kept by the generic defining `value`,
/// which writes `select(p, ones, 0)`: p's bounds.
std::optional<Bounds> keptNonzero(Value value, Evaluator &evaluator,
                                  bool negate) {
  linalg::GenericOp generic = elementwise2d(value);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      !allNonzero(generic.getDpsInputOperand(0)->get()))
    return std::nullopt;
  Block &body = generic.getRegion().front();
  auto select =
      body.getTerminator()->getOperand(0).getDefiningOp<arith::SelectOp>();
  if (!select || select.getTrueValue() != body.getArgument(0) ||
      !isZero(select.getFalseValue()))
    return std::nullopt;
  return predicateOf(select.getCondition(), evaluator, negate);
}

} // namespace

std::optional<ComputedMask> computedMask(Value condition, bool keepWhere) {
  linalg::GenericOp generic = elementwise2d(condition);
  if (!generic)
    return std::nullopt;
  Evaluator evaluator;
  Block &body = generic.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  bool negate = !keepWhere;
  std::optional<Bounds> bounds;
  // `X != 0` over X = select(p, ones, 0) (Trilu's lowering), or p itself.
  auto nonzero = yielded.getDefiningOp<arith::CmpFOp>();
  if (nonzero && generic.getNumDpsInputs() == 1 &&
      nonzero.getLhs() == body.getArgument(0) && isZero(nonzero.getRhs()) &&
      (nonzero.getPredicate() == arith::CmpFPredicate::UNE ||
       nonzero.getPredicate() == arith::CmpFPredicate::ONE))
    bounds =
        keptNonzero(generic.getDpsInputOperand(0)->get(), evaluator, negate);
  else
    bounds = predicateOf(yielded, evaluator, negate);
  if (!bounds || (!bounds->upper && !bounds->lower))
    return std::nullopt;
  return ComputedMask{bounds->upper, bounds->lower};
}

std::optional<MaskAttr> resolveComputedMask(const ComputedMask &mask,
                                            const Operand &query,
                                            const Operand &key) {
  // fa4's diagonal: key = query + Skv - Sq.
  SizeExpr offset = SizeExpr::size(key.value, key.seqDim()) -
                    SizeExpr::size(query.value, query.seqDim());
  // Each bound a constant distance from the diagonal, within what a kernel
  // computes with (32 bits).
  auto distance = [](const SizeExpr &expr) -> std::optional<int64_t> {
    if (!expr.isConstant() || expr.constant < 0 ||
        !fa4::limits::isWindowBound(expr.constant))
      return std::nullopt;
    return expr.constant;
  };
  std::optional<int64_t> left, right;
  if (mask.upper && !(right = distance(*mask.upper - offset)))
    return std::nullopt;
  if (mask.lower && !(left = distance(offset - *mask.lower)))
    return std::nullopt;
  return maskFromBounds(query.value.getContext(), left, right);
}

} // namespace fa4::attn::raise
