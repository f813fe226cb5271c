//===- Compile.h - attn.attention to PTX/cubin and a manifest ---*- C++ -*-===//
//
// The whole compiler as one pipeline for embedding compilers, and the final
// step that writes the artifacts (PTX, cubin, manifest.json) the runtime
// loads.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PIPELINES_COMPILE_H
#define FA4_PIPELINES_COMPILE_H

#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace fa4 {

/// Which lowering builds the kernel.
enum class KernelKind { Auto, Hopper, Blackwell, Reference };

/// The planning options (chip, size hints) and the lowering's.
struct CompileOptions : public attn::PlanOptionsBase<CompileOptions> {
  Option<KernelKind> kernel{
      *this, "kernel", llvm::cl::desc("Kernel to lower to"),
      llvm::cl::init(KernelKind::Auto),
      llvm::cl::values(
          clEnumValN(KernelKind::Auto, "auto",
                     "the Hopper kernel on sm_90a; the Blackwell kernel on "
                     "sm_100a (proven on fa4-emu); the reference kernel for "
                     "the plans they do not implement (MLA on sm_100a; the "
                     "serving forms' gathered pages and decode plans)"),
          clEnumValN(KernelKind::Hopper, "hopper",
                     "TMA + wgmma, FA3's structure (sm_90a)"),
          clEnumValN(KernelKind::Blackwell, "blackwell",
                     "tcgen05 + TMEM, FA4's structure (sm_100a; proven on "
                     "fa4-emu, not yet on a Blackwell GPU)"),
          clEnumValN(KernelKind::Reference, "reference",
                     "the SIMT correctness baseline (any chip)"))};
  // The lowering passes' options (convert-attn-to-fa4, convert-fa4-to-nvvm),
  // declared once in fa4/Conversion/Passes.td.
#define FA4_PASS_OPTION(PASS, TYPE, NAME, ARGUMENT, DEFAULT, DESCRIPTION)      \
  Option<TYPE> NAME{*this, ARGUMENT, llvm::cl::desc(DESCRIPTION),              \
                    llvm::cl::init(DEFAULT)};
#include "fa4/Conversion/PassOptions.inc"
  Option<bool> decodeVariants{
      *this, "decode-variants",
      llvm::cl::desc("fa3/fa4 kernels of unknown, unhinted query length: "
                     "also compile a variant planned for one query row "
                     "(attn-decode-variants), which the runtime launches "
                     "at decode shapes"),
      llvm::cl::init(true)};
};

/// Refuses, on `errors`, options that contradict each other: a kernel
/// named for one chip (kernel=hopper: sm_90a, kernel=blackwell: sm_100a)
/// with the other chip. The chip is chosen here, once: the passes after
/// planning read it from the plan.
mlir::LogicalResult verifyCompileOptions(const CompileOptions &options,
                                         llvm::raw_ostream &errors);

/// The kernel the compile pipeline lowers planned `op` to under `options`,
/// and under kernel=auto why it falls back to the reference kernel
/// (fa4-compile prints it after the plan).
std::string describeKernel(attn::PlannedAttentionOpInterface op,
                           const CompileOptions &options);

/// The compile pipeline's planning: decode variants (attn-decode-variants,
/// where `decode-variants` asks for them) and the attn planning passes.
void buildCompilePlanning(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Plans every attn.attention, lowers it to a kernel in a gpu.module, and
/// serializes that module to PTX (a gpu.binary, format=isa: no CUDA needed).
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Registers `fa4-compile` with the pass registry.
void registerCompilePipeline();

/// The manifest of `op`'s kernel (docs/KernelABI.md) without its `binary`
/// entries, its decode variant's included: what fa4-embed-abi-records puts
/// into the binary and writeArtifacts completes into manifest.json. Needs
/// the kernel ABI the lowering records (`fa4.abi`). `op`: a planned attention
/// op or an attn.attention_backward.
mlir::FailureOr<llvm::json::Object> buildAbiRecord(mlir::ModuleOp module,
                                                   mlir::Operation *op);

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
