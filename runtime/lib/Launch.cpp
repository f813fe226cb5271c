//===- Launch.cpp - A loaded kernel and its launches ----------------------===//

#include "Launch.h"

#include "BinaryAbi.h"

#include "BinaryFile.h"
#include "Error.h"
#include "LaunchPlan.h"
#include "TensorMap.h"
#include "Validate.h"

#include "fa4/AbiRecord.h"

#include <optional>

using namespace fa4::rt;

Kernel::~Kernel() {
  // Best effort: a context destroyed before us has already freed its module.
  for (const auto &[context, module] : loaded)
    driver().cuModuleUnload(module.module);
}

const std::vector<char> &Kernel::binaryImage() {
  if (!image.empty())
    return image;
  image = readBinaryFile(manifest.binaryDir, manifest.binaryFile);
  // cuModuleLoadDataEx reads PTX as a NUL-terminated string.
  if (manifest.binaryFormat == BinaryFormat::Ptx)
    image.push_back('\0');
  return image;
}

// Arch-specific targets (sm_90a, sm_100a) run only on exactly that compute
// capability; say so instead of the driver's CUDA_ERROR_NO_BINARY_FOR_GPU.
void Kernel::checkChip() const {
  const std::string &chip = manifest.chip;
  if (chip.size() < 5 || chip.compare(0, 3, "sm_") != 0 || chip.back() != 'a')
    return;
  int target = std::atoi(chip.c_str() + 3);
  CUdevice device = currentDevice();
  int major =
      deviceAttribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int minor =
      deviceAttribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (major * 10 + minor != target)
    throw Error(FA4_ERROR_CUDA,
                "kernel '" + manifest.kernel + "' was compiled for " + chip +
                    ", which runs only on compute capability " +
                    std::to_string(target / 10) + "." +
                    std::to_string(target % 10) + ", but the device is " +
                    std::to_string(major) + "." + std::to_string(minor));
}

/// Refuses a manifest whose kernel `name` the binary does not match: its
/// parameters (where the driver reports them) and its block.
static void checkAgainstBinary(CUfunction function, const std::string &name,
                               const std::vector<Param> &params,
                               const LaunchSpec &launch) {
  const DriverApi &api = driver();
  if (api.cuFuncGetParamInfo)
    checkParamsMatchBinary(
        name, params, [&](size_t index, size_t &offset, size_t &bytes) {
          return api.cuFuncGetParamInfo(function, index, &offset, &bytes) ==
                 CUDA_SUCCESS;
        });
  int maxThreads = 0;
  checkCuda(api.cuFuncGetAttribute(
                &maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
            "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)");
  checkBlockFitsBinary(
      name, int64_t(launch.block[0]) * launch.block[1] * launch.block[2],
      maxThreads);
}

/// The ABI record the compiler put into the loaded binary (fa4/AbiRecord.h).
static std::string readAbiRecord(CUmodule module, const Manifest &manifest) {
  const DriverApi &api = driver();
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CUresult status =
      api.cuModuleGetGlobal(&address, &bytes, module, fa4::kAbiRecordSymbol);
  if (status == CUDA_ERROR_NOT_FOUND)
    throw Error(FA4_ERROR_MANIFEST,
                manifest.binaryPath + " carries no ABI record (" +
                    fa4::kAbiRecordSymbol +
                    "): it was not compiled by this fa4, so its manifest "
                    "cannot be checked against it");
  checkCuda(status, "cuModuleGetGlobal(fa4_abi_record)");
  if (bytes == 0 || static_cast<int64_t>(bytes) > fa4::kMaxAbiRecordBytes)
    throw Error(FA4_ERROR_MANIFEST,
                manifest.binaryPath + "'s ABI record is " +
                    std::to_string(bytes) + " bytes; expected 1 to " +
                    std::to_string(fa4::kMaxAbiRecordBytes));
  std::string record(bytes, '\0');
  checkCuda(api.cuMemcpyDtoH(record.data(), address, bytes),
            "cuMemcpyDtoH(fa4_abi_record)");
  return record;
}

Kernel::Loaded Kernel::load() {
  checkChip();
  const DriverApi &api = driver();
  const std::vector<char> &binary = binaryImage();
  // The JIT (PTX) and the loader write their diagnostics here.
  char errorLog[16384] = "";
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *optionValues[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog))};
  Loaded result;
  result.numSMs = static_cast<uint32_t>(deviceAttribute(
      currentDevice(), CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  CUresult status = api.cuModuleLoadDataEx(&result.module, binary.data(), 2,
                                           options, optionValues);
  if (status != CUDA_SUCCESS) {
    std::string call = "cuModuleLoadDataEx('" + manifest.binaryPath + "')";
    if (errorLog[0])
      call += " with log:\n" + std::string(errorLog) + "\n";
    checkCuda(status, call.c_str());
  }
  // Each kernel as the manifest describes it (its parameters, its launch),
  // refused where the binary disagrees (BinaryAbi.h).
  auto function = [&](const std::string &name, const std::vector<Param> &params,
                      const LaunchSpec &launch) {
    CUfunction found;
    std::string call = "cuModuleGetFunction('" + name + "')";
    checkCuda(api.cuModuleGetFunction(&found, result.module, name.c_str()),
              call.c_str());
    checkAgainstBinary(found, name, params, launch);
    return found;
  };
  // The attention kernel and its persistent twin take the launch's shared
  // memory, past the default 48 KB.
  auto allowDynamicSmem = [&](CUfunction attention, const LaunchSpec &launch) {
    checkCuda(api.cuFuncSetAttribute(
                  attention, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  static_cast<int>(launch.dynamicSmemBytes)),
              "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  };
  try {
    checkRecordMatchesBinary(manifest, readAbiRecord(result.module, manifest));
    result.function =
        function(manifest.kernel, manifest.params, manifest.launch);
    allowDynamicSmem(result.function, manifest.launch);
    if (manifest.launch.persistent &&
        !manifest.launch.persistent->kernel.empty()) {
      const LaunchSpec &twinLaunch =
          manifest.twin ? manifest.twin->launch : manifest.launch;
      result.persistentTwin = function(
          manifest.launch.persistent->kernel,
          manifest.twin ? manifest.twin->params : manifest.params, twinLaunch);
      allowDynamicSmem(result.persistentTwin, twinLaunch);
    }
    // Clusters of more than 8 CTAs are "non-portable" and must be opted in.
    const auto &cluster = manifest.launch.cluster;
    if (cluster[0] * cluster[1] * cluster[2] > 8)
      checkCuda(api.cuFuncSetAttribute(
                    result.function,
                    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
                "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)");
    if (manifest.combine)
      result.combine =
          function(manifest.combine->kernel, manifest.combine->params,
                   manifest.combine->launch);
  } catch (...) {
    api.cuModuleUnload(result.module);
    throw;
  }
  return result;
}

const Kernel::Loaded &Kernel::loadedFor(CUcontext context) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(context);
  if (it == loaded.end())
    it = loaded.emplace(context, load()).first;
  return it->second;
}

namespace fa4::rt {
// One kernel argument; cuLaunchKernelEx takes a pointer to each. A tensor
// map is passed by value and must stay 64-byte aligned.
struct ArgStorage {
  CUtensorMap tensorMap;
  ScalarValue scalar;
  CUdeviceptr pointer;
};

/// One kernel's arguments, in the order of `params`, ready for
/// cuLaunchKernelEx; `workspace` is what a "workspace" parameter gets.
/// Everything that can refuse the arguments runs in the constructor.
class KernelArgs {
public:
  KernelArgs(const Manifest &manifest, const std::vector<Param> &params,
             const Bindings &bindings, const fa4_serving_args &args)
      : manifest(manifest), params(params), storage(params.size()),
        tensorMaps(params.size()), encoded(params.size(), false) {
    for (size_t i = 0; i < params.size(); ++i) {
      const Param &param = params[i];
      if (const auto *map = std::get_if<TensorMapParam>(&param)) {
        const TensorSpec &spec = manifest.tensors[map->tensor];
        tensorMaps[i] =
            computeTensorMapArgs(*map, spec, tensorInSlot(args, spec.slot));
      } else if (const auto *scalar = std::get_if<ScalarParam>(&param)) {
        storage[i].scalar = evaluateScalar(*scalar, manifest, bindings, args);
      } else if (const auto *scratch =
                     std::get_if<TensorMapScratchParam>(&param)) {
        // The kernel builds these maps; the TMA limits on the sizes and
        // strides are checked here, as for the maps encoded here.
        for (const TensorMapParam &map : scratch->maps) {
          const TensorSpec &spec = manifest.tensors[map.tensor];
          computeTensorMapArgs(map, spec, tensorInSlot(args, spec.slot));
        }
        scratchBytesPerCta += scratch->bytesPerCta();
      }
    }
    setData(args);
  }

  /// Bytes of tensor-map scratch each CTA of the launch builds its maps in.
  uint64_t tensorMapScratchBytesPerCta() const { return scratchBytesPerCta; }

  /// Takes the data pointers of `args` (same shapes and strides); a tensor
  /// map is encoded again only where its pointer changed.
  void setData(const fa4_serving_args &args) {
    for (size_t i = 0; i < params.size(); ++i) {
      const Param &param = params[i];
      if (const auto *map = std::get_if<TensorMapParam>(&param)) {
        void *data =
            tensorInSlot(args, manifest.tensors[map->tensor].slot).data;
        if (data != tensorMaps[i].globalAddress)
          encoded[i] = false;
        tensorMaps[i].globalAddress = data;
      } else if (const auto *pointer = std::get_if<PointerParam>(&param)) {
        TensorSlot slot = manifest.tensors[pointer->tensor].slot;
        storage[i].pointer =
            reinterpret_cast<CUdeviceptr>(tensorInSlot(args, slot).data);
      }
    }
  }

  /// Encodes the tensor maps not yet encoded (a driver call) and returns
  /// the pointers.
  std::vector<void *> &pointers(CUdeviceptr workspace,
                                CUdeviceptr tensorMapScratch = 0) {
    kernelParams.clear();
    for (size_t i = 0; i < params.size(); ++i) {
      const Param &param = params[i];
      if (const auto *map = std::get_if<TensorMapParam>(&param)) {
        if (!encoded[i]) {
          storage[i].tensorMap = encodeTensorMap(
              tensorMaps[i], manifest.tensors[map->tensor].name);
          encoded[i] = true;
        }
        kernelParams.push_back(&storage[i].tensorMap);
      } else if (std::holds_alternative<PointerParam>(param)) {
        kernelParams.push_back(&storage[i].pointer);
      } else if (std::holds_alternative<WorkspaceParam>(param)) {
        storage[i].pointer = workspace;
        kernelParams.push_back(&storage[i].pointer);
      } else if (std::holds_alternative<TensorMapScratchParam>(param)) {
        storage[i].pointer = tensorMapScratch;
        kernelParams.push_back(&storage[i].pointer);
      } else {
        kernelParams.push_back(&storage[i].scalar.i64); // union: any member
      }
    }
    return kernelParams;
  }

private:
  const Manifest &manifest;
  const std::vector<Param> &params;
  std::vector<ArgStorage> storage;
  std::vector<TensorMapArgs> tensorMaps;
  std::vector<bool> encoded;
  std::vector<void *> kernelParams;
  uint64_t scratchBytesPerCta = 0;
};
} // namespace fa4::rt

namespace {
/// `programmatic`: launch with programmatic stream serialization, so the
/// kernel (which waits for prior grids itself) may start while the grid
/// before it drains.
void launchOne(CUfunction function, const std::string &name,
               const LaunchSpec &launch, std::array<uint32_t, 3> grid,
               std::vector<void *> &kernelParams, CUstream stream,
               bool programmatic) {
  CUlaunchAttribute attributes[2] = {};
  attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attributes[0].value.clusterDim.x = launch.cluster[0];
  attributes[0].value.clusterDim.y = launch.cluster[1];
  attributes[0].value.clusterDim.z = launch.cluster[2];
  attributes[1].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attributes[1].value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config = {};
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = launch.block[0];
  config.blockDimY = launch.block[1];
  config.blockDimZ = launch.block[2];
  config.sharedMemBytes = launch.dynamicSmemBytes;
  config.hStream = stream;
  config.attrs = attributes;
  config.numAttrs = programmatic && launch.programmaticDependentLaunch ? 2 : 1;
  CUresult status = driver().cuLaunchKernelEx(&config, function,
                                              kernelParams.data(), nullptr);
  if (status != CUDA_SUCCESS)
    checkCuda(status, ("cuLaunchKernelEx('" + name + "')").c_str());
}
} // namespace

const Kernel &Kernel::kernelFor(const fa4_serving_args &args) const {
  if (!decodeVariant)
    return *this;
  // The query length where the manifest puts sq in q's shape; where q's
  // rank is not the manifest's, this kernel's validation says what is
  // wrong.
  const TensorSpec *q = manifest.findTensor(TensorSlot::Q);
  const fa4_tensor &tensor = tensorInSlot(args, TensorSlot::Q);
  if (!q || tensor.rank != static_cast<int32_t>(q->shape.size()))
    return *this;
  for (size_t d = 0; d < q->shape.size(); ++d)
    if (q->shape[d].symbol == Symbol::SeqQ &&
        runsDecodeVariant(tensor.shape[d]))
      return *decodeVariant;
  return *this;
}

Kernel::Kernel(Manifest manifestIn) : manifest(std::move(manifestIn)) {
  if (manifest.decode)
    decodeVariant = std::make_unique<Kernel>(*manifest.decode->manifest);
}

void Kernel::launch(const fa4_serving_args &args, CUstream stream) {
  PreparedLaunch(*this, args).run(0, stream);
}

void Kernel::launch(const fa4_serving_args &args, CUdeviceptr workspace,
                    CUstream stream) {
  PreparedLaunch(*this, args).run(workspace, stream);
}

uint64_t Kernel::workspaceBytes(const fa4_serving_args &args) {
  return PreparedLaunch(*this, args).workspaceBytes();
}

PreparedLaunch::PreparedLaunch(Kernel &parent, const fa4_serving_args &args)
    // Version 8: the decode variant runs, and checks the arguments by its
    // own manifest's rules (its alignment may differ from this kernel's).
    : kernel(&parent.kernelFor(args) == &parent ? parent
                                                : *parent.decodeVariant) {
  const Manifest &manifest = kernel.manifest;
  // Everything that can refuse the arguments runs before the driver opens,
  // but for a split picked at launch (version 7): its partitions, which the
  // grids and arguments below depend on, need the device's SM count, which
  // the loaded module keeps.
  Bindings bindings = validateArgs(manifest, args, &spanBytes);
  if (manifest.splitAtLaunch)
    bindSplits(manifest, bindings, kernel.loadedFor(currentContext()).numSMs);
  LaunchGrids grids = evaluateGrids(manifest, bindings);
  kernelArgs =
      std::make_unique<KernelArgs>(manifest, manifest.params, bindings, args);
  // Version 6: the twin's own arguments, refused here too.
  std::unique_ptr<KernelArgs> twinArgs;
  if (manifest.twin)
    twinArgs = std::make_unique<KernelArgs>(manifest, manifest.twin->params,
                                            bindings, args);
  workspaceSize = evaluateWorkspaceBytes(manifest, bindings);
  if (manifest.combine) {
    combineGrid = evaluateGrid(manifest.combine->launch, bindings);
    combineArgs = std::make_unique<KernelArgs>(
        manifest, manifest.combine->params, bindings, args);
  }

  context = currentContext();
  functions = &kernel.loadedFor(context);
  // Persistent CTAs when the rule applies: this kernel, or its looped twin
  // (with its own launch and arguments where the manifest gives them).
  LaunchChoice choice = chooseLaunch(
      manifest, bindings, grids, functions->persistentTwin != nullptr,
      functions->numSMs, kernel.persistentCtaLimit.load());
  function = choice.twin ? functions->persistentTwin : functions->function;
  name = choice.twin ? &manifest.launch.persistent->kernel : &manifest.kernel;
  launch = choice.launch;
  if (choice.twinOwnLaunch)
    kernelArgs = std::move(twinArgs);
  grid = choice.grid;
  programmatic = kernel.programmaticLaunch.load();
  // Version 11: the kernel's tensor maps, built by each CTA of the grid
  // chosen, follow the partials in the one workspace.
  uint64_t ctas = uint64_t(grid[0]) * grid[1] * grid[2];
  uint64_t perCta = kernelArgs->tensorMapScratchBytesPerCta();
  // As the partials (evaluateWorkspaceBytes): at most 1 TiB, which also
  // keeps the sums below from wrapping.
  constexpr uint64_t kMaxScratchBytes = uint64_t(1) << 40;
  if (perCta && ctas > kMaxScratchBytes / perCta)
    throw Error(FA4_ERROR_VALIDATION,
                "the tensor-map scratch for this grid exceeds 1 TiB");
  scratchOffset = (workspaceSize + 255) / 256 * 256;
  scratchBytes = perCta * ctas;
  if (scratchBytes)
    workspaceSize = scratchOffset + scratchBytes;
}

PreparedLaunch::~PreparedLaunch() = default;

void PreparedLaunch::setData(const fa4_serving_args &args) {
  checkDataPointers(kernel.manifest, spanBytes, args);
  kernelArgs->setData(args);
  if (combineArgs)
    combineArgs->setData(args);
}

void PreparedLaunch::run(CUdeviceptr workspace, CUstream stream) {
  const DriverApi &api = driver();
  CUcontext now = nullptr;
  checkCuda(api.cuCtxGetCurrent(&now), "cuCtxGetCurrent");
  if (now != context)
    throw Error(FA4_ERROR_INVALID_ARGUMENT,
                "the launch record was made in another CUDA context than "
                "the current one; make one per context");
  if (!workspaceSize) {
    launchOne(function, *name, *launch, grid, kernelArgs->pointers(0), stream,
              programmatic);
    return;
  }
  if (workspace % 256 != 0)
    throw Error(FA4_ERROR_VALIDATION, "the workspace is not 256-byte aligned");
  const Manifest &manifest = kernel.manifest;
  auto launchBoth = [&](CUdeviceptr base) {
    CUdeviceptr partials = combineArgs ? base : 0;
    launchOne(
        function, *name, *launch, grid,
        kernelArgs->pointers(partials, scratchBytes ? base + scratchOffset : 0),
        stream, programmatic);
    if (combineArgs)
      launchOne(functions->combine, manifest.combine->kernel,
                manifest.combine->launch, combineGrid,
                combineArgs->pointers(partials), stream, programmatic);
  };
  if (workspace) {
    launchBoth(workspace);
    return;
  }
  // The partials live from the first kernel to the end of the second (the
  // maps to the end of the first): a stream-ordered allocation is reused
  // by the driver's pool across launches, and nothing else on the stream
  // can touch it in between.
  checkCuda(api.cuMemAllocAsync(&workspace, workspaceSize, stream),
            "cuMemAllocAsync(workspace)");
  try {
    launchBoth(workspace);
  } catch (...) {
    api.cuMemFreeAsync(workspace, stream);
    throw;
  }
  checkCuda(api.cuMemFreeAsync(workspace, stream), "cuMemFreeAsync(workspace)");
}
