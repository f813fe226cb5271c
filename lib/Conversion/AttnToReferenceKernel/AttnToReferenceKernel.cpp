//===- AttnToReferenceKernel.cpp - attn.attention -> SIMT GPU kernel ------===//
//
// The reference kernel: one warp per (batch, query head, query row), online
// softmax in f32 with exp2 and log2(e) folded into the scale. It implements
// the whole attn.attention contract (masks, GQA, Dqk != Dv, LSE, any sizes)
// with no tensor cores, so it is the correctness baseline that every fast
// kernel is checked against on the GPU, and the first client of the kernel
// ABI. Lane `l` of a warp owns depth columns l, l + 32, l + 64, ...
//
//===----------------------------------------------------------------------===//

#include "../Common/KernelEmitter.h"
#include "../Common/Unlowered.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cmath>

namespace fa4 {
#define GEN_PASS_DEF_CONVERTATTNTOREFERENCEKERNEL
#include "fa4/Conversion/Passes.h.inc"
} // namespace fa4

using namespace mlir;
using namespace fa4;

namespace {
constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 4;

/// What the kernel needs of its op, one of attn.attention,
/// attn.varlen_attention and attn.paged_attention: the layouts of its
/// tensors and the sizes it reads per sequence.
struct ReferenceProblem {
  enum class Form { Dense, Varlen, Paged };
  Form form = Form::Dense;
  /// Q and O packed `[Tq, H, D]` through `cu_seqlens_q` (varlen, and paged
  /// with packed queries); else `[B, Sq, H, D]`.
  bool packedQueries = false;
  bool hasSeqUsedK = false, hasLse = false, hasSinks = false;
  Type inputType;
  int64_t qkDepth = 0, ovDepth = 0, numQHeads = 0, numKVHeads = 0;
  int64_t pageSize = 0;
  attn::MaskAttr mask;
  std::optional<double> softcap;

  static ReferenceProblem of(Operation *op);
  /// The K and V tensors' names in the ABI.
  StringRef keyName() const { return form == Form::Paged ? "k_cache" : "k"; }
  StringRef valueName() const { return form == Form::Paged ? "v_cache" : "v"; }
  /// Strides a tensor of `rank` dimensions passes (all but the last).
  /// Q/O and LSE drop the batch dimension when packed.
  int queryStrides() const { return packedQueries ? 2 : 3; }
  int keyStrides() const { return form == Form::Varlen ? 2 : 3; }
  int lseStrides() const { return packedQueries ? 1 : 2; }
  /// The size symbol the grid's x dimension covers: every sequence's rows.
  StringRef rowsSymbol() const { return packedQueries ? "max_sq" : "sq"; }
};

ReferenceProblem ReferenceProblem::of(Operation *op) {
  ReferenceProblem p;
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  ShapedType query, key, value;
  if (auto dense = dyn_cast<attn::AttentionOp>(op)) {
    query = dense.getQueryType();
    key = dense.getKeyType();
    value = dense.getValueType();
    p.hasLse = static_cast<bool>(dense.getLse());
    p.mask = dense.getMask();
  } else if (auto varlen = dyn_cast<attn::VarlenAttentionOp>(op)) {
    p.form = Form::Varlen;
    p.packedQueries = true;
    p.hasSeqUsedK = static_cast<bool>(varlen.getSequsedK());
    query = shaped(varlen.getQuery());
    key = shaped(varlen.getKey());
    value = shaped(varlen.getValue());
    p.hasLse = varlen.getResults().size() == 2;
    p.mask = varlen.getMask();
  } else {
    auto paged = cast<attn::PagedAttentionOp>(op);
    p.form = Form::Paged;
    p.packedQueries = static_cast<bool>(paged.getCuSeqlensQ());
    query = shaped(paged.getQuery());
    key = shaped(paged.getKeyCache());
    value = shaped(paged.getValueCache());
    p.pageSize = paged.getPageSize();
    p.hasLse = paged.getResults().size() == 2;
    p.mask = paged.getMask();
  }
  if (std::optional<APFloat> softcap =
          cast<attn::PlannedAttentionOpInterface>(op).getSoftcap())
    p.softcap = softcap->convertToDouble();
  p.hasSinks =
      static_cast<bool>(cast<attn::PlannedAttentionOpInterface>(op).getSinks());
  int64_t rank = query.getRank();
  p.inputType = query.getElementType();
  p.qkDepth = query.getDimSize(rank - 1);
  p.numQHeads = query.getDimSize(rank - 2);
  p.numKVHeads = key.getDimSize(key.getRank() - 2);
  p.ovDepth = value.getDimSize(value.getRank() - 1);
  return p;
}

/// Emits the kernel body. Values are f32 unless named otherwise.
class KernelBuilder : KernelEmitter {
public:
  KernelBuilder(OpBuilder &builder, Location loc,
                const ReferenceProblem &problem)
      : KernelEmitter(builder, loc), problem(problem),
        inputType(problem.inputType), qkDepth(problem.qkDepth),
        ovDepth(problem.ovDepth),
        qkPerLane(llvm::divideCeil(qkDepth, kWarpSize)),
        ovPerLane(llvm::divideCeil(ovDepth, kWarpSize)) {}

  /// The ABI: the parameters in order, as the manifest lists them.
  static SmallVector<KernelParam> abiParams(const ReferenceProblem &problem);

  void build(gpu::GPUFuncOp func);

private:
  using Form = ReferenceProblem::Form;
  /// The kernel's parameters (abiParams order); the serving forms' tensors
  /// and sizes are null where the form has none.
  struct Args {
    Value q, k, v, o, lse, sinks, cuSeqlensQ, cuSeqlensK, seqUsedK, blockTable,
        seqlensK;
    Value seqQ, seqKV, maxSeqQ, queryTokens, keyTokens, pages, maxPages;
    Value scaleLog2, blockTableStride;
    SmallVector<Value> qStride, kStride, vStride, oStride, lseStride;
  };
  /// This warp's query row and heads, this lane's place in the warp, and
  /// its sequence: its rows and keys, and where its tokens start in packed
  /// tensors.
  struct RowPosition {
    Value lane, row, head, batch, kvHead;
    Value seqQ, seqKV, firstQueryToken, firstKeyToken;
  };
  Args readArgs(Block &entry);
  RowPosition rowPosition(const Args &args);
  void readSequence(const Args &args, RowPosition &at);
  Value loadIndex(Value base, Value index) {
    return sext(load(base, index, b.getI32Type()));
  }
  Value queryRowBase(const RowPosition &at, ArrayRef<Value> stride);
  Value keyRowBase(const Args &args, const RowPosition &at,
                   ArrayRef<Value> stride, Value key);
  SmallVector<Value> loadQueryRow(const Args &args, const RowPosition &at,
                                  Value zero);
  std::pair<Value, Value> visibleKeys(const RowPosition &at);
  scf::ForOp scanKeys(const Args &args, const RowPosition &at,
                      ArrayRef<Value> queryColumns, Value zero);
  void storeOutput(const Args &args, const RowPosition &at, scf::ForOp loop,
                   Value zero);
  void storeLse(const Args &args, const RowPosition &at, Value finalMax,
                Value finalSum, Value seesKeys);
  Value toI64FromIndex(Value index) { return indexTo(b.getI64Type(), index); }
  Value clamp(Value v, Value low, Value high) {
    return mins(maxs(v, low), high);
  }

  Value load(Value base, Value index, Type elementType) {
    auto ptrType = cast<LLVM::LLVMPointerType>(base.getType());
    Value ptr = LLVM::GEPOp::create(b, loc, ptrType, elementType, base,
                                    ValueRange{index});
    return LLVM::LoadOp::create(b, loc, elementType, ptr);
  }
  void store(Value value, Value base, Value index) {
    auto ptrType = cast<LLVM::LLVMPointerType>(base.getType());
    Value ptr = LLVM::GEPOp::create(b, loc, ptrType, value.getType(), base,
                                    ValueRange{index});
    LLVM::StoreOp::create(b, loc, value, ptr);
  }
  /// Offset of element (batch, row, head) + column `lane + 32 t` of a BSHD
  /// tensor; columns past `depth` are clamped (their value is masked later).
  Value columnIndex(Value rowBase, Value lane, int t, int64_t depth) {
    Value column = arith::AddIOp::create(b, loc, lane, i64(kWarpSize * t));
    if ((t + 1) * kWarpSize > depth)
      column = arith::MinSIOp::create(b, loc, column, i64(depth - 1));
    return arith::AddIOp::create(b, loc, rowBase, column);
  }
  /// Whether column `lane + 32 t` exists; null when it always does.
  Value columnValid(Value lane, int t, int64_t depth) {
    if ((t + 1) * kWarpSize <= depth)
      return {};
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt,
        arith::AddIOp::create(b, loc, lane, i64(kWarpSize * t)), i64(depth));
  }

  const ReferenceProblem &problem;
  Type inputType;
  int64_t qkDepth, ovDepth;
  /// Columns of Q/K and of V/O each lane holds (lane + 32 t).
  int qkPerLane, ovPerLane;
};
} // namespace

SmallVector<KernelParam>
KernelBuilder::abiParams(const ReferenceProblem &problem) {
  using P = KernelParam;
  SmallVector<P> params;
  StringRef key = problem.keyName(), value = problem.valueName();
  for (StringRef tensor : {StringRef("q"), key, value, StringRef("o")})
    params.push_back(P::pointer(tensor));
  if (problem.hasLse)
    params.push_back(P::pointer("lse"));
  if (problem.hasSinks)
    params.push_back(P::pointer("sinks"));
  switch (problem.form) {
  case Form::Dense:
    for (StringRef size : {"b", "sq", "skv"})
      params.push_back(P::i32(size));
    break;
  case Form::Varlen:
    params.push_back(P::pointer("cu_seqlens_q"));
    params.push_back(P::pointer("cu_seqlens_k"));
    if (problem.hasSeqUsedK)
      params.push_back(P::pointer("seqused_k"));
    for (StringRef size : {"b", "max_sq", "tq", "tk"})
      params.push_back(P::i32(size));
    break;
  case Form::Paged:
    params.push_back(P::pointer("block_table"));
    params.push_back(P::pointer("seqlens_k"));
    if (problem.packedQueries)
      params.push_back(P::pointer("cu_seqlens_q"));
    params.push_back(P::i32("b"));
    if (problem.packedQueries) {
      params.push_back(P::i32("max_sq"));
      params.push_back(P::i32("tq"));
    } else {
      params.push_back(P::i32("sq"));
    }
    params.push_back(P::i32("pages"));
    params.push_back(P::i32("max_pages"));
    break;
  }
  auto strides = [&](StringRef tensor, int count) {
    for (int dim = 0; dim < count; ++dim)
      params.push_back(P::i64((tensor + ".stride." + Twine(dim)).str()));
  };
  strides("q", problem.queryStrides());
  strides(key, problem.keyStrides());
  strides(value, problem.keyStrides());
  strides("o", problem.queryStrides());
  if (problem.hasLse)
    strides("lse", problem.lseStrides());
  if (problem.form == Form::Paged)
    strides("block_table", 1);
  params.push_back(P::f32("scale_log2"));
  return params;
}

KernelBuilder::Args KernelBuilder::readArgs(Block &entry) {
  Args args;
  unsigned arg = 0;
  auto next = [&] { return entry.getArgument(arg++); };
  auto nextSize = [&] { return sext(next()); };
  args.q = next();
  args.k = next();
  args.v = next();
  args.o = next();
  args.lse = problem.hasLse ? next() : Value();
  args.sinks = problem.hasSinks ? next() : Value();
  switch (problem.form) {
  case Form::Dense:
    next(); // b: the grid's z
    args.seqQ = nextSize();
    args.seqKV = nextSize();
    break;
  case Form::Varlen:
    args.cuSeqlensQ = next();
    args.cuSeqlensK = next();
    args.seqUsedK = problem.hasSeqUsedK ? next() : Value();
    next(); // b
    args.maxSeqQ = nextSize();
    args.queryTokens = nextSize();
    args.keyTokens = nextSize();
    break;
  case Form::Paged:
    args.blockTable = next();
    args.seqlensK = next();
    args.cuSeqlensQ = problem.packedQueries ? next() : Value();
    next(); // b
    if (problem.packedQueries) {
      args.maxSeqQ = nextSize();
      args.queryTokens = nextSize();
    } else {
      args.seqQ = nextSize();
    }
    args.pages = nextSize();
    args.maxPages = nextSize();
    break;
  }
  auto strides = [&](int count) {
    SmallVector<Value> s(entry.getArguments().slice(arg, count));
    arg += count;
    return s;
  };
  args.qStride = strides(problem.queryStrides());
  args.kStride = strides(problem.keyStrides());
  args.vStride = strides(problem.keyStrides());
  args.oStride = strides(problem.queryStrides());
  args.lseStride =
      problem.hasLse ? strides(problem.lseStrides()) : SmallVector<Value>();
  if (problem.form == Form::Paged)
    args.blockTableStride = next();
  args.scaleLog2 = next();
  return args;
}

/// A warp per (batch, query head, query row): blockIdx.x * kWarpsPerBlock +
/// warp is the row, blockIdx.y the head, blockIdx.z the batch (the
/// sequence, in the serving forms).
KernelBuilder::RowPosition KernelBuilder::rowPosition(const Args &args) {
  int64_t group = problem.numQHeads / problem.numKVHeads;
  RowPosition at;
  Value tid =
      toI64FromIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  at.lane = arith::RemUIOp::create(b, loc, tid, i64(kWarpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, i64(kWarpSize));
  at.row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc,
          toI64FromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x)),
          i64(kWarpsPerBlock)),
      warp);
  at.head = toI64FromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y));
  at.batch = toI64FromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
  at.kvHead = arith::DivUIOp::create(b, loc, at.head, i64(group));
  readSequence(args, at);
  return at;
}

/// The warp's sequence: its query rows and keys, and the first tokens of
/// its spans in packed tensors. The offsets and lengths are the caller's
/// data; each span is clamped to its tensor (a malformed cu_seqlens, a
/// seqused_k or seqlens_k past the sequence's keys or block table, gives
/// wrong rows, never an access outside the tensors).
void KernelBuilder::readSequence(const Args &args, RowPosition &at) {
  Value zero = i64(0);
  // [start, end) of cu_seqlens[batch], cu_seqlens[batch + 1] within
  // [0, tokens): (start, length).
  auto span = [&](Value cuSeqlens, Value tokens) {
    Value start = clamp(loadIndex(cuSeqlens, at.batch), zero, tokens);
    Value end =
        clamp(loadIndex(cuSeqlens, add(at.batch, i64(1))), start, tokens);
    return std::pair{start, sub(end, start)};
  };
  at.seqQ = args.seqQ;
  at.firstQueryToken = zero;
  if (problem.packedQueries)
    std::tie(at.firstQueryToken, at.seqQ) =
        span(args.cuSeqlensQ, args.queryTokens);
  at.firstKeyToken = zero;
  switch (problem.form) {
  case Form::Dense:
    at.seqKV = args.seqKV;
    break;
  case Form::Varlen:
    std::tie(at.firstKeyToken, at.seqKV) =
        span(args.cuSeqlensK, args.keyTokens);
    if (args.seqUsedK)
      at.seqKV = clamp(loadIndex(args.seqUsedK, at.batch), zero, at.seqKV);
    break;
  case Form::Paged:
    at.seqKV = clamp(loadIndex(args.seqlensK, at.batch), zero,
                     mul(args.maxPages, i64(problem.pageSize)));
    break;
  }
}

/// Element offset of the warp's query row and head in Q or O (`stride`):
/// (batch, row, head) of a BSHD tensor, (token, head) of a packed one.
Value KernelBuilder::queryRowBase(const RowPosition &at,
                                  ArrayRef<Value> stride) {
  if (problem.packedQueries)
    return add(mul(add(at.firstQueryToken, at.row), stride[0]),
               mul(at.head, stride[1]));
  return add(add(mul(at.batch, stride[0]), mul(at.row, stride[1])),
             mul(at.head, stride[2]));
}

/// Element offset of key `key` of the warp's sequence and KV head in K or V
/// (`stride`): dense BSHD, packed tokens, or its page's slot through the
/// block table (the page clamped to the cache).
Value KernelBuilder::keyRowBase(const Args &args, const RowPosition &at,
                                ArrayRef<Value> stride, Value key) {
  switch (problem.form) {
  case Form::Dense:
    return add(add(mul(at.batch, stride[0]), mul(key, stride[1])),
               mul(at.kvHead, stride[2]));
  case Form::Varlen:
    return add(mul(add(at.firstKeyToken, key), stride[0]),
               mul(at.kvHead, stride[1]));
  case Form::Paged: {
    Value pageSize = i64(problem.pageSize);
    Value entry = add(mul(at.batch, args.blockTableStride),
                      arith::DivUIOp::create(b, loc, key, pageSize));
    Value page = clamp(loadIndex(args.blockTable, entry), i64(0),
                       sub(args.pages, i64(1)));
    Value slot = arith::RemUIOp::create(b, loc, key, pageSize);
    return add(add(mul(page, stride[0]), mul(slot, stride[1])),
               mul(at.kvHead, stride[2]));
  }
  }
  llvm_unreachable("every form is handled");
}

/// This lane's columns of the query row, in f32 (0 past Dqk).
SmallVector<Value> KernelBuilder::loadQueryRow(const Args &args,
                                               const RowPosition &at,
                                               Value zero) {
  Value qBase = queryRowBase(at, args.qStride);
  SmallVector<Value> queryColumns;
  for (int t = 0; t < qkPerLane; ++t) {
    Value value = arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        load(args.q, columnIndex(qBase, at.lane, t, qkDepth), inputType));
    if (Value valid = columnValid(at.lane, t, qkDepth))
      value = arith::SelectOp::create(b, loc, valid, value, zero);
    queryColumns.push_back(value);
  }
  return queryColumns;
}

/// Keys this row sees (bottom-right aligned within its sequence): [first,
/// end), the diagonal at row + Skv - Sq. An empty range (end <= first) runs
/// no iteration: O = 0, LSE = -inf.
std::pair<Value, Value> KernelBuilder::visibleKeys(const RowPosition &at) {
  Value diagonal = sub(add(at.row, at.seqKV), at.seqQ);
  Value first = i64(0);
  Value last = sub(at.seqKV, i64(1));
  attn::MaskAttr mask = problem.mask;
  if (mask.getKind() == attn::MaskKind::Causal)
    last = mins(last, diagonal);
  if (mask.getKind() == attn::MaskKind::Window) {
    if (mask.getRight() >= 0)
      last = mins(last, add(diagonal, i64(mask.getRight())));
    if (mask.getLeft() >= 0)
      first = maxs(first, sub(diagonal, i64(mask.getLeft())));
  }
  Value end = maxs(add(last, i64(1)), first);
  return {first, end};
}

/// The online softmax over the visible keys, one key an iteration: carries
/// the running max, the running sum and this lane's O columns.
scf::ForOp KernelBuilder::scanKeys(const Args &args, const RowPosition &at,
                                   ArrayRef<Value> queryColumns, Value zero) {
  auto [first, end] = visibleKeys(at);
  // A sink is a key of the row's softmax with no value row: (max, sum) start
  // at (sinks[head] in the exp2 domain, 1).
  SmallVector<Value> init = {f32(-INFINITY), zero};
  if (args.sinks)
    init = {arith::MulFOp::create(b, loc,
                                  load(args.sinks, at.head, b.getF32Type()),
                                  f32(M_LOG2E)),
            f32(1.0)};
  init.append(ovPerLane, zero);
  auto loop =
      scf::ForOp::create(b, loc, toIndex(first), toIndex(end),
                         arith::ConstantIndexOp::create(b, loc, 1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value key = toI64FromIndex(loop.getInductionVar());
  Value runningMax = loop.getRegionIterArgs()[0];
  Value runningSum = loop.getRegionIterArgs()[1];
  Value kBase = keyRowBase(args, at, args.kStride, key);
  Value partial = zero;
  for (int t = 0; t < qkPerLane; ++t) {
    Value keyValue = arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        load(args.k, columnIndex(kBase, at.lane, t, qkDepth), inputType));
    partial = fma(queryColumns[t], keyValue, partial);
  }
  Value score = arith::MulFOp::create(b, loc, warpSum(partial), args.scaleLog2);
  if (problem.softcap) {
    // c * tanh(s / c) in the exp2 domain: score is s * log2 e.
    double capLog2 = *problem.softcap * M_LOG2E;
    Value inside = arith::MulFOp::create(b, loc, score, f32(1.0 / capLog2));
    score = arith::MulFOp::create(
        b, loc, f32(capLog2),
        LLVM::TanhOp::create(b, loc, inside,
                             LLVM::FastmathFlagsAttr::get(
                                 b.getContext(), LLVM::FastmathFlags::afn)));
  }
  Value newMax = arith::MaximumFOp::create(b, loc, runningMax, score);
  Value rescale = exp2(arith::SubFOp::create(b, loc, runningMax, newMax));
  Value probability = exp2(arith::SubFOp::create(b, loc, score, newMax));
  SmallVector<Value> next = {newMax, fma(runningSum, rescale, probability)};
  Value vBase = keyRowBase(args, at, args.vStride, key);
  for (int t = 0; t < ovPerLane; ++t) {
    Value valueColumn = arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        load(args.v, columnIndex(vBase, at.lane, t, ovDepth), inputType));
    Value scaled =
        arith::MulFOp::create(b, loc, loop.getRegionIterArgs()[2 + t], rescale);
    next.push_back(fma(probability, valueColumn, scaled));
  }
  scf::YieldOp::create(b, loc, next);
  return loop;
}

/// O = the lane's columns / sum (0 without keys), then the LSE.
void KernelBuilder::storeOutput(const Args &args, const RowPosition &at,
                                scf::ForOp loop, Value zero) {
  Value finalMax = loop.getResult(0), finalSum = loop.getResult(1);
  Value seesKeys =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, finalSum, zero);
  Value inverseSum = arith::SelectOp::create(
      b, loc, seesKeys, arith::DivFOp::create(b, loc, f32(1.0), finalSum),
      zero);
  Value oBase = queryRowBase(at, args.oStride);
  for (int t = 0; t < ovPerLane; ++t) {
    Value out = arith::TruncFOp::create(
        b, loc, inputType,
        arith::MulFOp::create(b, loc, loop.getResult(2 + t), inverseSum));
    Value index = columnIndex(oBase, at.lane, t, ovDepth);
    if (Value valid = columnValid(at.lane, t, ovDepth)) {
      auto ifValid = scf::IfOp::create(b, loc, valid, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifValid.thenBlock());
      store(out, args.o, index);
    } else {
      store(out, args.o, index);
    }
  }
  if (args.lse)
    storeLse(args, at, finalMax, finalSum, seesKeys);
}

/// LSE in natural log: (max + log2(sum)) / log2(e), -inf without keys; at
/// (batch, head, row) of `[B, H, Sq]`, or (head, token) of packed `[H, Tq]`.
void KernelBuilder::storeLse(const Args &args, const RowPosition &at,
                             Value finalMax, Value finalSum, Value seesKeys) {
  Value isLaneZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, at.lane, i64(0));
  auto ifLaneZero = scf::IfOp::create(b, loc, isLaneZero, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLaneZero.thenBlock());
  Value logSum = arith::MulFOp::create(
      b, loc, arith::AddFOp::create(b, loc, finalMax, log2(finalSum)),
      f32(M_LN2));
  Value value =
      arith::SelectOp::create(b, loc, seesKeys, logSum, f32(-INFINITY));
  Value index = problem.packedQueries
                    ? add(mul(at.head, args.lseStride[0]),
                          add(at.firstQueryToken, at.row))
                    : add(add(mul(at.batch, args.lseStride[0]),
                              mul(at.head, args.lseStride[1])),
                          at.row);
  store(value, args.lse, index);
}

void KernelBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Args args = readArgs(entry);
  RowPosition at = rowPosition(args);

  // Warps past their sequence's last query row have nothing to do (no
  // barrier follows).
  Value rowInRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, at.row, at.seqQ);
  auto ifRow = scf::IfOp::create(b, loc, rowInRange, /*withElse=*/false);
  b.setInsertionPointToStart(ifRow.thenBlock());
  Value zero = f32(0.0);
  SmallVector<Value> queryColumns = loadQueryRow(args, at, zero);
  scf::ForOp loop = scanKeys(args, at, queryColumns, zero);
  storeOutput(args, at, loop, zero);
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertAttnToReferenceKernelPass
    : public fa4::impl::ConvertAttnToReferenceKernelBase<
          ConvertAttnToReferenceKernelPass> {
  using ConvertAttnToReferenceKernelBase::ConvertAttnToReferenceKernelBase;

  void runOnOperation() override;
};
} // namespace

/// The kernel function's argument types, in `params` order.
static SmallVector<Type> argumentTypes(OpBuilder &b,
                                       ArrayRef<KernelParam> params) {
  auto globalPtr =
      LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/1);
  return llvm::map_to_vector(params, [&](const KernelParam &param) -> Type {
    switch (param.kind) {
    case KernelParam::Kind::Pointer:
      return globalPtr;
    case KernelParam::Kind::I32:
      return b.getI32Type();
    case KernelParam::Kind::I64:
      return b.getI64Type();
    default:
      return b.getF32Type();
    }
  });
}

/// Scalar loads only: each tensor aligned to its element (4 bytes for the
/// f32 LSE and the i32 sequence tensors, 2 for the 16-bit Q, K, V and O).
static decltype(KernelABI::alignment)
elementAlignment(ArrayRef<KernelParam> params) {
  decltype(KernelABI::alignment) alignment;
  for (const KernelParam &param : params) {
    if (param.kind != KernelParam::Kind::Pointer)
      continue;
    bool sixteenBit = llvm::is_contained(
        {"q", "k", "v", "o", "k_cache", "v_cache"}, StringRef(param.name));
    int64_t bytes = sixteenBit ? 2 : 4;
    alignment.push_back({param.name, {bytes, bytes}});
  }
  return alignment;
}

/// The reference kernel serves every Sq with one plan: the decode variant
/// (attn-decode-variants) of a serving form this pass lowers would be a
/// second copy of it. One whose op has a kernel already keeps it.
static void dropServingDecodeVariants(ModuleOp module) {
  SmallVector<func::FuncOp> variants;
  module.walk([&](Operation *op) {
    if (!isa<attn::VarlenAttentionOp, attn::PagedAttentionOp>(op) ||
        op->hasAttr(kernel::FA4Dialect::kKernelABIAttrName))
      return;
    auto ref =
        op->getAttrOfType<FlatSymbolRefAttr>(attn::kDecodeVariantAttrName);
    if (!ref)
      return;
    op->removeAttr(attn::kDecodeVariantAttrName);
    if (auto variant =
            SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(module, ref))
      variants.push_back(variant);
  });
  for (func::FuncOp variant : variants)
    variant.erase();
}

void ConvertAttnToReferenceKernelPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(refuseBackward(module)))
    return signalPassFailure();
  dropServingDecodeVariants(module);
  SmallVector<Operation *> ops;
  // An op with a kernel already (fa4.abi: convert-attn-to-fa4 lowered it,
  // leaving the rest to this pass under reference-fallback) keeps it.
  module.walk([&](Operation *op) {
    if (isa<attn::AttentionOp, attn::VarlenAttentionOp, attn::PagedAttentionOp>(
            op) &&
        !op->hasAttr(kernel::FA4Dialect::kKernelABIAttrName))
      ops.push_back(op);
  });
  if (ops.empty())
    return;
  for (Operation *op : ops)
    if (failed(refuseUnlowered(cast<attn::PlannedAttentionOpInterface>(op),
                               "the reference kernel")))
      return signalPassFailure();
  std::string chipName = chip;
  auto planned = cast<attn::PlannedAttentionOpInterface>(ops.front());
  if (attn::ConfigAttr config = planned.getConfigAttr())
    chipName = fa4::chipName(config.getChip()).str();
  if (chipName != "sm_90a" && chipName != "sm_100a") {
    module.emitError() << "unknown chip '" << chipName
                       << "'; expected sm_100a or sm_90a";
    return signalPassFailure();
  }

  MLIRContext *context = &getContext();
  OpBuilder b(context);
  for (Operation *op : ops) {
    ReferenceProblem problem = ReferenceProblem::of(op);
    auto [kernels, name] = createKernelModule(module, op, "fa4_ref", chipName);
    Location loc = op->getLoc();
    KernelABI abi;
    abi.params = KernelBuilder::abiParams(problem);
    b.setInsertionPointToEnd(kernels.getBody());
    auto func = gpu::GPUFuncOp::create(
        b, loc, name, b.getFunctionType(argumentTypes(b, abi.params), {}));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func.setKnownBlockSizeAttr(
        b.getDenseI32ArrayAttr({kWarpSize * kWarpsPerBlock, 1, 1}));
    KernelBuilder(b, loc, problem).build(func);

    abi.grid = {{GridFactor::ceilDivOf(problem.rowsSymbol(), kWarpsPerBlock)},
                {"hq"},
                {"b"}};
    abi.block[0] = kWarpSize * kWarpsPerBlock;
    abi.alignment = elementAlignment(abi.params);
    setKernelABI(op, kernels, name, abi);
  }
}
