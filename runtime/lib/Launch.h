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

#include <array>
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
  void launch(const fa4_serving_args &args, CUstream stream);
  /// launch with the caller's `workspace` (0: allocated in stream order as
  /// above), at least workspaceBytes(args), 256-byte aligned.
  void launch(const fa4_serving_args &args, CUdeviceptr workspace,
              CUstream stream);
  /// The workspace a launch of `args` needs in the current context (0:
  /// none): validates `args` and picks the split as launch does.
  uint64_t workspaceBytes(const fa4_serving_args &args);

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
  const Kernel &kernelFor(const fa4_serving_args &args) const;

private:
  friend class PreparedLaunch;

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

class KernelArgs;

/// What a launch derives from its arguments' shapes, strides and dtypes,
/// kept to launch them again with other data pointers (fa4_launch_record):
/// the validated sizes, the kernel and grid chosen (the module's persistent
/// cap and programmatic-launch setting as they were when it was made), the
/// scalar arguments and the tensor maps, each re-encoded only when its
/// tensor's pointer changed. Kernel::launch makes one per call (D-47).
class PreparedLaunch {
public:
  /// Validates `args` against the kernel that launches them (the decode
  /// variant where it applies) and loads that kernel in the current context.
  PreparedLaunch(Kernel &kernel, const fa4_serving_args &args);
  ~PreparedLaunch();
  PreparedLaunch(const PreparedLaunch &) = delete;
  PreparedLaunch &operator=(const PreparedLaunch &) = delete;

  /// Bytes of the launch's workspace (0: none): a split-K's partials, then,
  /// 256-byte aligned, the scratch of a kernel that builds its tensor maps.
  uint64_t workspaceBytes() const { return workspaceSize; }

  /// Takes the data pointers of `args` (q, k, v, o, lse; only `data` is
  /// read: the shapes and strides are the constructor's), checked as
  /// checkDataPointers does.
  void setData(const fa4_serving_args &args);

  /// Launches on `stream`, which must belong to the context the launch was
  /// prepared in. The workspace is `workspace` (at least workspaceBytes(),
  /// 256-byte aligned), or, when it is 0, memory allocated and freed in
  /// stream order around the kernels.
  void run(CUdeviceptr workspace, CUstream stream);

private:
  Kernel &kernel;
  CUcontext context;
  const Kernel::Loaded *functions;
  std::vector<uint64_t> spanBytes;
  CUfunction function;
  const std::string *name;
  const LaunchSpec *launch;
  std::array<uint32_t, 3> grid, combineGrid = {};
  bool programmatic;
  uint64_t workspaceSize, scratchOffset = 0, scratchBytes = 0;
  std::unique_ptr<KernelArgs> kernelArgs, combineArgs;
};

} // namespace fa4::rt

#endif // FA4_RUNTIME_LAUNCH_H
