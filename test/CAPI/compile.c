/*===- compile.c - The fa4 compiler through MLIR's C API
-------------------===*\
|* An embedding compiler's path: register fa4, parse an attn.attention       *|
|* module, run the fa4-compile pipeline, write the artifacts.                *|
\*===----------------------------------------------------------------------===*/

// REQUIRES: fa4-capi
// RUN: fa4-capi-test %t | FileCheck %s

#include "fa4-c/Compiler.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <string.h>

static void printString(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printManifest(MlirStringRef path, void *userData) {
  (void)userData;
  printf("manifest: ");
  fwrite(path.data, 1, path.length, stdout);
  printf("\n");
}

static const char *kModule =
    "func.func @attention(%q: tensor<?x?x16x128xbf16>, "
    "%k: tensor<?x?x4x128xbf16>, %v: tensor<?x?x4x128xbf16>) "
    "-> tensor<?x?x16x128xbf16> {\n"
    "  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : "
    "tensor<?x?x16x128xbf16>, tensor<?x?x4x128xbf16>, "
    "tensor<?x?x4x128xbf16> -> tensor<?x?x16x128xbf16>\n"
    "  return %o : tensor<?x?x16x128xbf16>\n}\n";

static int compile(MlirContext context, const char *options,
                   const char *outputDir) {
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(context);
  int status = 1;
  if (mlirLogicalResultIsFailure(fa4BuildCompilePipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(options), printString, NULL))) {
    printf("\n");
  } else if (mlirLogicalResultIsSuccess(
                 mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))) &&
             mlirLogicalResultIsSuccess(fa4WriteArtifacts(
                 module, mlirStringRefCreateFromCString(outputDir),
                 mlirStringRefCreateFromCString(""), printManifest, NULL))) {
    status = 0;
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return status;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fa4-capi-test OUTPUT_DIR\n");
    return 2;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  fa4RegisterAllDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(context);

  MlirDialectHandle attn = mlirGetDialectHandle__attn__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(attn);
  // CHECK: dialect: attn
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  // CHECK: manifest: {{.*}}/fa4_hopper_attention_sm_90a/manifest.json
  // CHECK: sm_90a: 0
  printf("sm_90a: %d\n", compile(context, "chip=sm_90a", argv[1]));
  // CHECK: manifest: {{.*}}/fa4_blackwell_attention_sm_100a/manifest.json
  // CHECK: sm_100a: 0
  printf("sm_100a: %d\n", compile(context, "chip=sm_100a", argv[1]));
  // A bad option comes back through the callback, not as a crash.
  // CHECK: fa4-compile: invalid options 'kernel=fast'
  // CHECK: bad option: 1
  printf("bad option: %d\n", compile(context, "kernel=fast", argv[1]));

  mlirContextDestroy(context);
  return 0;
}
