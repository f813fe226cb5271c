//===- fa4-opt.cpp - The fa4 optimizer driver -----------------------------===//
//
// mlir-opt with the attn dialect, fa4's passes and pipelines, and the
// upstream dialects and passes the pipeline lowers through; and the test
// passes of TestPasses.h.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "fa4/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  fa4::registerAllDialects(registry);
  fa4::registerAllPasses();
  fa4::registerTestPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fa4 optimizer driver\n", registry));
}
