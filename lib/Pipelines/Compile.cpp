//===- Compile.cpp - The fa4-compile pipeline -----------------------------===//

#include "fa4/Pipelines/Compile.h"

#include "fa4/Conversion/Passes.h"
#include "fa4/Pipelines/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <tuple>

using namespace mlir;

static fa4::KernelKind resolvedKernel(const fa4::CompileOptions &options) {
  using fa4::KernelKind;
  if (options.kernel != KernelKind::Auto)
    return options.kernel;
  if (options.chip == "sm_90a")
    return KernelKind::Hopper;
  return options.chip == "sm_100a" ? KernelKind::Blackwell
                                   : KernelKind::Reference;
}

std::string fa4::describeKernel(attn::PlannedAttentionOpInterface op,
                                const CompileOptions &options) {
  KernelKind kernel = resolvedKernel(options);
  std::optional<std::string> refused;
  if (kernel == KernelKind::Hopper)
    refused = hopperKernelRefusal(op, options.deviceTensorMaps);
  if (kernel == KernelKind::Blackwell)
    refused = blackwellKernelRefusal(op, options.deviceTensorMaps);
  // A serving form's decode variant that no fast kernel takes is dropped
  // (convert-attn-to-fa4, convert-attn-to-reference-kernel).
  bool serving = !isa<attn::AttentionOp>(op.getOperation());
  if (serving && op->hasAttr(attn::kDecodeVariantOfAttrName) &&
      (refused || kernel == KernelKind::Reference))
    return "none: this decode variant is dropped, the kernel of the op it "
           "was made from serves every Sq";
  if (refused && options.kernel == KernelKind::Auto)
    return "the reference kernel (SIMT): the " +
           std::string(kernel == KernelKind::Hopper ? "Hopper" : "Blackwell") +
           " kernel does not implement this plan: " + *refused;
  switch (kernel) {
  case KernelKind::Hopper:
    return "the Hopper kernel (FA3's structure: TMA, wgmma, warp "
           "specialization)";
  case KernelKind::Blackwell:
    return "the Blackwell kernel (FA4's structure: tcgen05, tensor memory; "
           "proven on fa4-emu, not yet on a Blackwell GPU)";
  default:
    return "the reference kernel (SIMT)";
  }
}

void fa4::buildCompilePlanning(OpPassManager &pm,
                               const CompileOptions &options) {
  // The reference kernel has one plan for every shape.
  if (options.decodeVariants && options.seqQHint < 0 &&
      resolvedKernel(options) != KernelKind::Reference)
    pm.addPass(attn::createAttnDecodeVariants());
  attn::buildPlanPipeline(pm, options);
}

void fa4::buildCompilePipeline(OpPassManager &pm,
                               const CompileOptions &options) {
  buildCompilePlanning(pm, options);
  KernelKind kernel = resolvedKernel(options);

  // kernel=auto: the chip's kernel, and the reference kernel for the plans
  // it does not implement (MLA on sm_100a) and for the serving forms.
  bool referenceFallback =
      options.kernel == KernelKind::Auto &&
      (kernel == KernelKind::Blackwell || kernel == KernelKind::Hopper);
  if (kernel == KernelKind::Hopper || kernel == KernelKind::Blackwell) {
    ConvertAttnToFA4Options kernelOptions;
    ConvertFA4ToNVVMOptions nvvmOptions;
    auto lowering = std::tie(kernelOptions, nvvmOptions);
#define FA4_PASS_OPTION_USE(PASS, NAME)                                        \
  std::get<PASS##Options &>(lowering).NAME = options.NAME;
#include "fa4/Conversion/PassOptions.inc"
    kernelOptions.referenceFallback = referenceFallback;
    pm.addPass(createConvertAttnToFA4(kernelOptions));
    pm.addPass(createConvertFA4ToNVVM(nvvmOptions));
  }
  if (referenceFallback ||
      (kernel != KernelKind::Hopper && kernel != KernelKind::Blackwell)) {
    ConvertAttnToReferenceKernelOptions kernelOptions;
    kernelOptions.chip = options.chip;
    pm.addPass(createConvertAttnToReferenceKernel(kernelOptions));
  }

  // Upstream from here: the kernel module to NVVM/LLVM, then PTX.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // The binary says what it was compiled for (docs/KernelABI.md).
  pm.addPass(fa4::createEmbedAbiRecords());
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
}

LogicalResult fa4::verifyCompileOptions(const CompileOptions &options,
                                        llvm::raw_ostream &errors) {
  StringRef kernelChip = options.kernel == KernelKind::Hopper      ? "sm_90a"
                         : options.kernel == KernelKind::Blackwell ? "sm_100a"
                                                                   : "";
  if (kernelChip.empty() || options.chip == kernelChip)
    return success();
  errors << "kernel="
         << (options.kernel == KernelKind::Hopper ? "hopper" : "blackwell")
         << " builds " << kernelChip << " kernels, and chip is "
         << options.chip;
  return failure();
}

void fa4::registerCompilePipeline() {
  // registerPassPipeline rather than PassPipelineRegistration: the options
  // are checked together before a pipeline is built.
  auto build = [](OpPassManager &pm, StringRef text,
                  function_ref<LogicalResult(const Twine &)> errorHandler) {
    CompileOptions options;
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (failed(options.parseFromString(text, os)) ||
        failed(verifyCompileOptions(options, os)))
      return errorHandler("fa4-compile: " + errors);
    buildCompilePipeline(pm, options);
    return success();
  };
  registerPassPipeline(
      "fa4-compile",
      "Compile attn.attention to PTX: plan, lower to a kernel, serialize",
      build, [](function_ref<void(const detail::PassOptions &)> print) {
        print(CompileOptions());
      });
}
