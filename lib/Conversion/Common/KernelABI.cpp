//===- KernelABI.cpp - Kernel modules and the ABI record ------------------===//

#include "fa4/Conversion/KernelABI.h"

#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

std::pair<gpu::GPUModuleOp, std::string>
fa4::createKernelModule(ModuleOp module, Operation *op, StringRef prefix,
                        StringRef chip) {
  MLIRContext *context = module.getContext();
  OpBuilder b(context);
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  b.getUnitAttr());
  auto parent = op->getParentOfType<FunctionOpInterface>();
  std::string base =
      (prefix + "_" + (parent ? parent.getName() : StringRef("attention")) +
       "_" + chip)
          .str();
  std::string name = base;
  SymbolTable symbols(module);
  for (int repeat = 1; symbols.lookup(name + "_module"); ++repeat)
    name = base + "_" + std::to_string(repeat);
  // PTX ISA 8.6 is the first with sm_100a; it also covers sm_90a.
  auto target = NVVM::NVVMTargetAttr::get(
      context, /*optLevel=*/3, "nvptx64-nvidia-cuda", chip, "+ptx86");
  b.setInsertionPointToEnd(module.getBody());
  auto kernelModule = gpu::GPUModuleOp::create(
      b, module.getLoc(), name + "_module", b.getArrayAttr({target}));
  return {kernelModule, name};
}

using namespace fa4;
using namespace fa4::kernel;

static TensorMapAttr tensorMapAttr(MLIRContext *context,
                                   const TensorMapSpec &map) {
  return TensorMapAttr::get(context, map.tensor, map.box, map.swizzleBytes);
}

Attribute fa4::tensorMapScratchAttr(MLIRContext *context,
                                    ArrayRef<TensorMapSpec> maps) {
  return TensorMapScratchParamAttr::get(
      context, llvm::map_to_vector(maps, [&](const TensorMapSpec &map) {
        return tensorMapAttr(context, map);
      }));
}

SmallVector<TensorMapSpec> fa4::tensorMapsOf(Attribute scratch) {
  return llvm::map_to_vector(cast<TensorMapScratchParamAttr>(scratch).getMaps(),
                             [](TensorMapAttr map) {
                               return TensorMapSpec{map.getTensor().str(),
                                                    to_vector(map.getBox()),
                                                    map.getSwizzle()};
                             });
}

static Attribute paramAttr(Builder &b, const KernelParam &param) {
  MLIRContext *context = b.getContext();
  switch (param.kind) {
  case KernelParam::Kind::Pointer:
    return PointerParamAttr::get(context, param.name);
  case KernelParam::Kind::Workspace:
    return WorkspaceParamAttr::get(context);
  case KernelParam::Kind::I32:
    return ScalarParamAttr::get(context, b.getI32Type(), param.name);
  case KernelParam::Kind::I64:
    return ScalarParamAttr::get(context, b.getI64Type(), param.name);
  case KernelParam::Kind::F32:
    return ScalarParamAttr::get(context, b.getF32Type(), param.name);
  case KernelParam::Kind::TensorMap:
    return tensorMapAttr(context, param.maps.front());
  case KernelParam::Kind::MapScratch:
    return tensorMapScratchAttr(context, param.maps);
  }
  llvm_unreachable("every parameter kind is handled");
}

static ArrayAttr factorsAttr(Builder &b, ArrayRef<GridFactor> factors) {
  return b.getArrayAttr(
      llvm::map_to_vector(factors, [&](const GridFactor &factor) -> Attribute {
        if (factor.symbol.empty())
          return b.getI64IntegerAttr(factor.value);
        if (factor.ceilDiv)
          return CeilDivAttr::get(b.getContext(), factor.symbol, factor.value);
        return b.getStringAttr(factor.symbol);
      }));
}

static LaunchAttr launchAttr(Builder &b, const KernelLaunch &launch) {
  return LaunchAttr::get(
      b.getContext(),
      b.getArrayAttr(llvm::map_to_vector(
          launch.params,
          [&](const KernelParam &param) { return paramAttr(b, param); })),
      b.getArrayAttr(
          llvm::map_to_vector(launch.grid,
                              [&](const GridFactors &dim) -> Attribute {
                                return factorsAttr(b, dim);
                              })),
      launch.block, launch.cluster, launch.dynamicSmemBytes);
}

void fa4::setKernelABI(Operation *op, gpu::GPUModuleOp kernelModule,
                       StringRef kernelName, const KernelABI &abi) {
  Builder b(op->getContext());
  MLIRContext *context = op->getContext();
  SmallVector<NamedAttribute> alignment;
  for (const auto &[tensor, rule] : abi.alignment)
    alignment.push_back(b.getNamedAttr(
        tensor, AlignmentAttr::get(context, rule.baseBytes, rule.strideBytes)));
  auto kernelRef = [&](StringRef name) {
    return SymbolRefAttr::get(kernelModule.getSymNameAttr(),
                              {FlatSymbolRefAttr::get(context, name)});
  };
  PersistentAttr persistent;
  if (const auto &rule = abi.persistent)
    persistent = PersistentAttr::get(
        context, rule->ctasPerSM, rule->maxSeqKV,
        rule->twinKernel.empty() ? SymbolRefAttr()
                                 : kernelRef(rule->twinKernel),
        rule->twinLaunch ? launchAttr(b, *rule->twinLaunch) : LaunchAttr());
  CombineAttr combine;
  if (abi.combine) {
    SplitAtLaunchAttr splitAtLaunch;
    if (const auto &rule = abi.splitAtLaunch)
      splitAtLaunch = SplitAtLaunchAttr::get(
          context, rule->maxPartitions, rule->minKeysPerPartition,
          rule->keyTile, rule->minPartitions);
    combine = CombineAttr::get(context, kernelRef(abi.combine->kernel),
                               factorsAttr(b, abi.workspaceBytes),
                               launchAttr(b, *abi.combine), splitAtLaunch);
  }
  op->setAttr(
      FA4Dialect::kKernelABIAttrName,
      KernelABIAttr::get(context, kernelRef(kernelName), launchAttr(b, abi),
                         b.getDictionaryAttr(alignment),
                         abi.programmaticDependentLaunch, persistent, combine));
}
