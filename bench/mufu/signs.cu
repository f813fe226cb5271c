// The second measurement (bench/mufu/README.md): ex2.approx.ftz.f32 read as
// sign and magnitude. tables.cu found that on [0, 1) the unit reads 23
// fraction bits (the 2^-24 grid's values come in equal pairs) and that a
// tiny negative input gives exactly 1: the fraction of a negative input is
// truncated toward zero, so its values come from a table of 2^-f of their
// own. This dumps that table, ex2(-i 2^-23) for i in [0, 2^23), and checks
//   ex2.ftz(x) = 2^n T+[f], (n, f) = floor(x 2^23) split at 23 bits, x >= 0
//   ex2.ftz(x) = 2^-n T-[f], (n, f) = trunc(|x| 2^23) split, x < 0
// (flushed below 2^-126, infinite from 128) on every f32 input, and lg2
// with its L read off [1, 2) alone, rounded either way.
//   signs DIR   writes DIR/ex2neg.u32 and prints one CHECK line per model
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "sfu_checks.cuh"

__global__ void fill(uint32_t *pos, uint32_t *neg) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (1u << 23);
       i += gridDim.x * blockDim.x) {
    pos[i] = __float_as_uint(ex2Ftz(ldexpf((float)i, -23)));
    neg[i] = __float_as_uint(ex2Ftz(-ldexpf((float)i, -23)));
  }
}

__device__ float model(float x, const uint32_t *pos, const uint32_t *neg) {
  if (isnan(x)) return x;
  if (x >= 128.0f) return INFINITY;
  if (x < -160.0f) return 0.0f;
  double scaled = ldexp((double)fabsf(x), 23);
  long long fixed = x >= 0 ? (long long)floor(scaled) : (long long)trunc(scaled);
  long long n = fixed >> 23, f = fixed & ((1 << 23) - 1);
  double r = x >= 0 ? ldexp((double)__uint_as_float(pos[f]), (int)n)
                    : ldexp((double)__uint_as_float(neg[f]), -(int)n);
  if (r < 1.1754943508222875e-38) return 0.0f;
  return (float)r;
}

__global__ void checkEx2(const uint32_t *pos, const uint32_t *neg, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    float x0 = fabsf(x) < 1.1754943508222875e-38f ? 0.0f : x;
    float got = ex2Ftz(x), want = model(x0, pos, neg);
    ++checked;
    if (!sameBits(got, want)) record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

// lg2 = round(e + L[j]) with L = lg2 on [1, 2) as the unit gives it;
// rounding 0 nearest, 1 toward zero; `lowBits` > 0: L read as a fixed-point
// value of that many fraction bits (the float rounded there).
__global__ void checkLg2(const uint32_t *e0, int rounding, int lowBits, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 31);
       b += gridDim.x * blockDim.x) {
    uint32_t bits = (uint32_t)b;
    float x = __uint_as_float(bits);
    if (isnan(x) || isinf(x) || bits < 0x00800000u) continue;
    int e = (int)(bits >> 23) - 127;
    double l = (double)__uint_as_float(e0[bits & 0x7fffffu]);
    if (lowBits > 0) l = rint(ldexp(l, lowBits)) / ldexp(1.0, lowBits);
    double sum = (double)e + l;
    float want = rounding == 0 ? __double2float_rn(sum) : __double2float_rz(sum);
    float got = lg2Ftz(x);
    ++checked;
    if (!sameBits(got, want)) record(r, bits, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}


int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: signs DIR\n");
    return 2;
  }
  const int grid = 132 * 16, block = 256;
  CHECK_CUDA(cudaMalloc(&result, sizeof(Result)));
  uint32_t *pos, *neg, *e0;
  CHECK_CUDA(cudaMalloc(&pos, 4u << 23));
  CHECK_CUDA(cudaMalloc(&neg, 4u << 23));
  CHECK_CUDA(cudaMalloc(&e0, 4u << 23));
  fill<<<grid, block>>>(pos, neg);
  fillLg2<<<grid, block>>>(e0, 1.0f);
  CHECK_CUDA(cudaDeviceSynchronize());
  saveDeviceWords(std::string(argv[1]) + "/ex2neg.u32", neg, 1u << 23);
  runCheck("ex2.ftz.sign-magnitude", [&] { checkEx2<<<grid, block>>>(pos, neg, result); });
  for (int rounding = 0; rounding < 2; ++rounding)
    for (int low : {0, 24, 26, 28, 30, 32}) {
      std::string name = std::string("lg2.ftz.e0.") + (rounding ? "rz" : "rn") +
                         ".F" + std::to_string(low);
      runCheck(name.c_str(), [&] { checkLg2<<<grid, block>>>(e0, rounding, low, result); });
    }
  return 0;
}
