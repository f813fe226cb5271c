//===- Shim.cpp - libfa4emu.so: the CUDA driver API on fa4-emu ------------===//
//
// The driver entry points libfa4rt calls (runtime/lib/Driver.h), so that
// FA4_CUDA_DRIVER_PATH=libfa4emu.so runs the unchanged runtime on the CPU.
// One emulated device (FA4_EMU_ARCH: sm_90a, the default, or sm_100a) with
// the H200's 132 multiprocessors; device memory is host memory; launches run
// to completion inside cuLaunchKernelEx (streams are in order anyway);
// FA4_EMU_SEED picks the scheduler's seed, FA4_EMU_SCHEDULE its strategy.
// Modules load from PTX only. An execution error is printed, with the
// variables that replay its schedule, and the launch fails with
// CUDA_ERROR_LAUNCH_FAILED, as a GPU fault would.
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"
#include "Layouts.h"
#include "Sfu.h"

#include <cuda.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace fa4::emu;

#define FA4_EMU_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct EmuModule;

struct EmuFunction {
  EmuModule *module;
  const Kernel *kernel;
  int maxDynamicSmem = 48 * 1024;
};

struct EmuModule {
  std::unique_ptr<Module> module;
  /// One handle per kernel, as the driver gives, freed with the module.
  std::map<const Kernel *, std::unique_ptr<EmuFunction>> functions;
};

struct EmuEvent {
  std::chrono::steady_clock::time_point time;
};

Memory &memory() {
  static Memory instance;
  return instance;
}

std::string arch() {
  const char *value = std::getenv("FA4_EMU_ARCH");
  return value && *value ? value : "sm_90a";
}

int computeCapability() { return arch() == "sm_100a" ? 100 : 90; }

uint64_t seed() {
  const char *value = std::getenv("FA4_EMU_SEED");
  return value && *value ? std::strtoull(value, nullptr, 10) : 1;
}

/// FA4_EMU_LAGGARD=W: LaunchOptions::laggardWarp (unset: -1). Anything
/// but a warp index of a CTA (0 to 31) is refused, said on stderr.
std::optional<int> laggardWarp() {
  const char *value = std::getenv("FA4_EMU_LAGGARD");
  if (!value || !*value)
    return -1;
  char *end;
  long warp = std::strtol(value, &end, 10);
  if (*end || warp < 0 || warp > 31) {
    std::fprintf(stderr,
                 "fa4-emu: FA4_EMU_LAGGARD=%s is not a warp index (0 to 31)\n",
                 value);
    return std::nullopt;
  }
  return int(warp);
}

/// FA4_EMU_SCHEDULE: LaunchOptions' scheduler (parseSchedule); a value
/// it refuses is said on stderr.
bool schedule(LaunchOptions &options) {
  const char *value = std::getenv("FA4_EMU_SCHEDULE");
  std::string why = parseSchedule(value ? value : "", options);
  if (!why.empty())
    std::fprintf(stderr, "fa4-emu: %s\n", why.c_str());
  return why.empty();
}

/// FA4_EMU_STEP_LIMIT=N: LaunchOptions::stepLimit (unset: the default;
/// 0: none). Anything but a decimal count is refused, said on stderr.
std::optional<uint64_t> stepLimit() {
  const char *value = std::getenv("FA4_EMU_STEP_LIMIT");
  if (!value || !*value)
    return kDefaultStepLimit;
  char *end;
  errno = 0;
  unsigned long long limit = std::strtoull(value, &end, 10);
  if (*end || errno || !std::isdigit(static_cast<unsigned char>(*value))) {
    std::fprintf(stderr,
                 "fa4-emu: FA4_EMU_STEP_LIMIT=%s is not a count of warp "
                 "instructions\n",
                 value);
    return std::nullopt;
  }
  return uint64_t(limit);
}

/// FA4_EMU_RULES=strict|lenient: LaunchOptions::tcgen05Lenient (unset:
/// strict). Anything else is refused, said on stderr.
std::optional<bool> lenientRules() {
  const char *value = std::getenv("FA4_EMU_RULES");
  if (!value || !*value || std::string(value) == "strict")
    return false;
  if (std::string(value) == "lenient")
    return true;
  std::fprintf(stderr, "fa4-emu: FA4_EMU_RULES=%s is not strict or lenient\n",
               value);
  return std::nullopt;
}

/// FA4_EMU_SFU=DIR: the special-function unit's measured tables (Sfu.h),
/// loaded at the first launch; false, said on stderr, where DIR lacks them.
bool specialFunctionTables() {
  const char *value = std::getenv("FA4_EMU_SFU");
  if (!value || !*value || sfuTables())
    return true;
  std::string why = loadSfuTables(value);
  if (!why.empty())
    std::fprintf(stderr, "fa4-emu: FA4_EMU_SFU=%s: %s\n", value, why.c_str());
  return why.empty();
}

/// FA4_EMU_COVERAGE=FILE: where the process's coverage goes ("" for none).
std::string coverageFile() {
  const char *value = std::getenv("FA4_EMU_COVERAGE");
  return value ? value : "";
}

std::string hexHash(uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

/// With FA4_EMU_COVERAGE=FILE, a module's PTX is kept as FILE.ptx/HASH.ptx,
/// so that emu/scripts/coverage.py finds the text its lines count even
/// after the test that compiled it edited or removed it.
void keepCoveredPtx(const Module &module, const char *text) {
  std::string file = coverageFile();
  if (file.empty())
    return;
  for (const Kernel *kernel : module.entries())
    addCoverage(*kernel);
  std::string folder = file + ".ptx";
  mkdir(folder.c_str(), 0777);
  std::string path = folder + "/" + hexHash(module.hash()) + ".ptx";
  if (access(path.c_str(), F_OK) == 0)
    return;
  // Written aside and renamed: processes may keep the same module at once.
  std::string partial = path + "." + std::to_string(getpid());
  if (FILE *out = std::fopen(partial.c_str(), "w")) {
    std::fputs(text, out);
    std::fclose(out);
    std::rename(partial.c_str(), path.c_str());
  }
}

/// FA4_EMU_COVERAGE=FILE: at exit, per kernel launched, "kernel NAME HASH"
/// and a "LINE COUNT" line for every PTX line holding an instruction (the
/// warp instructions executed there), appended to FILE under a lock, so
/// that processes running at once merge (emu/scripts/coverage.py sums).
struct CoverageReport {
  ~CoverageReport() {
    std::string file = coverageFile();
    if (file.empty())
      return;
    std::string text;
    for (const KernelCoverage &kernel : coverage()) {
      text +=
          "kernel " + kernel.kernel + " " + hexHash(kernel.moduleHash) + "\n";
      for (const auto &[line, count] : kernel.lines)
        text += std::to_string(line) + " " + std::to_string(count) + "\n";
    }
    if (text.empty())
      return;
    int fd = open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0666);
    if (fd < 0) {
      std::fprintf(stderr, "fa4-emu: cannot write coverage to %s\n",
                   file.c_str());
      return;
    }
    flock(fd, LOCK_EX);
    for (size_t done = 0; done < text.size();) {
      ssize_t written = write(fd, text.data() + done, text.size() - done);
      if (written <= 0)
        break;
      done += size_t(written);
    }
    flock(fd, LOCK_UN);
    close(fd);
  }
} coverageReport;

/// FA4_EMU_STATS set: the process's emulated warp instructions and their
/// rate, printed to stderr at exit.
struct StatisticsReport {
  ~StatisticsReport() {
    if (!std::getenv("FA4_EMU_STATS"))
      return;
    Statistics totals = statistics();
    std::fprintf(stderr,
                 "fa4-emu: %llu warp instructions in %.2f s of launches "
                 "(%.2e per second), %llu in the largest launch\n",
                 static_cast<unsigned long long>(totals.warpInstructions),
                 totals.seconds,
                 totals.seconds > 0
                     ? double(totals.warpInstructions) / totals.seconds
                     : 0.0,
                 static_cast<unsigned long long>(totals.largestLaunch));
  }
} statisticsReport;

bool initialized = false;
int contextToken = 1; // the one context's handle points here
CUcontext current = nullptr;

} // namespace

FA4_EMU_EXPORT CUresult cuInit(unsigned int) {
  initialized = true;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case CUDA_SUCCESS:
    *name = "CUDA_SUCCESS";
    break;
  case CUDA_ERROR_INVALID_VALUE:
    *name = "CUDA_ERROR_INVALID_VALUE";
    break;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    break;
  case CUDA_ERROR_NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    break;
  case CUDA_ERROR_INVALID_IMAGE:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    break;
  case CUDA_ERROR_LAUNCH_FAILED:
    *name = "CUDA_ERROR_LAUNCH_FAILED";
    break;
  case CUDA_ERROR_NOT_SUPPORTED:
    *name = "CUDA_ERROR_NOT_SUPPORTED";
    break;
  case CUDA_ERROR_INVALID_HANDLE:
    *name = "CUDA_ERROR_INVALID_HANDLE";
    break;
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    *name = "CUDA_ERROR_LAUNCH_TIMEOUT";
    break;
  default:
    *name = "CUDA_ERROR_UNKNOWN";
    break;
  }
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case CUDA_ERROR_LAUNCH_FAILED:
    *text = "fa4-emu: the kernel failed (the error is on stderr)";
    break;
  case CUDA_ERROR_INVALID_IMAGE:
    *text = "fa4-emu: the module is not PTX it can run (stderr says why)";
    break;
  case CUDA_ERROR_NOT_SUPPORTED:
    *text = "fa4-emu: not supported by the emulator";
    break;
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    *text = "fa4-emu: the kernel ran past its step limit "
            "(FA4_EMU_STEP_LIMIT; stderr names it)";
    break;
  default:
    return cuGetErrorName(error, text);
  }
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (!initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuDeviceGetAttribute(int *value,
                                             CUdevice_attribute attribute,
                                             CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = computeCapability() / 10;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = computeCapability() % 10;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = int(kMaxSharedBytes);
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *value = 50 * 1024 * 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *value = 32;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::snprintf(name, size_t(length), "fa4-emu (%s)", arch().c_str());
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(&contextToken);
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = current;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
  current = context;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuCtxGetDevice(CUdevice *device) {
  *device = 0;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                           unsigned int numOptions,
                                           CUjit_option *options,
                                           void **optionValues) {
  const char *text = static_cast<const char *>(image);
  auto report = [&](const std::string &message) {
    std::fprintf(stderr, "fa4-emu: %s\n", message.c_str());
    for (unsigned i = 0; i < numOptions; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER && i + 1 <= numOptions) {
        size_t size = 0;
        for (unsigned j = 0; j < numOptions; ++j)
          if (options[j] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
            size = reinterpret_cast<size_t>(optionValues[j]);
        if (size)
          std::snprintf(static_cast<char *>(optionValues[i]), size,
                        "fa4-emu: %s", message.c_str());
      }
    return CUDA_ERROR_INVALID_IMAGE;
  };
  if (std::memcmp(text,
                  "\x7f"
                  "ELF",
                  4) == 0)
    return report("a cubin holds machine code, which the emulator cannot "
                  "run; compile with fa4-compile --ptxas=none (PTX)");
  try {
    auto loaded = std::make_unique<EmuModule>();
    loaded->module = std::make_unique<Module>(std::string(text), memory());
    std::string target = loaded->module->target();
    if (target != arch())
      return report("the module targets " + target + " but the emulated " +
                    "device is " + arch() + " (FA4_EMU_ARCH)");
    keepCoveredPtx(*loaded->module, text);
    *module = reinterpret_cast<CUmodule>(loaded.release());
    return CUDA_SUCCESS;
  } catch (const std::exception &error) {
    return report(error.what());
  }
}

FA4_EMU_EXPORT CUresult cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<EmuModule *>(module);
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuModuleGetFunction(CUfunction *function,
                                            CUmodule module, const char *name) {
  auto *loaded = reinterpret_cast<EmuModule *>(module);
  const Kernel *kernel = loaded->module->kernel(name);
  if (!kernel)
    return CUDA_ERROR_NOT_FOUND;
  std::unique_ptr<EmuFunction> &handle = loaded->functions[kernel];
  if (!handle)
    handle.reset(new EmuFunction{loaded, kernel});
  *function = reinterpret_cast<CUfunction>(handle.get());
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuModuleGetGlobal(CUdeviceptr *address, size_t *bytes,
                                          CUmodule module, const char *name) {
  auto *loaded = reinterpret_cast<EmuModule *>(module);
  uint64_t where, size;
  if (!loaded->module->global(name, where, size))
    return CUDA_ERROR_NOT_FOUND;
  if (address)
    *address = where;
  if (bytes)
    *bytes = size;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuFuncSetAttribute(CUfunction function,
                                           CUfunction_attribute attribute,
                                           int value) {
  auto *emu = reinterpret_cast<EmuFunction *>(function);
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (value < 0 || int64_t(value) + staticSharedBytes(*emu->kernel) >
                         int64_t(kMaxSharedBytes))
      return CUDA_ERROR_INVALID_VALUE;
    emu->maxDynamicSmem = value;
  }
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuFuncGetAttribute(int *value,
                                           CUfunction_attribute attribute,
                                           CUfunction function) {
  auto *emu = reinterpret_cast<EmuFunction *>(function);
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = maxThreadsPerBlock(*emu->kernel);
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = staticSharedBytes(*emu->kernel);
    break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *value = emu->maxDynamicSmem;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuFuncGetParamInfo(CUfunction function, size_t index,
                                           size_t *offset, size_t *bytes) {
  auto *emu = reinterpret_cast<EmuFunction *>(function);
  std::vector<ParamLayout> layout = paramLayout(*emu->kernel);
  if (index >= layout.size())
    return CUDA_ERROR_INVALID_VALUE;
  *offset = layout[index].offset;
  *bytes = layout[index].bytes;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType dataType, cuuint32_t rank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill oobFill) {
  static const std::map<CUtensorMapDataType, uint32_t> sizes = {
      {CU_TENSOR_MAP_DATA_TYPE_UINT8, 1},
      {CU_TENSOR_MAP_DATA_TYPE_UINT16, 2},
      {CU_TENSOR_MAP_DATA_TYPE_UINT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_INT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_UINT64, 8},
      {CU_TENSOR_MAP_DATA_TYPE_INT64, 8},
      {CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2},
      {CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8},
      {CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2}};
  auto size = sizes.find(dataType);
  if (size == sizes.end() || rank < 1 || rank > 5 ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE ||
      reinterpret_cast<uint64_t>(globalAddress) % 16)
    return CUDA_ERROR_INVALID_VALUE;
  TensorMap map;
  map.rank = rank;
  map.elementBytes = size->second;
  map.globalAddress = reinterpret_cast<uint64_t>(globalAddress);
  for (cuuint32_t d = 0; d < rank; ++d) {
    map.globalDim[d] = globalDim[d];
    map.globalStrides[d] = d == 0 ? size->second : globalStrides[d - 1];
    map.boxDim[d] = boxDim[d];
    map.elementStrides[d] = elementStrides[d];
    // The driver's rules (cuTensorMapEncodeTiled): boxes of 1 to 256,
    // strides multiples of 16 bytes.
    if (boxDim[d] < 1 || boxDim[d] > 256 || globalDim[d] < 1 ||
        (d > 0 && globalStrides[d - 1] % 16))
      return CUDA_ERROR_INVALID_VALUE;
  }
  map.swizzle = swizzle == CU_TENSOR_MAP_SWIZZLE_32B    ? Swizzle::B32
                : swizzle == CU_TENSOR_MAP_SWIZZLE_64B  ? Swizzle::B64
                : swizzle == CU_TENSOR_MAP_SWIZZLE_128B ? Swizzle::B128
                                                        : Swizzle::None;
  if (map.swizzle != Swizzle::None &&
      boxDim[0] * size->second > uint32_t(swizzleSpanBytes(map.swizzle)))
    return CUDA_ERROR_INVALID_VALUE;
  map.nanFill = oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  std::memset(tensorMap, 0, sizeof(*tensorMap));
  std::memcpy(tensorMap, &map, sizeof(map));
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config,
                                         CUfunction function,
                                         void **kernelParams, void **extra) {
  auto *emu = reinterpret_cast<EmuFunction *>(function);
  if (extra)
    return CUDA_ERROR_NOT_SUPPORTED;
  LaunchOptions options;
  options.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  options.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  options.dynamicSmemBytes = config->sharedMemBytes;
  options.seed = seed();
  std::optional<int> laggard = laggardWarp();
  if (!laggard)
    return CUDA_ERROR_INVALID_VALUE;
  options.laggardWarp = *laggard;
  std::optional<uint64_t> limit = stepLimit();
  if (!limit)
    return CUDA_ERROR_INVALID_VALUE;
  options.stepLimit = *limit;
  std::optional<bool> lenient = lenientRules();
  if (!lenient)
    return CUDA_ERROR_INVALID_VALUE;
  options.tcgen05Lenient = *lenient;
  options.coverage = !coverageFile().empty();
  if (!schedule(options) || !specialFunctionTables())
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      const auto &dim = config->attrs[i].value.clusterDim;
      options.cluster = {dim.x, dim.y, dim.z};
    }
  if (config->sharedMemBytes > unsigned(emu->maxDynamicSmem))
    return CUDA_ERROR_INVALID_VALUE;
  const Kernel &kernel = *emu->kernel;
  std::string invalid = invalidLaunch(kernel, options);
  if (!invalid.empty()) {
    std::fprintf(stderr, "fa4-emu: %s\n", invalid.c_str());
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::vector<ParamLayout> layout = paramLayout(kernel);
  std::vector<uint8_t> params(
      layout.empty() ? 0 : layout.back().offset + layout.back().bytes);
  for (size_t i = 0; i < layout.size(); ++i)
    std::memcpy(params.data() + layout[i].offset, kernelParams[i],
                layout[i].bytes);
  try {
    launch(kernel, params, options, memory());
  } catch (const StepLimitError &error) {
    std::fprintf(stderr, "%s\nfa4-emu: replay: %s\n", error.what(),
                 describeSchedule(options).c_str());
    return CUDA_ERROR_LAUNCH_TIMEOUT;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "%s\nfa4-emu: replay: %s\n", error.what(),
                 describeSchedule(options).c_str());
    return CUDA_ERROR_LAUNCH_FAILED;
  }
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  uint64_t address = memory().allocate(bytes);
  if (!address)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = address;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuMemFree(CUdeviceptr pointer) {
  if (!memory().release(pointer))
    return CUDA_ERROR_INVALID_VALUE;
  std::free(reinterpret_cast<void *>(pointer));
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *pointer, size_t bytes,
                                        CUstream) {
  return cuMemAlloc(pointer, bytes);
}

FA4_EMU_EXPORT CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream) {
  return cuMemFree(pointer);
}

FA4_EMU_EXPORT CUresult cuMemcpyHtoD(CUdeviceptr to, const void *from,
                                     size_t bytes) {
  if (!memory().contains(to, bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(to), from, bytes);
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuMemcpyDtoH(void *to, CUdeviceptr from, size_t bytes) {
  if (!memory().contains(from, bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(to, reinterpret_cast<const void *>(from), bytes);
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuMemsetD16(CUdeviceptr to, unsigned short value,
                                    size_t count) {
  if (count > SIZE_MAX / 2 || !memory().contains(to, count * 2))
    return CUDA_ERROR_INVALID_VALUE;
  auto *out = reinterpret_cast<uint16_t *>(to);
  for (size_t i = 0; i < count; ++i)
    out[i] = value;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuMemsetD32(CUdeviceptr to, unsigned int value,
                                    size_t count) {
  if (count > SIZE_MAX / 4 || !memory().contains(to, count * 4))
    return CUDA_ERROR_INVALID_VALUE;
  auto *out = reinterpret_cast<uint32_t *>(to);
  for (size_t i = 0; i < count; ++i)
    out[i] = value;
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }

FA4_EMU_EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned int) {
  static int streams = 0;
  *stream = reinterpret_cast<CUstream>(uintptr_t(++streams) << 4);
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }

// CUDA graphs are not emulated: capture fails cleanly.
FA4_EMU_EXPORT CUresult cuStreamBeginCapture(CUstream, CUstreamCaptureMode) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
FA4_EMU_EXPORT CUresult cuStreamEndCapture(CUstream, CUgraph *) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
FA4_EMU_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *, CUgraph,
                                                    unsigned long long) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
FA4_EMU_EXPORT CUresult cuGraphLaunch(CUgraphExec, CUstream) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
FA4_EMU_EXPORT CUresult cuGraphExecDestroy(CUgraphExec) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
FA4_EMU_EXPORT CUresult cuGraphDestroy(CUgraph) {
  return CUDA_ERROR_NOT_SUPPORTED;
}

FA4_EMU_EXPORT CUresult cuEventCreate(CUevent *event, unsigned int) {
  *event = reinterpret_cast<CUevent>(new EmuEvent{});
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuEventRecord(CUevent event, CUstream) {
  reinterpret_cast<EmuEvent *>(event)->time = std::chrono::steady_clock::now();
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }

FA4_EMU_EXPORT CUresult cuEventElapsedTime(float *milliseconds, CUevent start,
                                           CUevent end) {
  std::chrono::duration<float, std::milli> elapsed =
      reinterpret_cast<EmuEvent *>(end)->time -
      reinterpret_cast<EmuEvent *>(start)->time;
  *milliseconds = elapsed.count();
  return CUDA_SUCCESS;
}

FA4_EMU_EXPORT CUresult cuEventDestroy(CUevent event) {
  delete reinterpret_cast<EmuEvent *>(event);
  return CUDA_SUCCESS;
}
