//===- ManifestFuzzer.cpp - libFuzzer target: manifest.json bytes ---------===//
//
// Bytes -> parseManifest. A refusal (fa4::rt::Error) is fine; a crash, a
// sanitizer report, another exception or a hang is a finding.
//
// A manifest it accepts then goes where a user of the C API takes it: the
// module (fa4_module_load_string must accept it too), its info and each
// tensor's alignment, which must describe the manifest faithfully; and
// tensors laid out by the manifest's own rules for a few sizes, which
// validation (validateArgs and fa4_validate) must accept and whose launch
// plan (grids, split count, tensor-map arguments, scalars, workspace) must
// stay within CUDA's limits. So a manifest the reader lets through cannot
// crash or mislead the rest of the runtime either.
//
// Mutations: structure-aware (JsonMutator.h: values of the parsed tree
// edited, so that most inputs stay JSON and reach the schema's checks) and,
// one call in four, libFuzzer's byte-level ones with manifest.dict.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "JsonMutator.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

using namespace fa4::rt;
using namespace fa4::rt::fuzz;

namespace {

/// Never opened: parsing reads no file, and nothing here launches.
const char *kBinaryDir = "/nonexistent/fa4-fuzz";

/// Each tensor at slot index + 1 times 2^58: aligned to any base rule, and
/// no output meets another tensor while each spans at most 2^57 bytes.
bool layOutAll(const Manifest &manifest, const Sizes &sizes,
               fa4_serving_args &args) {
  args = {};
  args.max_seqlen_q = sizes.seqQ;
  for (const TensorSpec &spec : manifest.tensors) {
    uintptr_t address = (uintptr_t(spec.slot) + 1) << 58;
    if (!layOut(manifest, spec, sizes, address, {}, int64_t(1) << 57,
                slotOf(args, spec.slot)))
      return false;
  }
  return true;
}

void checkInfo(const Manifest &manifest, const fa4_module *module) {
  fa4_kernel_info info;
  require(fa4_module_get_info(module, &info) == FA4_SUCCESS,
          std::string("fa4_module_get_info failed: ") + fa4_last_error());
  const Problem &problem = manifest.problem;
  require(info.num_q_heads == problem.numQHeads &&
              info.num_kv_heads == problem.numKVHeads &&
              info.qk_depth == problem.qkDepth &&
              info.ov_depth == problem.ovDepth,
          "info: heads or depths other than the manifest's");
  require(info.window_left == problem.windowLeft &&
              info.window_right == problem.windowRight,
          "info: window bounds other than the manifest's");
  require(info.batch == problem.batch && info.seq_q == problem.seqQ &&
              info.seq_kv == problem.seqKV,
          "info: sizes other than the manifest's");
  for (int d = 0; d < 3; ++d)
    require(info.block[d] == int64_t(manifest.launch.block[d]) &&
                info.cluster[d] == int64_t(manifest.launch.cluster[d]),
            "info: block or cluster other than the manifest's");
  require(info.dynamic_smem_bytes == int64_t(manifest.launch.dynamicSmemBytes),
          "info: shared memory other than the manifest's");
  // Version 15: o's dtype and the descales, each the tensor it names.
  require(info.output_dtype == problem.outputDtype &&
              info.q_descale == int32_t(problem.descales[0]) &&
              info.k_descale == int32_t(problem.descales[1]) &&
              info.v_descale == int32_t(problem.descales[2]),
          "info: output dtype or descales other than the manifest's");
  for (int i = 0; i < 3; ++i)
    require((problem.descales[i] != Descale::None) ==
                (manifest.findTensor(kDescaleSlots[i]) != nullptr),
            std::string("problem.") + kDescaleNames[i] +
                " accepted without its tensor, or the tensor without it");
  // Version 16: the pass, and a backward kernel's tensors in their roles.
  require(info.is_backward == int32_t(problem.backward),
          "info: is_backward other than the manifest's pass");
  for (const TensorSpec &spec : manifest.tensors)
    require(
        spec.isOutput ==
            (problem.backward
                 ? spec.slot == TensorSlot::Dq || spec.slot == TensorSlot::Dk ||
                       spec.slot == TensorSlot::Dv
                 : spec.slot == TensorSlot::O || spec.slot == TensorSlot::Lse),
        "tensor '" + spec.name +
            "' accepted in another role than its "
            "pass's");
  for (const TensorSpec &spec : manifest.tensors) {
    // "The strictest tensor's rules: a layout that meets them suits every
    // tensor" (fa4-c/Runtime.h).
    require(info.base_align_bytes > 0 &&
                info.base_align_bytes % spec.alignment.baseBytes == 0,
            "info: base_align_bytes " + std::to_string(info.base_align_bytes) +
                " does not meet tensor '" + spec.name + "' base_bytes " +
                std::to_string(spec.alignment.baseBytes));
    require(info.stride_align_bytes > 0 &&
                info.stride_align_bytes % spec.alignment.strideBytes == 0,
            "info: stride_align_bytes " +
                std::to_string(info.stride_align_bytes) +
                " does not meet tensor '" + spec.name + "' stride_bytes " +
                std::to_string(spec.alignment.strideBytes));
    int32_t base = 0, stride = 0;
    require(fa4_module_get_tensor_alignment(module, spec.name.c_str(), &base,
                                            &stride) == FA4_SUCCESS &&
                base == spec.alignment.baseBytes &&
                stride == spec.alignment.strideBytes,
            "fa4_module_get_tensor_alignment('" + spec.name +
                "'): other rules than the manifest's");
  }
  if (manifest.decode)
    require(info.decode_max_seq_q == manifest.decode->maxSeqQ &&
                info.decode_kernel_name == manifest.decode->manifest->kernel,
            "info: decode variant other than the manifest's");
}

/// Tensors laid out by the manifest's rules: accepted, and planned.
void checkLayouts(const Manifest &manifest, const fa4_module *module) {
  static const Sizes sizes[] = {
      {1, 1, 1}, {3, 129, 1000}, {2, 17, 1 << 20}, {1, 1, 1 << 21}};
  for (const Sizes &size : sizes) {
    fa4_serving_args args;
    if (!layOutAll(manifest, size, args))
      continue;
    // The decode variant checks the tensors where q's sq calls for it, by
    // its own rules (its alignment and static sizes may differ).
    const Manifest &checker = manifestFor(manifest, args);
    if (&checker != &manifest) {
      if (!layOutAll(checker, size, args))
        continue;
      // Laid out by the variant's sizes, q may pick the kernel again (one
      // compiled for sq = 1 beside a variant for any sq up to 32): then
      // neither manifest's rules alone made these tensors.
      if (&manifestFor(manifest, args) != &checker)
        continue;
    }
    Bindings bindings(checker.problem);
    try {
      bindings = validateArgs(checker, args);
    } catch (const Error &error) {
      finding(std::string("tensors laid out by the manifest's own rules "
                          "refused: ") +
              error.what());
    }
    checkAccepted(checker, args, bindings);
    if (module)
      require(fa4_validate_serving(module, &args) == FA4_SUCCESS,
              std::string("fa4_validate refused what validateArgs "
                          "accepted: ") +
                  fa4_last_error());
    for (uint32_t numSMs : {0u, 1u, 132u})
      for (uint32_t maxCtas : {0u, 3u}) {
        try {
          planLaunch(checker, args, bindings, numSMs, maxCtas);
        } catch (const Error &) {
          // Refused for these sizes (a grid past CUDA's limits): fine.
        }
      }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view json(reinterpret_cast<const char *>(data), size);
  Manifest manifest;
  try {
    manifest = parseManifest(json, kBinaryDir, "fuzz");
  } catch (const Error &error) {
    require(error.status == FA4_ERROR_MANIFEST,
            std::string("parseManifest threw a status other than "
                        "FA4_ERROR_MANIFEST: ") +
                error.what());
    return 0;
  }
  // The C API reads a NUL-terminated string: the same text where it has
  // no NUL.
  fa4_module *module = nullptr;
  if (std::memchr(data, 0, size) == nullptr) {
    std::string text(json);
    require(fa4_module_load_string(text.c_str(), kBinaryDir, &module) ==
                FA4_SUCCESS,
            std::string("fa4_module_load_string refused what parseManifest "
                        "accepted: ") +
                fa4_last_error());
    checkInfo(manifest, module);
  }
  checkLayouts(manifest, module);
  fa4_module_destroy(module);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  return mutateManifest(data, size, maxSize, seed);
}
