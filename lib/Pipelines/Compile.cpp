//===- Compile.cpp - The fa4-compile pipeline -----------------------------===//

#include "fa4/Pipelines/Compile.h"

#include "fa4/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

static fa4::KernelKind resolvedKernel(const fa4::CompileOptions &options) {
  using fa4::KernelKind;
  if (options.kernel != KernelKind::Auto)
    return options.kernel;
  return options.chip == "sm_90a" ? KernelKind::FA3 : KernelKind::Reference;
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

  // sm_100a keeps the reference kernel by default until the FA4 kernel has
  // run on a Blackwell GPU.
  if (kernel == KernelKind::FA3 || kernel == KernelKind::FA4) {
    ConvertAttnToFA4Options kernelOptions;
    kernelOptions.pingPong = options.pingPong;
    kernelOptions.persistent = options.persistent;
    kernelOptions.persistentMaxSeqKV = options.persistentMaxSeqKV;
    kernelOptions.intraWgOverlap = options.intraWgOverlap;
    kernelOptions.lazyRescale = options.lazyRescale;
    kernelOptions.tmaStoreO = options.tmaStoreO;
    kernelOptions.fuseWorkTiles = options.fuseWorkTiles;
    kernelOptions.narrowLastPV = options.narrowLastPV;
    kernelOptions.l2EvictionHints = options.l2EvictionHints;
    kernelOptions.twinOwnTiles = options.twinOwnTiles;
    kernelOptions.loopProducerRegisters = options.loopProducerRegisters;
    kernelOptions.kvMulticast = options.kvMulticast;
    kernelOptions.kvMulticastTwin = options.kvMulticastTwin;
    kernelOptions.kvMulticastCausal = options.kvMulticastCausal;
    kernelOptions.kvMulticastCausalMinSeqKV = options.kvMulticastCausalMinSeqKV;
    kernelOptions.polyExp2Period = options.polyExp2Period;
    kernelOptions.softmaxReductionChains = options.softmaxReductionChains;
    kernelOptions.l2SectionBytes = options.l2SectionBytes;
    kernelOptions.pairRowBlocks = options.pairRowBlocks;
    kernelOptions.trace = options.trace;
    kernelOptions.persistentDecode = options.persistentDecode;
    kernelOptions.structure = kernel == KernelKind::FA3 ? "fa3" : "fa4";
    pm.addPass(createConvertAttnToFA4(kernelOptions));
    ConvertFA4ToNVVMOptions nvvmOptions;
    nvvmOptions.chip = options.chip;
    nvvmOptions.foldKeyBound = options.foldKeyBound;
    pm.addPass(createConvertFA4ToNVVM(nvvmOptions));
  } else {
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
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
}

void fa4::registerCompilePipeline() {
  PassPipelineRegistration<CompileOptions>(
      "fa4-compile",
      "Compile attn.attention to PTX: plan, lower to a kernel, serialize",
      buildCompilePipeline);
}
