//===- EmbedAbiRecords.cpp - Each kernel module carries its ABI record ----===//
//
// The record (buildAbiRecord: the manifest less its `binary` entries) goes
// into the kernel's gpu.module as a constant byte array, so the binary the
// runtime loads says what it was compiled for (docs/KernelABI.md).
//
//===----------------------------------------------------------------------===//

#include "fa4/AbiRecord.h"
#include "fa4/Pipelines/Compile.h"

#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Pipelines/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

namespace fa4 {
#define GEN_PASS_DEF_EMBEDABIRECORDS
#include "fa4/Pipelines/Passes.h.inc"
} // namespace fa4

using namespace mlir;
using namespace fa4;

/// Adds `text` to the gpu.module of `op`'s kernel as the external constant
/// kAbiRecordSymbol (external: LLVM keeps it though no kernel reads it).
static LogicalResult embedRecord(Operation *op, ModuleOp module,
                                 StringRef text) {
  SymbolRefAttr kernelRef = op->getAttrOfType<kernel::KernelABIAttr>(
                                  kernel::FA4Dialect::kKernelABIAttrName)
                                .getKernel();
  auto kernels = SymbolTable::lookupNearestSymbolFrom<gpu::GPUModuleOp>(
      module, kernelRef.getRootReference());
  if (!kernels)
    return op->emitError() << "kernel module "
                           << kernelRef.getRootReference().getValue()
                           << " is not a gpu.module (already serialized?)";
  if (SymbolTable::lookupSymbolIn(kernels, fa4::kAbiRecordSymbol))
    return op->emitError() << "kernel module "
                           << kernelRef.getRootReference().getValue()
                           << " already holds " << fa4::kAbiRecordSymbol;
  if (static_cast<int64_t>(text.size()) > fa4::kMaxAbiRecordBytes)
    return op->emitError() << "ABI record of " << text.size()
                           << " bytes exceeds the runtime's limit of "
                           << fa4::kMaxAbiRecordBytes;
  auto builder = OpBuilder::atBlockBegin(kernels.getBody());
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
  LLVM::GlobalOp::create(builder, op->getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, fa4::kAbiRecordSymbol,
                         builder.getStringAttr(text), /*alignment=*/1,
                         /*addrSpace=*/1);
  return success();
}

namespace {
struct EmbedAbiRecords
    : public fa4::impl::EmbedAbiRecordsBase<EmbedAbiRecords> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    WalkResult result = module.walk([&](Operation *op) {
      if (!isa<attn::PlannedAttentionOpInterface, attn::AttentionBackwardOp>(
              op) ||
          !op->hasAttr(kernel::FA4Dialect::kKernelABIAttrName))
        return WalkResult::advance();
      FailureOr<llvm::json::Object> record = fa4::buildAbiRecord(module, op);
      if (failed(record))
        return WalkResult::interrupt();
      std::string text =
          llvm::formatv("{0}", llvm::json::Value(std::move(*record)));
      if (failed(embedRecord(op, module, text)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
