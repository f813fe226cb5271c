//===- TargetInfoTest.cpp - Hardware facts --------------------------------===//

#include "fa4/Target/TargetInfo.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace fa4;

TEST(TargetInfoTest, SM100aFacts) {
  const TargetInfo &target = getTargetInfo(Chip::SM100a);
  EXPECT_EQ(target.numSMs, 148);
  EXPECT_EQ(target.smemCarveoutBytes, 233472 - 1024);
  EXPECT_TRUE(target.hasTmem);
  EXPECT_EQ(target.tmemColumns, 512);
  EXPECT_EQ(target.tmemLanes, 128);
  EXPECT_EQ(target.tmemMinAllocColumns, 32);
  EXPECT_EQ(target.tmemMaxAllocColumns, 512);
  EXPECT_EQ(target.portableClusterSize, 8);
  EXPECT_EQ(target.nonPortableClusterSize, 16);
  EXPECT_LE(target.splitKClusterSize, target.nonPortableClusterSize);
  EXPECT_EQ(target.kernelThreads, 512);
  EXPECT_EQ(target.mmaTileRows, 128);
  EXPECT_EQ(target.mmaTileRows, target.tmemLanes);
  EXPECT_EQ(target.mmaK(16), 16);
  EXPECT_EQ(target.mmaK(8), 32);
}

TEST(TargetInfoTest, SM90aFacts) {
  const TargetInfo &target = getTargetInfo(Chip::SM90a);
  EXPECT_EQ(target.numSMs, 132);
  EXPECT_EQ(target.smemCarveoutBytes, 232448);
  EXPECT_FALSE(target.hasTmem);
  EXPECT_EQ(target.tmemColumns, 0);
  EXPECT_EQ(target.portableClusterSize, 8);
  EXPECT_EQ(target.nonPortableClusterSize, 16);
  EXPECT_LE(target.splitKClusterSize, target.nonPortableClusterSize);
  EXPECT_EQ(target.kernelThreads, 384);
  EXPECT_EQ(target.mmaTileRows, 64);
  EXPECT_EQ(target.mmaK(16), 16);
  EXPECT_EQ(target.mmaK(8), 32);
}

// setmaxnreg's split for one producer and 1-3 consumer warpgroups: each
// budget a multiple of 8 in [24, 256], and the CTA's registers within what
// it launches with at one CTA per SM (65536 / threads, rounded down to 8,
// at most 255), exactly where two or three consumers take it all (FA3's
// 240 / 24 and 160 / 32).
TEST(TargetInfoTest, SM90aWarpgroupRegistersFitTheLaunch) {
  for (int consumers = 1; consumers <= 3; ++consumers) {
    SCOPED_TRACE(consumers);
    WarpgroupRegisters split = hopperWarpgroupRegisters(consumers);
    int threads = (1 + consumers) * 128;
    int launch = std::min(255, 65536 / threads) / 8 * 8;
    for (int budget : {split.producer, split.consumer}) {
      EXPECT_EQ(budget % 8, 0);
      EXPECT_GE(budget, 24);
      EXPECT_LE(budget, 256);
    }
    int used = 128 * (split.producer + consumers * split.consumer);
    EXPECT_LE(used, threads * launch);
    if (consumers > 1)
      EXPECT_EQ(used, threads * launch);
  }
  EXPECT_EQ(hopperWarpgroupRegisters(2).consumer, 240);
  EXPECT_EQ(hopperWarpgroupRegisters(3).consumer, 160);
}

TEST(TargetInfoTest, ChipNamesRoundTrip) {
  for (Chip chip : {Chip::SM90a, Chip::SM100a}) {
    std::optional<Chip> parsed = parseChip(chipName(chip));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, chip);
    EXPECT_EQ(getTargetInfo(chip).chip, chip);
  }
  EXPECT_EQ(chipName(Chip::SM90a), "sm_90a");
  EXPECT_EQ(chipName(Chip::SM100a), "sm_100a");
  EXPECT_FALSE(parseChip("sm_90").has_value());
  EXPECT_FALSE(parseChip("sm_100").has_value());
}
