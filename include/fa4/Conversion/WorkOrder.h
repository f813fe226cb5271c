//===- WorkOrder.h - The order of prefill work tiles ------------*- C++ -*-===//
//
// Which (row block, (batch, head) pair) a prefill work tile index names,
// written once over an arithmetic: the kernel emitters run it on i32
// mlir::Values (WorkTiles::prefill), the host on integers
// (unittests/Conversion/WorkOrderTest.cpp checks it is a permutation).
//
//===----------------------------------------------------------------------===//

#ifndef FA4_CONVERSION_WORKORDER_H
#define FA4_CONVERSION_WORKORDER_H

#include <algorithm>
#include <cstdint>
#include <limits>

namespace fa4 {

template <typename V> struct PrefillSlot {
  V rowBlock;
  /// head + numQHeads * batch.
  V pair;
};

/// The `sectionKeyHeads` of prefillSlot for an L2 budget of `l2SectionBytes`
/// (0: none): the keys of K and V (`kvBytesPerKey` each) that fit it, times
/// the q heads that share a kv head.
inline int64_t sectionKeyHeads(int64_t l2SectionBytes, int64_t kvBytesPerKey,
                               int64_t group) {
  return std::min<int64_t>(l2SectionBytes / kvBytesPerKey * group,
                           std::numeric_limits<int32_t>::max());
}

/// Work tile `index` of `numRowBlocks` row blocks of each of `heads` x
/// `batchSize` (batch, head) pairs. Without `heaviestFirst` (no mask: every
/// row block is as heavy) the row blocks of one pair are adjacent, so CTAs
/// running together share K and V in L2. With it (causal and window masks:
/// the last row blocks see the most keys) the last row block comes first:
/// longest-processing-time order. Over all pairs at once that order puts
/// each CTA of a wave on another pair, streaming K and V from HBM; with
/// `sectionKeyHeads` (> 0) the pairs go in sections of max(1,
/// sectionKeyHeads / Skv) whose K and V fit the L2 budget it came from,
/// heaviest first within each, the last section possibly narrower.
/// `Arith` provides i32 constants and add, sub, mul, divu, remu, mins, maxs
/// on `V`.
template <typename Arith, typename V>
PrefillSlot<V> prefillSlot(Arith &a, V index, V numRowBlocks, V heads,
                           V batchSize, V seqKV, bool heaviestFirst,
                           int64_t sectionKeyHeads) {
  PrefillSlot<V> slot;
  if (!heaviestFirst) {
    slot.rowBlock = a.remu(index, numRowBlocks);
    slot.pair = a.divu(index, numRowBlocks);
    return slot;
  }
  V pairs = a.mul(heads, batchSize);
  if (sectionKeyHeads <= 0) {
    V pass = a.divu(index, pairs);
    slot.rowBlock = a.sub(a.sub(numRowBlocks, a.i32(1)), pass);
    slot.pair = a.remu(index, pairs);
    return slot;
  }
  V fitting = a.divu(a.i32(sectionKeyHeads), a.maxs(seqKV, a.i32(1)));
  V sectionPairs = a.mins(a.maxs(fitting, a.i32(1)), pairs);
  V section = a.divu(index, a.mul(sectionPairs, numRowBlocks));
  V firstPair = a.mul(section, sectionPairs);
  V within = a.sub(index, a.mul(firstPair, numRowBlocks));
  V width = a.mins(sectionPairs, a.sub(pairs, firstPair));
  V pass = a.divu(within, width);
  slot.rowBlock = a.sub(a.sub(numRowBlocks, a.i32(1)), pass);
  slot.pair = a.add(firstPair, a.remu(within, width));
  return slot;
}

} // namespace fa4

#endif // FA4_CONVERSION_WORKORDER_H
