//===- ConfigTest.cpp - planConfig decisions and diagnostics --------------===//

#include "PlanningTestUtils.h"

#include "gtest/gtest.h"

using namespace fa4;

namespace {

llvm::FailureOr<AttnConfig> plan(const AttnProblem &problem, Chip chip,
                                 std::string &whyNot) {
  whyNot.clear();
  llvm::raw_string_ostream os(whyNot);
  return planConfig(problem, getTargetInfo(chip), os);
}

TEST(ConfigTest, SM100aPrefillD128IsFA4Default) {
  std::string whyNot;
  auto config =
      plan(makeProblem(4, 8192, 8192, 16, 16, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  EXPECT_EQ(config->numQ, 2);
  EXPECT_EQ(config->bm, 256);
  EXPECT_EQ(config->bn, 128);
  EXPECT_EQ(config->bk0, 64);
  EXPECT_EQ(config->bk1, 64);
  EXPECT_EQ(config->mmaK, 16);
  EXPECT_EQ(config->paddedQkDepth, 128);
  EXPECT_EQ(config->paddedOvDepth, 128);
  EXPECT_FALSE(config->singleO);
  EXPECT_FALSE(config->fuseGqa);
  EXPECT_FALSE(config->useSharedKv);
  EXPECT_FALSE(config->isMla);
  EXPECT_EQ(config->numThreads, 512);
  // 4 x 16 heads x 16 pair tiles = 1024 >= 74 SM pairs.
  EXPECT_TRUE(config->pairCta);
  EXPECT_EQ(config->mmaM, 256);
  EXPECT_EQ(config->kRowsPerCta(), 64);
  EXPECT_EQ(config->vColsPerCta(), 64);
}

TEST(ConfigTest, SM100aNoPairCtaForShortPrefill) {
  std::string whyNot;
  auto config =
      plan(makeProblem(4, 1024, 1024, 16, 16, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  EXPECT_FALSE(config->pairCta);
  EXPECT_EQ(config->mmaM, 128);
}

TEST(ConfigTest, SM100aDepth256UsesSingleO) {
  std::string whyNot;
  auto config =
      plan(makeProblem(1, 4096, 4096, 8, 8, 256, 256), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  // 2 x 256 O columns alone fill TMEM: one Q tile, one O.
  EXPECT_EQ(config->numQ, 1);
  EXPECT_TRUE(config->singleO);
  EXPECT_EQ(config->bm, 128);
  EXPECT_EQ(config->bn, 128);
  EXPECT_TRUE(config->useSharedKv);
}

TEST(ConfigTest, SM100aDepth192KeepsTwoQWithSmallerBN) {
  std::string whyNot;
  auto config =
      plan(makeProblem(1, 4096, 4096, 8, 8, 192, 192), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  EXPECT_EQ(config->numQ, 2);
  EXPECT_EQ(config->bn, 64);
}

TEST(ConfigTest, SM100aMla) {
  std::string whyNot;
  auto config =
      plan(makeProblem(8, 1, 4096, 16, 1, 576, 512), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  EXPECT_TRUE(config->isMla);
  EXPECT_EQ(config->nopeDepth, 512);
  EXPECT_EQ(config->paddedNopeDepth, 512);
  EXPECT_EQ(config->ropeDepth(), 64);
  EXPECT_TRUE(config->singleO);
  EXPECT_EQ(config->bn, 64);
  EXPECT_EQ(config->mmaM, 64);
  EXPECT_EQ(config->mPack, 2);
  EXPECT_TRUE(config->useSharedKv);
  EXPECT_TRUE(config->fuseGqa);
}

/// The problem with the sm_90a plan held to two consumer warpgroups (at
/// d = 64 and sizes past 2048 the planner would take three).
static AttnProblem withTwoConsumers(AttnProblem problem) {
  problem.consumerWarpgroups = 2;
  return problem;
}

TEST(ConfigTest, SM90aBlockNByHeadDepth) {
  std::string whyNot;
  for (auto [depth, expectedBN] :
       {std::pair<int, int>{64, 176}, {128, 176}, {256, 80}}) {
    auto config =
        plan(withTwoConsumers(makeProblem(4, 4096, 4096, 16, 16, depth, depth)),
             Chip::SM90a, whyNot);
    ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
    EXPECT_EQ(config->bn, expectedBN) << "depth " << depth;
    EXPECT_EQ(config->bm, 128);
    EXPECT_EQ(config->numQ, 2);
    EXPECT_EQ(config->mmaM, 64);
    EXPECT_EQ(config->numThreads, 384);
    EXPECT_FALSE(config->pairCta);
    EXPECT_FALSE(config->useSharedKv);
  }
}

TEST(ConfigTest, SM90aCausalBlockNCapsCausalTilesOnly) {
  std::string whyNot;
  // The sm_90a plan's BN (-1 and a failure when there is no plan).
  auto sm90BN = [&](const AttnProblem &problem) {
    auto config = plan(problem, Chip::SM90a, whyNot);
    EXPECT_TRUE(llvm::succeeded(config)) << whyNot;
    return llvm::succeeded(config) ? config->bn : -1;
  };
  for (int depth : {64, 128}) {
    // By default a causal mask caps BN at 128.
    AttnProblem causal =
        withTwoConsumers(makeProblem(4, 4096, 4096, 16, 16, depth, depth));
    causal.mask = MaskKind::Causal;
    EXPECT_EQ(causal.causalBlockN, kDefaultCausalBlockN);
    EXPECT_EQ(sm90BN(causal), 128) << "depth " << depth;
    // 0 lifts the cap: the register and shared-memory bound, 176.
    causal.causalBlockN = 0;
    EXPECT_EQ(sm90BN(causal), 176) << "depth " << depth;
    // Nor past kCausalBlockNMaxSeqKV keys, where the wider tile is faster;
    // an unknown Skv takes the cap.
    AttnProblem longCausal =
        withTwoConsumers(makeProblem(1, 16384, 16384, 16, 16, depth, depth));
    longCausal.mask = MaskKind::Causal;
    EXPECT_EQ(sm90BN(longCausal), 176) << "depth " << depth;
    longCausal.seqKV = kDynamic;
    EXPECT_EQ(sm90BN(longCausal), 128) << "depth " << depth;
    longCausal.seqKVHint = 16384;
    EXPECT_EQ(sm90BN(longCausal), 176) << "depth " << depth;
    // Without a causal mask the cap does not apply.
    EXPECT_EQ(sm90BN(withTwoConsumers(
                  makeProblem(4, 4096, 4096, 16, 16, depth, depth))),
              176)
        << "depth " << depth;
  }
  // A cap above the chip's choice changes nothing (d = 256: BN = 80).
  AttnProblem deep = makeProblem(4, 4096, 4096, 8, 8, 256, 256);
  deep.mask = MaskKind::Causal;
  EXPECT_EQ(sm90BN(deep), 80);
  // Nor does it apply on sm_100a, whose tiles are planned for TMEM.
  AttnProblem blackwell = makeProblem(4, 4096, 4096, 16, 16, 128, 128);
  blackwell.mask = MaskKind::Causal;
  AttnProblem blackwellNoCap = blackwell;
  blackwellNoCap.causalBlockN = 0;
  auto withCap = plan(blackwell, Chip::SM100a, whyNot);
  auto withoutCap = plan(blackwellNoCap, Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(withCap) && llvm::succeeded(withoutCap))
      << whyNot;
  EXPECT_EQ(withCap->bn, withoutCap->bn);
}

TEST(ConfigTest, SM90aThreeConsumersPastTheTwinsBound) {
  std::string whyNot;
  auto sm90 = [&](const AttnProblem &problem) {
    auto config = plan(problem, Chip::SM90a, whyNot);
    EXPECT_TRUE(llvm::succeeded(config)) << whyNot;
    return config;
  };
  // d = 64 with Sq and Skv known past 2048: three consumers, a 192-row
  // tile, 512 threads, BN from 160 registers a consumer (S + P + O <= 128).
  AttnProblem longPrefill = makeProblem(2, 8192, 8192, 32, 32, 64, 64);
  auto three = sm90(longPrefill);
  ASSERT_TRUE(llvm::succeeded(three));
  EXPECT_EQ(three->numQ, 3);
  EXPECT_EQ(three->bm, 192);
  EXPECT_EQ(three->numThreads, 512);
  EXPECT_EQ(three->bn, 128);
  EXPECT_LE(three->bn / 2 + three->bn / 4 + three->paddedOvDepth / 2, 128);
  EXPECT_FALSE(twinProblem(longPrefill, *three));
  // A dynamic Skv: the kernel runs past the twin's bound only, so three,
  // and the twin keeps two in its own plan; causal too.
  AttnProblem dynamic =
      makeProblem(kDynamic, kDynamic, kDynamic, 32, 32, 64, 64);
  dynamic.mask = MaskKind::Causal;
  auto dynamicConfig = sm90(dynamic);
  ASSERT_TRUE(llvm::succeeded(dynamicConfig));
  EXPECT_EQ(dynamicConfig->numQ, 3);
  std::optional<AttnProblem> twin = twinProblem(dynamic, *dynamicConfig);
  ASSERT_TRUE(twin);
  EXPECT_EQ(twin->consumerWarpgroups, 2);
  EXPECT_EQ(twin->blockN, 0);
  EXPECT_EQ(sm90(*twin)->numQ, 2);
  // Without a mask the twin of two also takes 128-key tiles, not the 176
  // its registers allow (D-17).
  AttnProblem dynamicNone = dynamic;
  dynamicNone.mask = MaskKind::None;
  std::optional<AttnProblem> twinNone =
      twinProblem(dynamicNone, *sm90(dynamicNone));
  ASSERT_TRUE(twinNone);
  EXPECT_EQ(twinNone->consumerWarpgroups, 2);
  EXPECT_EQ(twinNone->blockN, 128);
  EXPECT_EQ(sm90(*twinNone)->bn, 128);
  // Two where the twin runs (a static Skv of 2048 under a causal mask, of
  // 1024 without one), for a short Sq (static or hinted), under a window
  // mask, and at d = 128; asked for three, the twin shares the plan.
  AttnProblem causal2k = makeProblem(8, 2048, 2048, 32, 32, 64, 64);
  causal2k.mask = MaskKind::Causal;
  EXPECT_EQ(sm90(causal2k)->numQ, 2);
  EXPECT_EQ(sm90(makeProblem(8, 1024, 1024, 32, 32, 64, 64))->numQ, 2);
  // Without a mask 2048 keys are past the twin: three.
  EXPECT_EQ(sm90(makeProblem(8, 2048, 2048, 32, 32, 64, 64))->numQ, 3);
  dynamic.seqQHint = 1024;
  EXPECT_EQ(sm90(dynamic)->numQ, 2);
  dynamic.seqQHint = kDynamic;
  dynamic.consumerWarpgroups = 3;
  EXPECT_FALSE(twinProblem(dynamic, *sm90(dynamic)));
  EXPECT_EQ(sm90(makeProblem(8, 1024, 8192, 32, 32, 64, 64))->numQ, 2);
  AttnProblem window = longPrefill;
  window.mask = MaskKind::Window;
  window.windowLeft = 128;
  window.windowRight = 0;
  EXPECT_EQ(sm90(window)->numQ, 2);
  EXPECT_EQ(sm90(makeProblem(2, 8192, 8192, 16, 16, 128, 128))->numQ, 2);
  // Asked for: three at d = 128 (BN = 80), two at d = 64.
  AttnProblem ask = makeProblem(2, 8192, 8192, 16, 16, 128, 128);
  ask.consumerWarpgroups = 3;
  auto asked = sm90(ask);
  ASSERT_TRUE(llvm::succeeded(asked));
  EXPECT_EQ(asked->numQ, 3);
  EXPECT_EQ(asked->bn, 80);
  EXPECT_EQ(sm90(withTwoConsumers(longPrefill))->numQ, 2);
  // Decode tiles keep their consumers even when three are asked for.
  AttnProblem decode = makeProblem(1, 1, 32768, 32, 32, 64, 64);
  decode.consumerWarpgroups = 3;
  EXPECT_NE(sm90(decode)->numQ, 3);
}

TEST(ConfigTest, SM90aTwinsOwnTiles) {
  std::string whyNot;
  // d = 128 without a mask, dynamic Skv: the kernel keeps BN = 176, its
  // twin (Skv <= 2048) takes 128-key tiles.
  AttnProblem none =
      makeProblem(kDynamic, kDynamic, kDynamic, 16, 16, 128, 128);
  auto config = plan(none, Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  EXPECT_EQ(config->bn, 176);
  std::optional<AttnProblem> twin = twinProblem(none, *config);
  ASSERT_TRUE(twin);
  EXPECT_EQ(twin->blockN, 128);
  auto twinConfig = plan(*twin, Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(twinConfig)) << whyNot;
  EXPECT_EQ(twinConfig->bn, 128);
  EXPECT_EQ(twinConfig->numQ, 2);
  // Not under a mask (causal tiles are 128 already), not for a static Skv
  // (one kernel), nor when block-n is asked for; d = 256 has its own rule.
  AttnProblem causal = none;
  causal.mask = MaskKind::Causal;
  EXPECT_FALSE(twinProblem(causal, *plan(causal, Chip::SM90a, whyNot)));
  AttnProblem fixed = makeProblem(4, 1024, 1024, 16, 16, 128, 128);
  EXPECT_FALSE(twinProblem(fixed, *plan(fixed, Chip::SM90a, whyNot)));
  AttnProblem deep = makeProblem(kDynamic, kDynamic, kDynamic, 8, 8, 256, 256);
  // d = 256: the twin at 64-key tiles, the kernel's 80 leaving it no room
  // to stage O (plansLoopedTwin); not under a window mask.
  auto deepConfig = plan(deep, Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(deepConfig)) << whyNot;
  EXPECT_EQ(deepConfig->bn, 80);
  EXPECT_FALSE(plansLoopedTwin(deep, *deepConfig, SplitKPlan()));
  std::optional<AttnProblem> deepTwin = twinProblem(deep, *deepConfig);
  ASSERT_TRUE(deepTwin);
  EXPECT_EQ(deepTwin->blockN, 64);
  auto deepTwinConfig = plan(*deepTwin, Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(deepTwinConfig)) << whyNot;
  EXPECT_TRUE(plansLoopedTwin(*deepTwin, *deepTwinConfig, SplitKPlan()));
  AttnProblem deepWindow = deep;
  deepWindow.mask = MaskKind::Window;
  deepWindow.windowLeft = 128;
  deepWindow.windowRight = 0;
  EXPECT_FALSE(twinProblem(deepWindow, *plan(deepWindow, Chip::SM90a, whyNot)));
  AttnProblem asked = none;
  asked.blockN = 176;
  EXPECT_FALSE(twinProblem(asked, *plan(asked, Chip::SM90a, whyNot)));
  // sm_100a has no looped twin.
  EXPECT_FALSE(twinProblem(none, *plan(none, Chip::SM100a, whyNot)));
}

TEST(ConfigTest, ThreeConsumersRejectedWhereNotPlanned) {
  std::string whyNot;
  // Dv = 256 leaves no KV tile in 160 registers.
  AttnProblem deep = makeProblem(2, 8192, 8192, 8, 8, 256, 256);
  deep.consumerWarpgroups = 3;
  EXPECT_TRUE(llvm::failed(plan(deep, Chip::SM90a, whyNot)));
  EXPECT_NE(whyNot.find("expected ovDepth <= 128 with consumer-warpgroups=3"),
            std::string::npos)
      << whyNot;
  // Only 2 or 3, and only on sm_90a.
  for (auto [chip, count] : {std::pair<Chip, int64_t>{Chip::SM90a, 4},
                             {Chip::SM90a, 1},
                             {Chip::SM100a, 3}}) {
    whyNot.clear();
    AttnProblem problem = makeProblem(2, 8192, 8192, 16, 16, 64, 64);
    problem.consumerWarpgroups = count;
    EXPECT_TRUE(llvm::failed(plan(problem, chip, whyNot)));
    EXPECT_NE(whyNot.find("expected consumer-warpgroups to be 0"),
              std::string::npos)
        << whyNot;
  }
}

TEST(ConfigTest, FuseGqaForDecode) {
  std::string whyNot;
  for (Chip chip : {Chip::SM90a, Chip::SM100a}) {
    auto config = plan(makeProblem(1, 1, 8192, 32, 8, 128, 128), chip, whyNot);
    ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
    EXPECT_TRUE(config->fuseGqa);
    EXPECT_EQ(config->group, 4);
    EXPECT_EQ(config->bmEff(), config->bm / 4);
  }
  auto config =
      plan(makeProblem(1, 1, 8192, 32, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config));
  // Four rows fit one tile: one Q tile, one O.
  EXPECT_EQ(config->numQ, 1);
  EXPECT_TRUE(config->singleO);
}

TEST(ConfigTest, FuseGqaWhenTheGroupOutnumbersTheTile) {
  // MLA decode with 128 heads over BM = 64: fused into head tiles (rows =
  // heads), ceil(128 x 1 / 64) = 2 per kv-head. It was not fused before.
  std::string whyNot;
  auto mla =
      plan(makeProblem(1, 1, 32768, 128, 1, 576, 512), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(mla)) << whyNot;
  EXPECT_EQ(mla->bm, 64);
  EXPECT_TRUE(mla->fuseGqa);
  EXPECT_TRUE(mla->tilesHeads());
  EXPECT_EQ(mla->workItemsPerHead(1), 2);
  EXPECT_EQ(mla->workItemsPerHead(3), 6);
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(*mla, os);
  EXPECT_NE(text.find("fuseGqa = true: the group outnumbers the BM rows"),
            std::string::npos)
      << text;
  // sm_90a tiles are 128 rows: a group of 256 fills two.
  auto hopper =
      plan(makeProblem(1, 1, 32768, 256, 1, 128, 128), Chip::SM90a, whyNot);
  ASSERT_TRUE(llvm::succeeded(hopper)) << whyNot;
  EXPECT_TRUE(hopper->tilesHeads());
  EXPECT_EQ(hopper->workItemsPerHead(1), 2);
  // A group within the tile keeps whole positions per tile.
  auto small =
      plan(makeProblem(1, 1, 32768, 16, 1, 576, 512), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(small)) << whyNot;
  EXPECT_TRUE(small->fuseGqa);
  EXPECT_FALSE(small->tilesHeads());
  EXPECT_EQ(small->bmEff(), 4);
  // Prefill still does not fuse, whatever the group.
  auto prefill =
      plan(makeProblem(1, 4096, 4096, 128, 1, 576, 512), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(prefill)) << whyNot;
  EXPECT_FALSE(prefill->fuseGqa);
}

TEST(ConfigTest, NoFuseGqaForPrefillOrMha) {
  std::string whyNot;
  auto prefill =
      plan(makeProblem(1, 128, 8192, 32, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(prefill));
  EXPECT_FALSE(prefill->fuseGqa);
  auto mha =
      plan(makeProblem(1, 1, 8192, 8, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(mha));
  EXPECT_FALSE(mha->fuseGqa);
}

TEST(ConfigTest, DynamicSeqQUsesHintForFusion) {
  std::string whyNot;
  AttnProblem problem =
      makeProblem(kDynamic, kDynamic, kDynamic, 32, 8, 128, 128);
  auto noHint = plan(problem, Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(noHint)) << whyNot;
  EXPECT_FALSE(noHint->fuseGqa);
  EXPECT_EQ(noHint->numQ, 2);
  problem.seqQHint = 1;
  auto hinted = plan(problem, Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(hinted)) << whyNot;
  EXPECT_TRUE(hinted->fuseGqa);
}

TEST(ConfigTest, PaddedDepths) {
  std::string whyNot;
  auto config =
      plan(makeProblem(1, 128, 128, 2, 2, 96, 96), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config)) << whyNot;
  EXPECT_EQ(config->qkDepth, 96);
  EXPECT_EQ(config->paddedQkDepth, 128);
  EXPECT_EQ(config->paddedOvDepth, 128);
  auto f8 =
      plan(makeProblem(1, 128, 128, 2, 2, 192, 128, ElementType::F8E4M3FN),
           Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(f8)) << whyNot;
  EXPECT_EQ(f8->mmaK, 32);
  EXPECT_EQ(f8->paddedQkDepth, 192);
  EXPECT_EQ(f8->bk0, 64);
}

struct RejectCase {
  const char *name;
  AttnProblem problem;
  Chip chip;
  const char *message;
};

TEST(ConfigTest, RejectsWithDiagnostics) {
  AttnProblem window = makeProblem(1, 128, 128, 8, 8, 128, 128);
  window.mask = MaskKind::Window;
  AttnProblem f8Out = makeProblem(1, 128, 128, 8, 8, 128, 128);
  f8Out.outputElementType = ElementType::F8E4M3FN;
  AttnProblem badWindow = makeProblem(1, 128, 128, 8, 8, 128, 128);
  badWindow.windowLeft = -5;
  AttnProblem wideWindow = makeProblem(1, 128, 128, 8, 8, 128, 128);
  wideWindow.mask = MaskKind::Window;
  wideWindow.windowLeft = 0;
  wideWindow.windowRight = int64_t(1) << 31;
  AttnProblem badSize = makeProblem(1, 0, 128, 8, 8, 128, 128);
  AttnProblem badHint = makeProblem(kDynamic, 128, 128, 8, 8, 128, 128);
  badHint.batchHint = 0;
  AttnProblem badCausalBlockN = makeProblem(1, 128, 128, 8, 8, 128, 128);
  badCausalBlockN.causalBlockN = 100;
  const RejectCase cases[] = {
      {"head ratio", makeProblem(1, 128, 128, 12, 8, 128, 128), Chip::SM100a,
       "expected the q-head count to be a multiple of the kv-head count, but "
       "got 12 q-heads and 8 kv-heads"},
      {"depth granule", makeProblem(1, 128, 128, 8, 8, 100, 100), Chip::SM100a,
       "expected qkDepth to be a positive multiple of 8 bf16 elements (TMA "
       "rows are whole 16-byte units), but got 100"},
      {"f8 depth granule",
       makeProblem(1, 128, 128, 8, 8, 72, 72, ElementType::F8E4M3FN),
       Chip::SM100a,
       "expected qkDepth to be a positive multiple of 16 f8E4M3FN elements"},
      {"deep head", makeProblem(1, 128, 128, 8, 8, 320, 320), Chip::SM100a,
       "expected head depths of at most 256 (or MLA 576/512), but got qkDepth "
       "320 and ovDepth 320"},
      {"deep v", makeProblem(1, 128, 128, 8, 8, 128, 512), Chip::SM90a,
       "expected head depths of at most 256"},
      {"mla on hopper", makeProblem(1, 1, 4096, 16, 1, 576, 512), Chip::SM90a,
       "MLA 576/512 on sm_90a needs O"},
      {"f8 on hopper",
       makeProblem(1, 128, 128, 8, 8, 128, 128, ElementType::F8E4M3FN),
       Chip::SM90a, "f8E4M3FN on sm_90a needs V transposed"},
      {"f8 output", f8Out, Chip::SM100a,
       "expected a bf16 or f16 output, but got f8E4M3FN"},
      {"unbounded window", window, Chip::SM100a,
       "expected a window mask to bound at least one side, but got (-1, -1)"},
      {"negative window", badWindow, Chip::SM100a,
       "expected window half-widths of 0 to 1073741823 or -1 (unbounded), "
       "but got (-5, -1)"},
      {"window past 32 bits", wideWindow, Chip::SM90a,
       "expected window half-widths of 0 to 1073741823 or -1 (unbounded), "
       "but got (0, 2147483648)"},
      {"empty seqQ", badSize, Chip::SM90a,
       "expected seqQ to be 1 to 1073741823 or dynamic, but got 0"},
      {"zero batch hint", badHint, Chip::SM100a,
       "expected batch hint to be -1 (none) or 1 to 1073741823, but got 0"},
      {"causal block-n", badCausalBlockN, Chip::SM90a,
       "expected causal-block-n to be 0 (no cap) or a positive multiple of "
       "16, but got 100"},
  };
  for (const RejectCase &reject : cases) {
    std::string whyNot;
    EXPECT_TRUE(llvm::failed(plan(reject.problem, reject.chip, whyNot)))
        << reject.name;
    EXPECT_NE(whyNot.find(reject.message), std::string::npos)
        << reject.name << ": " << whyNot;
  }
}

TEST(ConfigTest, ExplainSaysWhy) {
  std::string whyNot;
  auto config =
      plan(makeProblem(1, 8192, 8192, 8, 8, 128, 128), Chip::SM100a, whyNot);
  ASSERT_TRUE(llvm::succeeded(config));
  std::string text;
  llvm::raw_string_ostream os(text);
  explain(*config, os);
  EXPECT_NE(text.find("BN = 128: S0,S1 (2 x 128) + O0,O1 (2 x 128) = 512 of "
                      "512 TMEM columns"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("numQ = 2, BM = 256"), std::string::npos) << text;
}

} // namespace
