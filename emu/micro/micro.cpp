//===- micro.cpp - The micro kernels, on a GPU or on fa4-emu --------------===//
//
// Runs emu/micro/*.ptx through the CUDA driver API, opened with dlopen:
// libcuda.so.1 on a GPU, or fa4-emu's libfa4emu.so (--driver), so the same
// code drives both. Prints one line per case: its name and the FNV-1a hash
// and first words of its output buffer; the two machines must print the
// same lines (scripts/emu-micro.sh compares them).
//
//   micro [--driver LIB] DIR
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Driver {
  void *library = nullptr;
  template <typename F> F get(const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol)
      throw std::runtime_error(std::string("missing ") + name);
    return reinterpret_cast<F>(symbol);
  }
  explicit Driver(const char *path) : library(dlopen(path, RTLD_NOW)) {
    if (!library)
      throw std::runtime_error(std::string("cannot open ") + path);
  }
};

void check(CUresult result, const char *what) {
  if (result != CUDA_SUCCESS)
    throw std::runtime_error(std::string(what) +
                             " failed: " + std::to_string(int(result)));
}

struct Case {
  std::string name, ptx;
  CUtensorMapSwizzle swizzle;
  uint32_t boxInner, boxRows; // bf16 elements, rows
  uint32_t x;                 // the box's column
  uint32_t copyBytes;         // tma-load: shared bytes copied out
  uint32_t txBytes;           // bytes the mbarrier expects
  uint32_t threads, cluster;
};

uint64_t fnv1a(const std::vector<uint8_t> &bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes)
    hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

std::string readFile(const std::string &path) {
  std::ifstream file(path);
  if (!file)
    throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

} // namespace

int main(int argc, char **argv) {
  const char *driverPath = "libcuda.so.1";
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--driver" && i + 1 < argc)
      driverPath = argv[++i];
    else
      dir = argv[i];
  }
  try {
    Driver d(driverPath);
    auto cuInit = d.get<decltype(&::cuInit)>("cuInit");
    auto cuDeviceGet = d.get<decltype(&::cuDeviceGet)>("cuDeviceGet");
    auto cuDevicePrimaryCtxRetain =
        d.get<decltype(&::cuDevicePrimaryCtxRetain)>(
            "cuDevicePrimaryCtxRetain");
    auto cuCtxSetCurrent =
        d.get<decltype(&::cuCtxSetCurrent)>("cuCtxSetCurrent");
    auto cuModuleLoadDataEx =
        d.get<decltype(&::cuModuleLoadDataEx)>("cuModuleLoadDataEx");
    auto cuModuleGetFunction =
        d.get<decltype(&::cuModuleGetFunction)>("cuModuleGetFunction");
    auto cuFuncSetAttribute =
        d.get<decltype(&::cuFuncSetAttribute)>("cuFuncSetAttribute");
    auto cuMemAlloc = d.get<decltype(&::cuMemAlloc)>("cuMemAlloc_v2");
    auto cuMemFree = d.get<decltype(&::cuMemFree)>("cuMemFree_v2");
    auto cuMemcpyHtoD = d.get<decltype(&::cuMemcpyHtoD)>("cuMemcpyHtoD_v2");
    auto cuMemcpyDtoH = d.get<decltype(&::cuMemcpyDtoH)>("cuMemcpyDtoH_v2");
    auto cuTensorMapEncodeTiled =
        d.get<decltype(&::cuTensorMapEncodeTiled)>("cuTensorMapEncodeTiled");
    auto cuLaunchKernelEx =
        d.get<decltype(&::cuLaunchKernelEx)>("cuLaunchKernelEx");
    auto cuCtxSynchronize =
        reinterpret_cast<CUresult (*)()>(dlsym(d.library, "cuCtxSynchronize"));

    check(cuInit(0), "cuInit");
    CUdevice device;
    check(cuDeviceGet(&device, 0), "cuDeviceGet");
    CUcontext context;
    check(cuDevicePrimaryCtxRetain(&context, device),
          "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(context), "cuCtxSetCurrent");

    // A [16 x 64] bf16 tensor, element e = e + 1.
    const uint64_t rows = 16, columns = 64;
    std::vector<uint16_t> tensor(rows * columns);
    for (size_t e = 0; e < tensor.size(); ++e)
      tensor[e] = uint16_t(e + 1);
    CUdeviceptr tensorMemory, out;
    check(cuMemAlloc(&tensorMemory, tensor.size() * 2), "cuMemAlloc");
    check(cuMemcpyHtoD(tensorMemory, tensor.data(), tensor.size() * 2),
          "cuMemcpyHtoD");
    const size_t outBytes = 4096;
    check(cuMemAlloc(&out, outBytes), "cuMemAlloc");

    std::vector<Case> cases = {
        {"tma-none-oob", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_NONE, 32, 4, 48,
         256, 256, 64, 1},
        {"tma-128B", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_128B, 64, 8, 0, 1024,
         1024, 64, 1},
        {"tma-64B", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_64B, 32, 8, 8, 512,
         512, 64, 1},
        {"tma-32B", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_32B, 16, 8, 16, 256,
         256, 64, 1},
        {"tma-128B-narrow-rows", "tma-load.ptx", CU_TENSOR_MAP_SWIZZLE_128B, 32,
         8, 0, 1024, 512, 64, 1},
        {"mbarrier-tx", "mbarrier-tx.ptx", CU_TENSOR_MAP_SWIZZLE_NONE, 64, 4, 0,
         0, 1024, 32, 1},
        {"cluster-dsmem", "cluster.ptx", CU_TENSOR_MAP_SWIZZLE_NONE, 64, 4, 0,
         0, 0, 64, 2},
    };
    for (const Case &c : cases) {
      std::string text = readFile(dir + "/" + c.ptx);
      CUmodule module;
      check(cuModuleLoadDataEx(&module, text.c_str(), 0, nullptr, nullptr),
            ("load " + c.ptx).c_str());
      CUfunction function;
      check(cuModuleGetFunction(&function, module, "k"), "cuModuleGetFunction");
      uint32_t smem = 16384;
      check(cuFuncSetAttribute(function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               int(smem)),
            "cuFuncSetAttribute");
      CUtensorMap map;
      cuuint64_t dims[2] = {columns, rows}, strides[1] = {columns * 2};
      cuuint32_t box[2] = {c.boxInner, c.boxRows}, elementStrides[2] = {1, 1};
      check(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                   reinterpret_cast<void *>(tensorMemory), dims,
                                   strides, box, elementStrides,
                                   CU_TENSOR_MAP_INTERLEAVE_NONE, c.swizzle,
                                   CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            "cuTensorMapEncodeTiled");
      std::vector<uint8_t> poison(outBytes, 0xee);
      check(cuMemcpyHtoD(out, poison.data(), outBytes), "cuMemcpyHtoD");
      uint32_t x = c.x, copy = c.copyBytes, tx = c.txBytes;
      void *params[] = {&map, &out, &x, &copy, &tx};
      CUlaunchConfig config = {};
      config.gridDimX = c.cluster;
      config.gridDimY = config.gridDimZ = 1;
      config.blockDimX = c.threads;
      config.blockDimY = config.blockDimZ = 1;
      config.sharedMemBytes = smem;
      CUlaunchAttribute attribute;
      attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attribute.value.clusterDim.x = c.cluster;
      attribute.value.clusterDim.y = attribute.value.clusterDim.z = 1;
      config.attrs = &attribute;
      config.numAttrs = 1;
      check(cuLaunchKernelEx(&config, function, params, nullptr),
            ("launch " + c.name).c_str());
      if (cuCtxSynchronize)
        check(cuCtxSynchronize(), "cuCtxSynchronize");
      std::vector<uint8_t> result(outBytes);
      check(cuMemcpyDtoH(result.data(), out, outBytes), "cuMemcpyDtoH");
      uint32_t words[6];
      std::memcpy(words, result.data(), sizeof(words));
      std::printf("MICRO %-22s fnv=%016llx words=%08x %08x %08x %08x %08x "
                  "%08x\n",
                  c.name.c_str(),
                  static_cast<unsigned long long>(fnv1a(result)), words[0],
                  words[1], words[2], words[3], words[4], words[5]);
    }
    cuMemFree(out);
    cuMemFree(tensorMemory);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "micro: %s\n", error.what());
    return 1;
  }
  return 0;
}
