//===- SwizzlePlanTest.cpp - selectSwizzle boxes and widths ---------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

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
