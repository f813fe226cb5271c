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

/// Causal work tiles for CTAs that take work tiles `index`, `index +
/// stride`, ... (the looped twin's static stride): row blocks R - 1 - k and
/// k of a pair see R + 1 diagonals' keys together, so each such item goes
/// to one CTA, its heavy half in round 2m of `stride` work tiles and its
/// light half in round 2m + 1 at the same place. Every CTA then gets the
/// same work whatever the stride, which heaviest first within L2 sections
/// does not give it (bench/model_work_order.py), and the items go pair by
/// pair, so a round holds about stride / (R / 2) pairs. The last, partial
/// item round puts its heavy halves before its light ones; an odd R's
/// middle row blocks come last. `Arith` also provides ltu (unsigned <) and
/// select on `V`.
template <typename Arith, typename V>
PrefillSlot<V> pairedSlot(Arith &a, V index, V numRowBlocks, V heads,
                          V batchSize, V stride) {
  V pairs = a.mul(heads, batchSize);
  V half = a.divu(numRowBlocks, a.i32(2));
  V items = a.mul(pairs, half);
  V fullRounds = a.divu(items, stride);
  V fullItems = a.mul(fullRounds, stride);
  V fullTiles = a.mul(fullItems, a.i32(2));
  // A full item round: heavy halves in even rounds, light ones in odd.
  V round = a.divu(index, stride);
  V fullItem =
      a.add(a.mul(a.divu(round, a.i32(2)), stride), a.remu(index, stride));
  V fullHeavy = a.ltu(a.remu(round, a.i32(2)), a.i32(1));
  // The last one: its `rest` heavy halves, then its light ones.
  V rest = a.sub(items, fullItems);
  V tail = a.sub(index, fullTiles);
  V tailHeavy = a.ltu(tail, rest);
  V tailItem = a.add(fullItems, a.select(tailHeavy, tail, a.sub(tail, rest)));
  V inFull = a.ltu(index, fullTiles);
  V item = a.select(inFull, fullItem, tailItem);
  V heavy = a.select(inFull, fullHeavy, tailHeavy);
  V halfOrOne = a.maxs(half, a.i32(1));
  V k = a.remu(item, halfOrOne);
  V pairedRowBlock =
      a.select(heavy, a.sub(a.sub(numRowBlocks, a.i32(1)), k), k);
  V middle = a.sub(index, a.mul(items, a.i32(2)));
  V isItem = a.ltu(index, a.mul(items, a.i32(2)));
  PrefillSlot<V> slot;
  slot.rowBlock = a.select(isItem, pairedRowBlock, half);
  slot.pair = a.select(isItem, a.divu(item, halfOrOne), middle);
  return slot;
}

} // namespace fa4

#endif // FA4_CONVERSION_WORKORDER_H
