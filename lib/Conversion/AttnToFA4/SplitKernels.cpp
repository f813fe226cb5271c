//===- SplitKernels.cpp - The launch and the combine of a split-K ---------===//
//
// What a split-K decode adds to either chip's kernel (KernelFunc.h): its
// grid, the workspace a workspace split writes its partials to, and the
// combine kernel that reduces them.
//
//===----------------------------------------------------------------------===//

#include "KernelFunc.h"

#include "../Common/KernelEmitter.h"
#include "../Common/SplitKWorkspace.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace fa4;

void fa4::setDecodeGrid(KernelABI &abi, const SplitPlan &split,
                        int64_t rowGroup, int64_t queryRowsPerTile) {
  abi.grid = {{split.atLaunch ? GridFactor(kSplitsSymbol)
                              : GridFactor(split.partitions)},
              {rowGroup > 1 ? "hkv" : "hq"},
              {"b", GridFactor::ceilDivOf("sq", queryRowsPerTile)}};
  abi.cluster[0] = split.clusterSplit() ? split.partitions : 1;
}

Value fa4::workspacePartitions(OpBuilder &b, Location loc) {
  return arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      gpu::GridDimOp::create(b, loc, gpu::Dimension::x));
}

int64_t fa4::workspaceBytesPerRow(int64_t partials, int64_t ovDepth) {
  return partials * (ovDepth + 1) * 4;
}

WorkspacePartial fa4::workspacePartial(OpBuilder &b, Location loc,
                                       Value workspace, Value index,
                                       Value partials, Value batchSize,
                                       Value seqQ, int64_t numQHeads,
                                       int64_t ovDepth) {
  KernelEmitter e(b, loc);
  SplitKWorkspaceLayout layout(e, partials, batchSize, seqQ, numQHeads,
                               ovDepth);
  auto at = [&](Value element) -> Value {
    return LLVM::GEPOp::create(b, loc, workspace.getType(), b.getF32Type(),
                               workspace, ValueRange{element});
  };
  Value index64 = e.sext(index);
  WorkspacePartial partial;
  partial.outPtr = at(layout.oOfPartial(index64));
  partial.outStride = {layout.oBatchStride, layout.oRowStride,
                       layout.oHeadStride};
  partial.lsePtr = at(layout.lseOfPartial(index64));
  partial.lseStride = {layout.lseBatchStride, layout.lseHeadStride};
  return partial;
}

void fa4::buildWorkspaceCombine(OpBuilder &b, Location loc, StringRef name,
                                KernelABI &abi, const SplitPlan &split,
                                int64_t partialsPerPartition, int64_t numQHeads,
                                int64_t ovDepth, Type elementType,
                                bool hasLse) {
  // A warp per 32 columns of a row (fa4.splitk.workspace_combine), and
  // rows to a CTA of up to four warps.
  int64_t warpsPerRow = llvm::divideCeil(ovDepth, 32);
  int64_t rowsPerCta = std::max<int64_t>(1, 4 / warpsPerRow);
  KernelABI::Combine combine;
  combine.kernel = (name + "_combine").str();
  using P = KernelParam;
  combine.params = {P::workspace(), P::pointer("o")};
  if (hasLse)
    combine.params.push_back(P::pointer("lse"));
  combine.params.append({P::i32("b"), P::i32("sq"), P::i64("o.stride.0"),
                         P::i64("o.stride.1"), P::i64("o.stride.2")});
  if (hasLse)
    combine.params.append({P::i64("lse.stride.0"), P::i64("lse.stride.1")});
  // blockIdx = (query row, batch, group of q-heads); warp w takes head
  // w / warpsPerRow of the group and its columns 32 (w % warpsPerRow) on.
  combine.grid = {{"sq"}, {"b"}, {llvm::divideCeil(numQHeads, rowsPerCta)}};
  combine.block[0] = rowsPerCta * warpsPerRow * 32;
  // The workspace per (b, sq, hq) row: its planned partitions' partials, or
  // one partition's times the launch's "splits", which the combine also
  // takes as its last parameter.
  int64_t plannedPartitions = split.atLaunch ? 1 : split.partitions;
  abi.workspaceBytes = {
      workspaceBytesPerRow(plannedPartitions * partialsPerPartition, ovDepth)};
  if (split.atLaunch) {
    abi.workspaceBytes.push_back(kSplitsSymbol);
    combine.params.push_back(P::i32(kSplitsSymbol));
    abi.splitAtLaunch = KernelABI::SplitAtLaunch{
        split.partitions, split.minKeysPerPartition, split.keyTile,
        std::min<int64_t>(kSplitKAtLaunchMinPartitions, split.partitions)};
  }
  abi.workspaceBytes.append({"b", "sq", "hq"});

  gpu::GPUFuncOp func = createKernelFunc(b, loc, combine.kernel, combine.params,
                                         combine.block[0]);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  // The partials are the attention kernel's writes.
  joinPriorGrids(b, loc, abi);
  KernelEmitter e(b, loc);
  unsigned arg = 0;
  Value workspace = func.getArgument(arg++), outPtr = func.getArgument(arg++);
  Value lsePtr = hasLse ? func.getArgument(arg++) : Value();
  Value batchSize = func.getArgument(arg++), seqQ = func.getArgument(arg++);
  SmallVector<Value> outStride, lseStride;
  for (int dim = 0; dim < 3; ++dim)
    outStride.push_back(func.getArgument(arg++));
  if (hasLse)
    for (int dim = 0; dim < 2; ++dim)
      lseStride.push_back(func.getArgument(arg++));
  Value partials =
      split.atLaunch
          ? e.mul(func.getArgument(arg++), e.i32(partialsPerPartition))
          : e.i32(split.partitions * partialsPerPartition);
  auto blockId = [&](gpu::Dimension dim) {
    return e.indexTo(b.getI32Type(), gpu::BlockIdOp::create(b, loc, dim));
  };
  Value row = blockId(gpu::Dimension::x), batch = blockId(gpu::Dimension::y);
  Value warp =
      e.divu(e.indexTo(b.getI32Type(),
                       gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x)),
             e.i32(32));
  Value head = e.add(e.mul(blockId(gpu::Dimension::z), e.i32(rowsPerCta)),
                     e.divu(warp, e.i32(warpsPerRow)));
  Value column = e.mul(e.remu(warp, e.i32(warpsPerRow)), e.i32(32));
  auto ifHead = scf::IfOp::create(
      b, loc, e.cmp(arith::CmpIPredicate::slt, head, e.i32(numQHeads)), false);
  b.setInsertionPointToStart(ifHead.thenBlock());
  kernel::SplitKWorkspaceCombineOp::create(
      b, loc, workspace, outPtr, batch, row, head, column, outStride, batchSize,
      seqQ, lsePtr, lseStride, partials, b.getI64IntegerAttr(numQHeads),
      b.getI64IntegerAttr(ovDepth), TypeAttr::get(elementType));
  b.setInsertionPointAfter(ifHead);
  gpu::ReturnOp::create(b, loc);
  abi.combine = std::move(combine);
}
