//===- ServingSpans.cpp - A serving form's sequence per work tile ---------===//

#include "ServingSpans.h"

#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"

using namespace mlir;
using namespace fa4;

AttentionArgs fa4::readServingArgs(OpBuilder &b, Location loc,
                                   gpu::GPUFuncOp func,
                                   const KernelPlan &plan) {
  KernelEmitter e(b, loc);
  AttentionArgs args = AttentionArgs::readServing(func, plan.servingLayout());
  if (plan.packedQueries) {
    args.outStride.insert(args.outStride.begin(), e.i64(0));
    if (plan.hasLse)
      args.lseStride.insert(args.lseStride.begin(), e.i64(0));
  }
  if (plan.form == ServingForm::Paged)
    args.seqKV = e.mul(args.maxPages, e.i32(plan.pageSize));
  return args;
}

// Every span is clamped to its tensor, as the reference kernel's: query
// spans to [0, Tq], packed keys to [0, Tk], a paged sequence's keys to its
// block-table row. Malformed index data gives wrong rows, never an access
// outside O, LSE or the block table (TMA reads nothing outside K and V,
// whatever the coordinates) nor a walk over tiles past the tensors.
SequenceSpan ServingSpans::span(WorkTile &work, int64_t rows) {
  auto clamp = [&](Value value, Value low, Value high) {
    return mins(maxs(value, low), high);
  };
  SequenceSpan span{launch.seqQ,   launch.seqKV, launch.outPtr,
                    launch.lsePtr, Value(),      Value()};
  Value next = add(work.batch, i32(1));
  if (plan.packedQueries) {
    Value tokens = launch.tokensQ;
    span.firstQuery =
        clamp(loadI32(launch.cuSeqlensQ, work.batch), i32(0), tokens);
    span.seqQ =
        sub(clamp(loadI32(launch.cuSeqlensQ, next), span.firstQuery, tokens),
            span.firstQuery);
    Value rowElement = mul(sext(span.firstQuery), launch.outStride[1]);
    span.outPtr =
        LLVM::GEPOp::create(b, loc, launch.outPtr.getType(), plan.elementType,
                            launch.outPtr, ValueRange{rowElement});
    if (plan.hasLse)
      span.lsePtr =
          LLVM::GEPOp::create(b, loc, launch.lsePtr.getType(), b.getF32Type(),
                              launch.lsePtr, ValueRange{sext(span.firstQuery)});
  }
  if (plan.form == ServingForm::Paged) {
    span.seqKV = clamp(loadI32(launch.seqlensK, work.batch), i32(0),
                       mul(launch.maxPages, i32(plan.pageSize)));
  } else {
    // launch.seqKV is Tk: the key span is clamped to the packed K and V,
    // as the reference kernel's, so a malformed seqused_k cannot make the
    // kernel walk billions of empty tiles.
    Value tokens = launch.seqKV;
    span.firstKey =
        clamp(loadI32(launch.cuSeqlensK, work.batch), i32(0), tokens);
    Value end = launch.seqUsedK
                    ? add(span.firstKey, loadI32(launch.seqUsedK, work.batch))
                    : loadI32(launch.cuSeqlensK, next);
    span.seqKV = sub(clamp(end, span.firstKey, tokens), span.firstKey);
  }
  WorkTiles(b, loc, plan.mask, span.seqQ, span.seqKV, plan.bn)
      .keyTiles(work, rows);
  work.numTiles =
      select(cmp(arith::CmpIPredicate::sge, work.blockRow, span.seqQ), i32(0),
             work.numTiles);
  return span;
}

void ServingSpans::forEachPageGroup(
    Value batch, Value seqKV, Value firstKey,
    function_ref<void(const PageGroup &)> load) {
  for (int64_t group = 0; group < plan.bn / plan.kvBoxRows; ++group) {
    Value key = add(firstKey, i32(group * plan.kvBoxRows));
    Value page = pageOfKey(batch, seqKV, key);
    Value keysHeld = mins(maxs(sub(seqKV, key), i32(0)), i32(plan.kvBoxRows));
    load({page, remu(key, i32(plan.pageSize)),
          group * plan.kvBoxRows * kSwizzleBytes, key, keysHeld});
  }
}

void ServingSpans::copyPagedTile(Value batch, Value seqKV, Value firstKey,
                                 Value cache, ArrayRef<Value> strides,
                                 Value kvHead, int64_t depth, int64_t boxes,
                                 int64_t boxBytes, Value slotOffset,
                                 Value thread, int64_t threads) {
  Value elementBytes = i64(plan.elementBytes());
  auto atByte = [&](Value pointer, Value bytes) -> Value {
    return LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI8Type(),
                               pointer, ValueRange{bytes});
  };
  forEachPageGroup(batch, seqKV, firstKey, [&](const PageGroup &group) {
    Value page = mins(maxs(group.page, i32(0)), sub(launch.pages, i32(1)));
    Value offset =
        add(add(mul(sext(page), strides[0]), mul(sext(group.row), strides[1])),
            mul(sext(kvHead), strides[2]));
    Value rowBase = atByte(cache, mul(offset, elementBytes));
    for (int64_t box = 0; box < boxes; ++box)
      kernel::CopyAsyncBoxOp::create(
          b, loc, atByte(rowBase, i64(box * kSwizzleBytes)), group.keysHeld,
          mul(strides[1], elementBytes), i64(0),
          add(slotOffset, i32(box * boxBytes + group.slotBytes)), thread,
          plan.kvBoxRows, /*group=*/1,
          chunksInBox(depth, box, plan.elementBytes()), threads);
  });
}

Value ServingSpans::pageOfKey(Value batch, Value seqKV, Value key) {
  Value pageSize = i32(plan.pageSize);
  Value lastSlot = divu(sub(seqKV, i32(1)), pageSize);
  Value slot = mins(divu(key, pageSize), lastSlot);
  return loadI32(launch.blockTable,
                 add(mul(sext(batch), launch.blockTableStride), sext(slot)));
}

Value ServingSpans::loadI32(Value pointer, Value index) {
  Value element = LLVM::GEPOp::create(b, loc, pointer.getType(), b.getI32Type(),
                                      pointer, ValueRange{index});
  return LLVM::LoadOp::create(b, loc, b.getI32Type(), element);
}
