//===- ServingSpans.h - A serving form's sequence per work tile -*- C++ -*-===//
//
// Shared by the sm_90a and sm_100a kernel builders: where a work tile of a
// serving form (docs/KernelABI.md, "Serving forms") finds its sequence:
// its query and key spans from the index tensors, its lengths, O and LSE
// at its first row, and, for a paged cache, the page of each key.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_ATTNTOFA4_SERVINGSPANS_H
#define LIB_CONVERSION_ATTNTOFA4_SERVINGSPANS_H

#include "../Common/KernelEmitter.h"
#include "KernelFunc.h"
#include "WorkTiles.h"

namespace fa4 {

/// One work tile's sequence.
struct SequenceSpan {
  /// Its query rows (the launch's Sq for dense queries) and keys: the masks'
  /// bottom-right alignment and the epilogue's row bound.
  mlir::Value seqQ, seqKV;
  /// O and LSE at its first row (packed queries), else the launch's.
  mlir::Value outPtr, lsePtr;
  /// The packed tensors' token of its first query and key (TMA rows), or
  /// null: dense queries, paged keys.
  mlir::Value firstQuery, firstKey;

  /// `args` (a role's copy of the launch's) takes the sequence's lengths
  /// and O/LSE pointers.
  void applyTo(AttentionArgs &args) const {
    args.seqQ = seqQ;
    args.seqKV = seqKV;
    args.outPtr = outPtr;
    args.lsePtr = lsePtr;
  }
};

/// One row group of a paged K/V tile: the page that holds it, its first
/// row in the page, and its byte offset in the tile's slot (the 128B
/// swizzle repeats every 8 rows, so a tile's groups stack as one box).
struct PageGroup {
  mlir::Value page, row;
  int64_t slotBytes;
  /// The key of its first row, and how many of its rows hold the
  /// sequence's keys (0 to the group's rows).
  mlir::Value key, keysHeld;
};

/// The arguments of a serving form's kernel `func` (servingAttentionParams)
/// as both builders use them: packed queries' O and LSE strides with a zero
/// batch stride first, and for a paged cache the keys a block-table row
/// holds standing for Skv in the work order (its L2 sections) until a role
/// reads a sequence's own.
AttentionArgs readServingArgs(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::gpu::GPUFuncOp func,
                              const KernelPlan &plan);

class ServingSpans : public KernelEmitter {
public:
  ServingSpans(mlir::OpBuilder &b, mlir::Location loc, const KernelPlan &plan,
               const AttentionArgs &launch)
      : KernelEmitter(b, loc), plan(plan), launch(launch) {}

  /// The sequence of `work` (sequence `work.batch`), whose visible K/V
  /// tiles it sets for `rows` query rows from `work.blockRow`: none at or
  /// past the sequence's last row (the grid covers the longest sequence's
  /// rows for every sequence), which then writes nothing.
  SequenceSpan span(WorkTile &work, int64_t rows);

  /// Paged: `load` for each of the BN / kvBoxRows row groups of the K/V
  /// tile of sequence `batch` (of `seqKV` keys) from key `firstKey`, each
  /// within one page (the plan nests them), its page read just before.
  void forEachPageGroup(mlir::Value batch, mlir::Value seqKV,
                        mlir::Value firstKey,
                        llvm::function_ref<void(const PageGroup &)> load);

  /// Paged: copies the K or V tile of sequence `batch` (of `seqKV` keys)
  /// from key `firstKey` by cp.async, row group by row group: `boxes`
  /// 64-column boxes of `depth` columns of kv head `kvHead` from `cache`
  /// (element strides of pages, rows and heads), box b of a group at
  /// `slotOffset + b * boxBytes` plus the group's slot bytes, as thread
  /// `thread` of `threads`. Rows past the sequence's last key are
  /// zero-filled; pages are clamped to the cache (cp.async, unlike TMA,
  /// reads wherever it is pointed). Issues the copies only (D-58).
  void copyPagedTile(mlir::Value batch, mlir::Value seqKV, mlir::Value firstKey,
                     mlir::Value cache, llvm::ArrayRef<mlir::Value> strides,
                     mlir::Value kvHead, int64_t depth, int64_t boxes,
                     int64_t boxBytes, mlir::Value slotOffset,
                     mlir::Value thread, int64_t threads);

private:
  /// The page that holds `key` through the block table. Keys past the last
  /// (a tile's rows past its end, which the mask hides) read the entry of
  /// its last page: no entry past its pages is read (they may be garbage,
  /// as in vLLM).
  mlir::Value pageOfKey(mlir::Value batch, mlir::Value seqKV, mlir::Value key);

  /// A global i32 `pointer[index]` (index i32 or i64).
  mlir::Value loadI32(mlir::Value pointer, mlir::Value index);

  const KernelPlan &plan;
  const AttentionArgs &launch;
};

} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_SERVINGSPANS_H
