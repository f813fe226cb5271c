//===- SplitKPlanTest.cpp - planSplitK decisions --------------------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

using namespace fa4;

namespace {

FullPlan planOrFail(const AttnProblem &problem, Chip chip) {
  std::string whyNot;
  llvm::FailureOr<FullPlan> plan = planFor(problem, chip, whyNot);
  EXPECT_TRUE(llvm::succeeded(plan)) << whyNot;
  return llvm::succeeded(plan) ? *plan : FullPlan();
}

TEST(SplitKPlanTest, GqaDecodeOnHopperCoversTheSMs) {
  // B=1, Hq=32, Hkv=8, Sq=1, Skv=32768, d=128: 8 fused work items.
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 32768, 32, 8, 128, 128), Chip::SM90a);
  const SplitKPlan &splitK = plan.splitK;
  EXPECT_TRUE(plan.config.fuseGqa);
  EXPECT_EQ(splitK.numWorkItems, 8);
  EXPECT_EQ(splitK.reason, SplitKReason::Split);
  EXPECT_GE(splitK.numCtas, 100);
  EXPECT_EQ(splitK.partitions, 16);
  EXPECT_EQ(splitK.numCtas, 128);
  EXPECT_EQ(splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(splitK.clusterSize, 16);
  EXPECT_EQ(splitK.kvPerPartition % plan.config.bn, 0);
  EXPECT_GE(splitK.kvPerPartition * splitK.partitions, 32768);
  EXPECT_EQ(splitK.bandColumns, 8);
  EXPECT_EQ(splitK.partitionsWithBand, 16);
}

TEST(SplitKPlanTest, GqaDecodeOnBlackwell) {
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 32768, 32, 8, 128, 128), Chip::SM100a);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(plan.splitK.partitions, 16);
  EXPECT_EQ(plan.splitK.numCtas, 128);
  EXPECT_EQ(plan.smem.splitKStaging.bytes, 128 * 128 * 4 + 128 * 2 * 4);
}

TEST(SplitKPlanTest, NoSplitForLargePrefill) {
  FullPlan plan =
      planOrFail(makeProblem(2, 4096, 4096, 32, 8, 128, 128), Chip::SM100a);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::None);
  EXPECT_EQ(plan.splitK.reason, SplitKReason::EnoughWork);
  EXPECT_EQ(plan.splitK.partitions, 1);
  EXPECT_GE(plan.splitK.numCtas, 148);
}

TEST(SplitKPlanTest, WorkspaceBeyondTheClusterLimit) {
  // One work item over 131072 keys: 132 partitions would cover the SMs, and
  // a cluster of 16 would idle most of them.
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 131072, 1, 1, 128, 128), Chip::SM90a);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::Workspace);
  EXPECT_GT(plan.splitK.partitions, 16);
  EXPECT_EQ(plan.splitK.clusterSize, 1);
  EXPECT_EQ(plan.splitK.bandColumns, 0);
  EXPECT_FALSE(plan.smem.splitKStaging.present());
  EXPECT_GE(plan.splitK.numCtas * 4, 3 * 132);
}

TEST(SplitKPlanTest, ShortKVDoesNotSplit) {
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 300, 32, 8, 128, 128), Chip::SM100a);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::None);
  EXPECT_EQ(plan.splitK.reason, SplitKReason::ShortKV);
}

TEST(SplitKPlanTest, DynamicSizesNeedHints) {
  AttnProblem problem = makeProblem(1, 1, kDynamic, 32, 8, 128, 128);
  FullPlan noHint = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(noHint.splitK.mode, SplitKMode::None);
  EXPECT_EQ(noHint.splitK.reason, SplitKReason::UnknownSizes);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(noHint.splitK, noHint.config, os);
  EXPECT_NE(text.find("dynamic with no hint"), std::string::npos) << text;

  problem.seqKVHint = 32768;
  FullPlan hinted = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(hinted.splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(hinted.splitK.partitions, 16);
}

TEST(SplitKPlanTest, WindowLimitsTheKeysToSplit) {
  AttnProblem problem = makeProblem(1, 1, 131072, 32, 8, 128, 128);
  problem.mask = MaskKind::Window;
  problem.windowLeft = 1023;
  problem.windowRight = 0;
  FullPlan plan = planOrFail(problem, Chip::SM100a);
  EXPECT_EQ(plan.splitK.kvSpan, 1024);
  // 1024 keys make two partitions of 4 x 128 keys.
  EXPECT_EQ(plan.splitK.partitions, 2);
  EXPECT_EQ(plan.splitK.kvPerPartition, 512);
}

TEST(SplitKPlanTest, PartitionsWithoutABand) {
  // ovDepth 96 over 16 partitions: 8-column bands, 12 of them.
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 32768, 32, 8, 96, 96), Chip::SM100a);
  ASSERT_EQ(plan.splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(plan.splitK.partitions, 16);
  EXPECT_EQ(plan.splitK.bandColumns, 8);
  EXPECT_EQ(plan.splitK.partitionsWithBand, 12);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(plan.splitK, plan.config, os);
  EXPECT_NE(text.find("4 partition(s) own no band"), std::string::npos) << text;
}

} // namespace
