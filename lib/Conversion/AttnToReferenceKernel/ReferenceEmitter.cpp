//===- ReferenceEmitter.cpp - What the SIMT reference kernels share -------===//

#include "ReferenceEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace fa4;

Value ReferenceEmitter::load(Value base, Value index, Type elementType) {
  auto ptrType = cast<LLVM::LLVMPointerType>(base.getType());
  Value ptr = LLVM::GEPOp::create(b, loc, ptrType, elementType, base,
                                  ValueRange{index});
  return LLVM::LoadOp::create(b, loc, elementType, ptr);
}

void ReferenceEmitter::store(Value value, Value base, Value index) {
  auto ptrType = cast<LLVM::LLVMPointerType>(base.getType());
  Value ptr = LLVM::GEPOp::create(b, loc, ptrType, value.getType(), base,
                                  ValueRange{index});
  LLVM::StoreOp::create(b, loc, value, ptr);
}

Value ReferenceEmitter::columnIndex(Value rowBase, Value lane, int t,
                                    int64_t depth) {
  Value column = add(lane, i64(kReferenceWarpSize * t));
  if ((t + 1) * kReferenceWarpSize > depth)
    column = mins(column, i64(depth - 1));
  return add(rowBase, column);
}

Value ReferenceEmitter::columnValid(Value lane, int t, int64_t depth) {
  if ((t + 1) * kReferenceWarpSize <= depth)
    return {};
  return cmp(arith::CmpIPredicate::slt, add(lane, i64(kReferenceWarpSize * t)),
             i64(depth));
}

SmallVector<Value> ReferenceEmitter::loadRow(Value base, Value rowBase,
                                             Value lane, int64_t depth,
                                             Type type) {
  SmallVector<Value> columns;
  for (int t = 0; t < columnsPerLane(depth); ++t) {
    Value value = arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        load(base, columnIndex(rowBase, lane, t, depth), type));
    if (Value valid = columnValid(lane, t, depth))
      value = select(valid, value, f32(0.0));
    columns.push_back(value);
  }
  return columns;
}

void ReferenceEmitter::storeRow(ValueRange columns, Value base, Value rowBase,
                                Value lane, int64_t depth, Type type) {
  for (auto [t, column] : llvm::enumerate(columns)) {
    Value out = arith::TruncFOp::create(b, loc, type, column);
    Value index = columnIndex(rowBase, lane, t, depth);
    Value valid = columnValid(lane, t, depth);
    if (!valid) {
      store(out, base, index);
      continue;
    }
    auto ifValid = scf::IfOp::create(b, loc, valid, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifValid.thenBlock());
    store(out, base, index);
  }
}

Value ReferenceEmitter::rowDot(ValueRange x, ValueRange y) {
  Value partial = f32(0.0);
  for (auto [xt, yt] : llvm::zip_equal(x, y))
    partial = fma(xt, yt, partial);
  return warpSum(partial);
}

std::pair<Value, Value> ReferenceEmitter::softcapLog2(Value score, double cap) {
  double capLog2 = cap * M_LOG2E;
  Value tanh = LLVM::TanhOp::create(
      b, loc, fmul(score, f32(1.0 / capLog2)),
      LLVM::FastmathFlagsAttr::get(b.getContext(), LLVM::FastmathFlags::afn));
  return {fmul(f32(capLog2), tanh), tanh};
}

std::pair<Value, Value> ReferenceEmitter::visibleKeys(attn::MaskAttr mask,
                                                      Value row, Value seqQ,
                                                      Value seqKV) {
  Value diagonal = sub(add(row, seqKV), seqQ);
  Value first = i64(0);
  Value last = sub(seqKV, i64(1));
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

SmallVector<Type> fa4::referenceArgumentTypes(OpBuilder &b,
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

decltype(KernelABI::alignment)
fa4::referenceAlignment(ArrayRef<KernelParam> params,
                        ArrayRef<StringRef> sixteenBit) {
  decltype(KernelABI::alignment) alignment;
  for (const KernelParam &param : params) {
    if (param.kind != KernelParam::Kind::Pointer)
      continue;
    int64_t bytes =
        llvm::is_contained(sixteenBit, StringRef(param.name)) ? 2 : 4;
    alignment.push_back({param.name, {bytes, bytes}});
  }
  return alignment;
}

gpu::GPUFuncOp fa4::createReferenceFunc(OpBuilder &b, Location loc,
                                        gpu::GPUModuleOp kernels,
                                        StringRef name,
                                        ArrayRef<KernelParam> params) {
  b.setInsertionPointToEnd(kernels.getBody());
  auto func = gpu::GPUFuncOp::create(
      b, loc, name, b.getFunctionType(referenceArgumentTypes(b, params), {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {kReferenceWarpSize * kReferenceWarpsPerBlock, 1, 1}));
  return func;
}
