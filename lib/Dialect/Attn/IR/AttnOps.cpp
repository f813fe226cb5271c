//===- AttnOps.cpp - attn dialect ops -------------------------------------===//

#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Limits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace fa4::attn;

#include "fa4/Dialect/Attn/IR/AttnInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "fa4/Dialect/Attn/IR/AttnOps.cpp.inc"

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

Value AttentionOp::getOutput() {
  return hasBufferSemantics() ? getOutputs()[0] : getResults()[0];
}

Value AttentionOp::getLse() {
  ValueRange values = hasBufferSemantics() ? ValueRange(getOutputs())
                                           : ValueRange(getResults());
  return values.size() == 2 ? values[1] : Value();
}

/// Fails with a diagnostic where `op` has no backward pass: memrefs, FP8,
/// or no LSE.
static LogicalResult checkDifferentiable(AttentionOp op) {
  if (op.hasBufferSemantics())
    return op.emitOpError() << "has a backward pass on tensors only; this op "
                               "is on memrefs";
  if (isa<Float8E4M3FNType>(op.getKeyType().getElementType()))
    return op.emitOpError()
           << "has FP8 operands: the backward pass takes bf16 or f16";
  if (!op.getLse())
    return op.emitOpError() << "returns no LSE, which its backward pass reads "
                               "(withLse gives one that does)";
  return success();
}

FailureOr<Value> AttentionOp::buildSinksGradient(OpBuilder &builder,
                                                 Value gradOutput) {
  if (failed(checkDifferentiable(*this)))
    return failure();
  Value sinks = getSinks();
  if (!sinks)
    return emitOpError() << "has no sinks, so no sinks' gradient";
  // The caller's pass loads them (getDependentDialects), as for any builder
  // of other dialects' ops.
  MLIRContext *context = builder.getContext();
  if (!context->getLoadedDialect<arith::ArithDialect>() ||
      !context->getLoadedDialect<linalg::LinalgDialect>() ||
      !context->getLoadedDialect<math::MathDialect>() ||
      !context->getLoadedDialect<tensor::TensorDialect>())
    return emitOpError() << "builds its sinks' gradient in arith, linalg, "
                            "math and tensor, which are not loaded: declare "
                            "them as the calling pass's dependent dialects";
  Location loc = getLoc();
  auto sinksType = cast<RankedTensorType>(sinks.getType());
  Type f32 = builder.getF32Type();
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0));
  Value init =
      linalg::FillOp::create(
          builder, loc, zero,
          tensor::EmptyOp::create(builder, loc, sinksType.getShape(), f32)
              .getResult())
          .getResult(0);
  // Over (b, i, h, d): dsinks[h] -= exp(sink[h] - lse[b, h, i]) *
  // dO[b, i, h, d] * O[b, i, h, d].
  AffineExpr b, i, h, d;
  bindDims(context, b, i, h, d);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(4, 0, results, context);
  };
  SmallVector<AffineMap> maps = {map({h}), map({b, h, i}), map({b, i, h, d}),
                                 map({b, i, h, d}), map({h})};
  using utils::IteratorType;
  SmallVector<IteratorType> iterators = {
      IteratorType::reduction, IteratorType::reduction, IteratorType::parallel,
      IteratorType::reduction};
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{sinksType},
      ValueRange{sinks, getLse(), gradOutput, getOutput()}, ValueRange{init},
      maps, iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        auto widen = [&](Value v) -> Value {
          return v.getType() == f32 ? v : arith::ExtFOp::create(b, loc, f32, v);
        };
        Value share = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, args[0], args[1]));
        Value product = arith::MulFOp::create(
            b, loc, share,
            arith::MulFOp::create(b, loc, widen(args[2]), widen(args[3])));
        linalg::YieldOp::create(
            b, loc,
            ValueRange{
                arith::SubFOp::create(b, loc, args[4], product).getResult()});
      });
  return generic.getResult(0);
}

FailureOr<AttentionBackwardOp> AttentionOp::buildBackward(OpBuilder &builder,
                                                          Value gradOutput) {
  if (failed(checkDifferentiable(*this)))
    return failure();
  Value lse = getLse();
  return AttentionBackwardOp::create(
      builder, getLoc(), getQuery().getType(), getKey().getType(),
      getValue().getType(), gradOutput, getQuery(), getKey(), getValue(),
      getOutput(), lse, getScaleAttr(), getMaskAttr(), getSoftcapAttr(),
      /*deterministic=*/false);
}

AttentionOp AttentionOp::withLse(RewriterBase &rewriter) {
  if (getLse() || hasBufferSemantics())
    return *this;
  ShapedType q = getQueryType();
  auto lseType =
      RankedTensorType::get({q.getDimSize(0), q.getDimSize(2), q.getDimSize(1)},
                            Float32Type::get(getContext()));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(*this);
  // The same operands, properties and attributes, with LSE as a second
  // result.
  OperationState state(getLoc(), getOperationName());
  state.addOperands(getOperands());
  state.propertiesAttr = (*this)->getPropertiesAsAttribute();
  state.addAttributes(llvm::to_vector((*this)->getDiscardableAttrs()));
  state.addTypes({getOutput().getType(), lseType});
  auto withLse = cast<AttentionOp>(rewriter.create(state));
  rewriter.replaceAllUsesWith(getOutput(), withLse.getOutput());
  rewriter.eraseOp(*this);
  return withLse;
}

double AttentionOp::getEffectiveScale() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToDouble();
  return 1.0 / std::sqrt(static_cast<double>(getQKDepth()));
}

static fa4::ElementType toPlanElementType(Type type) {
  if (type.isF16())
    return fa4::ElementType::F16;
  if (isa<Float8E4M3FNType>(type))
    return fa4::ElementType::F8E4M3FN;
  return fa4::ElementType::BF16;
}

static int64_t staticOrDynamic(int64_t size) {
  return ShapedType::isDynamic(size) ? fa4::kDynamic : size;
}

/// What every attention op tells the planners alike: element types, heads,
/// depths (the last two dimensions of Q, K and V), the mask, whether LSE is
/// asked for, and the hints.
static fa4::AttnProblem commonProblem(ShapedType q, ShapedType k, ShapedType v,
                                      Type outputType, MaskAttr mask,
                                      bool hasLse, int64_t batchHint,
                                      int64_t seqQHint, int64_t seqKVHint) {
  int64_t rank = q.getRank();
  fa4::AttnProblem problem;
  problem.elementType = toPlanElementType(q.getElementType());
  problem.outputElementType =
      toPlanElementType(cast<ShapedType>(outputType).getElementType());
  problem.numQHeads = q.getDimSize(rank - 2);
  problem.numKVHeads = k.getDimSize(k.getRank() - 2);
  problem.qkDepth = q.getDimSize(rank - 1);
  problem.ovDepth = v.getDimSize(v.getRank() - 1);
  problem.mask = mask.getKind() == MaskKind::Causal   ? fa4::MaskKind::Causal
                 : mask.getKind() == MaskKind::Window ? fa4::MaskKind::Window
                                                      : fa4::MaskKind::None;
  problem.windowLeft = mask.getLeft();
  problem.windowRight = mask.getRight();
  problem.hasLse = hasLse;
  problem.batchHint = batchHint;
  problem.seqQHint = seqQHint;
  problem.seqKVHint = seqKVHint;
  return problem;
}

/// attn-decode-variants' `attn.seq_q_hint` on a decode variant's op.
static void applySeqQHint(Operation *op, fa4::AttnProblem &problem) {
  if (auto hint = op->getAttrOfType<IntegerAttr>(kSeqQHintAttrName))
    problem.seqQHint = hint.getInt();
}

fa4::AttnProblem AttentionOp::getProblem(int64_t batchHint, int64_t seqQHint,
                                         int64_t seqKVHint) {
  ShapedType qType = getQueryType(), kType = getKeyType();
  fa4::AttnProblem problem = commonProblem(
      qType, kType, getValueType(), getOutput().getType(), getMask(),
      static_cast<bool>(getLse()), batchHint, seqQHint, seqKVHint);
  problem.batch = staticOrDynamic(qType.getDimSize(0));
  problem.seqQ = staticOrDynamic(qType.getDimSize(1));
  problem.seqKV = staticOrDynamic(kType.getDimSize(1));
  applySeqQHint(*this, problem);
  return problem;
}

void AttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // The tensor form is pure; the memref form reads Q, K, V and writes outs.
  if (!hasBufferSemantics())
    return;
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    bool isOutput =
        getODSOperandIndexAndLength(4).first <= operand.getOperandNumber();
    if (isOutput)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

static LogicalResult verifyElementType(Operation *op, Type elementType);

namespace {
/// Checks the operands of the attention ops; names each in every message.
struct ShapeChecker {
  Operation *op;

  /// Two sizes agree unless both are static and differ.
  LogicalResult expectSame(StringRef what, StringRef lhsName, int64_t lhs,
                           StringRef rhsName, int64_t rhs) {
    if (ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs) || lhs == rhs)
      return success();
    return op->emitOpError()
           << "expects " << what << " of " << lhsName << " (" << lhs << ") and "
           << rhsName << " (" << rhs << ") to be equal";
  }

  LogicalResult expectRank(StringRef name, ShapedType type, int64_t rank,
                           StringRef layout) {
    if (type.getRank() == rank)
      return success();
    return op->emitOpError()
           << "expects " << name << " to have rank " << rank << " (" << layout
           << "), but got rank " << type.getRank();
  }

  LogicalResult expectStatic(StringRef name, ShapedType type, unsigned dim,
                             StringRef what) {
    if (!type.isDynamicDim(dim))
      return success();
    return op->emitOpError() << "expects the " << what << " (dim " << dim
                             << ") of " << name << " to be static";
  }

  LogicalResult expectPositive(StringRef name, ShapedType type) {
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (!ShapedType::isDynamic(size) && size < 1)
        return op->emitOpError()
               << "expects every dim of " << name << " to be >= 1, but dim "
               << dim << " is " << size;
    return success();
  }

  /// BSHD sizes within what a kernel represents (fa4/Limits.h): batch and
  /// sequence dims, heads, depth; `dims` names what each dim is.
  LogicalResult
  expectWithinLimits(StringRef name, ShapedType type,
                     ArrayRef<std::pair<StringRef, int64_t>> dims) {
    for (auto [dim, what] : llvm::enumerate(dims)) {
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size) || size <= what.second)
        continue;
      return op->emitOpError() << "expects the " << what.first << " (dim "
                               << dim << ") of " << name << " to be at most "
                               << what.second << ", but got " << size;
    }
    return success();
  }

  /// `type` of `rank` (`layout` names its dims), sizes >= 1 and within
  /// fa4's limits, static heads and depth (its last two dims).
  LogicalResult operand(StringRef name, ShapedType type, int64_t rank,
                        StringRef layout) {
    SmallVector<std::pair<StringRef, int64_t>> limits;
    if (rank == 4)
      limits = {{"batch size", fa4::limits::kMaxBatch},
                {"sequence length", fa4::limits::kMaxSeqLen}};
    else
      limits = {{"token count", fa4::limits::kMaxSeqLen}};
    limits.append({{"head count", fa4::limits::kMaxHeads},
                   {"depth", fa4::limits::kMaxDepth}});
    if (failed(expectRank(name, type, rank, layout)) ||
        failed(expectPositive(name, type)) ||
        failed(expectStatic(name, type, rank - 2, "head count")) ||
        failed(expectStatic(name, type, rank - 1, "depth")) ||
        failed(expectWithinLimits(name, type, limits)))
      return failure();
    return success();
  }

  /// One element type the kernels take, shared by every operand in `types`.
  LogicalResult elementTypes(ArrayRef<std::pair<StringRef, ShapedType>> types) {
    Type element = types.front().second.getElementType();
    if (failed(verifyElementType(op, element)))
      return failure();
    for (auto [name, type] : types.drop_front())
      if (type.getElementType() != element)
        return op->emitOpError()
               << "expects " << name << " to have element type " << element
               << " like " << types.front().first << ", but got "
               << type.getElementType();
    return success();
  }

  /// Heads and depths: Hq % Hkv == 0, Q and K share Dqk, V and O share Dv,
  /// Q and O share Hq, K and V share Hkv.
  LogicalResult heads(ShapedType q, ShapedType k, ShapedType v, ShapedType o) {
    int64_t h = q.getRank() - 2, d = q.getRank() - 1, kh = k.getRank() - 2,
            kd = k.getRank() - 1;
    if (failed(expectSame("the query head count", "query", q.getDimSize(h),
                          "output", o.getDimSize(h))) ||
        failed(expectSame("the key/value head count", "key", k.getDimSize(kh),
                          "value", v.getDimSize(kh))) ||
        failed(expectSame("the QK depth", "query", q.getDimSize(d), "key",
                          k.getDimSize(kd))) ||
        failed(expectSame("the OV depth", "value", v.getDimSize(kd), "output",
                          o.getDimSize(d))))
      return failure();
    if (q.getDimSize(h) % k.getDimSize(kh) != 0)
      return op->emitOpError()
             << "expects the query head count (" << q.getDimSize(h)
             << ") to be a multiple of the key/value head count ("
             << k.getDimSize(kh) << ")";
    return success();
  }

  /// An i32 index vector of `rank` (`layout` names its dims), sizes >= 1.
  LogicalResult indices(StringRef name, ShapedType type, int64_t rank,
                        StringRef layout) {
    return failed(expectRank(name, type, rank, layout))
               ? failure()
               : expectPositive(name, type);
  }

  /// O and the optional LSE as results: 1 or 2.
  LogicalResult results(ResultRange values) {
    if (values.size() < 1 || values.size() > 2)
      return op->emitOpError()
             << "expects O and an optional LSE (1 or 2 results), but got "
             << values.size();
    return success();
  }

  /// LSE: f32 of `rank` (`layout` names its dims), sizes >= 1.
  LogicalResult lse(ShapedType type, int64_t rank, StringRef layout) {
    if (failed(expectRank("lse", type, rank, layout)) ||
        failed(expectPositive("lse", type)))
      return failure();
    if (!type.getElementType().isF32())
      return op->emitOpError()
             << "expects lse to have element type f32, but got "
             << type.getElementType();
    return success();
  }

  /// A descale of FP8 operand `tensor` (of type `operand`), where given:
  /// f32, rank 0 (the tensor's) or [B, Hkv] (FlashAttention 3's), a tensor
  /// or a memref as the other operands.
  LogicalResult descale(StringRef name, Value descale, StringRef tensor,
                        ShapedType operand, int64_t batch, int64_t numKVHeads,
                        bool buffer) {
    if (!descale)
      return success();
    if (!isa<Float8E4M3FNType>(operand.getElementType()))
      return op->emitOpError()
             << "has " << name << ", but the " << tensor << " is "
             << operand.getElementType()
             << ", not f8E4M3FN: only FP8 operands take a descale";
    if (isa<MemRefType>(descale.getType()) != buffer)
      return op->emitOpError()
             << "expects " << name << " to be a "
             << (buffer ? "memref" : "tensor")
             << " as the other operands, but got " << descale.getType();
    auto type = cast<ShapedType>(descale.getType());
    if (!type.getElementType().isF32())
      return op->emitOpError()
             << "expects " << name << " to have element type f32, but got "
             << type.getElementType();
    if (type.getRank() == 0)
      return success();
    if (type.getRank() != 2)
      return op->emitOpError()
             << "expects " << name
             << " to have rank 0 (one value for the tensor) or 2 (batch, "
                "key/value heads), but got rank "
             << type.getRank();
    if (failed(expectSame("the batch size", "query", batch, name,
                          type.getDimSize(0))))
      return failure();
    return expectSame("the key/value head count", "key", numKVHeads, name,
                      type.getDimSize(1));
  }

  /// The sinks, where given: f32 [Hq], a tensor or a memref as the
  /// op's other operands (`buffer`).
  LogicalResult sinks(Value sinks, int64_t numQHeads, bool buffer) {
    if (!sinks)
      return success();
    if (isa<MemRefType>(sinks.getType()) != buffer)
      return op->emitOpError()
             << "expects sinks to be a " << (buffer ? "memref" : "tensor")
             << " as the other operands, but got " << sinks.getType();
    auto type = cast<ShapedType>(sinks.getType());
    if (failed(expectRank("sinks", type, 1, "query heads")))
      return failure();
    if (!type.getElementType().isF32())
      return op->emitOpError()
             << "expects sinks to have element type f32, but got "
             << type.getElementType();
    return expectSame("the head count", "sinks", type.getDimSize(0), "query",
                      numQHeads);
  }

  /// The scale, where given: finite and > 0.
  LogicalResult scale(std::optional<APFloat> scale) {
    return positive("scale", scale);
  }

  /// `name`, where given, finite and > 0 (scale, softcap).
  LogicalResult positive(StringRef name, std::optional<APFloat> attr) {
    if (!attr)
      return success();
    double value = attr->convertToDouble();
    if (!std::isfinite(value) || value <= 0.0)
      return op->emitOpError() << "expects " << name
                               << " to be finite and > 0, but got " << value;
    return success();
  }

  /// LSE [B, Hq, Sq] of a BSHD query.
  LogicalResult bshdLse(ShapedType q, ShapedType lseType) {
    if (failed(lse(lseType, 3, "batch, query heads, query sequence")) ||
        failed(expectSame("the batch size", "query", q.getDimSize(0), "lse",
                          lseType.getDimSize(0))) ||
        failed(expectSame("the query head count", "query", q.getDimSize(2),
                          "lse (dim 1)", lseType.getDimSize(1))) ||
        failed(expectSame("the query sequence length", "query", q.getDimSize(1),
                          "lse (dim 2)", lseType.getDimSize(2))))
      return failure();
    return success();
  }

  /// LSE [Hq, Tq] of a packed [Tq, Hq, D] query.
  LogicalResult packedLse(ShapedType q, ShapedType lseType) {
    if (failed(lse(lseType, 2, "query heads, query tokens")) ||
        failed(expectSame("the query head count", "query", q.getDimSize(1),
                          "lse (dim 0)", lseType.getDimSize(0))) ||
        failed(expectSame("the query token count", "query", q.getDimSize(0),
                          "lse (dim 1)", lseType.getDimSize(1))))
      return failure();
    return success();
  }
};
} // namespace

static LogicalResult verifyElementType(Operation *op, Type elementType) {
  if (elementType.isBF16() || elementType.isF16())
    return success();
  if (isa<Float8E4M3FNType>(elementType))
    return op->emitOpError()
           << "element type f8E4M3FN is not supported yet (it needs "
              "descale operands); supported: bf16, f16";
  return op->emitOpError() << "element type " << elementType
                           << " is not supported; supported: bf16, f16";
}

static bool isFp8(ShapedType type) {
  return isa<Float8E4M3FNType>(type.getElementType());
}

/// FP8 attention (FlashAttention 3's): f8E4M3FN Q, K and V with a bf16 or
/// f16 O, or f8E4M3FN K and V under a Q of O's element type.
static LogicalResult verifyFp8ElementTypes(AttentionOp op, ShapedType q,
                                           ShapedType k, ShapedType v,
                                           ShapedType o) {
  if (!isFp8(k) || !isFp8(v))
    return op.emitOpError()
           << "expects key and value to be f8E4M3FN with an f8E4M3FN "
              "operand, but got key "
           << k.getElementType() << " and value " << v.getElementType();
  Type output = o.getElementType();
  if (!output.isBF16() && !output.isF16())
    return op.emitOpError() << "expects output element type bf16 or f16 "
                               "with f8E4M3FN operands, but got "
                            << output;
  if (!isFp8(q) && q.getElementType() != output)
    return op.emitOpError()
           << "expects query to be f8E4M3FN or of the output's element type "
           << output << ", but got " << q.getElementType();
  return success();
}

/// Query, key and value all tensors or all memrefs; O and an optional LSE
/// as results (tensors) or outs (memrefs).
static LogicalResult verifyForm(AttentionOp op) {
  Type queryType = op.getQuery().getType();
  bool isBuffer = op.hasBufferSemantics();
  for (auto [name, value] : {std::pair<StringRef, Value>{"key", op.getKey()},
                             {"value", op.getValue()}}) {
    if (isa<MemRefType>(value.getType()) != isBuffer)
      return op.emitOpError()
             << "expects query, key and value to be all tensors or all "
                "memrefs, but query is "
             << queryType << " and " << name << " is " << value.getType();
  }

  // Tensor form returns O [, LSE]; memref form writes them through `outs`.
  unsigned numOutputs =
      isBuffer ? op.getOutputs().size() : op.getResults().size();
  if (isBuffer && !op.getResults().empty())
    return op.emitOpError() << "with memref operands returns no results; pass "
                               "O and LSE in outs";
  if (!isBuffer && !op.getOutputs().empty())
    return op.emitOpError() << "with tensor operands takes no outs; it "
                               "returns O and LSE as results";
  if (numOutputs < 1 || numOutputs > 2)
    return op.emitOpError()
           << "expects O and an optional LSE (1 or 2 "
           << (isBuffer ? "outs" : "results") << "), but got " << numOutputs;
  return success();
}

/// Q, K, V and O: BSHD, sizes >= 1 and within fa4's limits, static heads
/// and depths, one element type the kernels take.
static LogicalResult verifyOperandTypes(AttentionOp op, ShapeChecker &check) {
  ShapedType qType = op.getQueryType(), kType = op.getKeyType(),
             vType = op.getValueType();
  auto oType = cast<ShapedType>(op.getOutput().getType());
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"query", qType},
                            {"key", kType},
                            {"value", vType},
                            {"output", oType}}) {
    if (failed(check.operand(name, type, 4,
                             "BSHD: batch, sequence, heads, depth")))
      return failure();
  }

  if (isFp8(qType) || isFp8(kType) || isFp8(vType))
    return verifyFp8ElementTypes(op, qType, kType, vType, oType);
  if (failed(verifyElementType(op, qType.getElementType())))
    return failure();
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"key", kType},
                            {"value", vType},
                            {"output", oType}})
    if (type.getElementType() != qType.getElementType())
      return op.emitOpError()
             << "expects " << name << " to have element type "
             << qType.getElementType() << " like query, but got "
             << type.getElementType();
  return success();
}

/// Q, K and V descaled where the op says so (ShapeChecker::descale).
static LogicalResult verifyDescales(AttentionOp op, ShapeChecker &check) {
  int64_t batch = op.getQueryType().getDimSize(0);
  int64_t numKVHeads = op.getNumKVHeads();
  bool buffer = op.hasBufferSemantics();
  return success(
      succeeded(check.descale("q_descale", op.getQDescale(), "query",
                              op.getQueryType(), batch, numKVHeads, buffer)) &&
      succeeded(check.descale("k_descale", op.getKDescale(), "key",
                              op.getKeyType(), batch, numKVHeads, buffer)) &&
      succeeded(check.descale("v_descale", op.getVDescale(), "value",
                              op.getValueType(), batch, numKVHeads, buffer)));
}

/// The sizes Q, K, V and O share, and query heads a multiple of the
/// key/value heads.
static LogicalResult verifySharedSizes(AttentionOp op, ShapeChecker &check) {
  ShapedType qType = op.getQueryType(), kType = op.getKeyType(),
             vType = op.getValueType();
  auto oType = cast<ShapedType>(op.getOutput().getType());
  int64_t numQHeads = qType.getDimSize(2), numKVHeads = kType.getDimSize(2);
  if (failed(check.expectSame("the batch size", "query", qType.getDimSize(0),
                              "key", kType.getDimSize(0))) ||
      failed(check.expectSame("the batch size", "query", qType.getDimSize(0),
                              "value", vType.getDimSize(0))) ||
      failed(check.expectSame("the batch size", "query", qType.getDimSize(0),
                              "output", oType.getDimSize(0))) ||
      failed(check.expectSame("the key/value sequence length", "key",
                              kType.getDimSize(1), "value",
                              vType.getDimSize(1))) ||
      failed(check.expectSame("the query sequence length", "query",
                              qType.getDimSize(1), "output",
                              oType.getDimSize(1))) ||
      failed(check.expectSame("the key/value head count", "key", numKVHeads,
                              "value", vType.getDimSize(2))) ||
      failed(check.expectSame("the query head count", "query", numQHeads,
                              "output", oType.getDimSize(2))) ||
      failed(check.expectSame("the QK depth", "query", qType.getDimSize(3),
                              "key", kType.getDimSize(3))) ||
      failed(check.expectSame("the OV depth", "value", vType.getDimSize(3),
                              "output", oType.getDimSize(3))))
    return failure();
  if (numQHeads % numKVHeads != 0)
    return op.emitOpError()
           << "expects the query head count (" << numQHeads
           << ") to be a multiple of the key/value head count (" << numKVHeads
           << ")";
  return success();
}

/// LSE, where asked for: f32 [B, Hq, Sq].
static LogicalResult verifyLse(AttentionOp op, ShapeChecker &check) {
  Value lse = op.getLse();
  return lse ? check.bshdLse(op.getQueryType(), cast<ShapedType>(lse.getType()))
             : success();
}

LogicalResult AttentionOp::verify() {
  ShapeChecker check{getOperation()};
  if (failed(verifyForm(*this)) || failed(verifyOperandTypes(*this, check)) ||
      failed(verifySharedSizes(*this, check)) ||
      failed(verifyLse(*this, check)) || failed(verifyDescales(*this, check)) ||
      failed(check.scale(getScale())) ||
      failed(check.sinks(getSinks(), getNumQueryHeads(), hasBufferSemantics())))
    return failure();
  return check.positive("softcap", getSoftcap());
}

//===----------------------------------------------------------------------===//
// AttentionBackwardOp
//===----------------------------------------------------------------------===//

double AttentionBackwardOp::getEffectiveScale() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToDouble();
  int64_t depth = cast<ShapedType>(getQuery().getType()).getDimSize(3);
  return 1.0 / std::sqrt(static_cast<double>(depth));
}

/// Each gradient has its input's type: dQ Q's, dK K's, dV V's.
static LogicalResult verifyGradientTypes(AttentionBackwardOp op) {
  for (auto [name, gradient, input] :
       {std::tuple<StringRef, Value, Value>{"grad_query", op.getGradQuery(),
                                            op.getQuery()},
        {"grad_key", op.getGradKey(), op.getKey()},
        {"grad_value", op.getGradValue(), op.getValue()}})
    if (gradient.getType() != input.getType())
      return op.emitOpError() << "expects " << name << " to have the type of "
                              << name.drop_front(5) << ", " << input.getType()
                              << ", but got " << gradient.getType();
  return success();
}

LogicalResult AttentionBackwardOp::verify() {
  ShapeChecker check{getOperation()};
  auto shaped = [](Value value) { return cast<ShapedType>(value.getType()); };
  ShapedType dO = shaped(getGradOutput()), q = shaped(getQuery()),
             k = shaped(getKey()), v = shaped(getValue()),
             o = shaped(getOutput());
  StringRef layout = "BSHD: batch, sequence, heads, depth";
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"grad_output", dO},
                            {"query", q},
                            {"key", k},
                            {"value", v},
                            {"output", o}})
    if (failed(check.operand(name, type, 4, layout)))
      return failure();
  if (isFp8(q) || isFp8(k) || isFp8(v))
    return emitOpError() << "takes bf16 or f16 operands: the backward pass "
                            "of FP8 attention is not supported";
  if (failed(check.elementTypes({{"query", q},
                                 {"key", k},
                                 {"value", v},
                                 {"output", o},
                                 {"grad_output", dO}})) ||
      failed(check.heads(q, k, v, o)))
    return failure();
  int64_t batch = q.getDimSize(0);
  if (failed(check.expectSame("the batch size", "query", batch, "key",
                              k.getDimSize(0))) ||
      failed(check.expectSame("the batch size", "query", batch, "value",
                              v.getDimSize(0))) ||
      failed(check.expectSame("the batch size", "query", batch, "output",
                              o.getDimSize(0))) ||
      failed(check.expectSame("the key/value sequence length", "key",
                              k.getDimSize(1), "value", v.getDimSize(1))) ||
      failed(check.expectSame("the query sequence length", "query",
                              q.getDimSize(1), "output", o.getDimSize(1))))
    return failure();
  // dO has O's shape.
  static constexpr StringLiteral kDims[] = {
      "the batch size", "the query sequence length", "the query head count",
      "the OV depth"};
  for (auto [dim, what] : llvm::enumerate(kDims))
    if (failed(check.expectSame(what, "output", o.getDimSize(dim),
                                "grad_output", dO.getDimSize(dim))))
      return failure();
  if (failed(check.bshdLse(q, shaped(getLse()))) ||
      failed(verifyGradientTypes(*this)) || failed(check.scale(getScale())))
    return failure();
  return check.positive("softcap", getSoftcap());
}

//===----------------------------------------------------------------------===//
// Serving forms
//===----------------------------------------------------------------------===//

/// The batch sizes the index vectors (and a dense query) show agree.
static LogicalResult
verifyBatchVectors(ShapeChecker &check,
                   ArrayRef<std::pair<StringRef, int64_t>> batchSizes) {
  for (auto [name, size] : batchSizes)
    if (failed(check.expectSame("the batch size", batchSizes.front().first,
                                batchSizes.front().second, name, size)))
      return failure();
  return success();
}

/// The batch size a `[B + 1]` cu_seqlens vector shows (dynamic if it is).
static int64_t batchOfCuSeqlens(ShapedType type) {
  int64_t size = type.getDimSize(0);
  return ShapedType::isDynamic(size) ? size : size - 1;
}

LogicalResult VarlenAttentionOp::verify() {
  ShapeChecker check{{getOperation()}};
  if (failed(check.results(getResults())))
    return failure();
  auto q = cast<ShapedType>(getQuery().getType()),
       k = cast<ShapedType>(getKey().getType()),
       v = cast<ShapedType>(getValue().getType()),
       o = cast<ShapedType>(getResults()[0].getType());
  StringRef layout = "tokens, heads, depth";
  if (failed(check.operand("query", q, 3, layout)) ||
      failed(check.operand("key", k, 3, layout)) ||
      failed(check.operand("value", v, 3, layout)) ||
      failed(check.operand("output", o, 3, layout)) ||
      failed(check.elementTypes(
          {{"query", q}, {"key", k}, {"value", v}, {"output", o}})) ||
      failed(check.heads(q, k, v, o)) ||
      failed(check.expectSame("the key token count", "key", k.getDimSize(0),
                              "value", v.getDimSize(0))) ||
      failed(check.expectSame("the query token count", "query", q.getDimSize(0),
                              "output", o.getDimSize(0))))
    return failure();
  auto cuQ = cast<ShapedType>(getCuSeqlensQ().getType()),
       cuK = cast<ShapedType>(getCuSeqlensK().getType());
  if (failed(check.indices("cu_seqlens_q", cuQ, 1, "batch + 1")) ||
      failed(check.indices("cu_seqlens_k", cuK, 1, "batch + 1")))
    return failure();
  for (auto [name, type] :
       {std::pair<StringRef, ShapedType>{"cu_seqlens_q", cuQ},
        {"cu_seqlens_k", cuK}})
    if (!type.isDynamicDim(0) && type.getDimSize(0) < 2)
      return emitOpError() << "expects " << name
                           << " to hold at least two offsets (one sequence), "
                              "but it has "
                           << type.getDimSize(0);
  SmallVector<std::pair<StringRef, int64_t>> batches = {
      {"cu_seqlens_q", batchOfCuSeqlens(cuQ)},
      {"cu_seqlens_k", batchOfCuSeqlens(cuK)}};
  if (Value used = getSequsedK()) {
    auto usedType = cast<ShapedType>(used.getType());
    if (failed(check.indices("seqused_k", usedType, 1, "batch")))
      return failure();
    batches.push_back({"seqused_k", usedType.getDimSize(0)});
  }
  if (failed(verifyBatchVectors(check, batches)))
    return failure();
  if (getResults().size() == 2 &&
      failed(check.packedLse(q, cast<ShapedType>(getResults()[1].getType()))))
    return failure();
  if (failed(check.scale(getScale())) ||
      failed(check.sinks(getSinks(), q.getDimSize(q.getRank() - 2),
                         /*buffer=*/false)))
    return failure();
  return check.positive("softcap", getSoftcap());
}

LogicalResult PagedAttentionOp::verify() {
  ShapeChecker check{{getOperation()}};
  if (failed(check.results(getResults())))
    return failure();
  bool packed = static_cast<bool>(getCuSeqlensQ());
  auto q = cast<ShapedType>(getQuery().getType()),
       k = cast<ShapedType>(getKeyCache().getType()),
       v = cast<ShapedType>(getValueCache().getType()),
       o = cast<ShapedType>(getResults()[0].getType());
  int64_t qRank = packed ? 3 : 4;
  StringRef qLayout = packed ? "tokens, heads, depth (packed by cu_seqlens_q)"
                             : "BSHD: batch, sequence, heads, depth";
  StringRef cacheLayout = "pages, page size, heads, depth";
  if (failed(check.operand("query", q, qRank, qLayout)) ||
      failed(check.operand("output", o, qRank, qLayout)) ||
      failed(check.operand("key_cache", k, 4, cacheLayout)) ||
      failed(check.operand("value_cache", v, 4, cacheLayout)) ||
      failed(check.expectStatic("key_cache", k, 1, "page size")) ||
      failed(check.expectStatic("value_cache", v, 1, "page size")) ||
      failed(check.elementTypes({{"query", q},
                                 {"key_cache", k},
                                 {"value_cache", v},
                                 {"output", o}})) ||
      failed(check.heads(q, k, v, o)) ||
      failed(check.expectSame("the page count", "key_cache", k.getDimSize(0),
                              "value_cache", v.getDimSize(0))) ||
      failed(check.expectSame("the page size", "key_cache", k.getDimSize(1),
                              "value_cache", v.getDimSize(1))))
    return failure();
  for (int64_t dim = 0; dim < qRank - 2; ++dim)
    if (failed(check.expectSame(dim == 0 && !packed ? "the batch size"
                                : packed            ? "the query token count"
                                                    : "the query sequence "
                                                      "length",
                                "query", q.getDimSize(dim), "output",
                                o.getDimSize(dim))))
      return failure();
  auto table = cast<ShapedType>(getBlockTable().getType()),
       seqlens = cast<ShapedType>(getSeqlensK().getType());
  if (failed(check.indices("block_table", table, 2, "batch, pages")) ||
      failed(check.indices("seqlens_k", seqlens, 1, "batch")))
    return failure();
  SmallVector<std::pair<StringRef, int64_t>> batches = {
      {"block_table", table.getDimSize(0)},
      {"seqlens_k", seqlens.getDimSize(0)}};
  if (packed) {
    auto cuQ = cast<ShapedType>(getCuSeqlensQ().getType());
    if (failed(check.indices("cu_seqlens_q", cuQ, 1, "batch + 1")))
      return failure();
    batches.push_back({"cu_seqlens_q", batchOfCuSeqlens(cuQ)});
  } else {
    batches.push_back({"query", q.getDimSize(0)});
  }
  if (failed(verifyBatchVectors(check, batches)))
    return failure();
  if (getResults().size() == 2) {
    auto lse = cast<ShapedType>(getResults()[1].getType());
    if (failed(packed ? check.packedLse(q, lse) : check.bshdLse(q, lse)))
      return failure();
  }
  if (failed(check.scale(getScale())) ||
      failed(check.sinks(getSinks(), q.getDimSize(q.getRank() - 2),
                         /*buffer=*/false)))
    return failure();
  return check.positive("softcap", getSoftcap());
}

//===----------------------------------------------------------------------===//
// Serving forms: the planners' view
//===----------------------------------------------------------------------===//

/// `1/sqrt(Dqk)` unless `scale` is given.
static double effectiveScale(std::optional<APFloat> scale, ShapedType query) {
  if (scale)
    return scale->convertToDouble();
  return 1.0 /
         std::sqrt(static_cast<double>(query.getDimSize(query.getRank() - 1)));
}

/// The batch of a `[B + 1]` offsets vector, or kDynamic.
static int64_t batchOfOffsets(Value offsets) {
  int64_t size = cast<ShapedType>(offsets.getType()).getDimSize(0);
  return ShapedType::isDynamic(size) ? fa4::kDynamic : size - 1;
}

double VarlenAttentionOp::getEffectiveScale() {
  return effectiveScale(getScale(), cast<ShapedType>(getQuery().getType()));
}

/// Every sequence has its own Sq and Skv: both dynamic, the hints standing
/// for a typical sequence.
fa4::AttnProblem VarlenAttentionOp::getProblem(int64_t batchHint,
                                               int64_t seqQHint,
                                               int64_t seqKVHint) {
  fa4::AttnProblem problem = commonProblem(
      cast<ShapedType>(getQuery().getType()),
      cast<ShapedType>(getKey().getType()),
      cast<ShapedType>(getValue().getType()), getResults()[0].getType(),
      getMask(), getResults().size() == 2, batchHint, seqQHint, seqKVHint);
  problem.sequences = fa4::SequenceLayout::Packed;
  problem.batch = batchOfOffsets(getCuSeqlensQ());
  problem.seqQ = fa4::kDynamic;
  problem.seqKV = fa4::kDynamic;
  applySeqQHint(*this, problem);
  return problem;
}

double PagedAttentionOp::getEffectiveScale() {
  return effectiveScale(getScale(), cast<ShapedType>(getQuery().getType()));
}

/// The keys of each sequence are dynamic; Sq is the dense query's, or
/// dynamic for a packed one.
fa4::AttnProblem PagedAttentionOp::getProblem(int64_t batchHint,
                                              int64_t seqQHint,
                                              int64_t seqKVHint) {
  auto query = cast<ShapedType>(getQuery().getType());
  fa4::AttnProblem problem = commonProblem(
      query, cast<ShapedType>(getKeyCache().getType()),
      cast<ShapedType>(getValueCache().getType()), getResults()[0].getType(),
      getMask(), getResults().size() == 2, batchHint, seqQHint, seqKVHint);
  problem.sequences = fa4::SequenceLayout::Paged;
  problem.pageSize = getPageSize();
  problem.batch = staticOrDynamic(
      cast<ShapedType>(getBlockTable().getType()).getDimSize(0));
  problem.seqQ =
      getCuSeqlensQ() ? fa4::kDynamic : staticOrDynamic(query.getDimSize(1));
  problem.seqKV = fa4::kDynamic;
  applySeqQHint(*this, problem);
  return problem;
}

LogicalResult fa4::attn::refuseServingForms(Operation *root, StringRef pass) {
  WalkResult serving = root->walk([&](Operation *op) {
    if (!isa<VarlenAttentionOp, PagedAttentionOp>(op))
      return WalkResult::advance();
    op->emitOpError() << "has no fast kernel yet: " << pass
                      << " lowers the dense attn.attention (one Sq and Skv "
                         "per launch); the reference kernel takes the serving "
                         "forms (reference-fallback, or "
                         "convert-attn-to-reference-kernel)";
    return WalkResult::interrupt();
  });
  return failure(serving.wasInterrupted());
}
