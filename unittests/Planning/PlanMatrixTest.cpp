//===- PlanMatrixTest.cpp - Invariants over a matrix of problems ----------===//
//
// Every problem of the matrix either plans with every invariant holding or
// fails with the diagnostic the rules predict.
//
//===----------------------------------------------------------------------===//

#include "PlanningTestUtils.h"

#include "llvm/Support/MathExtras.h"

#include "gtest/gtest.h"

using namespace fa4;

namespace {

struct DepthPair {
  int qk;
  int ov;
};

struct MatrixParam {
  Chip chip;
  DepthPair depths;
};

std::string paramName(const testing::TestParamInfo<MatrixParam> &info) {
  return chipName(info.param.chip).str() + "_" +
         std::to_string(info.param.depths.qk) + "x" +
         std::to_string(info.param.depths.ov);
}

/// The diagnostic the rules predict, or "" when the problem must plan.
std::string expectedFailure(const AttnProblem &problem, Chip chip) {
  bool isMla = problem.qkDepth == 576 && problem.ovDepth == 512;
  if (chip == Chip::SM90a && isMla)
    return "MLA 576/512 on sm_90a needs O";
  if (chip == Chip::SM90a && problem.elementType == ElementType::F8E4M3FN)
    return "f8E4M3FN on sm_90a needs V transposed";
  return "";
}

void checkConfig(const AttnConfig &config, const AttnProblem &problem,
                 const TargetInfo &target) {
  EXPECT_EQ(config.chip, target.chip);
  EXPECT_GE(config.paddedQkDepth, config.qkDepth);
  EXPECT_GE(config.paddedOvDepth, config.ovDepth);
  EXPECT_EQ(config.paddedQkDepth % 64, 0);
  EXPECT_EQ(config.paddedOvDepth % 64, 0);
  EXPECT_EQ(config.paddedQkDepth % config.mmaK, 0);
  EXPECT_EQ(config.mmaK, target.mmaK(elementBits(problem.elementType)));
  EXPECT_EQ(config.bn % 16, 0);
  EXPECT_GE(config.bn, 16);
  EXPECT_EQ(config.bm % config.numQ, 0);
  EXPECT_EQ(config.bk0, 64);
  EXPECT_EQ(config.bk1, 64);
  EXPECT_EQ(config.singleO, config.numQ == 1);
  EXPECT_EQ(config.group * config.numKVHeads, config.numQHeads);
  if (config.fuseGqa) {
    EXPECT_GT(config.group, 1);
    EXPECT_EQ(config.bmEff() >= 1, !config.tilesHeads());
  }
  if (config.pairCta) {
    EXPECT_EQ(target.chip, Chip::SM100a);
    EXPECT_EQ(config.mmaM, 256);
  }
  EXPECT_LE(config.numThreads, target.maxThreadsPerBlock);
  EXPECT_EQ(config.isMla, config.qkDepth == 576);
}

void checkSplitK(const SplitKPlan &splitK, const AttnConfig &config,
                 const AttnProblem &problem, const TargetInfo &target) {
  EXPECT_EQ(splitK.numWorkItems,
            problem.batch *
                (config.fuseGqa ? config.numKVHeads : config.numQHeads) *
                config.workItemsPerHead(problem.seqQ));
  if (!config.tilesHeads()) {
    EXPECT_EQ(splitK.kvSpan, bruteForceKvSpan(problem, config));
  }
  int64_t busyCtas = splitK.numWorkItems * config.ctaGroup();
  if (splitK.partitions == 1) {
    EXPECT_EQ(splitK.mode, SplitKMode::None);
    EXPECT_NE(splitK.reason, SplitKReason::Split);
    if (splitK.reason == SplitKReason::EnoughWork) {
      // floor(#SMs / busy CTAs) < 2.
      EXPECT_GT(2 * splitK.numCtas, target.numSMs);
    }
    return;
  }
  EXPECT_EQ(splitK.reason, SplitKReason::Split);
  EXPECT_EQ(splitK.numCtas, busyCtas * splitK.partitions);
  // One wave: never more CTAs than SMs.
  EXPECT_LE(splitK.numCtas, target.numSMs);
  EXPECT_LE(splitK.partitions, target.numSMs / busyCtas);
  // Each partition streams at least 4 KV tiles, none is empty, together they
  // cover every visited key.
  EXPECT_EQ(splitK.kvPerPartition % config.bn, 0);
  EXPECT_GE(splitK.kvPerPartition, kSplitKMinTilesPerPartition * config.bn);
  EXPECT_GE(splitK.kvPerPartition * splitK.partitions, splitK.kvSpan);
  EXPECT_LT(splitK.kvPerPartition * (splitK.partitions - 1), splitK.kvSpan);
  // Partitions are as short as one wave allows (floor(#SMs / busy CTAs) of
  // them, before the recount that drops any left empty by BN alignment),
  // unless the keys ran out first, the cluster cap kept 3/4 of the SMs
  // busy, or the chip's preferred split-K cluster size capped them.
  int64_t wavePartitions = target.numSMs / busyCtas;
  bool waveFull =
      splitK.kvPerPartition ==
      int64_t(llvm::alignTo(llvm::divideCeil(splitK.kvSpan, wavePartitions),
                            config.bn));
  bool keysRanOut = splitK.kvSpan < (splitK.partitions + 1) *
                                            kSplitKMinTilesPerPartition *
                                            int64_t(config.bn) +
                                        splitK.kvPerPartition;
  bool clusterCapped = splitK.mode == SplitKMode::ClusterDsmem &&
                       splitK.partitions == target.nonPortableClusterSize &&
                       4 * splitK.numCtas >= 3 * target.numSMs;
  bool preferenceCapped = splitK.mode == SplitKMode::ClusterDsmem &&
                          splitK.partitions == target.splitKClusterSize;
  EXPECT_TRUE(waveFull || keysRanOut || clusterCapped || preferenceCapped)
      << splitK.numCtas << " CTAs, " << splitK.kvSpan << " keys";
  if (splitK.mode == SplitKMode::ClusterDsmem) {
    EXPECT_LE(splitK.partitions, target.splitKClusterSize);
    EXPECT_EQ(splitK.clusterSize, splitK.partitions);
    EXPECT_EQ(splitK.bandColumns % 8, 0);
    EXPECT_GE(splitK.bandColumns * splitK.partitionsWithBand, config.ovDepth);
    EXPECT_LT(splitK.bandColumns * (splitK.partitionsWithBand - 1),
              config.ovDepth);
    EXPECT_LE(splitK.partitionsWithBand, splitK.partitions);
  } else {
    EXPECT_EQ(splitK.mode, SplitKMode::Workspace);
    EXPECT_TRUE(splitK.partitions > target.nonPortableClusterSize ||
                config.pairCta);
  }
}

void checkTmem(const TmemPlan &tmem, const AttnConfig &config,
               const TargetInfo &target) {
  if (!target.hasTmem) {
    EXPECT_FALSE(tmem.hasTmem);
    EXPECT_EQ(tmem.tmemUsed, 0);
    return;
  }
  ASSERT_TRUE(tmem.hasTmem);
  EXPECT_LE(tmem.tmemUsed, target.tmemColumns);
  EXPECT_TRUE(llvm::isPowerOf2_32(tmem.tmemAllocColumns));
  EXPECT_GE(tmem.tmemAllocColumns, 32);
  EXPECT_LE(tmem.tmemAllocColumns, 512);
  EXPECT_GE(tmem.tmemAllocColumns, tmem.tmemUsed);
  EXPECT_EQ(tmem.tmemS0, 0);
  EXPECT_EQ(tmem.tmemS1, config.bn / config.mPack);
  EXPECT_EQ(tmem.tmemO0, 2 * config.bn / config.mPack);
  int expectedO1 =
      config.singleO ? -1 : tmem.tmemO0 + config.paddedOvDepth / config.mPack;
  EXPECT_EQ(tmem.tmemO1, expectedO1);
  // P lies inside its S tile, at its top.
  EXPECT_EQ(tmem.tmemP0 + tmem.pColumns, tmem.tmemS1);
  EXPECT_EQ(tmem.tmemP1 + tmem.pColumns, tmem.tmemO0);
}

void checkSwizzle(const OperandTile &tile, llvm::StringRef name) {
  SCOPED_TRACE(name.str());
  EXPECT_GE(tile.boxRows, 1);
  EXPECT_LE(tile.boxRows, 256);
  EXPECT_EQ(tile.rowBytes() % 16, 0);
  if (tile.boxRows < 8) {
    EXPECT_EQ(tile.swizzleBytes, 0);
    return;
  }
  // The swizzle span equals the row (cuTensorMapEncodeTiled: boxDim[0] x
  // element size <= span), at most 64 bytes for 8-bit types.
  int widest = tile.elementBytes == 1 ? 64 : 128;
  EXPECT_LE(tile.rowBytes(), widest);
  int row = tile.rowBytes();
  int expected = (row == 32 || row == 64 || row == 128) ? row : 0;
  EXPECT_EQ(tile.swizzleBytes, expected);
}

void checkSmem(const SmemPlan &smem, const SwizzlePlan &swizzle,
               const TargetInfo &target) {
  EXPECT_GE(smem.kvStages, 1);
  EXPECT_LE(smem.smemUsed, target.smemCarveoutBytes);
  auto regions = namedRegions(smem);
  for (auto [name, region] : regions) {
    SCOPED_TRACE(name.str());
    EXPECT_EQ(region.offset % region.alignment, 0);
    EXPECT_LE(region.end(), smem.smemUsed);
  }
  // Swizzled TMA destinations sit on their swizzle atom (1024 B for 128B).
  EXPECT_EQ(smem.q.offset % (8 * std::max(16, swizzle.q.swizzleBytes)), 0);
  EXPECT_EQ(smem.kRing.offset % (8 * std::max(16, swizzle.k.swizzleBytes)), 0);
  EXPECT_EQ(smem.kStageBytes % (8 * std::max(16, swizzle.k.swizzleBytes)), 0);
  if (smem.vRing.present()) {
    EXPECT_EQ(smem.vRing.offset % (8 * std::max(16, swizzle.v.swizzleBytes)),
              0);
    EXPECT_EQ(smem.vStageBytes % (8 * std::max(16, swizzle.v.swizzleBytes)), 0);
  }
  // Regions do not overlap, except aliased ones, which reuse only memory that
  // is dead by then: Q, the KV rings and the rope buffers.
  int64_t mainLoopEnd = 0;
  for (const SmemRegion *region :
       {&smem.q, &smem.kRing, &smem.vRing, &smem.rope})
    mainLoopEnd = std::max(mainLoopEnd, region->end());
  for (size_t i = 0; i < regions.size(); ++i) {
    const SmemRegion &a = regions[i].second;
    if (a.aliased) {
      EXPECT_GE(a.offset, smem.q.offset) << regions[i].first.str();
      EXPECT_LE(a.end(), mainLoopEnd) << regions[i].first.str();
      continue;
    }
    for (size_t j = i + 1; j < regions.size(); ++j) {
      const SmemRegion &b = regions[j].second;
      if (b.aliased)
        continue;
      EXPECT_FALSE(a.offset < b.end() && b.offset < a.end())
          << regions[i].first.str() << " overlaps " << regions[j].first.str();
    }
  }
}

class PlanMatrixTest : public testing::TestWithParam<MatrixParam> {};

TEST_P(PlanMatrixTest, EveryProblemPlansOrFailsAsPredicted) {
  const MatrixParam &param = GetParam();
  const TargetInfo &target = getTargetInfo(param.chip);
  int planned = 0;
  for (ElementType type :
       {ElementType::BF16, ElementType::F16, ElementType::F8E4M3FN})
    for (int64_t seqQ : {1, 4, 128, 4096})
      for (int64_t seqKV : {1, 113, 4096, 32768, 131072})
        for (int group : {1, 4, 8, 16, 128, 512})
          for (int maskCase = 0; maskCase < 4; ++maskCase) {
            MaskKind mask = maskCase == 0   ? MaskKind::None
                            : maskCase == 1 ? MaskKind::Causal
                                            : MaskKind::Window;
            AttnProblem problem =
                makeProblem(2, seqQ, seqKV, 2 * group, 2, param.depths.qk,
                            param.depths.ov, type);
            problem.mask = mask;
            if (mask == MaskKind::Window) {
              problem.windowLeft = 1024;
              problem.windowRight = maskCase == 2 ? 0 : -1;
            }
            SCOPED_TRACE(elementTypeName(type).str() +
                         " seqQ=" + std::to_string(seqQ) +
                         " seqKV=" + std::to_string(seqKV) +
                         " group=" + std::to_string(group) +
                         " mask=" + maskKindName(mask).str() + "(" +
                         std::to_string(problem.windowLeft) + "," +
                         std::to_string(problem.windowRight) + ")");
            std::string whyNot;
            llvm::FailureOr<FullPlan> plan =
                planFor(problem, param.chip, whyNot);
            std::string expected = expectedFailure(problem, param.chip);
            if (!expected.empty()) {
              EXPECT_TRUE(llvm::failed(plan));
              EXPECT_NE(whyNot.find(expected), std::string::npos) << whyNot;
              continue;
            }
            ASSERT_TRUE(llvm::succeeded(plan)) << whyNot;
            ++planned;
            checkConfig(plan->config, problem, target);
            checkSplitK(plan->splitK, plan->config, problem, target);
            checkTmem(plan->tmem, plan->config, target);
            checkSwizzle(plan->swizzle.q, "Q");
            checkSwizzle(plan->swizzle.k, "K");
            checkSwizzle(plan->swizzle.v, "V");
            checkSwizzle(plan->swizzle.o, "O");
            checkSmem(plan->smem, plan->swizzle, target);
            std::string text;
            llvm::raw_string_ostream os(text);
            explain(*plan, os);
            EXPECT_FALSE(text.empty());
          }
  bool allRejected = param.chip == Chip::SM90a && param.depths.qk == 576;
  EXPECT_EQ(planned == 0, allRejected);
}

std::vector<MatrixParam> matrixParams() {
  std::vector<MatrixParam> params;
  for (Chip chip : {Chip::SM90a, Chip::SM100a})
    for (DepthPair depths : {DepthPair{64, 64},
                             {96, 96},
                             {128, 128},
                             {128, 64},
                             {192, 128},
                             {256, 256},
                             {576, 512}})
      params.push_back({chip, depths});
  return params;
}

INSTANTIATE_TEST_SUITE_P(Planning, PlanMatrixTest,
                         testing::ValuesIn(matrixParams()), paramName);

} // namespace
