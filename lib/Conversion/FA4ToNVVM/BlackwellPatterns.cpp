//===- BlackwellPatterns.cpp - convert-fa4-to-nvvm for sm_100a (tcgen05)
//---===//
//
// On sm_100a a 128 x N frag is one row per thread of a warpgroup (thread r
// holds row r: N f32, or N / 2 packed i32 for 16-bit), the layout
// tcgen05.ld/st's 32x32b shape moves between registers and tensor memory:
// warp w of the warpgroup reaches TMEM lanes 32w..32w+31 (PTX ISA, "Tensor
// Memory" access restrictions), so a warp's address carries lane 32w. A rows
// value is the thread's own row. Tile MMAs are tcgen05.mma kind::f16 with
// cta_group::1 (M = 128), issued by one thread, with shared-memory
// descriptors and the instruction descriptor from
// fa4/Target/NVIDIA/Descriptors.h, and D (and P as A) in TMEM.
//
//===----------------------------------------------------------------------===//

#include "LoweringEmitter.h"
#include "Patterns.h"

#include "fa4/Target/HardwareConstants.h"
#include "fa4/Target/NVIDIA/Descriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {
/// Columns one tcgen05.ld/st moves per thread: 16 keeps the live registers
/// of a correction or epilogue pass small (32 spilled in the 72-register
/// roles).
constexpr int64_t kChunkColumns = 16;

class BlackwellEmitter : public LoweringEmitter {
public:
  using LoweringEmitter::LoweringEmitter;

  Type tmemPtrType() { return LLVM::LLVMPointerType::get(b.getContext(), 6); }
  /// This warp's lanes of `tile` plus `column` 32-bit columns: TMEM
  /// addresses are lane << 16 | column.
  Value warpAddress(Value tile, int64_t column) {
    Value base = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), tile);
    Value laneBase = arith::ShLIOp::create(
        b, loc, mul(divu(threadInGroup(), i32(32)), i32(32)), i32(16));
    return LLVM::IntToPtrOp::create(b, loc, tmemPtrType(),
                                    add(base, add(laneBase, i32(column))));
  }
  /// `count` 32-bit columns of this thread's row, from `column`.
  SmallVector<Value> loadColumns(Value tile, int64_t column, int64_t count) {
    auto type = VectorType::get({count}, b.getI32Type());
    Value vector = NVVM::Tcgen05LdOp::create(
        b, loc, type, /*pack=*/nullptr,
        NVVM::Tcgen05LdStShapeAttr::get(b.getContext(),
                                        NVVM::Tcgen05LdStShape::SHAPE_32X32B),
        warpAddress(tile, column), Value());
    SmallVector<Value> words;
    for (int64_t i = 0; i < count; ++i)
      words.push_back(LLVM::ExtractElementOp::create(b, loc, vector, i32(i)));
    return words;
  }
  void storeColumns(Value tile, int64_t column, ArrayRef<Value> words) {
    auto type = VectorType::get({int64_t(words.size())}, b.getI32Type());
    Value vector = LLVM::UndefOp::create(b, loc, type);
    for (auto [i, word] : llvm::enumerate(words))
      vector =
          LLVM::InsertElementOp::create(b, loc, vector, word, i32(int64_t(i)));
    NVVM::Tcgen05StOp::create(
        b, loc, /*unpack=*/nullptr,
        NVVM::Tcgen05LdStShapeAttr::get(b.getContext(),
                                        NVVM::Tcgen05LdStShape::SHAPE_32X32B),
        warpAddress(tile, column), vector, Value());
  }
  void waitLoads() {
    NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::LOAD);
  }
  void waitStores() {
    NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::STORE);
  }
  void fence(bool after) {
    NVVM::Tcgen05FenceOp::create(
        b, loc,
        after ? NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC
              : NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  }
  Value asF32(Value word) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), word);
  }
  Value asI32(Value value) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), value);
  }

  /// tcgen05 shared-memory descriptor of a 128B-swizzled tile at
  /// `tileAddress` (PTX ISA "Shared Memory Descriptor"): K-major, SBO is 8
  /// rows of 128 bytes; MN-major, LBO is the next 64-column box of N. Only
  /// the low word (start address >> 4 and LBO) depends on the address; the
  /// high word is a constant.
  struct SmemDescriptor {
    Value low;
    uint32_t high;
  };
  SmemDescriptor tileDescriptor(Value tileAddress, SmemTileType tile) {
    int64_t rowBytes =
        boxRowBytes(tile.getElementType().getIntOrFloatBitWidth());
    int64_t leading =
        tile.getMajor() == Major::K ? 16 : tile.getRows() * rowBytes;
    uint64_t fixed = encodeTcgen05SmemDescriptor(
        /*startAddress=*/0, static_cast<uint32_t>(leading), 8 * rowBytes,
        *smemSwizzleFromBytes(rowBytes));
    Value start = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, tileAddress, i32(4)),
        i32(0x3FFF));
    Value low = arith::OrIOp::create(
        b, loc, start, i32(static_cast<int32_t>(fixed & 0xFFFFFFFF)));
    return {low, static_cast<uint32_t>(fixed >> 32)};
  }
  /// The descriptor of MMA step `step` (32 bytes of K: 16 16-bit or 32
  /// 8-bit elements) of the tile at `base`: K-major, a step is 32 bytes
  /// within a box's row (128 bytes of 16-bit elements, 64 of 8-bit), boxes
  /// are rows * row bytes apart; MN-major, a step is 16 (8-bit: 32) rows.
  /// The start address field holds
  /// address >> 4 and shared memory is below 2^18 bytes, so adding
  /// offset >> 4 to the low word moves it without a carry: one 32-bit add
  /// per step, and the warp-uniform low words stay in uniform registers
  /// (FA4's kernel advances its descriptors so).
  Value stepDescriptor(SmemDescriptor base, SmemTileType tile, int64_t step) {
    int64_t bits = tile.getElementType().getIntOrFloatBitWidth();
    int64_t kPerStep = 256 / bits, rowBytes = boxRowBytes(bits);
    int64_t stepsPerRow = rowBytes / 32;
    int64_t offset = tile.getMajor() == Major::K
                         ? (step / stepsPerRow) * tile.getRows() * rowBytes +
                               (step % stepsPerRow) * 32
                         : step * kPerStep * rowBytes;
    Value low = offset == 0 ? base.low : add(base.low, i32(offset >> 4));
    return arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), low),
        i64(static_cast<int64_t>(static_cast<uint64_t>(base.high) << 32)));
  }
};

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

/// cta_group::2 for `pair` ops, else cta_group::1.
static NVVM::CTAGroupKind ctaGroup(bool pair) {
  return pair ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1;
}

/// `body` under `if (issuer)`, or unguarded where the op has no issuer.
static void asIssuer(OpBuilder &b, Location loc, Value issuer,
                     function_ref<void()> body) {
  if (!issuer)
    return body();
  auto branch = scf::IfOp::create(b, loc, issuer, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(branch.thenBlock());
  body();
}

struct TmemAllocLowering : OpConversionPattern<TmemAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    NVVM::CTAGroupKind group = ctaGroup(op.getPair());
    NVVM::Tcgen05AllocOp::create(rewriter, op.getLoc(),
                                 e.smemPtr(e.i32(op.getOffset())),
                                 e.i32(op.getColumns()), group);
    rewriter.replaceOpWithNewOp<NVVM::Tcgen05RelinquishAllocPermitOp>(op,
                                                                      group);
    return success();
  }
};

/// The allocation's base address, read back from shared memory.
static Value tmemBase(BlackwellEmitter &e, OpBuilder &b, Location loc,
                      int64_t offset) {
  return LLVM::LoadOp::create(b, loc, b.getI32Type(), e.smemPtr(e.i32(offset)),
                              /*alignment=*/4);
}

struct TmemDeallocLowering : OpConversionPattern<TmemDeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemDeallocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value base = tmemBase(e, rewriter, op.getLoc(), op.getOffset());
    rewriter.replaceOpWithNewOp<NVVM::Tcgen05DeallocOp>(
        op,
        LLVM::IntToPtrOp::create(rewriter, op.getLoc(), e.tmemPtrType(), base),
        e.i32(op.getColumns()), ctaGroup(op.getPair()));
    return success();
  }
};

struct TmemTileLowering : OpConversionPattern<TmemTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemTileOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value base = tmemBase(e, rewriter, op.getLoc(), op.getOffset());
    rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(
        op, e.tmemPtrType(), e.add(base, e.i32(op.getColumn())));
    return success();
  }
};

struct TmemMmaLowering : OpConversionPattern<TmemMmaOp> {
  using OpConversionPattern::OpConversionPattern;

  /// The instruction descriptor: kind::f16 of the 16-bit type, or
  /// kind::f8f6f4 of two 8-bit ones (cta_group::1).
  static FailureOr<uint32_t> instructionDescriptor(TmemMmaOp op, Type aType,
                                                   SmemTileType bTile) {
    auto d = cast<TmemTileType>(op.getD().getType());
    std::string whyNot;
    llvm::raw_string_ostream os(whyNot);
    FailureOr<uint32_t> idesc;
    if (aType.getIntOrFloatBitWidth() == 8) {
      auto f8Type = [](Type type) {
        return isa<Float8E5M2Type>(type) ? MmaF8InputType::E5M2
                                         : MmaF8InputType::E4M3;
      };
      Tcgen05F8Mma mma;
      mma.aType = f8Type(aType);
      mma.bType = f8Type(bTile.getElementType());
      mma.m = static_cast<unsigned>(d.getRows());
      mma.n = static_cast<unsigned>(d.getColumns());
      mma.transposeB = bTile.getMajor() == Major::MN;
      idesc = tryEncodeTcgen05F8InstrDescriptor(mma, os);
    } else {
      Tcgen05F16Mma mma;
      mma.aType = mma.bType = bTile.getElementType().isBF16()
                                  ? MmaF16InputType::BF16
                                  : MmaF16InputType::F16;
      // Under `pair`, M spans both CTAs' 128 rows.
      mma.ctaGroup = op.getPair() ? 2 : 1;
      mma.m = static_cast<unsigned>(d.getRows() * mma.ctaGroup);
      mma.n = static_cast<unsigned>(d.getColumns());
      mma.transposeB = bTile.getMajor() == Major::MN;
      idesc = tryEncodeTcgen05F16InstrDescriptor(mma, os);
    }
    if (failed(idesc))
      return op.emitOpError() << "has no tcgen05 encoding: " << whyNot;
    return idesc;
  }

  LogicalResult
  matchAndRewrite(TmemMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Location loc = op.getLoc();
    auto d = cast<TmemTileType>(op.getD().getType());
    auto bTile = cast<SmemTileType>(op.getB().getType());
    auto aTmem = dyn_cast<TmemTileType>(op.getA().getType());
    auto aSmem = dyn_cast<SmemTileType>(op.getA().getType());
    int64_t k = aTmem ? aTmem.getColumns() : aSmem.getColumns();
    Type aType = aTmem ? aTmem.getElementType() : aSmem.getElementType();
    bool f8 = aType.getIntOrFloatBitWidth() == 8;
    FailureOr<uint32_t> idesc = instructionDescriptor(op, aType, bTile);
    if (failed(idesc))
      return failure();
    Value instr = e.i32(static_cast<int64_t>(*idesc));
    auto kind = NVVM::Tcgen05MMAKindAttr::get(op.getContext(),
                                              f8 ? NVVM::Tcgen05MMAKind::F8F6F4
                                                 : NVVM::Tcgen05MMAKind::F16);
    // One MMA takes 32 bytes of K.
    int64_t kPerStep = 256 / aType.getIntOrFloatBitWidth();
    auto group =
        NVVM::CTAGroupKindAttr::get(op.getContext(), ctaGroup(op.getPair()));
    Value accumulate = adaptor.getAccumulate();
    std::optional<BlackwellEmitter::SmemDescriptor> aBase;
    if (aSmem)
      aBase = e.tileDescriptor(adaptor.getA(), aSmem);
    BlackwellEmitter::SmemDescriptor bBase =
        e.tileDescriptor(adaptor.getB(), bTile);
    // The tile descriptors by every lane of an `issued_by` warp, the steps
    // and the MMAs by the issuer alone: ptxas then moves each tile's low
    // word into a uniform register once and advances it there
    // (UIADD3), where steps computed by the warp were each kept in vector
    // registers and moved over one by one (R2UR).
    asIssuer(rewriter, loc, adaptor.getIssuer(), [&] {
      for (int64_t step = 0; step < k / kPerStep; ++step) {
        Value a;
        if (aTmem) {
          // 16 16-bit (32 8-bit) elements of P are 8 TMEM columns.
          Value base = LLVM::PtrToIntOp::create(
              rewriter, loc, rewriter.getI32Type(), adaptor.getA());
          a = LLVM::IntToPtrOp::create(rewriter, loc, e.tmemPtrType(),
                                       e.add(base, e.i32(8 * step)));
        } else {
          a = e.stepDescriptor(*aBase, aSmem, step);
        }
        // The first step overwrites D unless the op accumulates.
        Value enable =
            step == 0
                ? accumulate
                : arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult();
        NVVM::Tcgen05MMAOp::create(
            rewriter, loc, kind, group, NVVM::Tcgen05MMACollectorOpAttr(),
            UnitAttr(), adaptor.getD(), a, e.stepDescriptor(bBase, bTile, step),
            instr, enable, Value(), Value());
      }
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmemCommitLowering : OpConversionPattern<TmemCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Both CTAs of the pair (the whole cluster): ranks 0 and 1.
    Value bothCtas =
        op.getPair()
            ? LLVM::ConstantOp::create(rewriter, loc, rewriter.getI16Type(),
                                       rewriter.getI16IntegerAttr(0b11))
                  .getResult()
            : Value();
    asIssuer(rewriter, loc, adaptor.getIssuer(), [&] {
      NVVM::Tcgen05CommitOp::create(rewriter, loc, adaptor.getBarrier(),
                                    bothCtas, ctaGroup(op.getPair()));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmemFenceLowering : OpConversionPattern<TmemFenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemFenceOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    e.fence(op.getAfter());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tcgen05.fence::after_thread_sync, the row in 16-column chunks, then one
/// tcgen05.wait::ld before any register is used.
struct TmemLoadLowering : OpConversionPattern<TmemLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    auto tile = cast<TmemTileType>(op.getTile().getType());
    Value address = adaptor.getTile().front();
    e.fence(/*after=*/true);
    SmallVector<Value> words;
    for (int64_t column = 0; column < tile.getTmemColumns();
         column += kChunkColumns)
      words.append(e.loadColumns(
          address, column,
          std::min(kChunkColumns, tile.getTmemColumns() - column)));
    e.waitLoads();
    if (tile.getElementType().isF32())
      for (Value &word : words)
        word = e.asF32(word);
    SmallVector<SmallVector<Value>> results = {words};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// The row in 16-column chunks, tcgen05.wait::st, then
/// tcgen05.fence::before_thread_sync so the next mbarrier arrival publishes
/// it to the MMA thread.
struct TmemStoreLowering : OpConversionPattern<TmemStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    auto tile = cast<TmemTileType>(op.getTile().getType());
    Value address = adaptor.getTile().front();
    SmallVector<Value> words = flatten(adaptor.getValue());
    if (tile.getElementType().isF32())
      for (Value &word : words)
        word = e.asI32(word);
    for (int64_t column = 0; column < tile.getTmemColumns();
         column += kChunkColumns) {
      int64_t count = std::min(kChunkColumns, tile.getTmemColumns() - column);
      e.storeColumns(address, column,
                     ArrayRef<Value>(words).slice(column, count));
    }
    e.waitStores();
    e.fence(/*after=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The lazy rescale's payoff: a warp whose 32 rows all keep factor 1 skips
/// the load-multiply-store of its O rows.
struct TmemScaleRowsLowering : OpConversionPattern<TmemScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmemScaleRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto tile = cast<TmemTileType>(op.getTile().getType());
    Value address = adaptor.getTile().front();
    Value factor = adaptor.getFactors().front();
    Value needs = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                        factor, e.f32(1.0));
    Value anyInWarp = NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), e.i32(-1),
                                               needs, NVVM::VoteSyncKind::any);
    auto ifScale = scf::IfOp::create(b, loc, anyInWarp, false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifScale.thenBlock());
      e.fence(/*after=*/true);
      for (int64_t column = 0; column < tile.getColumns();
           column += kChunkColumns) {
        int64_t count = std::min(kChunkColumns, tile.getColumns() - column);
        SmallVector<Value> words = e.loadColumns(address, column, count);
        e.waitLoads();
        for (Value &word : words)
          word = e.asI32(e.fmul(e.asF32(word), factor));
        e.storeColumns(address, column, words);
      }
      e.waitStores();
      e.fence(/*after=*/false);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Row-per-thread frags
//===----------------------------------------------------------------------===//

/// Element c of the thread's row is key first_key + c of query row
/// first_row + thread / group.
struct MaskLowering : OpConversionPattern<MaskOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaskOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value firstKey = adaptor.getFirstKey().front();
    Value firstRow = adaptor.getFirstRow().front();
    // The thread's one row, and its diagonal, serve every register.
    Value diagonal;
    auto prepare = [&](Value shift) {
      Value row =
          e.add(firstRow, e.divu(e.threadInGroup(), e.i32(op.getGroup())));
      diagonal = e.add(row, shift);
    };
    auto keyOf = [&](int64_t i) { return e.add(firstKey, e.i32(i)); };
    auto diagonalOf = [&](int64_t, Value) { return diagonal; };
    SmallVector<SmallVector<Value>> results = {e.maskTile(
        op, adaptor.getScores(), firstKey, firstRow, adaptor.getSeqQ().front(),
        adaptor.getSeqKV().front(), prepare, keyOf, diagonalOf,
        /*foldKeyBound=*/false, /*rowPerThread=*/true)};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// The whole row is the thread's: its maximum needs no shuffle.
struct SoftmaxLowering : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    std::optional<double> threshold;
    if (FloatAttr attr = op.getRescaleThresholdAttr())
      threshold = attr.getValueAsDouble();
    LoweringEmitter::SoftmaxStep step = e.softmaxStep(
        adaptor.getScores(), adaptor.getMax(), adaptor.getSum(),
        adaptor.getScaleLog2().front(), threshold, op.getPolyExp2Period(),
        op.getReductionChains(), [](int64_t) { return 0; },
        [](Value m) { return m; }, op.getPackedPairs());
    SmallVector<SmallVector<Value>> results = {step.probs, step.max, step.sum,
                                               step.correction};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// Thread r owns row r, and its whole sum.
struct SinkRowsLowering : OpConversionPattern<SinkRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SinkRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value holds = adaptor.getHolds().front();
    Value max = e.sinkMax(adaptor.getSinks().front(), adaptor.getHead().front(),
                          holds, e.threadInGroup(), op.getGroup());
    SmallVector<SmallVector<Value>> results = {
        {max}, {e.select(holds, e.f32(1.0), e.f32(0.0))}};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// Row r of the shared-memory rows region is thread r's value.
struct RowsStoreLowering : OpConversionPattern<RowsStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RowsStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value bytes =
        e.add(e.i32(op.getOffset()), e.mul(e.threadInGroup(), e.i32(4)));
    LLVM::StoreOp::create(rewriter, op.getLoc(), adaptor.getValue().front(),
                          e.smemPtr(bytes), /*alignment=*/4);
    rewriter.eraseOp(op);
    return success();
  }
};

struct RowsLoadLowering : OpConversionPattern<RowsLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RowsLoadOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value bytes =
        e.add(e.i32(op.getOffset()), e.mul(e.threadInGroup(), e.i32(4)));
    Value value =
        LLVM::LoadOp::create(rewriter, op.getLoc(), rewriter.getF32Type(),
                             e.smemPtr(bytes), /*alignment=*/4);
    SmallVector<SmallVector<Value>> results = {{value}};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// The thread's row of O, from registers or from TMEM 16 columns at a time:
/// O / sum as 16-bit pairs for the first `depth` columns, and LSE.
struct EpilogueLowering : OpConversionPattern<EpilogueOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EpilogueOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    using P = arith::CmpIPredicate;
    int64_t group = op.getGroup(), depth = op.getDepth();
    auto tmem = dyn_cast<TmemTileType>(op.getOut().getType());
    int64_t rows =
        tmem ? tmem.getRows() : cast<FragType>(op.getOut().getType()).getRows();
    Value outPtr = adaptor.getOutPtr().front();
    Value batch = adaptor.getBatch().front(), head = adaptor.getHead().front(),
          firstRow = adaptor.getFirstRow().front(),
          seqQ = adaptor.getSeqQ().front();
    auto [outStride, lsePtr, lseStride] = outputOperands(op, adaptor);
    Type elementType = op.getElementType();
    Value sum = adaptor.getSum().front(), max = adaptor.getMax().front();
    auto [seesKeys, inverse] = e.rowInverse(sum, e.f32(0.0));
    Value tileRow = e.threadInGroup();
    Value row = e.add(firstRow, e.divu(tileRow, e.i32(group)));
    Value rowHead = e.add(head, e.remu(tileRow, e.i32(group)));
    Value inRange = e.cmp(P::slt, row, seqQ);
    if (rows % group)
      inRange = arith::AndIOp::create(
          b, loc, inRange, e.cmp(P::slt, tileRow, e.i32(rows / group * group)));
    Value rowBase = e.add(e.mul(e.sext(batch), outStride[0]),
                          e.add(e.mul(e.sext(row), outStride[1]),
                                e.mul(e.sext(rowHead), outStride[2])));
    // tcgen05.ld is warp-collective: every lane loads, only rows in range
    // store.
    if (tmem)
      e.fence(/*after=*/true);
    SmallVector<Value> registers =
        tmem ? SmallVector<Value>() : flatten(adaptor.getOut());
    for (int64_t chunk = 0; chunk < depth; chunk += kChunkColumns) {
      int64_t count = std::min(kChunkColumns, depth - chunk);
      SmallVector<Value> values;
      if (tmem) {
        for (Value word : e.loadColumns(adaptor.getOut().front(), chunk, count))
          values.push_back(word);
        e.waitLoads();
        for (Value &value : values)
          value = e.asF32(value);
      } else {
        values.assign(registers.begin() + chunk,
                      registers.begin() + chunk + count);
      }
      auto ifStore = scf::IfOp::create(b, loc, inRange, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifStore.thenBlock());
      for (int64_t i = 0; i + 1 < count; i += 2) {
        auto [pair, alignment] =
            e.outputPair(e.fmul(values[i], inverse),
                         e.fmul(values[i + 1], inverse), elementType);
        Value address =
            LLVM::GEPOp::create(b, loc, outPtr.getType(), elementType, outPtr,
                                ValueRange{e.add(rowBase, e.i64(chunk + i))});
        LLVM::StoreOp::create(b, loc, pair, address, alignment);
      }
    }
    if (lsePtr)
      e.storeLse(max, sum, seesKeys, lsePtr, lseStride, batch, row, rowHead,
                 inRange);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The thread's row of O / sum into a shared-memory staging tile for a TMA
/// store: 16 columns at a time from TMEM, rounded to 16-bit pairs, two
/// 16-byte chunks per 16 columns at their 128B-swizzled place (chunk c of
/// row r at c ^ (r % 8) within the row's 128 bytes of its 64-column box).
/// Eight consecutive rows write eight different chunk positions: no bank
/// conflict within a quarter-warp.
struct EpilogueStageLowering : OpConversionPattern<EpilogueStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EpilogueStageOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto tile = cast<TmemTileType>(op.getOut().getType());
    Type elementType = op.getElementType();
    constexpr int64_t kRowBytes = 128;
    Value sum = adaptor.getSum().front();
    Value inverse = e.rowInverse(sum, e.f32(0.0)).second;
    Value row = e.threadInGroup();
    Value rowStart = e.add(e.i32(op.getOffset()), e.mul(row, e.i32(kRowBytes)));
    Value swizzle = e.remu(row, e.i32(8));
    auto quadType = VectorType::get({4}, b.getI32Type());
    e.fence(/*after=*/true);
    for (int64_t chunk = 0; chunk < tile.getColumns(); chunk += kChunkColumns) {
      SmallVector<Value> words =
          e.loadColumns(adaptor.getOut().front(), chunk, kChunkColumns);
      e.waitLoads();
      // Eight 16-bit columns per 16-byte chunk.
      for (int64_t part = 0; part < kChunkColumns; part += 8) {
        int64_t column = chunk + part;
        Value quad = LLVM::UndefOp::create(b, loc, quadType);
        for (int64_t j = 0; j < 4; ++j) {
          Value low = e.fmul(e.asF32(words[part + 2 * j]), inverse);
          Value high = e.fmul(e.asF32(words[part + 2 * j + 1]), inverse);
          quad = LLVM::InsertElementOp::create(
              b, loc, quad, e.packPair(low, high, elementType), e.i32(j));
        }
        Value address = e.smemPtr(
            e.stagedChunkOffset(rowStart, swizzle, column, tile.getRows()));
        LLVM::StoreOp::create(b, loc, quad, address, /*alignment=*/16);
      }
    }
    // The TMA store reads through the async proxy.
    e.fenceAsyncProxy();
    rewriter.eraseOp(op);
    return success();
  }
};

struct LseStoreLowering : OpConversionPattern<LseStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LseStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    Value row = e.add(adaptor.getFirstRow().front(), e.threadInGroup());
    Value inRange =
        e.cmp(arith::CmpIPredicate::slt, row, adaptor.getSeqQ().front());
    SmallVector<Value> lseStride;
    for (ValueRange stride : adaptor.getLseStrides())
      lseStride.push_back(stride.front());
    Value sum = adaptor.getSum().front();
    e.storeLse(adaptor.getMax().front(), sum,
               e.rowInverse(sum, e.f32(0.0)).first, adaptor.getLsePtr().front(),
               lseStride, adaptor.getBatch().front(), row,
               adaptor.getHead().front(), inRange);
    rewriter.eraseOp(op);
    return success();
  }
};
/// Split-K on sm_100a: thread r stages row r of the O tile from TMEM, 16
/// columns at a time as four 16-byte stores, then its row max and sum (a
/// softmax thread's row statistics are already complete: no lane reduce).
struct SplitKStageLowering : OpConversionPattern<SplitKStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitKStageOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlackwellEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    auto tile = cast<TmemTileType>(op.getOut().getType());
    StagingLayout layout{static_cast<int64_t>(op.getOffset()), tile.getRows(),
                         tile.getColumns()};
    Value row = e.threadInGroup();
    Value rowStart =
        e.add(e.i32(layout.offset), e.mul(row, e.i32(layout.columns * 4)));
    auto quadType = VectorType::get({4}, b.getF32Type());
    e.fence(/*after=*/true);
    for (int64_t chunk = 0; chunk < layout.columns; chunk += kChunkColumns) {
      int64_t count = std::min(kChunkColumns, layout.columns - chunk);
      SmallVector<Value> words =
          e.loadColumns(adaptor.getOut().front(), chunk, count);
      e.waitLoads();
      for (int64_t i = 0; i + 3 < count; i += 4) {
        Value quad = LLVM::UndefOp::create(b, loc, quadType);
        for (int64_t j = 0; j < 4; ++j)
          quad = LLVM::InsertElementOp::create(b, loc, quad,
                                               e.asF32(words[i + j]), e.i32(j));
        Value address = e.smemPtr(e.add(rowStart, e.i32((chunk + i) * 4)));
        LLVM::StoreOp::create(b, loc, quad, address, /*alignment=*/16);
      }
    }
    Value rowBytes = e.mul(row, e.i32(4));
    LLVM::StoreOp::create(b, loc, adaptor.getMax().front(),
                          e.smemPtr(e.add(e.i32(layout.maxOffset()), rowBytes)),
                          /*alignment=*/4);
    LLVM::StoreOp::create(b, loc, adaptor.getSum().front(),
                          e.smemPtr(e.add(e.i32(layout.sumOffset()), rowBytes)),
                          /*alignment=*/4);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void fa4::populateBlackwellTypeConversions(TypeConverter &converter) {
  converter.addConversion([](TmemTileType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 6);
  });
  converter.addConversion(
      [](FragType type,
         SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        if (type.getRows() != 128)
          return failure();
        Builder b(type.getContext());
        int64_t bits = type.getElementType().getIntOrFloatBitWidth();
        if (bits == 32)
          results.append(type.getColumns(), b.getF32Type());
        else
          results.append(type.getColumns() * bits / 32, b.getI32Type());
        return success();
      });
  converter.addConversion(
      [](RowsType type,
         SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        if (type.getRows() != 128)
          return failure();
        results.push_back(Float32Type::get(type.getContext()));
        return success();
      });
}

void fa4::populateBlackwellPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  patterns.add<TmemAllocLowering, TmemDeallocLowering, TmemTileLowering,
               TmemMmaLowering, TmemCommitLowering, TmemFenceLowering,
               TmemLoadLowering, TmemStoreLowering, TmemScaleRowsLowering,
               MaskLowering, SoftmaxLowering, SinkRowsLowering,
               RowsStoreLowering, RowsLoadLowering, EpilogueLowering,
               EpilogueStageLowering, LseStoreLowering, SplitKStageLowering>(
      converter, patterns.getContext());
}
