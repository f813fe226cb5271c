//===- HopperPlan.h - The sm_90a kernel's plan ------------------*- C++ -*-===//
//
// What the Hopper kernel (HopperKernel.h) reads from an op's plan
// attributes, with the layout facts it derives (HopperPlan.cpp), and the
// constants of its structure: consumer rows, named barriers, CTA pairs.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_ATTNTOFA4_HOPPERPLAN_H
#define LIB_CONVERSION_ATTNTOFA4_HOPPERPLAN_H

#include "KernelFunc.h"
#include "fa4/Conversion/KernelABI.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"
#include "fa4/Target/TargetInfo.h"

namespace fa4::hopper {
// This builder's vocabulary, in its own namespace only.
using namespace mlir;
using namespace fa4::kernel;

/// wgmma's M: each consumer warpgroup owns a 64-row Q tile.
constexpr int kRowsPerConsumer = 64;
/// One consumer's box of a Q or O tile: 64 rows of 64 16-bit columns.
constexpr int64_t kConsumerBoxBytes = kRowsPerConsumer * kSwizzleBytes;
/// A looped twin stages O over a second Q buffer only where O has two or
/// more 64-column boxes, each of which waited for the previous box's store
/// to read the one slot (+1.8-6.5% at Dv = 128). With one box (Dv = 64)
/// that slot's wait is for the previous tile's store, long done, and the
/// Q buffer's release after the next step 0 cost 1-2.7% at 512-2048 keys
/// (D-37).
constexpr int64_t kMinBoxesToStageOverQ = 2;
/// K/V stages a split-K decode needs before its two consumers take the
/// tiles in turn (see readPlan).
constexpr int64_t kMinStagesToSplitKeys = 4;
/// Named barrier the two consumers meet at before staging split-K partials
/// (the ping-pong turns use 1 to the number of consumers; a split takes
/// two).
constexpr int kConsumersDoneBarrier = 3;
/// Named barriers 4 + c: consumer c's warpgroup meets before its TMA store
/// of O.
constexpr int kEpilogueBarrierBase = 4;
/// Named barrier the producer's warps meet at once they copied the
/// device-built maps, where the consumers copied the first tiles and use no
/// map (D-50).
constexpr int kMapsCopiedBarrier = 6;
/// Named barrier the consumers meet at once Q landed and each fenced its
/// share, where they copied the first tiles (D-50).
constexpr int kFirstTilesCopiedBarrier = 7;
/// Named barrier the producer's warps meet at once each copied and fenced
/// its share of a paged K/V tile, before its first thread arrives for it.
constexpr int kPagedTileCopiedBarrier = 8;
/// The producer warpgroup's registers in a paged cache's kernel, whose
/// threads copy the tiles TMA does not load (D-58, D-59); the consumers
/// share the rest of the launch's pool.
constexpr int64_t kPagedProducerRegisters = 48;
/// kv-multicast: the CTAs of a cluster that read the same K/V tiles (two
/// adjacent row blocks of one head), each loading every other box of a tile
/// for both.
constexpr int64_t kKvMulticastCtas = 2;

/// Everything the emitter needs, read from the op and its plan attributes;
/// the part both chips share as readKernelPlan reads it.
struct HopperPlan : KernelPlan {
  int64_t numConsumers;
  /// Split-K decode: both consumers work on the same 64-row Q tile, taking
  /// the partition's K/V tiles in turn (even tiles, odd tiles), and each
  /// stages its own partial for the combine. A decode tile has a few real
  /// rows, so one warpgroup's softmax and barrier waits, not the tensor
  /// cores, bound it; the second hides them (D-32).
  bool consumersSplitKeys = false;
  /// Prefill O may leave through shared memory and TMA stores: each
  /// consumer stages its 64 x Dv tile at `oStagingOffset + c x
  /// oStagedTileBytes()`, which is its own Q tile (dead after its last
  /// QK^T) or a region of its own.
  bool canStoreOByTma = false;
  int64_t oStagingOffset = 0;
  /// A looped (persistent) prefill kernel's region past the plan's, where
  /// shared memory has room and the module builds a looped kernel that
  /// drains each work tile with tma-store-o (-1: none; it writes O from
  /// registers). Either a second Q buffer with its Q full and Q empty
  /// barriers (`loopDoubleQ`): work tile w reads buffer w % 2, the producer
  /// loads the next tile's Q while this one runs, and each consumer stages
  /// O over its own Q tile once its last Q K^T is done. Or, where that
  /// does not fit, one 64-column box of O per consumer, through which O
  /// leaves a box at a time (the single Q buffer holds the next tile's Q
  /// by the epilogue).
  int64_t loopStagingOffset = -1;
  bool loopDoubleQ = false;
  int64_t loopStagingBytes() const {
    return loopDoubleQ
               ? secondQBufferBytes()
               : loopedTwinStagingBytes(numConsumers * kRowsPerConsumer);
  }
  /// The second Q buffer and its Q full and Q empty barrier per Q tile.
  int64_t secondQBufferBytes() const {
    return qTiles() * (qTileBytes() + 2 * kMBarrierBytes);
  }
  /// The second Q buffer's barriers: Q full per Q tile, then Q empty.
  int64_t loopQBarrierOffset() const {
    return loopStagingOffset + qTiles() * qTileBytes();
  }
  /// A decode that builds its tensor maps on the device, on CTAs that each
  /// take one work tile: where it stages its maps (past the plan), so that
  /// its consumers copy Q and the first K/V tiles themselves while the maps
  /// are built (-1: the maps are staged over Q and TMA loads every tile;
  /// D-49).
  int64_t mapStagingOffset = -1;
  /// The dynamic shared memory a launch needs.
  int64_t dynamicSmemBytes() const {
    int64_t used = loopStagingOffset < 0
                       ? smemUsed
                       : loopStagingOffset + loopStagingBytes();
    return mapStagingOffset < 0
               ? used
               : std::max(used, mapStagingOffset + kDecodeTensorMapBytes);
  }
  /// A decode's maps: Q, K and V (it writes O from registers).
  static constexpr int64_t kDecodeTensorMapBytes = 3 * 128;
  int64_t oStagedTileBytes() const { return kRowsPerConsumer * paddedOv * 2; }

  /// Query rows one consumer's 64-row tile covers, and the rows TMA fills.
  int64_t queryRowsPerTile() const { return kRowsPerConsumer / rowGroup; }
  /// The decode grid's head dimension: kv heads under fused GQA.
  int64_t decodeHeads() const { return rowGroup > 1 ? numKVHeads : numQHeads; }
  /// A decode plan without a split can run on persistent CTAs: its work
  /// items are independent, with no cluster or workspace to share.
  bool decodeCanPersist() const { return decode && partitions == 1; }
  /// The one-dimensional work list (prefill, persistent decode): work items
  /// of this many query rows, per head of `workHeadsSymbol` and batch.
  int64_t rowsPerWorkItem() const {
    return decode ? queryRowsPerTile() : numConsumers * kRowsPerConsumer;
  }
  int64_t workHeads() const { return decode ? decodeHeads() : numQHeads; }
  const char *workHeadsSymbol() const {
    return decode && rowGroup > 1 ? "hkv" : "hq";
  }
  /// The one-dimensional grid of that work list (the manifest's spelling);
  /// with `ctasPerItem` CTAs (a cluster, kv-multicast's pair) on items of as
  /// many row blocks, a head's last item possibly reaching past Sq.
  SmallVector<GridFactors> workListGrid(int64_t ctasPerItem = 1) const {
    // Packed queries: the row blocks of the longest sequence, for every
    // sequence.
    const char *rows = packedQueries ? "max_sq" : "sq";
    GridFactors x = {
        GridFactor::ceilDivOf(rows, ctasPerItem * rowsPerWorkItem())};
    if (ctasPerItem > 1)
      x.push_back(ctasPerItem);
    x.append({workHeadsSymbol(), "b"});
    return {x, {1}, {1}};
  }
  /// Threads of a CTA: the producer warpgroup and the consumers.
  int64_t threads() const { return (1 + numConsumers) * kWarpgroupThreads; }
  int64_t qBoxRows() const { return queryRowsPerTile() * rowGroup; }

  int64_t qTileBytes() const { return qkBoxes * kConsumerBoxBytes; }
  int64_t kBoxBytes() const { return bn * kSwizzleBytes; }
  /// Bytes of one staged partial: O (f32), then row max and row sum.
  int64_t stagedPartialBytes() const {
    return splitKStagedPartialBytes(kRowsPerConsumer, paddedOv);
  }
  /// Partials each CTA stages for the split-K combine.
  int64_t partialsPerCta() const { return consumersSplitKeys ? 2 : 1; }
  /// Q tiles the producer loads: one shared tile when the consumers split
  /// the keys of the same rows.
  int64_t qTiles() const { return consumersSplitKeys ? 1 : numConsumers; }
  /// mbarriers: per Q tile Q full, then per Q tile Q empty; per slot K
  /// full, V full, K empty, V empty.
  int64_t numBarriers() const { return 2 * qTiles() + 4 * kvStages; }
};

/// Reads a plan, the kernel's or its looped twin's (twin_config,
/// twin_smem, twin_swizzle); fails with a diagnostic for plans this kernel
/// cannot run.
FailureOr<HopperPlan> readPlan(attn::PlannedAttentionOpInterface op,
                               attn::ConfigAttr config, attn::SmemAttr smem,
                               attn::SwizzleAttr swizzle);

} // namespace fa4::hopper

#endif // LIB_CONVERSION_ATTNTOFA4_HOPPERPLAN_H
