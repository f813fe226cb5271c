//===- ManifestTest.cpp - Reading and checking manifest.json --------------===//

#include "Error.h"
#include "TestManifest.h"

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

std::string manifestError(const std::string &json) {
  try {
    parseManifest(json, "/kernels");
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_MANIFEST);
    return error.what();
  }
  return "no error";
}

/// The error after replacing `from` by `to` in the good manifest.
std::string errorWith(const std::string &from, const std::string &to) {
  return manifestError(manifestWith(from, to));
}

TEST(ManifestTest, ReadsTheExample) {
  Manifest manifest = goodManifest();
  EXPECT_EQ(manifest.abiVersion, 1);
  EXPECT_EQ(manifest.kernel, "fa4_attn_fwd_sm90a");
  EXPECT_EQ(manifest.chip, "sm_90a");
  EXPECT_EQ(manifest.binaryPath, "/kernels/fa4_attn_fwd_sm90a.cubin");
  EXPECT_EQ(manifest.binaryFormat, BinaryFormat::Cubin);

  const Problem &problem = manifest.problem;
  EXPECT_EQ(problem.dtype, FA4_DTYPE_BF16);
  EXPECT_EQ(problem.numQHeads, 32);
  EXPECT_EQ(problem.numKVHeads, 8);
  EXPECT_EQ(problem.qkDepth, 128);
  EXPECT_EQ(problem.ovDepth, 128);
  EXPECT_EQ(problem.mask, FA4_MASK_CAUSAL);
  EXPECT_EQ(problem.windowLeft, -1);
  EXPECT_DOUBLE_EQ(problem.scale, 0.08838834764831845);
  EXPECT_TRUE(problem.hasLse);
  EXPECT_EQ(problem.batch, -1);

  ASSERT_EQ(manifest.tensors.size(), 5u);
  const TensorSpec &lse = manifest.tensors[4];
  EXPECT_EQ(lse.slot, TensorSlot::Lse);
  EXPECT_TRUE(lse.isOutput);
  EXPECT_EQ(lse.dtype, FA4_DTYPE_F32);
  ASSERT_EQ(lse.shape.size(), 3u);
  EXPECT_EQ(lse.shape[0].symbol, Symbol::Batch);
  EXPECT_FALSE(lse.shape[1].symbol);
  EXPECT_EQ(lse.shape[1].extent, 32);
  EXPECT_EQ(lse.shape[2].symbol, Symbol::SeqQ);
  EXPECT_EQ(manifest.findTensor(TensorSlot::K), &manifest.tensors[1]);

  EXPECT_EQ(manifest.alignment.baseBytes, 16);
  EXPECT_TRUE(manifest.alignment.unitStrideLastDim);

  ASSERT_EQ(manifest.params.size(), 11u);
  const auto &map = std::get<TensorMapParam>(manifest.params[0]);
  EXPECT_EQ(map.tensor, 0u);
  EXPECT_EQ(map.box, (std::vector<uint32_t>{1, 64, 1, 64}));
  EXPECT_EQ(map.swizzleBytes, 128u);
  EXPECT_EQ(map.l2PromotionBytes, 128u);
  EXPECT_EQ(map.oobFill, OobFill::Zero);
  EXPECT_EQ(std::get<PointerParam>(manifest.params[3]).tensor, 3u);
  const auto &stride = std::get<ScalarParam>(manifest.params[7]);
  EXPECT_EQ(stride.type, ScalarType::I64);
  EXPECT_EQ(stride.source, ScalarParam::Source::Stride);
  EXPECT_EQ(stride.tensor, 3u);
  EXPECT_EQ(stride.dim, 1);
  const auto &literal = std::get<ScalarParam>(manifest.params[10]);
  EXPECT_EQ(literal.source, ScalarParam::Source::Literal);
  EXPECT_EQ(literal.literal, 0.5);

  const LaunchSpec &launch = manifest.launch;
  ASSERT_EQ(launch.grid[0].size(), 1u);
  EXPECT_EQ(launch.grid[0][0].kind, GridFactor::Kind::CeilDiv);
  EXPECT_EQ(launch.grid[0][0].divisor, 64);
  EXPECT_EQ(launch.grid[1][0].symbol, Symbol::HeadsQ);
  EXPECT_EQ(launch.block, (std::array<uint32_t, 3>{384, 1, 1}));
  EXPECT_EQ(launch.dynamicSmemBytes, 200000u);
}

TEST(ManifestTest, ReadsOtherSpellings) {
  Manifest manifest = parseManifest(
      manifestWith(
          R"("swizzle": "128B", "interleave": "none", "l2_promotion": "128B", "oob_fill": "zero")",
          R"("swizzle": "none", "interleave": "none", "l2_promotion": "none", "oob_fill": "nan_request_zero_fma")"),
      "");
  const auto &map = std::get<TensorMapParam>(manifest.params[0]);
  EXPECT_EQ(map.swizzleBytes, 0u);
  EXPECT_EQ(map.l2PromotionBytes, 0u);
  EXPECT_EQ(map.oobFill, OobFill::NanRequestZeroFma);
  EXPECT_EQ(manifest.binaryPath, "fa4_attn_fwd_sm90a.cubin");
  EXPECT_EQ(parseManifest(
                manifestWith(R"("kind": "causal")", R"("kind": "window")"), "")
                .problem.mask,
            FA4_MASK_WINDOW);
  EXPECT_EQ(
      parseManifest(
          manifestWith("\"format\": \"cubin\"", "\"format\": \"ptx\""), "")
          .binaryFormat,
      BinaryFormat::Ptx);
}

TEST(ManifestTest, RejectsInvalidJson) {
  EXPECT_EQ(manifestError("{\"fa4_abi_version\": 1,}"),
            "manifest:1:23: expected a string key (invalid JSON)");
}

TEST(ManifestTest, RejectsOtherVersions) {
  EXPECT_EQ(errorWith("\"fa4_abi_version\": 1", "\"fa4_abi_version\": 2"),
            "manifest: fa4_abi_version: unsupported version 2; this runtime "
            "reads version 1");
  EXPECT_EQ(errorWith("\"fa4_abi_version\": 1,", ""),
            "manifest: fa4_abi_version: missing");
  EXPECT_EQ(manifestError("[]"), "manifest: : expected an object, got array");
}

TEST(ManifestTest, RejectsMissingFields) {
  EXPECT_EQ(errorWith("\"chip\": \"sm_90a\",", ""), "manifest: chip: missing");
  EXPECT_EQ(errorWith(R"("has_lse": true, )", ""),
            "manifest: problem.has_lse: missing");
  EXPECT_EQ(errorWith(R"(, "window_right": -1)", ""),
            "manifest: problem.mask.window_right: missing");
  EXPECT_EQ(errorWith(R"({"kind": "pointer", "tensor": "o"})",
                      R"({"kind": "pointer"})"),
            "manifest: params[3].tensor: missing");
  EXPECT_EQ(errorWith(R"("dynamic_smem_bytes": 200000)", R"("x": 1)"),
            "manifest: launch.dynamic_smem_bytes: missing");
}

TEST(ManifestTest, RejectsUnknownKeys) {
  EXPECT_EQ(
      errorWith(R"("chip": "sm_90a",)", R"("chip": "sm_90a", "extra": 1,)"),
      "manifest: extra: unknown key");
  EXPECT_EQ(errorWith(R"({"kind": "pointer", "tensor": "o"})",
                      R"({"kind": "pointer", "tensor": "o", "box": [1]})"),
            "manifest: params[3].box: unknown key");
}

TEST(ManifestTest, RejectsWrongTypes) {
  EXPECT_EQ(errorWith("\"qk_depth\": 128", "\"qk_depth\": \"128\""),
            "manifest: problem.qk_depth: expected an integer, got string");
  EXPECT_EQ(errorWith("\"qk_depth\": 128", "\"qk_depth\": 0"),
            "manifest: problem.qk_depth: 0 is out of range [1, 1048576]");
  EXPECT_EQ(errorWith("\"has_lse\": true", "\"has_lse\": 1"),
            "manifest: problem.has_lse: expected a boolean, got number");
  EXPECT_EQ(errorWith("\"scale\": 0.08838834764831845", "\"scale\": -1"),
            "manifest: problem.scale: must be a positive finite number");
  EXPECT_EQ(errorWith("\"batch\": -1", "\"batch\": 0"),
            "manifest: problem.batch: must be -1 (dynamic) or >= 1");
}

TEST(ManifestTest, RejectsBadKinds) {
  EXPECT_EQ(errorWith(R"({"kind": "pointer", "tensor": "o"})",
                      R"({"kind": "texture", "tensor": "o"})"),
            "manifest: params[3].kind: expected one of \"tensor_map\", "
            "\"pointer\", \"scalar\", got \"texture\"");
  EXPECT_EQ(errorWith(R"("kind": "causal")", R"("kind": "alibi")"),
            "manifest: problem.mask.kind: expected one of \"none\", "
            "\"causal\", \"window\", got \"alibi\"");
  EXPECT_EQ(errorWith(R"("format": "cubin")", R"("format": "elf")"),
            "manifest: binary.format: expected one of \"cubin\", \"fatbin\", "
            "\"ptx\", got \"elf\"");
  EXPECT_EQ(errorWith(R"("type": "f32", "value": 0.5)",
                      R"("type": "f64", "value": 0.5)"),
            "manifest: params[10].type: expected one of \"i32\", \"i64\", "
            "\"f32\", got \"f64\"");
  EXPECT_EQ(errorWith(R"("problem": {"dtype": "bf16")",
                      R"("problem": {"dtype": "fp8")"),
            "manifest: problem.dtype: expected one of \"bf16\", \"f16\", "
            "\"f32\", got \"fp8\"");
}

TEST(ManifestTest, RejectsBadTensors) {
  EXPECT_EQ(errorWith(R"({"name": "v", "role": "input")",
                      R"({"name": "k", "role": "input")"),
            "manifest: tensors[2].name: tensor \"k\" listed twice");
  EXPECT_EQ(errorWith(R"({"name": "v", "role": "input")",
                      R"({"name": "w", "role": "input")"),
            "manifest: tensors[2].name: expected one of \"q\", \"k\", \"v\", "
            "\"o\", \"lse\", got \"w\"");
  EXPECT_EQ(errorWith(R"("role": "output", "dtype": "f32")",
                      R"("role": "inout", "dtype": "f32")"),
            "manifest: tensors[4].role: expected one of \"input\", "
            "\"output\", got \"inout\"");
  EXPECT_EQ(errorWith(R"(["b", 32, "sq"])", R"(["b", 32, "s"])"),
            "manifest: tensors[4].shape[2]: unknown size symbol \"s\"; "
            "expected one of \"b\", \"sq\", \"skv\", \"hq\", \"hkv\"");
  EXPECT_EQ(errorWith(R"(["b", 32, "sq"])", R"(["b", 32, "sq", 1, 1])"),
            "manifest: tensors[4].shape: has 5 entries; expected 1 to 4");
  EXPECT_EQ(errorWith("\"has_lse\": true", "\"has_lse\": false"),
            "manifest: tensors: tensor \"lse\" listed but problem.has_lse is "
            "false");
  EXPECT_EQ(
      errorWith(
          R"({"name": "o", "role": "output", "dtype": "bf16", "shape": ["b", "sq", 32, 128]},)",
          ""),
      "manifest: tensors: missing tensor \"o\"");
  EXPECT_EQ(errorWith("\"num_kv_heads\": 8", "\"num_kv_heads\": 5"),
            "manifest: problem.num_kv_heads: 5 does not divide num_q_heads 32");
}

TEST(ManifestTest, RejectsBadSwizzle) {
  EXPECT_EQ(errorWith(R"("box": [1, 64, 1, 64], "swizzle": "128B")",
                      R"("box": [1, 64, 1, 64], "swizzle": "96B")"),
            "manifest: params[0].swizzle: expected one of \"none\", \"32B\", "
            "\"64B\", \"128B\", got \"96B\"");
  EXPECT_EQ(
      errorWith(
          R"("box": [1, 64, 1, 64], "swizzle": "128B", "interleave": "none")",
          R"("box": [1, 64, 1, 64], "swizzle": "128B", "interleave": "16B")"),
      "manifest: params[0].interleave: expected one of \"none\", got "
      "\"16B\"");
  EXPECT_EQ(errorWith(R"("l2_promotion": "128B", "oob_fill": "zero")",
                      R"("l2_promotion": "512B", "oob_fill": "zero")"),
            "manifest: params[0].l2_promotion: expected one of \"none\", "
            "\"64B\", \"128B\", \"256B\", got \"512B\"");
  EXPECT_EQ(errorWith(R"("l2_promotion": "128B", "oob_fill": "zero")",
                      R"("l2_promotion": "128B", "oob_fill": "nan")"),
            "manifest: params[0].oob_fill: expected one of \"zero\", "
            "\"none\", \"nan_request_zero_fma\", got \"nan\"");
}

TEST(ManifestTest, RejectsBadBox) {
  const std::string qBox = R"("box": [1, 64, 1, 64])";
  EXPECT_EQ(errorWith(qBox, R"("box": [1, 300, 1, 64])"),
            "manifest: params[0].box[1]: 300 is out of range [1, 256]");
  EXPECT_EQ(errorWith(qBox, R"("box": [1, 0, 1, 64])"),
            "manifest: params[0].box[1]: 0 is out of range [1, 256]");
  EXPECT_EQ(errorWith(qBox, R"("box": [64, 1, 64])"),
            "manifest: params[0].box: has 3 entries but tensor \"q\" has rank "
            "4");
  EXPECT_EQ(errorWith(qBox, R"("box": [1, 64, 1, 4])"),
            "manifest: params[0].box[3]: inner box of 4 x bf16 = 8 bytes is "
            "not a multiple of 16 bytes (cuTensorMapEncodeTiled rule)");
  EXPECT_EQ(errorWith(qBox, R"("box": [1, 64, 1, 128])"),
            "manifest: params[0].box[3]: inner box of 128 x bf16 = 256 bytes "
            "exceeds the 128B swizzle span (cuTensorMapEncodeTiled rule)");
  EXPECT_EQ(errorWith(R"("tensor": "q")", R"("tensor": "x")"),
            "manifest: params[0].tensor: no tensor named \"x\" in tensors");
}

TEST(ManifestTest, RejectsBadScalars) {
  EXPECT_EQ(errorWith(R"("value": "o.stride.1")", R"("value": "o.stride.4")"),
            "manifest: params[7].value: \"o.stride.4\": stride dim must be "
            "0..3");
  EXPECT_EQ(errorWith(R"("value": "o.stride.1")", R"("value": "x.stride.1")"),
            "manifest: params[7].value: no tensor named \"x\" in tensors");
  EXPECT_EQ(errorWith(R"("value": "scale_log2")", R"("value": "scale_ln")"),
            "manifest: params[9].value: unknown scalar value \"scale_ln\"; "
            "expected a size symbol (b, sq, skv, hq, hkv), "
            "<tensor>.stride.<dim>, scale, scale_log2 or a number");
  EXPECT_EQ(errorWith(R"("type": "i32", "value": "sq")",
                      R"("type": "i32", "value": 1.5)"),
            "manifest: params[5].value: integer scalar with a non-integer "
            "literal");
}

TEST(ManifestTest, RejectsBadGrid) {
  const std::string grid =
      R"("grid": [[{"ceil_div": ["sq", 64]}], ["hq"], ["b"]])";
  EXPECT_EQ(
      errorWith(grid, R"("grid": [[{"ceil_div": ["sq", 0]}], ["hq"], ["b"]])"),
      "manifest: launch.grid[0][0].ceil_div[1]: 0 is out of range [1, "
      "2147483647]");
  EXPECT_EQ(
      errorWith(grid, R"("grid": [[{"ceil_div": ["sq"]}], ["hq"], ["b"]])"),
      "manifest: launch.grid[0][0].ceil_div: has 1 entries; expected 2");
  EXPECT_EQ(
      errorWith(grid, R"("grid": [[{"div": ["sq", 64]}], ["hq"], ["b"]])"),
      "manifest: launch.grid[0][0].ceil_div: missing");
  EXPECT_EQ(errorWith(grid, R"("grid": [["sq"], ["heads"], ["b"]])"),
            "manifest: launch.grid[1][0]: unknown size symbol \"heads\"; "
            "expected one of \"b\", \"sq\", \"skv\", \"hq\", \"hkv\"");
  EXPECT_EQ(errorWith(grid, R"("grid": [["sq"], [true], ["b"]])"),
            "manifest: launch.grid[1][0]: expected an integer, a size symbol "
            "or {\"ceil_div\": [symbol, integer]}, got boolean");
  EXPECT_EQ(errorWith(grid, R"("grid": [["sq"], [0.5], ["b"]])"),
            "manifest: launch.grid[1][0]: expected an integer, got 0.500000");
  EXPECT_EQ(errorWith(grid, R"("grid": [["sq"], ["b"]])"),
            "manifest: launch.grid: has 2 entries; expected 3");
  EXPECT_EQ(errorWith(R"("block": [384, 1, 1])", R"("block": [512, 4, 1])"),
            "manifest: launch.block: more than 1024 threads per block");
  EXPECT_EQ(errorWith(R"("cluster": [1, 1, 1])", R"("cluster": [0, 1, 1])"),
            "manifest: launch.cluster[0]: 0 is out of range [1, 1024]");
}

TEST(ManifestTest, LoadsFromFile) {
  Manifest manifest = loadManifest(FA4_TEST_INPUTS_DIR "/manifest.json");
  EXPECT_EQ(manifest.binaryPath,
            FA4_TEST_INPUTS_DIR "/fa4_attn_fwd_sm90a.cubin");
  try {
    loadManifest("/nonexistent/manifest.json");
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(),
                 "cannot open manifest '/nonexistent/manifest.json'");
  }
}

} // namespace
