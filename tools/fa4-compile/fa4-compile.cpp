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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
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
// Every other --name[=value] is an option of the fa4-compile pipeline
// (fa4::CompileOptions: chip, kernel, size hints, lowering switches), parsed
// by the pipeline's own option parser so that the tool and
// `fa4-opt --fa4-compile="..."` accept the same options.
static cl::list<std::string> pipelineArgs(cl::Sink);

static cl::opt<std::string>
    ptxasPath("ptxas",
              cl::desc("ptxas to assemble the cubin with (default: PATH, "
                       "then /usr/local/cuda/bin; 'none' skips the cubin)"),
              cl::init(""), cl::cat(fa4Options));
static cl::opt<bool> quiet("quiet", cl::desc("Do not print the plan"),
                           cl::init(false), cl::cat(fa4Options));
static cl::opt<bool>
    json("json",
         cl::desc("Print only a JSON object of what was written: "
                  "{\"kernels\": [{\"kernel\", \"ptx\", \"cubin\" (or null), "
                  "\"manifest\", \"choice\"}]} (for tools, e.g. the Python "
                  "package's kernel cache)"),
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

/// The most results one SSA name may be indexed at (`%t#N`) in fa4-compile's
/// input. MLIR 22's parser allocates N placeholders for a reference to result
/// N and runs out of memory past a few hundred million (found by
/// scripts/fuzz-compiler.py; upstream mlir-opt does the same), so such a
/// number is refused here, before parsing, with its place.
constexpr uint64_t kMaxResultNumber = 1 << 16;

static LogicalResult checkResultNumbers(StringRef text, StringRef name) {
  for (size_t hash = text.find('#'); hash != StringRef::npos;
       hash = text.find('#', hash + 1)) {
    // Only a value reference: `%name#digits`.
    size_t start = hash;
    while (start > 0 && (llvm::isAlnum(text[start - 1]) ||
                         text[start - 1] == '_' || text[start - 1] == '$' ||
                         text[start - 1] == '.' || text[start - 1] == '-'))
      --start;
    if (start == 0 || text[start - 1] != '%' || start == hash)
      continue;
    StringRef digits = text.substr(hash + 1).take_while(
        [](char c) { return c >= '0' && c <= '9'; });
    uint64_t number = 0;
    if (digits.empty() ||
        (!digits.getAsInteger(10, number) && number <= kMaxResultNumber))
      continue;
    size_t line = text.take_front(hash).count('\n') + 1;
    llvm::errs() << "fa4-compile: " << name << ":" << line << ": result number "
                 << digits << " of " << text.slice(start - 1, hash)
                 << " is past the " << kMaxResultNumber
                 << " this tool accepts\n";
    return failure();
  }
  return success();
}

/// The pipeline options given as --name=value (cl::Sink) into `options`.
static LogicalResult parsePipelineOptions(fa4::CompileOptions &options) {
  std::string flags;
  for (StringRef arg : pipelineArgs)
    flags += (" " + arg.ltrim('-')).str();
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(options.parseFromString(flags, errorStream)) ||
      failed(fa4::verifyCompileOptions(options, errorStream))) {
    llvm::errs() << "fa4-compile: " << error << "\n";
    return failure();
  }
  return success();
}

/// --help shows the pipeline options with their defaults; their
/// descriptions are under `fa4-opt --help`, pass pipeline fa4-compile.
static std::string pipelineHelp() {
  std::string help;
  llvm::raw_string_ostream os(help);
  os << "\nPipeline options, as --name=value (shown with their defaults; "
        "described by `fa4-opt --help` under --fa4-compile):\n  ";
  fa4::CompileOptions().print(os);
  os << "\n";
  return help;
}

/// The input module, its diagnostics reported through `sourceMgr`.
static OwningOpRef<ModuleOp> parseInput(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  std::string errorMessage;
  auto input = openInputFile(inputFile, &errorMessage);
  if (!input) {
    llvm::errs() << "fa4-compile: " << errorMessage << "\n";
    return nullptr;
  }
  if (failed(checkResultNumbers(input->getBuffer(), inputFile)))
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// The kernel each attention op lowers to, in op order, planned on a copy
/// of `module`; the plan is printed too unless --quiet or --json.
static FailureOr<std::vector<std::string>>
planKernels(ModuleOp module, const fa4::CompileOptions &options) {
  PassManager planning(module.getContext());
  fa4::buildCompilePlanning(planning, options);
  if (!quiet && !json)
    planning.addPass(fa4::attn::createAttnExplain());
  OwningOpRef<ModuleOp> planned = module.clone();
  if (failed(planning.run(*planned)))
    return failure();
  std::vector<std::string> choices;
  planned->walk([&](fa4::attn::PlannedAttentionOpInterface op) {
    choices.push_back(fa4::describeKernel(op, options));
  });
  return choices;
}

static void printJson(ArrayRef<fa4::KernelArtifacts> artifacts,
                      ArrayRef<std::string> choices) {
  llvm::json::Array kernels;
  for (const fa4::KernelArtifacts &kernel : artifacts) {
    llvm::json::Object entry{{"kernel", kernel.kernel},
                             {"ptx", kernel.ptxPath},
                             {"manifest", kernel.manifestPath}};
    entry["cubin"] = kernel.cubinPath.empty()
                         ? llvm::json::Value(nullptr)
                         : llvm::json::Value(kernel.cubinPath);
    kernels.push_back(std::move(entry));
  }
  llvm::json::Array kernelChoices;
  for (const std::string &choice : choices)
    kernelChoices.push_back(choice);
  llvm::outs() << llvm::formatv("{0:2}\n",
                                llvm::json::Value(llvm::json::Object{
                                    {"kernels", std::move(kernels)},
                                    {"choices", std::move(kernelChoices)}}));
}

static void printArtifacts(ArrayRef<fa4::KernelArtifacts> artifacts,
                           bool ptxasFound) {
  for (const fa4::KernelArtifacts &kernel : artifacts) {
    llvm::outs() << "kernel " << kernel.kernel << "\n  ptx      "
                 << kernel.ptxPath << "\n";
    if (!kernel.cubinPath.empty())
      llvm::outs() << "  cubin    " << kernel.cubinPath << "\n";
    llvm::outs() << "  manifest " << kernel.manifestPath << "\n";
    if (!kernel.ptxasReport.empty())
      llvm::outs() << "  ptxas:\n" << kernel.ptxasReport;
  }
  if (!ptxasFound)
    llvm::outs() << "no ptxas found: wrote PTX only (the runtime JITs it)\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  cl::HideUnrelatedOptions(fa4Options);
  // cl::extrahelp keeps a reference: the text lives as long as main.
  std::string help = pipelineHelp();
  cl::extrahelp pipelineOptionsHelp(help);
  cl::ParseCommandLineOptions(argc, argv,
                              "fa4 compiler: attn.attention to "
                              "PTX/cubin and manifest.json\n");
  fa4::CompileOptions options;
  if (failed(parsePipelineOptions(options)))
    return 1;
  DialectRegistry registry;
  fa4::registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseInput(context, sourceMgr);
  if (!module)
    return 1;

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  fa4::buildCompilePipeline(pm, options);
  FailureOr<std::vector<std::string>> choices = planKernels(*module, options);
  if (failed(choices))
    return 1;
  if (!quiet && !json)
    for (const std::string &choice : *choices)
      llvm::outs() << "kernel: " << choice << "\n";
  if (failed(pm.run(*module)))
    return 1;

  std::string ptxas = findPtxas();
  FailureOr<SmallVector<fa4::KernelArtifacts>> artifacts =
      fa4::writeArtifacts(*module, outputDir, ptxas);
  if (failed(artifacts))
    return 1;
  if (json)
    printJson(*artifacts, *choices);
  else
    printArtifacts(*artifacts, !ptxas.empty());
  return 0;
}
