/*===-- fa4-c/Compiler.h - C API of the fa4 compiler ---------------*- C
-*-===*\
|*                                                                            *|
|* For compilers that embed fa4 through MLIR's C API: the attn dialect, the  *|
|* registration of fa4's passes, the fa4-compile pipeline, and the artifact  *|
|* writer (PTX, cubin, manifest.json). The runtime's C API is separate       *|
|* (runtime/include/fa4-c/Runtime.h) and needs no MLIR.                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FA4_C_COMPILER_H
#define FA4_C_COMPILER_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__attn__(): the attn dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Attn, attn);

/// Inserts attn and the upstream dialects, extensions and LLVM IR
/// translations the pipeline lowers through.
MLIR_CAPI_EXPORTED void fa4RegisterAllDialects(MlirDialectRegistry registry);

/// Registers fa4's passes and pipelines (attn-plan-pipeline, fa4-compile)
/// and the upstream passes they use, for textual pipelines.
MLIR_CAPI_EXPORTED void fa4RegisterAllPasses(void);

/// Appends the fa4-compile pipeline to `pm` (anchored on builtin.module).
/// `options` uses the textual form, e.g. "chip=sm_90a seq-kv-hint=8192";
/// on a bad option, `errorCallback` receives the message and the result is
/// failure.
MLIR_CAPI_EXPORTED MlirLogicalResult
fa4BuildCompilePipeline(MlirOpPassManager pm, MlirStringRef options,
                        MlirStringCallback errorCallback, void *userData);

/// After the pipeline ran on `module`: writes <outputDir>/<kernel>/ with the
/// PTX, a cubin when `ptxasPath` is not empty, and manifest.json, and calls
/// `kernelCallback` with each kernel's manifest path. Diagnostics go to the
/// context's handlers.
MLIR_CAPI_EXPORTED MlirLogicalResult fa4WriteArtifacts(
    MlirModule module, MlirStringRef outputDir, MlirStringRef ptxasPath,
    MlirStringCallback kernelCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // FA4_C_COMPILER_H
