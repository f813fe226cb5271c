//===- ReferenceEmitter.h - What the SIMT reference kernels share -*- C++ -*-//
//
// The reference kernels (the forward's, AttnToReferenceKernel.cpp, and the
// backward's, BackwardKernel.cpp) give a warp one row of a BSHD tensor:
// lane `l` owns depth columns l, l + 32, l + 64, ... . This is their common
// vocabulary: scalar global loads and stores, a row's columns, the keys a
// query row sees, and the kernel function's signature and alignment rules.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_ATTNTOREFERENCEKERNEL_REFERENCEEMITTER_H
#define LIB_CONVERSION_ATTNTOREFERENCEKERNEL_REFERENCEEMITTER_H

#include "../Common/KernelEmitter.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace fa4 {

inline constexpr int kReferenceWarpSize = 32;
inline constexpr int kReferenceWarpsPerBlock = 4;

class ReferenceEmitter : public KernelEmitter {
public:
  using KernelEmitter::KernelEmitter;

  mlir::Value load(mlir::Value base, mlir::Value index, mlir::Type elementType);
  void store(mlir::Value value, mlir::Value base, mlir::Value index);
  /// An i32 element of `base`, sign-extended to i64.
  mlir::Value loadIndex(mlir::Value base, mlir::Value index) {
    return sext(load(base, index, b.getI32Type()));
  }
  mlir::Value toI64FromIndex(mlir::Value index) {
    return indexTo(b.getI64Type(), index);
  }
  mlir::Value clamp(mlir::Value v, mlir::Value low, mlir::Value high) {
    return mins(maxs(v, low), high);
  }
  /// Offset of column `lane + 32 t` of the row at `rowBase`; columns past
  /// `depth` are clamped (their value is masked later).
  mlir::Value columnIndex(mlir::Value rowBase, mlir::Value lane, int t,
                          int64_t depth);
  /// Whether column `lane + 32 t` exists; null when it always does.
  mlir::Value columnValid(mlir::Value lane, int t, int64_t depth);
  /// This lane's columns of the row at `rowBase` of `depth` elements of
  /// `type`, in f32 (0 past `depth`).
  llvm::SmallVector<mlir::Value> loadRow(mlir::Value base, mlir::Value rowBase,
                                         mlir::Value lane, int64_t depth,
                                         mlir::Type type);
  /// Stores this lane's `columns` (f32) of the row at `rowBase`, as `type`.
  void storeRow(mlir::ValueRange columns, mlir::Value base, mlir::Value rowBase,
                mlir::Value lane, int64_t depth, mlir::Type type);
  /// sum over this lane's columns of x * y, summed over the warp.
  mlir::Value rowDot(mlir::ValueRange x, mlir::ValueRange y);
  /// Logit softcapping of a score in the exp2 domain (s log2 e): c tanh(s /
  /// c) log2 e, and the tanh (whose 1 - tanh^2 is the cap's derivative).
  std::pair<mlir::Value, mlir::Value> softcapLog2(mlir::Value score,
                                                  double cap);
  /// Keys query row `row` sees under `mask` (bottom-right aligned: the
  /// diagonal at row + seqKV - seqQ): [first, end); empty when end <= first.
  std::pair<mlir::Value, mlir::Value> visibleKeys(attn::MaskAttr mask,
                                                  mlir::Value row,
                                                  mlir::Value seqQ,
                                                  mlir::Value seqKV);
};

/// Columns of a `depth`-wide row each lane holds.
inline int columnsPerLane(int64_t depth) {
  return static_cast<int>(llvm::divideCeil(depth, kReferenceWarpSize));
}

/// The kernel function's argument types, in `params` order.
llvm::SmallVector<mlir::Type>
referenceArgumentTypes(mlir::OpBuilder &b, llvm::ArrayRef<KernelParam> params);

/// Scalar loads only: each tensor aligned to its element (4 bytes for f32
/// and i32 tensors, 2 for the 16-bit ones, named in `sixteenBit`).
decltype(KernelABI::alignment)
referenceAlignment(llvm::ArrayRef<KernelParam> params,
                   llvm::ArrayRef<llvm::StringRef> sixteenBit);

/// A `gpu.func` kernel named `name` in `kernels`, of `params`, launched
/// with kReferenceWarpsPerBlock warps.
mlir::gpu::GPUFuncOp createReferenceFunc(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::gpu::GPUModuleOp kernels,
                                         llvm::StringRef name,
                                         llvm::ArrayRef<KernelParam> params);

/// Lowers `op` to the SIMT backward kernel (BackwardKernel.cpp) for `chip`.
void lowerBackwardToReference(mlir::ModuleOp module,
                              attn::AttentionBackwardOp op,
                              llvm::StringRef chip);

} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOREFERENCEKERNEL_REFERENCEEMITTER_H
