//===- JsonMutator.h - Structure-aware mutations of manifests ---*- C++ -*-===//
//
// libFuzzer's byte mutations seldom keep a 13 KB manifest valid JSON, let
// alone valid to the reader's schema, so on their own they mostly test the
// JSON parser. This mutator parses the input with the runtime's own JSON
// reader, edits one to three values of the tree (a number to a boundary of
// fa4's or CUDA's limits or next to its old value, a boolean flipped, a
// string to another word of the schema, an array entry dropped, doubled or
// moved, an object member dropped or added, any value replaced by a copy of
// another) and writes the tree back. Input that is not JSON, and one call
// in four, get libFuzzer's own byte mutations (with the dictionary).
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_FUZZ_JSONMUTATOR_H
#define FA4_RUNTIME_FUZZ_JSONMUTATOR_H

#include "Json.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace fa4::rt::fuzz {

inline void writeJson(const json::Value &value, std::string &out) {
  using Kind = json::Value::Kind;
  switch (value.kind) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += value.boolean ? "true" : "false";
    return;
  case Kind::Number: {
    double number = value.number;
    if (!std::isfinite(number)) {
      out += number > 0 ? "1e999" : "-1e999"; // what strtod made of it
    } else if (std::trunc(number) == number && std::fabs(number) < 9.2e18) {
      out += std::to_string(static_cast<long long>(number));
    } else {
      char text[32];
      std::snprintf(text, sizeof(text), "%.17g", number);
      out += text;
    }
    return;
  }
  case Kind::String:
    out += '"';
    for (char c : value.string) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char escape[8];
        std::snprintf(escape, sizeof(escape), "\\u%04x",
                      static_cast<unsigned char>(c));
        out += escape;
      } else {
        out += c;
      }
    }
    out += '"';
    return;
  case Kind::Array:
    out += '[';
    for (size_t i = 0; i < value.array.size(); ++i) {
      if (i)
        out += ", ";
      writeJson(value.array[i], out);
    }
    out += ']';
    return;
  case Kind::Object:
    out += '{';
    for (size_t i = 0; i < value.object.size(); ++i) {
      if (i)
        out += ", ";
      json::Value key;
      key.kind = Kind::String;
      key.string = value.object[i].first;
      writeJson(key, out);
      out += ": ";
      writeJson(value.object[i].second, out);
    }
    out += '}';
    return;
  }
}

class JsonMutator {
public:
  explicit JsonMutator(unsigned seed) : rng(seed) {}

  /// One to three edits of `root`.
  void mutate(json::Value &root) {
    int edits = 1 + pick(3);
    for (int i = 0; i < edits; ++i) {
      std::vector<json::Value *> nodes;
      collect(root, nodes);
      edit(*nodes[pick(nodes.size())], nodes);
    }
  }

private:
  std::minstd_rand rng;

  size_t pick(size_t count) { return count ? rng() % count : 0; }
  template <typename T, size_t N> const T &pickFrom(const T (&values)[N]) {
    return values[pick(N)];
  }

  static void collect(json::Value &value, std::vector<json::Value *> &nodes) {
    nodes.push_back(&value);
    for (json::Value &entry : value.array)
      collect(entry, nodes);
    for (auto &member : value.object)
      collect(member.second, nodes);
  }

  json::Value number(double value) {
    json::Value result;
    result.kind = json::Value::Kind::Number;
    result.number = value;
    return result;
  }

  json::Value word() {
    static const char *const words[] = {"b",          "sq",
                                        "skv",        "hq",
                                        "hkv",        "splits",
                                        "q",          "k",
                                        "v",          "o",
                                        "lse",        "bf16",
                                        "f16",        "f32",
                                        "none",       "causal",
                                        "window",     "input",
                                        "output",     "pointer",
                                        "scalar",     "tensor_map",
                                        "workspace",  "i32",
                                        "i64",        "scale",
                                        "scale_log2", "q.stride.0",
                                        "o.stride.3", "lse.stride.2",
                                        "k.stride.9", "v.stride.",
                                        "32B",        "64B",
                                        "128B",       "256B",
                                        "zero",       "nan_request_zero_fma",
                                        "cubin",      "fatbin",
                                        "ptx",        "sm_90a",
                                        "sm_100a",    "",
                                        ".",          "..",
                                        "../x.cubin", "/etc/passwd",
                                        "a\nb",       "x.cubin",
                                        "fa4_kernel", "ceil_div"};
    json::Value result;
    result.kind = json::Value::Kind::String;
    result.string = pickFrom(words);
    return result;
  }

  json::Value boundary() {
    static const double values[] = {0,
                                    1,
                                    -1,
                                    2,
                                    3,
                                    4,
                                    7,
                                    8,
                                    12,
                                    15,
                                    16,
                                    17,
                                    31,
                                    32,
                                    33,
                                    63,
                                    64,
                                    65,
                                    96,
                                    127,
                                    128,
                                    129,
                                    255,
                                    256,
                                    257,
                                    384,
                                    512,
                                    1023,
                                    1024,
                                    1025,
                                    2048,
                                    4093,
                                    4095,
                                    4096,
                                    4097,
                                    65535,
                                    65536,
                                    232448, // 227 KiB
                                    232449,
                                    1 << 20,
                                    (1 << 30) - 1,
                                    1 << 30,
                                    2147483647.0,
                                    2147483648.0,
                                    4294967295.0,
                                    4294967296.0,
                                    1099511627776.0, // 2^40
                                    9007199254740992.0,
                                    9007199254740994.0,
                                    4611686018427387904.0,
                                    9223372036854775808.0,
                                    1e300,
                                    -1e300,
                                    0.5,
                                    1.5,
                                    -0.0,
                                    1e-300};
    return number(pickFrom(values));
  }

  /// A value to put somewhere new: a scalar, or a copy of another node.
  json::Value anything(const std::vector<json::Value *> &nodes) {
    switch (pick(4)) {
    case 0:
      return boundary();
    case 1:
      return word();
    case 2: {
      json::Value flag;
      flag.kind = json::Value::Kind::Bool;
      flag.boolean = pick(2);
      return flag;
    }
    default:
      return *nodes[pick(nodes.size())]; // a deep copy
    }
  }

  void edit(json::Value &node, const std::vector<json::Value *> &nodes) {
    using Kind = json::Value::Kind;
    if (pick(8) == 0) {
      // Any value: a copy of another (taken before it replaces this one,
      // which may be its ancestor).
      json::Value copy = anything(nodes);
      node = std::move(copy);
      return;
    }
    switch (node.kind) {
    case Kind::Null:
      node = anything(nodes);
      return;
    case Kind::Bool:
      node.boolean = !node.boolean;
      return;
    case Kind::Number:
      return editNumber(node);
    case Kind::String:
      if (pick(4) == 0)
        node.string += node.string.empty() ? std::string("x") : node.string;
      else
        node = word();
      return;
    case Kind::Array:
      return editArray(node.array, nodes);
    case Kind::Object:
      return editObject(node, nodes);
    }
  }

  void editNumber(json::Value &node) {
    switch (pick(4)) {
    case 0:
      node.number += pick(2) ? 1 : -1;
      return;
    case 1:
      node.number *= pick(2) ? 2 : -1;
      return;
    default:
      node = boundary();
      return;
    }
  }

  void editArray(std::vector<json::Value> &entries,
                 const std::vector<json::Value *> &nodes) {
    size_t size = entries.size();
    switch (pick(5)) {
    case 0:
      if (size)
        entries.erase(entries.begin() + pick(size));
      return;
    case 1:
      if (size) {
        json::Value copy = entries[pick(size)];
        entries.insert(entries.begin() + pick(size + 1), std::move(copy));
      }
      return;
    case 2:
      if (size > 1)
        std::swap(entries[pick(size)], entries[pick(size)]);
      return;
    case 3: {
      json::Value value = anything(nodes);
      entries.insert(entries.begin() + pick(size + 1), std::move(value));
      return;
    }
    default:
      entries.clear();
      return;
    }
  }

  /// Drops a member, or adds one under a key the manifest reader knows.
  void editObject(json::Value &node, const std::vector<json::Value *> &nodes) {
    static const char *const keys[] = {"alignment",
                                       "base_bytes",
                                       "batch",
                                       "binary",
                                       "block",
                                       "box",
                                       "bytes",
                                       "ceil_div",
                                       "chip",
                                       "cluster",
                                       "combine",
                                       "ctas_per_sm",
                                       "decode",
                                       "dtype",
                                       "dynamic_smem_bytes",
                                       "fa4_abi_version",
                                       "file",
                                       "format",
                                       "grid",
                                       "has_lse",
                                       "interleave",
                                       "kernel",
                                       "key_tile",
                                       "kind",
                                       "l2_promotion",
                                       "launch",
                                       "manifest",
                                       "mask",
                                       "max_partitions",
                                       "max_seq_kv",
                                       "max_seq_q",
                                       "min_keys_per_partition",
                                       "min_partitions",
                                       "name",
                                       "num_kv_heads",
                                       "num_q_heads",
                                       "oob_fill",
                                       "ov_depth",
                                       "params",
                                       "persistent",
                                       "problem",
                                       "programmatic_dependent_launch",
                                       "qk_depth",
                                       "role",
                                       "scale",
                                       "seq_kv",
                                       "seq_q",
                                       "shape",
                                       "split_at_launch",
                                       "stride_bytes",
                                       "swizzle",
                                       "tensor",
                                       "tensors",
                                       "twin",
                                       "type",
                                       "unit_stride_last_dim",
                                       "value",
                                       "window_left",
                                       "window_right",
                                       "workspace"};
    auto &members = node.object;
    if (!members.empty() && pick(2) == 0) {
      members.erase(members.begin() + pick(members.size()));
      return;
    }
    std::string key = pickFrom(keys);
    if (node.find(key))
      return; // the parser refuses duplicate keys
    json::Value value = anything(nodes);
    members.insert(members.begin() + pick(members.size() + 1),
                   {key, std::move(value)});
  }
};

/// The libFuzzer custom mutator of a manifest target.
inline size_t mutateManifest(uint8_t *data, size_t size, size_t maxSize,
                             unsigned seed) {
  JsonMutator mutator(seed);
  if (seed % 4 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  json::Value root;
  try {
    root = json::parse(
        std::string_view(reinterpret_cast<const char *>(data), size));
  } catch (const json::ParseError &) {
    return LLVMFuzzerMutate(data, size, maxSize);
  }
  mutator.mutate(root);
  std::string text;
  writeJson(root, text);
  if (text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

} // namespace fa4::rt::fuzz

#endif // FA4_RUNTIME_FUZZ_JSONMUTATOR_H
