//===- Launch.h - A loaded kernel and its launches --------------*- C++ -*-===//
//
// A Kernel owns a manifest and, per CUDA context, the CUmodule loaded from
// its binary. Loading is lazy and guarded by a mutex, so one Kernel may be
// launched from many threads and contexts.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_LAUNCH_H
#define FA4_RUNTIME_LAUNCH_H

#include "Driver.h"
#include "Manifest.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace fa4::rt {

class Kernel {
public:
  explicit Kernel(Manifest manifest);
  ~Kernel();
  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;

  const Manifest manifest;

  /// Validates `args`, then launches on `stream` in the current context: the
  /// kernel, and for a workspace split-K the combine kernel after it, with a
  /// workspace allocated and freed in stream order around the two.
  void launch(const fa4_attention_args &args, CUstream stream);

  /// Whether launches are programmatic dependent launches: the manifest
  /// allows it and setProgrammaticLaunch(true) asked for it.
  bool usesProgrammaticLaunch() const {
    return manifest.launch.programmaticDependentLaunch &&
           programmaticLaunch.load();
  }
  void setProgrammaticLaunch(bool enabled) {
    programmaticLaunch = enabled;
    if (decodeVariant)
      decodeVariant->setProgrammaticLaunch(enabled);
  }

  /// At most this many CTAs for a persistent launch (0: one per SM, times
  /// the manifest's ctas_per_sm): to leave SMs to concurrent work, or to
  /// make every CTA loop over many work tiles in a test.
  void setPersistentCtaLimit(uint32_t ctas) {
    persistentCtaLimit = ctas;
    if (decodeVariant)
      decodeVariant->setPersistentCtaLimit(ctas);
  }

  /// Whether a launch with `seqQ` query rows runs the decode variant
  /// (version 8): sq at most its max_seq_q.
  bool runsDecodeVariant(int64_t seqQ) const {
    return decodeVariant && seqQ <= manifest.decode->maxSeqQ;
  }
  /// The kernel that launches `args`: the decode variant where the query
  /// length its q gives calls for it, else this one. Its manifest is the
  /// one the arguments must meet.
  const Kernel &kernelFor(const fa4_attention_args &args) const;

private:
  struct Loaded {
    CUmodule module;
    CUfunction function;
    CUfunction combine = nullptr;        // a workspace split-K's second kernel
    CUfunction persistentTwin = nullptr; // launched when persistence applies
    uint32_t numSMs = 0;                 // of the context's device
  };

  /// The kernel's functions in `context`, loaded and configured on first use.
  const Loaded &loadedFor(CUcontext context);
  Loaded load();
  void checkChip() const;
  const std::vector<char> &binaryImage();

  /// Version 8: the same attention planned for decode, from its own binary.
  std::unique_ptr<Kernel> decodeVariant;
  std::mutex mutex;
  std::vector<char> image; // the binary file, read once
  std::map<CUcontext, Loaded> loaded;
  /// Off by default: measured, it bought nothing on back-to-back fa4
  /// launches and cost 26-31% on the B = 1 cluster decode in CUDA graphs
  /// (D-35).
  std::atomic<bool> programmaticLaunch{false};
  std::atomic<uint32_t> persistentCtaLimit{0};
};

} // namespace fa4::rt

#endif // FA4_RUNTIME_LAUNCH_H
