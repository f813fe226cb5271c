//===- BinaryAbiTest.cpp - A manifest checked against its binary ----------===//

#include "BinaryAbi.h"

#include "Error.h"

#include <gtest/gtest.h>

using namespace fa4::rt;

namespace {

/// The driver's view of a kernel whose parameters take `sizes` bytes.
ParamInfoQuery binaryWith(std::vector<size_t> sizes) {
  return [sizes](size_t index, size_t &offset, size_t &bytes) {
    if (index >= sizes.size())
      return false;
    offset = 0; // the check reads only the sizes
    bytes = sizes[index];
    return true;
  };
}

ScalarParam scalar(ScalarType type) {
  ScalarParam param;
  param.type = type;
  param.source = ScalarParam::Source::Literal;
  return param;
}

/// q, k, v as tensor maps, o as a pointer, then sq (i32), a stride (i64) and
/// the scale (f32): 128, 128, 128, 8, 4, 8, 4 bytes.
std::vector<Param> attentionParams() {
  return {TensorMapParam{},        TensorMapParam{},
          TensorMapParam{},        PointerParam{},
          scalar(ScalarType::I32), scalar(ScalarType::I64),
          scalar(ScalarType::F32)};
}

std::string refusal(const std::vector<Param> &params,
                    const ParamInfoQuery &query) {
  try {
    checkParamsMatchBinary("fa4_hopper_attention_sm_90a", params, query);
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_MANIFEST);
    return error.what();
  }
  return "";
}

TEST(BinaryAbiTest, ParamBytes) {
  EXPECT_EQ(paramBytes(TensorMapParam{}), 128u);
  EXPECT_EQ(paramBytes(PointerParam{}), 8u);
  EXPECT_EQ(paramBytes(WorkspaceParam{}), 8u);
  EXPECT_EQ(paramBytes(scalar(ScalarType::I32)), 4u);
  EXPECT_EQ(paramBytes(scalar(ScalarType::I64)), 8u);
  EXPECT_EQ(paramBytes(scalar(ScalarType::F32)), 4u);
}

TEST(BinaryAbiTest, AcceptsTheManifestOfItsBinary) {
  EXPECT_EQ(refusal(attentionParams(), binaryWith({128, 128, 128, 8, 4, 8, 4})),
            "");
}

TEST(BinaryAbiTest, RefusesADroppedParam) {
  std::vector<Param> params = attentionParams();
  params.pop_back();
  EXPECT_NE(refusal(params, binaryWith({128, 128, 128, 8, 4, 8, 4}))
                .find("the binary takes more than the manifest's 6 parameters"),
            std::string::npos);
}

TEST(BinaryAbiTest, RefusesAnExtraParam) {
  std::vector<Param> params = attentionParams();
  params.push_back(scalar(ScalarType::I32));
  EXPECT_NE(
      refusal(params, binaryWith({128, 128, 128, 8, 4, 8, 4}))
          .find("the binary takes 7 parameters, but the manifest lists 8"),
      std::string::npos);
}

TEST(BinaryAbiTest, RefusesARetypedParam) {
  std::vector<Param> params = attentionParams();
  params[4] = scalar(ScalarType::I64);
  EXPECT_NE(refusal(params, binaryWith({128, 128, 128, 8, 4, 8, 4}))
                .find("parameter 4 is 4 bytes in the binary, but the "
                      "manifest's 8"),
            std::string::npos);
  // A pointer where the binary takes a tensor map.
  params = attentionParams();
  params[0] = PointerParam{};
  EXPECT_NE(refusal(params, binaryWith({128, 128, 128, 8, 4, 8, 4}))
                .find("parameter 0 is 128 bytes"),
            std::string::npos);
}

TEST(BinaryAbiTest, RefusesABlockPastTheBinarys) {
  EXPECT_NO_THROW(checkBlockFitsBinary("k", 384, 384));
  try {
    checkBlockFitsBinary("k", 512, 384);
    FAIL() << "a 512-thread block of a 384-thread kernel was accepted";
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_MANIFEST);
    EXPECT_NE(
        std::string(error.what())
            .find("the manifest launches blocks of 512 threads, but the binary "
                  "was compiled for at most 384"),
        std::string::npos);
  }
}

} // namespace
