//===- SwizzlePlanTest.cpp - selectSwizzle boxes and widths ---------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

using namespace fa4;

namespace {

TEST(SwizzlePlanTest, WidestSwizzleThatDividesTheRow) {
  EXPECT_EQ(selectSwizzleBytes(64, 128, 2), 128);
  EXPECT_EQ(selectSwizzleBytes(64, 256, 2), 128);
  EXPECT_EQ(selectSwizzleBytes(64, 64, 2), 64);
  EXPECT_EQ(selectSwizzleBytes(64, 96, 2), 32);
  EXPECT_EQ(selectSwizzleBytes(64, 32, 2), 32);
  EXPECT_EQ(selectSwizzleBytes(64, 16, 2), 0);
  EXPECT_EQ(selectSwizzleBytes(64, 48, 2), 0);
}

TEST(SwizzlePlanTest, EightBitForces64B) {
  EXPECT_EQ(selectSwizzleBytes(128, 128, 1), 64);
  EXPECT_EQ(selectSwizzleBytes(128, 64, 1), 64);
  EXPECT_EQ(selectSwizzleBytes(128, 32, 1), 32);
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 4096, 4096, 8, 8, 128, 128, ElementType::F8E4M3FN),
              Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  EXPECT_EQ(full->swizzle.q.swizzleBytes, 64);
  EXPECT_EQ(full->swizzle.k.swizzleBytes, 64);
  EXPECT_EQ(full->swizzle.v.swizzleBytes, 64);
  // O is bf16: 128B.
  EXPECT_EQ(full->swizzle.o.swizzleBytes, 128);
}

TEST(SwizzlePlanTest, BoxesUnderEightRowsAreNotSwizzled) {
  EXPECT_EQ(selectSwizzleBytes(7, 128, 2), 0);
  EXPECT_EQ(selectSwizzleBytes(8, 128, 2), 128);
  AttnProblem problem = makeProblem(1, 1, 4096, 8, 8, 128, 128);
  problem.pageSize = 4;
  std::string whyNot;
  auto full = planFor(problem, Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  EXPECT_EQ(full->swizzle.k.boxRows, 4);
  EXPECT_EQ(full->swizzle.k.swizzleBytes, 0);
  EXPECT_EQ(full->swizzle.v.boxRows, 4);
  EXPECT_EQ(full->swizzle.v.swizzleBytes, 0);
  EXPECT_EQ(full->swizzle.q.swizzleBytes, 128);
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
