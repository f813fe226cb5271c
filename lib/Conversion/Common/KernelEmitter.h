//===- KernelEmitter.h - Scalar helpers of the kernel emitters --*- C++ -*-===//
//
// The small vocabulary every attn.attention kernel emitter writes with:
// constants, integer and float arithmetic, index casts, the MUFU exp2/log2,
// and warp shuffles. Emitters derive from it and add what is theirs.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_COMMON_KERNELEMITTER_H
#define LIB_CONVERSION_COMMON_KERNELEMITTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace fa4 {

class KernelEmitter {
public:
  KernelEmitter(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::Value i32(int64_t v) {
    return mlir::arith::ConstantIntOp::create(b, loc, v, 32);
  }
  mlir::Value i64(int64_t v) {
    return mlir::arith::ConstantIntOp::create(b, loc, v, 64);
  }
  mlir::Value boolean(bool v) {
    return mlir::arith::ConstantIntOp::create(b, loc, v, 1);
  }
  mlir::Value f32(double v) {
    return mlir::arith::ConstantFloatOp::create(
        b, loc, b.getF32Type(), llvm::APFloat(static_cast<float>(v)));
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddIOp::create(b, loc, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return mlir::arith::SubIOp::create(b, loc, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return mlir::arith::MulIOp::create(b, loc, x, y);
  }
  mlir::Value divu(mlir::Value x, mlir::Value y) {
    return mlir::arith::DivUIOp::create(b, loc, x, y);
  }
  mlir::Value remu(mlir::Value x, mlir::Value y) {
    return mlir::arith::RemUIOp::create(b, loc, x, y);
  }
  mlir::Value mins(mlir::Value x, mlir::Value y) {
    return mlir::arith::MinSIOp::create(b, loc, x, y);
  }
  mlir::Value maxs(mlir::Value x, mlir::Value y) {
    return mlir::arith::MaxSIOp::create(b, loc, x, y);
  }
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpIOp::create(b, loc, p, x, y);
  }
  mlir::Value ltu(mlir::Value x, mlir::Value y) {
    return cmp(mlir::arith::CmpIPredicate::ult, x, y);
  }
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y) {
    return mlir::arith::SelectOp::create(b, loc, c, x, y);
  }
  mlir::Value fmul(mlir::Value x, mlir::Value y) {
    return mlir::arith::MulFOp::create(b, loc, x, y);
  }
  mlir::Value fadd(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddFOp::create(b, loc, x, y);
  }
  mlir::Value fsub(mlir::Value x, mlir::Value y) {
    return mlir::arith::SubFOp::create(b, loc, x, y);
  }
  mlir::Value fmax(mlir::Value x, mlir::Value y) {
    return mlir::arith::MaximumFOp::create(b, loc, x, y);
  }
  /// fma(x, y, z) as llvm.intr.fma: math.fma would become a libdevice call
  /// in convert-gpu-to-nvvm, and serialization would then need libdevice.
  mlir::Value fma(mlir::Value x, mlir::Value y, mlir::Value z) {
    return mlir::LLVM::FMAOp::create(b, loc, x, y, z);
  }
  mlir::Value toIndex(mlir::Value v) {
    return mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }
  mlir::Value indexTo(mlir::Type type, mlir::Value v) {
    return mlir::arith::IndexCastOp::create(b, loc, type, v);
  }
  mlir::Value sext(mlir::Value v) {
    return mlir::arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
  }

  /// Orders this thread's shared-memory writes before the async proxy's
  /// (TMA, wgmma) reads that a barrier after it hands them to.
  void fenceAsyncProxy() {
    mlir::NVVM::FenceProxyOp::create(
        b, loc, mlir::NVVM::ProxyKind::async_shared,
        mlir::NVVM::SharedSpaceAttr::get(b.getContext(),
                                         mlir::NVVM::SharedSpace::shared_cta));
  }

  /// Named barrier `id` of the CTA (bar.sync): waits until `threads`
  /// threads, whole warps, have arrived.
  void syncNamedBarrier(mlir::Value id, mlir::Value threads) {
    mlir::NVVM::BarrierOp::create(b, loc, mlir::Type(), id, threads,
                                  mlir::NVVM::BarrierReductionAttr(),
                                  mlir::Value());
  }

  // MUFU ex2/lg2 directly: convert-gpu-to-nvvm would turn math.exp2 into a
  // libdevice call, and NVPTX has no libcall for llvm.log2.f32.
  mlir::Value callF32Intrinsic(llvm::StringRef name, mlir::Value v) {
    return mlir::LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                               b.getStringAttr(name),
                                               mlir::ValueRange{v})
        .getResult(0);
  }
  mlir::Value exp2(mlir::Value v) {
    return callF32Intrinsic("llvm.nvvm.ex2.approx.f32", v);
  }
  /// exp2 that flushes subnormal results to 0: one MUFU.EX2. Without .ftz
  /// ptxas guards every ex2 for a subnormal result (a compare and two
  /// predicated multiplies), which in the softmax is ~28% of a consumer's
  /// instructions per K/V tile (d = 128, BN = 176). A probability below
  /// 2^-126 of the row's largest is invisible in O either way.
  mlir::Value exp2FlushSubnormals(mlir::Value v) {
    return callF32Intrinsic("llvm.nvvm.ex2.approx.ftz.f32", v);
  }
  mlir::Value log2(mlir::Value v) {
    return callF32Intrinsic("llvm.nvvm.lg2.approx.f", v);
  }
  /// Butterfly exchange with lane `lane ^ offset` of the warp.
  mlir::Value shuffleXor(mlir::Value v, int offset) {
    return mlir::gpu::ShuffleOp::create(b, loc, v, offset, /*width=*/32,
                                        mlir::gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
  /// `v` summed, or its max, over the 32 lanes of a warp (butterfly: every
  /// lane gets the result).
  mlir::Value warpSum(mlir::Value v) {
    for (int offset = 16; offset >= 1; offset /= 2)
      v = fadd(v, shuffleXor(v, offset));
    return v;
  }
  mlir::Value warpMax(mlir::Value v) {
    for (int offset = 16; offset >= 1; offset /= 2)
      v = fmax(v, shuffleXor(v, offset));
    return v;
  }

  /// Lane `lane`'s `v`, in every lane.
  mlir::Value laneValue(mlir::Value v, int lane) {
    return mlir::gpu::ShuffleOp::create(b, loc, v, lane, /*width=*/32,
                                        mlir::gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }
  /// Lane 0's `v`, in every lane. For a value that is warp-uniform already
  /// (the warpgroup index tid / 128), this tells ptxas so, as CUTLASS's
  /// canonical_warp_group_idx does: what is derived from it can live in
  /// uniform registers, and branches on it do not diverge.
  mlir::Value broadcastFromLane0(mlir::Value v) { return laneValue(v, 0); }

  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace fa4

#endif // LIB_CONVERSION_COMMON_KERNELEMITTER_H
