//===- TargetInfoTest.cpp - Hardware facts --------------------------------===//

#include "fa4/Target/TargetInfo.h"

#include "gtest/gtest.h"

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
  EXPECT_EQ(target.mmaK(16), 16);
  EXPECT_EQ(target.mmaK(8), 32);
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
