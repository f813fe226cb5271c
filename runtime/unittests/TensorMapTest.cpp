//===- TensorMapTest.cpp - cuTensorMapEncodeTiled arguments ---------------===//

#include "TensorMap.h"
#include "Error.h"
#include "TestArgs.h"
#include "TestManifest.h"

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

TEST(TensorMapTest, ReversesDimsAndCountsStridesInBytes) {
  Manifest manifest = goodManifest();
  fa4_attention_args args = goodArgs(2, 113, 203);
  const auto &param = std::get<TensorMapParam>(manifest.params[0]); // q
  TensorMapArgs map = computeTensorMapArgs(param, manifest.tensors[0], args.q);
  EXPECT_EQ(map.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(map.rank, 4u);
  EXPECT_EQ(map.globalAddress, args.q.data);
  // q [b=2, sq=113, hq=32, d=128], innermost first.
  EXPECT_EQ(map.globalDim[0], 128u);
  EXPECT_EQ(map.globalDim[1], 32u);
  EXPECT_EQ(map.globalDim[2], 113u);
  EXPECT_EQ(map.globalDim[3], 2u);
  EXPECT_EQ(map.globalStrides[0], 128u * 2);
  EXPECT_EQ(map.globalStrides[1], 32u * 128 * 2);
  EXPECT_EQ(map.globalStrides[2], 113u * 32 * 128 * 2);
  // box [1, 64, 1, 64] reversed.
  EXPECT_EQ(map.boxDim[0], 64u);
  EXPECT_EQ(map.boxDim[1], 1u);
  EXPECT_EQ(map.boxDim[2], 64u);
  EXPECT_EQ(map.boxDim[3], 1u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(map.elementStrides[i], 1u);
  EXPECT_EQ(map.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(map.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(map.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(map.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST(TensorMapTest, MapsEveryEnum) {
  Manifest manifest = goodManifest();
  fa4_attention_args args = goodArgs();
  auto param = std::get<TensorMapParam>(manifest.params[1]); // k
  const std::pair<uint32_t, CUtensorMapSwizzle> swizzles[] = {
      {0, CU_TENSOR_MAP_SWIZZLE_NONE},
      {32, CU_TENSOR_MAP_SWIZZLE_32B},
      {64, CU_TENSOR_MAP_SWIZZLE_64B},
      {128, CU_TENSOR_MAP_SWIZZLE_128B}};
  for (auto [bytes, expected] : swizzles) {
    param.swizzleBytes = bytes;
    EXPECT_EQ(computeTensorMapArgs(param, manifest.tensors[1], args.k).swizzle,
              expected);
  }
  const std::pair<uint32_t, CUtensorMapL2promotion> promotions[] = {
      {0, CU_TENSOR_MAP_L2_PROMOTION_NONE},
      {64, CU_TENSOR_MAP_L2_PROMOTION_L2_64B},
      {128, CU_TENSOR_MAP_L2_PROMOTION_L2_128B},
      {256, CU_TENSOR_MAP_L2_PROMOTION_L2_256B}};
  for (auto [bytes, expected] : promotions) {
    param.l2PromotionBytes = bytes;
    EXPECT_EQ(
        computeTensorMapArgs(param, manifest.tensors[1], args.k).l2Promotion,
        expected);
  }
  param.oobFill = OobFill::NanRequestZeroFma;
  EXPECT_EQ(computeTensorMapArgs(param, manifest.tensors[1], args.k).oobFill,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}

TEST(TensorMapTest, MapsF32AndRank3) {
  // A tensor map needs the 16-byte rules.
  Manifest manifest = parseManifest(
      manifestWith(
          {{R"({"kind": "pointer", "tensor": "lse"})",
            R"({"kind": "tensor_map", "tensor": "lse", "box": [1, 1, 32], "swizzle": "none", "interleave": "none", "l2_promotion": "none", "oob_fill": "zero"})"},
           {R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4})",
            R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 16, "stride_bytes": 16})"}}),
      "");
  fa4_attention_args args = goodArgs(2, 113, 203);
  TensorMapArgs map =
      computeTensorMapArgs(std::get<TensorMapParam>(manifest.params[4]),
                           manifest.tensors[4], args.lse);
  EXPECT_EQ(map.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(map.rank, 3u);
  EXPECT_EQ(map.globalDim[0], 113u);
  EXPECT_EQ(map.globalStrides[0], 116u * 4); // padded sq row
  EXPECT_EQ(map.boxDim[0], 32u);
}

/// Version 15: an e4m3 tensor is mapped as bytes (TMA has no FP8 type),
/// its strides counted one byte an element, under the 64-byte swizzle.
TEST(TensorMapTest, MapsE4m3AsBytes) {
  Manifest manifest = parseManifest(fp8ManifestJson(), "");
  fa4_serving_args args = goodFp8Args();
  const auto &param = std::get<TensorMapParam>(manifest.params[1]); // k
  TensorMapArgs map =
      computeTensorMapArgs(param, manifest.tensors[1], args.attention.k);
  EXPECT_EQ(map.dataType, CU_TENSOR_MAP_DATA_TYPE_UINT8);
  // k [b=2, skv=203, hkv=8, d=128], innermost first.
  EXPECT_EQ(map.globalDim[0], 128u);
  EXPECT_EQ(map.globalStrides[0], 128u);
  EXPECT_EQ(map.globalStrides[1], 8u * 128);
  EXPECT_EQ(map.globalStrides[2], 203u * 8 * 128);
  EXPECT_EQ(map.boxDim[0], 64u);
  EXPECT_EQ(map.boxDim[2], 128u);
  EXPECT_EQ(map.swizzle, CU_TENSOR_MAP_SWIZZLE_64B);
}

TEST(TensorMapTest, RefusesStridesPastTheTmaLimit) {
  Manifest manifest = goodManifest();
  fa4_attention_args args = goodArgs();
  args.k.strides[0] = int64_t(1) << 40;
  try {
    computeTensorMapArgs(std::get<TensorMapParam>(manifest.params[1]),
                         manifest.tensors[1], args.k);
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
    EXPECT_STREQ(error.what(), "tensor 'k': dim 0 stride is 2^40 bytes or "
                               "more, the TMA limit");
  }
}

} // namespace
