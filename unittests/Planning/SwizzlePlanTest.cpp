//===- SwizzlePlanTest.cpp - selectSwizzle boxes and widths ---------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace fa4;

namespace {

/// selectSwizzleBytes, with -1 for failure.
int swizzleOf(int boxRows, int rowBytes, int elementBytes) {
  llvm::FailureOr<int> swizzle =
      selectSwizzleBytes(boxRows, rowBytes, elementBytes);
  return llvm::succeeded(swizzle) ? *swizzle : -1;
}

TEST(SwizzlePlanTest, SwizzleSpanEqualsTheRow) {
  // cuTensorMapEncodeTiled: boxDim[0] x element size <= the swizzle span;
  // the swizzled MMA layouts want the row to fill the span exactly.
  EXPECT_EQ(swizzleOf(64, 128, 2), 128);
  EXPECT_EQ(swizzleOf(64, 64, 2), 64);
  EXPECT_EQ(swizzleOf(64, 32, 2), 32);
  // 96 bytes is no span: none (it was 32B, "the widest dividing the row",
  // whose 32-byte span the 96-byte row overruns).
  EXPECT_EQ(swizzleOf(64, 96, 2), 0);
  EXPECT_EQ(swizzleOf(64, 16, 2), 0);
  EXPECT_EQ(swizzleOf(64, 48, 2), 0);
  EXPECT_EQ(swizzleOf(64, 80, 2), 0);
  // Wider than 128 bytes fits no span: the planner must cut depth into
  // 128-byte boxes (it was 128B).
  EXPECT_EQ(swizzleOf(64, 256, 2), -1);
  EXPECT_EQ(swizzleOf(64, 144, 2), -1);
}

TEST(SwizzlePlanTest, NinetySixByteBoxIsNotSwizzled) {
  // A hand-written config with 48-column depths: 96-byte Q/K boxes.
  AttnConfig config;
  config.bm = 128;
  config.numQ = 1;
  config.bn = 128;
  config.qkDepth = config.paddedQkDepth = 48;
  config.ovDepth = config.paddedOvDepth = 64;
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  auto swizzle =
      selectSwizzle(AttnProblem(), config, getTargetInfo(Chip::SM100a), os);
  ASSERT_TRUE(llvm::succeeded(swizzle)) << whyNot;
  EXPECT_EQ(swizzle->q.rowBytes(), 96);
  EXPECT_EQ(swizzle->q.swizzleBytes, 0);
  EXPECT_EQ(swizzle->k.swizzleBytes, 0);
  EXPECT_EQ(swizzle->v.swizzleBytes, 128);
  std::string text;
  llvm::raw_string_ostream textOs(text);
  explain(*swizzle, config, textOs);
  EXPECT_NE(text.find("Q: box 128 x 48 (96-byte rows), no swizzle: the row is "
                      "not one swizzle span (32, 64 or 128 bytes)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("V: box 128 x 64 (128-byte rows), 128B swizzle: the "
                      "span equals the row\n"),
            std::string::npos)
      << text;
}

TEST(SwizzlePlanTest, EightBitForces64B) {
  EXPECT_EQ(swizzleOf(128, 64, 1), 64);
  EXPECT_EQ(swizzleOf(128, 32, 1), 32);
  // A 128-byte 8-bit row overruns the 64B span FA4Config forces.
  EXPECT_EQ(swizzleOf(128, 128, 1), -1);
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 4096, 4096, 8, 8, 128, 128, ElementType::F8E4M3FN),
              Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  EXPECT_EQ(full->swizzle.q.rowBytes(), 64);
  EXPECT_EQ(full->swizzle.q.swizzleBytes, 64);
  EXPECT_EQ(full->swizzle.k.swizzleBytes, 64);
  EXPECT_EQ(full->swizzle.v.swizzleBytes, 64);
  // O is bf16: 128B.
  EXPECT_EQ(full->swizzle.o.swizzleBytes, 128);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(full->swizzle, full->config, os);
  EXPECT_NE(text.find("64B swizzle: the span equals the row (8-bit boxes span "
                      "64 bytes, as FA4Config forces)"),
            std::string::npos)
      << text;
}

TEST(SwizzlePlanTest, BoxesUnderEightRowsAreNotSwizzled) {
  EXPECT_EQ(swizzleOf(7, 128, 2), 0);
  EXPECT_EQ(swizzleOf(8, 128, 2), 128);
  EXPECT_EQ(swizzleOf(4, 128, 2), 0);
}

/// A paged decode-like problem: Skv unknown, pages of `pageSize` keys.
AttnProblem pagedProblem(int pageSize) {
  AttnProblem problem = makeProblem(8, 1, kDynamic, 32, 8, 128, 128);
  problem.sequences = SequenceLayout::Paged;
  problem.pageSize = pageSize;
  return problem;
}

TEST(SwizzlePlanTest, LargePagesHoldWholeBoxes) {
  for (Chip chip : {Chip::SM90a, Chip::SM100a}) {
    std::string whyNot;
    auto page64 = planFor(pagedProblem(64), chip, whyNot);
    ASSERT_TRUE(llvm::succeeded(page64)) << whyNot;
    // The tile nests with the page (the Hopper decode's 96 becomes 64).
    EXPECT_EQ(page64->swizzle.kvPath, KvPath::PageBoxes);
    EXPECT_TRUE(pageNests(page64->config.bn, 64)) << page64->config.bn;
    EXPECT_EQ(page64->swizzle.k.boxRows,
              std::min(64, page64->config.kRowsPerCta()));
    EXPECT_EQ(page64->swizzle.v.boxRows, std::min(64, page64->config.bn));
    EXPECT_EQ(page64->swizzle.k.swizzleBytes, 128);
    // A page larger than the tile: boxes of the tile, never across a page.
    auto page256 = planFor(pagedProblem(256), chip, whyNot);
    ASSERT_TRUE(llvm::succeeded(page256)) << whyNot;
    EXPECT_EQ(page256->swizzle.kvPath, KvPath::PageBoxes);
    EXPECT_EQ(page256->swizzle.v.boxRows, page256->config.bn);
  }
}

TEST(SwizzlePlanTest, SmallOrOddPagesAreGathered) {
  std::string whyNot;
  // Small pages, and pages no multiple of 16 nests with (200 = 8 x 25).
  for (int page : {16, 4, 40, 200}) {
    auto hopper = planFor(pagedProblem(page), Chip::SM90a, whyNot);
    ASSERT_TRUE(llvm::succeeded(hopper)) << whyNot;
    EXPECT_EQ(hopper->swizzle.kvPath, KvPath::GatherCpAsync) << page;
    // Gathered rows fill the whole tile's swizzled boxes.
    EXPECT_EQ(hopper->swizzle.v.boxRows, hopper->config.bn) << page;
    EXPECT_EQ(hopper->swizzle.v.swizzleBytes, 128) << page;
    auto blackwell = planFor(pagedProblem(page), Chip::SM100a, whyNot);
    ASSERT_TRUE(llvm::succeeded(blackwell)) << whyNot;
    EXPECT_EQ(blackwell->swizzle.kvPath, KvPath::Gather4) << page;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  auto plan = planFor(pagedProblem(16), Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(plan)) << whyNot;
  explain(plan->swizzle, plan->config, os);
  EXPECT_NE(text.find("K/V path: gather_cp_async: pages of 16 keys are too "
                      "small for a TMA box each (< 64)"),
            std::string::npos)
      << text;
}

TEST(SwizzlePlanTest, PageSizeOnlyWithPagedSequences) {
  std::string whyNot;
  AttnProblem dense = makeProblem(1, 1, 4096, 8, 8, 128, 128);
  dense.pageSize = 64;
  EXPECT_TRUE(llvm::failed(planFor(dense, Chip::SM100a, whyNot)));
  EXPECT_NE(whyNot.find("expected a page size exactly when K/V are paged"),
            std::string::npos)
      << whyNot;
  EXPECT_TRUE(llvm::failed(planFor(pagedProblem(0), Chip::SM90a, whyNot)));
  auto contiguous =
      planFor(makeProblem(1, 1, 4096, 8, 8, 128, 128), Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(contiguous)) << whyNot;
  EXPECT_EQ(contiguous->swizzle.kvPath, KvPath::Contiguous);
}

TEST(SwizzlePlanTest, BoxShapesAtDepth128) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 1024, 1024, 8, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  const SwizzlePlan &swizzle = full->swizzle;
  EXPECT_EQ(swizzle.q.boxRows, 128);
  EXPECT_EQ(swizzle.q.boxColumns, 64);
  EXPECT_EQ(swizzle.k.boxRows, 128);
  EXPECT_EQ(swizzle.k.boxColumns, 64);
  EXPECT_EQ(swizzle.v.boxRows, 128);
  EXPECT_EQ(swizzle.v.boxColumns, 64);
  EXPECT_EQ(swizzle.o.boxRows, 128);
  EXPECT_EQ(swizzle.o.swizzleBytes, 128);
}

TEST(SwizzlePlanTest, OversizedBoxIsAnError) {
  AttnConfig config;
  config.bn = 512;
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  auto swizzle =
      selectSwizzle(AttnProblem(), config, getTargetInfo(Chip::SM100a), os);
  EXPECT_TRUE(llvm::failed(swizzle));
  EXPECT_EQ(whyNot,
            "expected the K TMA box to have 1 to 256 rows, but got 512");
}

} // namespace
