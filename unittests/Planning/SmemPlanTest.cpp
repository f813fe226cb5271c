//===- SmemPlanTest.cpp - planSmem layouts and diagnostics ----------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

using namespace fa4;

namespace {

TEST(SmemPlanTest, Blackwell128Layout) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(8, 1024, 1024, 8, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  const SmemPlan &smem = full->smem;
  ASSERT_EQ(full->splitK.mode, SplitKMode::None);
  // Q: 256 x 128 bf16 = 64 KB; a K or V stage: 128 x 128 bf16 = 32 KB; a
  // third K+V stage would need 64 + 3 x 64 KB > 227 KB.
  EXPECT_EQ(smem.kvStages, 2);
  EXPECT_EQ(smem.q.offset, 0);
  EXPECT_EQ(smem.q.bytes, 65536);
  EXPECT_TRUE(smem.oStaging.aliased);
  EXPECT_EQ(smem.oStaging.offset, smem.q.offset);
  EXPECT_EQ(smem.kRing.offset, 65536);
  EXPECT_EQ(smem.kStageBytes, 32768);
  EXPECT_EQ(smem.vRing.offset, 65536 + 2 * 32768);
  EXPECT_EQ(smem.qkStages, 2);
  EXPECT_EQ(smem.pvStages, 2);
  // Q 2 + K/V full 2 x (2 + 2) + empty 4 + 5 per Q tile x 2 (S full, P
  // ready, O done, statistics ready, O staged).
  EXPECT_EQ(smem.numBarriers, 2 + 8 + 4 + 10);
  EXPECT_TRUE(smem.tmemAddress.present());
  EXPECT_TRUE(smem.correction.present());
  EXPECT_LE(smem.smemUsed, 233472 - 1024);
}

TEST(SmemPlanTest, HopperKeepsTwoStagesAtEveryDepth) {
  for (int depth : {64, 128, 256}) {
    std::string whyNot;
    auto full = planFor(makeProblem(4, 4096, 4096, 16, 16, depth, depth),
                        Chip::SM90a, whyNot);
    ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
    EXPECT_GE(full->smem.kvStages, 2) << "depth " << depth;
    EXPECT_FALSE(full->smem.correction.present());
    EXPECT_FALSE(full->smem.tmemAddress.present());
  }
}

/// Which sm_90a plans get a looped twin, and so room for its O staging.
TEST(SmemPlanTest, LoopedTwinRule) {
  auto twin = [](AttnProblem problem, Chip chip = Chip::SM90a) {
    std::string whyNot;
    auto full = planFor(problem, chip, whyNot);
    EXPECT_TRUE(llvm::succeeded(full)) << whyNot;
    return llvm::succeeded(full) &&
           plansLoopedTwin(problem, full->config, full->splitK);
  };
  AttnProblem causal = makeProblem(8, 2048, 2048, 16, 16, 128, 128);
  causal.mask = MaskKind::Causal;
  EXPECT_TRUE(twin(causal));
  AttnProblem dynamic = causal;
  dynamic.seqQ = dynamic.seqKV = kDynamic;
  dynamic.seqKVHint = 16384; // A hint does not count.
  EXPECT_TRUE(twin(dynamic));
  // The bound is the twin's depth's: 4096 keys at Dv = 128; at 64 2048
  // under a causal mask and 1024 without one.
  AttnProblem long_ = causal;
  long_.seqQ = long_.seqKV = kMidDepthTwinMaxSeqKV;
  EXPECT_TRUE(twin(long_));
  long_.seqQ = long_.seqKV = kMidDepthTwinMaxSeqKV + 1;
  EXPECT_FALSE(twin(long_));
  AttnProblem shallow =
      makeProblem(8, kLoopedTwinMaxSeqKV, kLoopedTwinMaxSeqKV, 16, 16, 64, 64);
  shallow.mask = MaskKind::Causal;
  EXPECT_TRUE(twin(shallow));
  shallow.seqQ = shallow.seqKV = kLoopedTwinMaxSeqKV + 1;
  EXPECT_FALSE(twin(shallow));
  AttnProblem unmasked =
      makeProblem(8, kUnmaskedShallowTwinMaxSeqKV, kUnmaskedShallowTwinMaxSeqKV,
                  16, 16, 64, 64);
  EXPECT_TRUE(twin(unmasked));
  unmasked.seqQ = unmasked.seqKV = kUnmaskedShallowTwinMaxSeqKV + 1;
  EXPECT_FALSE(twin(unmasked));
  AttnProblem window = causal;
  window.mask = MaskKind::Window;
  window.windowLeft = 128;
  window.windowRight = 0;
  EXPECT_FALSE(twin(window));
  EXPECT_FALSE(twin(makeProblem(8, 2048, 2048, 8, 8, 256, 256)));
  EXPECT_FALSE(twin(causal, Chip::SM100a));
  // Decode: the split-K plan's partitions, no twin.
  EXPECT_FALSE(twin(makeProblem(1, 1, 32768, 32, 8, 128, 128)));
}

/// A twin's plan gives up K/V stages, down to two, for its O staging past
/// the plan; without a twin the plan keeps every stage that fits.
TEST(SmemPlanTest, LoopedTwinStagingFitsPastThePlan) {
  for (int64_t seqKV : {int64_t(1024), int64_t(8192)}) {
    AttnProblem problem = makeProblem(8, seqKV, seqKV, 16, 16, 128, 128);
    problem.mask = MaskKind::Causal;
    std::string whyNot;
    auto full = planFor(problem, Chip::SM90a, whyNot);
    ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
    std::optional<int64_t> staging = loopedTwinStagingOffset(
        full->smem.smemUsed, full->config.bm, getTargetInfo(Chip::SM90a));
    if (seqKV <= kMidDepthTwinMaxSeqKV) {
      EXPECT_EQ(full->smem.kvStages, 2);
      ASSERT_TRUE(staging.has_value());
      // Past the plan, at the swizzle repeat: 163968 -> 164864.
      EXPECT_EQ(*staging, 164864);
    } else {
      EXPECT_EQ(full->smem.kvStages, 3);
      EXPECT_FALSE(staging.has_value());
    }
  }
}

TEST(SmemPlanTest, SharedRingAtDepth256) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 4096, 4096, 8, 8, 256, 256), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  EXPECT_TRUE(full->config.useSharedKv);
  EXPECT_FALSE(full->smem.vRing.present());
  EXPECT_EQ(full->smem.kvStages, 2);
}

TEST(SmemPlanTest, MlaRopeBuffers) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(8, 1, 4096, 16, 1, 576, 512), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  const SmemPlan &smem = full->smem;
  EXPECT_EQ(smem.q.bytes, 64 * 576 * 2);
  EXPECT_EQ(smem.kStageBytes, 64 * 512 * 2);
  EXPECT_GE(smem.kvStages, 2);
  EXPECT_EQ(smem.numRopeBuffers, (smem.kvStages + 1) / 2);
  EXPECT_EQ(smem.rope.bytes, smem.numRopeBuffers * 64 * 64 * 2);
  EXPECT_EQ(smem.qkStages, 9);
}

TEST(SmemPlanTest, NoStageFitsIsAnError) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 1024, 1024, 8, 8, 128, 128), Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  AttnConfig config = full->config;
  config.bm = 512;
  config.paddedQkDepth = config.qkDepth = 256;
  whyNot.clear();
  llvm::raw_string_ostream os(whyNot);
  auto smem = planSmem(AttnProblem(), config, full->splitK, full->swizzle,
                       full->tmem, getTargetInfo(Chip::SM90a), os);
  EXPECT_TRUE(llvm::failed(smem));
  // Q 512 x 256 bf16 = 256 KB alone exceeds 227 KB.
  EXPECT_EQ(whyNot.rfind("shared-memory plan needs ", 0), 0u) << whyNot;
  EXPECT_NE(whyNot.find("with 1 KV slot(s) (Q 262144, K ring 90112, V ring "
                        "45056"),
            std::string::npos)
      << whyNot;
  EXPECT_NE(whyNot.find("but sm_90a allows 232448"), std::string::npos)
      << whyNot;
}

TEST(SmemPlanTest, SplitKStagingReusesQAndTheRings) {
  std::string whyNot;
  auto full =
      planFor(makeProblem(1, 1, 32768, 32, 8, 128, 128), Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  const SmemPlan &smem = full->smem;
  ASSERT_EQ(full->splitK.mode, SplitKMode::ClusterDsmem);
  // 128 rows x 128 f32 + (max, sum) = 65 KB over the dead Q and K ring.
  EXPECT_TRUE(smem.splitKStaging.aliased);
  EXPECT_EQ(smem.splitKStaging.offset, smem.q.offset);
  EXPECT_EQ(smem.splitKStaging.bytes, 128 * 128 * 4 + 128 * 2 * 4);
  // The combine packs its bf16 band into its own staging slice.
  EXPECT_FALSE(smem.oStaging.present());
}

TEST(SmemPlanTest, TwoQTilesAreNotSplitOnBlackwell) {
  // Few heads of long prefill at numQ = 2 leave SMs idle, but the Blackwell
  // kernel splits only work items of one Q tile: no split, no staging.
  std::string whyNot;
  auto full =
      planFor(makeProblem(2, 4096, 4096, 1, 1, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(full)) << whyNot;
  EXPECT_EQ(full->config.numQ, 2);
  EXPECT_EQ(full->splitK.mode, SplitKMode::None);
  EXPECT_EQ(full->splitK.reason, SplitKReason::TwoQTiles);
  EXPECT_FALSE(full->smem.splitKStaging.present());
}

} // namespace
