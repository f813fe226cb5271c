//===- BinaryAbiTest.cpp - A manifest checked against its binary ----------===//

#include "BinaryAbi.h"

#include "Error.h"
#include "Json.h"
#include "TestManifest.h"

#include <gtest/gtest.h>

using namespace fa4::rt;
using namespace fa4::rt::test;

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

// The ABI record (fa4/AbiRecord.h): the binary's copy of the manifest the
// compiler wrote, less its binary entries. A binary compiled from one
// manifest, checked against another.

/// The record a binary compiled for `compiledJson` carries, as the compiler
/// writes it: compact JSON with no binary entry.
std::string recordOf(const std::string &compiledJson) {
  return fa4::json::render(parseManifest(compiledJson, "").abiRecord,
                           size_t(1) << 20);
}

std::string recordRefusal(const std::string &manifestJson,
                          const std::string &binaryRecord) {
  try {
    checkRecordMatchesBinary(parseManifest(manifestJson, "dir"), binaryRecord);
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_MANIFEST);
    return error.what();
  }
  return "";
}

TEST(BinaryAbiTest, TheRecordIsTheManifestLessItsBinary) {
  Manifest manifest = parseManifest(goodManifestJson(), "");
  EXPECT_EQ(manifest.abiRecord.find("binary"), nullptr);
  EXPECT_NE(manifest.abiRecord.find("params"), nullptr);
  EXPECT_NE(manifest.abiRecord.find("launch"), nullptr);
  EXPECT_NE(manifest.abiRecord.find("tensors"), nullptr);
  // The decode variant's binary goes too; its limit stays.
  Manifest withDecode = parseManifest(decodeVariantManifestJson(), "");
  const fa4::json::Value *decode = withDecode.abiRecord.find("decode");
  ASSERT_NE(decode, nullptr);
  EXPECT_NE(decode->find("max_seq_q"), nullptr);
  ASSERT_NE(decode->find("manifest"), nullptr);
  EXPECT_EQ(decode->find("manifest")->find("binary"), nullptr);
  EXPECT_NE(decode->find("manifest")->find("params"), nullptr);
}

TEST(BinaryAbiTest, AcceptsTheRecordOfItsBinary) {
  std::string record = recordOf(goodManifestJson());
  EXPECT_EQ(recordRefusal(goodManifestJson(), record), "");
  // As the global holds it in a C string, and with members in another order.
  EXPECT_EQ(recordRefusal(goodManifestJson(), record + '\0'), "");
  EXPECT_EQ(recordRefusal(
                goodManifestJson(),
                edited(record, {{R"("block":[384,1,1],)", ""},
                                {R"("cluster":[1,1,1])",
                                 R"("cluster":[1,1,1],"block":[384,1,1])"}})),
            "");
  // Another binary file name is not a disagreement.
  EXPECT_EQ(
      recordRefusal(manifestWith(R"("format": "cubin")", R"("format": "ptx")"),
                    record),
      "");
  EXPECT_EQ(recordRefusal(decodeVariantManifestJson(),
                          recordOf(decodeVariantManifestJson())),
            "");
}

TEST(BinaryAbiTest, RefusesAManifestWithAnotherBox) {
  std::string compiled = recordOf(goodManifestJson());
  EXPECT_EQ(
      recordRefusal(manifestWith(R"("tensor": "k", "box": [1, 128, 1, 64])",
                                 R"("tensor": "k", "box": [1, 176, 1, 64])"),
                    compiled),
      "manifest and binary disagree: at params[1].box[1] the manifest "
      "says 176, the binary was compiled for 128; the manifest is not "
      "the one compiled with dir/fa4_attn_fwd_sm90a.cubin");
}

TEST(BinaryAbiTest, RefusesAnotherClusterSmemGridOrShape) {
  std::string compiled = recordOf(goodManifestJson());
  auto refusedAt = [&](const std::string &from, const std::string &to) {
    return recordRefusal(manifestWith(from, to), compiled);
  };
  EXPECT_NE(refusedAt(R"("cluster": [1, 1, 1])", R"("cluster": [2, 1, 1])")
                .find("at launch.cluster[0] the manifest says 2, the binary "
                      "was compiled for 1"),
            std::string::npos);
  EXPECT_NE(refusedAt(R"("dynamic_smem_bytes": 200000)",
                      R"("dynamic_smem_bytes": 100000)")
                .find("at launch.dynamic_smem_bytes the manifest says 100000"),
            std::string::npos);
  EXPECT_NE(refusedAt(R"([{"ceil_div": ["sq", 64]}])",
                      R"([{"ceil_div": ["sq", 32]}])")
                .find("at launch.grid[0][0].ceil_div[1]"),
            std::string::npos);
  // A depth the manifest's own checks accept (q and k agree with it).
  EXPECT_NE(
      recordRefusal(manifestWith({{R"("qk_depth": 128)", R"("qk_depth": 64)"},
                                  {R"("shape": ["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16)",
                                   R"("shape": ["b", "sq", 32, 64],
     "alignment": {"base_bytes": 16)"},
                                  {R"("shape": ["b", "skv", 8, 128],
     "alignment": {"base_bytes": 16, "stride_bytes": 16}},
    {"name": "v")",
                                   R"("shape": ["b", "skv", 8, 64],
     "alignment": {"base_bytes": 16, "stride_bytes": 16}},
    {"name": "v")"}}),
                    compiled)
          .find("at problem.qk_depth the manifest says 64, the binary was "
                "compiled for 128"),
      std::string::npos);
  EXPECT_NE(refusedAt(R"("l2_promotion": "128B")", R"("l2_promotion": "256B")")
                .find(R"(at params[0].l2_promotion the manifest says "256B")"),
            std::string::npos);
}

TEST(BinaryAbiTest, NamesListsOfAnotherLengthByTheirLengths) {
  std::string compiled = recordOf(goodManifestJson());
  EXPECT_NE(recordRefusal(manifestWith(R"(,
    {"kind": "scalar", "type": "f32", "value": 0.5})",
                                       ""),
                          compiled)
                .find("at params the manifest says 10 entries, the binary was "
                      "compiled for 11 entries"),
            std::string::npos);
}

TEST(BinaryAbiTest, RefusesAMemberOnOneSideOnly) {
  std::string persistent = recordOf(persistentManifestJson());
  EXPECT_NE(recordRefusal(goodManifestJson(), persistent).find("at "),
            std::string::npos);
  // The binary's record has a launch.persistent the manifest lacks.
  std::string compiled = recordOf(goodManifestJson());
  std::string extra =
      edited(compiled, {{R"("dynamic_smem_bytes":200000})",
                         R"("dynamic_smem_bytes":200000,"extra":1})"}});
  EXPECT_NE(recordRefusal(goodManifestJson(), extra)
                .find("at launch.extra the manifest says nothing, the binary "
                      "was compiled for 1"),
            std::string::npos);
}

TEST(BinaryAbiTest, RefusesARecordThatIsNotJson) {
  EXPECT_NE(recordRefusal(goodManifestJson(), "{\"kernel\":")
                .find("the binary's ABI record is not JSON"),
            std::string::npos);
  EXPECT_NE(recordRefusal(goodManifestJson(), std::string("\0\0", 2))
                .find("not JSON"),
            std::string::npos);
}
