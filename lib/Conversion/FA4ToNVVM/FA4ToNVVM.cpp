//===- FA4ToNVVM.cpp - fa4 kernel IR -> NVVM/LLVM (sm_90a) ----------------===//
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

#include "../Common/SplitKWorkspace.h"
#include "LoweringEmitter.h"
#include "Tcgen05.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/NVIDIA/Descriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

namespace fa4 {
#define GEN_PASS_DEF_CONVERTFA4TONVVM
#include "fa4/Conversion/Passes.h.inc"
} // namespace fa4

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {
constexpr int kSwizzleBytes = 128;

/// What the sm_90a patterns add: where this thread's registers sit in a
/// wgmma frag, and the wgmma descriptors and instruction.
class Sm90Emitter : public LoweringEmitter {
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

protected:
  Operation *op;
};

SmallVector<Value> Sm90Emitter::wgmma(ArrayRef<Value> accumulator, int64_t n,
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

/// Row `index % 4 / 2` of the two a thread owns holds register `index`.
int64_t rowHalf(int64_t index) { return (index % 4) / 2; }

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
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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

struct SmemTileLowering : OpConversionPattern<SmemTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SmemTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Sm90Emitter e(rewriter, op);
    rewriter.replaceOp(op, e.smemAddress(adaptor.getOffset()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Frags
//===----------------------------------------------------------------------===//

/// Registers per thread of a frag or rows value on sm_90a.
int64_t numRegisters(Type type) {
  if (auto rows = dyn_cast<RowsType>(type))
    return rows.getRows() / 32;
  auto frag = cast<FragType>(type);
  int64_t perThread = frag.getRows() * frag.getColumns() / kWarpgroupThreads;
  return frag.getElementType().isF32() ? perThread : perThread / 2;
}

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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

/// `lazy`: the multiplies sit under a warp-uniform branch (vote.any of a
/// factor other than 1), so a warp whose rows all kept their max skips them;
/// ptxas sees no divergence around the accumulator registers.
struct ScaleRowsLowering : OpConversionPattern<ScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScaleRowsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Sm90Emitter e(rewriter, op);
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

/// Consecutive accumulator registers (2i, 2i + 1) are adjacent columns of
/// one row: packed, each k16 step's four registers are wgmma's A fragment.
struct TruncFLowering : OpConversionPattern<TruncFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TruncFOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Sm90Emitter e(rewriter, op);
    Type elementType = cast<FragType>(op.getType()).getElementType();
    ValueRange tile = adaptor.getTile();
    SmallVector<Value> packed;
    for (size_t i = 0; i + 1 < tile.size(); i += 2)
      packed.push_back(e.packPair(tile[i], tile[i + 1], elementType));
    SmallVector<SmallVector<Value>> results = {packed};
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

/// Finishes the row sums across the 4 lanes of a row, normalises, and stores
/// O two adjacent columns at a time, and LSE from one lane per row.
/// A row's sum over its quad: each of the four threads sharing a row of a
/// wgmma fragment holds the sum of its own columns.
static Value quadSum(Sm90Emitter &e, Value sum) {
  sum = e.fadd(sum, e.shuffleXor(sum, 1));
  return e.fadd(sum, e.shuffleXor(sum, 2));
}

/// The quad's first thread writes a row's LSE: each of the four holds it.
static Value quadWriter(Sm90Emitter &e, Value rowInRange) {
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
    Sm90Emitter e(rewriter, op);
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

struct LseStoreLowering : OpConversionPattern<LseStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LseStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Sm90Emitter e(rewriter, op);
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
    Sm90Emitter e(rewriter, op);
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

//===----------------------------------------------------------------------===//
// Split-K across a cluster
//===----------------------------------------------------------------------===//

struct SplitKStageLowering : OpConversionPattern<SplitKStageOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitKStageOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Sm90Emitter e(rewriter, op);
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
    auto pairType = VectorType::get({2}, b.getF32Type());
    for (size_t i = 0; i + 1 < out.size(); i += 2) {
      // Registers 4j + e: row + 8 * (e / 2), column 8j + 2 * (t % 4) + e % 2.
      Value row = e.add(fragmentRow, e.i32(8 * rowHalf(i)));
      Value column = e.add(fragmentColumn, e.i32(8 * (i / 4)));
      Value pair = LLVM::UndefOp::create(b, loc, pairType);
      pair = LLVM::InsertElementOp::create(b, loc, pair, out[i], e.i32(0));
      pair = LLVM::InsertElementOp::create(b, loc, pair, out[i + 1], e.i32(1));
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

struct ClusterSyncLowering : OpConversionPattern<ClusterSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClusterSyncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // barrier.cluster.arrive is a release, barrier.cluster.wait an acquire.
    NVVM::ClusterArriveOp::create(rewriter, op.getLoc(),
                                  rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<NVVM::ClusterWaitOp>(op,
                                                     rewriter.getUnitAttr());
    return success();
  }
};

/// One warpgroup walks the (row, column pair) items of this CTA's band, 128
/// at a time: the row's (max, sum) of every partition, then the weighted sum
/// of the partitions' column pairs, all read through DSMEM (mapa +
/// ld.shared::cluster). The partition count and the band are compile-time,
/// so the loop over peers unrolls.
struct SplitKCombineLowering : OpConversionPattern<SplitKCombineOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitKCombineOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    using P = arith::CmpIPredicate;
    StagingLayout layout{static_cast<int64_t>(op.getOffset()),
                         static_cast<int64_t>(op.getRows()),
                         static_cast<int64_t>(op.getColumns())};
    int64_t partitions = op.getPartitions(), band = op.getBand();
    int64_t partials = op.getPartials();
    int64_t group = op.getGroup(), depth = op.getDepth();
    int64_t pairs = band / 2;
    Value rank = adaptor.getRank().front();
    Value outPtr = adaptor.getOutPtr().front();
    Value batch = adaptor.getBatch().front(), head = adaptor.getHead().front(),
          firstRow = adaptor.getFirstRow().front(),
          seqQ = adaptor.getSeqQ().front();
    auto [outStride, lsePtr, lseStride] = outputOperands(op, adaptor);
    Type elementType = op.getElementType();
    auto clusterPtr = LLVM::LLVMPointerType::get(op.getContext(), 7);
    // Byte `byteOffset` of staged partial k's shared memory, in the cluster
    // window: partial k is the (k % partials)-th of partition k / partials.
    auto peer = [&](int64_t k, Value byteOffset) -> Value {
      int64_t slot = k % partials;
      Value local =
          slot ? e.add(byteOffset, e.i32(slot * layout.bytes())) : byteOffset;
      return NVVM::MapaOp::create(b, loc, clusterPtr, e.smemPtr(local),
                                  e.i32(k / partials));
    };
    auto loadF32 = [&](Value address) -> Value {
      return LLVM::LoadOp::create(b, loc, b.getF32Type(), address, 4);
    };

    Value thread = e.threadInGroup();
    Value bandStart = e.mul(rank, e.i32(band));
    int64_t items = layout.rows * pairs;
    auto loop =
        scf::ForOp::create(b, loc, e.toIndex(thread), e.toIndex(e.i32(items)),
                           e.toIndex(e.i32(kWarpgroupThreads)));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value item = e.indexTo(b.getI32Type(), loop.getInductionVar());
      Value tileRow = e.divu(item, e.i32(pairs));
      Value pair = e.remu(item, e.i32(pairs));
      Value column = e.add(bandStart, e.mul(pair, e.i32(2)));
      Value row = e.add(firstRow, e.divu(tileRow, e.i32(group)));
      Value rowHead = e.add(head, e.remu(tileRow, e.i32(group)));
      Value valid = arith::AndIOp::create(
          b, loc, e.cmp(P::slt, row, seqQ),
          e.cmp(P::slt, tileRow, e.i32(layout.rows / group * group)));
      Value inBand = e.cmp(P::slt, column, e.i32(depth));
      auto ifRow = scf::IfOp::create(b, loc, valid, false);
      b.setInsertionPointToStart(ifRow.thenBlock());
      Value rowBytes = e.mul(tileRow, e.i32(4));
      Value negInf = e.f32(-INFINITY), zero = e.f32(0.0);
      SmallVector<Value> maxes, sums;
      Value globalMax = negInf;
      for (int64_t p = 0; p < partitions * partials; ++p) {
        maxes.push_back(
            loadF32(peer(p, e.add(e.i32(layout.maxOffset()), rowBytes))));
        sums.push_back(
            loadF32(peer(p, e.add(e.i32(layout.sumOffset()), rowBytes))));
        globalMax = e.fmax(globalMax, maxes.back());
      }
      // A row no partition saw keeps max -inf: subtract 0 instead of -inf
      // so its weights are 0, not NaN.
      Value safeMax =
          e.select(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         globalMax, negInf),
                   zero, globalMax);
      SmallVector<Value> scales;
      Value total = zero;
      for (int64_t p = 0; p < partitions * partials; ++p) {
        scales.push_back(e.exp2(e.fsub(maxes[p], safeMax)));
        total = e.fma(sums[p], scales[p], total);
      }
      Value seesKeys =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, total, zero);
      Value inverse = e.select(
          seesKeys, arith::DivFOp::create(b, loc, e.f32(1.0), total), zero);
      {
        auto ifStore = scf::IfOp::create(b, loc, inBand, false);
        OpBuilder::InsertionGuard storeGuard(b);
        b.setInsertionPointToStart(ifStore.thenBlock());
        Value element = e.add(e.mul(tileRow, e.i32(layout.columns)), column);
        Value elementBytes =
            e.add(e.i32(layout.offset), e.mul(element, e.i32(4)));
        Value acc[2] = {zero, zero};
        for (int64_t p = 0; p < partitions * partials; ++p) {
          Value weight = e.fmul(scales[p], inverse);
          Value address = peer(p, elementBytes);
          Value next = LLVM::GEPOp::create(b, loc, clusterPtr, b.getF32Type(),
                                           address, ValueRange{e.i32(1)});
          acc[0] = e.fma(loadF32(address), weight, acc[0]);
          acc[1] = e.fma(loadF32(next), weight, acc[1]);
        }
        Value packed = e.packPair(acc[0], acc[1], elementType);
        Value index = e.add(
            e.mul(e.sext(batch), outStride[0]),
            e.add(e.mul(e.sext(row), outStride[1]),
                  e.add(e.mul(e.sext(rowHead), outStride[2]), e.sext(column))));
        Value outAddress = LLVM::GEPOp::create(
            b, loc, outPtr.getType(), elementType, outPtr, ValueRange{index});
        LLVM::StoreOp::create(b, loc, packed, outAddress, /*alignment=*/4);
      }
      if (lsePtr) {
        // Rank 0 writes LSE, once per row.
        Value writer = arith::AndIOp::create(
            b, loc, e.cmp(P::eq, rank, e.i32(0)), e.cmp(P::eq, pair, e.i32(0)));
        auto ifLse = scf::IfOp::create(b, loc, writer, false);
        OpBuilder::InsertionGuard lseGuard(b);
        b.setInsertionPointToStart(ifLse.thenBlock());
        Value lse = e.select(
            seesKeys, e.fmul(e.fadd(globalMax, e.log2(total)), e.f32(M_LN2)),
            negInf);
        Value index =
            e.add(e.mul(e.sext(batch), lseStride[0]),
                  e.add(e.mul(e.sext(rowHead), lseStride[1]), e.sext(row)));
        Value address =
            LLVM::GEPOp::create(b, loc, lsePtr.getType(), b.getF32Type(),
                                lsePtr, ValueRange{index});
        LLVM::StoreOp::create(b, loc, lse, address, /*alignment=*/4);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Split-K through a global workspace
//===----------------------------------------------------------------------===//

/// One warp per 32 columns of an output row; lane l owns column `column +
/// l`, so each partial's band is one coalesced 128-byte read. One pass over
/// the partials, kBlocksPerStep blocks of a warp's width a step: lane l
/// loads the LSE of partial first + l of each block (a row's partials lie
/// side by side, so at Sq = 1 that is one line), and each lane its column
/// of every partial of the step, at constant offsets from one address, all
/// before any use, so a step is one round trip to memory. The step's max (a
/// butterfly) raises the running max, which rescales the accumulators as the
/// attention kernel rescales O; lane l computes the weight of its partial and
/// each lane takes the weights by shuffle. Steps run unclamped while a whole
/// step remains, then one clamped step takes the rest (past the last partial,
/// the last one's memory with LSE -inf, so weight 0). A row's P partials
/// cost ceil(P / 96) round trips; a separate pass for the max first had
/// cost another ceil(P / 128), and single blocks a step P / 32. Three
/// blocks a step take 168 registers at launch, as two do; four took 255,
/// and spilled for a known count of 128.
struct SplitKWorkspaceCombineLowering
    : OpConversionPattern<SplitKWorkspaceCombineOp> {
  using OpConversionPattern::OpConversionPattern;
  static constexpr int64_t kAccumulators = 4;
  static constexpr int64_t kBlocksPerStep = 3;
  static constexpr int64_t kKnownCountBlocksPerStep = 2;
  LogicalResult
  matchAndRewrite(SplitKWorkspaceCombineOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LoweringEmitter e(rewriter, op);
    OpBuilder &b = rewriter;
    Location loc = op.getLoc();
    using P = arith::CmpIPredicate;
    auto front = [](ValueRange values) { return values.front(); };
    Value workspace = front(adaptor.getWorkspace()),
          outPtr = front(adaptor.getOutPtr()),
          batch = front(adaptor.getBatch()), row = front(adaptor.getRow()),
          head = front(adaptor.getHead()),
          firstColumn = front(adaptor.getColumn()),
          batchSize = front(adaptor.getBatchSize()),
          seqQ = front(adaptor.getSeqQ()),
          partials = e.sext(front(adaptor.getPartials()));
    auto [outStride, lsePtr, lseStride] = outputOperands(op, adaptor);
    int64_t heads = op.getHeads(), depth = op.getDepth();
    Type f32 = b.getF32Type();
    Value negInf = e.f32(-INFINITY), zero = e.f32(0.0);

    // Element offsets into the workspace (docs of the op): partial s of
    // this row is `depth` floats at `oRow + s * depth`, its LSE at
    // `lseRow + s * Sq`.
    SplitKWorkspaceLayout layout(e, front(adaptor.getPartials()), batchSize,
                                 seqQ, heads, depth);
    Value oRow = layout.oOfRow(batch, row, head);
    Value lseRow = layout.lseOfRow(batch, row, head);
    auto elementAddress = [&](Value base, Value element) -> Value {
      return LLVM::GEPOp::create(b, loc, workspace.getType(), f32, base,
                                 ValueRange{element});
    };
    auto loadFrom = [&](Value base, Value element) -> Value {
      return LLVM::LoadOp::create(b, loc, f32, elementAddress(base, element),
                                  4);
    };
    auto loadAt = [&](Value element) { return loadFrom(workspace, element); };
    auto loadLse = [&](Value s) {
      return loadAt(e.add(lseRow, e.mul(s, layout.lsePartialStride())));
    };
    // for (s = from; s < to; s += step) carried = body(s, carried).
    auto forPartialsTo = [&](Value from, Value to, int64_t step,
                             ValueRange init, auto body) {
      auto loop = scf::ForOp::create(b, loc, from, to, e.i64(step), init);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      scf::YieldOp::create(
          b, loc, body(loop.getInductionVar(), loop.getRegionIterArgs()));
      return loop.getResults();
    };
    Value lane = e.lane();
    Value lane64 = e.sext(lane);
    Value lastPartial = e.sub(partials, e.i64(1));
    // Past the last partial, read the last one (its LSE replaced by -inf).
    auto clampToLast = [&](Value s) {
      return e.select(e.cmp(P::slt, s, partials), s, lastPartial);
    };

    // The lane's column; a lane past the depth reads the last column (and
    // stores nothing), so the loads need no branch.
    Value column = e.add(firstColumn, lane);
    Value inDepth = e.cmp(P::slt, column, e.i32(depth));
    Value loadColumn = e.sext(e.mins(column, e.i32(depth - 1)));
    // The lane's column of partial 0; partial s is s * depth floats on.
    Value columnOfPartial0 = elementAddress(workspace, e.add(oRow, loadColumn));
    auto isNegInf = [&](Value x) -> Value {
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                   negInf);
    };
    // The carried state: the running max (warp-uniform), kAccumulators
    // partial sums of the lane's column, and the lane's weights' sum.
    enum { kMax = 0, kFirstAccumulator = 1, kWeightSum = 1 + kAccumulators };
    // Partials first + 32 k + [0, 32) for k < blocks; `clamp`: past the
    // last partial, the last one's memory with LSE -inf.
    auto step = [&](Value first, int64_t blocks, bool clamp,
                    SmallVector<Value> state) {
      SmallVector<Value> lse, values;
      // An unclamped step's partials lie at constant offsets from its first.
      Value columnOfFirst =
          clamp ? Value()
                : elementAddress(columnOfPartial0, layout.oOfPartial(first));
      for (int64_t k = 0; k < blocks; ++k) {
        Value mine = e.add(e.add(first, e.i64(32 * k)), lane64);
        Value l = loadLse(clamp ? clampToLast(mine) : mine);
        if (clamp)
          l = e.select(e.cmp(P::slt, mine, partials), l, negInf);
        lse.push_back(l);
        for (int64_t j = 0; j < 32; ++j) {
          if (!clamp) {
            values.push_back(
                loadFrom(columnOfFirst, e.i64((32 * k + j) * depth)));
            continue;
          }
          Value s = clampToLast(e.add(first, e.i64(32 * k + j)));
          values.push_back(loadFrom(columnOfPartial0, layout.oOfPartial(s)));
        }
      }
      Value stepMax;
      for (Value l : lse)
        stepMax = stepMax ? e.fmax(stepMax, l) : l;
      Value runningMax = state[kMax];
      Value newMax = e.fmax(runningMax, e.warpMax(stepMax));
      // Subtract 0 while no partial saw a key, so that the weights are 0,
      // not NaN; nothing is summed yet then, so any scale will do.
      Value safeMax = e.select(isNegInf(newMax), zero, newMax);
      Value scale =
          e.select(isNegInf(runningMax), e.f32(1.0),
                   e.exp2(e.fmul(e.fsub(runningMax, newMax), e.f32(M_LOG2E))));
      state[kMax] = newMax;
      for (int64_t i = kFirstAccumulator; i <= kWeightSum; ++i)
        state[i] = e.fmul(state[i], scale);
      for (int64_t k = 0; k < blocks; ++k) {
        Value weight = e.exp2(e.fmul(e.fsub(lse[k], safeMax), e.f32(M_LOG2E)));
        state[kWeightSum] = e.fadd(state[kWeightSum], weight);
        for (int64_t j = 0; j < 32; ++j) {
          Value &sum = state[kFirstAccumulator + j % kAccumulators];
          sum = e.fma(values[32 * k + j], e.laneValue(weight, j), sum);
        }
      }
      return state;
    };
    SmallVector<Value> init(kWeightSum + 1, zero);
    init[kMax] = negInf;
    // kBlocksPerStep blocks a step, or as many as a smaller count known
    // here needs (a hinted split's partials in one step). A larger known
    // count takes kKnownCountBlocksPerStep: ptxas hoisted the last, clamped
    // step's loads above the whole steps' (138 partials as 96 and 42
    // spilled 52 bytes).
    int64_t blocksPerStep = kBlocksPerStep;
    if (std::optional<int64_t> known = getConstantIntValue(op.getPartials())) {
      int64_t blocks = std::max<int64_t>(1, llvm::divideCeil(*known, 32));
      blocksPerStep =
          blocks <= kBlocksPerStep ? blocks : kKnownCountBlocksPerStep;
    }
    // Whole steps while that many partials remain: no clamps, and ptxas
    // keeps a step's loads in flight together.
    int64_t stepPartials = 32 * blocksPerStep;
    Value fullEnd =
        e.mul(e.divu(partials, e.i64(stepPartials)), e.i64(stepPartials));
    SmallVector<Value> full = forPartialsTo(
        e.i64(0), fullEnd, stepPartials, init, [&](Value first, ValueRange c) {
          return step(first, blocksPerStep, /*clamp=*/false,
                      SmallVector<Value>(c));
        });
    // The rest, fewer than a step, in one clamped step of as many blocks as
    // it needs: tail(n) takes n blocks where more than (n - 1) x 32
    // partials remain, else tail(n - 1).
    Value remaining = e.sub(partials, fullEnd);
    std::function<SmallVector<Value>(int64_t)> tail =
        [&](int64_t blocks) -> SmallVector<Value> {
      if (blocks == 0)
        return full;
      auto ifTail =
          scf::IfOp::create(b, loc, ValueRange(full).getTypes(),
                            e.cmp(P::sgt, remaining, e.i64(32 * (blocks - 1))),
                            /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifTail.thenBlock());
      scf::YieldOp::create(b, loc, step(fullEnd, blocks, /*clamp=*/true, full));
      b.setInsertionPointToStart(ifTail.elseBlock());
      scf::YieldOp::create(b, loc, tail(blocks - 1));
      return SmallVector<Value>(ifTail.getResults());
    };
    SmallVector<Value> sums = tail(blocksPerStep);
    Value maxLse = sums[kMax];
    Value weighted = sums[kFirstAccumulator];
    for (int64_t k = 1; k < kAccumulators; ++k)
      weighted = e.fadd(weighted, sums[kFirstAccumulator + k]);
    Value total = e.warpSum(sums[kWeightSum]);
    Value seesKeys =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, total, zero);
    Value inverse = e.select(
        seesKeys, arith::DivFOp::create(b, loc, e.f32(1.0), total), zero);
    Type elementType = op.getElementType();
    Value rowBase = e.add(e.mul(e.sext(batch), outStride[0]),
                          e.add(e.mul(e.sext(row), outStride[1]),
                                e.mul(e.sext(head), outStride[2])));
    {
      auto ifIn = scf::IfOp::create(b, loc, inDepth, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifIn.thenBlock());
      Value value = arith::TruncFOp::create(b, loc, elementType,
                                            e.fmul(weighted, inverse));
      Value address =
          LLVM::GEPOp::create(b, loc, outPtr.getType(), elementType, outPtr,
                              ValueRange{e.add(rowBase, e.sext(column))});
      LLVM::StoreOp::create(b, loc, value, address, /*alignment=*/2);
    }
    if (lsePtr) {
      auto ifFirst =
          scf::IfOp::create(b, loc, e.cmp(P::eq, column, e.i32(0)), false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      Value lse =
          e.select(seesKeys,
                   e.fadd(maxLse, e.fmul(e.log2(total), e.f32(M_LN2))), negInf);
      Value index =
          e.add(e.mul(e.sext(batch), lseStride[0]),
                e.add(e.mul(e.sext(head), lseStride[1]), e.sext(row)));
      Value address = LLVM::GEPOp::create(b, loc, lsePtr.getType(), f32, lsePtr,
                                          ValueRange{index});
      LLVM::StoreOp::create(b, loc, lse, address, /*alignment=*/4);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertFA4ToNVVMPass
    : public fa4::impl::ConvertFA4ToNVVMBase<ConvertFA4ToNVVMPass> {
  using ConvertFA4ToNVVMBase::ConvertFA4ToNVVMBase;
  void runOnOperation() override;

private:
  LogicalResult checkLowerable(gpu::GPUModuleOp kernels);
};

/// Whether `op` is or holds fa4 kernel IR.
bool holdsFA4(Operation *op) {
  WalkResult found = op->walk([](Operation *nested) {
    if (isa<FA4Dialect>(nested->getDialect()))
      return WalkResult::interrupt();
    if (auto func = dyn_cast<gpu::GPUFuncOp>(nested))
      if (llvm::any_of(func.getArgumentTypes(), isFA4Type))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}
} // namespace

/// The tcgen05 instructions of one kernel must all name the same cta_group
/// (PTX ISA, tcgen05 "Matrix shape": a kernel mixing cta_group::1 and
/// cta_group::2 is undefined; LLVM's NVPTX backend rejects it too).
static LogicalResult checkOneCtaGroup(gpu::GPUModuleOp kernels) {
  for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
    Operation *first = nullptr;
    bool firstPair = false;
    WalkResult result = func.walk([&](Operation *op) {
      std::optional<bool> pair;
      if (auto alloc = dyn_cast<TmemAllocOp>(op))
        pair = alloc.getPair();
      else if (auto dealloc = dyn_cast<TmemDeallocOp>(op))
        pair = dealloc.getPair();
      else if (auto mma = dyn_cast<TmemMmaOp>(op))
        pair = mma.getPair();
      else if (auto commit = dyn_cast<TmemCommitOp>(op))
        pair = commit.getPair();
      if (!pair)
        return WalkResult::advance();
      if (!first) {
        first = op;
        firstPair = *pair;
        return WalkResult::advance();
      }
      if (*pair == firstPair)
        return WalkResult::advance();
      InFlightDiagnostic diag =
          op->emitOpError()
          << "is cta_group::" << (*pair ? 2 : 1)
          << " but the kernel's tcgen05 instructions are cta_group::"
          << (firstPair ? 2 : 1) << "; one kernel uses one cta_group";
      diag.attachNote(first->getLoc()) << "first tcgen05 instruction here";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

/// What the patterns assume, checked up front so that the user gets a
/// reason instead of a failed legalization or invalid IR.
LogicalResult ConvertFA4ToNVVMPass::checkLowerable(gpu::GPUModuleOp kernels) {
  if (ArrayAttr targets = kernels.getTargetsAttr())
    for (Attribute target : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
          nvvm && nvvm.getChip() != chip)
        return kernels.emitError()
               << "targets " << nvvm.getChip()
               << " but convert-fa4-to-nvvm lowers for chip=" << chip;
  if (Operation *symbol = SymbolTable::lookupSymbolIn(kernels, kSmemName);
      symbol && !isa<LLVM::GlobalOp>(symbol))
    return symbol->emitError()
           << "'" << kSmemName
           << "' is the fa4 kernels' dynamic shared memory; this module "
              "uses the name for something else";
  WalkResult result = kernels.walk([&](Operation *op) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (!holdsFA4(func))
        return WalkResult::advance();
      if (func.getNumWorkgroupAttributions() ||
          func.getNumPrivateAttributions()) {
        func.emitError() << "fa4 kernels place shared memory by the plan; "
                            "workgroup and private attributions are not "
                            "supported";
        return WalkResult::interrupt();
      }
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (!isFA4Type(type) && !LLVM::isCompatibleType(type)) {
          func.emitError() << "kernel argument " << index << " has type "
                           << type
                           << "; fa4 kernels take fa4 types and LLVM-"
                              "compatible scalars and pointers";
          return WalkResult::interrupt();
        }
    }
    bool sm100 = chip == "sm_100a";
    int64_t tileRows = sm100 ? 128 : 64;
    for (Type type : op->getResultTypes()) {
      int64_t rows = tileRows;
      if (auto frag = dyn_cast<FragType>(type))
        rows = frag.getRows();
      if (auto rowsType = dyn_cast<RowsType>(type))
        rows = rowsType.getRows();
      if (rows != tileRows) {
        op->emitOpError() << "produces " << type << "; " << chip << " lowers "
                          << tileRows << "-row tiles ("
                          << (sm100 ? "tcgen05 M = 128, a row per thread"
                                    : "wgmma M = 64")
                          << ")";
        return WalkResult::interrupt();
      }
    }
    bool stagesFromTmem =
        isa<EpilogueStageOp>(op) &&
        isa<TmemTileType>(cast<EpilogueStageOp>(op).getOut().getType());
    bool tmemOp =
        stagesFromTmem ||
        isa<TmemAllocOp, TmemDeallocOp, TmemTileOp, TmemMmaOp, TmemCommitOp,
            TmemLoadOp, TmemStoreOp, TmemFenceOp, TmemScaleRowsOp>(op);
    if (!sm100 && tmemOp) {
      op->emitOpError() << "uses tensor memory, which sm_90a does not have";
      return WalkResult::interrupt();
    }
    if (sm100 && isa<EpilogueStageOp>(op) && !stagesFromTmem) {
      op->emitOpError() << "stages a register frag; on sm_100a O is staged "
                           "from its TMEM tile";
      return WalkResult::interrupt();
    }
    if (sm100 && isa<MmaOp, MmaWaitOp>(op)) {
      op->emitOpError() << "is not lowered on sm_100a: accumulators live in "
                           "TMEM there (fa4.tmem.mma)";
      return WalkResult::interrupt();
    }
    if (sm100 && isa<SplitKStageOp>(op) &&
        !isa<TmemTileType>(cast<SplitKStageOp>(op).getOut().getType())) {
      op->emitOpError() << "stages a register frag; on sm_100a the partial "
                           "O is staged from its TMEM tile";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return checkOneCtaGroup(kernels);
}

void ConvertFA4ToNVVMPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  SmallVector<gpu::GPUModuleOp> kernelModules;
  module.walk([&](gpu::GPUModuleOp kernels) {
    if (holdsFA4(kernels))
      kernelModules.push_back(kernels);
  });
  if (kernelModules.empty())
    return;
  bool sm100 = chip == "sm_100a";
  if (chip != "sm_90a" && !sm100) {
    kernelModules.front().emitError()
        << "convert-fa4-to-nvvm: unknown chip '" << chip
        << "'; fa4 kernels lower to sm_90a (wgmma) or sm_100a (tcgen05)";
    return signalPassFailure();
  }
  for (gpu::GPUModuleOp kernels : kernelModules)
    if (failed(checkLowerable(kernels)))
      return signalPassFailure();
  OpBuilder b(context);
  for (gpu::GPUModuleOp kernels : kernelModules) {
    if (SymbolTable::lookupSymbolIn(kernels, kSmemName))
      continue;
    b.setInsertionPointToStart(kernels.getBody());
    LLVM::GlobalOp::create(b, kernels.getLoc(),
                           LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           kSmemName, Attribute(), /*alignment=*/1024,
                           /*addrSpace=*/3);
  }

  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](TensorMapType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](MBarrierType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 3);
  });
  converter.addConversion([](SmemTileType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  if (sm100) {
    populateSm100TypeConversions(converter);
  } else {
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
    converter.addConversion([](RowsType type, SmallVectorImpl<Type> &results)
                                -> std::optional<LogicalResult> {
      if (type.getRows() != 64)
        return failure();
      results.append(numRegisters(type), Float32Type::get(type.getContext()));
      return success();
    });
  }

  ConversionTarget target(*context);
  target.addIllegalDialect<FA4Dialect>();
  target.addLegalDialect<arith::ArithDialect, LLVM::LLVMDialect,
                         NVVM::NVVMDialect, gpu::GPUDialect>();
  target.addDynamicallyLegalOp<gpu::GPUFuncOp>(
      [](gpu::GPUFuncOp func) { return !holdsFA4(func); });
  target.addDynamicallyLegalOp<gpu::ReturnOp>(
      [](gpu::ReturnOp op) { return isa<gpu::GPUFuncOp>(op->getParentOp()); });
  RewritePatternSet patterns(context);
  // What both chips share: the kernel, roles, barriers, TMA, and the
  // layout-free frag ops.
  patterns.add<
      KernelFuncLowering, ReturnLowering, WarpSpecializeLowering,
      MBarrierGetLowering, MBarrierInitLowering, FenceMBarrierInitLowering,
      MBarrierArriveLowering, MBarrierExpectTxLowering, MBarrierWaitLowering,
      TmaLoadLowering, TmaStoreLowering, TmaStoreWaitLowering, SmemTileLowering,
      SplatLowering, ScaleRowsLowering, TruncFLowering, ClusterSyncLowering,
      SplitKCombineLowering, SplitKWorkspaceCombineLowering>(converter,
                                                             context);
  if (sm100)
    populateSm100Patterns(converter, patterns);
  else {
    patterns
        .add<MmaLowering, MmaWaitLowering, SoftmaxLowering, EpilogueLowering,
             EpilogueStageLowering, LseStoreLowering, SplitKStageLowering>(
            converter, context);
    patterns.add<MaskLowering>(converter, context, foldKeyBound);
  }
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  FrozenRewritePatternSet frozen(std::move(patterns));
  for (gpu::GPUModuleOp kernels : kernelModules)
    if (failed(applyPartialConversion(kernels, target, frozen)))
      return signalPassFailure();
}
