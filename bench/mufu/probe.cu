// Probes the sm_90 special-function unit's ex2.approx.ftz.f32 over every
// f32 input in [-128, 128): its error against exp2 correctly rounded, and
// two structural hypotheses a table model needs:
//   H1 (exponent split): ex2(x) == ex2(x - n) * 2^n for the integer n = floor(x)
//   H2 (input quantization): ex2(x) depends only on x rounded to K fraction bits.
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <cuda_runtime.h>

__device__ __forceinline__ float ex2(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

struct Stats {
  unsigned long long total, exact, ulp1, ulp2, ulpMore, h1Fail;
  unsigned long long h2Fail[8]; // K = 16..23 fraction bits
  int maxUlp;
};

__global__ void probe(uint32_t begin, uint32_t count, Stats *stats) {
  Stats local = {};
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += gridDim.x * blockDim.x) {
    uint32_t bits = begin + i;
    float x = __uint_as_float(bits);
    if (!(x >= -126.0f && x < 127.0f)) continue;
    float r = ex2(x);
    float ref = (float)exp2((double)x);
    int d = abs((int)__float_as_uint(r) - (int)__float_as_uint(ref));
    local.total++;
    if (d == 0) local.exact++; else if (d == 1) local.ulp1++; else if (d == 2) local.ulp2++; else local.ulpMore++;
    if (d > local.maxUlp) local.maxUlp = d;
    float n = floorf(x);
    float f = x - n; // exact for |x| < 2^23 when n is an integer near x
    float split = ex2(f) * exp2f(n);
    if (__float_as_uint(split) != __float_as_uint(r)) local.h1Fail++;
    for (int k = 16; k <= 23; ++k) {
      float q = n + rintf(f * (float)(1 << k)) / (float)(1 << k);
      if (q != x && __float_as_uint(ex2(q)) != __float_as_uint(r)) local.h2Fail[k - 16]++;
    }
  }
  atomicAdd(&stats->total, local.total);
  atomicAdd(&stats->exact, local.exact);
  atomicAdd(&stats->ulp1, local.ulp1);
  atomicAdd(&stats->ulp2, local.ulp2);
  atomicAdd(&stats->ulpMore, local.ulpMore);
  atomicAdd(&stats->h1Fail, local.h1Fail);
  for (int k = 0; k < 8; ++k) atomicAdd(&stats->h2Fail[k], local.h2Fail[k]);
  atomicMax(&stats->maxUlp, local.maxUlp);
}

static void run(const char *name, uint32_t begin, uint32_t end) {
  Stats *stats;
  cudaMallocManaged(&stats, sizeof(Stats));
  *stats = {};
  for (uint64_t b = begin; b < end; b += (1u << 28)) {
    uint32_t count = (uint32_t)std::min<uint64_t>(1u << 28, end - b);
    probe<<<1056, 256>>>((uint32_t)b, count, stats);
  }
  cudaDeviceSynchronize();
  printf("%-10s total=%llu exact=%.4f%% 1ulp=%.4f%% 2ulp=%.4f%% >2ulp=%llu max=%d "
         "H1(split)fail=%llu H2fail(K=16..23)=",
         name, stats->total, 100.0 * stats->exact / stats->total,
         100.0 * stats->ulp1 / stats->total, 100.0 * stats->ulp2 / stats->total,
         stats->ulpMore, stats->maxUlp, stats->h1Fail);
  for (int k = 0; k < 8; ++k) printf("%llu%s", stats->h2Fail[k], k < 7 ? "," : "\n");
  cudaFree(stats);
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  run("x>=0", 0x00000000u, 0x43000000u);     // [0, 128)
  run("x<0", 0x80000000u, 0xC3000000u);      // (-128, -0]
  return 0;
}
