//===- SplitKPlanTest.cpp - planSplitK decisions --------------------------===//

#include "PlanningTestUtils.h"
#include "fa4/Limits.h"

#include "gtest/gtest.h"

#include <tuple>

using namespace fa4;

namespace {

FullPlan planOrFail(const AttnProblem &problem, Chip chip) {
  std::string whyNot;
  llvm::FailureOr<FullPlan> plan = planFor(problem, chip, whyNot);
  EXPECT_TRUE(llvm::succeeded(plan)) << whyNot;
  return llvm::succeeded(plan) ? *plan : FullPlan();
}

TEST(SplitKPlanTest, GqaDecodeOnHopperUsesEightCtaClusters) {
  // B=1, Hq=32, Hkv=8, Sq=1, Skv=32768, d=128: 8 fused work items. One wave
  // would allow 16 partitions, but on the H200 8-CTA clusters measured
  // faster (bench/RESULTS.md: 2.39 against 2.10 TB/s): 64 CTAs.
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 32768, 32, 8, 128, 128), Chip::SM90a);
  const SplitKPlan &splitK = plan.splitK;
  EXPECT_TRUE(plan.config.fuseGqa);
  EXPECT_EQ(splitK.numWorkItems, 8);
  EXPECT_EQ(splitK.reason, SplitKReason::Split);
  EXPECT_EQ(splitK.partitions, 8);
  EXPECT_EQ(splitK.numCtas, 64);
  EXPECT_EQ(splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(splitK.clusterSize, 8);
  EXPECT_EQ(splitK.kvPerPartition % plan.config.bn, 0);
  EXPECT_GE(splitK.kvPerPartition * splitK.partitions, 32768);
  EXPECT_EQ(splitK.bandColumns, 16);
  EXPECT_EQ(splitK.partitionsWithBand, 8);
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
  // seqQ unknown too: a work item count per head the launch alone knows.
  AttnProblem problem = makeProblem(1, kDynamic, kDynamic, 32, 8, 128, 128);
  FullPlan noHint = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(noHint.splitK.mode, SplitKMode::None);
  EXPECT_EQ(noHint.splitK.reason, SplitKReason::UnknownSizes);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(noHint.splitK, noHint.config, os);
  EXPECT_NE(text.find("dynamic with no hint"), std::string::npos) << text;

  problem.seqQHint = 1;
  problem.seqKVHint = 32768;
  FullPlan hinted = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(hinted.splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(hinted.splitK.partitions, 8);
}

TEST(SplitKPlanTest, DynamicDecodeSplitsAtLaunch) {
  // Sq = 1 known, Skv dynamic: one work item per kv-head, and the launch
  // picks the partitions, at most one per SM, of at least 4 KV tiles.
  AttnProblem problem = makeProblem(1, 1, kDynamic, 32, 8, 128, 128);
  FullPlan plan = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::Workspace);
  EXPECT_EQ(plan.splitK.reason, SplitKReason::AtLaunch);
  EXPECT_EQ(plan.splitK.partitions, 132);
  EXPECT_EQ(plan.splitK.kvPerPartition, 4 * plan.config.bn);
  EXPECT_FALSE(plan.smem.splitKStaging.present());
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(plan.splitK, plan.config, os);
  EXPECT_NE(text.find("the runtime picks P per launch"), std::string::npos)
      << text;
  // A window bounded on the left sees fewer keys than Skv: no split.
  problem.mask = MaskKind::Window;
  problem.windowLeft = 4096;
  problem.windowRight = 0;
  EXPECT_EQ(planOrFail(problem, Chip::SM90a).splitK.reason,
            SplitKReason::UnknownSizes);
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

/// planSplitK alone, as attn-plan-splitk runs it: on a config planned for
/// `configProblem` (valid sizes), with `problem`'s sizes and hints.
llvm::FailureOr<SplitKPlan> splitKAlone(const AttnProblem &problem,
                                        const AttnProblem &configProblem,
                                        Chip chip, std::string &whyNot) {
  whyNot.clear();
  llvm::raw_string_ostream os(whyNot);
  llvm::FailureOr<AttnConfig> config =
      planConfig(configProblem, getTargetInfo(chip), os);
  EXPECT_TRUE(llvm::succeeded(config)) << whyNot;
  if (llvm::failed(config))
    return llvm::failure();
  return planSplitK(problem, *config, getTargetInfo(chip), os);
}

TEST(SplitKPlanTest, HintsAreValidatedByPlanSplitKItself) {
  // attn-plan-splitk batch-hint=0 used to divide by zero (0 work items);
  // batch-hint=-5 gave work_items = -40.
  AttnProblem configProblem = makeProblem(1, 1, 32768, 32, 8, 128, 128);
  std::string whyNot;
  for (int64_t hint : {0, -5}) {
    AttnProblem problem = makeProblem(kDynamic, 1, 32768, 32, 8, 128, 128);
    problem.batchHint = hint;
    EXPECT_TRUE(llvm::failed(
        splitKAlone(problem, configProblem, Chip::SM100a, whyNot)));
    EXPECT_EQ(
        whyNot,
        "expected batch hint to be -1 (none) or 1 to 1073741823, but got " +
            std::to_string(hint));
  }
  AttnProblem seqKVHint = makeProblem(1, 1, kDynamic, 32, 8, 128, 128);
  seqKVHint.seqKVHint = 0;
  EXPECT_TRUE(
      llvm::failed(splitKAlone(seqKVHint, configProblem, Chip::SM90a, whyNot)));
  EXPECT_EQ(
      whyNot,
      "expected seqKV hint to be -1 (none) or 1 to 1073741823, but got 0");
  // Static sizes are checked too.
  AttnProblem emptyBatch = makeProblem(0, 1, 32768, 32, 8, 128, 128);
  EXPECT_TRUE(llvm::failed(
      splitKAlone(emptyBatch, configProblem, Chip::SM100a, whyNot)));
  EXPECT_EQ(whyNot,
            "expected batch to be 1 to 1073741823 or dynamic, but got 0");
  // -1 is "no hint", and a hint >= 1 plans.
  AttnProblem hinted = makeProblem(kDynamic, 1, 32768, 32, 8, 128, 128);
  auto noHint = splitKAlone(hinted, configProblem, Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(noHint)) << whyNot;
  EXPECT_EQ(noHint->reason, SplitKReason::AtLaunch);
  hinted.batchHint = 1;
  auto withHint = splitKAlone(hinted, configProblem, Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(withHint)) << whyNot;
  EXPECT_EQ(withHint->numWorkItems, 8);
}

TEST(SplitKPlanTest, HintsPastTheLimitsAreRefused) {
  // batch-hint=2^62 wrapped batch x heads x tiles to 0, then divided by it
  // (SIGFPE).
  AttnProblem configProblem = makeProblem(1, 1, 128, 32, 8, 128, 128);
  AttnProblem problem = makeProblem(kDynamic, 1, 128, 32, 8, 128, 128);
  problem.batchHint = int64_t(1) << 62;
  std::string whyNot;
  EXPECT_TRUE(
      llvm::failed(splitKAlone(problem, configProblem, Chip::SM90a, whyNot)));
  EXPECT_EQ(whyNot, "expected batch hint to be -1 (none) or 1 to 1073741823, "
                    "but got 4611686018427387904");
}

TEST(SplitKPlanTest, RefusesMoreCtasThanAGridHolds) {
  // Every size within fa4/Limits.h, the product past int32 (and, with more
  // heads and rows, past int64): a diagnostic, not a wrapped count.
  AttnProblem problem =
      makeProblem(fa4::limits::kMaxBatch, 4096, 128, 8, 8, 128, 128);
  std::string whyNot;
  EXPECT_TRUE(llvm::failed(splitKAlone(problem, problem, Chip::SM90a, whyNot)));
  EXPECT_EQ(whyNot, "the problem needs more than 2147483647 CTAs (batch "
                    "1073741823 x 8 heads x 32 row blocks x 1), more than one "
                    "launch's grid holds");
  AttnProblem justFits = makeProblem(1, 4096, 128, 8, 8, 128, 128);
  EXPECT_TRUE(
      llvm::succeeded(splitKAlone(justFits, justFits, Chip::SM90a, whyNot)))
      << whyNot;
}

TEST(SplitKPlanTest, ConfigWithZeroHeadsIsAnError) {
  AttnProblem problem = makeProblem(1, 1, 32768, 32, 8, 128, 128);
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  llvm::FailureOr<AttnConfig> config =
      planConfig(problem, getTargetInfo(Chip::SM100a), os);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  config->numKVHeads = 0;
  EXPECT_TRUE(llvm::failed(
      planSplitK(problem, *config, getTargetInfo(Chip::SM100a), os)));
  EXPECT_EQ(whyNot, "split-K expects a config with BN, BM, group and head "
                    "counts >= 1, but got BN 128, BM 128, group 4, 32 q-heads "
                    "and 0 kv-heads");
}

TEST(SplitKPlanTest, PartitionsFitOneWave) {
  // B=1, Sq=1, 16 MHA heads, Skv=32768: 16 work items. ceil(#SMs / 16)
  // partitions gave 160 CTAs on 148 SMs and 144 on 132, a partial second
  // wave; floor keeps one wave.
  AttnProblem problem = makeProblem(1, 1, 32768, 16, 16, 128, 128);
  FullPlan blackwell = planOrFail(problem, Chip::SM100a);
  EXPECT_EQ(blackwell.splitK.numWorkItems, 16);
  EXPECT_EQ(blackwell.splitK.partitions, 9);
  EXPECT_EQ(blackwell.splitK.numCtas, 144);
  EXPECT_EQ(blackwell.splitK.kvPerPartition, 3712);
  FullPlan hopper = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(hopper.splitK.partitions, 8);
  EXPECT_EQ(hopper.splitK.numCtas, 128);
  // 43 KV tiles of BN = 96 (sm_90a decode tiles) per partition.
  EXPECT_EQ(hopper.splitK.kvPerPartition, 4128);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(blackwell.splitK, blackwell.config, os);
  EXPECT_NE(text.find("P = min(floor(148 / 16) = 9 for one wave, 64 for at "
                      "least 4 KV tiles each): 9 partitions of 3712 of 32768 "
                      "keys give 144 CTAs"),
            std::string::npos)
      << text;
}

TEST(SplitKPlanTest, NoSplitWhenOneWaveHoldsOnePartition) {
  // 128 work items on 148 SMs: ceil gave P = 2, 256 CTAs (two waves of
  // the same work); floor(148 / 128) = 1.
  AttnProblem problem = makeProblem(1, 4096, 131072, 8, 1, 128, 128);
  problem.mask = MaskKind::Window;
  problem.windowLeft = 1024;
  problem.windowRight = 0;
  FullPlan plan = planOrFail(problem, Chip::SM100a);
  EXPECT_FALSE(plan.config.pairCta);
  EXPECT_EQ(plan.splitK.numWorkItems, 128);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::None);
  EXPECT_EQ(plan.splitK.reason, SplitKReason::EnoughWork);
  EXPECT_EQ(plan.splitK.partitions, 1);
  EXPECT_EQ(plan.splitK.numCtas, 128);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(plan.splitK, plan.config, os);
  EXPECT_EQ(text, "split-K: none, P = 1: 128 work item(s) x 1 CTA(s) leave "
                  "SMs idle, but P = floor(148 / 128) = 1: a second partition "
                  "per work item would start a second wave\n");
}

TEST(SplitKPlanTest, MlaDecodeWith128HeadsTilesTheHeads) {
  // 128 heads on one kv-head over BM = 64 rows: two head tiles per kv-head,
  // not 128 unfused work items of one row each.
  FullPlan plan =
      planOrFail(makeProblem(1, 1, 32768, 128, 1, 576, 512), Chip::SM100a);
  EXPECT_TRUE(plan.config.fuseGqa);
  EXPECT_TRUE(plan.config.tilesHeads());
  EXPECT_EQ(plan.splitK.numWorkItems, 2);
  EXPECT_EQ(plan.splitK.mode, SplitKMode::Workspace);
  EXPECT_EQ(plan.splitK.partitions, 74);
  EXPECT_EQ(plan.splitK.kvPerPartition, 448);
  EXPECT_EQ(plan.splitK.numCtas, 148);
  // batch x kv-heads x ceil(group x seqQ / BM).
  FullPlan batched =
      planOrFail(makeProblem(2, 3, 32768, 128, 1, 576, 512), Chip::SM100a);
  EXPECT_TRUE(batched.config.tilesHeads());
  EXPECT_EQ(batched.splitK.numWorkItems, 2 * 1 * 6);
  FullPlan twoKvHeads =
      planOrFail(makeProblem(1, 1, 32768, 256, 2, 576, 512), Chip::SM100a);
  EXPECT_EQ(twoKvHeads.splitK.numWorkItems, 4);
}

TEST(SplitKPlanTest, WindowSpanIsWhatOneWorkItemSees) {
  // window(4096, -1), Sq = 4: rows see keys from 4096 before row 0's
  // diagonal to the end, 4096 + 4 = 4100 (4103 before).
  AttnProblem problem = makeProblem(1, 4, 131072, 8, 8, 128, 128);
  problem.mask = MaskKind::Window;
  problem.windowLeft = 4096;
  problem.windowRight = -1;
  FullPlan plan = planOrFail(problem, Chip::SM100a);
  EXPECT_EQ(plan.splitK.kvSpan, 4100);
  // Bounded both sides and clipped at key 0: the first 128-row tile sees
  // keys [0, 271], the second [72, 299]; 272 rather than all 300.
  AttnProblem clipped = makeProblem(1, 256, 300, 4, 4, 128, 128);
  clipped.mask = MaskKind::Window;
  clipped.windowLeft = 100;
  clipped.windowRight = 100;
  FullPlan hopper = planOrFail(clipped, Chip::SM90a);
  ASSERT_EQ(hopper.config.bm, 128);
  EXPECT_EQ(hopper.splitK.kvSpan, 272);
}

TEST(SplitKPlanTest, WindowSpanMatchesRowByRowCount) {
  const TargetInfo &target = getTargetInfo(Chip::SM100a);
  int checked = 0;
  for (int64_t seqQ : {1, 3, 4, 7, 64, 129, 300})
    for (int64_t seqKV : {1, 5, 100, 1000})
      for (int left : {0, 3, 50, 500})
        for (int right : {-1, 0, 2, 40})
          for (auto [bm, group, fuse] :
               {std::tuple<int, int, bool>{4, 1, false},
                {128, 1, false},
                {16, 4, true},
                {64, 6, true},
                {4, 8, true},
                {4, 6, true}}) {
            AttnProblem problem =
                makeProblem(1, seqQ, seqKV, 2 * group, 2, 128, 128);
            problem.mask = MaskKind::Window;
            problem.windowLeft = left;
            problem.windowRight = right;
            AttnConfig config;
            config.bm = bm;
            config.bn = 16;
            config.group = group;
            config.numQHeads = 2 * group;
            config.numKVHeads = 2;
            config.fuseGqa = fuse;
            std::string whyNot;
            llvm::raw_string_ostream os(whyNot);
            llvm::FailureOr<SplitKPlan> plan =
                planSplitK(problem, config, target, os);
            ASSERT_TRUE(llvm::succeeded(plan)) << whyNot;
            int64_t exact = bruteForceKvSpan(problem, config);
            SCOPED_TRACE("seqQ=" + std::to_string(seqQ) +
                         " seqKV=" + std::to_string(seqKV) + " window(" +
                         std::to_string(left) + "," + std::to_string(right) +
                         ") bm=" + std::to_string(bm) +
                         " group=" + std::to_string(group));
            // Head tiles that straddle two positions (BM not dividing the
            // group) are counted as two positions at any start: an upper
            // bound.
            if (config.tilesHeads() && group % bm != 0)
              EXPECT_GE(plan->kvSpan, exact);
            else
              EXPECT_EQ(plan->kvSpan, exact);
            ++checked;
          }
  EXPECT_GT(checked, 0);
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

namespace {

TEST(SplitKPlanTest, OverridesTheCountAndTheCombine) {
  // The GQA decode case of GqaDecodeOnHopperUsesEightCtaClusters, with the
  // tuning overrides: 16 partitions through the workspace (128 CTAs), 4 in
  // a cluster, and the rule's own count through the workspace (16: the cap
  // at 8 holds for clusters only).
  AttnProblem problem = makeProblem(1, 1, 32768, 32, 8, 128, 128);
  problem.splitKPartitions = 16;
  problem.splitKWorkspace = true;
  FullPlan workspace16 = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(workspace16.splitK.reason, SplitKReason::Override);
  EXPECT_EQ(workspace16.splitK.mode, SplitKMode::Workspace);
  EXPECT_EQ(workspace16.splitK.partitions, 16);
  EXPECT_EQ(workspace16.splitK.numCtas, 128);
  EXPECT_EQ(workspace16.splitK.clusterSize, 1);
  EXPECT_FALSE(workspace16.smem.splitKStaging.present());

  problem.splitKPartitions = 4;
  problem.splitKWorkspace = false;
  FullPlan cluster4 = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(cluster4.splitK.mode, SplitKMode::ClusterDsmem);
  EXPECT_EQ(cluster4.splitK.clusterSize, 4);
  EXPECT_EQ(cluster4.splitK.bandColumns, 32);
  EXPECT_TRUE(cluster4.smem.splitKStaging.present());

  problem.splitKPartitions = 0;
  problem.splitKWorkspace = true;
  FullPlan ruleWorkspace = planOrFail(problem, Chip::SM90a);
  EXPECT_EQ(ruleWorkspace.splitK.mode, SplitKMode::Workspace);
  EXPECT_EQ(ruleWorkspace.splitK.partitions, 16);
}

TEST(SplitKPlanTest, RefusesAnOverrideWithoutATilePerPartition) {
  AttnProblem problem = makeProblem(1, 1, 1000, 32, 8, 128, 128);
  for (int64_t partitions : {int64_t(-1), int64_t(12)}) {
    problem.splitKPartitions = partitions;
    std::string whyNot;
    EXPECT_TRUE(llvm::failed(planFor(problem, Chip::SM90a, whyNot)));
    // 1000 keys in tiles of 96: 11 tiles.
    EXPECT_NE(whyNot.find("split-k-partitions must be 1 (no split) or 2 to 11"),
              std::string::npos)
        << whyNot;
  }
}

TEST(SplitKPlanTest, OnePartitionIsNoSplit) {
  // The planner's rule would split this decode; one partition turns it off.
  AttnProblem problem = makeProblem(1, 1, 1000, 32, 8, 128, 128);
  problem.splitKPartitions = 1;
  const SplitKPlan splitK = planOrFail(problem, Chip::SM90a).splitK;
  EXPECT_EQ(splitK.mode, SplitKMode::None);
  EXPECT_EQ(splitK.partitions, 1);
  EXPECT_EQ(splitK.reason, SplitKReason::Override);
}

} // namespace
