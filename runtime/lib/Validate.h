//===- Validate.h - Check user tensors against a manifest -------*- C++ -*-===//
//
// Runs before every launch and on its own (fa4_validate); needs no GPU.
// Each refusal names the tensor, the dim and the rule, and says what would
// be accepted.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_VALIDATE_H
#define FA4_RUNTIME_VALIDATE_H

#include "Manifest.h"

namespace fa4::rt {

/// The runtime sizes (b, sq, skv, hq, hkv) and who fixed each of them.
class Bindings {
public:
  /// hq and hkv, plus b/sq/skv where the kernel was compiled for one size.
  explicit Bindings(const Problem &problem);

  bool isBound(Symbol symbol) const { return !boundBy[index(symbol)].empty(); }
  int64_t operator[](Symbol symbol) const { return values[index(symbol)]; }
  /// "tensor 'q' bound" or "the kernel was compiled for": for messages.
  const std::string &source(Symbol symbol) const {
    return boundBy[index(symbol)];
  }
  void bind(Symbol symbol, int64_t value, std::string source) {
    values[index(symbol)] = value;
    boundBy[index(symbol)] = std::move(source);
  }

private:
  static int index(Symbol symbol) { return static_cast<int>(symbol); }
  std::array<int64_t, numSymbols> values{};
  std::array<std::string, numSymbols> boundBy;
};

/// Checks every manifest tensor against `args`; returns the sizes they bind,
/// and in `spanBytes` (when given) the bytes each manifest tensor spans from
/// its base, in the order of manifest.tensors. Throws
/// Error(FA4_ERROR_VALIDATION).
Bindings validateArgs(const Manifest &manifest, const fa4_serving_args &args,
                      std::vector<uint64_t> *spanBytes = nullptr);

/// Checks only the data pointers of `args`, whose shapes, strides and dtypes
/// validateArgs accepted before with these `spanBytes`: each pointer given,
/// aligned, its span not wrapping, outputs apart from every other tensor.
/// A launch record's run (fa4_launch_record_run) checks this much.
void checkDataPointers(const Manifest &manifest,
                       const std::vector<uint64_t> &spanBytes,
                       const fa4_serving_args &args);

/// The dense forms of both, for a kernel without index tensors.
inline Bindings validateArgs(const Manifest &manifest,
                             const fa4_attention_args &args,
                             std::vector<uint64_t> *spanBytes = nullptr) {
  return validateArgs(manifest, servingArgs(args), spanBytes);
}
inline void checkDataPointers(const Manifest &manifest,
                              const std::vector<uint64_t> &spanBytes,
                              const fa4_attention_args &args) {
  checkDataPointers(manifest, spanBytes, servingArgs(args));
}

} // namespace fa4::rt

#endif // FA4_RUNTIME_VALIDATE_H
