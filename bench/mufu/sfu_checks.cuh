// What tables.cu, signs.cu, lg2.cu and rcp.cu share (bench/mufu/README.md):
// the CUDA error check, the PTX special functions they probe, the lg2 and
// rcp tables they fill, a check's
// mismatch count with its first mismatching inputs, printed as one
// "CHECK name checked=N mismatches=M x:got/want..." line, and the writing of
// a measured table to a file.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// One special-function instruction, as the kernels emit it.
#define FA4_SFU_UNARY(NAME, INSTRUCTION)                                       \
  __device__ __forceinline__ float NAME(float x) {                             \
    float r;                                                                   \
    asm volatile(INSTRUCTION " %0, %1;" : "=f"(r) : "f"(x));                   \
    return r;                                                                  \
  }
FA4_SFU_UNARY(ex2Ftz, "ex2.approx.ftz.f32")
FA4_SFU_UNARY(ex2Full, "ex2.approx.f32")
FA4_SFU_UNARY(lg2Ftz, "lg2.approx.ftz.f32")
FA4_SFU_UNARY(lg2Full, "lg2.approx.f32")
FA4_SFU_UNARY(rcpFtz, "rcp.approx.ftz.f32")
FA4_SFU_UNARY(rcpFull, "rcp.approx.f32")
FA4_SFU_UNARY(tanhApprox, "tanh.approx.f32")
#undef FA4_SFU_UNARY

// lg2 on [1, 2) (scale 1) and on [0.5, 1) (scale 0.5), by mantissa.
__global__ void fillLg2(uint32_t *t, float scale) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < (1u << 23);
       j += gridDim.x * blockDim.x)
    t[j] = __float_as_uint(lg2Ftz(__uint_as_float(0x3f800000u | j) * scale));
}
__global__ void fillRcp(uint32_t *t) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < (1u << 23);
       j += gridDim.x * blockDim.x)
    t[j] = __float_as_uint(rcpFtz(__uint_as_float(0x3f800000u | j)));
}
// L on [1, 2) from lg2 on [1, 2) (e0) and on [0.5, 1) (em1): the first
// below 1/2, one more than the second above.
__device__ double lg2Fixed(const uint32_t *e0, const uint32_t *em1, uint32_t j) {
  float r0 = __uint_as_float(e0[j]);
  return r0 < 0.5f ? (double)r0 : (double)__uint_as_float(em1[j]) + 1.0;
}

struct Result {
  unsigned long long checked, mismatches;
  uint32_t first[8], got[8], want[8];
};

__device__ void record(Result *r, uint32_t x, uint32_t got, uint32_t want) {
  unsigned long long k = atomicAdd(&r->mismatches, 1ull);
  if (k < 8) {
    r->first[k] = x;
    r->got[k] = got;
    r->want[k] = want;
  }
}

__device__ bool sameBits(float a, float b) {
  return __float_as_uint(a) == __float_as_uint(b) ||
         (isnan(a) && isnan(b));
}

static Result *result;

template <typename Launch> static void runCheck(const char *name, Launch launch) {
  CHECK_CUDA(cudaMemset(result, 0, sizeof(Result)));
  launch();
  CHECK_CUDA(cudaDeviceSynchronize());
  Result h;
  CHECK_CUDA(cudaMemcpy(&h, result, sizeof(Result), cudaMemcpyDeviceToHost));
  printf("CHECK %-24s checked=%llu mismatches=%llu", name, h.checked, h.mismatches);
  for (int i = 0; i < 8 && i < (int)h.mismatches; ++i)
    printf(" %08x:%08x/%08x", h.first[i], h.got[i], h.want[i]);
  printf("\n");
  fflush(stdout);
}

// `words` to `path` (little-endian u32); exits on failure.
static void writeWords(const std::string &path, const std::vector<uint32_t> &words) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!f || fwrite(words.data(), 4, words.size(), f) != words.size()) {
    fprintf(stderr, "cannot write %s\n", path.c_str());
    exit(1);
  }
  fclose(f);
}

// `count` words of device memory `device` to `path`.
static void saveDeviceWords(const std::string &path, const uint32_t *device, size_t count) {
  std::vector<uint32_t> host(count);
  CHECK_CUDA(cudaMemcpy(host.data(), device, count * 4, cudaMemcpyDeviceToHost));
  writeWords(path, host);
}
