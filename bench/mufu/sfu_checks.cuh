// What tables.cu and signs.cu share (bench/mufu/README.md): the CUDA
// error check, the PTX special functions both probe, and a check's
// mismatch count with its first mismatching inputs, printed as one
// "CHECK name checked=N mismatches=M x:got/want..." line.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_CUDA(x)                                                          \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__device__ __forceinline__ float ex2Ftz(float x) {
  float r;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ float lg2Ftz(float x) {
  float r;
  asm volatile("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
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
