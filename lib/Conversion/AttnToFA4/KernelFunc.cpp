//===- KernelFunc.cpp - The attention kernel's signature ------------------===//

#include "KernelFunc.h"

#include "../Common/KernelEmitter.h"
#include "../Common/SplitKWorkspace.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace fa4;

/// The gpu.func attribute naming the maps a kernel builds, in scratch order.
static constexpr StringLiteral kDeviceMapsAttr = "fa4.device_tensor_maps";

std::string fa4::tmaBox(int64_t rows, int64_t heads) {
  return ("1x" + Twine(rows) + "x" + Twine(heads) + "x64:128").str();
}

SmallVector<std::string> fa4::attentionParams(StringRef qBox, StringRef kBox,
                                              StringRef vBox, bool hasLse,
                                              bool workspace, StringRef oBox,
                                              bool deviceMaps) {
  SmallVector<std::string> params;
  if (deviceMaps)
    params = {"ptr:q", "ptr:k", "ptr:v", "ptr:o"};
  else
    params = {("tmap:q:" + qBox).str(), ("tmap:k:" + kBox).str(),
              ("tmap:v:" + vBox).str(), "ptr:o"};
  if (hasLse)
    params.push_back("ptr:lse");
  params.append({"i32:b", "i32:sq", "i32:skv", "i64:o.stride.0",
                 "i64:o.stride.1", "i64:o.stride.2"});
  if (hasLse)
    params.append({"i64:lse.stride.0", "i64:lse.stride.1"});
  params.push_back("f32:scale_log2");
  if (workspace)
    params.push_back("ptr:workspace");
  if (deviceMaps) {
    for (StringRef tensor : {"q", "k", "v"})
      for (int dim = 0; dim < 3; ++dim)
        params.push_back(("i64:" + tensor + ".stride." + Twine(dim)).str());
    std::string maps = ("tmaps:q:" + qBox + ",k:" + kBox + ",v:" + vBox).str();
    if (!oBox.empty())
      maps += (",o:" + oBox).str();
    params.push_back(maps);
    return params;
  }
  if (!oBox.empty())
    params.push_back(("tmap:o:" + oBox).str());
  return params;
}

FailureOr<KernelPlan> fa4::readKernelPlan(attn::AttentionOp op,
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
  plan.hasLse = static_cast<bool>(op.getLse());
  plan.elementType = op.getQueryType().getElementType();
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

FailureOr<SplitPlan> fa4::readSplit(attn::AttentionOp op) {
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
      return op.emitOpError()
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
    return op.emitOpError() << "has a cluster split-K plan the kernel does "
                               "not implement (it needs at most 16 "
                               "partitions and even bands covering Dv): "
                            << splitk;
  return split;
}

void fa4::setAttentionAlignment(KernelABI &abi, bool hasLse,
                                bool oByTensorMap) {
  KernelABI::Alignment o =
      oByTensorMap ? KernelABI::Alignment{16, 16} : KernelABI::Alignment{4, 4};
  abi.alignment = {{"q", {16, 16}}, {"k", {16, 16}}, {"v", {16, 16}}, {"o", o}};
  if (hasLse)
    abi.alignment.push_back({"lse", {4, 4}});
}

gpu::GPUFuncOp fa4::createKernelFunc(OpBuilder &b, Location loc, StringRef name,
                                     ArrayRef<std::string> params,
                                     int64_t threads) {
  MLIRContext *context = b.getContext();
  SmallVector<Type> argTypes;
  for (StringRef param : params) {
    StringRef kind = param.split(':').first;
    argTypes.push_back(kind == "tmap"
                           ? Type(kernel::TensorMapType::get(context))
                       : kind == "ptr" || kind == "tmaps"
                           ? Type(LLVM::LLVMPointerType::get(context, 1))
                       : kind == "i32" ? Type(b.getI32Type())
                       : kind == "i64" ? Type(b.getI64Type())
                                       : Type(b.getF32Type()));
  }
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  if (!params.empty() && StringRef(params.back()).starts_with("tmaps:"))
    func->setAttr(kDeviceMapsAttr,
                  b.getStringAttr(StringRef(params.back()).drop_front(6)));
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  return func;
}

void fa4::joinPriorGrids(OpBuilder &b, Location loc, KernelABI &abi) {
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
  abi.programmaticDependentLaunch = true;
}

static SmallVector<TensorMapSpec> parseDeviceMaps(StringRef list);

AttentionArgs AttentionArgs::read(gpu::GPUFuncOp func, bool hasLse,
                                  bool workspace) {
  AttentionArgs args;
  unsigned arg = 0;
  bool deviceMaps = !isa<kernel::TensorMapType>(func.getArgument(0).getType());
  Value &q = deviceMaps ? args.qPtr : args.qMap;
  Value &k = deviceMaps ? args.kPtr : args.kMap;
  Value &v = deviceMaps ? args.vPtr : args.vMap;
  q = func.getArgument(arg++);
  k = func.getArgument(arg++);
  v = func.getArgument(arg++);
  args.outPtr = func.getArgument(arg++);
  if (hasLse)
    args.lsePtr = func.getArgument(arg++);
  args.batchSize = func.getArgument(arg++);
  args.seqQ = func.getArgument(arg++);
  args.seqKV = func.getArgument(arg++);
  for (int dim = 0; dim < 3; ++dim)
    args.outStride.push_back(func.getArgument(arg++));
  if (hasLse)
    for (int dim = 0; dim < 2; ++dim)
      args.lseStride.push_back(func.getArgument(arg++));
  args.scaleLog2 = func.getArgument(arg++);
  if (workspace)
    args.workspace = func.getArgument(arg++);
  if (deviceMaps) {
    for (auto *strides : {&args.qStride, &args.kStride, &args.vStride})
      for (int dim = 0; dim < 3; ++dim)
        strides->push_back(func.getArgument(arg++));
    args.mapScratch = func.getArgument(arg++);
    args.deviceMaps = parseDeviceMaps(
        func->getAttrOfType<StringAttr>(kDeviceMapsAttr).getValue());
    return args;
  }
  if (arg < func.getNumArguments())
    args.oMap = func.getArgument(arg++);
  return args;
}

/// The maps of a "tmaps:" parameter, which createKernelFunc keeps on the
/// function (kDeviceMapsAttr): "q:<box>,k:<box>,...".
static SmallVector<TensorMapSpec> parseDeviceMaps(StringRef list) {
  SmallVector<StringRef> entries;
  list.split(entries, ',');
  return llvm::map_to_vector(entries, parseTensorMapSpec);
}

void AttentionArgs::stageTensorMaps(OpBuilder &b, Location loc,
                                    const KernelPlan &plan,
                                    int64_t stagingOffset, Value tid,
                                    int64_t warp) {
  if (!buildsTensorMaps())
    return;
  KernelEmitter e(b, loc);
  int64_t elementBytes = plan.elementBytes();
  // Lane 0 of warp `warp - i` stages map i (the warp that copies it): the
  // maps' field writes run side by side, which lanes of one warp would not
  // (their branches diverge and run one after another; D-48).
  assert(int64_t(deviceMaps.size()) <= warp + 1 &&
         "a warp per map, from `warp` down");
  for (auto [index, map] : llvm::enumerate(deviceMaps)) {
    int64_t stager = 32 * (warp - int64_t(index));
    auto ifLane = scf::IfOp::create(
        b, loc, e.cmp(arith::CmpIPredicate::eq, tid, e.i32(stager)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLane.thenBlock());
    // BSHD: extents innermost first (depth, heads, length, batch), strides
    // in bytes of heads, length and batch.
    bool isQuery = map.tensor == "q" || map.tensor == "o";
    bool isKey = map.tensor == "q" || map.tensor == "k";
    // attentionParams makes maps of q, k, v and o only.
    auto [base, strides] =
        map.tensor == "q"   ? std::pair(qPtr, ArrayRef<Value>(qStride))
        : map.tensor == "k" ? std::pair(kPtr, ArrayRef<Value>(kStride))
        : map.tensor == "v" ? std::pair(vPtr, ArrayRef<Value>(vStride))
                            : std::pair(outPtr, ArrayRef<Value>(outStride));
    SmallVector<Value> dims = {
        e.i32(isKey ? plan.qkDepth : plan.ovDepth),
        e.i32(isQuery ? plan.numQHeads : plan.numKVHeads),
        isQuery ? seqQ : seqKV, batchSize};
    SmallVector<Value> byteStrides;
    for (int dim = 2; dim >= 0; --dim)
      byteStrides.push_back(e.mul(strides[dim], e.i64(elementBytes)));
    SmallVector<int64_t> box(llvm::reverse(map.box));
    kernel::TensorMapStageOp::create(
        b, loc, base, dims, byteStrides,
        b.getI64IntegerAttr(stagingOffset + 128 * int64_t(index)),
        b.getDenseI64ArrayAttr(box), b.getI64IntegerAttr(elementBytes),
        b.getI64IntegerAttr(map.swizzleBytes));
  }
}

void AttentionArgs::publishTensorMaps(OpBuilder &b, Location loc,
                                      int64_t stagingOffset, Value tid,
                                      int64_t warp,
                                      function_ref<void()> beforeBarrier,
                                      std::optional<MapMeeting> meeting) {
  if (!buildsTensorMaps())
    return;
  KernelEmitter e(b, loc);
  auto blockIndex = [&](gpu::Dimension dim) {
    return e.sext(
        e.indexTo(b.getI32Type(), gpu::BlockIdOp::create(b, loc, dim)));
  };
  auto gridSize = [&](gpu::Dimension dim) {
    return e.sext(
        e.indexTo(b.getI32Type(), gpu::GridDimOp::create(b, loc, dim)));
  };
  Value cta = e.add(blockIndex(gpu::Dimension::x),
                    e.mul(gridSize(gpu::Dimension::x),
                          e.add(blockIndex(gpu::Dimension::y),
                                e.mul(gridSize(gpu::Dimension::y),
                                      blockIndex(gpu::Dimension::z)))));
  int64_t count = deviceMaps.size();
  SmallVector<Value> slots;
  for (int64_t index = 0; index < count; ++index)
    slots.push_back(LLVM::GEPOp::create(
        b, loc, mapScratch.getType(), b.getI8Type(), mapScratch,
        ValueRange{
            e.mul(e.add(e.mul(cta, e.i64(count)), e.i64(index)), e.i64(128))}));
  // Map i by warp `warp - i`, each copy in flight at once: one warp's
  // copies are releases that wait for each other (D-48).
  assert(count <= warp + 1 && "a warp per map, from `warp` down");
  Value warpIndex = e.divu(tid, e.i32(32));
  for (int64_t index = 0; index < count; ++index) {
    auto ifWarp = scf::IfOp::create(
        b, loc, e.cmp(arith::CmpIPredicate::eq, warpIndex, e.i32(warp - index)),
        false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifWarp.thenBlock());
    // Its lane 0 staged the map (stageTensorMaps).
    NVVM::SyncWarpOp::create(b, loc, e.i32(-1));
    kernel::TensorMapPublishOp::create(
        b, loc, slots[index], b.getI64IntegerAttr(stagingOffset + 128 * index));
    // The staging area is TMA's (async proxy) to write after the barrier:
    // warp `warp` wrote it, every publishing warp read it.
    e.fenceAsyncProxy();
  }
  if (beforeBarrier)
    beforeBarrier();
  if (!meeting) {
    gpu::BarrierOp::create(b, loc);
  } else {
    auto ifMeets = scf::IfOp::create(
        b, loc, e.cmp(arith::CmpIPredicate::ult, tid, e.i32(meeting->threads)),
        false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifMeets.thenBlock());
    e.syncNamedBarrier(e.i32(meeting->id), e.i32(meeting->threads));
  }
  // Acquired here; placeTensorMapAcquires moves each into the roles that
  // use it.
  for (auto [index, map] : llvm::enumerate(deviceMaps)) {
    Value acquired =
        kernel::TensorMapAcquireOp::create(
            b, loc, kernel::TensorMapType::get(b.getContext()), slots[index])
            .getResult();
    (map.tensor == "q"   ? qMap
     : map.tensor == "k" ? kMap
     : map.tensor == "v" ? vMap
                         : oMap) = acquired;
  }
}

void fa4::setDecodeGrid(KernelABI &abi, const SplitPlan &split,
                        int64_t rowGroup, int64_t queryRowsPerTile) {
  abi.grid = {{split.atLaunch ? std::string(kSplitsSymbol)
                              : std::to_string(split.partitions)},
              {rowGroup > 1 ? "hkv" : "hq"},
              {"b", ("ceil_div:sq:" + llvm::Twine(queryRowsPerTile)).str()}};
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
  combine.params = {"ptr:workspace", "ptr:o"};
  if (hasLse)
    combine.params.push_back("ptr:lse");
  combine.params.append({"i32:b", "i32:sq", "i64:o.stride.0", "i64:o.stride.1",
                         "i64:o.stride.2"});
  if (hasLse)
    combine.params.append({"i64:lse.stride.0", "i64:lse.stride.1"});
  // blockIdx = (query row, batch, group of q-heads); warp w takes head
  // w / warpsPerRow of the group and its columns 32 (w % warpsPerRow) on.
  combine.grid = {
      {"sq"}, {"b"}, {std::to_string(llvm::divideCeil(numQHeads, rowsPerCta))}};
  combine.block[0] = rowsPerCta * warpsPerRow * 32;
  // The workspace per (b, sq, hq) row: its planned partitions' partials, or
  // one partition's times the launch's "splits", which the combine also
  // takes as its last parameter.
  int64_t plannedPartitions = split.atLaunch ? 1 : split.partitions;
  abi.workspaceBytes = {std::to_string(
      workspaceBytesPerRow(plannedPartitions * partialsPerPartition, ovDepth))};
  if (split.atLaunch) {
    abi.workspaceBytes.push_back(kSplitsSymbol);
    combine.params.push_back(("i32:" + Twine(kSplitsSymbol)).str());
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

/// The blocks from the role region's entry down to `op`'s, stopping before
/// the first inside a loop (an acquire there would run every iteration);
/// empty when `op` is in no role.
static SmallVector<Block *> acquirePath(Operation *op) {
  SmallVector<Block *> path;
  for (Block *block = op->getBlock(); block;) {
    Operation *parent = block->getParentOp();
    if (!parent)
      return {};
    if (isa<LoopLikeOpInterface>(parent))
      path.clear();
    else
      path.push_back(block);
    if (isa<kernel::WarpSpecializeOp>(parent))
      return SmallVector<Block *>(llvm::reverse(path));
    block = parent->getBlock();
  }
  return {};
}

void fa4::placeTensorMapAcquires(gpu::GPUFuncOp func) {
  SmallVector<kernel::TensorMapAcquireOp> acquires;
  func.walk([&](kernel::TensorMapAcquireOp op) { acquires.push_back(op); });
  for (kernel::TensorMapAcquireOp acquire : acquires) {
    // Per role: the deepest block on every use's path.
    llvm::MapVector<Block *, SmallVector<Block *>> common;
    llvm::MapVector<Block *, SmallVector<OpOperand *>> uses;
    for (OpOperand &use : acquire->getUses()) {
      SmallVector<Block *> path = acquirePath(use.getOwner());
      if (path.empty())
        continue;
      auto [it, inserted] = common.try_emplace(path.front(), path);
      if (!inserted) {
        size_t shared = 0;
        while (shared < it->second.size() && shared < path.size() &&
               it->second[shared] == path[shared])
          ++shared;
        it->second.resize(shared);
      }
      uses[path.front()].push_back(&use);
    }
    OpBuilder b(acquire);
    for (auto &[role, path] : common) {
      b.setInsertionPointToStart(path.back());
      Operation *copy = b.clone(*acquire);
      for (OpOperand *use : uses[role])
        use->set(copy->getResult(0));
    }
    if (acquire->use_empty())
      acquire->erase();
  }
}
