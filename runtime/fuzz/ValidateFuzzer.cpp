//===- ValidateFuzzer.cpp - libFuzzer target: tensors against manifests ---===//
//
// A fixed set of real manifests (runtime/fuzz/corpus/manifest, compiled by
// fa4-compile; FA4_FUZZ_MANIFESTS overrides the directory) and
// fuzzer-chosen fa4_serving_args: sizes, then layouts by the manifest's
// rules, then edits of dtype bits, ranks, extents, strides (boundary values,
// 2^62, INT64_MIN, products that wrap), base addresses (near 2^64, unaligned,
// NULL, raw) and aliasing (o == q, a tensor copied over another) ->
// validateArgs, as Kernel::launch runs it (the decode variant where q's sq
// calls for it). Accepted arguments are checked against docs/KernelABI.md
// independently (FuzzSupport.h: checkAccepted) and planned as the launch
// would (split count, grids, tensor maps, scalars, workspace, persistent
// grid) for a fuzzer-chosen SM count and CTA cap. A refusal is fine; a
// crash, a sanitizer report, another exception, a broken invariant or a
// hang is a finding. Tensor data is never touched.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <dirent.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace fa4::rt;
using namespace fa4::rt::fuzz;

namespace {

std::vector<Manifest> &manifests() {
  static std::vector<Manifest> all;
  return all;
}

const int64_t kSpecial[] = {0,
                            1,
                            -1,
                            2,
                            3,
                            7,
                            8,
                            16,
                            64,
                            127,
                            128,
                            129,
                            255,
                            256,
                            4096,
                            4097,
                            65535,
                            65536,
                            fa4::limits::kMaxSeqLen,
                            fa4::limits::kMaxSeqLen + 1,
                            INT32_MAX,
                            int64_t(1) << 31,
                            int64_t(1) << 32,
                            (int64_t(1) << 32) + 1,
                            int64_t(1) << 40,
                            int64_t(1) << 61,
                            (int64_t(1) << 62) - 1,
                            int64_t(1) << 62,
                            (int64_t(1) << 62) + 1,
                            INT64_MAX,
                            INT64_MIN,
                            INT64_MIN + 1,
                            -(int64_t(1) << 62)};

int64_t pickInt64(FuzzedDataProvider &fdp) {
  switch (fdp.ConsumeIntegralInRange(0, 3)) {
  case 0:
    return fdp.PickValueInArray(kSpecial);
  case 1:
    return fdp.ConsumeIntegralInRange<int64_t>(-4, 300);
  case 2: {
    // Next to a boundary, wrapping as the hardware would.
    uint64_t base = static_cast<uint64_t>(fdp.PickValueInArray(kSpecial));
    int64_t delta = fdp.ConsumeIntegralInRange<int64_t>(-3, 3);
    return static_cast<int64_t>(base + static_cast<uint64_t>(delta));
  }
  default:
    return fdp.ConsumeIntegral<int64_t>();
  }
}

/// A size for b, sq or skv: mostly small, sometimes at a limit.
int64_t pickSize(FuzzedDataProvider &fdp) {
  switch (fdp.ConsumeIntegralInRange(0, 3)) {
  case 0:
    return fdp.ConsumeIntegralInRange<int64_t>(1, 300);
  case 1:
    return fdp.ConsumeIntegralInRange<int64_t>(1, 1 << 22);
  case 2:
    return fdp.PickValueInArray({int64_t(1), int64_t(16), int64_t(17),
                                 int64_t(128), int64_t(4096), int64_t(1) << 20,
                                 fa4::limits::kMaxSeqLen,
                                 fa4::limits::kMaxSeqLen + 1});
  default:
    return pickInt64(fdp);
  }
}

uintptr_t pickAddress(FuzzedDataProvider &fdp, const fa4_serving_args &args,
                      uintptr_t current) {
  const fa4_tensor *all[] = {&args.attention.q, &args.attention.k,
                             &args.attention.v, &args.attention.o,
                             &args.attention.lse};
  switch (fdp.ConsumeIntegralInRange(0, 5)) {
  case 0: {
    // Near the top of the address space, aligned or not.
    uint64_t below = fdp.ConsumeIntegralInRange<uint64_t>(0, 1 << 24);
    uint64_t align = uint64_t(1) << fdp.ConsumeIntegralInRange(0, 12);
    return static_cast<uintptr_t>((UINT64_MAX - below) & ~(align - 1));
  }
  case 1:
    return static_cast<uintptr_t>(fdp.ConsumeIntegral<uint64_t>());
  case 2: {
    // Into another tensor.
    const fa4_tensor *other = fdp.PickValueInArray(all);
    int64_t offset = fdp.ConsumeIntegralInRange<int64_t>(-65536, 65536);
    return reinterpret_cast<uintptr_t>(other->data) +
           static_cast<uintptr_t>(offset);
  }
  case 3:
    return 0;
  case 4:
    return static_cast<uintptr_t>(
        fdp.ConsumeIntegralInRange<uint64_t>(0, 1 << 16));
  default:
    return current + static_cast<uintptr_t>(
                         fdp.ConsumeIntegralInRange<int64_t>(-4096, 4096));
  }
}

/// One edit of one tensor.
void mutate(FuzzedDataProvider &fdp, const Manifest &manifest,
            const Sizes &sizes, fa4_serving_args &args) {
  static const TensorSlot slots[] = {
      TensorSlot::Q,        TensorSlot::K,        TensorSlot::V,
      TensorSlot::O,        TensorSlot::Lse,      TensorSlot::QDescale,
      TensorSlot::KDescale, TensorSlot::VDescale, TensorSlot::Dout,
      TensorSlot::Dq,       TensorSlot::Dk,       TensorSlot::Dv};
  TensorSlot slot = fdp.PickValueInArray(slots);
  fa4_tensor &tensor = slotOf(args, slot);
  int d = fdp.ConsumeIntegralInRange(0, FA4_MAX_RANK - 1);
  switch (fdp.ConsumeIntegralInRange(0, 9)) {
  case 0:
    setDtypeBits(tensor, fdp.ConsumeBool()
                             ? fdp.ConsumeIntegralInRange<int32_t>(-2, 4)
                             : fdp.ConsumeIntegral<int32_t>());
    break;
  case 1:
    tensor.rank = fdp.ConsumeBool() ? fdp.ConsumeIntegralInRange<int32_t>(-1, 6)
                                    : fdp.ConsumeIntegral<int32_t>();
    break;
  case 2:
    tensor.shape[d] = pickInt64(fdp);
    break;
  case 3:
    tensor.strides[d] = pickInt64(fdp);
    break;
  case 4:
    // Scaled, wrapping.
    tensor.strides[d] = static_cast<int64_t>(
        static_cast<uint64_t>(tensor.strides[d]) *
        static_cast<uint64_t>(
            fdp.ConsumeIntegralInRange<int64_t>(-3, 1 << 20)));
    break;
  case 5:
    std::swap(tensor.strides[d],
              tensor.strides[fdp.ConsumeIntegralInRange(0, FA4_MAX_RANK - 1)]);
    break;
  case 6:
    tensor.data = reinterpret_cast<void *>(
        pickAddress(fdp, args, reinterpret_cast<uintptr_t>(tensor.data)));
    break;
  case 7:
    // Another tensor's whole view: o == q, lse == o.
    tensor = slotOf(args, fdp.PickValueInArray(slots));
    break;
  case 8:
    tensor.data = slotOf(args, fdp.PickValueInArray(slots)).data;
    break;
  default: {
    // Laid out again with the dims nested in another order.
    const TensorSpec *spec = manifest.findTensor(slot);
    if (!spec)
      break;
    std::vector<size_t> order(spec->shape.size());
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1],
                order[fdp.ConsumeIntegralInRange<size_t>(0, i - 1)]);
    layOut(manifest, *spec, sizes, reinterpret_cast<uintptr_t>(tensor.data),
           order, fa4::limits::kMaxTensorBytes, tensor);
    break;
  }
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *dir = std::getenv("FA4_FUZZ_MANIFESTS");
  if (!dir)
    dir = FA4_FUZZ_MANIFEST_DIR;
  std::vector<std::string> paths;
  if (DIR *stream = opendir(dir)) {
    while (dirent *entry = readdir(stream)) {
      std::string name = entry->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
        paths.push_back(std::string(dir) + "/" + name);
    }
    closedir(stream);
  }
  std::sort(paths.begin(), paths.end());
  for (const std::string &path : paths) {
    try {
      manifests().push_back(loadManifest(path));
    } catch (const Error &error) {
      std::fprintf(stderr, "fa4 fuzz: corpus manifest refused: %s\n",
                   error.what());
      std::abort();
    }
  }
  if (manifests().empty()) {
    std::fprintf(stderr, "fa4 fuzz: no manifest (*.json) in %s\n", dir);
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider fdp(data, size);
  const Manifest &manifest = manifests()[fdp.ConsumeIntegralInRange<size_t>(
      0, manifests().size() - 1)];
  Sizes sizes{pickSize(fdp), pickSize(fdp), pickSize(fdp)};
  // Laid out by the manifest's rules (a decode variant's where q's sq will
  // pick it), at 2^40-byte strides of address space, then edited.
  fa4_serving_args args = {};
  const Manifest *rules = &manifest;
  for (int pass = 0; pass < 2; ++pass) {
    for (const TensorSpec &spec : rules->tensors)
      layOut(*rules, spec, sizes, (uintptr_t(spec.slot) + 1) << 40, {},
             fa4::limits::kMaxTensorBytes, slotOf(args, spec.slot));
    const Manifest &checker = manifestFor(manifest, args);
    if (&checker == rules)
      break;
    rules = &checker;
  }
  if (!rules->findTensor(TensorSlot::Lse) && fdp.ConsumeBool())
    args.attention.lse = args.attention.o;
  // The serving forms' bound on a sequence's queries: the layout's, or any.
  args.max_seqlen_q =
      fdp.ConsumeBool() ? sizes.seqQ : fdp.ConsumeIntegral<int64_t>();
  int edits = fdp.ConsumeIntegralInRange(0, 12);
  for (int i = 0; i < edits && fdp.remaining_bytes() > 0; ++i)
    mutate(fdp, *rules, sizes, args);
  uint32_t numSMs = fdp.ConsumeBool()
                        ? fdp.PickValueInArray({0u, 1u, 2u, 78u, 114u, 132u,
                                                148u, 170u, UINT32_MAX})
                        : fdp.ConsumeIntegral<uint32_t>();
  uint32_t maxCtas = fdp.ConsumeBool()
                         ? fdp.PickValueInArray({0u, 1u, 2u, 3u, 7u, 132u})
                         : fdp.ConsumeIntegral<uint32_t>();

  const Manifest &checker = manifestFor(manifest, args);
  Bindings bindings(checker.problem);
  try {
    bindings = validateArgs(checker, args);
  } catch (const Error &error) {
    require(error.status == FA4_ERROR_VALIDATION,
            std::string("validateArgs threw a status other than "
                        "FA4_ERROR_VALIDATION: ") +
                error.what());
    return 0;
  }
  checkAccepted(checker, args, bindings);
  try {
    planLaunch(checker, args, bindings, numSMs, maxCtas);
  } catch (const Error &error) {
    require(error.status == FA4_ERROR_VALIDATION,
            std::string("the launch plan threw a status other than "
                        "FA4_ERROR_VALIDATION: ") +
                error.what());
  }
  return 0;
}
