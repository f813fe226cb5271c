//===- LoweringEmitter.h - What every fa4 op lowering builds with -*- C++
//-*-===//
//
// Shared by the sm_90a (wgmma) and sm_100a (tcgen05) patterns of
// convert-fa4-to-nvvm: the kernel's dynamic shared memory, the thread's place
// in its warpgroup, 16-bit packing, and the 1:N frag values.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_FA4TONVVM_LOWERINGEMITTER_H
#define LIB_CONVERSION_FA4TONVVM_LOWERINGEMITTER_H

#include "../Common/KernelEmitter.h"
#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fa4 {

/// The kernel module's dynamic shared memory: an external, unsized array at
/// 1024-byte alignment (what the 128B swizzle pattern repeats on).
constexpr llvm::StringLiteral kSmemName = "fa4_dynamic_smem";

inline bool isFA4Type(mlir::Type type) {
  return llvm::isa<kernel::FA4Dialect>(type.getDialect());
}

inline llvm::SmallVector<mlir::Value> flatten(mlir::ValueRange values) {
  return llvm::SmallVector<mlir::Value>(values.begin(), values.end());
}

class LoweringEmitter : public KernelEmitter {
public:
  LoweringEmitter(mlir::OpBuilder &b, mlir::Operation *op)
      : KernelEmitter(b, op->getLoc()), op(op) {}

  /// Values that depend on nothing but the thread are built once, at the
  /// top of the kernel (CSE merges the copies each pattern makes): computed
  /// at each use inside the K/V loop they cost registers ptxas then spills.
  template <typename Fn> mlir::Value atKernelEntry(Fn build) {
    mlir::OpBuilder::InsertionGuard guard(b);
    mlir::Operation *func = op->getParentOfType<mlir::LLVM::LLVMFuncOp>();
    if (!func)
      func = op->getParentOfType<mlir::gpu::GPUFuncOp>();
    if (func)
      b.setInsertionPointToStart(&func->getRegion(0).front());
    return build();
  }

  mlir::Value smemBase() {
    return atKernelEntry([&] {
      auto global =
          mlir::SymbolTable::lookupNearestSymbolFrom<mlir::LLVM::GlobalOp>(
              op, mlir::StringAttr::get(op->getContext(), kSmemName));
      return mlir::LLVM::AddressOfOp::create(b, loc, global);
    });
  }
  mlir::Value smemPtr(mlir::Value byteOffset) {
    mlir::Value base = smemBase();
    return mlir::LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(),
                                     base, mlir::ValueRange{byteOffset});
  }
  /// The 32-bit shared-window address of byte `byteOffset`.
  mlir::Value smemAddress(mlir::Value byteOffset) {
    mlir::Value base = smemBase();
    mlir::Value address = atKernelEntry([&]() -> mlir::Value {
      b.setInsertionPointAfterValue(base);
      return mlir::arith::TruncIOp::create(
          b, loc, b.getI32Type(),
          mlir::LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), base));
    });
    return add(address, byteOffset);
  }

  /// This thread's index in its warpgroup, lane and warp.
  mlir::Value threadInGroup() {
    return atKernelEntry([&] {
      mlir::Value tid = indexTo(
          b.getI32Type(),
          mlir::gpu::ThreadIdOp::create(b, loc, mlir::gpu::Dimension::x));
      return remu(tid, i32(kernel::kWarpgroupThreads));
    });
  }
  mlir::Value lane() {
    mlir::Value thread = threadInGroup();
    return atKernelEntry([&]() -> mlir::Value {
      b.setInsertionPointAfterValue(thread);
      return remu(thread, i32(32));
    });
  }

  /// Two f32 as one 32-bit register of two 16-bit values, `low` in bits 0-15
  /// (the column with the smaller index, as wgmma's A fragment expects).
  mlir::Value packPair(mlir::Value low, mlir::Value high,
                       mlir::Type elementType) {
    auto pairType = mlir::VectorType::get({2}, b.getF32Type());
    mlir::Value pair = mlir::LLVM::UndefOp::create(b, loc, pairType);
    pair = mlir::LLVM::InsertElementOp::create(b, loc, pair, low, i32(0));
    pair = mlir::LLVM::InsertElementOp::create(b, loc, pair, high, i32(1));
    mlir::Value narrow = mlir::arith::TruncFOp::create(
        b, loc, mlir::VectorType::get({2}, elementType), pair);
    return mlir::LLVM::BitcastOp::create(b, loc, b.getI32Type(), narrow);
  }

protected:
  mlir::Operation *op;
};

} // namespace fa4

#endif // LIB_CONVERSION_FA4TONVVM_LOWERINGEMITTER_H
