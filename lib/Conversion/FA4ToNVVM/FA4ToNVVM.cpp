//===- FA4ToNVVM.cpp - The convert-fa4-to-nvvm pass -----------------------===//
//
// Lowers fa4 kernels to NVVM and LLVM for each kernel module's chip: the
// patterns both chips share (CommonPatterns.cpp, SplitKPatterns.cpp) plus
// the Hopper ones (sm_90a, wgmma: HopperPatterns.cpp) or the Blackwell ones
// (sm_100a, tcgen05 and tensor memory: BlackwellPatterns.cpp). This file holds
// the pass: what it checks before converting, and the assembly of the type
// conversions and patterns.
//
//===----------------------------------------------------------------------===//

#include "LoweringEmitter.h"
#include "Patterns.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fa4 {
#define GEN_PASS_DEF_CONVERTFA4TONVVM
#include "fa4/Conversion/Passes.h.inc"
} // namespace fa4

using namespace mlir;
using namespace fa4;
using namespace fa4::kernel;

namespace {

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertFA4ToNVVMPass
    : public fa4::impl::ConvertFA4ToNVVMBase<ConvertFA4ToNVVMPass> {
  using ConvertFA4ToNVVMBase::ConvertFA4ToNVVMBase;
  void runOnOperation() override;

private:
  LogicalResult checkLowerable(gpu::GPUModuleOp kernels, Chip chip);
  /// The patterns of `chip`'s lowering, built on first use.
  const FrozenRewritePatternSet &patternsFor(Chip chip);

  std::optional<FrozenRewritePatternSet> hopperPatterns, blackwellPatterns;
  TypeConverter hopperConverter, blackwellConverter;
  std::optional<ConversionTarget> target;
};

/// Whether `op` is or holds fa4 kernel IR.
bool holdsFA4(Operation *op) {
  WalkResult found = op->walk([](Operation *nested) {
    if (isa<FA4Dialect>(nested->getDialect()))
      return WalkResult::interrupt();
    if (auto func = dyn_cast<gpu::GPUFuncOp>(nested))
      if (llvm::any_of(func.getArgumentTypes(), isFA4Type))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}
} // namespace

/// The tcgen05 instructions of one kernel must all name the same cta_group
/// (PTX ISA, tcgen05 "Matrix shape": a kernel mixing cta_group::1 and
/// cta_group::2 is undefined; LLVM's NVPTX backend rejects it too).
static LogicalResult checkOneCtaGroup(gpu::GPUModuleOp kernels) {
  for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
    Operation *first = nullptr;
    bool firstPair = false;
    WalkResult result = func.walk([&](Operation *op) {
      std::optional<bool> pair;
      if (auto alloc = dyn_cast<TmemAllocOp>(op))
        pair = alloc.getPair();
      else if (auto dealloc = dyn_cast<TmemDeallocOp>(op))
        pair = dealloc.getPair();
      else if (auto mma = dyn_cast<TmemMmaOp>(op))
        pair = mma.getPair();
      else if (auto commit = dyn_cast<TmemCommitOp>(op))
        pair = commit.getPair();
      if (!pair)
        return WalkResult::advance();
      if (!first) {
        first = op;
        firstPair = *pair;
        return WalkResult::advance();
      }
      if (*pair == firstPair)
        return WalkResult::advance();
      InFlightDiagnostic diag =
          op->emitOpError()
          << "is cta_group::" << (*pair ? 2 : 1)
          << " but the kernel's tcgen05 instructions are cta_group::"
          << (firstPair ? 2 : 1) << "; one kernel uses one cta_group";
      diag.attachNote(first->getLoc()) << "first tcgen05 instruction here";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

/// The chip `kernels` is lowered for: the one its #nvvm.target names (the
/// plan's, attached by convert-attn-to-fa4).
FailureOr<Chip> chipOf(gpu::GPUModuleOp kernels) {
  std::optional<StringRef> name;
  if (ArrayAttr targets = kernels.getTargetsAttr())
    for (Attribute target : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target)) {
        if (name && *name != nvvm.getChip())
          return kernels.emitError()
                 << "targets both " << *name << " and " << nvvm.getChip()
                 << "; an fa4 kernel module lowers for one chip";
        name = nvvm.getChip();
      }
  if (!name)
    return kernels.emitError()
           << "has no #nvvm.target: convert-fa4-to-nvvm lowers fa4 kernels "
              "for the chip their module targets (convert-attn-to-fa4 "
              "attaches the plan's)";
  std::optional<Chip> chip = parseChip(*name);
  if (!chip)
    return kernels.emitError()
           << "targets " << *name
           << "; fa4 kernels lower to sm_90a (wgmma) or sm_100a (tcgen05)";
  return *chip;
}

/// What the patterns assume, checked up front so that the user gets a
/// reason instead of a failed legalization or invalid IR.
LogicalResult ConvertFA4ToNVVMPass::checkLowerable(gpu::GPUModuleOp kernels,
                                                   Chip chip) {
  StringRef name = chipName(chip);
  // An option of the other chip's lowering, set away from its default,
  // would do nothing here.
#define FA4_PASS_OPTION_CHIP(PASS, TYPE, NAME, ARGUMENT, DEFAULT, CHIP)        \
  FA4_CHECK_GROUP_##PASS(NAME, ARGUMENT, DEFAULT, kOptionChip##CHIP)
#define FA4_CHECK_GROUP_ConvertAttnToFA4(NAME, ARGUMENT, DEFAULT, OPTION_CHIP)
#define FA4_CHECK_GROUP_ConvertFA4ToNVVM(NAME, ARGUMENT, DEFAULT, OPTION_CHIP) \
  if (OPTION_CHIP && *OPTION_CHIP != chip &&                                   \
      NAME != std::decay_t<decltype(NAME.getValue())>(DEFAULT))                \
    return kernels.emitError()                                                 \
           << "convert-fa4-to-nvvm: " << ARGUMENT << " applies to "            \
           << chipName(*OPTION_CHIP) << " kernels only, and this module "      \
           << "targets " << name << ": leave it at its default";
#include "fa4/Conversion/PassOptions.inc"
#undef FA4_CHECK_GROUP_ConvertAttnToFA4
#undef FA4_CHECK_GROUP_ConvertFA4ToNVVM
  if (Operation *symbol = SymbolTable::lookupSymbolIn(kernels, kSmemName);
      symbol && !isa<LLVM::GlobalOp>(symbol))
    return symbol->emitError()
           << "'" << kSmemName
           << "' is the fa4 kernels' dynamic shared memory; this module "
              "uses the name for something else";
  WalkResult result = kernels.walk([&](Operation *op) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (!holdsFA4(func))
        return WalkResult::advance();
      if (func.getNumWorkgroupAttributions() ||
          func.getNumPrivateAttributions()) {
        func.emitError() << "fa4 kernels place shared memory by the plan; "
                            "workgroup and private attributions are not "
                            "supported";
        return WalkResult::interrupt();
      }
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (!isFA4Type(type) && !LLVM::isCompatibleType(type)) {
          func.emitError() << "kernel argument " << index << " has type "
                           << type
                           << "; fa4 kernels take fa4 types and LLVM-"
                              "compatible scalars and pointers";
          return WalkResult::interrupt();
        }
    }
    bool sm100 = chip == Chip::SM100a;
    int64_t tileRows = getTargetInfo(chip).mmaTileRows;
    for (Type type : op->getResultTypes()) {
      int64_t rows = tileRows;
      if (auto frag = dyn_cast<FragType>(type))
        rows = frag.getRows();
      if (auto rowsType = dyn_cast<RowsType>(type))
        rows = rowsType.getRows();
      if (rows != tileRows) {
        op->emitOpError() << "produces " << type << "; " << name << " lowers "
                          << tileRows << "-row tiles ("
                          << (sm100 ? "tcgen05 M = 128, a row per thread"
                                    : "wgmma M = 64")
                          << ")";
        return WalkResult::interrupt();
      }
    }
    bool stagesFromTmem =
        isa<EpilogueStageOp>(op) &&
        isa<TmemTileType>(cast<EpilogueStageOp>(op).getOut().getType());
    bool tmemOp =
        stagesFromTmem ||
        isa<TmemAllocOp, TmemDeallocOp, TmemTileOp, TmemMmaOp, TmemCommitOp,
            TmemLoadOp, TmemStoreOp, TmemFenceOp, TmemScaleRowsOp>(op);
    if (!sm100 && tmemOp) {
      op->emitOpError() << "uses tensor memory, which sm_90a does not have";
      return WalkResult::interrupt();
    }
    if (sm100 && isa<EpilogueStageOp>(op) && !stagesFromTmem) {
      op->emitOpError() << "stages a register frag; on sm_100a O is staged "
                           "from its TMEM tile";
      return WalkResult::interrupt();
    }
    if (sm100 && isa<MmaOp, MmaWaitOp>(op)) {
      op->emitOpError() << "is not lowered on sm_100a: accumulators live in "
                           "TMEM there (fa4.tmem.mma)";
      return WalkResult::interrupt();
    }
    if (sm100 && isa<SplitKStageOp>(op) &&
        !isa<TmemTileType>(cast<SplitKStageOp>(op).getOut().getType())) {
      op->emitOpError() << "stages a register frag; on sm_100a the partial "
                           "O is staged from its TMEM tile";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return checkOneCtaGroup(kernels);
}

/// The type conversions both chips share, then `chip`'s own.
static void populateTypeConversions(TypeConverter &converter, Chip chip) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](TensorMapType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](MBarrierType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 3);
  });
  converter.addConversion([](SmemTileType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  if (chip == Chip::SM100a)
    populateBlackwellTypeConversions(converter);
  else
    populateHopperTypeConversions(converter);
}

const FrozenRewritePatternSet &ConvertFA4ToNVVMPass::patternsFor(Chip chip) {
  MLIRContext *context = &getContext();
  if (!target) {
    target.emplace(*context);
    target->addIllegalDialect<FA4Dialect>();
    target->addLegalDialect<arith::ArithDialect, LLVM::LLVMDialect,
                            NVVM::NVVMDialect, gpu::GPUDialect>();
    target->addDynamicallyLegalOp<gpu::GPUFuncOp>(
        [](gpu::GPUFuncOp func) { return !holdsFA4(func); });
    target->addDynamicallyLegalOp<gpu::ReturnOp>([](gpu::ReturnOp op) {
      return isa<gpu::GPUFuncOp>(op->getParentOp());
    });
  }
  bool sm100 = chip == Chip::SM100a;
  std::optional<FrozenRewritePatternSet> &frozen =
      sm100 ? blackwellPatterns : hopperPatterns;
  if (frozen)
    return *frozen;
  TypeConverter &converter = sm100 ? blackwellConverter : hopperConverter;
  populateTypeConversions(converter, chip);
  RewritePatternSet patterns(context);
  populateCommonPatterns(converter, patterns);
  populateSplitKPatterns(converter, patterns);
  if (sm100)
    populateBlackwellPatterns(converter, patterns);
  else
    populateHopperPatterns(converter, patterns, foldKeyBound);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       *target);
  frozen.emplace(std::move(patterns));
  return *frozen;
}

void ConvertFA4ToNVVMPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<std::pair<gpu::GPUModuleOp, Chip>> kernelModules;
  WalkResult walk = module.walk([&](gpu::GPUModuleOp kernels) {
    if (!holdsFA4(kernels))
      return WalkResult::advance();
    FailureOr<Chip> chip = chipOf(kernels);
    if (failed(chip) || failed(checkLowerable(kernels, *chip)))
      return WalkResult::interrupt();
    kernelModules.emplace_back(kernels, *chip);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return signalPassFailure();
  OpBuilder b(&getContext());
  for (auto [kernels, chip] : kernelModules) {
    if (SymbolTable::lookupSymbolIn(kernels, kSmemName))
      continue;
    b.setInsertionPointToStart(kernels.getBody());
    LLVM::GlobalOp::create(b, kernels.getLoc(),
                           LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           kSmemName, Attribute(), /*alignment=*/1024,
                           /*addrSpace=*/3);
  }
  for (auto [kernels, chip] : kernelModules) {
    const FrozenRewritePatternSet &patterns = patternsFor(chip);
    if (failed(applyPartialConversion(kernels, *target, patterns)))
      return signalPassFailure();
  }
}
