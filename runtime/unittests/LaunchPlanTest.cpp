//===- LaunchPlanTest.cpp - Grid and scalar arguments ---------------------===//

#include "LaunchPlan.h"
#include "Error.h"
#include "Launch.h"
#include "TestArgs.h"
#include "TestManifest.h"

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

class LaunchPlanTest : public ::testing::Test {
protected:
  Manifest manifest = goodManifest();
  fa4_attention_args args = goodArgs(2, 113, 203);
  Bindings bindings = validateArgs(manifest, args);

  ScalarValue scalar(size_t index) {
    return evaluateScalar(std::get<ScalarParam>(manifest.params[index]),
                          manifest, bindings, servingArgs(args));
  }
};

/// Version 15: "<descale>.stride.0" is the descale tensor's batch stride.
TEST(LaunchPlanDescaleTest, ResolvesADescalesBatchStride) {
  Manifest manifest =
      parseManifest(fp8ManifestJson("batch_head", "tensor", "batch_head"), "");
  fa4_serving_args args = goodFp8Args("batch_head", "tensor", "batch_head");
  args.v_descale.strides[0] = 24;
  Bindings bindings = validateArgs(manifest, args);
  std::vector<int64_t> strides;
  for (const Param &param : manifest.params)
    if (const auto *scalar = std::get_if<ScalarParam>(&param))
      if (scalar->spelling.find("_descale.stride.") != std::string::npos)
        strides.push_back(
            evaluateScalar(*scalar, manifest, bindings, args).i64);
  EXPECT_EQ(strides, (std::vector<int64_t>{8, 24}));
}

/// Version 16: a backward kernel's grid (an integer among a dim's factors)
/// and its gradients' strides.
TEST(LaunchPlanBackwardTest, EvaluatesTheGridAndTheGradientsStrides) {
  Manifest manifest = parseManifest(backwardManifestJson(), "");
  fa4_serving_args args = goodBackwardArgs(2, 37, 53);
  args.dk.strides[0] = 7000;
  Bindings bindings = validateArgs(manifest, args);
  // [ceil(37 / 4)], [hq], [b * 2]
  EXPECT_EQ(evaluateGrid(manifest.launch, bindings),
            (std::array<uint32_t, 3>{10, 8, 4}));
  auto value = [&](const std::string &spelling) {
    for (const Param &param : manifest.params)
      if (const auto *scalar = std::get_if<ScalarParam>(&param))
        if (scalar->spelling == spelling)
          return evaluateScalar(*scalar, manifest, bindings, args).i64;
    ADD_FAILURE() << "no scalar " << spelling;
    return int64_t(0);
  };
  EXPECT_EQ(value("dk.stride.0"), 7000);
  EXPECT_EQ(value("dv.stride.1"), args.dv.strides[1]);
  EXPECT_EQ(value("dout.stride.2"), 32);
  EXPECT_EQ(value("dq.stride.1"), 8 * 64);
  EXPECT_EQ(value("lse.stride.1"), 40); // 37 f32 padded to 16 bytes
}

TEST_F(LaunchPlanTest, EvaluatesTheExampleGrid) {
  // [ceil(113 / 64)], [hq], [b]
  EXPECT_EQ(evaluateGrid(manifest.launch, bindings),
            (std::array<uint32_t, 3>{2, 32, 2}));
}

TEST_F(LaunchPlanTest, CapsAPersistentGridUpToItsSequenceLength) {
  Manifest persistent = parseManifest(persistentManifestJson(), "");
  // Work tiles: ceil(113 / 64) * 32 * 2 = 128; skv = 203 <= 2048.
  std::array<uint32_t, 3> grid = evaluateGrid(persistent.launch, bindings);
  EXPECT_EQ(grid, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(persistentGrid(persistent.launch, bindings, grid, 132),
            (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(persistentGrid(persistent.launch, bindings, grid, 78),
            (std::array<uint32_t, 3>{78, 1, 1}));
  // Past max_seq_kv: one CTA per work tile.
  Bindings longKeys = validateArgs(persistent, goodArgs(2, 113, 2049));
  EXPECT_EQ(persistentGrid(persistent.launch, longKeys, grid, 78), grid);
  Bindings atTheLimit = validateArgs(persistent, goodArgs(2, 113, 2048));
  EXPECT_EQ(persistentGrid(persistent.launch, atTheLimit, grid, 78)[0], 78u);
  // A cap below the SM count (fa4_module_set_persistent_ctas) wins; one
  // above it does not.
  EXPECT_EQ(persistentGrid(persistent.launch, bindings, grid, 78, 5)[0], 5u);
  EXPECT_EQ(persistentGrid(persistent.launch, bindings, grid, 78, 100)[0], 78u);
  EXPECT_EQ(persistentGrid(persistent.launch, longKeys, grid, 78, 5), grid);
  // An unknown SM count launches the grid as written.
  EXPECT_EQ(persistentGrid(persistent.launch, bindings, grid, 0), grid);
  // Whether the rule applies, which also picks a twin kernel.
  EXPECT_TRUE(persistentApplies(persistent.launch, atTheLimit, 78));
  EXPECT_FALSE(persistentApplies(persistent.launch, longKeys, 78));
  EXPECT_FALSE(persistentApplies(persistent.launch, bindings, 0));
  EXPECT_FALSE(persistentApplies(manifest.launch, bindings, 132));
  // Not persistent: never capped.
  EXPECT_EQ(persistentGrid(manifest.launch, bindings, {2, 32, 2}, 1),
            (std::array<uint32_t, 3>{2, 32, 2}));
}

TEST_F(LaunchPlanTest, ChoosesTheTwinBesideAClusteredKernel) {
  Manifest manifest = parseManifest(clusteredTwinManifestJson(), "");
  LaunchGrids grids = evaluateGrids(manifest, bindings);
  // skv = 203: the twin on its own launch, no cluster, capped at the SMs.
  LaunchChoice twin = chooseLaunch(manifest, bindings, grids, true, 48);
  EXPECT_TRUE(twin.twinOwnLaunch);
  EXPECT_EQ(twin.launch->cluster[0], 1u);
  EXPECT_EQ(twin.grid, (std::array<uint32_t, 3>{48, 1, 1}));
  // Past max_seq_kv: the kernel in pairs, ceil(113 / 128) * 2 * 32 * 2.
  Bindings longKeys = validateArgs(manifest, goodArgs(2, 113, 2049));
  LaunchChoice kernel = chooseLaunch(
      manifest, longKeys, evaluateGrids(manifest, longKeys), true, 132);
  EXPECT_FALSE(kernel.twin);
  EXPECT_EQ(kernel.launch->cluster[0], 2u);
  EXPECT_EQ(kernel.grid, (std::array<uint32_t, 3>{128, 1, 1}));
  // A twin in pairs: its cap keeps whole clusters (48 -> 48, 47 -> 46, 3
  // and 1 -> 2); its grid ceil(113 / 256) * 2 * 32 * 2 = 128.
  Manifest paired = parseManifest(pairedTwinManifestJson(), "");
  LaunchGrids pairedGrids = evaluateGrids(paired, bindings);
  EXPECT_EQ(*pairedGrids.twin, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(chooseLaunch(paired, bindings, pairedGrids, true, 48).grid,
            (std::array<uint32_t, 3>{48, 1, 1}));
  EXPECT_EQ(chooseLaunch(paired, bindings, pairedGrids, true, 47).grid,
            (std::array<uint32_t, 3>{46, 1, 1}));
  EXPECT_EQ(chooseLaunch(paired, bindings, pairedGrids, true, 132, 3).grid,
            (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(chooseLaunch(paired, bindings, pairedGrids, true, 132, 1).grid,
            (std::array<uint32_t, 3>{2, 1, 1}));
  // Without the twin function the clustered kernel, which does not loop,
  // keeps its whole grid.
  LaunchChoice noTwin = chooseLaunch(manifest, bindings, grids, false, 48);
  EXPECT_FALSE(noTwin.twin);
  EXPECT_EQ(noTwin.launch, &manifest.launch);
  EXPECT_EQ(noTwin.grid, (std::array<uint32_t, 3>{128, 1, 1}));
}

TEST_F(LaunchPlanTest, ChoosesTheTwinAndItsOwnLaunch) {
  Manifest twin = parseManifest(persistentTwinOwnLaunchManifestJson(), "");
  LaunchGrids grids = evaluateGrids(twin, bindings);
  ASSERT_TRUE(grids.twin);
  // skv = 203 <= 2048: the twin on its own launch: 384 threads, its own
  // params, its 128-row work tiles ceil(113 / 128) * 32 * 2 = 64, capped
  // at the SMs.
  LaunchChoice choice =
      chooseLaunch(twin, bindings, grids, /*hasTwin=*/true, 132);
  EXPECT_TRUE(choice.twin);
  EXPECT_TRUE(choice.twinOwnLaunch);
  EXPECT_EQ(choice.launch, &twin.twin->launch);
  EXPECT_EQ(choice.params, &twin.twin->params);
  EXPECT_EQ(choice.launch->block[0], 384u);
  EXPECT_EQ(choice.grid, (std::array<uint32_t, 3>{64, 1, 1}));
  EXPECT_EQ(chooseLaunch(twin, bindings, grids, true, 48).grid,
            (std::array<uint32_t, 3>{48, 1, 1}));
  EXPECT_EQ(chooseLaunch(twin, bindings, grids, true, 132, 5).grid,
            (std::array<uint32_t, 3>{5, 1, 1}));
  // Past max_seq_kv: the kernel on its own grid (ceil(113 / 64) * 32 * 2).
  Bindings longKeys = validateArgs(twin, goodArgs(2, 113, 2049));
  LaunchChoice kernel =
      chooseLaunch(twin, longKeys, evaluateGrids(twin, longKeys), true, 132);
  EXPECT_FALSE(kernel.twin);
  EXPECT_FALSE(kernel.twinOwnLaunch);
  EXPECT_EQ(kernel.launch, &twin.launch);
  EXPECT_EQ(kernel.params, &twin.params);
  EXPECT_EQ(kernel.grid, (std::array<uint32_t, 3>{128, 1, 1}));
  // An unknown SM count, or a module without the twin function: the
  // kernel; the latter on the capped grid, walking the work tiles itself.
  EXPECT_FALSE(chooseLaunch(twin, bindings, grids, true, 0).twin);
  LaunchChoice noTwin = chooseLaunch(twin, bindings, grids, false, 78);
  EXPECT_FALSE(noTwin.twin);
  EXPECT_EQ(noTwin.launch, &twin.launch);
  EXPECT_EQ(noTwin.grid, (std::array<uint32_t, 3>{78, 1, 1}));
  // Version 5: the twin shares the kernel's launch and parameters.
  Manifest shared = parseManifest(persistentTwinManifestJson(), "");
  LaunchGrids sharedGrids = evaluateGrids(shared, bindings);
  EXPECT_FALSE(sharedGrids.twin);
  LaunchChoice sharedTwin =
      chooseLaunch(shared, bindings, sharedGrids, true, 78);
  EXPECT_TRUE(sharedTwin.twin);
  EXPECT_FALSE(sharedTwin.twinOwnLaunch);
  EXPECT_EQ(sharedTwin.launch, &shared.launch);
  EXPECT_EQ(sharedTwin.grid, (std::array<uint32_t, 3>{78, 1, 1}));
}

TEST_F(LaunchPlanTest, EvaluatesTheWorkspaceBytes) {
  EXPECT_EQ(evaluateWorkspaceBytes(manifest, bindings), 0u);
  Manifest split = parseManifest(workspaceManifestJson(), "");
  // 1032 bytes per row, b = 2, sq = 113, hq = 32.
  EXPECT_EQ(evaluateWorkspaceBytes(split, bindings), 1032u * 2 * 113 * 32);
  EXPECT_EQ(evaluateGrid(split.combine->launch, bindings),
            (std::array<uint32_t, 3>{113, 2, 8}));
  auto expectTooLarge = [](const Manifest &manifest, const Bindings &sizes) {
    try {
      evaluateWorkspaceBytes(manifest, sizes);
      ADD_FAILURE() << "no error";
    } catch (const Error &error) {
      EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
      EXPECT_STREQ(error.what(),
                   "the split-K workspace for these sizes exceeds 1 TiB");
    }
  };
  Manifest large = split;
  large.workspaceBytes[0].constant = INT32_MAX;
  fa4_attention_args huge = goodArgs(64, 4096, 203);
  expectTooLarge(large, validateArgs(large, huge));
  // 2^16 x 2^20 = 2^36 is under the limit, and x 2^28 would wrap a 64-bit
  // product to 0: refused, not wrapped.
  Manifest wrapping = split;
  wrapping.workspaceBytes[0].constant = 1 << 16;
  Bindings sizes = bindings;
  sizes.bind(Symbol::Batch, int64_t(1) << 20, "test");
  sizes.bind(Symbol::SeqQ, int64_t(1) << 28, "test");
  sizes.bind(Symbol::HeadsQ, 1, "test");
  expectTooLarge(wrapping, sizes);
}

TEST_F(LaunchPlanTest, MultipliesFactors) {
  manifest = parseManifest(
      manifestWith(
          R"("grid": [[{"ceil_div": ["sq", 64]}], ["hq"], ["b"]])",
          R"("grid": [[{"ceil_div": ["skv", 128]}, "hkv", 2], [], ["b", 3]])"),
      "");
  // ceil(203 / 128) * 8 * 2, empty product 1, 2 * 3
  EXPECT_EQ(evaluateGrid(manifest.launch, bindings),
            (std::array<uint32_t, 3>{32, 1, 6}));
}

TEST_F(LaunchPlanTest, RefusesGridBeyondLimits) {
  manifest.launch.grid[1] = {GridFactor{GridFactor::Kind::Constant, 70000}};
  try {
    evaluateGrid(manifest.launch, bindings);
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
    EXPECT_STREQ(error.what(), "launch grid y exceeds the CUDA limit of 65535 "
                               "blocks for these sizes");
  }
}

// A grid factor the launch does not bind counts 0 (the fuzzer's manifest
// named "skv" in a paged kernel's grid): refused, never launched empty.
TEST_F(LaunchPlanTest, RefusesAnEmptyGrid) {
  manifest.launch.grid[0] = {
      GridFactor{GridFactor::Kind::Symbol, 0, Symbol::MaxPages}};
  try {
    evaluateGrid(manifest.launch, bindings);
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
    EXPECT_STREQ(error.what(), "launch grid x is 0 blocks for these sizes (the "
                               "manifest's grid names a size this launch does "
                               "not bind)");
  }
}

TEST_F(LaunchPlanTest, RefusesGridNotMultipleOfCluster) {
  manifest.launch.cluster = {4, 1, 1};
  try {
    evaluateGrid(manifest.launch, bindings);
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "launch grid x is 2 blocks, not a multiple of "
                               "the cluster dim 4");
  }
}

TEST_F(LaunchPlanTest, EvaluatesScalars) {
  ScalarValue seqQ = scalar(5);
  EXPECT_EQ(seqQ.type, ScalarType::I32);
  EXPECT_EQ(seqQ.i32, 113);
  EXPECT_EQ(scalar(6).i32, 203);
  ScalarValue oStride = scalar(7); // o.stride.1 = 32 * 128
  EXPECT_EQ(oStride.type, ScalarType::I64);
  EXPECT_EQ(oStride.i64, 4096);
  EXPECT_EQ(scalar(8).i64, 116); // lse.stride.1, padded to 16 bytes
  ScalarValue scaleLog2 = scalar(9);
  EXPECT_EQ(scaleLog2.type, ScalarType::F32);
  EXPECT_FLOAT_EQ(scaleLog2.f32, 0.08838834764831845 * 1.4426950408889634);
  EXPECT_FLOAT_EQ(scalar(10).f32, 0.5f);
}

TEST_F(LaunchPlanTest, EvaluatesEverySource) {
  auto evaluate = [&](ScalarType type, const char *value) {
    ScalarParam param = std::get<ScalarParam>(
        parseManifest(
            manifestWith(R"("type": "f32", "value": 0.5)",
                         std::string("\"type\": \"") +
                             (type == ScalarType::F32 ? "f32" : "i64") +
                             "\", \"value\": " + value),
            "")
            .params[10]);
    return evaluateScalar(param, manifest, bindings, servingArgs(args));
  };
  EXPECT_EQ(evaluate(ScalarType::I64, "\"b\"").i64, 2);
  EXPECT_EQ(evaluate(ScalarType::I64, "\"hq\"").i64, 32);
  EXPECT_EQ(evaluate(ScalarType::I64, "\"hkv\"").i64, 8);
  EXPECT_EQ(evaluate(ScalarType::I64, "\"k.stride.0\"").i64, 203 * 8 * 128);
  EXPECT_EQ(evaluate(ScalarType::I64, "-7").i64, -7);
  EXPECT_FLOAT_EQ(evaluate(ScalarType::F32, "\"scale\"").f32,
                  0.08838834764831845f);
  EXPECT_FLOAT_EQ(evaluate(ScalarType::F32, "\"sq\"").f32, 113.0f);
}

TEST_F(LaunchPlanTest, RefusesI32Overflow) {
  args.k.strides[0] = int64_t(1) << 33;
  auto param = std::get<ScalarParam>(manifest.params[5]);
  param.source = ScalarParam::Source::Stride;
  param.tensor = 1;
  param.dim = 0;
  param.spelling = "k.stride.0";
  try {
    evaluateScalar(param, manifest, bindings, servingArgs(args));
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "scalar k.stride.0 = 8589934592 does not fit "
                               "the kernel's i32 parameter");
  }
}

TEST(KernelTest, RunsTheDecodeVariantUpToItsQueryRows) {
  // No driver needed: a Kernel loads its binaries on first launch.
  Kernel withVariant(parseManifest(decodeVariantManifestJson(), "/kernels"));
  EXPECT_TRUE(withVariant.runsDecodeVariant(1));
  EXPECT_TRUE(withVariant.runsDecodeVariant(16));
  EXPECT_FALSE(withVariant.runsDecodeVariant(17));
  Kernel plain(goodManifest());
  EXPECT_FALSE(plain.runsDecodeVariant(1));
}

} // namespace

TEST_F(LaunchPlanTest, PicksTheSplitAtLaunch) {
  Manifest split = parseManifest(splitAtLaunchManifestJson(), "");
  // Partitions, grid and workspace for (b, sq, skv) on `numSMs` SMs; the
  // grid's work items are 8 kv-heads x b x ceil(sq / 16).
  auto pickedBy = [&](const Manifest &rule, int64_t b, int64_t sq, int64_t skv,
                      uint32_t numSMs) {
    Bindings sizes = validateArgs(rule, goodArgs(b, sq, skv));
    bindSplits(rule, sizes, numSMs);
    EXPECT_EQ(evaluateGrid(rule.launch, sizes)[0], sizes[Symbol::Splits]);
    EXPECT_EQ(evaluateWorkspaceBytes(rule, sizes),
              uint64_t(516) * sizes[Symbol::Splits] * b * sq * 32);
    return sizes[Symbol::Splits];
  };
  auto picked = [&](int64_t b, int64_t sq, int64_t skv, uint32_t numSMs) {
    return pickedBy(split, b, sq, skv, numSMs);
  };
  // 8 work items on 132 SMs: 16 partitions (one wave), 342 tiles of 96
  // keys, 22 each.
  EXPECT_EQ(picked(1, 1, 32768, 132), 16);
  // The keys cap it: 1000 keys make two partitions of at least 384.
  EXPECT_EQ(picked(1, 1, 1000, 132), 2);
  // Too few keys, too many work items (64 x 8 > 132), or an unknown SM
  // count: one partition.
  EXPECT_EQ(picked(1, 1, 300, 132), 1);
  EXPECT_EQ(picked(64, 1, 8192, 132), 1);
  EXPECT_EQ(picked(1, 1, 32768, 0), 1);
  // Between multiples of the SMs, waves that fill them (D-63): 72 work
  // items once were 1 partition (72 of 132 SMs busy); 7 partitions make 504
  // CTAs, 4 waves, within 5% of the best (11: 6 waves of 792). 80 items: 8
  // (640 CTAs, 5 waves); 96 items: 4 (384, 3 waves). Where one wave is
  // already within 5% (64 items: 2 partitions, 128 CTAs; 128 items: 1; 264
  // items: 2 waves) nothing changes.
  EXPECT_EQ(picked(9, 1, 32768, 132), 7);
  EXPECT_EQ(picked(10, 1, 32768, 132), 8);
  EXPECT_EQ(picked(12, 1, 32768, 132), 4);
  EXPECT_EQ(picked(8, 1, 32768, 132), 2);
  EXPECT_EQ(picked(16, 1, 32768, 132), 1);
  EXPECT_EQ(picked(33, 1, 8192, 132), 1);
  // 48 SMs give 6 partitions of 25 tiles: ceil(25 / 6) = 5 tiles each
  // leave the sixth empty, so 5.
  EXPECT_EQ(picked(1, 1, 25 * 96, 48), 5);
  // Version 9's minimum count: partitions of one 96-key tile where those of
  // 384 keys are fewer. 1000 keys: 10 tiles' worth (11 tiles, two each: 6
  // partitions) instead of 2; 300 keys: 3 (4 tiles, two each: 2) instead of
  // 1; from 32768 keys the 384-key partitions outnumber it (16, one wave).
  Manifest floored = parseManifest(splitAtLaunchV9ManifestJson(), "");
  ASSERT_EQ(floored.splitAtLaunch->minPartitions, 12);
  EXPECT_EQ(pickedBy(floored, 1, 1, 1000, 132), 6);
  EXPECT_EQ(pickedBy(floored, 1, 1, 300, 132), 2);
  EXPECT_EQ(pickedBy(floored, 1, 1, 32768, 132), 16);
  // The SMs still bound it: 4 SMs for 8 work items, one partition.
  EXPECT_EQ(pickedBy(floored, 1, 1, 1000, 4), 1);
  // Fewer keys than a tile: one partition.
  EXPECT_EQ(pickedBy(floored, 1, 1, 95, 132), 1);
  // The rule's cap.
  Manifest capped = split;
  capped.splitAtLaunch->maxPartitions = 3;
  Bindings sizes = validateArgs(capped, goodArgs(1, 1, 32768));
  bindSplits(capped, sizes, 132);
  EXPECT_EQ(sizes[Symbol::Splits], 3);
  // No rule: nothing bound.
  Bindings plain = bindings;
  bindSplits(manifest, plain, 132);
  EXPECT_FALSE(plain.isBound(Symbol::Splits));
}
