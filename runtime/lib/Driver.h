//===- Driver.h - The CUDA driver, opened at run time -----------*- C++ -*-===//
//
// libfa4rt never links libcuda: it is opened with dlopen on first use, so the
// runtime builds and its non-GPU paths run on machines without a driver.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_DRIVER_H
#define FA4_RUNTIME_DRIVER_H

#include <cuda.h>

#include <string>

namespace fa4::rt {

// Every driver entry point the runtime calls. cuda.h #defines many of these
// names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2, ...); each member
// is looked up under the symbol the header maps its name to, so the ABI
// matches the declarations compiled against.
#define FA4_DRIVER_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceGetName)                                                           \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleGetGlobal)                                                         \
  X(cuFuncSetAttribute)                                                        \
  X(cuFuncGetAttribute)                                                        \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuLaunchKernelEx)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemAllocAsync)                                                           \
  X(cuMemFreeAsync)                                                            \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD16)                                                               \
  X(cuMemsetD32)                                                               \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphInstantiateWithFlags)                                               \
  X(cuGraphLaunch)                                                             \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuEventDestroy)

struct DriverApi {
#define FA4_DECLARE_MEMBER(name) decltype(&::name) name = nullptr;
  FA4_DRIVER_FUNCTIONS(FA4_DECLARE_MEMBER)
#undef FA4_DECLARE_MEMBER
  /// CUDA 12.4 and later (null before): a kernel's parameter offsets and
  /// sizes, which the manifest's parameters must match (BinaryAbi.h).
  decltype(&::cuFuncGetParamInfo) cuFuncGetParamInfo = nullptr;
};

/// Opens `path` and resolves every entry point; throws
/// Error(FA4_ERROR_DRIVER_NOT_FOUND) naming the library and the dlerror.
DriverApi openDriver(const std::string &path);

/// The process-wide driver: $FA4_CUDA_DRIVER_PATH or libcuda.so.1, opened
/// and cuInit-ed once.
const DriverApi &driver();

/// Throws Error(FA4_ERROR_CUDA) "<call> failed: CUDA_ERROR_X: <text>".
void checkCuda(CUresult result, const char *call);

/// The calling thread's current context, or device 0's primary context made
/// current (the CUDA runtime's choice, so mixed code agrees).
CUcontext currentContext();

/// The device of the calling thread's current context.
CUdevice currentDevice();

/// One attribute of `device` (cuDeviceGetAttribute).
int deviceAttribute(CUdevice device, CUdevice_attribute which);

} // namespace fa4::rt

#endif // FA4_RUNTIME_DRIVER_H
