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

/// The error after replacing `from` by `to` in `json`.
std::string errorIn(const std::string &json, const std::string &from,
                    const std::string &to) {
  return manifestError(edited(json, {{from, to}}));
}

TEST(ManifestTest, ReadsTheExample) {
  Manifest manifest = goodManifest();
  EXPECT_EQ(manifest.abiVersion, 2);
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

  EXPECT_TRUE(manifest.alignment.unitStrideLastDim);
  for (size_t i = 0; i < 3; ++i) { // q, k, v: read by tensor maps
    EXPECT_EQ(manifest.tensors[i].alignment.baseBytes, 16);
    EXPECT_EQ(manifest.tensors[i].alignment.strideBytes, 16);
    EXPECT_TRUE(manifest.tensors[i].readByTensorMap);
  }
  for (size_t i = 3; i < 5; ++i) { // o, lse: written with 4-byte stores
    EXPECT_EQ(manifest.tensors[i].alignment.baseBytes, 4);
    EXPECT_EQ(manifest.tensors[i].alignment.strideBytes, 4);
    EXPECT_FALSE(manifest.tensors[i].readByTensorMap);
  }

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

TEST(ManifestTest, ReadsVersion1) {
  // One global alignment, copied into every tensor.
  Manifest manifest = goodManifestV1();
  EXPECT_EQ(manifest.abiVersion, 1);
  EXPECT_TRUE(manifest.alignment.unitStrideLastDim);
  ASSERT_EQ(manifest.tensors.size(), 5u);
  for (const TensorSpec &tensor : manifest.tensors) {
    EXPECT_EQ(tensor.alignment.baseBytes, 16) << tensor.name;
    EXPECT_EQ(tensor.alignment.strideBytes, 16) << tensor.name;
  }
  EXPECT_TRUE(manifest.tensors[0].readByTensorMap);
  EXPECT_FALSE(manifest.tensors[4].readByTensorMap);
  // Apart from the alignment, version 1 and 2 read alike.
  Manifest v2 = goodManifest();
  EXPECT_EQ(manifest.params.size(), v2.params.size());
  EXPECT_EQ(manifest.launch.block, v2.launch.block);

  Manifest weaker =
      parseManifest(manifestV1With(R"("base_bytes": 16, "stride_bytes": 16)",
                                   R"("base_bytes": 32, "stride_bytes": 48)"),
                    "");
  EXPECT_EQ(weaker.tensors[4].alignment.baseBytes, 32);
  EXPECT_EQ(weaker.tensors[4].alignment.strideBytes, 48);
}

TEST(ManifestTest, RejectsOtherVersions) {
  EXPECT_EQ(errorWith("\"fa4_abi_version\": 2", "\"fa4_abi_version\": 17"),
            "manifest: fa4_abi_version: unsupported version 17; this runtime "
            "reads versions 1 to 16");
  EXPECT_EQ(errorWith("\"fa4_abi_version\": 2", "\"fa4_abi_version\": 0"),
            "manifest: fa4_abi_version: unsupported version 0; this runtime "
            "reads versions 1 to 16");
  EXPECT_EQ(errorWith("\"fa4_abi_version\": 2,", ""),
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
            "manifest: problem.qk_depth: 0 is out of range [1, 1024] "
            "(fa4::limits::kMaxDepth)");
  EXPECT_EQ(errorWith("\"has_lse\": true", "\"has_lse\": 1"),
            "manifest: problem.has_lse: expected a boolean, got number");
  EXPECT_EQ(errorWith("\"scale\": 0.08838834764831845", "\"scale\": -1"),
            "manifest: problem.scale: must be a positive finite number");
  EXPECT_EQ(errorWith("\"batch\": -1", "\"batch\": 0"),
            "manifest: problem.batch: must be -1 (dynamic) or >= 1");
}

TEST(ManifestTest, ReadsASoftcap) {
  const std::string scale = R"("scale": 0.08838834764831845)";
  const std::string version = R"("fa4_abi_version": 2)";
  EXPECT_EQ(goodManifest().problem.softcap, 0);
  Manifest manifest =
      parseManifest(manifestWith({{version, R"("fa4_abi_version": 13)"},
                                  {scale, scale + R"(, "softcap": 15)"}}),
                    "");
  EXPECT_EQ(manifest.problem.softcap, 15);
  // Version 13's key, a positive finite number.
  EXPECT_EQ(errorWith(scale, scale + R"(, "softcap": 15)"),
            "manifest: problem.softcap: a softcap needs fa4_abi_version 13");
  for (const char *bad : {"0", "-15"})
    EXPECT_EQ(manifestError(manifestWith(
                  {{version, R"("fa4_abi_version": 13)"},
                   {scale, scale + R"(, "softcap": )" + std::string(bad)}})),
              "manifest: problem.softcap: must be a positive finite number")
        << bad;
  EXPECT_EQ(
      manifestError(manifestWith({{version, R"("fa4_abi_version": 13)"},
                                  {scale, scale + R"(, "softcap": "15")"}})),
      "manifest: problem.softcap: expected a number, got string");
}

TEST(ManifestTest, ReadsSinks) {
  EXPECT_FALSE(goodManifest().problem.sinks);
  Manifest manifest = parseManifest(sinksManifestJson(), "");
  EXPECT_TRUE(manifest.problem.sinks);
  const TensorSpec *sinks = manifest.findTensor(TensorSlot::Sinks);
  ASSERT_NE(sinks, nullptr);
  EXPECT_FALSE(sinks->isOutput);
  EXPECT_EQ(sinks->dtype, FA4_DTYPE_F32);
  ASSERT_EQ(sinks->shape.size(), 1u);
  EXPECT_EQ(sinks->shape[0].extent, 32);
  // Version 14's key and tensor, which must come together, as an f32 [hq]
  // input.
  EXPECT_EQ(manifestError(edited(
                sinksManifestJson(),
                {{R"("fa4_abi_version": 14)", R"("fa4_abi_version": 13)"}})),
            "manifest: problem.sinks: attention sinks need fa4_abi_version 14");
  EXPECT_EQ(manifestError(edited(sinksManifestJson(),
                                 {{R"("sinks": true)", R"("sinks": false)"}})),
            "manifest: tensors: tensor \"sinks\" listed but problem.sinks is "
            "absent or false");
  EXPECT_EQ(manifestError(manifestWith(
                {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 14)"},
                 {"\"has_lse\": true", "\"has_lse\": true, \"sinks\": true"}})),
            "manifest: tensors: problem.sinks is true but no tensor \"sinks\"");
  EXPECT_EQ(manifestError(edited(
                sinksManifestJson(),
                {{R"("name": "sinks", "role": "input", "dtype": "f32")",
                  R"("name": "sinks", "role": "input", "dtype": "bf16")"}})),
            "manifest: tensors[5].dtype: expected \"f32\" (the sinks are "
            "f32), got \"bf16\"");
  EXPECT_EQ(manifestError(edited(sinksManifestJson(),
                                 {{R"("name": "sinks", "role": "input")",
                                   R"("name": "sinks", "role": "output")"}})),
            "manifest: tensors[5].role: tensor \"sinks\" is read by "
            "attention; expected \"input\"");
  EXPECT_EQ(manifestError(edited(sinksManifestJson(),
                                 {{R"("shape": [32],)", R"("shape": [16],)"}})),
            "manifest: tensors[5].shape[0]: expected \"hq\" or 32 "
            "(problem.num_q_heads), got 16; tensor \"sinks\" is [hq] (BSHD)");
}

/// Version 15: an FP8 kernel's e4m3 inputs, its output dtype and each form
/// of descale.
TEST(ManifestTest, ReadsAnFp8Kernel) {
  EXPECT_EQ(goodManifest().problem.outputDtype, FA4_DTYPE_BF16);
  const char *forms[][3] = {{"tensor", "tensor", "tensor"},
                            {"batch_head", "batch_head", "batch_head"},
                            {"tensor", "", "batch_head"},
                            {"", "", ""}};
  for (const auto &form : forms) {
    std::string json = fp8ManifestJson(form[0], form[1], form[2]);
    Manifest manifest = parseManifest(json, "");
    const Problem &problem = manifest.problem;
    EXPECT_EQ(problem.dtype, FA4_DTYPE_E4M3);
    EXPECT_EQ(problem.outputDtype, FA4_DTYPE_BF16);
    EXPECT_EQ(manifest.findTensor(TensorSlot::Q)->dtype, FA4_DTYPE_E4M3);
    EXPECT_EQ(manifest.findTensor(TensorSlot::O)->dtype, FA4_DTYPE_BF16);
    // 64 columns of one byte fill the 64-byte swizzle's span.
    const auto &map = std::get<TensorMapParam>(manifest.params[0]);
    EXPECT_EQ(map.swizzleBytes, 64u);
    EXPECT_EQ(map.box.back(), 64u);
    for (int i = 0; i < 3; ++i) {
      std::string kind = form[i];
      Descale expected = kind == "tensor"       ? Descale::Tensor
                         : kind == "batch_head" ? Descale::BatchHead
                                                : Descale::None;
      EXPECT_EQ(problem.descales[i], expected) << kDescaleNames[i];
      const TensorSpec *tensor = manifest.findTensor(kDescaleSlots[i]);
      if (expected == Descale::None) {
        EXPECT_EQ(tensor, nullptr) << kDescaleNames[i];
        continue;
      }
      ASSERT_NE(tensor, nullptr) << kDescaleNames[i];
      EXPECT_EQ(tensor->name, kDescaleNames[i]);
      EXPECT_FALSE(tensor->isOutput);
      EXPECT_EQ(tensor->dtype, FA4_DTYPE_F32);
      if (expected == Descale::Tensor) {
        EXPECT_TRUE(tensor->shape.empty()) << kDescaleNames[i];
        continue;
      }
      ASSERT_EQ(tensor->shape.size(), 2u);
      EXPECT_EQ(tensor->shape[0].symbol, Symbol::Batch);
      EXPECT_EQ(tensor->shape[1].extent, 8);
      // Its batch stride, "<name>.stride.0", resolves to the tensor.
      bool strideFound = false;
      for (const Param &param : manifest.params)
        if (const auto *scalar = std::get_if<ScalarParam>(&param))
          if (scalar->source == ScalarParam::Source::Stride &&
              manifest.tensors[scalar->tensor].slot == kDescaleSlots[i]) {
            EXPECT_EQ(scalar->dim, 0);
            EXPECT_EQ(scalar->type, ScalarType::I64);
            strideFound = true;
          }
      EXPECT_TRUE(strideFound) << kDescaleNames[i];
    }
  }
  // "hkv" spells the kv heads too; an f16 output.
  Manifest f16 = parseManifest(
      edited(fp8ManifestJson("batch_head", "", ""),
             {{R"("output_dtype": "bf16")", R"("output_dtype": "f16")"},
              {R"("dtype": "bf16", "shape": ["b", "sq", 32, 128])",
               R"("dtype": "f16", "shape": ["b", "sq", 32, 128])"},
              {R"("shape": ["b", 8])", R"("shape": ["b", "hkv"])"}}),
      "");
  EXPECT_EQ(f16.problem.outputDtype, FA4_DTYPE_F16);
  EXPECT_EQ(f16.findTensor(TensorSlot::QDescale)->shape[1].symbol,
            Symbol::HeadsKV);
}

/// Every version 15 rule, each refusal by name.
TEST(ManifestTest, RefusesBadFp8Manifests) {
  const std::string fp8 = fp8ManifestJson();
  auto error = [&](const std::string &from, const std::string &to) {
    return errorIn(fp8, from, to);
  };
  const std::string v14 = R"("fa4_abi_version": 14)";
  const std::string v15 = R"("fa4_abi_version": 15)";
  // e4m3 and its keys are version 15's.
  EXPECT_EQ(error(v15, v14), "manifest: problem.dtype: e4m3 (FP8) attention "
                             "needs fa4_abi_version 15");
  EXPECT_EQ(
      manifestError(manifestWith(
          {{R"("fa4_abi_version": 2)", v14},
           {R"("dtype": "bf16", "num_q_heads")",
            R"("dtype": "bf16", "output_dtype": "bf16", "num_q_heads")"}})),
      "manifest: problem.output_dtype: an output dtype needs "
      "fa4_abi_version 15");
  EXPECT_EQ(manifestError(
                manifestWith({{R"("fa4_abi_version": 2)", v14},
                              {R"("has_lse": true)",
                               R"("has_lse": true, "q_descale": "tensor")"}})),
            "manifest: problem.q_descale: descales need fa4_abi_version 15");
  // The output dtype: required under e4m3, bf16 or f16, and only there.
  EXPECT_EQ(error(R"("output_dtype": "bf16",)", ""),
            "manifest: problem.output_dtype: missing; an e4m3 kernel names "
            "o's dtype, \"bf16\" or \"f16\"");
  EXPECT_EQ(error(R"("output_dtype": "bf16")", R"("output_dtype": "e4m3")"),
            "manifest: problem.output_dtype: expected one of \"bf16\", "
            "\"f16\", got \"e4m3\"");
  EXPECT_EQ(
      manifestError(manifestWith(
          {{R"("fa4_abi_version": 2)", v15},
           {R"("dtype": "bf16", "num_q_heads")",
            R"("dtype": "bf16", "output_dtype": "f16", "num_q_heads")"}})),
      "manifest: problem.output_dtype: only an e4m3 (FP8) kernel gives "
      "one; o has problem.dtype \"bf16\"");
  // Descales: of e4m3 inputs, "tensor" or "batch_head".
  EXPECT_EQ(manifestError(
                manifestWith({{R"("fa4_abi_version": 2)", v15},
                              {R"("has_lse": true)",
                               R"("has_lse": true, "v_descale": "tensor")"}})),
            "manifest: problem.v_descale: descales belong to e4m3 (FP8) "
            "inputs; problem.dtype is \"bf16\"");
  EXPECT_EQ(error(R"("k_descale": "tensor")", R"("k_descale": "per_head")"),
            "manifest: problem.k_descale: expected one of \"tensor\", "
            "\"batch_head\", got \"per_head\"");
  // A key and its tensor come together.
  EXPECT_EQ(manifestError(
                edited(fp8ManifestJson("tensor", "", ""),
                       {{R"("q_descale": "tensor")",
                         R"("q_descale": "tensor", "k_descale": "tensor")"}})),
            "manifest: tensors: problem.k_descale is \"tensor\" but no tensor "
            "\"k_descale\"");
  EXPECT_EQ(error(R"(, "k_descale": "tensor")", ""),
            "manifest: tensors[6].name: tensor \"k_descale\" listed but "
            "problem.k_descale is absent (version 15: \"tensor\" or "
            "\"batch_head\" for an e4m3 kernel)");
  // The shape the key says.
  EXPECT_EQ(
      error(
          R"("name": "q_descale", "role": "input", "dtype": "f32", "shape": [])",
          R"("name": "q_descale", "role": "input", "dtype": "f32", "shape": ["b", 8])"),
      "manifest: tensors[5].shape: has 2 entries; tensor \"q_descale\" "
      "is [] (problem.q_descale \"tensor\")");
  const std::string perHead = fp8ManifestJson("tensor", "batch_head", "tensor");
  EXPECT_EQ(errorIn(perHead, R"("shape": ["b", 8])", R"("shape": [])"),
            "manifest: tensors[6].shape: has 0 entries; tensor \"k_descale\" "
            "is [b, hkv] (problem.k_descale \"batch_head\")");
  EXPECT_EQ(errorIn(perHead, R"("shape": ["b", 8])", R"("shape": ["b", 4])"),
            "manifest: tensors[6].shape[1]: expected \"hkv\" or 8 "
            "(problem.num_kv_heads), got 4; tensor \"k_descale\" is [b, hkv] "
            "(problem.k_descale \"batch_head\")");
  EXPECT_EQ(errorIn(perHead, R"("shape": ["b", 8])", R"("shape": ["sq", 8])"),
            "manifest: tensors[6].shape[0]: expected \"b\", got \"sq\"; tensor "
            "\"k_descale\" is [b, hkv] (problem.k_descale \"batch_head\")");
  // Only a descale has rank 0.
  EXPECT_EQ(error(R"("shape": ["b", 32, "sq"])", R"("shape": [])"),
            "manifest: tensors[4].shape: has 0 entries; expected 1 to 4");
  // f32 inputs.
  EXPECT_EQ(error(R"("name": "v_descale", "role": "input", "dtype": "f32")",
                  R"("name": "v_descale", "role": "input", "dtype": "bf16")"),
            "manifest: tensors[7].dtype: expected \"f32\" (descales are f32), "
            "got \"bf16\"");
  EXPECT_EQ(error(R"("name": "v_descale", "role": "input")",
                  R"("name": "v_descale", "role": "output")"),
            "manifest: tensors[7].role: tensor \"v_descale\" is read by "
            "attention; expected \"input\"");
  // q, k and v have problem.dtype, o problem.output_dtype.
  EXPECT_EQ(error(R"({"name": "k", "role": "input", "dtype": "e4m3")",
                  R"({"name": "k", "role": "input", "dtype": "bf16")"),
            "manifest: tensors[1].dtype: expected \"e4m3\" (problem.dtype), "
            "got \"bf16\"");
  EXPECT_EQ(error(R"("role": "output", "dtype": "bf16")",
                  R"("role": "output", "dtype": "e4m3")"),
            "manifest: tensors[3].dtype: expected \"bf16\" "
            "(problem.output_dtype), got \"e4m3\"");
  // One value has no stride to pass.
  EXPECT_EQ(error(R"({"kind": "pointer", "tensor": "q_descale"},)",
                  R"({"kind": "pointer", "tensor": "q_descale"},
    {"kind": "scalar", "type": "i64", "value": "q_descale.stride.0"},)"),
            "manifest: params[6].value: \"q_descale.stride.0\": tensor "
            "\"q_descale\" has rank 0 (one value) and no strides");
  EXPECT_EQ(errorIn(perHead, R"("value": "k_descale.stride.0")",
                    R"("value": "k_descale.stride.2")"),
            "manifest: params[7].value: \"k_descale.stride.2\": stride dim "
            "must be 0..1");
  // A descale the kernel takes by neither pointer nor map.
  EXPECT_EQ(error(R"(
    {"kind": "pointer", "tensor": "v_descale"},)",
                  ""),
            "manifest: params: no \"pointer\" or \"tensor_map\" parameter "
            "passes tensor \"v_descale\"; expected one for every tensor the "
            "kernel reads or writes");
  // A box is counted in bytes of e4m3: 128 columns overrun the 64B swizzle.
  EXPECT_EQ(
      error(R"("tensor": "k", "box": [1, 128, 1, 64], "swizzle": "64B")",
            R"("tensor": "k", "box": [1, 128, 1, 128], "swizzle": "64B")"),
      "manifest: params[1].box[3]: inner box of 128 x e4m3 = 128 bytes "
      "exceeds the 64B swizzle span (cuTensorMapEncodeTiled rule)");
  EXPECT_EQ(error(R"("tensor": "k", "box": [1, 128, 1, 64], "swizzle": "64B")",
                  R"("tensor": "k", "box": [1, 128, 1, 8], "swizzle": "64B")"),
            "manifest: params[1].box[3]: inner box of 8 x e4m3 = 8 bytes is "
            "not a multiple of 16 bytes (cuTensorMapEncodeTiled rule)");
}

/// A decode variant descales and stores as its kernel does.
TEST(ManifestTest, RefusesAnFp8DecodeVariantOfAnotherAttention) {
  std::string kernel = fp8ManifestJson();
  Manifest manifest =
      parseManifest(withDecodeVariant(kernel, fp8ManifestJson()), "");
  ASSERT_TRUE(manifest.decode.has_value());
  EXPECT_EQ(manifest.decode->manifest->problem.descales,
            manifest.problem.descales);
  const std::string mismatch =
      "manifest: decode.manifest.problem: the decode variant computes "
      "another attention than the kernel (dtype, output dtype, heads, "
      "depths, mask, scale, softcap, sinks, descales, LSE and pass must "
      "match)";
  EXPECT_EQ(manifestError(withDecodeVariant(
                kernel, fp8ManifestJson("tensor", "tensor", "batch_head"))),
            mismatch);
  EXPECT_EQ(manifestError(withDecodeVariant(
                kernel, edited(fp8ManifestJson(),
                               {{R"("output_dtype": "bf16")",
                                 R"("output_dtype": "f16")"},
                                {R"("role": "output", "dtype": "bf16")",
                                 R"("role": "output", "dtype": "f16")"}}))),
            mismatch);
}

/// Version 16: a backward kernel reads q, k, v, the forward's o and lse
/// and dout, and writes dq, dk and dv, each in its input's layout.
TEST(ManifestTest, ReadsABackwardKernel) {
  EXPECT_FALSE(goodManifest().problem.backward);
  Manifest manifest = parseManifest(backwardManifestJson(), "");
  EXPECT_EQ(manifest.abiVersion, 16);
  EXPECT_TRUE(manifest.problem.backward);
  ASSERT_EQ(manifest.tensors.size(), 9u);
  const std::pair<TensorSlot, bool> roles[] = {
      {TensorSlot::Q, false},   {TensorSlot::K, false},
      {TensorSlot::V, false},   {TensorSlot::O, false},
      {TensorSlot::Lse, false}, {TensorSlot::Dout, false},
      {TensorSlot::Dq, true},   {TensorSlot::Dk, true},
      {TensorSlot::Dv, true}};
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(manifest.tensors[i].slot, roles[i].first) << i;
    EXPECT_EQ(manifest.tensors[i].isOutput, roles[i].second) << i;
  }
  const TensorSpec *dk = manifest.findTensor(TensorSlot::Dk);
  ASSERT_NE(dk, nullptr);
  EXPECT_EQ(dk->name, "dk");
  EXPECT_EQ(dk->dtype, FA4_DTYPE_BF16);
  EXPECT_EQ(dk->shape[1].symbol, Symbol::SeqKV);
  EXPECT_EQ(dk->shape[3].extent, 64);
  EXPECT_EQ(manifest.findTensor(TensorSlot::Dout)->shape[3].extent, 32);
  // A plain integer among a grid dim's factors: ["b", 2].
  ASSERT_EQ(manifest.launch.grid[2].size(), 2u);
  EXPECT_EQ(manifest.launch.grid[2][0].symbol, Symbol::Batch);
  EXPECT_EQ(manifest.launch.grid[2][1].kind, GridFactor::Kind::Constant);
  EXPECT_EQ(manifest.launch.grid[2][1].constant, 2);
  // "forward" is the pass of a manifest without the key.
  Manifest forward = parseManifest(
      manifestWith(
          {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 16)"},
           {R"("has_lse": true)", R"("has_lse": true, "pass": "forward")"}}),
      "");
  EXPECT_FALSE(forward.problem.backward);
  EXPECT_TRUE(forward.findTensor(TensorSlot::O)->isOutput);
  // An f16 backward kernel.
  std::string f16 = backwardManifestJson();
  for (size_t at; (at = f16.find("\"bf16\"")) != std::string::npos;)
    f16.replace(at, 6, "\"f16\"");
  EXPECT_EQ(parseManifest(f16, "").findTensor(TensorSlot::Dq)->dtype,
            FA4_DTYPE_F16);
}

/// Every version 16 rule, each refusal by name.
TEST(ManifestTest, RefusesBadBackwardManifests) {
  const std::string backward = backwardManifestJson();
  auto error = [&](const std::string &from, const std::string &to) {
    return errorIn(backward, from, to);
  };
  const std::string pass = R"("pass": "backward")";
  EXPECT_EQ(error(R"("fa4_abi_version": 16)", R"("fa4_abi_version": 15)"),
            "manifest: problem.pass: the pass key (a backward kernel) needs "
            "fa4_abi_version 16");
  EXPECT_EQ(error(pass, R"("pass": "sideways")"),
            "manifest: problem.pass: expected one of \"forward\", "
            "\"backward\", got \"sideways\"");
  EXPECT_EQ(error(pass, R"("pass": true)"),
            "manifest: problem.pass: expected a string, got boolean");
  // Dense bf16 / f16 only, without sinks, from the forward's LSE.
  EXPECT_EQ(error(pass, pass + R"(, "sinks": true)"),
            "manifest: problem.sinks: the backward pass takes no attention "
            "sinks (they have no gradient yet)");
  EXPECT_EQ(
      error(pass, pass + R"(, "sequences": "packed", "packed_queries": true)"),
      "manifest: problem.sequences: the backward pass is dense only; a "
      "backward kernel has no packed or paged sequences");
  EXPECT_EQ(error(R"("problem": {"dtype": "bf16")",
                  R"("problem": {"dtype": "e4m3", "output_dtype": "bf16")"),
            "manifest: problem.dtype: a backward kernel takes \"bf16\" or "
            "\"f16\", got \"e4m3\"");
  EXPECT_EQ(error(R"("has_lse": true)", R"("has_lse": false)"),
            "manifest: problem.has_lse: a backward kernel reads the "
            "forward's LSE; expected true");
  // Each tensor of the pass, in its role, dtype and layout.
  EXPECT_EQ(error(R"(
    {"name": "dk", "role": "output", "dtype": "bf16", "shape": ["b", "skv", 2, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},)",
                  ""),
            "manifest: tensors: missing tensor \"dk\", which a backward "
            "kernel (problem.pass \"backward\") needs");
  EXPECT_EQ(
      error(
          R"({"name": "dout", "role": "input", "dtype": "bf16", "shape": ["b", "sq", 8, 32],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},)",
          ""),
      "manifest: tensors: missing tensor \"dout\", which a backward "
      "kernel (problem.pass \"backward\") needs");
  EXPECT_EQ(error(R"({"name": "o", "role": "input")",
                  R"({"name": "o", "role": "output")"),
            "manifest: tensors[3].role: tensor \"o\" is read by the backward "
            "pass; expected \"input\"");
  EXPECT_EQ(error(R"({"name": "lse", "role": "input")",
                  R"({"name": "lse", "role": "output")"),
            "manifest: tensors[4].role: tensor \"lse\" is read by the "
            "backward pass; expected \"input\"");
  EXPECT_EQ(error(R"({"name": "dq", "role": "output")",
                  R"({"name": "dq", "role": "input")"),
            "manifest: tensors[6].role: tensor \"dq\" is written by the "
            "backward pass; expected \"output\"");
  EXPECT_EQ(error(R"({"name": "dout", "role": "input", "dtype": "bf16")",
                  R"({"name": "dout", "role": "input", "dtype": "f16")"),
            "manifest: tensors[5].dtype: expected \"bf16\" (problem.dtype), "
            "got \"f16\"");
  EXPECT_EQ(error(R"({"name": "dv", "role": "output", "dtype": "bf16")",
                  R"({"name": "dv", "role": "output", "dtype": "f32")"),
            "manifest: tensors[8].dtype: expected \"bf16\" (problem.dtype), "
            "got \"f32\"");
  EXPECT_EQ(error(R"("dtype": "bf16", "shape": ["b", "sq", 8, 32],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},
    {"name": "dq")",
                  R"("dtype": "bf16", "shape": ["b", "sq", 8, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},
    {"name": "dq")"),
            "manifest: tensors[5].shape[3]: expected 32 (problem.ov_depth), "
            "got 64; tensor \"dout\" is [b, sq, hq, dv] (BSHD)");
  EXPECT_EQ(error(R"("shape": ["b", "sq", 8, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},
    {"name": "dk")",
                  R"("shape": ["b", "skv", 8, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},
    {"name": "dk")"),
            "manifest: tensors[6].shape[1]: expected \"sq\", got \"skv\"; "
            "tensor \"dq\" is [b, sq, hq, dqk] (BSHD)");
  EXPECT_EQ(error(R"("dtype": "bf16", "shape": ["b", "skv", 2, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},
    {"name": "dv")",
                  R"("dtype": "bf16", "shape": ["b", "skv", 8, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}},
    {"name": "dv")"),
            "manifest: tensors[7].shape[2]: expected \"hkv\" or 2 "
            "(problem.num_kv_heads), got 8; tensor \"dk\" is [b, skv, hkv, "
            "dqk] (BSHD)");
  EXPECT_EQ(error(R"("shape": ["b", "skv", 2, 32],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}}
  ],)",
                  R"("shape": ["b", "skv", 2, 64],
     "alignment": {"base_bytes": 2, "stride_bytes": 2}}
  ],)"),
            "manifest: tensors[8].shape[3]: expected 32 (problem.ov_depth), "
            "got 64; tensor \"dv\" is [b, skv, hkv, dv] (BSHD)");
  // A forward kernel names none of them, "forward" or not.
  const std::string dq = R"(,
    {"name": "dq", "role": "output", "dtype": "bf16", "shape": ["b", "sq", 32, 128],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})";
  const std::string lse = R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})";
  const std::string named =
      "manifest: tensors[5].name: tensor \"dq\" belongs to a backward kernel "
      "(problem.pass \"backward\", version 16)";
  EXPECT_EQ(manifestError(manifestWith(
                {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 16)"},
                 {lse, lse + dq}})),
            named);
  EXPECT_EQ(
      manifestError(manifestWith(
          {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 16)"},
           {R"("has_lse": true)", R"("has_lse": true, "pass": "forward")"},
           {lse, lse + dq}})),
      named);
  // A decode variant computes the same pass: the backward kernel's
  // attention as a forward kernel, less its own tensors, and the backward
  // kernel as its variant differ in the pass alone.
  std::string forward = backward;
  for (const char *name : {"dout", "dq", "dk", "dv"}) {
    size_t begin = forward.find("\n    {\"name\": \"" + std::string(name));
    forward.erase(begin, forward.find("}}", begin) + 3 - begin);
    for (const char *suffix : {"", ".stride.0", ".stride.1", ".stride.2"}) {
      std::string param = std::string(name) + suffix + "\"},\n";
      size_t at = forward.find(param);
      forward.erase(forward.rfind("\n", at) + 1,
                    at + param.size() - forward.rfind("\n", at) - 1);
    }
  }
  forward = edited(forward, {{pass, R"("pass": "forward")"},
                             {R"({"name": "o", "role": "input")",
                              R"({"name": "o", "role": "output")"},
                             {R"({"name": "lse", "role": "input")",
                              R"({"name": "lse", "role": "output")"},
                             {R"("shape": ["b", 8, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}},)",
                              R"("shape": ["b", 8, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})"}});
  ASSERT_FALSE(parseManifest(forward, "").problem.backward);
  std::string variant = edited(
      backward, {{R"("kernel": "fa4_reference_attention_backward_sm_90a")",
                  R"("kernel": "variant")"}});
  size_t last = forward.rfind('}');
  EXPECT_EQ(manifestError(forward.substr(0, last) +
                          ",\n  \"decode\": {\"max_seq_q\": 16, "
                          "\"manifest\": " +
                          variant + "}\n}\n"),
            "manifest: decode.manifest.problem: the decode variant computes "
            "another attention than the kernel (dtype, output dtype, heads, "
            "depths, mask, scale, softcap, sinks, descales, LSE and pass "
            "must match)");
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
            "\"f32\", \"i32\", \"e4m3\", got \"fp8\"");
}

TEST(ManifestTest, RejectsBadTensors) {
  EXPECT_EQ(errorWith(R"({"name": "v", "role": "input")",
                      R"({"name": "k", "role": "input")"),
            "manifest: tensors[2].name: tensor \"k\" listed twice");
  EXPECT_EQ(errorWith(R"({"name": "v", "role": "input")",
                      R"({"name": "w", "role": "input")"),
            "manifest: tensors[2].name: expected one of \"q\", \"k\", \"v\", "
            "\"o\", \"lse\", \"sinks\", \"q_descale\", \"k_descale\", "
            "\"v_descale\", \"dout\", \"dq\", \"dk\", \"dv\", \"k_cache\", "
            "\"v_cache\", \"cu_seqlens_q\", "
            "\"cu_seqlens_k\", \"seqused_k\", \"block_table\", \"seqlens_k\", "
            "got \"w\"");
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
          R"({"name": "o", "role": "output", "dtype": "bf16", "shape": ["b", "sq", 32, 128],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}},)",
          ""),
      "manifest: tensors: missing tensor \"o\"");
  EXPECT_EQ(errorWith("\"num_kv_heads\": 8", "\"num_kv_heads\": 5"),
            "manifest: problem.num_kv_heads: 5 does not divide num_q_heads 32");
}

/// Each tensor's alignment (version 2) and the global one (version 1).
TEST(ManifestTest, RejectsBadAlignment) {
  const std::string lse = R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})";
  auto lseWith = [&](const std::string &alignment) {
    return errorWith(lse, R"(["b", 32, "sq"],
     "alignment": )" + alignment +
                              "}");
  };
  EXPECT_EQ(errorWith(lse, R"(["b", 32, "sq"]})"),
            "manifest: tensors[4].alignment: missing; fa4_abi_version 2 gives "
            "each tensor its own {\"base_bytes\", \"stride_bytes\"}");
  EXPECT_EQ(lseWith(R"({"stride_bytes": 4})"),
            "manifest: tensors[4].alignment.base_bytes: missing");
  EXPECT_EQ(lseWith(R"({"base_bytes": 4})"),
            "manifest: tensors[4].alignment.stride_bytes: missing");
  EXPECT_EQ(lseWith(R"({"base_bytes": 12, "stride_bytes": 4})"),
            "manifest: tensors[4].alignment.base_bytes: must be a power of "
            "two");
  EXPECT_EQ(lseWith(R"({"base_bytes": 8192, "stride_bytes": 4})"),
            "manifest: tensors[4].alignment.base_bytes: 8192 is out of range "
            "[1, 4096]");
  EXPECT_EQ(lseWith(R"({"base_bytes": 4, "stride_bytes": 0})"),
            "manifest: tensors[4].alignment.stride_bytes: 0 is out of range "
            "[1, 4096]");
  EXPECT_EQ(lseWith(R"({"base_bytes": 4, "stride_bytes": "4"})"),
            "manifest: tensors[4].alignment.stride_bytes: expected an "
            "integer, got string");
  EXPECT_EQ(lseWith("4"),
            "manifest: tensors[4].alignment: expected an object, got number");
  EXPECT_EQ(
      lseWith(
          R"({"base_bytes": 4, "stride_bytes": 4, "unit_stride_last_dim": true})"),
      "manifest: tensors[4].alignment.unit_stride_last_dim: unknown "
      "key; it applies to every tensor: give it in the top-level "
      "alignment");

  // Version 2's top level has no base_bytes or stride_bytes.
  const std::string top = R"("alignment": {"unit_stride_last_dim": true})";
  EXPECT_EQ(
      errorWith(
          top,
          R"("alignment": {"base_bytes": 16, "stride_bytes": 16, "unit_stride_last_dim": true})"),
      "manifest: alignment.base_bytes: unknown key; fa4_abi_version 2 gives "
      "base_bytes and stride_bytes per tensor, in tensors[i].alignment; only "
      "version 1 has them here");
  EXPECT_EQ(
      errorWith(
          top,
          R"("alignment": {"unit_stride_last_dim": true, "stride_bytes": 16})"),
      "manifest: alignment.stride_bytes: unknown key; fa4_abi_version 2 "
      "gives base_bytes and stride_bytes per tensor, in tensors[i].alignment; "
      "only version 1 has them here");
  EXPECT_EQ(errorWith(top, R"("alignment": {})"),
            "manifest: alignment.unit_stride_last_dim: missing");

  // A version 1 manifest relabelled 2 lacks the per-tensor alignment.
  EXPECT_EQ(manifestError(manifestV1With("\"fa4_abi_version\": 1",
                                         "\"fa4_abi_version\": 2")),
            "manifest: tensors[0].alignment: missing; fa4_abi_version 2 gives "
            "each tensor its own {\"base_bytes\", \"stride_bytes\"}");
  // A version 2 manifest relabelled 1 has a key version 1 does not know.
  EXPECT_EQ(manifestError(manifestWith("\"fa4_abi_version\": 2",
                                       "\"fa4_abi_version\": 1")),
            "manifest: tensors[0].alignment: unknown key; per-tensor "
            "alignment needs fa4_abi_version 2; version 1 has only the "
            "top-level alignment");

  // Version 1: the global rules.
  const std::string global =
      R"("alignment": {"base_bytes": 16, "stride_bytes": 16, "unit_stride_last_dim": true})";
  EXPECT_EQ(
      manifestError(manifestV1With(
          global,
          R"("alignment": {"stride_bytes": 16, "unit_stride_last_dim": true})")),
      "manifest: alignment.base_bytes: missing; fa4_abi_version 1 gives "
      "base_bytes and stride_bytes here, for every tensor");
  EXPECT_EQ(
      manifestError(manifestV1With(
          global,
          R"("alignment": {"base_bytes": 16, "unit_stride_last_dim": true})")),
      "manifest: alignment.stride_bytes: missing; fa4_abi_version 1 gives "
      "base_bytes and stride_bytes here, for every tensor");
  EXPECT_EQ(
      manifestError(manifestV1With(
          global,
          R"("alignment": {"base_bytes": 24, "stride_bytes": 16, "unit_stride_last_dim": true})")),
      "manifest: alignment.base_bytes: must be a power of two");
  EXPECT_EQ(
      manifestError(manifestV1With(
          global, R"("alignment": {"base_bytes": 16, "stride_bytes": 16})")),
      "manifest: alignment.unit_stride_last_dim: missing");
}

// Found by runtime/fuzz/ManifestFuzzer.cpp: with unit_stride_last_dim false,
// validation accepted a last-dim stride other than 1 (0 for an input), and
// the kernel, which reads that dim contiguously, read outside the bytes
// validation measured.
TEST(ManifestTest, RefusesALastDimOtherThanContiguous) {
  const std::string expected =
      "manifest: alignment.unit_stride_last_dim: must be true: fa4 kernels "
      "read and write the last dim contiguously";
  EXPECT_EQ(errorWith(R"("alignment": {"unit_stride_last_dim": true})",
                      R"("alignment": {"unit_stride_last_dim": false})"),
            expected);
  EXPECT_EQ(manifestError(manifestV1With(R"("unit_stride_last_dim": true)",
                                         R"("unit_stride_last_dim": false)")),
            expected);
}

// Found by the checks of runtime/fuzz/ManifestFuzzer.cpp (the module's info
// against its manifest), on a hand-edited seed: the tensors' stride rules
// combine (their lcm) into fa4_kernel_info.stride_align_bytes, an int32,
// which 4096, 4095 and 4093 overflowed (68652380160 read back as a rule
// that meets none of them).
TEST(ManifestTest, RefusesStrideRulesThatCombinePast4096) {
  std::string json = manifestWith({{R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16, "stride_bytes": 16}})",
                                    R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16, "stride_bytes": 4096}})"},
                                   {R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})",
                                    R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 4, "stride_bytes": 4095}})"},
                                   {R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})",
                                    R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4093}})"}});
  EXPECT_EQ(manifestError(json),
            "manifest: tensors: stride_bytes 4096, 16, 16, 4095, 4093 combine "
            "to a rule of 68652380160 bytes (their lcm); at most 4096");
  // Rules that combine within 4096 are read (CAPITest: their lcm).
  EXPECT_EQ(manifestError(
                edited(json, {{"4096", "16"}, {"4095", "12"}, {"4093", "4"}})),
            "no error");
}

/// cuTensorMapEncodeTiled needs a 16-byte-aligned address and strides.
TEST(ManifestTest, RejectsTensorMapOnWeaklyAlignedTensor) {
  const std::string q = R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16, "stride_bytes": 16})";
  EXPECT_EQ(errorWith(q, R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16, "stride_bytes": 8})"),
            "manifest: params[0].tensor: tensor \"q\" is read through a "
            "tensor map, which needs base_bytes and stride_bytes multiples of "
            "16 (cuTensorMapEncodeTiled rule), but tensors[0].alignment has "
            "base_bytes 16, stride_bytes 8");
  EXPECT_EQ(errorWith(q, R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 4, "stride_bytes": 16})"),
            "manifest: params[0].tensor: tensor \"q\" is read through a "
            "tensor map, which needs base_bytes and stride_bytes multiples of "
            "16 (cuTensorMapEncodeTiled rule), but tensors[0].alignment has "
            "base_bytes 4, stride_bytes 16");
  // Stricter rules are fine.
  EXPECT_EQ(errorWith(q, R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 128, "stride_bytes": 32})"),
            "no error");
  EXPECT_EQ(
      manifestError(manifestV1With(R"("base_bytes": 16, "stride_bytes": 16)",
                                   R"("base_bytes": 8, "stride_bytes": 16)")),
      "manifest: params[0].tensor: tensor \"q\" is read through a "
      "tensor map, which needs base_bytes and stride_bytes multiples of "
      "16 (cuTensorMapEncodeTiled rule), but alignment has base_bytes "
      "8, stride_bytes 16");
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
            "expected a size symbol (b, sq, skv, hq, hkv, splits), "
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
            "expected one of \"b\", \"sq\", \"skv\", \"hq\", \"hkv\", "
            "\"splits\"");
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
            "manifest: launch.cluster[0]: 0 is out of range [1, 16]");
}

/// binary.file is data from outside: only a plain name in the manifest's
/// directory, never a path that leads elsewhere.
TEST(ManifestTest, RefusesABinaryFileThatIsNotAPlainName) {
  const std::string file = R"("file": "fa4_attn_fwd_sm90a.cubin")";
  auto fileError = [&](const std::string &name) {
    return errorWith(file, "\"file\": \"" + name + "\"");
  };
  const std::string rule =
      "; expected a plain file name in the manifest's directory (no '/', not "
      "\".\" or \"..\", no control characters, at most 255 bytes)";
  EXPECT_EQ(fileError("../../etc/passwd"),
            "manifest: binary.file: \"../../etc/passwd\" contains '/'" + rule);
  EXPECT_EQ(fileError("/etc/passwd"),
            "manifest: binary.file: \"/etc/passwd\" is an absolute path" +
                rule);
  EXPECT_EQ(fileError("sub/kernel.cubin"),
            "manifest: binary.file: \"sub/kernel.cubin\" contains '/'" + rule);
  EXPECT_EQ(fileError(""), "manifest: binary.file: \"\" is empty" + rule);
  EXPECT_EQ(fileError(".."),
            "manifest: binary.file: \"..\" names a directory" + rule);
  EXPECT_EQ(fileError("."),
            "manifest: binary.file: \".\" names a directory" + rule);
  // A NUL would cut the name short where the runtime opens it.
  EXPECT_EQ(fileError(R"(kernel.cubin\u0000.txt)"),
            "manifest: binary.file: \"kernel.cubin\\x00.txt\" has a control "
            "character at byte 12" +
                rule);
  EXPECT_EQ(fileError(R"(a\nb)"),
            "manifest: binary.file: \"a\\x0ab\" has a control character at "
            "byte 1" +
                rule);
  EXPECT_EQ(fileError(std::string(256, 'a')),
            "manifest: binary.file: \"" + std::string(256, 'a') +
                "\" is 256 bytes long, more than 255" + rule);
  EXPECT_EQ(fileError(std::string(255, 'a')), "no error");
  // The decode variant's binary by the same rule.
  EXPECT_EQ(manifestError(decodeVariantManifestJson(
                {{R"("file": "fa4_attn_fwd_decode_sm90a.cubin")",
                  R"("file": "../fa4_attn_fwd_decode_sm90a.cubin")"}})),
            "manifest (decode.manifest): binary.file: "
            "\"../fa4_attn_fwd_decode_sm90a.cubin\" contains '/'" +
                rule);
  // The name and its directory, kept apart for the reader.
  Manifest manifest = goodManifest();
  EXPECT_EQ(manifest.binaryDir, "/kernels");
  EXPECT_EQ(manifest.binaryFile, "fa4_attn_fwd_sm90a.cubin");
}

/// Without the binary's own record of its parameters, what a manifest can
/// be checked against is itself: a dropped or duplicated parameter.
TEST(ManifestTest, RefusesADuplicatedParam) {
  EXPECT_EQ(errorWith(R"({"kind": "pointer", "tensor": "lse"},)",
                      R"({"kind": "pointer", "tensor": "o"},)"),
            "manifest: params[4]: duplicates params[3] (pointer to tensor "
            "\"o\"); a kernel takes each argument once");
  EXPECT_EQ(errorWith(R"({"kind": "scalar", "type": "i32", "value": "skv"},)",
                      R"({"kind": "scalar", "type": "i32", "value": "sq"},)"),
            "manifest: params[6]: duplicates params[5] (i32 scalar \"sq\"); a "
            "kernel takes each argument once");
  const std::string kMap =
      R"({"kind": "tensor_map", "tensor": "k", "box": [1, 128, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},)";
  EXPECT_EQ(errorWith(kMap, kMap + "\n    " + kMap),
            "manifest: params[2]: duplicates params[1] (tensor map of tensor "
            "\"k\", box [1, 128, 1, 64]); a kernel takes each argument once");
  EXPECT_EQ(errorIn(workspaceManifestJson(), R"({"kind": "workspace"}, )",
                    R"({"kind": "workspace"}, {"kind": "workspace"}, )"),
            "manifest: combine.params[1]: duplicates combine.params[0] (the "
            "workspace); a kernel takes each argument once");
  // Two literals may be equal; a second map of a tensor with another box
  // is another argument (as a pointer and a map of one tensor are).
  EXPECT_EQ(errorWith(R"({"kind": "scalar", "type": "f32", "value": 0.5})",
                      R"({"kind": "scalar", "type": "f32", "value": 0.5},
    {"kind": "scalar", "type": "f32", "value": 0.5})"),
            "no error");
  EXPECT_EQ(errorWith(kMap, kMap + R"(
    {"kind": "tensor_map", "tensor": "k", "box": [1, 64, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},)"),
            "no error");
}

TEST(ManifestTest, RefusesADroppedTensorParam) {
  EXPECT_EQ(errorWith(R"(
    {"kind": "pointer", "tensor": "lse"},)",
                      ""),
            "manifest: params: no \"pointer\" or \"tensor_map\" parameter "
            "passes tensor \"lse\"; expected one for every tensor the kernel "
            "reads or writes");
  EXPECT_EQ(
      errorWith(
          R"({"kind": "tensor_map", "tensor": "v", "box": [1, 128, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},)",
          ""),
      "manifest: params: no \"pointer\" or \"tensor_map\" parameter passes "
      "tensor \"v\"; expected one for every tensor the kernel reads or "
      "writes");
  // The twin's own parameters by the same rule.
  std::string twin = persistentTwinOwnLaunchManifestJson();
  size_t twinAt = twin.find("\"twin\"");
  size_t pointer = twin.find(R"({"kind": "pointer", "tensor": "o"},)", twinAt);
  ASSERT_NE(pointer, std::string::npos);
  EXPECT_EQ(manifestError(twin.erase(pointer, 35)),
            "manifest: twin.params: no \"pointer\" or \"tensor_map\" "
            "parameter passes tensor \"o\"; expected one for every tensor the "
            "kernel reads or writes");
  // The combine kernel reads the workspace, not the inputs.
  EXPECT_EQ(manifestError(workspaceManifestJson()), "no error");
}

/// CUDA's limits on a launch, each launch of the manifest.
TEST(ManifestTest, RefusesALaunchPastCudasLimits) {
  EXPECT_EQ(errorWith(R"("block": [384, 1, 1])", R"("block": [2048, 1, 1])"),
            "manifest: launch.block[0]: 2048 is out of range [1, 1024]");
  EXPECT_EQ(errorWith(R"("block": [384, 1, 1])", R"("block": [384, 2, 2])"),
            "manifest: launch.block: more than 1024 threads per block");
  EXPECT_EQ(errorWith(R"("cluster": [1, 1, 1])", R"("cluster": [4, 4, 2])"),
            "manifest: launch.cluster: 32 CTAs per cluster; at most 16 (the "
            "largest cluster sm_90 and sm_100 launch)");
  EXPECT_EQ(errorWith(R"("cluster": [1, 1, 1])", R"("cluster": [32, 1, 1])"),
            "manifest: launch.cluster[0]: 32 is out of range [1, 16]");
  EXPECT_EQ(errorWith(R"("cluster": [1, 1, 1])", R"("cluster": [4, 2, 2])"),
            "no error");
  EXPECT_EQ(errorWith(R"("dynamic_smem_bytes": 200000)",
                      R"("dynamic_smem_bytes": 232449)"),
            "manifest: launch.dynamic_smem_bytes: 232449 is out of range [0, "
            "232448] (227 KiB, the most shared memory a block may opt in to "
            "on sm_90 and sm_100)");
  EXPECT_EQ(errorWith(R"("dynamic_smem_bytes": 200000)",
                      R"("dynamic_smem_bytes": 232448)"),
            "no error");
  EXPECT_EQ(errorIn(workspaceManifestJson(), R"("block": [128, 1, 1])",
                    R"("block": [128, 16, 1])"),
            "manifest: combine.launch.block: more than 1024 threads per block");
  EXPECT_EQ(errorIn(persistentTwinOwnLaunchManifestJson(),
                    R"("dynamic_smem_bytes": 150000)",
                    R"("dynamic_smem_bytes": 300000)"),
            "manifest: twin.launch.dynamic_smem_bytes: 300000 is out of range "
            "[0, 232448] (227 KiB, the most shared memory a block may opt in "
            "to on sm_90 and sm_100)");
}

/// The tensors are what attention reads and writes: its roles, its dtype
/// and the BSHD shapes of its problem.
TEST(ManifestTest, RefusesTensorsThatDisagreeWithTheProblem) {
  EXPECT_EQ(errorWith(R"({"name": "o", "role": "output")",
                      R"({"name": "o", "role": "input")"),
            "manifest: tensors[3].role: tensor \"o\" is written by attention; "
            "expected \"output\"");
  EXPECT_EQ(errorWith(R"({"name": "q", "role": "input")",
                      R"({"name": "q", "role": "output")"),
            "manifest: tensors[0].role: tensor \"q\" is read by attention; "
            "expected \"input\"");
  EXPECT_EQ(errorWith(R"({"name": "k", "role": "input", "dtype": "bf16")",
                      R"({"name": "k", "role": "input", "dtype": "f16")"),
            "manifest: tensors[1].dtype: expected \"bf16\" (problem.dtype), "
            "got \"f16\"");
  EXPECT_EQ(errorWith(R"("role": "output", "dtype": "f32")",
                      R"("role": "output", "dtype": "bf16")"),
            "manifest: tensors[4].dtype: expected \"f32\" (the LSE is f32), "
            "got \"bf16\"");
  const std::string q = R"("shape": ["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16)";
  auto qShape = [&](const std::string &shape) {
    return errorWith(q, "\"shape\": " + shape + R"(,
     "alignment": {"base_bytes": 16)");
  };
  const std::string qRule = "; tensor \"q\" is [b, sq, hq, dqk] (BSHD)";
  EXPECT_EQ(qShape(R"(["b", "sq", 32, 64])"),
            "manifest: tensors[0].shape[3]: expected 128 (problem.qk_depth), "
            "got 64" +
                qRule);
  EXPECT_EQ(qShape(R"(["b", "skv", 32, 128])"),
            "manifest: tensors[0].shape[1]: expected \"sq\", got \"skv\"" +
                qRule);
  EXPECT_EQ(qShape(R"(["b", "sq", 16, 128])"),
            "manifest: tensors[0].shape[2]: expected \"hq\" or 32 "
            "(problem.num_q_heads), got 16" +
                qRule);
  EXPECT_EQ(qShape(R"(["b", 113, 32, 128])"),
            "manifest: tensors[0].shape[1]: expected \"sq\", got 113" + qRule);
  EXPECT_EQ(qShape(R"(["b", "sq", 4096])"),
            "manifest: tensors[0].shape: has 3 entries" + qRule);
  EXPECT_EQ(qShape(R"(["b", "sq", "hq", 128])"), "no error");
  // A size the problem fixes may be written as the integer.
  EXPECT_EQ(manifestError(manifestWith({{R"("seq_q": -1)", R"("seq_q": 113)"},
                                        {R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16)",
                                         R"(["b", 113, 32, 128],
     "alignment": {"base_bytes": 16)"}})),
            "no error");
  EXPECT_EQ(
      errorWith(R"("shape": ["b", 32, "sq"])", R"("shape": ["b", "sq", 32])"),
      "manifest: tensors[4].shape[1]: expected \"hq\" or 32 "
      "(problem.num_q_heads), got \"sq\"; tensor \"lse\" is [b, hq, sq] "
      "(BSHD)");
}

/// fa4/Limits.h: the sizes the compiler builds kernels for.
TEST(ManifestTest, RefusesAProblemPastTheLimits) {
  EXPECT_EQ(errorWith("\"num_q_heads\": 32", "\"num_q_heads\": 8192"),
            "manifest: problem.num_q_heads: 8192 is out of range [1, 4096] "
            "(fa4::limits::kMaxHeads)");
  EXPECT_EQ(errorWith("\"ov_depth\": 128", "\"ov_depth\": 2048"),
            "manifest: problem.ov_depth: 2048 is out of range [1, 1024] "
            "(fa4::limits::kMaxDepth)");
  EXPECT_EQ(errorWith("\"seq_q\": -1", "\"seq_q\": 2147483648"),
            "manifest: problem.seq_q: 2147483648 is out of range [-1, "
            "1073741823] (fa4::limits::kMaxSeqLen)");
  EXPECT_EQ(errorWith("\"batch\": -1", "\"batch\": 2199023255552"),
            "manifest: problem.batch: 2199023255552 is out of range [-1, "
            "1073741823] (fa4::limits::kMaxBatch)");
  EXPECT_EQ(errorWith("\"window_left\": -1", "\"window_left\": 4294967297"),
            "manifest: problem.mask.window_left: 4294967297 is out of range "
            "[-1, 1073741823] (fa4::limits::kMaxWindow; -1 is unbounded)");
}

TEST(ManifestTest, LoadsFromFile) {
  Manifest manifest = loadManifest(FA4_TEST_INPUTS_DIR "/manifest.json");
  EXPECT_EQ(manifest.binaryPath,
            FA4_TEST_INPUTS_DIR "/fa4_attn_fwd_sm90a.cubin");
  EXPECT_EQ(loadManifest(FA4_TEST_INPUTS_DIR "/manifest-v1.json").abiVersion,
            1);
  try {
    loadManifest("/nonexistent/manifest.json");
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(),
                 "cannot open manifest '/nonexistent/manifest.json'");
  }
}

TEST(ManifestTest, ReadsAWorkspaceSplitK) {
  Manifest manifest = parseManifest(workspaceManifestJson(), "/kernels");
  EXPECT_EQ(manifest.abiVersion, 3);
  ASSERT_EQ(manifest.params.size(), 12u);
  EXPECT_TRUE(std::holds_alternative<WorkspaceParam>(manifest.params[11]));
  ASSERT_EQ(manifest.workspaceBytes.size(), 4u);
  EXPECT_EQ(manifest.workspaceBytes[0].kind, GridFactor::Kind::Constant);
  EXPECT_EQ(manifest.workspaceBytes[0].constant, 1032);
  EXPECT_EQ(manifest.workspaceBytes[3].symbol, Symbol::HeadsQ);
  ASSERT_TRUE(manifest.combine);
  EXPECT_EQ(manifest.combine->kernel, "fa4_attn_fwd_sm90a_combine");
  ASSERT_EQ(manifest.combine->params.size(), 3u);
  EXPECT_TRUE(
      std::holds_alternative<WorkspaceParam>(manifest.combine->params[0]));
  EXPECT_EQ(std::get<PointerParam>(manifest.combine->params[1]).tensor, 3u);
  EXPECT_EQ(manifest.combine->launch.block[0], 128u);
  EXPECT_EQ(manifest.combine->launch.grid[2][0].constant, 8);
  // A version 2 manifest has neither.
  EXPECT_FALSE(goodManifest().combine);
}

TEST(ManifestTest, RejectsABrokenWorkspaceSplitK) {
  auto workspaceError = [](const std::string &from, const std::string &to) {
    return errorIn(workspaceManifestJson(), from, to);
  };
  EXPECT_EQ(
      workspaceError(R"("fa4_abi_version": 3)", R"("fa4_abi_version": 2)"),
      "manifest: params[11].kind: expected one of \"tensor_map\", "
      "\"pointer\", \"scalar\", got \"workspace\" (a version 3 "
      "parameter)");
  EXPECT_EQ(errorWith(R"("dynamic_smem_bytes": 200000})",
                      R"("dynamic_smem_bytes": 200000}, "combine": {})"),
            "manifest: combine: unknown key; a version 3 key");
  EXPECT_EQ(
      workspaceError(R"("workspace": {"bytes": [1032, "b", "sq", "hq"]},)", ""),
      "manifest: workspace: missing; a workspace split-K gives both "
      "\"workspace\" and \"combine\"");
  EXPECT_EQ(
      workspaceError(R"("params": [{"kind": "workspace"}, )", R"("params": [)"),
      "manifest: combine: both kernels of a workspace split-K take the "
      "\"workspace\" parameter");
  EXPECT_EQ(workspaceError(R"("kernel": "fa4_attn_fwd_sm90a_combine")",
                           R"("kernel": "fa4_attn_fwd_sm90a")"),
            "manifest: combine.kernel: expected a kernel other than "
            "\"fa4_attn_fwd_sm90a\"");
  EXPECT_EQ(workspaceError(R"("block": [128, 1, 1])", R"("block": [128, 1])"),
            "manifest: combine.launch.block: has 2 entries; expected 3");
  EXPECT_EQ(workspaceError(R"([1032, "b", "sq", "hq"])", R"([1032, "d"])"),
            "manifest: workspace.bytes[1]: unknown size symbol \"d\"; expected "
            "one of \"b\", \"sq\", \"skv\", \"hq\", \"hkv\", \"splits\"");
}

TEST(ManifestTest, ReadsASplitPickedAtLaunch) {
  Manifest manifest = parseManifest(splitAtLaunchManifestJson(), "/kernels");
  EXPECT_EQ(manifest.abiVersion, 7);
  ASSERT_TRUE(manifest.splitAtLaunch);
  EXPECT_EQ(manifest.splitAtLaunch->maxPartitions, 132);
  EXPECT_EQ(manifest.splitAtLaunch->minKeysPerPartition, 384);
  EXPECT_EQ(manifest.splitAtLaunch->keyTile, 96);
  // Before version 9 the minimum keys alone bound the count.
  EXPECT_EQ(manifest.splitAtLaunch->minPartitions, 1);
  EXPECT_EQ(parseManifest(splitAtLaunchV9ManifestJson(), "")
                .splitAtLaunch->minPartitions,
            12);
  EXPECT_EQ(manifest.launch.grid[0][0].symbol, Symbol::Splits);
  EXPECT_EQ(manifest.workspaceBytes[1].symbol, Symbol::Splits);
  const auto *count = std::get_if<ScalarParam>(&manifest.combine->params[3]);
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count->symbol, Symbol::Splits);
  // A version 3 split-K has no rule.
  EXPECT_FALSE(parseManifest(workspaceManifestJson(), "").splitAtLaunch);
}

TEST(ManifestTest, RejectsABrokenSplitAtLaunch) {
  auto splitError = [](const std::string &from, const std::string &to) {
    return errorIn(splitAtLaunchManifestJson(), from, to);
  };
  EXPECT_EQ(
      splitError(R"("fa4_abi_version": 7)", R"("fa4_abi_version": 6)"),
      "manifest: workspace.split_at_launch: unknown key; a version 7 key");
  // "splits" needs the rule that picks it.
  EXPECT_EQ(splitError(R"(,
                "split_at_launch": {"max_partitions": 132,
                                    "min_keys_per_partition": 384,
                                    "key_tile": 96})",
                       ""),
            "manifest: workspace: the size symbol \"splits\" is used but has "
            "no rule: a split-K picked at launch gives "
            "workspace.split_at_launch (version 7)");
  EXPECT_EQ(splitError(R"("max_partitions": 132)", R"("max_partitions": 0)"),
            "manifest: workspace.split_at_launch.max_partitions: 0 is out of "
            "range [1, 65535]");
  EXPECT_EQ(splitError(R"("key_tile": 96)", R"("key_tile": "bn")"),
            "manifest: workspace.split_at_launch.key_tile: expected an "
            "integer, got string");
  EXPECT_EQ(splitError(R"("key_tile": 96)",
                       R"("key_tile": 96, "min_partitions": 12)"),
            "manifest: workspace.split_at_launch.min_partitions: unknown key; "
            "a version 9 key");
  auto v9Error = [](const std::string &from, const std::string &to) {
    return errorIn(splitAtLaunchV9ManifestJson(), from, to);
  };
  EXPECT_EQ(v9Error(R"(, "min_partitions": 12)", ""),
            "manifest: workspace.split_at_launch.min_partitions: missing");
  EXPECT_EQ(v9Error(R"("min_partitions": 12)", R"("min_partitions": 133)"),
            "manifest: workspace.split_at_launch.min_partitions: 133 is out "
            "of range [1, 132]");
  // A tensor's size is never the partition count.
  EXPECT_EQ(
      errorWith(R"("shape": ["b", 32, "sq"])",
                R"("shape": ["b", 32, "splits"])"),
      "manifest: tensors[4].shape[2]: \"splits\" is the split-K partition "
      "count the runtime picks, not a tensor size; expected one of \"b\", "
      "\"sq\", \"skv\", \"hq\", \"hkv\"");
}

TEST(ManifestTest, ReadsADecodeVariant) {
  Manifest manifest = parseManifest(decodeVariantManifestJson(), "/kernels");
  EXPECT_EQ(manifest.abiVersion, 8);
  ASSERT_TRUE(manifest.decode);
  EXPECT_EQ(manifest.decode->maxSeqQ, 16);
  const Manifest &variant = *manifest.decode->manifest;
  EXPECT_EQ(variant.kernel, "fa4_attn_fwd_decode_sm90a");
  // Its binary lies beside the kernel's.
  EXPECT_EQ(variant.binaryPath, "/kernels/fa4_attn_fwd_decode_sm90a.cubin");
  EXPECT_TRUE(variant.splitAtLaunch);
  EXPECT_FALSE(manifest.splitAtLaunch);
  EXPECT_FALSE(variant.decode);
  // Before version 8 there is none.
  EXPECT_FALSE(parseManifest(splitAtLaunchManifestJson(), "").decode);
}

TEST(ManifestTest, RejectsABrokenDecodeVariant) {
  auto error = [](const std::string &from, const std::string &to) {
    return errorIn(decodeVariantManifestJson(), from, to);
  };
  EXPECT_EQ(manifestError(edited(
                decodeVariantManifestJson(),
                {{R"("fa4_abi_version": 8)", R"("fa4_abi_version": 7)"}})),
            "manifest: decode: unknown key; a version 8 key");
  EXPECT_EQ(error(R"("max_seq_q": 16)", R"("max_seq_q": 0)"),
            "manifest: decode.max_seq_q: 0 is out of range [1, 1073741824]");
  EXPECT_EQ(error(R"("max_seq_q": 16, )", ""),
            "manifest: decode.max_seq_q: missing");
  // The variant's own fields are read by the same rules, named as its.
  EXPECT_EQ(
      error(R"("kernel": "fa4_attn_fwd_decode_sm90a")", R"("kernel": "")"),
      "manifest (decode.manifest): kernel: empty kernel name");
  EXPECT_EQ(manifestError(decodeVariantManifestJson(
                {{R"("scale": 0.08838834764831845)", R"("scale": 0.125)"}})),
            "manifest: decode.manifest.problem: the decode variant computes "
            "another attention than the kernel (dtype, output dtype, heads, "
            "depths, mask, scale, softcap, sinks, descales, LSE and pass "
            "must match)");
}

TEST(ManifestTest, ReadsAProgrammaticDependentLaunch) {
  const std::string launch = R"("dynamic_smem_bytes": 200000})";
  const std::string programmatic =
      R"("dynamic_smem_bytes": 200000, "programmatic_dependent_launch": true})";
  Manifest manifest = parseManifest(
      manifestWith({{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 4)"},
                    {launch, programmatic}}),
      "/kernels");
  EXPECT_EQ(manifest.abiVersion, 4);
  EXPECT_TRUE(manifest.launch.programmaticDependentLaunch);
  // Optional in version 4: without it, plain launches.
  EXPECT_FALSE(parseManifest(manifestWith(R"("fa4_abi_version": 2)",
                                          R"("fa4_abi_version": 4)"),
                             "/kernels")
                   .launch.programmaticDependentLaunch);
  EXPECT_FALSE(goodManifest().launch.programmaticDependentLaunch);
  // The combine kernel's launch has its own.
  Manifest workspace = parseManifest(
      edited(workspaceManifestJson(),
             {{R"("fa4_abi_version": 3)", R"("fa4_abi_version": 4)"},
              {R"("cluster": [1, 1, 1], "dynamic_smem_bytes": 0})",
               R"("cluster": [1, 1, 1], "dynamic_smem_bytes": 0,
                  "programmatic_dependent_launch": true})"}}),
      "/kernels");
  EXPECT_FALSE(workspace.launch.programmaticDependentLaunch);
  EXPECT_TRUE(workspace.combine->launch.programmaticDependentLaunch);
}

TEST(ManifestTest, RejectsABrokenProgrammaticDependentLaunch) {
  const std::string launch = R"("dynamic_smem_bytes": 200000})";
  EXPECT_EQ(
      errorWith(launch, R"("dynamic_smem_bytes": 200000,
                           "programmatic_dependent_launch": true})"),
      "manifest: launch.programmatic_dependent_launch: unknown key; a version "
      "4 key");
  EXPECT_EQ(
      manifestError(
          manifestWith({{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 4)"},
                        {launch, R"("dynamic_smem_bytes": 200000,
                       "programmatic_dependent_launch": 1})"}})),
      "manifest: launch.programmatic_dependent_launch: expected a boolean, "
      "got number");
}

TEST(ManifestTest, ReadsAPersistentLaunch) {
  Manifest manifest = parseManifest(persistentManifestJson(), "/kernels");
  ASSERT_TRUE(manifest.launch.persistent);
  EXPECT_EQ(manifest.launch.persistent->ctasPerSM, 1u);
  EXPECT_EQ(manifest.launch.persistent->maxSeqKV, 2048);
  EXPECT_FALSE(goodManifest().launch.persistent);
}

TEST(ManifestTest, RejectsABrokenPersistentLaunch) {
  auto persistentError = [](const std::string &from, const std::string &to) {
    return errorIn(persistentManifestJson(), from, to);
  };
  EXPECT_EQ(
      persistentError(R"("fa4_abi_version": 4)", R"("fa4_abi_version": 3)"),
      "manifest: launch.persistent: unknown key; a version 4 key");
  EXPECT_EQ(persistentError(R"([1], [])", R"(["b"], [])"),
            "manifest: launch.persistent: a persistent launch needs a "
            "one-dimensional grid (y and z of 1) and no cluster");
  EXPECT_EQ(
      persistentError(R"("cluster": [1, 1, 1])", R"("cluster": [2, 1, 1])"),
      "manifest: launch.persistent: a persistent launch needs a "
      "one-dimensional grid (y and z of 1) and no cluster");
  EXPECT_EQ(persistentError(R"("ctas_per_sm": 1)", R"("ctas_per_sm": 0)"),
            "manifest: launch.persistent.ctas_per_sm: 0 is out of range [1, "
            "32]");
  EXPECT_EQ(persistentError(R"(, "max_seq_kv": 2048)", ""),
            "manifest: launch.persistent.max_seq_kv: missing");
}

TEST(ManifestTest, ReadsAPersistentTwin) {
  Manifest manifest = parseManifest(persistentTwinManifestJson(), "/kernels");
  ASSERT_TRUE(manifest.launch.persistent);
  EXPECT_EQ(manifest.launch.persistent->kernel, "attention_persistent");
  EXPECT_EQ(manifest.launch.persistent->maxSeqKV, 2048);
  // Version 4: the kernel loops itself.
  EXPECT_EQ(parseManifest(persistentManifestJson(), "/kernels")
                .launch.persistent->kernel,
            "");
}

TEST(ManifestTest, RejectsABrokenPersistentTwin) {
  auto twinError = [](const std::string &from, const std::string &to) {
    return errorIn(persistentTwinManifestJson(), from, to);
  };
  EXPECT_EQ(twinError(R"("fa4_abi_version": 5)", R"("fa4_abi_version": 4)"),
            "manifest: launch.persistent.kernel: unknown key; a version 5 "
            "key");
  EXPECT_EQ(twinError(R"("attention_persistent")", R"("")"),
            "manifest: launch.persistent.kernel: empty kernel name");
  EXPECT_EQ(twinError(R"("attention_persistent")", "7"),
            "manifest: launch.persistent.kernel: expected a string, got "
            "number");
}

TEST(ManifestTest, ReadsATwinsOwnLaunch) {
  Manifest manifest =
      parseManifest(persistentTwinOwnLaunchManifestJson(), "/kernels");
  ASSERT_TRUE(manifest.twin);
  // Its own K box (112 keys against the kernel's), block and work tiles.
  ASSERT_EQ(manifest.twin->params.size(), manifest.params.size());
  EXPECT_EQ(manifest.twin->launch.block[0], 384u);
  EXPECT_EQ(manifest.twin->launch.dynamicSmemBytes, 150000u);
  ASSERT_EQ(manifest.twin->launch.grid[0].size(), 3u);
  EXPECT_EQ(manifest.twin->launch.grid[0][0].divisor, 128);
  EXPECT_EQ(manifest.launch.grid[0][0].divisor, 64);
  // It runs under the kernel's rule.
  ASSERT_TRUE(manifest.twin->launch.persistent);
  EXPECT_EQ(manifest.twin->launch.persistent->maxSeqKV, 2048);
  // Version 5: no twin of its own.
  EXPECT_FALSE(parseManifest(persistentTwinManifestJson(), "/kernels").twin);
}

TEST(ManifestTest, RejectsABrokenTwinLaunch) {
  auto twinError = [](const std::string &from, const std::string &to) {
    return errorIn(persistentTwinOwnLaunchManifestJson(), from, to);
  };
  EXPECT_EQ(twinError(R"("fa4_abi_version": 6)", R"("fa4_abi_version": 5)"),
            "manifest: twin: unknown key; a version 6 key");
  EXPECT_EQ(twinError(R"("kernel": "attention_persistent")", R"("unused": 0)"),
            "manifest: launch.persistent.unused: unknown key");
  EXPECT_EQ(twinError(R"({"ceil_div": ["sq", 128]}, "hq", "b"], [1])",
                      R"({"ceil_div": ["sq", 128]}, "hq"], ["b"])"),
            "manifest: twin.launch: a persistent twin needs a "
            "one-dimensional grid (y and z of 1) and no cluster");
}

TEST(ManifestTest, ReadsAClusteredKernelBesideItsTwin) {
  Manifest manifest = parseManifest(clusteredTwinManifestJson(), "/kernels");
  EXPECT_EQ(manifest.abiVersion, 10);
  EXPECT_EQ(manifest.launch.cluster[0], 2u);
  ASSERT_EQ(manifest.launch.grid[0].size(), 4u);
  EXPECT_EQ(manifest.launch.grid[0][1].constant, 2);
  ASSERT_TRUE(manifest.launch.persistent);
  ASSERT_TRUE(manifest.twin);
  EXPECT_EQ(manifest.twin->launch.cluster[0], 1u);
}

TEST(ManifestTest, RejectsABrokenClusteredKernelBesideItsTwin) {
  auto clusteredError = [](const std::string &from, const std::string &to) {
    return errorIn(clusteredTwinManifestJson(), from, to);
  };
  // Before version 10 a persistent rule's launch has no cluster.
  EXPECT_EQ(
      clusteredError(R"("fa4_abi_version": 10)", R"("fa4_abi_version": 9)"),
      "manifest: launch.persistent: a persistent launch needs a "
      "one-dimensional grid (y and z of 1) and no cluster");
  // Clusters along x only.
  EXPECT_EQ(
      clusteredError(R"("cluster": [2, 1, 1])", R"("cluster": [2, 2, 1])"),
      "manifest: launch.persistent: a persistent launch needs a "
      "one-dimensional grid (y and z of 1) and clusters along x at most");
  // The twin may not inherit the cluster: it needs a launch of its own.
  std::string json = clusteredTwinManifestJson();
  size_t twin = json.find("\n  \"twin\": {");
  size_t launch = json.find("\n  \"launch\":", twin);
  ASSERT_NE(twin, std::string::npos);
  ASSERT_NE(launch, std::string::npos);
  EXPECT_EQ(manifestError(json.erase(twin, launch - twin)),
            "manifest: launch.cluster: a kernel launched in clusters runs its "
            "persistent twin on the twin's own launch (key \"twin\"), and "
            "this manifest has none");
  // Its grid stays one-dimensional.
  EXPECT_EQ(
      clusteredError(R"(2, "hq", "b"], [1], [])", R"(2, "hq"], ["b"], [])"),
      "manifest: launch.persistent: a persistent launch needs a "
      "one-dimensional grid (y and z of 1) and clusters along x at most");
  // The twin's own launch may run in pairs too, along x only.
  EXPECT_EQ(clusteredError(R"("cluster": [1, 1, 1],
               "dynamic_smem_bytes": 150000)",
                           R"("cluster": [1, 2, 1],
               "dynamic_smem_bytes": 150000)"),
            "manifest: twin.launch: a persistent twin needs a "
            "one-dimensional grid (y and z of 1) and clusters along x at "
            "most");
}

TEST(ManifestTest, ReadsLoopedKernelsInPairs) {
  // No twin: the kernel loops itself, in clusters of two.
  Manifest looped = parseManifest(
      edited(persistentManifestJson(),
             {{R"("fa4_abi_version": 4)", R"("fa4_abi_version": 10)"},
              {R"("cluster": [1, 1, 1])", R"("cluster": [2, 1, 1])"}}),
      "/kernels");
  EXPECT_EQ(looped.launch.cluster[0], 2u);
  ASSERT_TRUE(looped.launch.persistent);
  EXPECT_EQ(looped.launch.persistent->kernel, "");
  // A twin in pairs on its own launch.
  Manifest pairedTwin = parseManifest(pairedTwinManifestJson(), "/kernels");
  ASSERT_TRUE(pairedTwin.twin);
  EXPECT_EQ(pairedTwin.twin->launch.cluster[0], 2u);
  ASSERT_EQ(pairedTwin.twin->launch.grid[0].size(), 4u);
  EXPECT_EQ(pairedTwin.twin->launch.grid[0][1].constant, 2);
}

TEST(ManifestTest, ReadsTensorMapsTheKernelBuilds) {
  Manifest manifest = parseManifest(deviceMapsManifestJson(), "/kernels");
  EXPECT_EQ(manifest.abiVersion, 11);
  const auto &scratch = std::get<TensorMapScratchParam>(manifest.params[6]);
  ASSERT_EQ(scratch.maps.size(), 3u);
  EXPECT_EQ(scratch.maps[1].tensor, 1u);
  EXPECT_EQ(scratch.maps[1].box, (std::vector<uint32_t>{1, 128, 1, 64}));
  EXPECT_EQ(scratch.maps[2].swizzleBytes, 128u);
  EXPECT_EQ(scratch.bytesPerCta(), 384u);
  // The maps' rules are the tensor_map parameters': q 16-byte aligned.
  EXPECT_TRUE(manifest.tensors[0].readByTensorMap);
}

TEST(ManifestTest, RejectsBrokenTensorMapsTheKernelBuilds) {
  auto scratchError = [](const std::string &from, const std::string &to) {
    return errorIn(deviceMapsManifestJson(), from, to);
  };
  EXPECT_EQ(
      scratchError(R"("fa4_abi_version": 11)", R"("fa4_abi_version": 10)"),
      "manifest: params[6].kind: expected one of \"tensor_map\", \"pointer\", "
      "\"scalar\", \"workspace\", got \"tensor_map_scratch\" (a version 11 "
      "parameter)");
  EXPECT_EQ(scratchError(R"(    {"kind": "pointer", "tensor": "k"},
)",
                         ""),
            "manifest: params[5].maps[1].tensor: the kernel builds a tensor "
            "map of tensor \"k\" but takes no \"pointer\" parameter to it");
  EXPECT_EQ(scratchError(R"({"tensor": "v", "box": [1, 128, 1, 64])",
                         R"({"tensor": "k", "box": [1, 128, 1, 64])"),
            "manifest: params[6].maps[2].tensor: duplicates maps[1] (tensor "
            "\"k\"); the kernel builds one map per tensor");
  EXPECT_EQ(scratchError(R"({"tensor": "q", "box": [1, 64, 1, 64])",
                         R"({"tensor": "q", "box": [1, 64, 1, 128])"),
            "manifest: params[6].maps[0].box[3]: inner box of 128 x bf16 = "
            "256 bytes exceeds the 128B swizzle span (cuTensorMapEncodeTiled "
            "rule)");
  EXPECT_EQ(scratchError(R"("maps": [)", R"("mapz": [)"),
            "manifest: params[6].maps: missing");
}

} // namespace
