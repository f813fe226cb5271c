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

#include "../Common/Unlowered.h"
#include "ReferenceEmitter.h"
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
constexpr int kWarpSize = kReferenceWarpSize;
constexpr int kWarpsPerBlock = kReferenceWarpsPerBlock;

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
class KernelBuilder : ReferenceEmitter {
public:
  KernelBuilder(OpBuilder &builder, Location loc,
                const ReferenceProblem &problem)
      : ReferenceEmitter(builder, loc), problem(problem),
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
  Value queryRowBase(const RowPosition &at, ArrayRef<Value> stride);
  Value keyRowBase(const Args &args, const RowPosition &at,
                   ArrayRef<Value> stride, Value key);
  SmallVector<Value> loadQueryRow(const Args &args, const RowPosition &at);
  scf::ForOp scanKeys(const Args &args, const RowPosition &at,
                      ArrayRef<Value> queryColumns, Value zero);
  void storeOutput(const Args &args, const RowPosition &at, scf::ForOp loop,
                   Value zero);
  void storeLse(const Args &args, const RowPosition &at, Value finalMax,
                Value finalSum, Value seesKeys);
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
                                               const RowPosition &at) {
  return loadRow(args.q, queryRowBase(at, args.qStride), at.lane, qkDepth,
                 inputType);
}

/// The online softmax over the visible keys, one key an iteration: carries
/// the running max, the running sum and this lane's O columns.
scf::ForOp KernelBuilder::scanKeys(const Args &args, const RowPosition &at,
                                   ArrayRef<Value> queryColumns, Value zero) {
  auto [first, end] = visibleKeys(problem.mask, at.row, at.seqQ, at.seqKV);
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
  SmallVector<Value> keyColumns =
      loadRow(args.k, keyRowBase(args, at, args.kStride, key), at.lane, qkDepth,
              inputType);
  Value score = fmul(rowDot(queryColumns, keyColumns), args.scaleLog2);
  if (problem.softcap)
    score = softcapLog2(score, *problem.softcap).first;
  Value newMax = arith::MaximumFOp::create(b, loc, runningMax, score);
  Value rescale = exp2(arith::SubFOp::create(b, loc, runningMax, newMax));
  Value probability = exp2(arith::SubFOp::create(b, loc, score, newMax));
  SmallVector<Value> next = {newMax, fma(runningSum, rescale, probability)};
  SmallVector<Value> valueColumns =
      loadRow(args.v, keyRowBase(args, at, args.vStride, key), at.lane, ovDepth,
              inputType);
  for (int t = 0; t < ovPerLane; ++t)
    next.push_back(fma(probability, valueColumns[t],
                       fmul(loop.getRegionIterArgs()[2 + t], rescale)));
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
  SmallVector<Value> columns;
  for (int t = 0; t < ovPerLane; ++t)
    columns.push_back(
        arith::MulFOp::create(b, loc, loop.getResult(2 + t), inverseSum));
  storeRow(columns, args.o, queryRowBase(at, args.oStride), at.lane, ovDepth,
           inputType);
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
  SmallVector<Value> queryColumns = loadQueryRow(args, at);
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

/// The chip the kernels are for: the first planned op's, else the pass's
/// option.
static FailureOr<std::string>
kernelChip(ModuleOp module, ArrayRef<Operation *> ops, StringRef option) {
  std::string chipName = option.str();
  for (Operation *op : ops)
    if (auto planned = dyn_cast<attn::PlannedAttentionOpInterface>(op))
      if (attn::ConfigAttr config = planned.getConfigAttr()) {
        chipName = fa4::chipName(config.getChip()).str();
        break;
      }
  if (chipName != "sm_90a" && chipName != "sm_100a")
    return module.emitError()
           << "unknown chip '" << chipName << "'; expected sm_100a or sm_90a";
  return chipName;
}

/// Lowers one forward op to the reference kernel.
static void lowerForward(ModuleOp module, Operation *op, StringRef chipName) {
  OpBuilder b(op->getContext());
  ReferenceProblem problem = ReferenceProblem::of(op);
  auto [kernels, name] = createKernelModule(module, op, "fa4_ref", chipName);
  Location loc = op->getLoc();
  KernelABI abi;
  abi.params = KernelBuilder::abiParams(problem);
  gpu::GPUFuncOp func = createReferenceFunc(b, loc, kernels, name, abi.params);
  KernelBuilder(b, loc, problem).build(func);

  abi.grid = {{GridFactor::ceilDivOf(problem.rowsSymbol(), kWarpsPerBlock)},
              {"hq"},
              {"b"}};
  abi.block[0] = kWarpSize * kWarpsPerBlock;
  abi.alignment = referenceAlignment(
      abi.params, {"q", "k", "v", "o", "k_cache", "v_cache"});
  setKernelABI(op, kernels, name, abi);
}

void ConvertAttnToReferenceKernelPass::runOnOperation() {
  ModuleOp module = getOperation();
  dropServingDecodeVariants(module);
  SmallVector<Operation *> ops;
  // An op with a kernel already (fa4.abi: convert-attn-to-fa4 lowered it,
  // leaving the rest to this pass under reference-fallback) keeps it.
  module.walk([&](Operation *op) {
    if (isa<attn::AttentionOp, attn::VarlenAttentionOp, attn::PagedAttentionOp,
            attn::AttentionBackwardOp>(op) &&
        !op->hasAttr(kernel::FA4Dialect::kKernelABIAttrName))
      ops.push_back(op);
  });
  if (ops.empty())
    return;
  for (Operation *op : ops)
    if (auto planned = dyn_cast<attn::PlannedAttentionOpInterface>(op))
      if (failed(refuseUnlowered(planned, "the reference kernel")))
        return signalPassFailure();
  FailureOr<std::string> chipName = kernelChip(module, ops, chip);
  if (failed(chipName))
    return signalPassFailure();
  for (Operation *op : ops) {
    if (auto backward = dyn_cast<attn::AttentionBackwardOp>(op))
      lowerBackwardToReference(module, backward, *chipName);
    else
      lowerForward(module, op, *chipName);
  }
}
