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

/// The four BSHD tensors and LSE, in ABI order.
constexpr StringLiteral kBshdTensors[] = {"q", "k", "v", "o"};

/// Emits the kernel body. Values are f32 unless named otherwise.
class KernelBuilder : KernelEmitter {
public:
  KernelBuilder(OpBuilder &builder, Location loc, attn::AttentionOp op)
      : KernelEmitter(builder, loc), op(op),
        inputType(op.getQueryType().getElementType()), qkDepth(op.getQKDepth()),
        ovDepth(op.getOVDepth()),
        qkPerLane(llvm::divideCeil(qkDepth, kWarpSize)),
        ovPerLane(llvm::divideCeil(ovDepth, kWarpSize)) {}

  /// The ABI: the parameters in order, as the manifest lists them.
  static SmallVector<KernelParam> abiParams(bool hasLse) {
    using P = KernelParam;
    SmallVector<P> params;
    for (StringRef tensor : kBshdTensors)
      params.push_back(P::pointer(tensor));
    if (hasLse)
      params.push_back(P::pointer("lse"));
    for (StringRef size : {"b", "sq", "skv"})
      params.push_back(P::i32(size));
    for (StringRef tensor : kBshdTensors)
      for (int dim = 0; dim < 3; ++dim)
        params.push_back(P::i64((tensor + ".stride." + Twine(dim)).str()));
    if (hasLse)
      for (int dim = 0; dim < 2; ++dim)
        params.push_back(P::i64(("lse.stride." + Twine(dim)).str()));
    params.push_back(P::f32("scale_log2"));
    return params;
  }

  void build(gpu::GPUFuncOp func);

private:
  /// The kernel's parameters (params() order).
  struct Args {
    Value q, k, v, o, lse, seqQ, seqKV, scaleLog2;
    SmallVector<Value> qStride, kStride, vStride, oStride, lseStride;
  };
  /// This warp's query row and heads, this lane's place in the warp.
  struct RowPosition {
    Value lane, row, head, batch, kvHead;
  };
  Args readArgs(Block &entry);
  RowPosition rowPosition();
  Value rowBase(const RowPosition &at, ArrayRef<Value> stride, Value seq,
                Value head);
  SmallVector<Value> loadQueryRow(const Args &args, const RowPosition &at,
                                  Value zero);
  std::pair<Value, Value> visibleKeys(const Args &args, Value row);
  scf::ForOp scanKeys(const Args &args, const RowPosition &at,
                      ArrayRef<Value> queryColumns, Value zero);
  void storeOutput(const Args &args, const RowPosition &at, scf::ForOp loop,
                   Value zero);
  void storeLse(const Args &args, const RowPosition &at, Value finalMax,
                Value finalSum, Value seesKeys);
  Value toI64FromIndex(Value index) { return indexTo(b.getI64Type(), index); }

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

  attn::AttentionOp op;
  Type inputType;
  int64_t qkDepth, ovDepth;
  /// Columns of Q/K and of V/O each lane holds (lane + 32 t).
  int qkPerLane, ovPerLane;
};
} // namespace

KernelBuilder::Args KernelBuilder::readArgs(Block &entry) {
  bool hasLse = static_cast<bool>(op.getLse());
  Args args;
  unsigned arg = 0;
  args.q = entry.getArgument(arg++);
  args.k = entry.getArgument(arg++);
  args.v = entry.getArgument(arg++);
  args.o = entry.getArgument(arg++);
  args.lse = hasLse ? entry.getArgument(arg++) : Value();
  args.seqQ = sext(entry.getArgument(arg + 1));
  args.seqKV = sext(entry.getArgument(arg + 2));
  arg += 3;
  auto strides = [&](unsigned count) {
    SmallVector<Value> s(entry.getArguments().slice(arg, count));
    arg += count;
    return s;
  };
  args.qStride = strides(3);
  args.kStride = strides(3);
  args.vStride = strides(3);
  args.oStride = strides(3);
  args.lseStride = hasLse ? strides(2) : SmallVector<Value>();
  args.scaleLog2 = entry.getArgument(arg);
  return args;
}

/// A warp per (batch, query head, query row): blockIdx.x * kWarpsPerBlock +
/// warp is the row, blockIdx.y the head, blockIdx.z the batch.
KernelBuilder::RowPosition KernelBuilder::rowPosition() {
  int64_t group = op.getNumQueryHeads() / op.getNumKVHeads();
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
  return at;
}

/// Element offset of (the row's batch, seq, head) in a BSHD tensor of
/// `stride`.
Value KernelBuilder::rowBase(const RowPosition &at, ArrayRef<Value> stride,
                             Value seq, Value head) {
  Value base = arith::MulIOp::create(b, loc, at.batch, stride[0]);
  base = arith::AddIOp::create(b, loc, base,
                               arith::MulIOp::create(b, loc, seq, stride[1]));
  return arith::AddIOp::create(b, loc, base,
                               arith::MulIOp::create(b, loc, head, stride[2]));
}

/// This lane's columns of the query row, in f32 (0 past Dqk).
SmallVector<Value> KernelBuilder::loadQueryRow(const Args &args,
                                               const RowPosition &at,
                                               Value zero) {
  Value qBase = rowBase(at, args.qStride, at.row, at.head);
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

/// Keys this row sees (bottom-right aligned): [first, end), the diagonal at
/// row + Skv - Sq. An empty range (end <= first) runs no iteration: O = 0,
/// LSE = -inf.
std::pair<Value, Value> KernelBuilder::visibleKeys(const Args &args,
                                                   Value row) {
  Value diagonal = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, row, args.seqKV), args.seqQ);
  Value first = i64(0);
  Value last = arith::SubIOp::create(b, loc, args.seqKV, i64(1));
  attn::MaskAttr mask = op.getMask();
  if (mask.getKind() == attn::MaskKind::Causal)
    last = arith::MinSIOp::create(b, loc, last, diagonal);
  if (mask.getKind() == attn::MaskKind::Window) {
    if (mask.getRight() >= 0)
      last = arith::MinSIOp::create(
          b, loc, last,
          arith::AddIOp::create(b, loc, diagonal, i64(mask.getRight())));
    if (mask.getLeft() >= 0)
      first = arith::MaxSIOp::create(
          b, loc, first,
          arith::SubIOp::create(b, loc, diagonal, i64(mask.getLeft())));
  }
  Value end = arith::AddIOp::create(b, loc, last, i64(1));
  end = arith::MaxSIOp::create(b, loc, end, first);
  return {first, end};
}

/// The online softmax over the visible keys, one key an iteration: carries
/// the running max, the running sum and this lane's O columns.
scf::ForOp KernelBuilder::scanKeys(const Args &args, const RowPosition &at,
                                   ArrayRef<Value> queryColumns, Value zero) {
  auto [first, end] = visibleKeys(args, at.row);
  SmallVector<Value> init = {f32(-INFINITY), zero};
  init.append(ovPerLane, zero);
  auto loop =
      scf::ForOp::create(b, loc, toIndex(first), toIndex(end),
                         arith::ConstantIndexOp::create(b, loc, 1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value key = toI64FromIndex(loop.getInductionVar());
  Value runningMax = loop.getRegionIterArgs()[0];
  Value runningSum = loop.getRegionIterArgs()[1];
  Value kBase = rowBase(at, args.kStride, key, at.kvHead);
  Value partial = zero;
  for (int t = 0; t < qkPerLane; ++t) {
    Value keyValue = arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        load(args.k, columnIndex(kBase, at.lane, t, qkDepth), inputType));
    partial = fma(queryColumns[t], keyValue, partial);
  }
  Value score = arith::MulFOp::create(b, loc, warpSum(partial), args.scaleLog2);
  Value newMax = arith::MaximumFOp::create(b, loc, runningMax, score);
  Value rescale = exp2(arith::SubFOp::create(b, loc, runningMax, newMax));
  Value probability = exp2(arith::SubFOp::create(b, loc, score, newMax));
  SmallVector<Value> next = {newMax, fma(runningSum, rescale, probability)};
  Value vBase = rowBase(at, args.vStride, key, at.kvHead);
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
  Value oBase = rowBase(at, args.oStride, at.row, at.head);
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

/// LSE in natural log: (max + log2(sum)) / log2(e), -inf without keys.
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
  Value index = arith::MulIOp::create(b, loc, at.batch, args.lseStride[0]);
  index = arith::AddIOp::create(
      b, loc, index, arith::MulIOp::create(b, loc, at.head, args.lseStride[1]));
  index = arith::AddIOp::create(b, loc, index, at.row);
  store(value, args.lse, index);
}

void KernelBuilder::build(gpu::GPUFuncOp func) {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Args args = readArgs(entry);
  RowPosition at = rowPosition();

  // Warps past the last query row have nothing to do (no barrier follows).
  Value rowInRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           at.row, args.seqQ);
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

void ConvertAttnToReferenceKernelPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (failed(attn::refuseServingForms(module, getArgument())))
    return signalPassFailure();
  SmallVector<attn::AttentionOp> ops;
  // An op with a kernel already (fa4.abi: convert-attn-to-fa4 lowered it,
  // leaving the rest to this pass under reference-fallback) keeps it.
  module.walk([&](attn::AttentionOp op) {
    if (!op->hasAttr(kernel::FA4Dialect::kKernelABIAttrName))
      ops.push_back(op);
  });
  if (ops.empty())
    return;

  std::string chipName = chip;
  if (attn::ConfigAttr config = ops.front().getConfigAttr())
    chipName = fa4::chipName(config.getChip()).str();
  if (chipName != "sm_90a" && chipName != "sm_100a") {
    module.emitError() << "unknown chip '" << chipName
                       << "'; expected sm_100a or sm_90a";
    return signalPassFailure();
  }

  MLIRContext *context = &getContext();
  OpBuilder b(context);
  for (attn::AttentionOp op : ops) {
    auto [kernels, name] = createKernelModule(module, op, "fa4_ref", chipName);
    Location loc = op.getLoc();
    KernelABI abi;
    abi.params = KernelBuilder::abiParams(static_cast<bool>(op.getLse()));
    SmallVector<Type> argTypes;
    auto globalPtr = LLVM::LLVMPointerType::get(context, /*addressSpace=*/1);
    for (const KernelParam &param : abi.params)
      argTypes.push_back(param.kind == KernelParam::Kind::Pointer ? globalPtr
                         : param.kind == KernelParam::Kind::I32 ? b.getI32Type()
                         : param.kind == KernelParam::Kind::I64
                             ? b.getI64Type()
                             : Type(b.getF32Type()));
    b.setInsertionPointToEnd(kernels.getBody());
    auto func =
        gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func.setKnownBlockSizeAttr(
        b.getDenseI32ArrayAttr({kWarpSize * kWarpsPerBlock, 1, 1}));
    KernelBuilder(b, loc, op).build(func);

    abi.grid = {{GridFactor::ceilDivOf("sq", kWarpsPerBlock)}, {"hq"}, {"b"}};
    abi.block[0] = kWarpSize * kWarpsPerBlock;
    // Scalar loads only: element alignment (4 for the f32 LSE).
    for (StringRef tensor : kBshdTensors)
      abi.alignment.push_back({tensor.str(), {2, 2}});
    if (op.getLse())
      abi.alignment.push_back({"lse", {4, 4}});
    setKernelABI(op, kernels, name, abi);
  }
}
