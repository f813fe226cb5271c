//===- CommonPatterns.cpp - convert-fa4-to-nvvm, both chips ---------------===//
//
// The lowerings both chips share: the kernel function and its roles,
// mbarriers, TMA, shared-memory tiles, the frag ops that keep each register
// where it is (splat, scale rows, 16-bit packing). The split-K combines are
// in SplitKPatterns.cpp; the Hopper (sm_90a) and Blackwell (sm_100a) files
// add what depends on the frag layout.
//
//===----------------------------------------------------------------------===//

#include "LoweringEmitter.h"
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {

//===----------------------------------------------------------------------===//
// Kernel function, roles
//===----------------------------------------------------------------------===//

/// gpu.func -> llvm.func with the kernel attributes; tensor maps become
/// 128-byte __grid_constant__ parameters that TMA reads in parameter space.
struct KernelFuncLowering : OpConversionPattern<gpu::GPUFuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::GPUFuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
      Type converted = converter.convertType(type);
      if (!converted)
        return rewriter.notifyMatchFailure(func, "unconvertible argument");
      signature.addInputs(index, converted);
    }
    MLIRContext *context = func.getContext();
    auto llvmFunc = LLVM::LLVMFuncOp::create(
        rewriter, func.getLoc(), func.getName(),
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                    signature.getConvertedTypes()));
    if (func.isKernel())
      llvmFunc->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                        rewriter.getUnitAttr());
    // Branches stay branches: a switch LLVM forms from a chain of lane tests
    // (fa4.tensor_map.stage, one lane per map) would become a PTX jump
    // table (brx.idx), which fa4-emu does not run.
    llvmFunc.setPassthroughAttr(rewriter.getArrayAttr(
        {rewriter.getStrArrayAttr({"no-jump-tables", "true"})}));
    for (StringRef name : {NVVM::NVVMDialect::getMaxntidAttrName(),
                           NVVM::NVVMDialect::getMinctasmAttrName()})
      if (Attribute value = func->getAttr(name))
        llvmFunc->setAttr(name, value);
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
      if (!isa<TensorMapType>(type))
        continue;
      llvmFunc.setArgAttr(
          index, LLVM::LLVMDialect::getByValAttrName(),
          TypeAttr::get(LLVM::LLVMArrayType::get(rewriter.getI8Type(), 128)));
      llvmFunc.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(64));
      llvmFunc.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                          rewriter.getUnitAttr());
    }
    rewriter.inlineRegionBefore(func.getBody(), llvmFunc.getBody(),
                                llvmFunc.end());
    rewriter.applySignatureConversion(&llvmFunc.getBody().front(), signature,
                                      &converter);
    rewriter.eraseOp(func);
    return success();
  }
};

struct ReturnLowering : OpConversionPattern<gpu::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

/// A chain of warpgroup tests; each role first moves to its register budget
/// (up or down from what the CTA launched with), then runs its region.
struct WarpSpecializeLowering : OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WarpSpecializeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    Value tid = arith::IndexCastOp::create(
        b, loc, b.getI32Type(),
        gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
    Value warpgroup = e.broadcastFromLane0(
        arith::DivUIOp::create(b, loc, tid, e_i32(b, loc, kWarpgroupThreads)));
    Value thread =
        arith::RemUIOp::create(b, loc, tid, e_i32(b, loc, kWarpgroupThreads));
    int64_t launch = op.getLaunchRegisters();
    ArrayRef<int64_t> warpgroups = op.getWarpgroups();
    ArrayRef<int64_t> registers = op.getRegisters();
    int64_t first = 0;
    size_t numRoles = op.getRoles().size();
    for (size_t role = 0; role < numRoles; ++role) {
      int64_t end = first + warpgroups[role];
      Block *body = nullptr;
      Operation *insertBefore = nullptr;
      scf::IfOp branch;
      if (role + 1 < numRoles) {
        branch = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, warpgroup,
                                  e_i32(b, loc, end)),
            /*withElseRegion=*/true);
        body = branch.thenBlock();
        insertBefore = body->getTerminator();
        b.setInsertionPoint(insertBefore);
      }
      if (registers[role] != launch)
        NVVM::SetMaxRegisterOp::create(
            b, loc, registers[role],
            registers[role] > launch ? NVVM::SetMaxRegisterAction::increase
                                     : NVVM::SetMaxRegisterAction::decrease);
      Value index =
          arith::SubIOp::create(b, loc, warpgroup, e_i32(b, loc, first));
      Block &roleBlock = op.getRoles()[role].front();
      if (insertBefore) {
        rewriter.inlineBlockBefore(&roleBlock, insertBefore,
                                   ValueRange{index, thread});
        b.setInsertionPoint(branch.elseBlock()->getTerminator());
      } else {
        rewriter.inlineBlockBefore(&roleBlock, b.getInsertionBlock(),
                                   b.getInsertionPoint(),
                                   ValueRange{index, thread});
      }
      first = end;
    }
    rewriter.eraseOp(op);
    return success();
  }
  static Value e_i32(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  }
};

//===----------------------------------------------------------------------===//
// mbarriers, TMA, shared-memory tiles
//===----------------------------------------------------------------------===//

struct MBarrierGetLowering : OpConversionPattern<MBarrierGetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierGetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    Value offset = arith::AddIOp::create(
        rewriter, op.getLoc(),
        arith::ConstantIntOp::create(rewriter, op.getLoc(), op.getOffset(), 32),
        arith::MulIOp::create(
            rewriter, op.getLoc(), adaptor.getIndex(),
            arith::ConstantIntOp::create(rewriter, op.getLoc(), 8, 32)));
    rewriter.replaceOp(op, e.smemPtr(offset));
    return success();
  }
};

struct MBarrierInitLowering : OpConversionPattern<MBarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value count =
        arith::ConstantIntOp::create(rewriter, op.getLoc(), op.getCount(), 32);
    rewriter.replaceOpWithNewOp<NVVM::MBarrierInitOp>(op, adaptor.getBarrier(),
                                                      count, Value());
    return success();
  }
};

struct FenceMBarrierInitLowering : OpConversionPattern<FenceMBarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FenceMBarrierInitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // fence.mbarrier_init.release.cluster: the peers' multicasts and remote
    // arrivals may follow the cluster barrier after it (CUTLASS's order).
    if (op.getCluster())
      NVVM::FenceMbarrierInitOp::create(rewriter, op.getLoc());
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(op.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    return success();
  }
};

struct MBarrierArriveLowering : OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value count;
    if (std::optional<int64_t> arrivals = op.getCount())
      count =
          arith::ConstantIntOp::create(rewriter, op.getLoc(), *arrivals, 32);
    if (!adaptor.getCta()) {
      rewriter.replaceOpWithNewOp<NVVM::MBarrierArriveOp>(
          op, Type(), adaptor.getBarrier(), count);
      return success();
    }
    // A peer's barrier: mapa to its shared::cluster address, released at
    // cluster scope so that the peer's acquire (a cluster-scope wait) sees
    // everything this thread did before.
    Value remote = NVVM::MapaOp::create(
        rewriter, op.getLoc(), LLVM::LLVMPointerType::get(op.getContext(), 7),
        adaptor.getBarrier(), adaptor.getCta());
    rewriter.replaceOpWithNewOp<NVVM::MBarrierArriveOp>(
        op, Type(), remote, count,
        op.getCtaScope() ? NVVM::MemScopeKind::CTA
                         : NVVM::MemScopeKind::CLUSTER,
        /*relaxed=*/false);
    return success();
  }
};

struct MBarrierExpectTxLowering : OpConversionPattern<MBarrierExpectTxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierExpectTxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value bytes =
        arith::ConstantIntOp::create(rewriter, op.getLoc(), op.getBytes(), 32);
    rewriter.replaceOpWithNewOp<NVVM::MBarrierArriveExpectTxOp>(
        op, Type(), adaptor.getBarrier(), bytes, NVVM::MemScopeKind::CTA, false,
        Value());
    return success();
  }
};

struct MBarrierWaitLowering : OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The suspend-time hint: ten million ns, CUTLASS's choice.
    Location loc = op.getLoc();
    Value hint = arith::ConstantIntOp::create(rewriter, loc, 0x989680, 32);
    if (!op.getCluster()) {
      rewriter.replaceOpWithNewOp<NVVM::MBarrierTryWaitParityOp>(
          op, adaptor.getBarrier(), adaptor.getParity(), hint);
      return success();
    }
    // try_wait.parity.acquire.cluster until the phase completes.
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{}, ValueRange{});
    rewriter.createBlock(&loop.getBefore());
    Value done = NVVM::MBarrierTryWaitOp::create(
        rewriter, loc, rewriter.getI1Type(), adaptor.getBarrier(),
        adaptor.getParity(), hint, NVVM::MemScopeKind::CLUSTER,
        /*relaxed=*/false);
    Value pending = arith::XOrIOp::create(
        rewriter, loc, done, arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    scf::ConditionOp::create(rewriter, loc, pending, ValueRange{});
    rewriter.createBlock(&loop.getAfter());
    scf::YieldOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The `.L2::cache_hint` operand of a TMA copy with an eviction priority:
/// the 64-bit policy `createpolicy.fractional.L2::evict_{first,last}.b64`
/// makes for a fraction of 1.0 (CUTLASS's CacheHintSm90 holds the same
/// values); no operand without one.
static Value l2CachePolicy(OpBuilder &b, Location loc,
                           std::optional<L2Eviction> eviction) {
  if (!eviction)
    return Value();
  constexpr uint64_t kEvictFirstPolicy = 0x12F0000000000000ull;
  constexpr uint64_t kEvictLastPolicy = 0x14F0000000000000ull;
  uint64_t policy =
      *eviction == L2Eviction::Last ? kEvictLastPolicy : kEvictFirstPolicy;
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(policy));
}

struct TmaLoadLowering : OpConversionPattern<TmaLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    Value destination = LLVM::AddrSpaceCastOp::create(
        rewriter, op.getLoc(), LLVM::LLVMPointerType::get(op.getContext(), 7),
        e.smemPtr(adaptor.getDestination()));
    Value barrier = adaptor.getBarrier();
    NVVM::CTAGroupKindAttr group;
    if (Value cta = adaptor.getBarrierCta()) {
      // cta_group::2 lets the mbarrier live in the peer CTA of the pair; the
      // operand is its shared::cluster address (mapa), passed as the
      // shared pointer the intrinsic is typed with (the bits unchanged).
      Location loc = op.getLoc();
      Value remote = NVVM::MapaOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(op.getContext(), 7),
          barrier, cta);
      barrier = LLVM::IntToPtrOp::create(
          rewriter, loc, barrier.getType(),
          LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), remote)
              .getResult());
      group = NVVM::CTAGroupKindAttr::get(op.getContext(),
                                          NVVM::CTAGroupKind::CTA_2);
    }
    // multicast::cluster: the box and its bytes go to the same offsets in
    // every CTA of the mask.
    Value multicastMask;
    if (std::optional<int64_t> mask = op.getMulticast())
      multicastMask = arith::ConstantIntOp::create(
          rewriter, op.getLoc(), rewriter.getI16Type(), *mask);
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(
        op, destination, adaptor.getTensorMap(), adaptor.getCoordinates(),
        barrier, ValueRange{}, multicastMask,
        l2CachePolicy(rewriter, op.getLoc(), op.getL2Eviction()),
        NVVM::TMALoadMode::TILE, false, group, Value());
    return success();
  }
};

/// cp.async.bulk.tensor global <- shared::cta, then commit_group: each
/// store is its own bulk async-group, waited for by fa4.tma.store.wait.
struct TmaStoreLowering : OpConversionPattern<TmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        rewriter, op.getLoc(), adaptor.getTensorMap(),
        e.smemPtr(adaptor.getSource()), adaptor.getCoordinates(),
        l2CachePolicy(rewriter, op.getLoc(), op.getL2Eviction()),
        NVVM::TMAStoreMode::TILE, Value());
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkCommitGroupOp>(op);
    return success();
  }
};

struct TmaStoreWaitLowering : OpConversionPattern<TmaStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, rewriter.getI32IntegerAttr(0), rewriter.getUnitAttr());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tensor maps built on the device (PTX ISA: tensormap.replace,
// tensormap.cp_fenceproxy, fence.proxy.tensormap)
//===----------------------------------------------------------------------===//

/// One PTX instruction with no result; `~{memory}` keeps LLVM from moving
/// memory accesses across it.
static void inlinePtx(OpBuilder &b, Location loc, StringRef text,
                      ValueRange operands, StringRef constraints) {
  std::string clobbered =
      constraints.empty() ? "~{memory}" : (constraints + ",~{memory}").str();
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, operands, b.getStringAttr(text),
      b.getStringAttr(clobbered), b.getUnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr(),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

/// The tensor-map fields tensormap.replace writes (PTX ISA, "Tensor-map"):
/// an unsigned integer element type of the element's width (the encodings
/// of .u8, .u16, .u32 and .u64), the swizzle mode (none, 32B, 64B, 128B).
static int64_t unsignedElementType(int64_t elementBytes) {
  return elementBytes == 1   ? 0
         : elementBytes == 2 ? 1
         : elementBytes == 4 ? 2
                             : 4;
}
static int64_t swizzleMode(int64_t swizzleBytes) {
  return swizzleBytes == 0 ? 0 : llvm::Log2_64(swizzleBytes) - 4;
}

/// The thread zeroes the 128 bytes (8 stores of 16) and writes every field.
struct TensorMapStageLowering : OpConversionPattern<TensorMapStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorMapStageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    int64_t offset = op.getOffset();
    auto vectorType = VectorType::get({4}, b.getI32Type());
    Value zeros = LLVM::ConstantOp::create(
        b, loc, vectorType, DenseElementsAttr::get(vectorType, int32_t(0)));
    for (int64_t chunk = 0; chunk < 128; chunk += 16)
      LLVM::StoreOp::create(b, loc, zeros, e.smemPtr(e.i32(offset + chunk)),
                            /*alignment=*/16);
    Value map = e.smemAddress(e.i32(offset));
    auto replace = [&](StringRef field, StringRef width, std::string value,
                       ValueRange operands = {}, StringRef kinds = "") {
      std::string constraints = "r";
      if (!kinds.empty())
        constraints += ("," + kinds).str();
      SmallVector<Value> all = {map};
      all.append(operands.begin(), operands.end());
      inlinePtx(b, loc,
                ("tensormap.replace.tile." + field + ".shared::cta.b1024." +
                 width + " [$0], " + value + ";")
                    .str(),
                all, constraints);
    };
    auto ordinal = [](size_t dim, std::string value) {
      return std::to_string(dim) + ", " + value;
    };
    Value base =
        LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), adaptor.getBase());
    replace("global_address", "b64", "$1", base, "l");
    ArrayRef<int64_t> box = op.getBox();
    replace("rank", "b32", std::to_string(box.size() - 1));
    for (auto [dim, extent] : llvm::enumerate(box)) {
      replace("box_dim", "b32", ordinal(dim, std::to_string(extent)));
      replace("global_dim", "b32", ordinal(dim, "$1"), adaptor.getDims()[dim],
              "r");
      replace("element_stride", "b32", ordinal(dim, "1"));
    }
    for (auto [dim, stride] : llvm::enumerate(adaptor.getStrides()))
      replace("global_stride", "b64", ordinal(dim, "$1"), stride, "l");
    replace("elemtype", "b32",
            std::to_string(unsignedElementType(op.getElementBytes())));
    replace("interleave_layout", "b32", "0");
    replace("swizzle_mode", "b32",
            std::to_string(swizzleMode(op.getSwizzle())));
    replace("fill_mode", "b32", "0");
    rewriter.eraseOp(op);
    return success();
  }
};

struct TensorMapPublishLowering : OpConversionPattern<TensorMapPublishOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorMapPublishOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    // After the lanes that staged maps: their shared-memory writes first.
    NVVM::SyncWarpOp::create(rewriter, op.getLoc(), e.i32(-1));
    Value slot = LLVM::PtrToIntOp::create(
        rewriter, op.getLoc(), rewriter.getI64Type(), adaptor.getSlot());
    inlinePtx(rewriter, op.getLoc(),
              "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
              "release.gpu.sync.aligned [$0], [$1], 128;",
              {slot, e.smemAddress(e.i32(op.getOffset()))}, "l,r");
    rewriter.eraseOp(op);
    return success();
  }
};

/// The result is the map's generic address, which TMA takes.
struct TensorMapAcquireLowering : OpConversionPattern<TensorMapAcquireOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensorMapAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value generic = adaptor.getSlot();
    auto genericType = LLVM::LLVMPointerType::get(op.getContext());
    if (generic.getType() != genericType)
      generic =
          LLVM::AddrSpaceCastOp::create(rewriter, loc, genericType, generic);
    inlinePtx(rewriter, loc,
              "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", generic,
              "l");
    rewriter.replaceOp(op, generic);
    return success();
  }
};

/// The thread's chunks one after another, each a `cp.async.cg` of 16 bytes
/// whose source size (16, or 0 to zero-fill) says whether it is in bounds;
/// an out-of-bounds chunk reads from `base` (nothing is read). The threads
/// cover whole lines per round, so a thread's chunk index is fixed and its
/// line advances by as many lines as the round covers: where those are
/// whole rows and a multiple of 8 lines (every use: 128 or 256 threads,
/// groups that divide 16), its source and swizzle advance by constants
/// (one add each per chunk, not the divisions of the general case).
struct CopyAsyncBoxLowering : OpConversionPattern<CopyAsyncBoxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyAsyncBoxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    constexpr int64_t kLineBytes = 128, kChunkBytes = 16, kChunksPerLine = 8,
                      kSwizzleLines = 8;
    LoweringEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    int64_t lines = op.getLines(), group = op.getGroup();
    int64_t linesPerRound = op.getThreads() / kChunksPerLine;
    bool wholeRows = linesPerRound % group == 0;
    bool fixedSwizzle = linesPerRound % kSwizzleLines == 0;
    Value base = adaptor.getBase();
    auto byteAt = [&](Value pointer, Value offset) -> Value {
      return LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI8Type(),
                                 pointer, ValueRange{offset});
    };
    Value chunk = e.remu(adaptor.getThread(), e.i32(kChunksPerLine));
    Value firstLine = e.divu(adaptor.getThread(), e.i32(kChunksPerLine));
    Value chunkInBounds = e.ltu(chunk, e.i32(op.getChunks()));
    Value chunkOffset = e.sext(e.mul(chunk, e.i32(kChunkBytes)));
    auto sourceOf = [&](Value row, Value member) {
      return byteAt(
          base, e.add(e.add(e.mul(e.sext(row), adaptor.getRowStride()),
                            e.mul(e.sext(member), adaptor.getMemberStride())),
                      chunkOffset));
    };
    auto swizzledChunk = [&](Value lineOffset) {
      Value swizzle =
          arith::AndIOp::create(b, loc, e.divu(lineOffset, e.i32(kLineBytes)),
                                e.i32(kSwizzleLines - 1));
      return e.mul(arith::XOrIOp::create(b, loc, chunk, swizzle),
                   e.i32(kChunkBytes));
    };
    Value firstRow = e.divu(firstLine, e.i32(group));
    Value firstSource = sourceOf(firstRow, e.remu(firstLine, e.i32(group)));
    Value rowStep = e.mul(adaptor.getRowStride(),
                          e.i64(wholeRows ? linesPerRound / group : 0));
    Value firstLineOffset =
        e.add(adaptor.getDestination(), e.mul(firstLine, e.i32(kLineBytes)));
    Value firstChunkOffset = swizzledChunk(firstLineOffset);
    for (int64_t round = 0; round * linesPerRound < lines; ++round) {
      Value line = e.add(firstLine, e.i32(round * linesPerRound));
      // The last round's threads past the box copy nothing.
      scf::IfOp inBox;
      if ((round + 1) * linesPerRound > lines) {
        inBox = scf::IfOp::create(b, loc, e.ltu(line, e.i32(lines)), false);
        b.setInsertionPointToStart(inBox.thenBlock());
      }
      Value row = wholeRows
                      ? e.add(firstRow, e.i32(round * (linesPerRound / group)))
                      : e.divu(line, e.i32(group));
      Value source = wholeRows
                         ? byteAt(firstSource, e.mul(rowStep, e.i64(round)))
                         : sourceOf(row, e.remu(line, e.i32(group)));
      Value inBounds = arith::AndIOp::create(
          b, loc, e.ltu(row, adaptor.getRows()), chunkInBounds);
      source = e.select(inBounds, source, base);
      Value lineOffset =
          e.add(firstLineOffset, e.i32(round * linesPerRound * kLineBytes));
      Value destination =
          e.add(lineOffset,
                fixedSwizzle ? firstChunkOffset : swizzledChunk(lineOffset));
      Value sourceBytes = e.select(inBounds, e.i32(kChunkBytes), e.i32(0));
      auto globalType = LLVM::LLVMPointerType::get(op.getContext(), 1);
      if (source.getType() != globalType)
        source = LLVM::AddrSpaceCastOp::create(b, loc, globalType, source);
      inlinePtx(b, loc, "cp.async.cg.shared.global [$0], [$1], 16, $2;",
                {e.smemAddress(destination), source, sourceBytes}, "r,l,r");
      if (inBox)
        b.setInsertionPointAfter(inBox);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct CopyAsyncArriveLowering : OpConversionPattern<CopyAsyncArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyAsyncArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value barrier = adaptor.getBarrier();
    Value address = LLVM::PtrToIntOp::create(rewriter, op.getLoc(),
                                             rewriter.getI32Type(), barrier);
    inlinePtx(rewriter, op.getLoc(),
              "cp.async.mbarrier.arrive.shared::cta.b64 [$0];", address, "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct SmemTileLowering : OpConversionPattern<SmemTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SmemTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    rewriter.replaceOp(op, e.smemAddress(adaptor.getOffset()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Frag ops that keep each register in place (either layout)
//===----------------------------------------------------------------------===//

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    Value value = adaptor.getValue().front();
    auto frag = dyn_cast<FragType>(op.getType());
    if (frag && !frag.getElementType().isF32())
      value = e.packPair(value, value, frag.getElementType());
    SmallVector<Type> registers;
    if (failed(getTypeConverter()->convertType(op.getType(), registers)))
      return failure();
    SmallVector<SmallVector<Value>> results = {
        SmallVector<Value>(registers.size(), value)};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// `lazy`: the multiplies sit under a warp-uniform branch (vote.any of a
/// factor other than 1), so a warp whose rows all kept their max skips them;
/// ptxas sees no divergence around the accumulator registers.
struct ScaleRowsLowering : OpConversionPattern<ScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScaleRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    SmallVector<Value> tile = flatten(adaptor.getTile());
    ValueRange factors = adaptor.getFactors();
    auto scaled = [&] {
      SmallVector<Value> result;
      for (auto [i, value] : llvm::enumerate(tile))
        // sm_90a: two rows per thread; sm_100a: the thread's one row.
        result.push_back(
            e.fmul(value, factors[factors.size() == 2 ? rowHalf(i) : 0]));
      return result;
    };
    if (!op.getLazy()) {
      SmallVector<SmallVector<Value>> results = {scaled()};
      rewriter.replaceOpWithMultiple(op, std::move(results));
      return success();
    }
    Value needs;
    for (Value factor : factors) {
      Value changed = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                            factor, e.f32(1.0));
      needs = needs ? arith::OrIOp::create(b, loc, needs, changed) : changed;
    }
    Value anyInWarp = NVVM::VoteSyncOp::create(b, loc, b.getI1Type(), e.i32(-1),
                                               needs, NVVM::VoteSyncKind::any);
    auto ifScale = scf::IfOp::create(b, loc, ValueRange(tile).getTypes(),
                                     anyInWarp, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifScale.thenBlock());
      scf::YieldOp::create(b, loc, scaled());
      b.setInsertionPointToStart(ifScale.elseBlock());
      scf::YieldOp::create(b, loc, tile);
    }
    SmallVector<SmallVector<Value>> results = {
        llvm::to_vector_of<Value>(ifScale.getResults())};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// tanh(x * scale) per register, either layout: llvm.tanh with `afn` is
/// NVPTX's tanh.approx.f32: one MUFU.TANH, within 2^-16.46 relative of tanh
/// on the H100 (bench/mufu/README.md, "tanh").
struct SoftcapLowering : OpConversionPattern<SoftcapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftcapOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    Value scale = adaptor.getInputScale().front();
    auto approximate = LLVM::FastmathFlagsAttr::get(rewriter.getContext(),
                                                    LLVM::FastmathFlags::afn);
    SmallVector<Value> capped;
    for (Value score : adaptor.getScores())
      capped.push_back(LLVM::TanhOp::create(rewriter, op.getLoc(),
                                            e.fmul(score, scale), approximate));
    SmallVector<SmallVector<Value>> results = {capped};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// Consecutive accumulator registers (2i, 2i + 1) are adjacent columns of
/// one row: packed, each k16 step's four registers are wgmma's A fragment.
/// An 8-bit frag (sm_100a, a row per thread) packs four columns a word.
struct TruncFLowering : OpConversionPattern<TruncFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TruncFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    Type elementType = cast<FragType>(op.getType()).getElementType();
    ValueRange tile = adaptor.getTile();
    SmallVector<Value> packed;
    if (elementType.getIntOrFloatBitWidth() == 8) {
      for (size_t i = 0; i + 3 < tile.size(); i += 4)
        packed.push_back(e.packQuad(tile.slice(i, 4), elementType));
    } else {
      for (size_t i = 0; i + 1 < tile.size(); i += 2)
        packed.push_back(e.packPair(tile[i], tile[i + 1], elementType));
    }
    SmallVector<SmallVector<Value>> results = {packed};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void fa4::populateCommonPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns) {
  patterns.add<
      KernelFuncLowering, ReturnLowering, WarpSpecializeLowering,
      MBarrierGetLowering, MBarrierInitLowering, FenceMBarrierInitLowering,
      MBarrierArriveLowering, MBarrierExpectTxLowering, MBarrierWaitLowering,
      TmaLoadLowering, TmaStoreLowering, TmaStoreWaitLowering, SmemTileLowering,
      SplatLowering, ScaleRowsLowering, SoftcapLowering, TruncFLowering,
      TensorMapStageLowering, TensorMapPublishLowering,
      TensorMapAcquireLowering, CopyAsyncBoxLowering, CopyAsyncArriveLowering>(
      converter, patterns.getContext());
}
