//===- TestManifest.h - The manifest the unit tests start from --*- C++ -*-===//

#ifndef FA4_RUNTIME_UNITTESTS_TESTMANIFEST_H
#define FA4_RUNTIME_UNITTESTS_TESTMANIFEST_H

#include "Manifest.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace fa4::rt::test {

inline std::string readInput(const char *name) {
  std::ifstream file(std::string(FA4_TEST_INPUTS_DIR "/") + name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

/// inputs/manifest.json: the docs/KernelABI.md example (GQA 32/8, d=128,
/// causal, with LSE), ABI version 2: q, k, v read by tensor maps (16-byte
/// rules), o and lse written with 4-byte stores (4-byte rules).
inline std::string goodManifestJson() { return readInput("manifest.json"); }

/// inputs/manifest-v1.json: the same kernel as ABI version 1, whose global
/// 16-byte rules apply to every tensor.
inline std::string goodManifestV1Json() {
  return readInput("manifest-v1.json");
}

/// `json` with each `from` (which must occur once) replaced by its `to`.
inline std::string
edited(std::string json,
       const std::vector<std::pair<std::string, std::string>> &edits) {
  for (const auto &[from, to] : edits) {
    size_t pos = json.find(from);
    EXPECT_NE(pos, std::string::npos) << "test bug: '" << from << "' not found";
    EXPECT_EQ(json.find(from, pos + 1), std::string::npos)
        << "test bug: '" << from << "' occurs twice";
    if (pos != std::string::npos)
      json.replace(pos, from.size(), to);
  }
  return json;
}

/// The good manifest, edited.
inline std::string
manifestWith(const std::vector<std::pair<std::string, std::string>> &edits) {
  return edited(goodManifestJson(), edits);
}

inline std::string manifestWith(const std::string &from,
                                const std::string &to) {
  return manifestWith({{from, to}});
}

/// The version 1 manifest, edited.
inline std::string manifestV1With(const std::string &from,
                                  const std::string &to) {
  return edited(goodManifestV1Json(), {{from, to}});
}

/// inputs/backward.json: a version 16 backward kernel as the reference
/// backward kernel's manifest reads (GQA 8/2, Dqk 64 != Dv 32, causal):
/// every tensor by pointer with element alignment, its strides, and a grid
/// with an integer factor (["b", 2]).
inline std::string backwardManifestJson() { return readInput("backward.json"); }

/// The backward manifest, edited.
inline std::string backwardManifestWith(
    const std::vector<std::pair<std::string, std::string>> &edits) {
  return edited(backwardManifestJson(), edits);
}

/// The same kernel compiled without LSE.
inline std::string manifestWithoutLse() {
  return manifestWith({{"\"has_lse\": true", "\"has_lse\": false"},
                       {R"(,
    {"name": "lse", "role": "output", "dtype": "f32", "shape": ["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})",
                        ""},
                       {R"(
    {"kind": "pointer", "tensor": "lse"},)",
                        ""},
                       {R"(
    {"kind": "scalar", "type": "i64", "value": "lse.stride.1"},)",
                        ""}});
}

/// The good manifest with attention sinks (version 14): problem.sinks, the
/// f32 [32] "sinks" tensor after lse and its pointer after lse's.
inline std::string sinksManifestJson() {
  return manifestWith(
      {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 14)"},
       {"\"has_lse\": true", "\"has_lse\": true, \"sinks\": true"},
       {R"(
    {"name": "lse", "role": "output", "dtype": "f32", "shape": ["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})",
        R"(
    {"name": "lse", "role": "output", "dtype": "f32", "shape": ["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}},
    {"name": "sinks", "role": "input", "dtype": "f32", "shape": [32],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})"},
       {R"(
    {"kind": "pointer", "tensor": "lse"},)",
        R"(
    {"kind": "pointer", "tensor": "lse"},
    {"kind": "pointer", "tensor": "sinks"},)"}});
}

/// Version 15: the good manifest as an FP8 kernel: e4m3 q, k and v read
/// by tensor maps of 64-column (64-byte) boxes under the 64-byte swizzle, o
/// in bf16 (problem.output_dtype), and q, k and v descaled as `q`, `k` and
/// `v` say ("tensor", "batch_head", or "" for none): each descale's key,
/// its f32 tensor after lse ([] or [b, 8]), its pointer after lse's and,
/// per (batch, kv head), its batch stride "<name>.stride.0".
inline std::string fp8ManifestJson(const std::string &q = "tensor",
                                   const std::string &k = "tensor",
                                   const std::string &v = "tensor") {
  std::string keys, tensors, params;
  const std::pair<const char *, std::string> descales[] = {
      {"q_descale", q}, {"k_descale", k}, {"v_descale", v}};
  for (const auto &[name, descale] : descales) {
    if (descale.empty())
      continue;
    keys += ", \"" + std::string(name) + "\": \"" + descale + "\"";
    tensors +=
        ",\n    {\"name\": \"" + std::string(name) +
        "\", \"role\": \"input\", \"dtype\": \"f32\", \"shape\": " +
        (descale == "batch_head" ? "[\"b\", 8]" : "[]") +
        ",\n     \"alignment\": {\"base_bytes\": 4, \"stride_bytes\": 4}}";
    params += "\n    {\"kind\": \"pointer\", \"tensor\": \"" +
              std::string(name) + "\"},";
    if (descale == "batch_head")
      params +=
          "\n    {\"kind\": \"scalar\", \"type\": \"i64\", \"value\": \"" +
          std::string(name) + ".stride.0\"},";
  }
  std::string map = R"(, "swizzle": "128B", "interleave": "none")";
  std::string fp8Map = R"(, "swizzle": "64B", "interleave": "none")";
  return manifestWith(
      {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 15)"},
       {R"("problem": {"dtype": "bf16",)",
        R"("problem": {"dtype": "e4m3", "output_dtype": "bf16",)"},
       {"\"has_lse\": true", "\"has_lse\": true" + keys},
       {R"({"name": "q", "role": "input", "dtype": "bf16")",
        R"({"name": "q", "role": "input", "dtype": "e4m3")"},
       {R"({"name": "k", "role": "input", "dtype": "bf16")",
        R"({"name": "k", "role": "input", "dtype": "e4m3")"},
       {R"({"name": "v", "role": "input", "dtype": "bf16")",
        R"({"name": "v", "role": "input", "dtype": "e4m3")"},
       {R"("tensor": "q", "box": [1, 64, 1, 64])" + map,
        R"("tensor": "q", "box": [1, 64, 1, 64])" + fp8Map},
       {R"("tensor": "k", "box": [1, 128, 1, 64])" + map,
        R"("tensor": "k", "box": [1, 128, 1, 64])" + fp8Map},
       {R"("tensor": "v", "box": [1, 128, 1, 64])" + map,
        R"("tensor": "v", "box": [1, 128, 1, 64])" + fp8Map},
       {R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})",
        R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})" +
            tensors},
       {R"(
    {"kind": "pointer", "tensor": "lse"},)",
        R"(
    {"kind": "pointer", "tensor": "lse"},)" +
            params}});
}

/// `json` (version 8 or later) with `variant` as its decode variant for up
/// to 16 query rows, under its own kernel and binary names.
inline std::string withDecodeVariant(const std::string &json,
                                     const std::string &variant) {
  std::string renamed =
      edited(variant, {{R"("kernel": "fa4_attn_fwd_sm90a")",
                        R"("kernel": "fa4_attn_fwd_decode_sm90a")"},
                       {R"("file": "fa4_attn_fwd_sm90a.cubin")",
                        R"("file": "fa4_attn_fwd_decode_sm90a.cubin")"}});
  size_t last = json.rfind('}');
  return json.substr(0, last) +
         ",\n  \"decode\": {\"max_seq_q\": 16, \"manifest\": " + renamed +
         "}\n}\n";
}

/// The good manifest as a version 3 workspace split-K: a "workspace"
/// parameter, the workspace size and a combine kernel.
inline std::string workspaceManifestJson() {
  return manifestWith({{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 3)"},
                       {R"({"kind": "scalar", "type": "f32", "value": 0.5}
  ],)",
                        R"({"kind": "scalar", "type": "f32", "value": 0.5},
    {"kind": "workspace"}
  ],)"},
                       {R"("dynamic_smem_bytes": 200000})",
                        R"("dynamic_smem_bytes": 200000},
  "workspace": {"bytes": [1032, "b", "sq", "hq"]},
  "combine": {"kernel": "fa4_attn_fwd_sm90a_combine",
              "params": [{"kind": "workspace"}, {"kind": "pointer", "tensor": "o"},
                         {"kind": "scalar", "type": "i32", "value": "b"}],
              "launch": {"grid": [["sq"], ["b"], [8]], "block": [128, 1, 1],
                         "cluster": [1, 1, 1], "dynamic_smem_bytes": 0}})"}});
}

/// Version 7: a workspace split-K whose partition count ("splits") the
/// runtime picks per launch: grid (splits, hkv, b x ceil(sq / 16)), the
/// workspace per partition, the count passed to the combine, and the rule
/// (at most 132 partitions of at least 384 keys, 96-key tiles).
inline std::string splitAtLaunchManifestJson() {
  return edited(
      workspaceManifestJson(),
      {{R"("fa4_abi_version": 3)", R"("fa4_abi_version": 7)"},
       {R"("grid": [[{"ceil_div": ["sq", 64]}], ["hq"], ["b"]])",
        R"("grid": [["splits"], ["hkv"], ["b", {"ceil_div": ["sq", 16]}]])"},
       {R"("workspace": {"bytes": [1032, "b", "sq", "hq"]},)",
        R"("workspace": {"bytes": [516, "splits", "b", "sq", "hq"],
                "split_at_launch": {"max_partitions": 132,
                                    "min_keys_per_partition": 384,
                                    "key_tile": 96}},)"},
       {R"({"kind": "scalar", "type": "i32", "value": "b"}],)",
        R"({"kind": "scalar", "type": "i32", "value": "b"},
                         {"kind": "scalar", "type": "i32", "value": "splits"}],)"}});
}

/// Version 9: the split picked at launch with a minimum count: at least 12
/// partitions where the keys give each a 96-key tile.
inline std::string splitAtLaunchV9ManifestJson() {
  return edited(
      splitAtLaunchManifestJson(),
      {{R"("fa4_abi_version": 7)", R"("fa4_abi_version": 9)"},
       {R"("key_tile": 96})", R"("key_tile": 96, "min_partitions": 12})"}});
}

/// Version 8: the good manifest with a decode variant, the split picked at
/// launch as its own kernel and binary beside it, for up to 16 query rows;
/// `variantEdits` edit the variant's manifest alone.
inline std::string decodeVariantManifestJson(
    std::vector<std::pair<std::string, std::string>> variantEdits = {}) {
  variantEdits.insert(variantEdits.begin(),
                      {{R"("kernel": "fa4_attn_fwd_sm90a")",
                        R"("kernel": "fa4_attn_fwd_decode_sm90a")"},
                       {R"("file": "fa4_attn_fwd_sm90a.cubin")",
                        R"("file": "fa4_attn_fwd_decode_sm90a.cubin")"}});
  std::string variant = edited(splitAtLaunchManifestJson(), variantEdits);
  std::string json =
      manifestWith(R"("fa4_abi_version": 2)", R"("fa4_abi_version": 8)");
  size_t last = json.rfind('}');
  return json.substr(0, last) +
         ",\n  \"decode\": {\"max_seq_q\": 16, \"manifest\": " + variant +
         "}\n}\n";
}

/// The good manifest as a version 4 persistent launch: a one-dimensional
/// grid of work tiles, capped at one CTA per SM up to skv = 2048.
inline std::string persistentManifestJson() {
  return manifestWith(
      {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 4)"},
       {R"("grid": [[{"ceil_div": ["sq", 64]}], ["hq"], ["b"]])",
        R"("grid": [[{"ceil_div": ["sq", 64]}, "hq", "b"], [1], []])"},
       {R"("dynamic_smem_bytes": 200000})",
        R"("dynamic_smem_bytes": 200000,
    "persistent": {"ctas_per_sm": 1, "max_seq_kv": 2048}})"}});
}

/// Version 5: the rule names the looped twin launched when it applies.
inline std::string persistentTwinManifestJson() {
  return edited(persistentManifestJson(),
                {{R"("fa4_abi_version": 4)", R"("fa4_abi_version": 5)"},
                 {R"("max_seq_kv": 2048)", R"("max_seq_kv": 2048,
                   "kernel": "attention_persistent")"}});
}

/// Version 6: the twin with its own tile (a 112-key K/V box, 384 threads,
/// 128-row work tiles against the kernel's 64) and shared memory.
inline std::string persistentTwinOwnLaunchManifestJson() {
  std::string json =
      edited(persistentTwinManifestJson(),
             {{R"("fa4_abi_version": 5)", R"("fa4_abi_version": 6)"}});
  size_t begin = json.find("\"params\": [");
  size_t end = json.find("\n  ],", begin);
  std::string params = edited(json.substr(begin, end + 4 - begin),
                              {{R"("tensor": "k", "box": [1, 128, 1, 64])",
                                R"("tensor": "k", "box": [1, 112, 1, 64])"}});
  std::string twin = "\n  \"twin\": {" + params + R"(,
    "launch": {"grid": [[{"ceil_div": ["sq", 128]}, "hq", "b"], [1], [1]],
               "block": [384, 1, 1], "cluster": [1, 1, 1],
               "dynamic_smem_bytes": 150000}},)";
  return edited(json, {{"\n  \"launch\":", twin + "\n  \"launch\":"}});
}

/// Version 11: the kernel builds the tensor maps of q, k and v itself (the
/// good manifest's maps, less their L2 promotion) from their pointers and
/// strides, in a tensor_map_scratch parameter.
inline std::string deviceMapsManifestJson() {
  return manifestWith(
      {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 11)"},
       {R"(    {"kind": "tensor_map", "tensor": "q", "box": [1, 64, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "128B", "oob_fill": "zero"},
    {"kind": "tensor_map", "tensor": "k", "box": [1, 128, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},
    {"kind": "tensor_map", "tensor": "v", "box": [1, 128, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "256B", "oob_fill": "zero"},)",
        R"(    {"kind": "pointer", "tensor": "q"},
    {"kind": "pointer", "tensor": "k"},
    {"kind": "pointer", "tensor": "v"},
    {"kind": "scalar", "type": "i64", "value": "q.stride.1"},
    {"kind": "scalar", "type": "i64", "value": "k.stride.1"},
    {"kind": "scalar", "type": "i64", "value": "v.stride.1"},
    {"kind": "tensor_map_scratch", "maps": [
      {"tensor": "q", "box": [1, 64, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "none", "oob_fill": "zero"},
      {"tensor": "k", "box": [1, 128, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "none", "oob_fill": "zero"},
      {"tensor": "v", "box": [1, 128, 1, 64], "swizzle": "128B", "interleave": "none", "l2_promotion": "none", "oob_fill": "zero"}]},)"}});
}

/// Version 10: the kernel launched in clusters of two (kv-multicast: two
/// row blocks a pair, `2` a grid factor), its twin on its own launch
/// without one.
inline std::string clusteredTwinManifestJson() {
  return edited(
      persistentTwinOwnLaunchManifestJson(),
      {{R"("fa4_abi_version": 6)", R"("fa4_abi_version": 10)"},
       {R"("grid": [[{"ceil_div": ["sq", 64]}, "hq", "b"], [1], []], "block": [384, 1, 1], "cluster": [1, 1, 1])",
        R"("grid": [[{"ceil_div": ["sq", 128]}, 2, "hq", "b"], [1], []], "block": [384, 1, 1], "cluster": [2, 1, 1])"}});
}

/// Version 10: the twin in pairs of CTAs too, on its own launch.
inline std::string pairedTwinManifestJson() {
  return edited(
      clusteredTwinManifestJson(),
      {{R"("grid": [[{"ceil_div": ["sq", 128]}, "hq", "b"], [1], [1]],
               "block": [384, 1, 1], "cluster": [1, 1, 1],)",
        R"("grid": [[{"ceil_div": ["sq", 256]}, 2, "hq", "b"], [1], [1]],
               "block": [384, 1, 1], "cluster": [2, 1, 1],)"}});
}

inline Manifest goodManifest() {
  return parseManifest(goodManifestJson(), "/kernels");
}

inline Manifest goodManifestV1() {
  return parseManifest(goodManifestV1Json(), "/kernels");
}

} // namespace fa4::rt::test

#endif // FA4_RUNTIME_UNITTESTS_TESTMANIFEST_H
