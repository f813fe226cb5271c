//===- KernelFunc.cpp - The attention kernel's signature ------------------===//

#include "KernelFunc.h"

#include "../Common/KernelEmitter.h"
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

TensorMapSpec fa4::tmaBox(int64_t rows, int64_t heads, int64_t swizzleBytes) {
  return TensorMapSpec{"", {1, rows, heads, kBoxColumns}, swizzleBytes};
}

TensorMapSpec fa4::packedTmaBox(int64_t rows) {
  return TensorMapSpec{"", {rows, 1, 64}, 128};
}

SmallVector<KernelParam>
fa4::servingAttentionParams(const ServingLayout &layout,
                            const TensorMapSpec &qBox,
                            const TensorMapSpec &kBox) {
  using P = KernelParam;
  bool paged = layout.form == ServingForm::Paged;
  StringRef key = paged ? "k_cache" : "k", value = paged ? "v_cache" : "v";
  SmallVector<P> params = {P::tensorMap(qBox.of("q")),
                           P::tensorMap(kBox.of(key)),
                           P::tensorMap(kBox.of(value)), P::pointer("o")};
  if (layout.hasLse)
    params.push_back(P::pointer("lse"));
  if (paged) {
    params.append({P::pointer("block_table"), P::pointer("seqlens_k")});
    if (layout.packedQueries)
      params.push_back(P::pointer("cu_seqlens_q"));
  } else {
    params.append({P::pointer("cu_seqlens_q"), P::pointer("cu_seqlens_k")});
    if (layout.seqUsedK)
      params.push_back(P::pointer("seqused_k"));
  }
  params.append({P::i32("b"), P::i32(layout.packedQueries ? "max_sq" : "sq")});
  if (layout.packedQueries)
    params.push_back(P::i32("tq"));
  params.push_back(P::i32(paged ? "max_pages" : "tk"));
  int oStrides = layout.packedQueries ? 2 : 3;
  for (int dim = 0; dim < oStrides; ++dim)
    params.push_back(P::i64(("o.stride." + Twine(dim)).str()));
  if (layout.hasLse)
    for (int dim = 0; dim < oStrides - 1; ++dim)
      params.push_back(P::i64(("lse.stride." + Twine(dim)).str()));
  if (paged)
    params.push_back(P::i64("block_table.stride.0"));
  params.push_back(P::f32("scale_log2"));
  if (layout.workspace)
    params.push_back(P::workspace());
  // The caches' rows that the producer copies (a tile ending past its
  // sequence's last key, a page smaller than a box): pointers and strides.
  if (paged) {
    params.append(
        {P::pointer("k_cache"), P::pointer("v_cache"), P::i32("pages")});
    for (StringRef cache : {"k_cache", "v_cache"})
      for (int dim = 0; dim < 3; ++dim)
        params.push_back(P::i64((cache + ".stride." + Twine(dim)).str()));
  }
  return params;
}

SmallVector<KernelParam>
fa4::attentionParams(const TensorMapSpec &qBox, const TensorMapSpec &kBox,
                     const TensorMapSpec &vBox, bool hasLse, bool workspace,
                     std::optional<TensorMapSpec> oBox, bool deviceMaps) {
  using P = KernelParam;
  SmallVector<P> params;
  if (deviceMaps)
    params = {P::pointer("q"), P::pointer("k"), P::pointer("v"),
              P::pointer("o")};
  else
    params = {P::tensorMap(qBox.of("q")), P::tensorMap(kBox.of("k")),
              P::tensorMap(vBox.of("v")), P::pointer("o")};
  if (hasLse)
    params.push_back(P::pointer("lse"));
  params.append({P::i32("b"), P::i32("sq"), P::i32("skv"), P::i64("o.stride.0"),
                 P::i64("o.stride.1"), P::i64("o.stride.2")});
  if (hasLse)
    params.append({P::i64("lse.stride.0"), P::i64("lse.stride.1")});
  params.push_back(P::f32("scale_log2"));
  if (workspace)
    params.push_back(P::workspace());
  if (deviceMaps) {
    for (StringRef tensor : {"q", "k", "v"})
      for (int dim = 0; dim < 3; ++dim)
        params.push_back(P::i64((tensor + ".stride." + Twine(dim)).str()));
    SmallVector<TensorMapSpec> maps = {qBox.of("q"), kBox.of("k"),
                                       vBox.of("v")};
    if (oBox)
      maps.push_back(oBox->of("o"));
    params.push_back(P::mapScratch(std::move(maps)));
    return params;
  }
  if (oBox)
    params.push_back(P::tensorMap(oBox->of("o")));
  return params;
}

void fa4::addSinksParam(SmallVectorImpl<KernelParam> &params) {
  auto afterOutputs = llvm::find_if(params, [](const KernelParam &param) {
    return param.kind != KernelParam::Kind::TensorMap &&
           !(param.kind == KernelParam::Kind::Pointer &&
             llvm::is_contained(
                 {"q", "k", "v", "k_cache", "v_cache", "o", "lse"},
                 StringRef(param.name)));
  });
  params.insert(afterOutputs, KernelParam::pointer("sinks"));
}

void fa4::addDescaleParams(SmallVectorImpl<KernelParam> &params,
                           ArrayRef<Descale> descales) {
  // Last, before a map scratch (which stays last).
  auto at = params.end();
  if (!params.empty() && params.back().kind == KernelParam::Kind::MapScratch)
    at = std::prev(at);
  SmallVector<KernelParam> added;
  for (auto [descale, name] : llvm::zip_equal(descales, kDescaleNames)) {
    if (descale == Descale::None)
      continue;
    added.push_back(KernelParam::pointer(name));
    if (descale == Descale::BatchHead)
      added.push_back(KernelParam::i64((Twine(name) + ".stride.0").str()));
  }
  params.insert(at, added.begin(), added.end());
}

void AttentionArgs::readDescales(gpu::GPUFuncOp func,
                                 ArrayRef<KernelParam> params) {
  auto argumentNamed = [&](StringRef name) -> Value {
    for (auto [index, param] : llvm::enumerate(params))
      if (param.name == name && param.kind != KernelParam::Kind::TensorMap)
        return func.getArgument(index);
    return {};
  };
  for (auto [i, name] : llvm::enumerate(kDescaleNames)) {
    descalePtr[i] = argumentNamed(name);
    descaleStride[i] = argumentNamed((Twine(name) + ".stride.0").str());
  }
}

void fa4::setAttentionAlignment(KernelABI &abi, bool hasLse,
                                bool oByTensorMap) {
  KernelABI::Alignment o =
      oByTensorMap ? KernelABI::Alignment{16, 16} : KernelABI::Alignment{4, 4};
  abi.alignment = {{"q", {16, 16}}, {"k", {16, 16}}, {"v", {16, 16}}, {"o", o}};
  if (hasLse)
    abi.alignment.push_back({"lse", {4, 4}});
}

void fa4::setServingAlignment(KernelABI &abi, ServingForm form) {
  if (form == ServingForm::Paged)
    for (auto &[tensor, rule] : abi.alignment)
      if (tensor == "k" || tensor == "v")
        tensor += "_cache";
  for (const KernelParam &param : abi.params)
    if (param.kind == KernelParam::Kind::Pointer &&
        llvm::is_contained({"cu_seqlens_q", "cu_seqlens_k", "seqused_k",
                            "block_table", "seqlens_k", "sinks", "q_descale",
                            "k_descale", "v_descale"},
                           StringRef(param.name)))
      abi.alignment.push_back({param.name, {4, 4}});
}

gpu::GPUFuncOp fa4::createKernelFunc(OpBuilder &b, Location loc, StringRef name,
                                     ArrayRef<KernelParam> params,
                                     int64_t threads) {
  MLIRContext *context = b.getContext();
  auto argType = [&](const KernelParam &param) -> Type {
    switch (param.kind) {
    case KernelParam::Kind::TensorMap:
      return kernel::TensorMapType::get(context);
    case KernelParam::Kind::Pointer:
    case KernelParam::Kind::Workspace:
    case KernelParam::Kind::MapScratch:
      return LLVM::LLVMPointerType::get(context, 1);
    case KernelParam::Kind::I32:
      return b.getI32Type();
    case KernelParam::Kind::I64:
      return b.getI64Type();
    case KernelParam::Kind::F32:
      return b.getF32Type();
    }
    llvm_unreachable("every parameter kind is handled");
  };
  auto func = gpu::GPUFuncOp::create(
      b, loc, name,
      b.getFunctionType(llvm::map_to_vector(params, argType), {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  if (!params.empty() && params.back().kind == KernelParam::Kind::MapScratch)
    func->setAttr(kernel::FA4Dialect::kDeviceTensorMapsAttrName,
                  tensorMapScratchAttr(context, params.back().maps));
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

AttentionArgs AttentionArgs::readServing(gpu::GPUFuncOp func,
                                         const ServingLayout &layout) {
  AttentionArgs args;
  unsigned arg = 0;
  auto next = [&] { return func.getArgument(arg++); };
  bool paged = layout.form == ServingForm::Paged;
  args.qMap = next();
  args.kMap = next();
  args.vMap = next();
  args.outPtr = next();
  if (layout.hasLse)
    args.lsePtr = next();
  if (layout.sinks)
    args.sinksPtr = next();
  if (paged) {
    args.blockTable = next();
    args.seqlensK = next();
    if (layout.packedQueries)
      args.cuSeqlensQ = next();
  } else {
    args.cuSeqlensQ = next();
    args.cuSeqlensK = next();
    if (layout.seqUsedK)
      args.seqUsedK = next();
  }
  args.batchSize = next();
  args.seqQ = next();
  if (layout.packedQueries)
    args.tokensQ = next();
  (paged ? args.maxPages : args.seqKV) = next();
  // Packed O [Tq, Hq, Dv] and LSE [Hq, Tq] have no batch stride: the
  // kernel adds a zero (spanSequence moves the pointers to the sequence).
  int oStrides = layout.packedQueries ? 2 : 3;
  for (int dim = 0; dim < oStrides; ++dim)
    args.outStride.push_back(next());
  if (layout.hasLse)
    for (int dim = 0; dim < oStrides - 1; ++dim)
      args.lseStride.push_back(next());
  if (paged)
    args.blockTableStride = next();
  args.scaleLog2 = next();
  if (layout.workspace)
    args.workspace = next();
  if (paged) {
    args.kPtr = next();
    args.vPtr = next();
    args.pages = next();
    for (auto *strides : {&args.kStride, &args.vStride})
      for (int dim = 0; dim < 3; ++dim)
        strides->push_back(next());
  }
  return args;
}

AttentionArgs AttentionArgs::read(gpu::GPUFuncOp func, bool hasLse,
                                  bool workspace, bool sinks) {
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
  if (sinks)
    args.sinksPtr = func.getArgument(arg++);
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
    args.deviceMaps = tensorMapsOf(
        func->getAttr(kernel::FA4Dialect::kDeviceTensorMapsAttrName));
    return args;
  }
  if (arg < func.getNumArguments())
    args.oMap = func.getArgument(arg++);
  return args;
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
