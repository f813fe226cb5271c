//===- Compiler.cpp - C API of the fa4 compiler ---------------------------===//

#include "fa4-c/Compiler.h"

#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/InitAll.h"
#include "fa4/Pipelines/Compile.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Attn, attn, fa4::attn::AttnDialect)

void fa4RegisterAllDialects(MlirDialectRegistry registry) {
  fa4::registerAllDialects(*unwrap(registry));
}

void fa4RegisterAllPasses(void) { fa4::registerAllPasses(); }

MlirLogicalResult fa4BuildCompilePipeline(MlirOpPassManager pm,
                                          MlirStringRef options,
                                          MlirStringCallback errorCallback,
                                          void *userData) {
  std::unique_ptr<fa4::CompileOptions> parsed =
      fa4::CompileOptions::createFromString(unwrap(options));
  if (!parsed) {
    detail::CallbackOstream stream(errorCallback, userData);
    stream << "fa4-compile: invalid options '" << unwrap(options) << "'";
    stream.flush();
    return mlirLogicalResultFailure();
  }
  fa4::buildCompilePipeline(*unwrap(pm), *parsed);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult fa4WriteArtifacts(MlirModule module, MlirStringRef outputDir,
                                    MlirStringRef ptxasPath,
                                    MlirStringCallback kernelCallback,
                                    void *userData) {
  FailureOr<SmallVector<fa4::KernelArtifacts>> written =
      fa4::writeArtifacts(unwrap(module), unwrap(outputDir), unwrap(ptxasPath));
  if (failed(written))
    return mlirLogicalResultFailure();
  for (const fa4::KernelArtifacts &kernel : *written)
    kernelCallback(mlirStringRefCreate(kernel.manifestPath.data(),
                                       kernel.manifestPath.size()),
                   userData);
  return mlirLogicalResultSuccess();
}
