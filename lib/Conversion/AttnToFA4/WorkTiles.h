//===- WorkTiles.h - Which rows and K/V tiles a CTA works on ----*- C++ -*-===//
//
// Shared by the sm_90a and sm_100a kernel builders: the prefill work list
// (a row block of one (batch, head); heaviest first under a mask), the
// decode grid (a cluster of partitions per work item), and the K/V tiles a
// block of query rows can see under a bottom-right aligned mask.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_ATTNTOFA4_WORKTILES_H
#define LIB_CONVERSION_ATTNTOFA4_WORKTILES_H

#include "../Common/KernelEmitter.h"
#include "KernelFunc.h"
#include "fa4/Conversion/WorkOrder.h"
#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace fa4 {

struct WorkTile {
  mlir::Value batch, head, kvHead, blockRow;
  /// The first visible K/V tile and how many follow.
  mlir::Value firstTile, numTiles;
};

class WorkTiles : public KernelEmitter {
public:
  WorkTiles(mlir::OpBuilder &b, mlir::Location loc, attn::MaskAttr mask,
            mlir::Value seqQ, mlir::Value seqKV, int64_t bn)
      : KernelEmitter(b, loc), mask(mask), seqQ(seqQ), seqKV(seqKV), bn(bn) {}

  /// One past the last key any of the query rows [firstRow, firstRow +
  /// queryRows) can see (may be below the first visible key).
  mlir::Value keyEnd(mlir::Value firstRow, int64_t queryRows) {
    mlir::Value lastRow =
        sub(mins(add(firstRow, i32(queryRows)), seqQ), i32(1));
    mlir::Value shift = sub(seqKV, seqQ);
    mlir::Value end = seqKV;
    if (mask.getKind() == attn::MaskKind::Causal)
      end = mins(end, add(add(lastRow, shift), i32(1)));
    if (mask.getKind() == attn::MaskKind::Window && mask.getRight() >= 0)
      end = mins(end, add(add(lastRow, shift), i32(mask.getRight() + 1)));
    return end;
  }

  /// Sets `firstTile`/`numTiles` of `work` to the K/V tiles the query rows
  /// [blockRow, blockRow + queryRows) can see.
  void keyTiles(WorkTile &work, int64_t queryRows) {
    using P = mlir::arith::CmpIPredicate;
    mlir::Value keyEnd = this->keyEnd(work.blockRow, queryRows);
    mlir::Value keyBegin = i32(0);
    if (mask.getKind() == attn::MaskKind::Window && mask.getLeft() >= 0)
      keyBegin = maxs(keyBegin, sub(add(work.blockRow, sub(seqKV, seqQ)),
                                    i32(mask.getLeft())));
    keyEnd = maxs(keyEnd, keyBegin);
    work.firstTile = divu(keyBegin, i32(bn));
    work.numTiles = maxs(sub(tilesBelow(keyEnd), work.firstTile), i32(0));
    // A block with no visible key loads nothing and writes O = 0, LSE = -inf.
    work.numTiles =
        select(cmp(P::sle, keyEnd, keyBegin), i32(0), work.numTiles);
  }

  /// Of a work tile's `numTiles` K/V tiles from `firstTile`, how many the
  /// query rows [firstRow, firstRow + queryRows) see up to their last key:
  /// fewer where the mask's right bound ends these rows' keys before the
  /// work tile's last rows' (none where Sq > Skv leaves them no key).
  mlir::Value tilesUpToKeyEnd(mlir::Value firstTile, mlir::Value numTiles,
                              mlir::Value firstRow, int64_t queryRows) {
    mlir::Value endTile = tilesBelow(maxs(keyEnd(firstRow, queryRows), i32(0)));
    return mins(numTiles, maxs(sub(endTile, firstTile), i32(0)));
  }

  /// The prefill work tile `index` names: a block of `rowsPerBlock` rows of
  /// one (batch, head), in prefillSlot's order (WorkOrder.h): heaviest first
  /// under a mask, within L2 sections of `sectionKeyHeads` (0: none). Under
  /// a causal mask with `pairStride` (the CTAs' static stride), pairedSlot's
  /// order instead.
  WorkTile prefill(mlir::Value index, mlir::Value batchSize,
                   int64_t rowsPerBlock, int64_t numQHeads, int64_t group,
                   int64_t sectionKeyHeads = 0,
                   mlir::Value pairStride = mlir::Value()) {
    mlir::Value rows = i32(rowsPerBlock);
    mlir::Value numRowBlocks = divu(add(seqQ, sub(rows, i32(1))), rows);
    mlir::Value heads = i32(numQHeads);
    PrefillSlot<mlir::Value> slot =
        pairStride && mask.getKind() == attn::MaskKind::Causal
            ? pairedSlot(*this, index, numRowBlocks, heads, batchSize,
                         pairStride)
            : prefillSlot(*this, index, numRowBlocks, heads, batchSize, seqKV,
                          /*heaviestFirst=*/mask.getKind() !=
                              attn::MaskKind::None,
                          sectionKeyHeads);
    mlir::Value rowBlock = slot.rowBlock, headAndBatch = slot.pair;
    WorkTile work;
    work.blockRow = mul(rowBlock, rows);
    work.head = remu(headAndBatch, heads);
    work.batch = divu(headAndBatch, heads);
    work.kvHead = divu(work.head, i32(group));
    keyTiles(work, rowsPerBlock);
    return work;
  }

  /// Decode (split-K or fused GQA): blockIdx = (partition, head, batch x
  /// row tile); with fused GQA (`rowGroup` > 1) the head index is the kv
  /// head and a tile's rows hold its q heads. The visible K/V tiles are
  /// dealt out to the cluster's `partitions` in equal runs; a partition past
  /// the end gets none (and publishes the neutral partial). Returns the work
  /// tile and sets `partition` to this CTA's rank in its cluster, or, for a
  /// workspace split (no cluster), to blockIdx.x of gridDim.x partitions
  /// (the planned count or the launch's). `spanItem`, where given, reads
  /// the work item's own sequence (a serving form's) before its tiles are
  /// dealt out.
  WorkTile decode(int64_t partitions, int64_t queryRowsPerTile,
                  int64_t rowGroup, int64_t group, mlir::Value &partition,
                  bool inCluster = true,
                  llvm::function_ref<void(WorkTile &)> spanItem = nullptr) {
    partition =
        inCluster
            ? indexTo(b.getI32Type(), mlir::gpu::ClusterBlockIdOp::create(
                                          b, loc, mlir::gpu::Dimension::x))
            : indexTo(b.getI32Type(), mlir::gpu::BlockIdOp::create(
                                          b, loc, mlir::gpu::Dimension::x));
    mlir::Value headIndex =
        indexTo(b.getI32Type(),
                mlir::gpu::BlockIdOp::create(b, loc, mlir::gpu::Dimension::y));
    mlir::Value z =
        indexTo(b.getI32Type(),
                mlir::gpu::BlockIdOp::create(b, loc, mlir::gpu::Dimension::z));
    WorkTile work =
        decodeItemOf(headIndex, z, queryRowsPerTile, rowGroup, group);
    if (spanItem)
      spanItem(work);
    if (inCluster && partitions == 1)
      return work;
    mlir::Value count =
        inCluster ? i32(partitions) : workspacePartitions(b, loc);
    mlir::Value perPartition =
        divu(add(work.numTiles, sub(count, i32(1))), count);
    mlir::Value skipped = mul(partition, perPartition);
    work.firstTile = add(work.firstTile, skipped);
    work.numTiles =
        maxs(mins(perPartition, sub(work.numTiles, skipped)), i32(0));
    return work;
  }

  /// Decode without a split on persistent CTAs: work item `index` of the
  /// decode grid flattened, heads fastest ((batch x row tile) x heads, with
  /// `heads` the kv heads under fused GQA).
  WorkTile decodeItem(mlir::Value index, int64_t heads,
                      int64_t queryRowsPerTile, int64_t rowGroup,
                      int64_t group) {
    return decodeItemOf(remu(index, i32(heads)), divu(index, i32(heads)),
                        queryRowsPerTile, rowGroup, group);
  }

private:
  /// The K/V tiles needed to cover keys [0, keyEnd), keyEnd >= 0.
  mlir::Value tilesBelow(mlir::Value keyEnd) {
    return divu(add(keyEnd, i32(bn - 1)), i32(bn));
  }

  /// The work item of head index `headIndex` (a kv head under fused GQA)
  /// and `batchAndRowTile` = batch * row tiles + row tile.
  WorkTile decodeItemOf(mlir::Value headIndex, mlir::Value batchAndRowTile,
                        int64_t queryRowsPerTile, int64_t rowGroup,
                        int64_t group) {
    mlir::Value rowTiles =
        divu(add(seqQ, i32(queryRowsPerTile - 1)), i32(queryRowsPerTile));
    WorkTile work;
    work.batch = divu(batchAndRowTile, rowTiles);
    work.blockRow = mul(remu(batchAndRowTile, rowTiles), i32(queryRowsPerTile));
    if (rowGroup > 1) {
      work.kvHead = headIndex;
      work.head = mul(work.kvHead, i32(rowGroup));
    } else {
      work.head = headIndex;
      work.kvHead = divu(work.head, i32(group));
    }
    keyTiles(work, queryRowsPerTile);
    return work;
  }

  attn::MaskAttr mask;
  mlir::Value seqQ, seqKV;
  int64_t bn;
};

} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_WORKTILES_H
