//===- consumer.cpp - fa4 from an installed package -----------------------===//
//
// What a compiler that embeds fa4 does: register fa4's dialects and passes,
// parse an attn.attention, run the registered fa4-compile pipeline and write
// the kernel's artifacts. Prints each manifest path; exits non-zero on any
// failure.
//
//===----------------------------------------------------------------------===//

#include "fa4/InitAll.h"
#include "fa4/Pipelines/Compile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *kAttention = R"mlir(
func.func @attention(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x4x64xbf16>,
                     %v: tensor<?x?x4x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x16x64xbf16>, tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16>
      -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
)mlir";

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: fa4-consumer CHIP OUTPUT_DIR\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  fa4::registerAllDialects(registry);
  fa4::registerAllPasses();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kAttention, &context);
  if (!module)
    return 1;
  // The textual pipeline, nested under the pass manager's builtin.module.
  mlir::PassManager pm(&context);
  std::string pipeline = std::string("fa4-compile{chip=") + argv[1] + "}";
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, llvm::errs())) ||
      mlir::failed(pm.run(*module)))
    return 1;
  auto written = fa4::writeArtifacts(*module, argv[2], /*ptxasPath=*/"");
  if (mlir::failed(written))
    return 1;
  for (const fa4::KernelArtifacts &kernel : *written)
    llvm::outs() << "kernel " << kernel.kernel << ": " << kernel.manifestPath
                 << "\n";
  return 0;
}
