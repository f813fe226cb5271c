//===- InitAll.cpp - Register everything fa4 provides ---------------------===//

#include "fa4/InitAll.h"

#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Pipelines/Compile.h"
#include "fa4/Pipelines/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void fa4::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<fa4::attn::AttnDialect, fa4::kernel::FA4Dialect,
                  mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::linalg::LinalgDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::NVVM::NVVMDialect,
                  mlir::nvgpu::NVGPUDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect, mlir::tosa::TosaDialect,
                  mlir::vector::VectorDialect>();
  // ConvertToLLVM interfaces, the NVVM target attribute and the LLVM IR
  // translations that gpu-module-to-binary needs.
  mlir::registerAllExtensions(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void fa4::registerAllPasses() {
  mlir::registerAllPasses();
  fa4::attn::registerAttnPlanningPasses();
  fa4::registerFA4ConversionPasses();
  fa4::registerFA4PipelinesPasses();
  fa4::registerCompilePipeline();
}
