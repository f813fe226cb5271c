//===- BackwardKernel.cpp - attn.attention_backward -> SIMT GPU kernel ----===//
//
// The reference backward kernel (issue 63): FlashAttention's gradients with
// no tensor cores, the correctness baseline for the tensor-core backward
// kernels to come and, until they exist, the kernel autograd runs. One
// launch, two roles by blockIdx.z (b blocks each):
//
// - dQ: a warp per (batch, query head, query row), as the forward's: D =
//   rowsum(dO * O), then over the keys the row sees, P from the scores and
//   the forward's LSE, dS = P (dO . V_j - D), dQ += dS K_j.
// - dK, dV: a warp per (batch, kv head, key) at a time, striding over them:
//   over the query heads of its group and the rows that see the key, dV +=
//   P dO_i and dK += dS Q_i.
//
// Every gradient element is written by one warp, summed in one order: the
// result is bitwise the same on every run (the op's `deterministic` holds
// whether or not it asks). D and P are recomputed where needed rather than
// kept in a workspace (D-70).
//
//===----------------------------------------------------------------------===//

#include "ReferenceEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>

using namespace mlir;
using namespace fa4;

namespace {
/// The four-stride BSHD tensors of the ABI, in parameter order.
constexpr StringLiteral kBshdTensors[] = {"q",    "k",  "v",  "o",
                                          "dout", "dq", "dk", "dv"};

/// What the kernel needs of its op.
struct BackwardProblem {
  Type inputType;
  int64_t qkDepth, ovDepth, numQHeads, numKVHeads;
  attn::MaskAttr mask;
  std::optional<double> softcap;

  explicit BackwardProblem(attn::AttentionBackwardOp op) {
    auto query = cast<ShapedType>(op.getQuery().getType());
    auto value = cast<ShapedType>(op.getValue().getType());
    inputType = query.getElementType();
    qkDepth = query.getDimSize(3);
    numQHeads = query.getDimSize(2);
    numKVHeads = cast<ShapedType>(op.getKey().getType()).getDimSize(2);
    ovDepth = value.getDimSize(3);
    mask = op.getMask();
    if (std::optional<APFloat> cap = op.getSoftcap())
      softcap = cap->convertToDouble();
  }
  int64_t group() const { return numQHeads / numKVHeads; }
};

class BackwardBuilder : ReferenceEmitter {
public:
  BackwardBuilder(OpBuilder &builder, Location loc,
                  const BackwardProblem &problem)
      : ReferenceEmitter(builder, loc), problem(problem) {}

  /// The ABI: pointers q, k, v, o, lse, dout, dq, dk, dv; sizes b, sq, skv;
  /// each tensor's strides; scale_log2.
  static SmallVector<KernelParam> abiParams();

  void build(gpu::GPUFuncOp func);

private:
  /// A BSHD tensor: its pointer and its three outer strides.
  struct Tensor {
    Value data;
    SmallVector<Value, 3> stride;
  };
  struct Args {
    Tensor q, k, v, o, dout, dq, dk, dv;
    Value lse;
    SmallVector<Value, 2> lseStride;
    Value batches, seqQ, seqKV, scaleLog2;
  };
  /// A query row the warp reads: what P and dS of any key need.
  struct QueryRow {
    SmallVector<Value> query, gradOutput;
    /// LSE in the exp2 domain; D = rowsum(dO * O).
    Value lseLog2, outputDot;
  };

  Args readArgs(Block &entry);
  Value rowBase(const Tensor &tensor, Value batch, Value row, Value head) {
    return add(add(mul(batch, tensor.stride[0]), mul(row, tensor.stride[1])),
               mul(head, tensor.stride[2]));
  }
  QueryRow readQueryRow(const Args &args, Value batch, Value row, Value head,
                        Value lane);
  /// P and dS (with respect to the scaled score) of `row` against the key
  /// whose columns are `key` and `value`.
  std::pair<Value, Value> probabilityAndGradient(const Args &args,
                                                 const QueryRow &row,
                                                 ArrayRef<Value> key,
                                                 ArrayRef<Value> value);
  void buildQueryGradient(const Args &args, Value batch, Value lane,
                          Value warp);
  void buildKeyGradients(const Args &args, Value batch, Value lane, Value warp);
  void buildKeyGradient(const Args &args, Value batch, Value lane, Value item);
  /// Query rows that see `key`: [first, end), the inverse of visibleKeys.
  std::pair<Value, Value> rowsSeeing(const Args &args, Value key);
  Value blockId(gpu::Dimension dim) {
    return toI64FromIndex(gpu::BlockIdOp::create(b, loc, dim));
  }
  Value gridDim(gpu::Dimension dim) {
    return toI64FromIndex(gpu::GridDimOp::create(b, loc, dim));
  }
  /// An scf.for over [first, end) by `step`, carrying `init`.
  scf::ForOp forRange(Value first, Value end, Value step, ValueRange init) {
    return scf::ForOp::create(b, loc, toIndex(first), toIndex(end),
                              toIndex(step), init);
  }
  SmallVector<Value> scaled(ValueRange columns, Value factor) {
    return llvm::map_to_vector(columns,
                               [&](Value c) { return fmul(c, factor); });
  }

  const BackwardProblem &problem;
};
} // namespace

SmallVector<KernelParam> BackwardBuilder::abiParams() {
  using P = KernelParam;
  SmallVector<P> params;
  for (StringRef tensor : {"q", "k", "v", "o", "lse", "dout", "dq", "dk", "dv"})
    params.push_back(P::pointer(tensor));
  for (StringRef size : {"b", "sq", "skv"})
    params.push_back(P::i32(size));
  auto strides = [&](StringRef tensor, int count) {
    for (int dim = 0; dim < count; ++dim)
      params.push_back(P::i64((tensor + ".stride." + Twine(dim)).str()));
  };
  for (StringRef tensor : ArrayRef(kBshdTensors).take_front(4))
    strides(tensor, 3);
  strides("lse", 2);
  for (StringRef tensor : ArrayRef(kBshdTensors).drop_front(4))
    strides(tensor, 3);
  params.push_back(P::f32("scale_log2"));
  return params;
}

BackwardBuilder::Args BackwardBuilder::readArgs(Block &entry) {
  Args args;
  unsigned arg = 0;
  auto next = [&] { return entry.getArgument(arg++); };
  Tensor *bshd[] = {&args.q,    &args.k,  &args.v,  &args.o,
                    &args.dout, &args.dq, &args.dk, &args.dv};
  for (Tensor *tensor : ArrayRef(bshd).take_front(4))
    tensor->data = next();
  args.lse = next();
  for (Tensor *tensor : ArrayRef(bshd).drop_front(4))
    tensor->data = next();
  args.batches = sext(next());
  args.seqQ = sext(next());
  args.seqKV = sext(next());
  auto readStrides = [&](Tensor *tensor) {
    for (int dim = 0; dim < 3; ++dim)
      tensor->stride.push_back(next());
  };
  for (Tensor *tensor : ArrayRef(bshd).take_front(4))
    readStrides(tensor);
  args.lseStride = {next(), next()};
  for (Tensor *tensor : ArrayRef(bshd).drop_front(4))
    readStrides(tensor);
  args.scaleLog2 = next();
  return args;
}

BackwardBuilder::QueryRow BackwardBuilder::readQueryRow(const Args &args,
                                                        Value batch, Value row,
                                                        Value head,
                                                        Value lane) {
  QueryRow at;
  Type type = problem.inputType;
  at.query = loadRow(args.q.data, rowBase(args.q, batch, row, head), lane,
                     problem.qkDepth, type);
  at.gradOutput = loadRow(args.dout.data, rowBase(args.dout, batch, row, head),
                          lane, problem.ovDepth, type);
  SmallVector<Value> output =
      loadRow(args.o.data, rowBase(args.o, batch, row, head), lane,
              problem.ovDepth, type);
  at.outputDot = rowDot(at.gradOutput, output);
  Value lse =
      load(args.lse,
           add(add(mul(batch, args.lseStride[0]), mul(head, args.lseStride[1])),
               row),
           b.getF32Type());
  at.lseLog2 = fmul(lse, f32(M_LOG2E));
  return at;
}

std::pair<Value, Value>
BackwardBuilder::probabilityAndGradient(const Args &args, const QueryRow &row,
                                        ArrayRef<Value> key,
                                        ArrayRef<Value> value) {
  Value score = fmul(rowDot(row.query, key), args.scaleLog2);
  Value capTanh;
  if (problem.softcap)
    std::tie(score, capTanh) = softcapLog2(score, *problem.softcap);
  // A row that saw no key has LSE = -inf; it never reaches here, but a
  // caller's inconsistent LSE must not turn into inf * 0.
  Value probability = exp2(fsub(score, row.lseLog2));
  Value finite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                       row.lseLog2, f32(-INFINITY));
  probability = select(finite, probability, f32(0.0));
  Value gradient =
      fmul(probability, fsub(rowDot(row.gradOutput, value), row.outputDot));
  if (capTanh)
    gradient = fmul(gradient, fsub(f32(1.0), fmul(capTanh, capTanh)));
  return {probability, gradient};
}

/// dQ of the warp's (batch, query head, row): scale * sum_j dS_j K_j.
void BackwardBuilder::buildQueryGradient(const Args &args, Value batch,
                                         Value lane, Value warp) {
  Value row =
      add(mul(blockId(gpu::Dimension::x), i64(kReferenceWarpsPerBlock)), warp);
  auto ifRow = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::slt, row, args.seqQ), false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifRow.thenBlock());
  Value head = blockId(gpu::Dimension::y);
  Value kvHead = divu(head, i64(problem.group()));
  QueryRow at = readQueryRow(args, batch, row, head, lane);
  auto [first, end] = visibleKeys(problem.mask, row, args.seqQ, args.seqKV);
  SmallVector<Value> init(columnsPerLane(problem.qkDepth), f32(0.0));
  scf::ForOp loop = forRange(first, end, i64(1), init);
  {
    OpBuilder::InsertionGuard bodyGuard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value key = toI64FromIndex(loop.getInductionVar());
    SmallVector<Value> keyColumns =
        loadRow(args.k.data, rowBase(args.k, batch, key, kvHead), lane,
                problem.qkDepth, problem.inputType);
    SmallVector<Value> valueColumns =
        loadRow(args.v.data, rowBase(args.v, batch, key, kvHead), lane,
                problem.ovDepth, problem.inputType);
    Value gradient =
        probabilityAndGradient(args, at, keyColumns, valueColumns).second;
    SmallVector<Value> next;
    for (auto [sum, column] :
         llvm::zip_equal(loop.getRegionIterArgs(), keyColumns))
      next.push_back(fma(gradient, column, sum));
    scf::YieldOp::create(b, loc, next);
  }
  Value scale = fmul(args.scaleLog2, f32(M_LN2));
  storeRow(scaled(loop.getResults(), scale), args.dq.data,
           rowBase(args.dq, batch, row, head), lane, problem.qkDepth,
           problem.inputType);
}

std::pair<Value, Value> BackwardBuilder::rowsSeeing(const Args &args,
                                                    Value key) {
  // Row i's diagonal is i + Skv - Sq: the key is at diagonal + d for d in
  // [-left, right] (causal: right = 0, no left bound).
  Value offset = sub(args.seqQ, args.seqKV);
  Value first = i64(0);
  Value last = sub(args.seqQ, i64(1));
  attn::MaskAttr mask = problem.mask;
  if (mask.getKind() == attn::MaskKind::Causal)
    first = maxs(first, add(key, offset));
  if (mask.getKind() == attn::MaskKind::Window) {
    if (mask.getRight() >= 0)
      first = maxs(first, sub(add(key, offset), i64(mask.getRight())));
    if (mask.getLeft() >= 0)
      last = mins(last, add(add(key, offset), i64(mask.getLeft())));
  }
  return {first, maxs(add(last, i64(1)), first)};
}

/// dK and dV of one (kv head, key) item of the batch: over the group's
/// query heads and the rows that see the key.
void BackwardBuilder::buildKeyGradient(const Args &args, Value batch,
                                       Value lane, Value item) {
  Value kvHead = divu(item, args.seqKV);
  Value key = remu(item, args.seqKV);
  Type type = problem.inputType;
  SmallVector<Value> keyColumns =
      loadRow(args.k.data, rowBase(args.k, batch, key, kvHead), lane,
              problem.qkDepth, type);
  SmallVector<Value> valueColumns =
      loadRow(args.v.data, rowBase(args.v, batch, key, kvHead), lane,
              problem.ovDepth, type);
  int qkColumns = columnsPerLane(problem.qkDepth);
  SmallVector<Value> init(qkColumns + columnsPerLane(problem.ovDepth),
                          f32(0.0));
  Value firstHead = mul(kvHead, i64(problem.group()));
  scf::ForOp heads =
      forRange(firstHead, add(firstHead, i64(problem.group())), i64(1), init);
  {
    OpBuilder::InsertionGuard headGuard(b);
    b.setInsertionPointToStart(heads.getBody());
    Value head = toI64FromIndex(heads.getInductionVar());
    auto [first, end] = rowsSeeing(args, key);
    scf::ForOp rows = forRange(first, end, i64(1), heads.getRegionIterArgs());
    {
      OpBuilder::InsertionGuard rowGuard(b);
      b.setInsertionPointToStart(rows.getBody());
      Value row = toI64FromIndex(rows.getInductionVar());
      QueryRow at = readQueryRow(args, batch, row, head, lane);
      auto [probability, gradient] =
          probabilityAndGradient(args, at, keyColumns, valueColumns);
      ValueRange sums = rows.getRegionIterArgs();
      SmallVector<Value> next;
      for (auto [sum, column] :
           llvm::zip_equal(sums.take_front(qkColumns), at.query))
        next.push_back(fma(gradient, column, sum));
      for (auto [sum, column] :
           llvm::zip_equal(sums.drop_front(qkColumns), at.gradOutput))
        next.push_back(fma(probability, column, sum));
      scf::YieldOp::create(b, loc, next);
    }
    scf::YieldOp::create(b, loc, rows.getResults());
  }
  Value scale = fmul(args.scaleLog2, f32(M_LN2));
  ValueRange sums = heads.getResults();
  storeRow(scaled(sums.take_front(qkColumns), scale), args.dk.data,
           rowBase(args.dk, batch, key, kvHead), lane, problem.qkDepth, type);
  storeRow(sums.drop_front(qkColumns), args.dv.data,
           rowBase(args.dv, batch, key, kvHead), lane, problem.ovDepth, type);
}

/// The batch's (kv head, key) items, strided over every warp of the role's
/// grid (x by y blocks of kReferenceWarpsPerBlock warps).
void BackwardBuilder::buildKeyGradients(const Args &args, Value batch,
                                        Value lane, Value warp) {
  Value block = add(mul(blockId(gpu::Dimension::y), gridDim(gpu::Dimension::x)),
                    blockId(gpu::Dimension::x));
  Value firstItem = add(mul(block, i64(kReferenceWarpsPerBlock)), warp);
  Value warps = mul(mul(gridDim(gpu::Dimension::x), gridDim(gpu::Dimension::y)),
                    i64(kReferenceWarpsPerBlock));
  Value items = mul(i64(problem.numKVHeads), args.seqKV);
  scf::ForOp loop = forRange(firstItem, items, warps, {});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  buildKeyGradient(args, batch, lane, toI64FromIndex(loop.getInductionVar()));
}

void BackwardBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Args args = readArgs(entry);
  Value tid =
      toI64FromIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value lane = remu(tid, i64(kReferenceWarpSize));
  Value warp = divu(tid, i64(kReferenceWarpSize));
  Value z = blockId(gpu::Dimension::z);
  Value batch = remu(z, args.batches);
  Value queryRole = cmp(arith::CmpIPredicate::ult, z, args.batches);
  auto role = scf::IfOp::create(b, loc, queryRole, /*withElse=*/true);
  b.setInsertionPointToStart(role.thenBlock());
  buildQueryGradient(args, batch, lane, warp);
  b.setInsertionPointToStart(role.elseBlock());
  buildKeyGradients(args, batch, lane, warp);
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

void fa4::lowerBackwardToReference(ModuleOp module,
                                   attn::AttentionBackwardOp op,
                                   StringRef chip) {
  OpBuilder b(op->getContext());
  BackwardProblem problem(op);
  auto [kernels, name] = createKernelModule(module, op, "fa4_ref_bwd", chip);
  Location loc = op->getLoc();
  KernelABI abi;
  abi.params = BackwardBuilder::abiParams();
  gpu::GPUFuncOp func = createReferenceFunc(b, loc, kernels, name, abi.params);
  BackwardBuilder(b, loc, problem).build(func);
  // z: the dQ role's batches, then the dK/dV role's.
  abi.grid = {
      {GridFactor::ceilDivOf("sq", kReferenceWarpsPerBlock)}, {"hq"}, {"b", 2}};
  abi.block[0] = kReferenceWarpSize * kReferenceWarpsPerBlock;
  abi.alignment = referenceAlignment(
      abi.params, llvm::to_vector_of<StringRef>(kBshdTensors));
  setKernelABI(op, kernels, name, abi);
}
