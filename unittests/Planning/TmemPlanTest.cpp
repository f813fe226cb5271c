//===- TmemPlanTest.cpp - planTmem column maps and diagnostics ------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

using namespace fa4;

namespace {

llvm::FailureOr<TmemPlan> plan(const AttnConfig &config, std::string &whyNot) {
  whyNot.clear();
  llvm::raw_string_ostream os(whyNot);
  return planTmem(AttnProblem(), config, getTargetInfo(config.chip), os);
}

AttnConfig sm100Config(int bn, int paddedOvDepth, bool singleO) {
  AttnConfig config;
  config.chip = Chip::SM100a;
  config.bn = bn;
  config.ovDepth = config.paddedOvDepth = paddedOvDepth;
  config.singleO = singleO;
  config.numQ = singleO ? 1 : 2;
  return config;
}

TEST(TmemPlanTest, FA4MapAtDepth128) {
  std::string whyNot;
  auto tmem = plan(sm100Config(128, 128, false), whyNot);
  ASSERT_TRUE(llvm::succeeded(tmem)) << whyNot;
  EXPECT_TRUE(tmem->hasTmem);
  EXPECT_EQ(tmem->tmemS0, 0);
  EXPECT_EQ(tmem->tmemS1, 128);
  EXPECT_EQ(tmem->tmemO0, 256);
  EXPECT_EQ(tmem->tmemO1, 384);
  // bf16 P packs two per column into the upper half of S.
  EXPECT_EQ(tmem->tmemP0, 64);
  EXPECT_EQ(tmem->tmemP1, 192);
  EXPECT_EQ(tmem->tmemUsed, 512);
  EXPECT_EQ(tmem->tmemAllocColumns, 512);
}

// Hand-derived maps where the formula's terms differ, so that a map that
// swaps BN and Dv, or sizes P for bf16 whatever the type, fails: S0 = 0,
// S1 = BN, O0 = 2 BN, O1 = O0 + Dv, P = BN x bits / 32 columns at the top
// of each S.
TEST(TmemPlanTest, O1FollowsO0ByDvNotBN) {
  std::string whyNot;
  auto tmem = plan(sm100Config(64, 128, false), whyNot);
  ASSERT_TRUE(llvm::succeeded(tmem)) << whyNot;
  EXPECT_EQ(tmem->tmemS1, 64);
  EXPECT_EQ(tmem->tmemO0, 128);
  EXPECT_EQ(tmem->tmemO1, 256);
  EXPECT_EQ(tmem->tmemP0, 32);
  EXPECT_EQ(tmem->tmemP1, 96);
  EXPECT_EQ(tmem->tmemUsed, 384);
  EXPECT_EQ(tmem->tmemAllocColumns, 512);
}

TEST(TmemPlanTest, F8PTakesAQuarterOfS) {
  std::string whyNot;
  AttnConfig config = sm100Config(128, 128, false);
  config.elementType = ElementType::F8E4M3FN;
  auto tmem = plan(config, whyNot);
  ASSERT_TRUE(llvm::succeeded(tmem)) << whyNot;
  // 128 keys of 8 bits: 32 columns, the last of S0 (96..127) and S1.
  EXPECT_EQ(tmem->tmemP0, 96);
  EXPECT_EQ(tmem->tmemP1, 224);
  EXPECT_EQ(tmem->tmemO1, 384);
}

TEST(TmemPlanTest, PlannedD128UsesTheFA4Map) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 8192, 8192, 8, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  const TmemPlan &tmem = full->tmem;
  int bn = full->config.bn;
  EXPECT_EQ(tmem.tmemS0, 0);
  EXPECT_EQ(tmem.tmemS1, bn);
  EXPECT_EQ(tmem.tmemO0, 2 * bn);
  EXPECT_EQ(tmem.tmemO1, 2 * bn + 128);
  EXPECT_EQ(tmem.tmemUsed, 512);
}

TEST(TmemPlanTest, AllocRoundsUpToAPowerOfTwo) {
  std::string whyNot;
  auto small = plan(sm100Config(128, 64, false), whyNot);
  ASSERT_TRUE(llvm::succeeded(small)) << whyNot;
  EXPECT_EQ(small->tmemUsed, 384);
  EXPECT_EQ(small->tmemAllocColumns, 512);
  auto tiny = plan(sm100Config(8, 8, true), whyNot);
  ASSERT_TRUE(llvm::succeeded(tiny)) << whyNot;
  EXPECT_EQ(tiny->tmemUsed, 24);
  EXPECT_EQ(tiny->tmemAllocColumns, 32);
  EXPECT_EQ(tiny->tmemO1, -1);
}

TEST(TmemPlanTest, SingleOHasNoO1) {
  std::string whyNot;
  auto tmem = plan(sm100Config(128, 256, true), whyNot);
  ASSERT_TRUE(llvm::succeeded(tmem)) << whyNot;
  EXPECT_EQ(tmem->tmemO0, 256);
  EXPECT_EQ(tmem->tmemO1, -1);
  EXPECT_EQ(tmem->tmemUsed, 512);
}

TEST(TmemPlanTest, MlaPacksTwoRowsPerLane) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(8, 1, 4096, 16, 1, 576, 512), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  const TmemPlan &tmem = full->tmem;
  EXPECT_EQ(tmem.sColumns, 32);
  EXPECT_EQ(tmem.oColumns, 256);
  EXPECT_EQ(tmem.tmemS1, 32);
  EXPECT_EQ(tmem.tmemO0, 64);
  EXPECT_EQ(tmem.tmemO1, -1);
  EXPECT_EQ(tmem.tmemP0, 16);
  EXPECT_EQ(tmem.tmemUsed, 320);
  EXPECT_EQ(tmem.tmemAllocColumns, 512);
}

TEST(TmemPlanTest, F8PacksFourPerColumn) {
  std::string whyNot;
  AttnConfig config = sm100Config(128, 128, false);
  config.elementType = ElementType::F8E4M3FN;
  auto tmem = plan(config, whyNot);
  ASSERT_TRUE(llvm::succeeded(tmem)) << whyNot;
  EXPECT_EQ(tmem->pColumns, 32);
  EXPECT_EQ(tmem->tmemP0, 96);
}

TEST(TmemPlanTest, TooManyColumnsIsAnError) {
  std::string whyNot;
  auto tmem = plan(sm100Config(128, 192, false), whyNot);
  EXPECT_TRUE(llvm::failed(tmem));
  EXPECT_EQ(whyNot, "TMEM plan needs 640 columns (S0,S1 = 2x128, O0,O1 = "
                    "2x192) but sm_100a has 512");
  auto singleO = plan(sm100Config(192, 256, true), whyNot);
  EXPECT_TRUE(llvm::failed(singleO));
  EXPECT_EQ(whyNot, "TMEM plan needs 640 columns (S0,S1 = 2x192, O0 = 256) "
                    "but sm_100a has 512");
}

TEST(TmemPlanTest, HopperHasNoTmem) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 4096, 4096, 8, 8, 128, 128), Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  EXPECT_FALSE(full->tmem.hasTmem);
  EXPECT_EQ(full->tmem.tmemUsed, 0);
  EXPECT_EQ(full->tmem.tmemAllocColumns, 0);
  EXPECT_FALSE(full->smem.tmemAddress.present());
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(full->tmem, full->config, os);
  // attn-explain prints this same line (through fa4::explain) for an op
  // without #attn.tmem on a chip without TMEM.
  EXPECT_EQ(text, "tmem: none; sm_90a keeps S and O in registers\n");
  std::string defaultText;
  llvm::raw_string_ostream defaultOs(defaultText);
  explain(TmemPlan(), full->config, defaultOs);
  EXPECT_EQ(defaultText, text);
}

} // namespace
