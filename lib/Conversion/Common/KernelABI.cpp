//===- KernelABI.cpp - Kernel modules and the ABI record ------------------===//

#include "fa4/Conversion/KernelABI.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

std::pair<gpu::GPUModuleOp, std::string>
fa4::createKernelModule(ModuleOp module, attn::AttentionOp op, StringRef prefix,
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

fa4::TensorMapSpec fa4::parseTensorMapSpec(StringRef text) {
  SmallVector<StringRef> parts, extents;
  text.split(parts, ':');
  TensorMapSpec spec;
  spec.tensor = parts[0].str();
  parts[1].split(extents, 'x');
  for (StringRef extent : extents)
    (void)extent.getAsInteger(10, spec.box.emplace_back());
  (void)parts[2].getAsInteger(10, spec.swizzleBytes);
  return spec;
}

void fa4::setKernelABI(attn::AttentionOp op, gpu::GPUModuleOp kernelModule,
                       StringRef kernelName, const KernelABI &abi) {
  Builder b(op.getContext());
  SmallVector<NamedAttribute> alignment;
  for (const auto &[tensor, rule] : abi.alignment)
    alignment.push_back(b.getNamedAttr(
        tensor, b.getDenseI64ArrayAttr({rule.baseBytes, rule.strideBytes})));
  auto gridAttr = [&](ArrayRef<SmallVector<std::string>> dims) {
    SmallVector<Attribute> grid;
    for (const auto &factors : dims)
      grid.push_back(b.getStrArrayAttr(llvm::to_vector_of<StringRef>(factors)));
    return b.getArrayAttr(grid);
  };
  auto strings = [&](ArrayRef<std::string> values) {
    return b.getStrArrayAttr(llvm::to_vector_of<StringRef>(values));
  };
  auto kernelRef = [&](StringRef name) {
    return SymbolRefAttr::get(kernelModule.getSymNameAttr(),
                              {FlatSymbolRefAttr::get(op.getContext(), name)});
  };
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("kernel", kernelRef(kernelName)),
      b.getNamedAttr("params", strings(abi.params)),
      b.getNamedAttr("grid", gridAttr(abi.grid)),
      b.getNamedAttr("block", b.getDenseI64ArrayAttr(abi.block)),
      b.getNamedAttr("cluster", b.getDenseI64ArrayAttr(abi.cluster)),
      b.getNamedAttr("dynamic_smem_bytes",
                     b.getI64IntegerAttr(abi.dynamicSmemBytes)),
      b.getNamedAttr("alignment", b.getDictionaryAttr(alignment))};
  if (abi.programmaticDependentLaunch)
    entries.push_back(
        b.getNamedAttr("programmatic_dependent_launch", b.getUnitAttr()));
  if (abi.persistent) {
    SmallVector<NamedAttribute> rule = {
        b.getNamedAttr("ctas_per_sm",
                       b.getI64IntegerAttr(abi.persistent->ctasPerSM)),
        b.getNamedAttr("max_seq_kv",
                       b.getI64IntegerAttr(abi.persistent->maxSeqKV))};
    if (!abi.persistent->twinKernel.empty())
      rule.push_back(
          b.getNamedAttr("kernel", kernelRef(abi.persistent->twinKernel)));
    if (const auto &own = abi.persistent->twinLaunch)
      rule.push_back(b.getNamedAttr(
          "launch",
          b.getDictionaryAttr(
              {b.getNamedAttr("params", strings(own->params)),
               b.getNamedAttr("grid", gridAttr(own->grid)),
               b.getNamedAttr("block", b.getDenseI64ArrayAttr(own->block)),
               b.getNamedAttr("cluster", b.getDenseI64ArrayAttr(own->cluster)),
               b.getNamedAttr("dynamic_smem_bytes",
                              b.getI64IntegerAttr(own->dynamicSmemBytes))})));
    entries.push_back(b.getNamedAttr("persistent", b.getDictionaryAttr(rule)));
  }
  if (abi.combine) {
    entries.push_back(
        b.getNamedAttr("workspace_bytes", strings(abi.workspaceBytes)));
    entries.push_back(b.getNamedAttr(
        "combine",
        b.getDictionaryAttr(
            {b.getNamedAttr("kernel", kernelRef(abi.combine->kernel)),
             b.getNamedAttr("params", strings(abi.combine->params)),
             b.getNamedAttr("grid", gridAttr(abi.combine->grid)),
             b.getNamedAttr("block",
                            b.getDenseI64ArrayAttr(abi.combine->block))})));
  }
  if (const auto &rule = abi.splitAtLaunch)
    entries.push_back(b.getNamedAttr(
        "split_at_launch",
        b.getDictionaryAttr(
            {b.getNamedAttr("max_partitions",
                            b.getI64IntegerAttr(rule->maxPartitions)),
             b.getNamedAttr("min_keys_per_partition",
                            b.getI64IntegerAttr(rule->minKeysPerPartition)),
             b.getNamedAttr("key_tile", b.getI64IntegerAttr(rule->keyTile)),
             b.getNamedAttr("min_partitions",
                            b.getI64IntegerAttr(rule->minPartitions))})));
  op->setAttr("fa4.abi", b.getDictionaryAttr(entries));
}
