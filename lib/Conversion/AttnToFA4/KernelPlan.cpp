//===- KernelPlan.cpp - What both kernels read of a plan ------------------===//
//
// The plan attributes of an attn.attention as both chips' kernel builders
// read them alike (KernelFunc.h: SplitPlan, KernelPlan): the split-K, the
// tile, the depths and the shared-memory regions; and what the softmax takes
// (softmaxInput).
//
//===----------------------------------------------------------------------===//

#include "KernelFunc.h"

#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace fa4;

bool fa4::returnsLse(attn::PlannedAttentionOpInterface op) {
  if (auto dense = dyn_cast<attn::AttentionOp>(op.getOperation()))
    return static_cast<bool>(dense.getLse());
  return op->getNumResults() == 2;
}

SoftmaxInput fa4::softmaxInput(OpBuilder &b, Location loc,
                               const KernelPlan &plan, Value scores,
                               Value scaleLog2) {
  if (!plan.softcap)
    return {scores, scaleLog2};
  double capLog2 = *plan.softcap * M_LOG2E;
  auto constant = [&](double value) {
    return arith::ConstantOp::create(
               b, loc, b.getF32FloatAttr(static_cast<float>(value)))
        .getResult();
  };
  // scale / c, from the scale_log2 parameter: (scale * log2 e) / (c log2 e).
  Value inputScale =
      arith::MulFOp::create(b, loc, scaleLog2, constant(1.0 / capLog2));
  Value capped =
      kernel::SoftcapOp::create(b, loc, scores.getType(), scores, inputScale);
  return {capped, constant(capLog2)};
}

FailureOr<KernelPlan> fa4::readKernelPlan(attn::PlannedAttentionOpInterface op,
                                          attn::ConfigAttr config,
                                          attn::SmemAttr smem) {
  FailureOr<SplitPlan> split = readSplit(op);
  if (failed(split))
    return failure();
  KernelPlan plan;
  static_cast<SplitPlan &>(plan) = *split;
  plan.rowGroup = config.getFuseGqa() ? config.getGroup() : 1;
  plan.decode = plan.partitions > 1 || config.getFuseGqa();
  plan.bn = config.getBn();
  plan.kvStages = smem.getKvStages();
  plan.qkDepth = config.getQkDepth();
  plan.ovDepth = config.getOvDepth();
  plan.paddedOv = config.getPaddedOvDepth();
  plan.qkBoxes = config.getPaddedQkDepth() / kBoxColumns;
  plan.ovBoxes = plan.paddedOv / kBoxColumns;
  plan.group = config.getGroup();
  plan.numQHeads = config.getNumQHeads();
  plan.numKVHeads = config.getNumKvHeads();
  plan.mask = op.getMask();
  if (std::optional<APFloat> softcap = op.getSoftcap())
    plan.softcap = softcap->convertToDouble();
  plan.sinks = static_cast<bool>(op.getSinks());
  plan.hasLse = returnsLse(op);
  plan.elementType =
      cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  plan.outputType = plan.elementType;
  if (auto dense = dyn_cast<attn::AttentionOp>(op.getOperation())) {
    plan.outputType = getElementTypeOrSelf(dense.getOutput().getType());
    Value descales[3] = {dense.getQDescale(), dense.getKDescale(),
                         dense.getVDescale()};
    for (auto [descale, value] : llvm::zip_equal(plan.descales, descales))
      if (value)
        descale = cast<ShapedType>(value.getType()).getRank() == 0
                      ? Descale::Tensor
                      : Descale::BatchHead;
  }
  plan.form =
      isa<attn::VarlenAttentionOp>(op.getOperation())  ? ServingForm::Varlen
      : isa<attn::PagedAttentionOp>(op.getOperation()) ? ServingForm::Paged
                                                       : ServingForm::Dense;
  if (auto varlen = dyn_cast<attn::VarlenAttentionOp>(op.getOperation())) {
    plan.seqUsedK = static_cast<bool>(varlen.getSequsedK());
    plan.packedQueries = true;
  }
  if (auto paged = dyn_cast<attn::PagedAttentionOp>(op.getOperation())) {
    plan.packedQueries = static_cast<bool>(paged.getCuSeqlensQ());
    plan.pageSize = paged.getPageSize();
  }
  plan.kStageBytes = smem.getKStageBytes();
  plan.vStageBytes = smem.getVStageBytes();
  plan.smemUsed = smem.getSmemUsed();
  SmemPlan regions = smem.toPlan();
  plan.qOffset = regions.q.offset;
  plan.kRingOffset = regions.kRing.offset;
  plan.vRingOffset = regions.vRing.offset;
  plan.barrierOffset = regions.barriers.offset;
  plan.barrierBytes = regions.barriers.bytes;
  return plan;
}

LogicalResult fa4::readKvBoxRows(attn::PlannedAttentionOpInterface op,
                                 KernelPlan &plan, attn::SwizzleAttr swizzle,
                                 int64_t tileBoxRows, StringRef kernel,
                                 bool copiesGatheredPages) {
  plan.kvBoxRows = tileBoxRows;
  if (plan.form != ServingForm::Paged)
    return success();
  plan.pagesHoldBoxes = swizzle.getKvPath() == attn::KvPath::PageBoxes;
  if (!plan.pagesHoldBoxes && copiesGatheredPages) {
    plan.kvBoxRows = std::gcd(plan.pageSize, plan.bn);
    return success();
  }
  if (!plan.pagesHoldBoxes)
    return op->emitOpError()
           << "has pages of " << plan.pageSize
           << " keys, which its plan gathers row by row (kv_path "
           << attn::stringifyKvPath(swizzle.getKvPath()) << "); the " << kernel
           << " kernel loads K and V by TMA boxes within a page only";
  plan.kvBoxRows = swizzle.getK().getRows();
  return success();
}

int64_t fa4::chunksInBox(int64_t depth, int64_t box, int64_t elementBytes) {
  int64_t chunkColumns = 16 / elementBytes;
  return std::min<int64_t>(kSwizzleBytes / 16,
                           (depth - box * kBoxColumns) / chunkColumns);
}

std::optional<std::string> fa4::servingPlanRefusal(const KernelPlan &plan,
                                                   bool deviceTensorMaps) {
  if (plan.form == ServingForm::Dense)
    return std::nullopt;
  bool decode = plan.decode || plan.partitions > 1;
  if (decode && (plan.form != ServingForm::Paged || plan.packedQueries))
    return std::string("a decode or split-K plan of packed queries: the "
                       "decode grid, the workspace and its combine address "
                       "queries by (batch, row)");
  if (deviceTensorMaps)
    return std::string("device-tensor-maps with a serving form: the kernel "
                       "builds maps of dense BSHD tensors only");
  return std::nullopt;
}

std::optional<std::string>
fa4::firstErrorOf(MLIRContext *context, function_ref<LogicalResult()> attempt) {
  std::string why;
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && why.empty())
      why = diag.str();
    return success();
  });
  if (succeeded(attempt()))
    return std::nullopt;
  return why;
}

FailureOr<SplitPlan> fa4::readSplit(attn::PlannedAttentionOpInterface op) {
  SplitPlan split;
  attn::SplitKAttr splitk = op.getSplitkAttr();
  if (!splitk || splitk.getMode() == attn::SplitKMode::None)
    return split;
  split.partitions = splitk.getPartitions();
  if (splitk.getMode() == attn::SplitKMode::Workspace) {
    split.workspace = split.partitions > 1;
    split.atLaunch = splitk.getReason() == attn::SplitKReason::AtLaunch;
    split.minKeysPerPartition = splitk.getKvPerPartition();
    split.keyTile = op.getConfigAttr().getBn();
    if (split.atLaunch && (!split.workspace || split.minKeysPerPartition < 1))
      return op->emitOpError()
             << "has a split-K picked at launch with fewer than two "
                "partitions or no minimum keys per partition: "
             << splitk;
    return split;
  }
  split.band = splitk.getBandColumns();
  split.stagingOffset = op.getSmemAttr().toPlan().splitKStaging.offset;
  int64_t ovDepth = op.getConfigAttr().getOvDepth();
  if (split.partitions > 1 &&
      (split.band % 2 || split.band * split.partitions < ovDepth ||
       split.partitions > 16))
    return op->emitOpError() << "has a cluster split-K plan the kernel does "
                                "not implement (it needs at most 16 "
                                "partitions and even bands covering Dv): "
                             << splitk;
  return split;
}
