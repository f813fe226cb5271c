//===- SplitKWorkspace.h - The workspace split-K's f32 layout ---*- C++ -*-===//
//
// Where a workspace split-K's partials lie: the attention kernels write them
// (fa4::workspacePartial, for fa4.epilogue) and fa4.splitk.workspace_combine
// reads them, so both take their element offsets from this one place.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_COMMON_SPLITKWORKSPACE_H
#define LIB_CONVERSION_COMMON_SPLITKWORKSPACE_H

#include "KernelEmitter.h"

namespace fa4 {

/// A row's P partials side by side (docs/KernelABI.md): O as
/// [b][sq][h][partial][Dv] f32, then the LSEs as [b][h][partial][sq]. The
/// combine reads a step's partials at constant offsets from one address,
/// and at Sq = 1 a block of 32 LSEs in one line; the epilogue stores the
/// LSEs with a unit sq stride. Offsets and strides are i64 element counts.
struct SplitKWorkspaceLayout {
  /// `partials`, `batchSize` and `seqQ` are i32 (the launch's values).
  SplitKWorkspaceLayout(KernelEmitter &e, mlir::Value partials,
                        mlir::Value batchSize, mlir::Value seqQ, int64_t heads,
                        int64_t depth)
      : e(e), partials(e.sext(partials)), seqQ(e.sext(seqQ)), depth(depth) {
    oHeadStride = e.mul(this->partials, e.i64(depth));
    oRowStride = e.mul(oHeadStride, e.i64(heads));
    oBatchStride = e.mul(oRowStride, this->seqQ);
    lseHeadStride = e.mul(this->partials, this->seqQ);
    lseBatchStride = e.mul(lseHeadStride, e.i64(heads));
    // The LSEs follow every row's O: P x B x Sq x H x Dv floats.
    lseBase = e.mul(oBatchStride, e.sext(batchSize));
  }

  /// O's strides by batch, query row and head, in elements (partial s is
  /// s x Dv on from partial 0).
  mlir::Value oBatchStride, oRowStride, oHeadStride;
  /// The LSEs' start and strides by batch and head (partial s is s x Sq on,
  /// query row q is q on).
  mlir::Value lseBase, lseBatchStride, lseHeadStride;

  /// Partial s's O and LSE for row 0 of batch 0 and head 0.
  mlir::Value oOfPartial(mlir::Value s) { return e.mul(s, e.i64(depth)); }
  mlir::Value lseOfPartial(mlir::Value s) {
    return e.add(lseBase, e.mul(s, seqQ));
  }
  /// Partial 0's O and LSE for row (b, q, h), each i32.
  mlir::Value oOfRow(mlir::Value b, mlir::Value q, mlir::Value h) {
    return e.add(
        e.add(e.mul(e.sext(b), oBatchStride), e.mul(e.sext(q), oRowStride)),
        e.mul(e.sext(h), oHeadStride));
  }
  mlir::Value lseOfRow(mlir::Value b, mlir::Value q, mlir::Value h) {
    return e.add(e.add(lseBase, e.mul(e.sext(b), lseBatchStride)),
                 e.add(e.mul(e.sext(h), lseHeadStride), e.sext(q)));
  }
  /// The step from one partial's LSE to the next's.
  mlir::Value lsePartialStride() const { return seqQ; }

private:
  KernelEmitter &e;
  mlir::Value partials, seqQ;
  int64_t depth;
};

} // namespace fa4

#endif // LIB_CONVERSION_COMMON_SPLITKWORKSPACE_H
