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

/// inputs/manifest.json: the docs/KernelABI.md example (GQA 32/8, d=128,
/// causal, with LSE).
inline std::string goodManifestJson() {
  std::ifstream file(FA4_TEST_INPUTS_DIR "/manifest.json");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

/// The good manifest with each `from` (which must occur once) replaced by
/// its `to`.
inline std::string
manifestWith(std::vector<std::pair<std::string, std::string>> edits) {
  std::string json = goodManifestJson();
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

inline std::string manifestWith(const std::string &from,
                                const std::string &to) {
  return manifestWith({{from, to}});
}

/// The same kernel compiled without LSE.
inline std::string manifestWithoutLse() {
  return manifestWith({{"\"has_lse\": true", "\"has_lse\": false"},
                       {R"(,
    {"name": "lse", "role": "output", "dtype": "f32", "shape": ["b", 32, "sq"]})",
                        ""},
                       {R"(
    {"kind": "pointer", "tensor": "lse"},)",
                        ""},
                       {R"(
    {"kind": "scalar", "type": "i64", "value": "lse.stride.1"},)",
                        ""}});
}

inline Manifest goodManifest() {
  return parseManifest(goodManifestJson(), "/kernels");
}

} // namespace fa4::rt::test

#endif // FA4_RUNTIME_UNITTESTS_TESTMANIFEST_H
