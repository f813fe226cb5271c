//===- WorkOrderTest.cpp - prefillSlot is a permutation ---------*- C++ -*-===//
//
// The prefill work order (WorkOrder.h) on host integers, with the kernel's
// i32 semantics: every index names one (row block, pair) and every one is
// named, heaviest first within each section, and a section's pairs fit it.
//
//===----------------------------------------------------------------------===//

#include "fa4/Conversion/WorkOrder.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

using namespace fa4;

namespace {

/// The emitters' vocabulary on 32-bit integers (arith's divui, remui, minsi,
/// maxsi on i32).
struct HostArith {
  int64_t i32(int64_t v) { return int32_t(v); }
  int64_t add(int64_t x, int64_t y) { return int32_t(x + y); }
  int64_t sub(int64_t x, int64_t y) { return int32_t(x - y); }
  int64_t mul(int64_t x, int64_t y) { return int32_t(x * y); }
  int64_t divu(int64_t x, int64_t y) { return uint32_t(x) / uint32_t(y); }
  int64_t remu(int64_t x, int64_t y) { return uint32_t(x) % uint32_t(y); }
  int64_t mins(int64_t x, int64_t y) { return std::min(x, y); }
  int64_t maxs(int64_t x, int64_t y) { return std::max(x, y); }
  int64_t ltu(int64_t x, int64_t y) { return uint32_t(x) < uint32_t(y); }
  int64_t select(int64_t c, int64_t x, int64_t y) { return c ? x : y; }
};

struct Shape {
  int64_t rowBlocks, heads, batch, seqKV, sectionKeyHeads;
};

std::vector<PrefillSlot<int64_t>> order(const Shape &s, bool heaviestFirst) {
  HostArith a;
  std::vector<PrefillSlot<int64_t>> slots;
  for (int64_t index = 0; index < s.rowBlocks * s.heads * s.batch; ++index)
    slots.push_back(prefillSlot(a, index, s.rowBlocks, s.heads, s.batch,
                                s.seqKV, heaviestFirst, s.sectionKeyHeads));
  return slots;
}

std::vector<Shape> shapes() {
  std::vector<Shape> all;
  for (int64_t rowBlocks : {1, 2, 3, 4, 7, 16, 33})
    for (int64_t heads : {1, 6, 16})
      for (int64_t batch : {1, 3, 8})
        for (int64_t seqKV : {0, 1, 203, 1024, 4096})
          for (int64_t budget : {0, 1, 5000, 65536, 1 << 20})
            all.push_back({rowBlocks, heads, batch, seqKV, budget});
  return all;
}

/// Whether `slots` names every (row block, pair) of `s` exactly once.
testing::AssertionResult
isPermutation(const Shape &s, const std::vector<PrefillSlot<int64_t>> &slots) {
  std::set<std::pair<int64_t, int64_t>> seen;
  for (const PrefillSlot<int64_t> &slot : slots) {
    if (slot.rowBlock < 0 || slot.rowBlock >= s.rowBlocks || slot.pair < 0 ||
        slot.pair >= s.heads * s.batch)
      return testing::AssertionFailure()
             << "row block " << slot.rowBlock << ", pair " << slot.pair
             << " is out of range";
    if (!seen.insert({slot.rowBlock, slot.pair}).second)
      return testing::AssertionFailure()
             << "row block " << slot.rowBlock << ", pair " << slot.pair
             << " named twice";
  }
  if (int64_t(seen.size()) != s.rowBlocks * s.heads * s.batch)
    return testing::AssertionFailure() << seen.size() << " slots named";
  return testing::AssertionSuccess();
}

TEST(WorkOrderTest, EveryOrderIsAPermutation) {
  for (const Shape &s : shapes())
    for (bool heaviestFirst : {false, true})
      ASSERT_TRUE(isPermutation(s, order(s, heaviestFirst)))
          << s.rowBlocks << " row blocks, " << s.heads * s.batch
          << " pairs, Skv " << s.seqKV << ", budget " << s.sectionKeyHeads;
}

TEST(WorkOrderTest, UnmaskedKeepsAPairsRowBlocksAdjacent) {
  Shape s{5, 6, 2, 1024, 65536};
  std::vector<PrefillSlot<int64_t>> slots = order(s, false);
  for (size_t i = 0; i < slots.size(); ++i) {
    EXPECT_EQ(slots[i].pair, int64_t(i) / 5);
    EXPECT_EQ(slots[i].rowBlock, int64_t(i) % 5);
  }
}

// 64 pairs at Skv = 1024 under a budget of 20 * 1024 key-heads: sections of
// 20, 20, 20 and 4 pairs, each walking its row blocks from the last.
TEST(WorkOrderTest, SectionsGoHeaviestFirstOverTheirOwnPairs) {
  Shape s{4, 16, 4, 1024, 20 * 1024};
  std::vector<PrefillSlot<int64_t>> slots = order(s, true);
  const int64_t widths[] = {20, 20, 20, 4};
  size_t index = 0;
  int64_t firstPair = 0;
  for (int64_t width : widths) {
    for (int64_t rowBlock = 3; rowBlock >= 0; --rowBlock)
      for (int64_t k = 0; k < width; ++k, ++index) {
        EXPECT_EQ(slots[index].rowBlock, rowBlock) << "index " << index;
        EXPECT_EQ(slots[index].pair, firstPair + k) << "index " << index;
      }
    firstPair += width;
  }
  EXPECT_EQ(index, slots.size());
}

// Without a budget (or one wider than every pair) the order is the flat
// longest-processing-time order: one pass over every pair per row block.
TEST(WorkOrderTest, NoSectionIsOnePassPerRowBlock) {
  for (int64_t budget : {int64_t(0), int64_t(1) << 30}) {
    Shape s{3, 6, 2, 100, budget};
    std::vector<PrefillSlot<int64_t>> slots = order(s, true);
    for (size_t i = 0; i < slots.size(); ++i) {
      EXPECT_EQ(slots[i].rowBlock, 2 - int64_t(i) / 12);
      EXPECT_EQ(slots[i].pair, int64_t(i) % 12);
    }
  }
}

std::vector<PrefillSlot<int64_t>> paired(const Shape &s, int64_t stride) {
  HostArith a;
  std::vector<PrefillSlot<int64_t>> slots;
  for (int64_t index = 0; index < s.rowBlocks * s.heads * s.batch; ++index)
    slots.push_back(
        pairedSlot(a, index, s.rowBlocks, s.heads, s.batch, stride));
  return slots;
}

TEST(WorkOrderTest, PairedOrderIsAPermutation) {
  for (const Shape &s : shapes()) {
    if (s.sectionKeyHeads || s.seqKV)
      continue; // pairedSlot reads neither
    for (int64_t stride : {1, 3, 7, 132, 1000})
      ASSERT_TRUE(isPermutation(s, paired(s, stride)))
          << s.rowBlocks << " row blocks, " << s.heads * s.batch
          << " pairs, stride " << stride;
  }
}

// Under the static stride each CTA's causal work, the sum of its row
// blocks' diagonals (row block + 1), differs from another's by at most one
// item (R + 1); heaviest first within L2 sections spreads it more than
// twice as far (the d = 128 sweep's S = 2048: 128 pairs, 16 row blocks,
// 32-pair sections).
TEST(WorkOrderTest, PairedOrderEvensTheStrideOut) {
  const int64_t stride = 132, rowBlocks = 16, pairs = 128;
  Shape s{rowBlocks, 16, pairs / 16, 2048, 65536};
  auto spread = [&](const std::vector<PrefillSlot<int64_t>> &slots) {
    std::vector<int64_t> work(stride, 0);
    for (size_t i = 0; i < slots.size(); ++i)
      work[i % stride] += slots[i].rowBlock + 1;
    return *std::max_element(work.begin(), work.end()) -
           *std::min_element(work.begin(), work.end());
  };
  int64_t pairedSpread = spread(paired(s, stride));
  EXPECT_LE(pairedSpread, rowBlocks + 1);
  EXPECT_GT(spread(order(s, true)), 2 * pairedSpread) << pairedSpread;
  // A round of the paired order holds about stride / (R / 2) pairs.
  std::vector<PrefillSlot<int64_t>> slots = paired(s, stride);
  std::set<int64_t> firstRound;
  for (int64_t i = 0; i < stride; ++i)
    firstRound.insert(slots[i].pair);
  EXPECT_LE(int64_t(firstRound.size()), stride / (rowBlocks / 2) + 1);
}

TEST(WorkOrderTest, SectionKeyHeadsCountsTheGroupAndSaturates) {
  // d = 64: 256 bytes of K and V a key; 4 q heads per kv head.
  EXPECT_EQ(sectionKeyHeads(32 << 20, 256, 4), 524288);
  EXPECT_EQ(sectionKeyHeads(0, 256, 4), 0);
  EXPECT_EQ(sectionKeyHeads(int64_t(1) << 40, 256, 1),
            std::numeric_limits<int32_t>::max());
}

} // namespace
