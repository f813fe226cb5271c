//===- Compile.h - attn.attention to PTX/cubin and a manifest ---*- C++ -*-===//
//
// The whole compiler as one pipeline for embedding compilers, and the final
// step that writes the artifacts (PTX, cubin, manifest.json) the runtime
// loads.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PIPELINES_COMPILE_H
#define FA4_PIPELINES_COMPILE_H

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace fa4 {

struct CompileOptions : public mlir::PassPipelineOptions<CompileOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("sm_100a (default) or sm_90a"),
                           llvm::cl::init("sm_100a")};
  Option<std::string> kernel{
      *this, "kernel",
      llvm::cl::desc("Kernel to lower to: auto (sm_90a: fa3, sm_100a: "
                     "reference until the tcgen05 lowering lands), fa3 (TMA + "
                     "wgmma, sm_90a), reference (SIMT, any chip)"),
      llvm::cl::init("auto")};
  Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("fa3 kernel: order the consumers' GEMM turns with named "
                     "barriers (FA3 ping-pong)"),
      llvm::cl::init(true)};
  Option<bool> persistent{
      *this, "persistent",
      llvm::cl::desc("fa3 kernel: one CTA per SM looping over work tiles"),
      llvm::cl::init(false)};
  Option<int64_t> batchHint{*this, "batch-hint",
                            llvm::cl::desc("Expected dynamic batch size"),
                            llvm::cl::init(-1)};
  Option<int64_t> seqQHint{*this, "seq-q-hint",
                           llvm::cl::desc("Expected dynamic query length"),
                           llvm::cl::init(-1)};
  Option<int64_t> seqKVHint{*this, "seq-kv-hint",
                            llvm::cl::desc("Expected dynamic key/value length"),
                            llvm::cl::init(-1)};
};

/// Plans every attn.attention, lowers it to a kernel in a gpu.module, and
/// serializes that module to PTX (a gpu.binary, format=isa: no CUDA needed).
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Registers `fa4-compile` with the pass registry.
void registerCompilePipeline();

/// What writeArtifacts wrote, per kernel.
struct KernelArtifacts {
  std::string kernel;
  std::string ptxPath;
  /// Empty when no ptxas was found.
  std::string cubinPath;
  std::string manifestPath;
  /// ptxas -v's resource report (registers, spills, shared memory).
  std::string ptxasReport;
};

/// After buildCompilePipeline: for every attn.attention, writes
/// `<dir>/<kernel>/{<kernel>.ptx, <kernel>.cubin, manifest.json}`. The cubin
/// is assembled with `ptxasPath` when it is non-empty.
mlir::FailureOr<llvm::SmallVector<KernelArtifacts>>
writeArtifacts(mlir::ModuleOp module, llvm::StringRef outputDir,
               llvm::StringRef ptxasPath);

} // namespace fa4

#endif // FA4_PIPELINES_COMPILE_H
