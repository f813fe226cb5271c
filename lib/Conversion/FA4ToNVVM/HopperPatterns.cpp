//===- HopperPatterns.cpp - convert-fa4-to-nvvm for sm_90a (wgmma) --------===//
//
// On sm_90a a warpgroup's 64 x N f32 frag is the accumulator of
// `wgmma.mma_async.m64nNk16`: thread t of the warpgroup holds N / 2 floats,
// register 4j + e at row 16 * (t / 32) + (t % 32) / 4 + 8 * (e / 2) and
// column 8j + 2 * (t % 4) + e % 2 (PTX ISA, "Matrix fragments for
// wgmma.mma_async", m64nNk16 D). A 16-bit frag packs consecutive register
// pairs into N / 4 i32: for a k16 step these are exactly the four A
// registers of wgmma's register-A form, FlashAttention-3's observation that
// P needs no shuffle between the two GEMMs. A rows value is the two rows a
// thread owns.
//
// Shared-memory operands use the 128-byte swizzle TMA writes; wgmma reads
// them through matrix descriptors (PTX ISA 9.7.15.5.1, "Matrix Descriptor
// Format"), encoded by fa4/Target/NVIDIA/Descriptors.h.
//
// MLIR 22's nvvm.wgmma.mma_async takes A only as a descriptor, so both wgmma
// forms are written as inline PTX; everything else is an upstream NVVM op.
//
//===----------------------------------------------------------------------===//

#include "LoweringEmitter.h"
#include "Patterns.h"
#include "fa4/Target/HardwareConstants.h"
#include "fa4/Target/NVIDIA/Descriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {
/// What the sm_90a patterns add: where this thread's registers sit in a
/// wgmma frag, and the wgmma descriptors and instruction.
class HopperEmitter : public LoweringEmitter {
public:
  using LoweringEmitter::LoweringEmitter;

  /// Row of register 0 (rows of registers 4j + 2, 4j + 3 are 8 below).
  Value fragmentRow() {
    Value thread = threadInGroup();
    return atKernelEntry([&]() -> Value {
      b.setInsertionPointAfterValue(thread);
      return add(mul(divu(thread, i32(32)), i32(16)),
                 divu(remu(thread, i32(32)), i32(4)));
    });
  }
  /// Column of register 0 within each 8-column chunk.
  Value fragmentColumn() {
    Value thread = threadInGroup();
    return atKernelEntry([&]() -> Value {
      b.setInsertionPointAfterValue(thread);
      return mul(remu(thread, i32(4)), i32(2));
    });
  }
  /// Shared-memory matrix descriptor: every field but the start address is
  /// a compile-time constant built by encodeWgmmaDescriptor; the start
  /// address (bits 0-13, address >> 4) is OR-ed into its zero field here.
  Value descriptor(Value address, int64_t leadingBytes, int64_t strideBytes) {
    Value start = arith::ExtUIOp::create(
        b, loc, b.getI64Type(),
        arith::AndIOp::create(b, loc,
                              arith::ShRUIOp::create(b, loc, address, i32(4)),
                              i32(0x3FFF)));
    uint64_t fixed = encodeWgmmaDescriptor(
        /*startAddress=*/0, static_cast<uint32_t>(leadingBytes),
        static_cast<uint32_t>(strideBytes), SmemSwizzle::B128);
    return arith::OrIOp::create(b, loc, start,
                                i64(static_cast<int64_t>(fixed)));
  }
  /// Descriptor of k16 step `step` of a 128B-swizzled tile. K-major: 8-row
  /// core matrices 1024 bytes apart (SBO), a step is 32 bytes within a
  /// 64-column box (LBO unused). MN-major: a step is 16 rows (K) down, LBO
  /// steps to the next 64-column box of N, SBO to the next 8 rows of K.
  Value stepDescriptor(Value tileAddress, SmemTileType tile, int64_t step) {
    int64_t boxBytes = tile.getRows() * kSwizzleBytes;
    if (tile.getMajor() == Major::K) {
      int64_t box = step / 4, within = (step % 4) * 32;
      return descriptor(add(tileAddress, i32(box * boxBytes + within)), 16,
                        8 * kSwizzleBytes);
    }
    return descriptor(add(tileAddress, i32(step * 16 * kSwizzleBytes)),
                      boxBytes, 8 * kSwizzleBytes);
  }

  /// D (64 x n, f32) += A x B, one k16 step. With `aRegisters` empty, A is
  /// the K-major descriptor `aDesc`; otherwise its four 32-bit A fragments.
  /// B comes from `bDesc`, transposed (MN-major) when `transposeB`.
  SmallVector<Value> wgmma(ArrayRef<Value> accumulator, int64_t n,
                           Type elementType, Value aDesc,
                           ArrayRef<Value> aRegisters, Value bDesc,
                           bool transposeB);
};

SmallVector<Value> HopperEmitter::wgmma(ArrayRef<Value> accumulator, int64_t n,
                                        Type elementType, Value aDesc,
                                        ArrayRef<Value> aRegisters, Value bDesc,
                                        bool transposeB) {
  std::string type = elementType.isBF16() ? "bf16" : "f16";
  int64_t numAcc = accumulator.size();
  std::string asmText;
  llvm::raw_string_ostream os(asmText);
  os << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32." << type << "."
     << type << " {";
  for (int64_t i = 0; i < numAcc; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, ";
  int64_t next = 2 * numAcc;
  SmallVector<Value> operands(accumulator);
  std::string constraints;
  for (int64_t i = 0; i < numAcc; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < numAcc; ++i)
    constraints += std::to_string(i) + ",";
  if (aRegisters.empty()) {
    os << "$" << next++ << ", ";
    operands.push_back(aDesc);
    constraints += "l,";
  } else {
    os << "{";
    for (size_t i = 0; i < aRegisters.size(); ++i)
      os << (i ? ", " : "") << "$" << next++;
    os << "}, ";
    operands.append(aRegisters.begin(), aRegisters.end());
    for (size_t i = 0; i < aRegisters.size(); ++i)
      constraints += "r,";
  }
  os << "$" << next++;
  operands.push_back(bDesc);
  constraints += "l";
  // scale-d = 1 (accumulate), scale-a = scale-b = 1, then the transposes:
  // A from registers takes no transpose flag.
  os << ", 1, 1, 1";
  if (aRegisters.empty())
    os << ", 0";
  os << ", " << (transposeB ? 1 : 0) << ";";

  SmallVector<Type> fields(numAcc, b.getF32Type());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  auto inlineAsm = LLVM::InlineAsmOp::create(
      b, loc, structType, operands, b.getStringAttr(asmText),
      b.getStringAttr(constraints), b.getUnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr(),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  SmallVector<Value> result;
  for (int64_t i = 0; i < numAcc; ++i)
    result.push_back(
        LLVM::ExtractValueOp::create(b, loc, inlineAsm.getResult(0), i));
  return result;
}

/// Registers per thread of a frag or rows value on sm_90a.
int64_t numRegisters(Type type) {
  if (auto rows = dyn_cast<RowsType>(type))
    return rows.getRows() / 32;
  auto frag = cast<FragType>(type);
  int64_t perThread = frag.getRows() * frag.getColumns() / kWarpgroupThreads;
  return frag.getElementType().isF32() ? perThread : perThread / 2;
}

struct MmaLowering : OpConversionPattern<MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t m = op.getM(), n = op.getN(),
            k = op.getKExtent().value_or(op.getK());
    if (m != 64 || n % 8 || n > 256)
      return op.emitOpError()
             << "on sm_90a is wgmma m64nNk16: needs M = 64 and N a multiple "
                "of 8 up to 256, got M = "
             << m << ", N = " << n;
    HopperEmitter e(rewriter, op);
    auto b = cast<SmemTileType>(op.getB().getType());
    Value bAddress = adaptor.getB().front();
    auto aTile = dyn_cast<SmemTileType>(op.getA().getType());
    SmallVector<Value> acc = flatten(adaptor.getAcc());
    // With A in registers, B's descriptors are computed before the fence:
    // a register written between two wgmmas of a group makes ptxas
    // serialise them (C7519). With both operands in shared memory they are
    // computed step by step, which keeps fewer 64-bit values live (computing
    // them all first spills at d = 96).
    SmallVector<Value> aRegisters, bDescs;
    if (!aTile) {
      aRegisters = flatten(adaptor.getA());
      for (int64_t step = 0; step < k / 16; ++step)
        bDescs.push_back(e.stepDescriptor(bAddress, b, step));
    }
    // The accumulator and A may reach these wgmmas through branch merges;
    // the fence orders those register writes before the MMAs read them.
    NVVM::WgmmaFenceAlignedOp::create(rewriter, op.getLoc());
    for (int64_t step = 0; step < k / 16; ++step) {
      if (aTile) {
        Value aDesc = e.stepDescriptor(adaptor.getA().front(), aTile, step);
        Value bDesc = e.stepDescriptor(bAddress, b, step);
        acc = e.wgmma(acc, n, b.getElementType(), aDesc, {}, bDesc,
                      b.getMajor() == Major::MN);
      } else {
        acc = e.wgmma(acc, n, b.getElementType(), Value(),
                      ArrayRef<Value>(aRegisters).slice(4 * step, 4),
                      bDescs[step], b.getMajor() == Major::MN);
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, op.getLoc());
    SmallVector<SmallVector<Value>> results = {acc};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

struct MmaWaitLowering : OpConversionPattern<MmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::WgmmaWaitGroupSyncOp>(op,
                                                            op.getPending());
    return success();
  }
};

/// fa4.mask (LoweringEmitter::maskTile) in the wgmma accumulator layout:
/// each thread holds two rows and, per 8-column chunk, two adjacent keys.
struct MaskLowering : OpConversionPattern<MaskOp> {
  MaskLowering(const TypeConverter &converter, MLIRContext *context,
               bool foldKeyBound)
      : OpConversionPattern(converter, context), foldKeyBound(foldKeyBound) {}
  /// convert-fa4-to-nvvm's fold-key-bound.
  bool foldKeyBound;

  LogicalResult
  matchAndRewrite(MaskOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    Value firstKey = adaptor.getFirstKey().front();
    Value firstRow = adaptor.getFirstRow().front();
    int64_t group = op.getGroup();
    // Query rows of the thread's two tile rows (r / group with fused GQA);
    // register 4j + e is column 8j + fragmentColumn + e % 2.
    Value rows[2], fragmentColumn;
    auto prepare = [&](Value) {
      Value tileRow0 = e.fragmentRow();
      rows[0] = e.add(firstRow, e.divu(tileRow0, e.i32(group)));
      rows[1] =
          e.add(firstRow, e.divu(e.add(tileRow0, e.i32(8)), e.i32(group)));
      fragmentColumn = e.fragmentColumn();
    };
    auto keyOf = [&](int64_t i) {
      return e.add(firstKey, e.add(fragmentColumn, e.i32(8 * (i / 4) + i % 2)));
    };
    auto diagonalOf = [&](int64_t i, Value shift) {
      return e.add(rows[rowHalf(i)], shift);
    };
    SmallVector<SmallVector<Value>> results = {e.maskTile(
        op, adaptor.getScores(), firstKey, firstRow, adaptor.getSeqQ().front(),
        adaptor.getSeqKV().front(), prepare, keyOf, diagonalOf, foldKeyBound)};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// Row maxima of the raw scores across the 4 lanes of a row, then the exp2
/// domain: scale > 0, so max(s) * scale = max(s * scale), and each
/// probability is one FMA and one MUFU op. The row sum stays per thread
/// until the epilogue.
struct SoftmaxLowering : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    std::optional<double> threshold;
    if (FloatAttr attr = op.getRescaleThresholdAttr())
      threshold = attr.getValueAsDouble();
    // A row's maximum finishes across the 4 lanes that share it.
    auto quadMax = [&](Value m) {
      m = e.fmax(m, e.shuffleXor(m, 1));
      return e.fmax(m, e.shuffleXor(m, 2));
    };
    LoweringEmitter::SoftmaxStep step = e.softmaxStep(
        adaptor.getScores(), adaptor.getMax(), adaptor.getSum(),
        adaptor.getScaleLog2().front(), threshold, op.getPolyExp2Period(),
        op.getReductionChains(), rowHalf, quadMax);
    SmallVector<SmallVector<Value>> results = {step.probs, step.max, step.sum,
                                               step.correction};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// Finishes the row sums across the 4 lanes of a row, normalises, and stores
/// O two adjacent columns at a time, and LSE from one lane per row.
/// A row's sum over its quad: each of the four threads sharing a row of a
/// wgmma fragment holds the sum of its own columns.
static Value quadSum(HopperEmitter &e, Value sum) {
  sum = e.fadd(sum, e.shuffleXor(sum, 1));
  return e.fadd(sum, e.shuffleXor(sum, 2));
}

/// The quad's first thread writes a row's LSE: each of the four holds it.
static Value quadWriter(HopperEmitter &e, Value rowInRange) {
  return arith::AndIOp::create(
      e.b, e.loc, rowInRange,
      e.cmp(arith::CmpIPredicate::eq, e.remu(e.lane(), e.i32(4)), e.i32(0)));
}

/// sm_90a's fa4.epilogue.stage: a wgmma fragment's two rows per thread,
/// each n8 block of a row one 16-byte chunk of the 128B-swizzled box row
/// (the quad's four threads write its 4-byte pairs). Chunk j of row r lands
/// at (j ^ (r % 8)) * 16: the eight rows of a warp's store hit eight
/// different chunks, all 32 banks.
struct EpilogueStageLowering : OpConversionPattern<EpilogueStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EpilogueStageOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto frag = cast<FragType>(op.getOut().getType());
    ValueRange out = adaptor.getOut(), rowSum = adaptor.getSum();
    constexpr int64_t kRowBytes = 128;
    Value zero = e.f32(0.0);
    Value quadByte = e.mul(e.remu(e.lane(), e.i32(4)), e.i32(4));
    Value tileStart = e.i32(op.getOffset());
    if (!adaptor.getBase().empty())
      tileStart = e.add(tileStart, adaptor.getBase().front());
    for (int half = 0; half < 2; ++half) {
      Value inverse = e.rowInverse(quadSum(e, rowSum[half]), zero).second;
      Value row = e.add(e.fragmentRow(), e.i32(8 * half));
      Value rowStart =
          e.add(e.add(tileStart, e.mul(row, e.i32(kRowBytes))), quadByte);
      Value swizzle = e.remu(row, e.i32(8));
      // One box (columns [64 box, 64 box + 64) at the offset) or all.
      int64_t firstChunk = 0, endChunk = frag.getColumns() / 8;
      if (std::optional<uint64_t> box = op.getBox()) {
        firstChunk = int64_t(*box) * 8;
        endChunk = firstChunk + 8;
      }
      for (int64_t j = firstChunk; j < endChunk; ++j) {
        Value pair = e.packPair(e.fmul(out[4 * j + 2 * half], inverse),
                                e.fmul(out[4 * j + 2 * half + 1], inverse),
                                op.getElementType());
        Value address = e.stagedChunkOffset(
            rowStart, swizzle, 8 * (j - firstChunk), frag.getRows());
        LLVM::StoreOp::create(b, loc, pair, e.smemPtr(address),
                              /*alignment=*/4);
      }
    }
    // The TMA store reads through the async proxy.
    e.fenceAsyncProxy();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The two rows a thread owns; a row's sum is spread over the quad of
/// threads that hold it, and the quad's first counts the sink.
struct SinkRowsLowering : OpConversionPattern<SinkRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SinkRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    Value sinks = adaptor.getSinks().front(), head = adaptor.getHead().front(),
          holds = adaptor.getHolds().front();
    Value quadFirst = e.cmp(arith::CmpIPredicate::eq,
                            e.remu(e.threadInGroup(), e.i32(4)), e.i32(0));
    Value counted = e.select(holds, e.select(quadFirst, e.f32(1.0), e.f32(0.0)),
                             e.f32(0.0));
    SmallVector<Value> max, sum;
    for (int half = 0; half < 2; ++half) {
      Value row = e.add(e.fragmentRow(), e.i32(8 * half));
      max.push_back(e.sinkMax(sinks, head, holds, row, op.getGroup()));
      sum.push_back(counted);
    }
    SmallVector<SmallVector<Value>> results = {max, sum};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

struct LseStoreLowering : OpConversionPattern<LseStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LseStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    SmallVector<Value> lseStride;
    for (ValueRange stride : adaptor.getLseStrides())
      lseStride.push_back(stride.front());
    for (int half = 0; half < 2; ++half) {
      Value row = e.add(adaptor.getFirstRow().front(),
                        e.add(e.fragmentRow(), e.i32(8 * half)));
      Value rowInRange =
          e.cmp(arith::CmpIPredicate::slt, row, adaptor.getSeqQ().front());
      Value sum = quadSum(e, adaptor.getSum()[half]);
      e.storeLse(
          adaptor.getMax()[half], sum, e.rowInverse(sum, e.f32(0.0)).first,
          adaptor.getLsePtr().front(), lseStride, adaptor.getBatch().front(),
          row, adaptor.getHead().front(), quadWriter(e, rowInRange));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct EpilogueLowering : OpConversionPattern<EpilogueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EpilogueOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    using P = arith::CmpIPredicate;
    ValueRange out = adaptor.getOut(), rowMax = adaptor.getMax(),
               rowSum = adaptor.getSum();
    Value outPtr = adaptor.getOutPtr().front();
    Value batch = adaptor.getBatch().front(), head = adaptor.getHead().front(),
          firstRow = adaptor.getFirstRow().front(),
          seqQ = adaptor.getSeqQ().front();
    auto [outStride, lsePtr, lseStride] = outputOperands(op, adaptor);
    Type elementType = op.getElementType();
    int64_t columns = cast<FragType>(op.getOut().getType()).getColumns();
    Value zero = e.f32(0.0);
    int64_t group = op.getGroup();
    int64_t tileRows = cast<FragType>(op.getOut().getType()).getRows();
    Value fragmentColumn = e.fragmentColumn();
    for (int half = 0; half < 2; ++half) {
      Value sum = quadSum(e, rowSum[half]);
      auto [seesKeys, inverse] = e.rowInverse(sum, zero);
      // Tile row -> (query row, head): r / group and head + r % group.
      Value tileRow = e.add(e.fragmentRow(), e.i32(8 * half));
      Value row = e.add(firstRow, e.divu(tileRow, e.i32(group)));
      Value rowHead = e.add(head, e.remu(tileRow, e.i32(group)));
      Value rowInRange = e.cmp(P::slt, row, seqQ);
      if (tileRows % group)
        rowInRange = arith::AndIOp::create(
            b, loc, rowInRange,
            e.cmp(P::slt, tileRow, e.i32(tileRows / group * group)));
      Value rowBase = e.add(e.mul(e.sext(batch), outStride[0]),
                            e.add(e.mul(e.sext(row), outStride[1]),
                                  e.mul(e.sext(rowHead), outStride[2])));
      for (int64_t j = 0; j < columns / 8; ++j) {
        Value column = e.add(fragmentColumn, e.i32(8 * j));
        Value inBounds = arith::AndIOp::create(
            b, loc, rowInRange, e.cmp(P::slt, column, e.i32(op.getDepth())));
        auto ifStore = scf::IfOp::create(b, loc, inBounds, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifStore.thenBlock());
        auto [pair, alignment] = e.outputPair(
            e.fmul(out[4 * j + 2 * half], inverse),
            e.fmul(out[4 * j + 2 * half + 1], inverse), elementType);
        Value address =
            LLVM::GEPOp::create(b, loc, outPtr.getType(), elementType, outPtr,
                                ValueRange{e.add(rowBase, e.sext(column))});
        LLVM::StoreOp::create(b, loc, pair, address, alignment);
      }
      if (lsePtr)
        e.storeLse(rowMax[half], sum, seesKeys, lsePtr, lseStride, batch, row,
                   rowHead, quadWriter(e, rowInRange));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct SplitKStageLowering : OpConversionPattern<SplitKStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitKStageOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    HopperEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto type = cast<FragType>(op.getOut().getType());
    StagingLayout layout{static_cast<int64_t>(op.getOffset()), type.getRows(),
                         type.getColumns()};
    ValueRange out = adaptor.getOut(), rowMax = adaptor.getMax(),
               rowSum = adaptor.getSum();
    Value fragmentRow = e.fragmentRow(), fragmentColumn = e.fragmentColumn();
    auto store = [&](Value value, Value byteOffset, int64_t alignment) {
      LLVM::StoreOp::create(b, loc, value, e.smemPtr(byteOffset), alignment);
    };
    for (size_t i = 0; i + 1 < out.size(); i += 2) {
      // Registers 4j + e: row + 8 * (e / 2), column 8j + 2 * (t % 4) + e % 2.
      Value row = e.add(fragmentRow, e.i32(8 * rowHalf(i)));
      Value column = e.add(fragmentColumn, e.i32(8 * (i / 4)));
      Value pair = e.pairOf(out[i], out[i + 1]);
      Value index = e.add(e.mul(row, e.i32(layout.columns)), column);
      store(pair, e.add(e.i32(layout.offset), e.mul(index, e.i32(4))), 8);
    }
    // The row sums finish across the row's 4 lanes; one lane writes.
    SmallVector<Value> sums;
    for (int half = 0; half < 2; ++half) {
      Value sum = rowSum[half];
      sum = e.fadd(sum, e.shuffleXor(sum, 1));
      sums.push_back(e.fadd(sum, e.shuffleXor(sum, 2)));
    }
    Value writer =
        e.cmp(arith::CmpIPredicate::eq, e.remu(e.lane(), e.i32(4)), e.i32(0));
    auto ifWriter = scf::IfOp::create(b, loc, writer, false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifWriter.thenBlock());
      for (int half = 0; half < 2; ++half) {
        Value rowBytes = e.mul(e.add(fragmentRow, e.i32(8 * half)), e.i32(4));
        store(rowMax[half], e.add(e.i32(layout.maxOffset()), rowBytes), 4);
        store(sums[half], e.add(e.i32(layout.sumOffset()), rowBytes), 4);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void fa4::populateHopperTypeConversions(TypeConverter &converter) {
  converter.addConversion(
      [](FragType type,
         SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        if (type.getRows() != 64)
          return failure();
        Builder b(type.getContext());
        Type element = type.getElementType().isF32() ? Type(b.getF32Type())
                                                     : Type(b.getI32Type());
        results.append(numRegisters(type), element);
        return success();
      });
  converter.addConversion(
      [](RowsType type,
         SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        if (type.getRows() != 64)
          return failure();
        results.append(numRegisters(type), Float32Type::get(type.getContext()));
        return success();
      });
}

void fa4::populateHopperPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 bool foldKeyBound) {
  MLIRContext *context = patterns.getContext();
  patterns.add<MmaLowering, MmaWaitLowering, SoftmaxLowering, EpilogueLowering,
               EpilogueStageLowering, LseStoreLowering, SinkRowsLowering,
               SplitKStageLowering>(converter, context);
  patterns.add<MaskLowering>(converter, context, foldKeyBound);
}
