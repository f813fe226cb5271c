//===- Driver.cpp - The CUDA driver, opened at run time -------------------===//

#include "Driver.h"

#include "Error.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace fa4::rt;

// Two steps so that the argument is macro-expanded before it is quoted.
#define FA4_SYMBOL_NAME(name) FA4_QUOTE(name)
#define FA4_QUOTE(name) #name

static Error cudaError(const DriverApi &api, CUresult result,
                       const char *call) {
  const char *name = "unknown CUresult";
  const char *text = "";
  api.cuGetErrorName(result, &name);
  api.cuGetErrorString(result, &text);
  return Error(FA4_ERROR_CUDA,
               std::string(call) + " failed: " + name + ": " + text);
}

DriverApi fa4::rt::openDriver(const std::string &path) {
  // The handle is never closed: function pointers outlive every caller.
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    throw Error(FA4_ERROR_DRIVER_NOT_FOUND,
                "CUDA driver (" + path + ") not found: " + dlerror());
  DriverApi api;
#define FA4_RESOLVE(name)                                                      \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      dlsym(library, FA4_SYMBOL_NAME(name)));                                  \
  if (!api.name)                                                               \
    throw Error(                                                               \
        FA4_ERROR_DRIVER_NOT_FOUND,                                            \
        "CUDA driver (" + path +                                               \
            ") lacks " FA4_SYMBOL_NAME(name) "; it is "                        \
                                             "older than the CUDA headers "    \
                                             "libfa4rt was built with (" +     \
            std::to_string(CUDA_VERSION) + ")");
  FA4_DRIVER_FUNCTIONS(FA4_RESOLVE)
#undef FA4_RESOLVE
  api.cuFuncGetParamInfo = reinterpret_cast<decltype(api.cuFuncGetParamInfo)>(
      dlsym(library, "cuFuncGetParamInfo"));
  return api;
}

const DriverApi &fa4::rt::driver() {
  static std::once_flag once;
  static DriverApi api;
  // call_once retries if the callable throws, so a missing driver is
  // reported on every call rather than leaving a half-initialized api.
  std::call_once(once, [] {
    const char *override = std::getenv("FA4_CUDA_DRIVER_PATH");
    DriverApi opened =
        openDriver(override && *override ? override : "libcuda.so.1");
    if (CUresult result = opened.cuInit(0))
      throw cudaError(opened, result, "cuInit");
    api = opened;
  });
  return api;
}

void fa4::rt::checkCuda(CUresult result, const char *call) {
  // A CUresult comes from the driver, so driver() is already open here.
  if (result != CUDA_SUCCESS)
    throw cudaError(driver(), result, call);
}

CUdevice fa4::rt::currentDevice() {
  CUdevice device;
  checkCuda(driver().cuCtxGetDevice(&device), "cuCtxGetDevice");
  return device;
}

int fa4::rt::deviceAttribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  checkCuda(driver().cuDeviceGetAttribute(&value, which, device),
            "cuDeviceGetAttribute");
  return value;
}

CUcontext fa4::rt::currentContext() {
  const DriverApi &api = driver();
  CUcontext context = nullptr;
  checkCuda(api.cuCtxGetCurrent(&context), "cuCtxGetCurrent");
  if (context)
    return context;
  CUdevice device;
  checkCuda(api.cuDeviceGet(&device, 0), "cuDeviceGet");
  checkCuda(api.cuDevicePrimaryCtxRetain(&context, device),
            "cuDevicePrimaryCtxRetain");
  checkCuda(api.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  return context;
}
