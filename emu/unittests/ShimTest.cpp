//===- ShimTest.cpp - libfa4emu.so's driver entry points as an input ------===//
//
// The driver API as a caller may misuse it: sizes that wrap, modules
// mutated past what a chip can hold, a kernel that never ends. Each gets a
// clean CUDA error, not a crash or a hang.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

const char *kHeader = ".version 8.6\n.target sm_90a\n.address_size 64\n";

// Its one warp loops forever.
const char *kForever = R"(.visible .entry k()
.maxntid 32, 1, 1
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
AGAIN:
  add.s32 %r1, %r1, 1;
  bra.uni AGAIN;
}
)";

class ShimTest : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_EQ(cuInit(0), CUDA_SUCCESS); }

  /// cuModuleLoadDataEx of `text`: its result, and its error log in `log`.
  CUresult load(const std::string &text, CUmodule &module, std::string &log) {
    char buffer[512] = {};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {buffer, reinterpret_cast<void *>(sizeof(buffer))};
    CUresult result =
        cuModuleLoadDataEx(&module, text.c_str(), 2, options, values);
    log = buffer;
    return result;
  }

  /// Loads kForever and gets its kernel.
  bool loadForever(CUmodule &module, CUfunction &function) {
    std::string log;
    return load(std::string(kHeader) + kForever, module, log) == CUDA_SUCCESS &&
           cuModuleGetFunction(&function, module, "k") == CUDA_SUCCESS;
  }

  static CUlaunchConfig oneWarp() {
    CUlaunchConfig config{};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = 32;
    config.blockDimY = config.blockDimZ = 1;
    return config;
  }
};

TEST_F(ShimTest, RefusesAnAllocationPastTheDevice) {
  // SIZE_MAX once rounded up past 2^64 and succeeded.
  CUdeviceptr pointer = 0;
  EXPECT_EQ(cuMemAlloc(&pointer, SIZE_MAX), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(cuMemAlloc(&pointer, SIZE_MAX - 100), CUDA_ERROR_OUT_OF_MEMORY);
}

TEST_F(ShimTest, RefusesAMemsetWhoseSizeWraps) {
  CUdeviceptr pointer;
  ASSERT_EQ(cuMemAlloc(&pointer, 1024), CUDA_SUCCESS);
  // count * 4 (count * 2) wraps to 8 bytes, which the allocation holds.
  EXPECT_EQ(cuMemsetD32(pointer, 0, SIZE_MAX / 4 + 3),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemsetD16(pointer, 0, SIZE_MAX / 2 + 5),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemcpyHtoD(pointer, &pointer, SIZE_MAX),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemsetD32(pointer, 0, 256), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(pointer), CUDA_SUCCESS);
}

TEST_F(ShimTest, RefusesAMutatedModuleNamingTheLine) {
  CUmodule module;
  std::string log;
  // Once a division by zero (SIGFPE) while laying out shared memory.
  EXPECT_EQ(load(std::string(kHeader) +
                     ".shared .align 4294967296 .b8 buf[16];\n" + kForever,
                 module, log),
            CUDA_ERROR_INVALID_IMAGE);
  EXPECT_EQ(log, "fa4-emu: line 4: .align 4294967296 is not a power of two "
                 "from 1 to 16777216");
  EXPECT_EQ(
      load(std::string(kHeader) + ".shared .b8 buf[4294967808];\n" + kForever,
           module, log),
      CUDA_ERROR_INVALID_IMAGE);
  EXPECT_EQ(log, "fa4-emu: line 4: k: shared variable buf ends at byte "
                 "4294967808, past the chip's 232448 bytes of shared memory");
}

TEST_F(ShimTest, RefusesLaunchesTheDriverWould) {
  CUmodule module;
  CUfunction function;
  ASSERT_TRUE(loadForever(module, function));
  // More dynamic shared memory than the function allows: 2^31 bytes were
  // once compared as a negative int and let through.
  CUlaunchConfig config = oneWarp();
  config.sharedMemBytes = 0x80000000u;
  EXPECT_EQ(cuLaunchKernelEx(&config, function, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  // More threads than .maxntid.
  config = oneWarp();
  config.blockDimX = 64;
  EXPECT_EQ(cuLaunchKernelEx(&config, function, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

TEST_F(ShimTest, TimesOutAKernelThatNeverEnds) {
  CUmodule module;
  CUfunction function;
  ASSERT_TRUE(loadForever(module, function));
  CUlaunchConfig config = oneWarp();
  setenv("FA4_EMU_STEP_LIMIT", "100000", 1);
  EXPECT_EQ(cuLaunchKernelEx(&config, function, nullptr, nullptr),
            CUDA_ERROR_LAUNCH_TIMEOUT);
  const char *name = nullptr;
  cuGetErrorName(CUDA_ERROR_LAUNCH_TIMEOUT, &name);
  EXPECT_STREQ(name, "CUDA_ERROR_LAUNCH_TIMEOUT");
  setenv("FA4_EMU_STEP_LIMIT", "lots", 1);
  EXPECT_EQ(cuLaunchKernelEx(&config, function, nullptr, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  unsetenv("FA4_EMU_STEP_LIMIT");
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

} // namespace
