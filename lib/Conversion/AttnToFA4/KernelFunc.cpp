//===- KernelFunc.cpp - The attention kernel's signature ------------------===//

#include "KernelFunc.h"

#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace fa4;

std::string fa4::tmaBox(int64_t rows, int64_t heads) {
  return ("1x" + Twine(rows) + "x" + Twine(heads) + "x64:128").str();
}

SmallVector<std::string> fa4::attentionParams(StringRef qBox, StringRef kvBox,
                                              bool hasLse) {
  SmallVector<std::string> params = {("tmap:q:" + qBox).str(),
                                     ("tmap:k:" + kvBox).str(),
                                     ("tmap:v:" + kvBox).str(), "ptr:o"};
  if (hasLse)
    params.push_back("ptr:lse");
  params.append({"i32:b", "i32:sq", "i32:skv", "i64:o.stride.0",
                 "i64:o.stride.1", "i64:o.stride.2"});
  if (hasLse)
    params.append({"i64:lse.stride.0", "i64:lse.stride.1"});
  params.push_back("f32:scale_log2");
  return params;
}

FailureOr<ClusterSplit> fa4::readClusterSplit(attn::AttentionOp op) {
  ClusterSplit split;
  attn::SplitKAttr splitk = op.getSplitkAttr();
  if (!splitk || splitk.getMode() == attn::SplitKMode::None)
    return split;
  if (splitk.getMode() == attn::SplitKMode::Workspace)
    return op.emitOpError()
           << "has a workspace split-K plan (" << splitk.getPartitions()
           << " partitions, beyond one cluster); only the cluster reduce-"
              "scatter (cluster_dsmem) is lowered";
  split.partitions = splitk.getPartitions();
  split.band = splitk.getBandColumns();
  split.stagingOffset = op.getSmemAttr().toPlan().splitKStaging.offset;
  int64_t ovDepth = op.getConfigAttr().getOvDepth();
  if (split.partitions > 1 &&
      (split.band % 2 || split.band * split.partitions < ovDepth ||
       split.partitions > 16))
    return op.emitOpError() << "has a cluster split-K plan the kernel does "
                               "not implement (it needs at most 16 "
                               "partitions and even bands covering Dv): "
                            << splitk;
  return split;
}

void fa4::setAttentionAlignment(KernelABI &abi, bool hasLse) {
  abi.alignment = {
      {"q", {16, 16}}, {"k", {16, 16}}, {"v", {16, 16}}, {"o", {4, 4}}};
  if (hasLse)
    abi.alignment.push_back({"lse", {4, 4}});
}

gpu::GPUFuncOp fa4::createKernelFunc(OpBuilder &b, Location loc, StringRef name,
                                     ArrayRef<std::string> params,
                                     int64_t threads) {
  MLIRContext *context = b.getContext();
  SmallVector<Type> argTypes;
  for (StringRef param : params) {
    StringRef kind = param.split(':').first;
    argTypes.push_back(
        kind == "tmap"  ? Type(kernel::TensorMapType::get(context))
        : kind == "ptr" ? Type(LLVM::LLVMPointerType::get(context, 1))
        : kind == "i32" ? Type(b.getI32Type())
        : kind == "i64" ? Type(b.getI64Type())
                        : Type(b.getF32Type()));
  }
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  return func;
}

AttentionArgs AttentionArgs::read(gpu::GPUFuncOp func, bool hasLse) {
  AttentionArgs args;
  unsigned arg = 0;
  args.qMap = func.getArgument(arg++);
  args.kMap = func.getArgument(arg++);
  args.vMap = func.getArgument(arg++);
  args.outPtr = func.getArgument(arg++);
  if (hasLse)
    args.lsePtr = func.getArgument(arg++);
  args.batchSize = func.getArgument(arg++);
  args.seqQ = func.getArgument(arg++);
  args.seqKV = func.getArgument(arg++);
  for (int dim = 0; dim < 3; ++dim)
    args.outStride.push_back(func.getArgument(arg++));
  if (hasLse)
    for (int dim = 0; dim < 2; ++dim)
      args.lseStride.push_back(func.getArgument(arg++));
  args.scaleLog2 = func.getArgument(arg++);
  return args;
}

void fa4::setDecodeGrid(KernelABI &abi, int64_t partitions, int64_t rowGroup,
                        int64_t queryRowsPerTile) {
  abi.grid = {{std::to_string(partitions)},
              {rowGroup > 1 ? "hkv" : "hq"},
              {"b", ("ceil_div:sq:" + llvm::Twine(queryRowsPerTile)).str()}};
  abi.cluster[0] = partitions;
}
