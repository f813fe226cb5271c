//===- AttnToHopper.cpp - attn.attention -> TMA + wgmma kernel (sm_90a) ---===//
//
// The FA3 structure, read from the plan attributes:
//
//   warpgroup 0      producer: setmaxnreg down; one thread issues the TMA
//                    loads of Q (once) and of each K/V tile into a ring of
//                    `kv_stages` slots, each slot guarded by a full barrier
//                    (transaction bytes) and an empty barrier (consumers).
//   warpgroups 1..n  consumers (n = num_q): setmaxnreg up; each owns a 64-row
//                    Q tile, computes S = Q K^T with wgmma from shared memory,
//                    the online softmax in registers (exp2, scale * log2(e)
//                    folded in), and O += P V with wgmma taking P from
//                    registers (the S accumulator layout is the A-fragment
//                    layout of a k16 step, FlashAttention-3's observation).
//
// Shared-memory operands use the 128-byte swizzle written by TMA; the wgmma
// descriptors below read them back (PTX ISA 9.7.15.5.1, "Matrix Descriptor
// Format"). Out-of-range rows of Q, K and V are zero-filled by TMA; keys at
// or past Skv and keys the mask hides get -inf before the softmax.
//
//===----------------------------------------------------------------------===//

#include "../Common/KernelEmitter.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Target/NVIDIA/Descriptors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <cmath>

namespace fa4 {
#define GEN_PASS_DEF_CONVERTATTNTOHOPPERKERNEL
#include "fa4/Conversion/Passes.h.inc"
} // namespace fa4

using namespace mlir;
using namespace fa4;

namespace {
constexpr int kWarpgroupThreads = 128;
/// wgmma's M: each consumer warpgroup owns a 64-row Q tile.
constexpr int kRowsPerConsumer = 64;
/// One TMA box and one 128B swizzle atom row: 64 16-bit elements.
constexpr int kBoxColumns = 64;
constexpr int kSwizzleBytes = 128;
/// Register budgets after setmaxnreg (multiples of 8 in [24, 256]). The
/// pool setmaxnreg redistributes is what the CTA got at launch: ptxas caps a
/// 384-thread kernel at 168 registers (65536 / 384, rounded down to 8), so
/// 168 * 384 = 64512. setmaxnreg.inc waits until registers are free: asking
/// for more than the pool hangs the consumers. Two consumers at 240 and a
/// producer at 24 use it exactly.
constexpr int kProducerRegisters = 24;
constexpr int kConsumerRegisters = 240;
static_assert(2 * 128 * kConsumerRegisters + 128 * kProducerRegisters <=
                  168 * 384,
              "setmaxnreg budgets exceed the registers allocated at launch");

/// Everything the emitter needs, read from the op and its plan attributes.
struct HopperPlan {
  int64_t numConsumers, bn, kvStages, qkBoxes, ovBoxes, group, numQHeads;
  int64_t qkDepth, ovDepth, paddedOv;
  int64_t qOffset, kRingOffset, vRingOffset, barrierOffset, barrierBytes;
  int64_t kStageBytes, vStageBytes, smemUsed;
  attn::MaskAttr mask;
  bool hasLse;
  Type elementType;

  int64_t qTileBytes() const {
    return qkBoxes * kRowsPerConsumer * kSwizzleBytes;
  }
  int64_t kBoxBytes() const { return bn * kSwizzleBytes; }
  /// mbarriers: Q full, Q empty; per slot K full, V full, slot empty.
  int64_t numBarriers() const { return 2 + 3 * kvStages; }
};

/// Reads the plan; fails with a diagnostic for plans this kernel cannot run.
FailureOr<HopperPlan> readPlan(attn::AttentionOp op) {
  attn::ConfigAttr config = op.getConfigAttr();
  attn::SmemAttr smem = op.getSmemAttr();
  attn::SwizzleAttr swizzle = op.getSwizzleAttr();
  if (!config || !smem || !swizzle)
    return op.emitOpError()
           << "needs #attn.config, #attn.swizzle and #attn.smem; run "
              "attn-plan-pipeline{chip=sm_90a} first";
  if (config.getChip() != attn::Chip::SM90a)
    return op.emitOpError()
           << "has a plan for " << attn::stringifyChip(config.getChip())
           << "; this lowering targets sm_90a";
  HopperPlan plan;
  plan.numConsumers = config.getNumQ();
  plan.bn = config.getBn();
  plan.kvStages = smem.getKvStages();
  plan.qkDepth = config.getQkDepth();
  plan.ovDepth = config.getOvDepth();
  plan.qkBoxes = config.getPaddedQkDepth() / kBoxColumns;
  plan.paddedOv = config.getPaddedOvDepth();
  plan.ovBoxes = plan.paddedOv / kBoxColumns;
  plan.group = config.getGroup();
  plan.numQHeads = config.getNumQHeads();
  plan.mask = op.getMask();
  plan.hasLse = static_cast<bool>(op.getLse());
  plan.elementType = op.getQueryType().getElementType();
  plan.kStageBytes = smem.getKStageBytes();
  plan.vStageBytes = smem.getVStageBytes();
  plan.smemUsed = smem.getSmemUsed();
  fa4::SmemPlan regions = smem.toPlan();
  plan.qOffset = regions.q.offset;
  plan.kRingOffset = regions.kRing.offset;
  plan.vRingOffset = regions.vRing.offset;
  plan.barrierOffset = regions.barriers.offset;
  plan.barrierBytes = regions.barriers.bytes;

  auto box = [](attn::TmaBoxAttr b) {
    return std::make_tuple(b.getRows(), b.getColumns(), b.getSwizzle());
  };
  if (config.getMmaM() != kRowsPerConsumer ||
      config.getBm() != plan.numConsumers * kRowsPerConsumer ||
      config.getPaddedQkDepth() % kBoxColumns || plan.paddedOv % kBoxColumns ||
      plan.paddedOv > 256 || plan.bn % 16 || plan.bn > 256 ||
      config.getUseSharedKv() ||
      box(swizzle.getQ()) != std::make_tuple(int64_t(kRowsPerConsumer),
                                             int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes)) ||
      box(swizzle.getK()) != std::make_tuple(plan.bn, int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes)) ||
      box(swizzle.getV()) != std::make_tuple(plan.bn, int64_t(kBoxColumns),
                                             int64_t(kSwizzleBytes)))
    return op.emitOpError()
           << "has an sm_90a plan this kernel does not implement (it needs "
              "64-row consumer tiles, depths in 64-column 128B-swizzled boxes, "
              "Dv <= 256, BN a multiple of 16 up to 256 and separate K/V "
              "rings), got "
           << config;
  if (plan.kStageBytes < plan.qkBoxes * plan.kBoxBytes() ||
      plan.vStageBytes < plan.ovBoxes * plan.kBoxBytes() ||
      plan.barrierBytes < plan.numBarriers() * 8)
    return op.emitOpError() << "has a shared-memory plan too small for its "
                               "K/V slots or its "
                            << plan.numBarriers() << " mbarriers: " << smem;
  return plan;
}

/// Emits the kernel body into an llvm.func.
class HopperKernelEmitter : KernelEmitter {
public:
  HopperKernelEmitter(OpBuilder &b, Location loc, const HopperPlan &plan,
                      bool pingPong, bool persistent)
      : KernelEmitter(b, loc), plan(plan),
        pingPong(pingPong && plan.numConsumers == 2), persistent(persistent) {}

  void emit(LLVM::LLVMFuncOp func, LLVM::GlobalOp smemGlobal);

private:
  Value fromIndex(Value v) { return indexTo(b.getI32Type(), v); }

  //===--- shared memory, barriers, TMA -----------------------------------===//
  Value smemPtr(Value byteOffset) {
    return LLVM::GEPOp::create(b, loc, smemBase.getType(), b.getI8Type(),
                               smemBase, ValueRange{byteOffset});
  }
  Value smemPtr(int64_t byteOffset) { return smemPtr(i32(byteOffset)); }
  Value barrier(Value index) {
    return smemPtr(add(i32(plan.barrierOffset), mul(index, i32(8))));
  }
  Value barrier(int64_t index) { return barrier(i32(index)); }
  Value qFullBarrier() { return barrier(0); }
  Value qEmptyBarrier() { return barrier(1); }
  Value kFullBarrier(Value slot) { return barrier(add(i32(2), slot)); }
  Value vFullBarrier(Value slot) {
    return barrier(add(i32(2 + plan.kvStages), slot));
  }
  Value emptyBarrier(Value slot) {
    return barrier(add(i32(2 + 2 * plan.kvStages), slot));
  }
  void waitBarrier(Value barrierPtr, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, barrierPtr, parity,
                                          i32(0x989680));
  }
  void expectBytes(Value barrierPtr, int64_t bytes) {
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), barrierPtr,
                                           i32(bytes), NVVM::MemScopeKind::CTA,
                                           false, Value());
  }
  /// One 4D TMA box (coordinates innermost first: depth, head, row, batch).
  void tmaLoad(Value tensorMap, Value dstOffset, Value depth, Value head,
               Value row, Value batch, Value barrierPtr) {
    Value dst = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
        smemPtr(dstOffset));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst, tensorMap, ValueRange{depth, head, row, batch}, barrierPtr,
        ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false,
        NVVM::CTAGroupKindAttr(), Value());
  }

  //===--- wgmma ----------------------------------------------------------===//
  /// Shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"):
  /// every field but the start address is a compile-time constant built by
  /// encodeWgmmaDescriptor; the start address (bits 0-13, address >> 4) is
  /// only known at run time and is OR-ed into its zero field here.
  Value descriptor(Value byteOffset, int64_t leadingBytes,
                   int64_t strideBytes) {
    Value address = add(smemAddress, byteOffset);
    Value start = arith::ExtUIOp::create(
        b, loc, b.getI64Type(),
        arith::AndIOp::create(b, loc,
                              arith::ShRUIOp::create(b, loc, address, i32(4)),
                              i32(0x3FFF)));
    uint64_t fixed = encodeWgmmaDescriptor(
        /*startAddress=*/0, static_cast<uint32_t>(leadingBytes),
        static_cast<uint32_t>(strideBytes), SmemSwizzle::B128);
    return arith::OrIOp::create(b, loc, start,
                                i64(static_cast<int64_t>(fixed)));
  }
  /// K-major operand in 128B-swizzled boxes of 64 columns: 8-row core
  /// matrices 1024 bytes apart (SBO); LBO is unused for swizzled K-major.
  Value kMajorDescriptor(Value byteOffset) {
    return descriptor(byteOffset, 16, 8 * kSwizzleBytes);
  }
  /// MN-major operand (V, N = depth): LBO steps to the next 64-column box of
  /// depth, SBO to the next 8 keys.
  Value mnMajorDescriptor(Value byteOffset) {
    return descriptor(byteOffset, plan.kBoxBytes(), 8 * kSwizzleBytes);
  }

  std::string typeSuffix() const {
    return plan.elementType.isBF16() ? "bf16" : "f16";
  }
  /// D (64 x n, f32) += A x B. With `aRegisters` empty, A is the K-major
  /// descriptor `aDesc`; otherwise the four 32-bit A fragments of a k16 step.
  /// B comes from `bDesc`, transposed (MN-major) when `transposeB`.
  SmallVector<Value> wgmma(ArrayRef<Value> accumulator, int64_t n, Value aDesc,
                           ArrayRef<Value> aRegisters, Value bDesc,
                           bool transposeB);
  Value packPair(Value low, Value high);

  //===--- parts of the kernel --------------------------------------------===//
  SmallVector<Value> maskScores(ArrayRef<Value> scores, Value firstKey,
                                Value tileRow, Value fragmentColumn,
                                ArrayRef<Value> rows);
  void decodeWork(Value index);
  void emitEpilogue(ArrayRef<Value> results, ArrayRef<Value> rows,
                    Value fragmentColumn, Value lane);
  /// Where a producer or consumer is in its list of work tiles.
  struct WorkScope {
    scf::ForOp loop; // null when not persistent: one work tile per CTA
    Value workDone;  // work tiles this CTA finished before this one
    Value kvTiles;   // K/V ring tiles used before this work tile
  };
  WorkScope beginWork();
  void endWork(WorkScope scope);
  void emitProducer();
  void emitConsumer(Value consumer, Value threadInGroup);

  const HopperPlan &plan;
  bool pingPong;
  bool persistent;

  // Kernel arguments and values every part uses.
  Value qMap, kMap, vMap, outPtr, lsePtr, seqQ, seqKV, scaleLog2;
  SmallVector<Value> outStride, lseStride;
  Value smemBase, smemAddress;
  Value batchSize, numWork, firstWork, workStride;
  // The current work tile (decodeWork).
  Value batch, head, kvHead, blockRow, firstTile, numTiles;
};
} // namespace

SmallVector<Value> HopperKernelEmitter::wgmma(ArrayRef<Value> accumulator,
                                              int64_t n, Value aDesc,
                                              ArrayRef<Value> aRegisters,
                                              Value bDesc, bool transposeB) {
  int64_t numAcc = accumulator.size();
  std::string asmText;
  llvm::raw_string_ostream os(asmText);
  os << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32." << typeSuffix()
     << "." << typeSuffix() << " {";
  for (int64_t i = 0; i < numAcc; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, ";
  int64_t next = 2 * numAcc;
  SmallVector<Value> operands(accumulator);
  std::string constraints;
  for (int64_t i = 0; i < numAcc; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < numAcc; ++i)
    constraints += std::to_string(i) + ",";
  if (aRegisters.empty()) {
    os << "$" << next++ << ", ";
    operands.push_back(aDesc);
    constraints += "l,";
  } else {
    os << "{";
    for (size_t i = 0; i < aRegisters.size(); ++i)
      os << (i ? ", " : "") << "$" << next++;
    os << "}, ";
    operands.append(aRegisters.begin(), aRegisters.end());
    for (size_t i = 0; i < aRegisters.size(); ++i)
      constraints += "r,";
  }
  os << "$" << next++;
  operands.push_back(bDesc);
  constraints += "l";
  // scale-d = 1 (accumulate), scale-a = scale-b = 1, then the transposes:
  // A from registers takes no transpose flag.
  os << ", 1, 1, 1";
  if (aRegisters.empty())
    os << ", 0";
  os << ", " << (transposeB ? 1 : 0) << ";";

  SmallVector<Type> fields(numAcc, b.getF32Type());
  auto structType = LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
  auto inlineAsm = LLVM::InlineAsmOp::create(
      b, loc, structType, operands, b.getStringAttr(asmText),
      b.getStringAttr(constraints), b.getUnitAttr(), UnitAttr(),
      LLVM::TailCallKindAttr(),
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  SmallVector<Value> result;
  for (int64_t i = 0; i < numAcc; ++i)
    result.push_back(
        LLVM::ExtractValueOp::create(b, loc, inlineAsm.getResult(0), i));
  return result;
}

/// Two f32 as one 32-bit register of two 16-bit values, `low` in bits 0-15
/// (the column with the smaller index, as wgmma's A fragment expects).
Value HopperKernelEmitter::packPair(Value low, Value high) {
  auto pairType = VectorType::get({2}, b.getF32Type());
  Value pair = LLVM::UndefOp::create(b, loc, pairType);
  pair = LLVM::InsertElementOp::create(b, loc, pair, low, i32(0));
  pair = LLVM::InsertElementOp::create(b, loc, pair, high, i32(1));
  Value narrow = arith::TruncFOp::create(
      b, loc, VectorType::get({2}, plan.elementType), pair);
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), narrow);
}

/// -inf for the keys a row does not see: keys at or past Skv and, bottom-right
/// aligned, keys past the causal diagonal or outside the window. Only tiles
/// that reach one of those edges for some row of this consumer take the
/// masked path.
SmallVector<Value> HopperKernelEmitter::maskScores(ArrayRef<Value> scores,
                                                   Value firstKey,
                                                   Value tileRow,
                                                   Value fragmentColumn,
                                                   ArrayRef<Value> rows) {
  attn::MaskAttr mask = plan.mask;
  Value shift = sub(seqKV, seqQ);
  Value lastKey = add(firstKey, i32(plan.bn - 1));
  Value firstDiagonal = add(tileRow, shift);
  Value lastDiagonal = add(firstDiagonal, i32(kRowsPerConsumer - 1));
  Value needsMask = cmp(arith::CmpIPredicate::sge, lastKey, seqKV);
  auto orNeeds = [&](Value condition) {
    needsMask = arith::OrIOp::create(b, loc, needsMask, condition);
  };
  if (mask.getKind() == attn::MaskKind::Causal)
    orNeeds(cmp(arith::CmpIPredicate::sgt, lastKey, firstDiagonal));
  if (mask.getKind() == attn::MaskKind::Window) {
    if (mask.getRight() >= 0)
      orNeeds(cmp(arith::CmpIPredicate::sgt, lastKey,
                  add(firstDiagonal, i32(mask.getRight()))));
    if (mask.getLeft() >= 0)
      orNeeds(cmp(arith::CmpIPredicate::slt, firstKey,
                  sub(lastDiagonal, i32(mask.getLeft()))));
  }

  SmallVector<Type> types(scores.size(), b.getF32Type());
  auto ifMask = scf::IfOp::create(b, loc, types, needsMask,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifMask.elseBlock());
  scf::YieldOp::create(b, loc, scores);
  b.setInsertionPointToStart(ifMask.thenBlock());
  Value negInf = f32(-INFINITY);
  SmallVector<Value> masked;
  for (auto [i, score] : llvm::enumerate(scores)) {
    int64_t half = (i % 4) / 2;
    Value key = add(firstKey, add(fragmentColumn, i32(8 * (i / 4) + i % 2)));
    Value visible = cmp(arith::CmpIPredicate::slt, key, seqKV);
    Value diagonal = add(rows[half], shift);
    auto keep = [&](Value condition) {
      visible = arith::AndIOp::create(b, loc, visible, condition);
    };
    if (mask.getKind() == attn::MaskKind::Causal)
      keep(cmp(arith::CmpIPredicate::sle, key, diagonal));
    if (mask.getKind() == attn::MaskKind::Window) {
      if (mask.getRight() >= 0)
        keep(cmp(arith::CmpIPredicate::sle, key,
                 add(diagonal, i32(mask.getRight()))));
      if (mask.getLeft() >= 0)
        keep(cmp(arith::CmpIPredicate::sge, key,
                 sub(diagonal, i32(mask.getLeft()))));
    }
    masked.push_back(select(visible, score, negInf));
  }
  scf::YieldOp::create(b, loc, masked);
  return SmallVector<Value>(ifMask.getResults());
}

/// Persistent: a loop over this CTA's work tiles carrying (work tiles done,
/// K/V tiles used so far); the K/V ring and the Q buffer continue from one
/// work tile to the next, so their slots and barrier parities count across
/// tiles. Otherwise the CTA's one work tile, with both counts 0.
HopperKernelEmitter::WorkScope HopperKernelEmitter::beginWork() {
  if (!persistent) {
    decodeWork(firstWork);
    return {scf::ForOp(), i32(0), i32(0)};
  }
  auto loop =
      scf::ForOp::create(b, loc, toIndex(firstWork), toIndex(numWork),
                         toIndex(workStride), ValueRange{i32(0), i32(0)});
  b.setInsertionPointToStart(loop.getBody());
  decodeWork(fromIndex(loop.getInductionVar()));
  return {loop, loop.getRegionIterArgs()[0], loop.getRegionIterArgs()[1]};
}

void HopperKernelEmitter::endWork(WorkScope scope) {
  if (!scope.loop)
    return;
  scf::YieldOp::create(
      b, loc,
      ValueRange{add(scope.workDone, i32(1)), add(scope.kvTiles, numTiles)});
  b.setInsertionPointAfter(scope.loop);
}

void HopperKernelEmitter::emitProducer() {
  WorkScope work = beginWork();
  Value workDone = work.workDone, tilesLoaded = work.kvTiles;

  // Q: each consumer's 64 rows, all depth boxes, on one barrier, once the
  // consumers have released the previous work tile's Q.
  auto ifReuseQ = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::sgt, workDone, i32(0)), false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifReuseQ.thenBlock());
    waitBarrier(qEmptyBarrier(),
                arith::AndIOp::create(b, loc, sub(workDone, i32(1)), i32(1)));
  }
  Value qBarrier = qFullBarrier();
  expectBytes(qBarrier, plan.numConsumers * plan.qTileBytes());
  for (int64_t consumer = 0; consumer < plan.numConsumers; ++consumer)
    for (int64_t box = 0; box < plan.qkBoxes; ++box)
      tmaLoad(qMap,
              i32(plan.qOffset + consumer * plan.qTileBytes() +
                  box * kRowsPerConsumer * kSwizzleBytes),
              i32(box * kBoxColumns), head,
              add(blockRow, i32(consumer * kRowsPerConsumer)), batch, qBarrier);

  // K and V tiles through the ring; a slot is reused once both consumers
  // have released it.
  auto loop = scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(numTiles),
                                 toIndex(i32(1)));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value tile = fromIndex(loop.getInductionVar());
    Value ringTile = add(tilesLoaded, tile);
    Value stages = i32(plan.kvStages);
    Value slot = remu(ringTile, stages);
    Value round = divu(ringTile, stages);
    auto ifReuse = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::uge, ringTile, stages), false);
    {
      OpBuilder::InsertionGuard reuseGuard(b);
      b.setInsertionPointToStart(ifReuse.thenBlock());
      waitBarrier(emptyBarrier(slot),
                  arith::AndIOp::create(b, loc, sub(round, i32(1)), i32(1)));
    }
    Value keyRow = mul(add(firstTile, tile), i32(plan.bn));
    Value kBarrier = kFullBarrier(slot);
    expectBytes(kBarrier, plan.qkBoxes * plan.kBoxBytes());
    Value kSlot = add(i32(plan.kRingOffset), mul(slot, i32(plan.kStageBytes)));
    for (int64_t box = 0; box < plan.qkBoxes; ++box)
      tmaLoad(kMap, add(kSlot, i32(box * plan.kBoxBytes())),
              i32(box * kBoxColumns), kvHead, keyRow, batch, kBarrier);
    Value vBarrier = vFullBarrier(slot);
    expectBytes(vBarrier, plan.ovBoxes * plan.kBoxBytes());
    Value vSlot = add(i32(plan.vRingOffset), mul(slot, i32(plan.vStageBytes)));
    for (int64_t box = 0; box < plan.ovBoxes; ++box)
      tmaLoad(vMap, add(vSlot, i32(box * plan.kBoxBytes())),
              i32(box * kBoxColumns), kvHead, keyRow, batch, vBarrier);
  }
  endWork(work);
}

void HopperKernelEmitter::emitConsumer(Value consumer, Value threadInGroup) {
  Value lane = remu(threadInGroup, i32(32));
  Value warp = divu(threadInGroup, i32(32));
  // Accumulator fragment of wgmma m64nN (f32): register 4j + e holds row
  // 16 * warp + lane / 4 + 8 * (e / 2), column 8j + 2 * (lane % 4) + e % 2.
  Value fragmentRow = add(mul(warp, i32(16)), divu(lane, i32(4)));
  Value fragmentColumn = mul(remu(lane, i32(4)), i32(2));
  Value qTile = add(i32(plan.qOffset), mul(consumer, i32(plan.qTileBytes())));
  int64_t numS = plan.bn / 2, numO = plan.paddedOv / 2;
  int64_t numSteps = plan.bn / 16, numFragments = 4 * numSteps;
  Value negInf = f32(-INFINITY), zero = f32(0.0);
  Value stages = i32(plan.kvStages);
  auto slotOf = [&](Value tile) { return remu(tile, stages); };
  auto parityOf = [&](Value tile) {
    return arith::AndIOp::create(b, loc, divu(tile, stages), i32(1));
  };
  // O += P V for `tile`: one k16 step per 16 keys, P from registers.
  auto issuePV = [&](ArrayRef<Value> out, ArrayRef<Value> fragments,
                     Value tile) {
    waitBarrier(vFullBarrier(slotOf(tile)), parityOf(tile));
    Value vSlot =
        add(i32(plan.vRingOffset), mul(slotOf(tile), i32(plan.vStageBytes)));
    SmallVector<Value> descriptors;
    for (int64_t step = 0; step < numSteps; ++step)
      descriptors.push_back(
          mnMajorDescriptor(add(vSlot, i32(step * 16 * kSwizzleBytes))));
    // O and P reach these wgmmas through branch merges; the fence orders
    // those register writes before the GEMMs read them.
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    SmallVector<Value> result(out);
    for (int64_t step = 0; step < numSteps; ++step)
      result = wgmma(result, plan.paddedOv, Value(),
                     fragments.slice(4 * step, 4), descriptors[step], true);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    return result;
  };
  auto releaseSlot = [&](Value tile) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), emptyBarrier(slotOf(tile)),
                                   Value());
  };
  // Ping-pong (FA3): named barrier 1 + c orders consumer c's GEMM issue after
  // the other consumer's, so one warpgroup's softmax runs under the other's
  // GEMMs. Consumer 1 lets consumer 0 go first.
  Value ownTurn = add(consumer, i32(1)), otherTurn = sub(i32(2), consumer);
  Value pairThreads = i32(2 * kWarpgroupThreads);
  if (pingPong) {
    auto ifSecond = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(1)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifSecond.thenBlock());
    NVVM::BarrierArriveOp::create(b, loc, otherTurn, pairThreads);
  }

  WorkScope work = beginWork();
  Value workDone = work.workDone, tilesSeen = work.kvTiles;
  Value tileRow = add(blockRow, mul(consumer, i32(kRowsPerConsumer)));
  Value rows[2] = {add(tileRow, fragmentRow),
                   add(tileRow, add(fragmentRow, i32(8)))};
  waitBarrier(qFullBarrier(), arith::AndIOp::create(b, loc, workDone, i32(1)));

  // Each iteration issues S(t) = Q K^T(t) and, in the same GEMM turn,
  // O += P(t-1) V(t-1); then the softmax of S(t) makes P(t). P V lags one
  // tile so that both GEMMs of a turn are in flight together.
  SmallVector<Value> init(numO, zero);
  init.append({negInf, negInf, zero, zero}); // row max, row sum (2 rows)
  init.append(numFragments, i32(0));         // P(t-1) as A fragments
  auto loop = scf::ForOp::create(b, loc, toIndex(i32(0)), toIndex(numTiles),
                                 toIndex(i32(1)), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ValueRange carried = loop.getRegionIterArgs();
    SmallVector<Value> out(carried.take_front(numO));
    Value rowMax[2] = {carried[numO], carried[numO + 1]};
    Value rowSum[2] = {carried[numO + 2], carried[numO + 3]};
    SmallVector<Value> previousP(carried.drop_front(numO + 4));

    Value tile = fromIndex(loop.getInductionVar());
    Value ringTile = add(tilesSeen, tile);
    Value slot = slotOf(ringTile);
    Value firstKey = mul(add(firstTile, tile), i32(plan.bn));
    Value hasPrevious = cmp(arith::CmpIPredicate::sgt, tile, i32(0));
    Value previous = sub(ringTile, i32(1));

    waitBarrier(kFullBarrier(slot), parityOf(ringTile));
    if (pingPong)
      NVVM::BarrierOp::create(b, loc, Type(), ownTurn, pairThreads,
                              NVVM::BarrierReductionAttr(), Value());
    // S = Q K^T over the depth in k16 steps; four per 64-column box.
    Value kSlot = add(i32(plan.kRingOffset), mul(slot, i32(plan.kStageBytes)));
    SmallVector<Value> scores(numS, zero);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    for (int64_t step = 0; step < plan.qkBoxes * 4; ++step) {
      int64_t box = step / 4, within = (step % 4) * 32;
      Value aDesc = kMajorDescriptor(
          add(qTile, i32(box * kRowsPerConsumer * kSwizzleBytes + within)));
      Value bDesc =
          kMajorDescriptor(add(kSlot, i32(box * plan.kBoxBytes() + within)));
      scores = wgmma(scores, plan.bn, aDesc, {}, bDesc, false);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    SmallVector<Type> outTypes(numO, b.getF32Type());
    auto ifPV = scf::IfOp::create(b, loc, outTypes, hasPrevious, true);
    {
      OpBuilder::InsertionGuard pvGuard(b);
      b.setInsertionPointToStart(ifPV.thenBlock());
      scf::YieldOp::create(b, loc, issuePV(out, previousP, previous));
      b.setInsertionPointToStart(ifPV.elseBlock());
      scf::YieldOp::create(b, loc, out);
    }
    out.assign(ifPV.getResults().begin(), ifPV.getResults().end());
    if (pingPong)
      NVVM::BarrierArriveOp::create(b, loc, otherTurn, pairThreads);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    {
      auto ifRelease = scf::IfOp::create(b, loc, hasPrevious, false);
      OpBuilder::InsertionGuard releaseGuard(b);
      b.setInsertionPointToStart(ifRelease.thenBlock());
      releaseSlot(previous);
    }

    // Mask only the tiles that need it (keys past Skv, or crossing the
    // causal / window diagonal of this consumer's rows): a warp-uniform
    // branch, so interior tiles skip the per-element compares.
    scores = maskScores(scores, firstKey, tileRow, fragmentColumn, rows);

    // Row maxima of the raw scores, then the exp2 domain: scale > 0, so
    // max(s) * scale = max(s * scale) and p = exp2(s * scale - max) is one
    // FMA and one MUFU op per element.
    Value tileMax[2] = {negInf, negInf};
    for (int64_t i = 0; i < numS; ++i)
      tileMax[(i % 4) / 2] = fmax(tileMax[(i % 4) / 2], scores[i]);
    Value rescale[2], negSafeMax[2];
    for (int half = 0; half < 2; ++half) {
      Value m = fmax(tileMax[half], shuffleXor(tileMax[half], 1));
      m = fmax(m, shuffleXor(m, 2));
      Value newMax = fmax(rowMax[half], fmul(m, scaleLog2));
      // A row with no visible key yet keeps max -inf; exp2 against 0 then
      // gives 0 instead of NaN from (-inf) - (-inf).
      Value safeMax =
          select(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       newMax, negInf),
                 zero, newMax);
      negSafeMax[half] = arith::NegFOp::create(b, loc, safeMax);
      rescale[half] = exp2(fsub(rowMax[half], safeMax));
      rowMax[half] = newMax;
      rowSum[half] = fmul(rowSum[half], rescale[half]);
    }
    for (int64_t i = 0; i < numS; ++i) {
      int64_t half = (i % 4) / 2;
      scores[i] = exp2(
          LLVM::FMAOp::create(b, loc, scores[i], scaleLog2, negSafeMax[half]));
      rowSum[half] = fadd(rowSum[half], scores[i]);
    }
    for (int64_t i = 0; i < numO; ++i)
      out[i] = fmul(out[i], rescale[(i % 4) / 2]);

    // P as wgmma A fragments, packed before the next fence: a register
    // written between two wgmmas makes ptxas serialise them (C7519).
    SmallVector<Value> next(out);
    next.append({rowMax[0], rowMax[1], rowSum[0], rowSum[1]});
    for (int64_t step = 0; step < numSteps; ++step) {
      int64_t j = 2 * step; // the two n8 chunks of S this k16 step covers
      next.append({packPair(scores[4 * j], scores[4 * j + 1]),
                   packPair(scores[4 * j + 2], scores[4 * j + 3]),
                   packPair(scores[4 * j + 4], scores[4 * j + 5]),
                   packPair(scores[4 * j + 6], scores[4 * j + 7])});
    }
    scf::YieldOp::create(b, loc, next);
  }

  // The last tile's P V, outside any GEMM turn.
  ValueRange loopResults = loop.getResults();
  SmallVector<Value> results(loopResults.take_front(numO));
  {
    SmallVector<Type> outTypes(numO, b.getF32Type());
    auto ifLast = scf::IfOp::create(
        b, loc, outTypes, cmp(arith::CmpIPredicate::sgt, numTiles, i32(0)),
        true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifLast.thenBlock());
    Value last = sub(add(tilesSeen, numTiles), i32(1));
    SmallVector<Value> finalOut = issuePV(
        results, SmallVector<Value>(loopResults.drop_front(numO + 4)), last);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    releaseSlot(last);
    scf::YieldOp::create(b, loc, finalOut);
    b.setInsertionPointToStart(ifLast.elseBlock());
    scf::YieldOp::create(b, loc, results);
    results.assign(ifLast.getResults().begin(), ifLast.getResults().end());
  }
  results.append(loopResults.begin() + numO, loopResults.begin() + numO + 4);
  // Q is dead after the last QK^T: the producer may load the next work
  // tile's Q while this epilogue runs.
  NVVM::MBarrierArriveOp::create(b, loc, Type(), qEmptyBarrier(), Value());
  emitEpilogue(results, rows, fragmentColumn, lane);
  endWork(work);
  if (pingPong) {
    // Consumer 0 takes the turn that consumer 1's first arrive granted, so
    // every named-barrier phase completes before exit.
    auto ifFirst = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, consumer, i32(0)), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    NVVM::BarrierOp::create(b, loc, Type(), ownTurn, pairThreads,
                            NVVM::BarrierReductionAttr(), Value());
  }
}

/// Finishes the row sums across the 4 lanes of a row, normalises, and stores
/// O (two adjacent columns per store) and LSE of the current work tile.
/// `results` holds O's accumulator, then row max and row sum of both rows.
void HopperKernelEmitter::emitEpilogue(ArrayRef<Value> results,
                                       ArrayRef<Value> rows,
                                       Value fragmentColumn, Value lane) {
  int64_t numO = plan.paddedOv / 2;
  Value zero = f32(0.0);
  for (int half = 0; half < 2; ++half) {
    Value sum = results[numO + 2 + half];
    sum = fadd(sum, shuffleXor(sum, 1));
    sum = fadd(sum, shuffleXor(sum, 2));
    Value seesKeys =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, sum, zero);
    Value inverse =
        select(seesKeys, arith::DivFOp::create(b, loc, f32(1.0), sum), zero);
    Value row = rows[half];
    Value rowInRange = cmp(arith::CmpIPredicate::slt, row, seqQ);
    Value rowBase =
        add(mul(sext(batch), outStride[0]),
            add(mul(sext(row), outStride[1]), mul(sext(head), outStride[2])));
    for (int64_t j = 0; j < plan.paddedOv / 8; ++j) {
      Value column = add(fragmentColumn, i32(8 * j));
      Value inBounds = arith::AndIOp::create(
          b, loc, rowInRange,
          cmp(arith::CmpIPredicate::slt, column, i32(plan.ovDepth)));
      auto ifStore = scf::IfOp::create(b, loc, inBounds, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifStore.thenBlock());
      Value pair = packPair(fmul(results[4 * j + 2 * half], inverse),
                            fmul(results[4 * j + 2 * half + 1], inverse));
      Value address =
          LLVM::GEPOp::create(b, loc, outPtr.getType(), plan.elementType,
                              outPtr, ValueRange{add(rowBase, sext(column))});
      LLVM::StoreOp::create(b, loc, pair, address, /*alignment=*/4);
    }
    if (plan.hasLse) {
      Value writer = arith::AndIOp::create(
          b, loc, rowInRange,
          cmp(arith::CmpIPredicate::eq, remu(lane, i32(4)), i32(0)));
      auto ifLse = scf::IfOp::create(b, loc, writer, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifLse.thenBlock());
      // Natural log: (max + log2(sum)) * ln 2; -inf for a row with no key.
      Value lse = select(
          seesKeys, fmul(fadd(results[numO + half], log2(sum)), f32(M_LN2)),
          f32(-INFINITY));
      Value index = add(mul(sext(batch), lseStride[0]),
                        add(mul(sext(head), lseStride[1]), sext(row)));
      Value address = LLVM::GEPOp::create(
          b, loc, lsePtr.getType(), b.getF32Type(), lsePtr, ValueRange{index});
      LLVM::StoreOp::create(b, loc, lse, address, /*alignment=*/4);
    }
  }
}

/// The work tile `index` names: a 128-row block of one (batch, head), and the
/// KV tiles its rows can see. Causal and window masks go heaviest first (the
/// last row blocks see the most keys): longest-processing-time order for the
/// persistent CTAs. Otherwise the row blocks of one head are adjacent, so
/// CTAs running together share K and V in L2.
void HopperKernelEmitter::decodeWork(Value index) {
  Value rowsPerBlock = i32(plan.numConsumers * kRowsPerConsumer);
  Value numRowBlocks = divu(add(seqQ, sub(rowsPerBlock, i32(1))), rowsPerBlock);
  Value heads = i32(plan.numQHeads);
  Value rowBlock, headAndBatch;
  if (plan.mask.getKind() == attn::MaskKind::None) {
    rowBlock = remu(index, numRowBlocks);
    headAndBatch = divu(index, numRowBlocks);
  } else {
    Value perRowBlock = mul(heads, batchSize);
    rowBlock = sub(sub(numRowBlocks, i32(1)), divu(index, perRowBlock));
    headAndBatch = remu(index, perRowBlock);
  }
  blockRow = mul(rowBlock, rowsPerBlock);
  head = remu(headAndBatch, heads);
  batch = divu(headAndBatch, heads);
  kvHead = divu(head, i32(plan.group));

  // The KV tiles this block's rows can see (bottom-right aligned masks).
  Value lastRow =
      sub(mins(add(blockRow, i32(plan.numConsumers * kRowsPerConsumer)), seqQ),
          i32(1));
  Value shift = sub(seqKV, seqQ);
  Value keyEnd = seqKV, keyBegin = i32(0);
  attn::MaskAttr mask = plan.mask;
  if (mask.getKind() == attn::MaskKind::Causal)
    keyEnd = mins(keyEnd, add(add(lastRow, shift), i32(1)));
  if (mask.getKind() == attn::MaskKind::Window) {
    if (mask.getRight() >= 0)
      keyEnd = mins(keyEnd, add(add(lastRow, shift), i32(mask.getRight() + 1)));
    if (mask.getLeft() >= 0)
      keyBegin = maxs(keyBegin, sub(add(blockRow, shift), i32(mask.getLeft())));
  }
  keyEnd = maxs(keyEnd, keyBegin);
  firstTile = divu(keyBegin, i32(plan.bn));
  Value endTile = divu(add(keyEnd, i32(plan.bn - 1)), i32(plan.bn));
  numTiles = maxs(sub(endTile, firstTile), i32(0));
  // A block with no visible key loads nothing and writes O = 0, LSE = -inf.
  numTiles = select(cmp(arith::CmpIPredicate::sle, keyEnd, keyBegin), i32(0),
                    numTiles);
}

void HopperKernelEmitter::emit(LLVM::LLVMFuncOp func,
                               LLVM::GlobalOp smemGlobal) {
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  unsigned arg = 0;
  qMap = func.getArgument(arg++);
  kMap = func.getArgument(arg++);
  vMap = func.getArgument(arg++);
  outPtr = func.getArgument(arg++);
  if (plan.hasLse)
    lsePtr = func.getArgument(arg++);
  batchSize = func.getArgument(arg++);
  seqQ = func.getArgument(arg++);
  seqKV = func.getArgument(arg++);
  for (int dim = 0; dim < 3; ++dim)
    outStride.push_back(func.getArgument(arg++));
  if (plan.hasLse)
    for (int dim = 0; dim < 2; ++dim)
      lseStride.push_back(func.getArgument(arg++));
  scaleLog2 = func.getArgument(arg++);

  smemBase = LLVM::AddressOfOp::create(b, loc, smemGlobal);
  smemAddress = arith::TruncIOp::create(
      b, loc, b.getI32Type(),
      LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), smemBase));
  // CTA i takes work tiles i, i + grid, i + 2 * grid, ... (persistent), or
  // work tile i alone.
  Value rowsPerBlock = i32(plan.numConsumers * kRowsPerConsumer);
  Value numRowBlocks = divu(add(seqQ, sub(rowsPerBlock, i32(1))), rowsPerBlock);
  numWork = mul(numRowBlocks, mul(i32(plan.numQHeads), batchSize));
  firstWork = fromIndex(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  workStride = fromIndex(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));

  Value tid = fromIndex(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value warpgroup = divu(tid, i32(kWarpgroupThreads));
  Value threadInGroup = remu(tid, i32(kWarpgroupThreads));

  // Barriers: Q full (one arrival with its bytes), K/V full (likewise),
  // slot empty (every consumer thread arrives after its P V wgmma is done).
  auto ifInit =
      scf::IfOp::create(b, loc, cmp(arith::CmpIPredicate::eq, tid, i32(0)),
                        /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifInit.thenBlock());
    NVVM::MBarrierInitOp::create(b, loc, qFullBarrier(), i32(1), Value());
    NVVM::MBarrierInitOp::create(b, loc, qEmptyBarrier(),
                                 i32(plan.numConsumers * kWarpgroupThreads),
                                 Value());
    for (int64_t i = 0; i < 2 * plan.kvStages; ++i)
      NVVM::MBarrierInitOp::create(b, loc, barrier(2 + i), i32(1), Value());
    for (int64_t i = 0; i < plan.kvStages; ++i)
      NVVM::MBarrierInitOp::create(b, loc, emptyBarrier(i32(i)),
                                   i32(plan.numConsumers * kWarpgroupThreads),
                                   Value());
    // Make the initialised barriers visible to the async (TMA) proxy.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }
  NVVM::Barrier0Op::create(b, loc);

  auto ifProducer = scf::IfOp::create(
      b, loc, cmp(arith::CmpIPredicate::eq, warpgroup, i32(0)),
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifProducer.thenBlock());
    NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    auto ifLeader = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, tid, i32(0)), false);
    b.setInsertionPointToStart(ifLeader.thenBlock());
    emitProducer();
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifProducer.elseBlock());
    NVVM::SetMaxRegisterOp::create(b, loc, kConsumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
    emitConsumer(sub(warpgroup, i32(1)), threadInGroup);
  }
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertAttnToHopperKernelPass
    : public fa4::impl::ConvertAttnToHopperKernelBase<
          ConvertAttnToHopperKernelPass> {
  using ConvertAttnToHopperKernelBase::ConvertAttnToHopperKernelBase;
  void runOnOperation() override;
};
} // namespace

/// The kernel's parameters in ABI order (docs/KernelABI.md), short form.
static SmallVector<std::string> abiParams(const HopperPlan &plan) {
  auto box = [](int64_t rows) {
    return ("1x" + Twine(rows) + "x1x" + Twine(kBoxColumns) + ":" +
            Twine(kSwizzleBytes))
        .str();
  };
  SmallVector<std::string> params = {"tmap:q:" + box(kRowsPerConsumer),
                                     "tmap:k:" + box(plan.bn),
                                     "tmap:v:" + box(plan.bn), "ptr:o"};
  if (plan.hasLse)
    params.push_back("ptr:lse");
  params.append({"i32:b", "i32:sq", "i32:skv", "i64:o.stride.0",
                 "i64:o.stride.1", "i64:o.stride.2"});
  if (plan.hasLse)
    params.append({"i64:lse.stride.0", "i64:lse.stride.1"});
  params.push_back("f32:scale_log2");
  return params;
}

void ConvertAttnToHopperKernelPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<attn::AttentionOp> ops;
  module.walk([&](attn::AttentionOp op) { ops.push_back(op); });
  MLIRContext *context = &getContext();
  OpBuilder b(context);
  for (attn::AttentionOp op : ops) {
    FailureOr<HopperPlan> plan = readPlan(op);
    if (failed(plan))
      return signalPassFailure();
    auto [kernels, name] = createKernelModule(module, op, "fa4_fa3", "sm_90a");
    Location loc = op.getLoc();
    b.setInsertionPointToEnd(kernels.getBody());
    // Dynamic shared memory: an external, unsized array at 1024-byte
    // alignment (what the 128B swizzle pattern repeats on).
    auto smemGlobal = LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0), false,
        LLVM::Linkage::External, name + "_smem", Attribute(), 1024,
        /*addrSpace=*/3);

    KernelABI abi;
    abi.params = abiParams(*plan);
    auto genericPtr = LLVM::LLVMPointerType::get(context);
    auto globalPtr = LLVM::LLVMPointerType::get(context, 1);
    SmallVector<Type> argTypes;
    for (StringRef param : abi.params) {
      StringRef kind = param.split(':').first;
      argTypes.push_back(kind == "tmap"  ? Type(genericPtr)
                         : kind == "ptr" ? Type(globalPtr)
                         : kind == "i32" ? Type(b.getI32Type())
                         : kind == "i64" ? Type(b.getI64Type())
                                         : Type(b.getF32Type()));
    }
    auto func = LLVM::LLVMFuncOp::create(
        b, loc, name,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                    argTypes));
    int64_t threads = (1 + plan->numConsumers) * kWarpgroupThreads;
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
    // One CTA per SM: ptxas then caps registers at 65536 / threads, the cap
    // setmaxnreg redistributes between producer and consumers.
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(1));
    // Tensor maps are 128-byte __grid_constant__ parameters: TMA reads them
    // through their parameter-space address.
    for (int i = 0; i < 3; ++i) {
      func.setArgAttr(
          i, LLVM::LLVMDialect::getByValAttrName(),
          TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
      func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(64));
      func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                      b.getUnitAttr());
    }
    HopperKernelEmitter(b, loc, *plan, pingPong, persistent)
        .emit(func, smemGlobal);

    // Persistent: one CTA per SM (one fits, by its shared memory), each
    // looping over work tiles; otherwise one CTA per work tile.
    if (persistent)
      abi.grid = {{std::to_string(fa4::getTargetInfo(fa4::Chip::SM90a).numSMs)},
                  {"1"},
                  {"1"}};
    else
      abi.grid = {
          {("ceil_div:sq:" + Twine(plan->numConsumers * kRowsPerConsumer))
               .str(),
           "hq", "b"},
          {"1"},
          {"1"}};
    abi.block[0] = threads;
    abi.dynamicSmemBytes = plan->smemUsed;
    // Q, K, V are read by TMA: 16-byte bases and strides. O leaves as pairs
    // of 16-bit values and LSE as f32: 4 bytes.
    abi.alignment = {
        {"q", {16, 16}}, {"k", {16, 16}}, {"v", {16, 16}}, {"o", {4, 4}}};
    if (plan->hasLse)
      abi.alignment.push_back({"lse", {4, 4}});
    setKernelABI(op, kernels, name, abi);
  }
}
