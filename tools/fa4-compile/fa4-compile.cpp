//===- fa4-compile.cpp - attn.attention to kernel artifacts ---------------===//
//
// Runs the fa4-compile pipeline on a file, prints the plan of every
// attn.attention (-attn-explain), and writes PTX, cubin (when ptxas is found)
// and manifest.json per kernel: the main job of the README.
//
//===----------------------------------------------------------------------===//

#include "fa4/InitAll.h"
#include "fa4/Pipelines/Compile.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

// --help lists these; the LLVM and MLIR options stay under --help-hidden.
static cl::OptionCategory fa4Options("fa4-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::init("-"), cl::cat(fa4Options));
static cl::opt<std::string> outputDir("o", cl::desc("Output directory"),
                                      cl::value_desc("dir"),
                                      cl::init("artifacts"),
                                      cl::cat(fa4Options));
static cl::opt<std::string> chip("chip", cl::desc("sm_100a or sm_90a"),
                                 cl::init("sm_100a"), cl::cat(fa4Options));
static cl::opt<fa4::KernelKind>
    kernel("kernel", cl::desc("Kernel to lower to"),
           cl::init(fa4::KernelKind::Auto),
           cl::values(clEnumValN(fa4::KernelKind::Auto, "auto",
                                 "fa3 on sm_90a, reference elsewhere"),
                      clEnumValN(fa4::KernelKind::FA3, "fa3",
                                 "TMA + wgmma in the FA3 structure (sm_90a)"),
                      clEnumValN(fa4::KernelKind::FA4, "fa4",
                                 "tcgen05 + TMEM in the FA4 structure "
                                 "(sm_100a; not yet run on hardware)"),
                      clEnumValN(fa4::KernelKind::Reference, "reference",
                                 "the SIMT correctness baseline (any chip)")),
           cl::cat(fa4Options));
static cl::opt<bool> pingPong("ping-pong",
                              cl::desc("fa3 kernel: FA3 ping-pong between "
                                       "the consumer warpgroups"),
                              cl::init(true), cl::cat(fa4Options));
static cl::opt<bool> persistent(
    "persistent",
    cl::desc("fa3 prefill kernel: persistent CTAs (one per SM, looping over "
             "work tiles) at every Skv"),
    cl::init(false), cl::cat(fa4Options));
static cl::opt<int64_t> persistentMaxSeqKV(
    "persistent-max-seq-kv",
    cl::desc("fa3 prefill kernel: persistent CTAs up to this Skv, one CTA "
             "per work tile above (0: never; bench/RESULTS.md measures 2048)"),
    cl::init(0), cl::cat(fa4Options));
static cl::opt<bool> persistentDecode(
    "persistent-decode",
    cl::desc("fa3 decode kernel without a split (large batches): persistent "
             "CTAs, one per SM, looping over work items (default on)"),
    cl::init(true), cl::cat(fa4Options));
static cl::opt<bool> lazyRescale(
    "lazy-rescale",
    cl::desc(
        "fa3 kernel: a row keeps its max until it grows by more than "
        "2^8, and O is rescaled only when one did (default on; Dv >= 128)"),
    cl::init(true), cl::cat(fa4Options));
static cl::opt<bool> intraWgOverlap(
    "intra-wg-overlap",
    cl::desc("fa3 prefill kernel: the softmax of tile t runs while the P V "
             "of tile t - 1 is in flight (default on; "
             "--intra-wg-overlap=false turns it off)"),
    cl::init(true), cl::cat(fa4Options));
static cl::opt<int64_t> batchHint("batch-hint",
                                  cl::desc("Expected dynamic batch size"),
                                  cl::init(-1), cl::cat(fa4Options));
static cl::opt<int64_t> seqQHint("seq-q-hint",
                                 cl::desc("Expected dynamic query length"),
                                 cl::init(-1), cl::cat(fa4Options));
static cl::opt<int64_t> seqKVHint("seq-kv-hint",
                                  cl::desc("Expected dynamic key/value length"),
                                  cl::init(-1), cl::cat(fa4Options));
static cl::opt<int64_t>
    blockN("block-n",
           cl::desc("Keys per KV tile in place of the planner's choice "
                    "(0: the planner's)"),
           cl::init(0), cl::cat(fa4Options));
static cl::opt<int64_t> splitKPartitions(
    "split-k-partitions",
    cl::desc("Split-K partitions per work item in place of the planner's "
             "rule (0: the planner's)"),
    cl::init(0), cl::cat(fa4Options));
static cl::opt<bool> splitKWorkspace(
    "split-k-workspace",
    cl::desc("Combine split-K partials through the global workspace even "
             "when they fit a cluster"),
    cl::init(false), cl::cat(fa4Options));
static cl::opt<std::string>
    ptxasPath("ptxas",
              cl::desc("ptxas to assemble the cubin with (default: PATH, "
                       "then /usr/local/cuda/bin; 'none' skips the cubin)"),
              cl::init(""), cl::cat(fa4Options));
static cl::opt<bool> quiet("quiet", cl::desc("Do not print the plan"),
                           cl::init(false), cl::cat(fa4Options));

static std::string findPtxas() {
  if (ptxasPath == "none")
    return "";
  if (!ptxasPath.empty())
    return ptxasPath;
  if (auto onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  if (auto inCuda =
          llvm::sys::findProgramByName("ptxas", {"/usr/local/cuda/bin"}))
    return *inCuda;
  return "";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  cl::HideUnrelatedOptions(fa4Options);
  cl::ParseCommandLineOptions(argc, argv,
                              "fa4 compiler: attn.attention to "
                              "PTX/cubin and manifest.json\n");
  DialectRegistry registry;
  fa4::registerAllDialects(registry);
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  auto input = openInputFile(inputFile, &errorMessage);
  if (!input) {
    llvm::errs() << "fa4-compile: " << errorMessage << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  fa4::CompileOptions options;
  options.chip = chip;
  options.kernel = kernel;
  options.pingPong = pingPong;
  options.persistent = persistent;
  options.persistentMaxSeqKV = persistentMaxSeqKV;
  options.intraWgOverlap = intraWgOverlap;
  options.lazyRescale = lazyRescale;
  options.persistentDecode = persistentDecode;
  options.batchHint = batchHint;
  options.seqQHint = seqQHint;
  options.seqKVHint = seqKVHint;
  options.blockN = blockN;
  options.splitKPartitions = splitKPartitions;
  options.splitKWorkspace = splitKWorkspace;
  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  fa4::buildCompilePipeline(pm, options);
  if (!quiet) {
    // The plan, printed once planning is done and before lowering.
    PassManager explain(&context);
    fa4::attn::buildPlanPipeline(explain, options);
    explain.addPass(fa4::attn::createAttnExplain());
    OwningOpRef<ModuleOp> planned = module->clone();
    if (failed(explain.run(*planned)))
      return 1;
  }
  if (failed(pm.run(*module)))
    return 1;

  std::string ptxas = findPtxas();
  FailureOr<SmallVector<fa4::KernelArtifacts>> artifacts =
      fa4::writeArtifacts(*module, outputDir, ptxas);
  if (failed(artifacts))
    return 1;
  for (const fa4::KernelArtifacts &kernel : *artifacts) {
    llvm::outs() << "kernel " << kernel.kernel << "\n  ptx      "
                 << kernel.ptxPath << "\n";
    if (!kernel.cubinPath.empty())
      llvm::outs() << "  cubin    " << kernel.cubinPath << "\n";
    llvm::outs() << "  manifest " << kernel.manifestPath << "\n";
    if (!kernel.ptxasReport.empty())
      llvm::outs() << "  ptxas:\n" << kernel.ptxasReport;
  }
  if (ptxas.empty())
    llvm::outs() << "no ptxas found: wrote PTX only (the runtime JITs it)\n";
  return 0;
}
