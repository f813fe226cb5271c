// Measures the sm_90 special-function unit for a bit-exact model in fa4-emu
// (docs/Emulator.md, "Special functions"): dumps the tables a model needs and
// checks each candidate model against the hardware on every f32 input.
//
//   tables DIR      writes DIR/ex2.u32, lg2_e0.u32, lg2_em1.u32, rcp.u32,
//                   tanh.u32 (little-endian f32 bit patterns) and prints one
//                   line per check: "CHECK name mismatches=N first=..."
//
// The candidate models (F = fraction bits of the unit's fixed-point input):
//   ex2.approx.ftz  x -> X = Q(x * 2^F); 2^(X >> F) * T[X & (2^F - 1)], with
//                   T = ex2 at the grid points i * 2^-F, flushed below 2^-126;
//   ex2.approx      x < -126 ? square(ex2.ftz(x / 2)) : ex2.ftz(x)
//   lg2.approx.ftz  x = 2^e * (1 + j 2^-23) -> float(e + L[j]) rounded to
//                   nearest or toward zero, L read off lg2 on [1, 2) and
//                   [0.5, 1);
//   lg2.approx      subnormal x ? lg2.ftz(x * 2^24) - 24 : lg2.ftz(x)
//   rcp.approx.ftz  x = +-2^e * m -> +-2^-e * R[m]
//   tanh.approx     odd; depends on the top K fraction bits of x.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "sfu_checks.cuh"

// ---- tables ----------------------------------------------------------------
__global__ void fillEx2(uint32_t *t, int bits) {
  uint32_t n = 1u << bits;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    t[i] = __float_as_uint(ex2Ftz(ldexpf((float)i, -bits)));
}
// tanh at x = 2^e * (1 + k 2^-K) for e in [eLow, eLow + binades).
__global__ void fillTanh(uint32_t *t, int eLow, int binades, int k) {
  uint32_t n = (uint32_t)binades << k;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    int e = eLow + (int)(i >> k);
    uint32_t frac = (i & ((1u << k) - 1)) << (23 - k);
    t[i] = __float_as_uint(tanhApprox(__uint_as_float(((e + 127) << 23) | frac)));
  }
}

// ---- checks ----------------------------------------------------------------

// quantization: 0 floor, 1 nearest even, 2 toward zero.
__device__ float ex2Model(float x, const uint32_t *t24, int bits, int quant) {
  if (isnan(x)) return x;
  if (x >= 128.0f) return INFINITY;
  if (x < -160.0f) return 0.0f;
  double scaled = ldexp((double)x, bits);
  double q = quant == 0 ? floor(scaled) : quant == 1 ? rint(scaled) : trunc(scaled);
  long long fixed = (long long)q;
  long long n = fixed >> bits; // floor division
  long long i = fixed - (n << bits);
  float m = __uint_as_float(t24[i << (24 - bits)]);
  double r = ldexp((double)m, (int)n);
  if (r < 1.1754943508222875e-38) return 0.0f;
  if (r >= 3.4028234663852886e38 * 2) return INFINITY;
  return (float)r;
}

__global__ void checkEx2(const uint32_t *t24, int bits, int quant, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    float x0 = (fabsf(x) < 1.1754943508222875e-38f) ? copysignf(0.0f, x) : x;
    float got = ex2Ftz(x), want = ex2Model(x0, t24, bits, quant);
    ++checked;
    if (!sameBits(got, want)) record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

__global__ void checkEx2Full(Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    float got = ex2Full(x);
    float want;
    if (x < -126.0f) {
      float h = ex2Ftz(x * 0.5f);
      want = h * h;
    } else {
      want = ex2Ftz(x);
    }
    ++checked;
    if (!sameBits(got, want)) record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

// rounding: 0 nearest even, 1 toward zero.
__device__ float lg2Model(float x, const uint32_t *e0, const uint32_t *em1, int rounding) {
  uint32_t b = __float_as_uint(x);
  if (isnan(x)) return x;
  if ((b & 0x7fffffffu) < 0x00800000u) return -INFINITY; // zero, flushed
  if (b >> 31) return __uint_as_float(0x7fffffffu);
  if (isinf(x)) return INFINITY;
  int e = (int)(b >> 23) - 127;
  double sum = (double)e + lg2Fixed(e0, em1, b & 0x7fffffu);
  return rounding == 0 ? __double2float_rn(sum) : __double2float_rz(sum);
}

__global__ void checkLg2(const uint32_t *e0, const uint32_t *em1, int rounding, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    float got = lg2Ftz(x), want = lg2Model(x, e0, em1, rounding);
    ++checked;
    if (!sameBits(got, want)) record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

__global__ void checkLg2Full(Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    float got = lg2Full(x);
    bool sub = x != 0.0f && fabsf(x) < 1.1754943508222875e-38f;
    float want = sub ? lg2Ftz(x * 16777216.0f) - 24.0f : lg2Ftz(x);
    ++checked;
    if (!sameBits(got, want)) record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

__global__ void checkRcp(const uint32_t *table, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    uint32_t bits = (uint32_t)b;
    float x = __uint_as_float(bits);
    float got = rcpFtz(x), want;
    uint32_t mag = bits & 0x7fffffffu;
    if (isnan(x)) want = x;
    else if (mag < 0x00800000u) want = copysignf(INFINITY, x);
    else if (isinf(x)) want = copysignf(0.0f, x);
    else {
      int e = (int)(mag >> 23) - 127;
      double m = ldexp((double)__uint_as_float(table[mag & 0x7fffffu]), -e);
      float f = (float)m;
      if (fabsf(f) < 1.1754943508222875e-38f) f = 0.0f;
      want = copysignf(f, x);
    }
    ++checked;
    if (!sameBits(got, want)) record(r, bits, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

__global__ void checkRcpFull(Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    float got = rcpFull(x), want = rcpFtz(x);
    ++checked;
    if (!sameBits(got, want)) record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

// tanh: odd symmetry (kind 0), then dependence on the top k fraction bits
// (kind 1: the low 23 - k bits cleared give the same result).
__global__ void checkTanh(int kind, int k, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 31);
       b += gridDim.x * blockDim.x) {
    uint32_t bits = (uint32_t)b;
    float x = __uint_as_float(bits);
    if (isnan(x)) continue;
    float got = tanhApprox(x), want;
    if (kind == 0) {
      want = -tanhApprox(-x);
    } else {
      want = tanhApprox(__uint_as_float(bits & ~((1u << (23 - k)) - 1)));
    }
    ++checked;
    if (!sameBits(got, want)) record(r, bits, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

// ---- host ------------------------------------------------------------------

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: tables DIR\n");
    return 2;
  }
  std::string dir = argv[1];
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  const int grid = 132 * 16, block = 256;
  CHECK_CUDA(cudaMalloc(&result, sizeof(Result)));

  uint32_t *ex2, *lg2e0, *lg2em1, *rcp, *tanhTable;
  CHECK_CUDA(cudaMalloc(&ex2, 4u << 24));
  CHECK_CUDA(cudaMalloc(&lg2e0, 4u << 23));
  CHECK_CUDA(cudaMalloc(&lg2em1, 4u << 23));
  CHECK_CUDA(cudaMalloc(&rcp, 4u << 23));
  const int tanhLow = -20, tanhBinades = 25, tanhBits = 16;
  CHECK_CUDA(cudaMalloc(&tanhTable, 4u * tanhBinades << tanhBits));
  fillEx2<<<grid, block>>>(ex2, 24);
  fillLg2<<<grid, block>>>(lg2e0, 1.0f);
  fillLg2<<<grid, block>>>(lg2em1, 0.5f);
  fillRcp<<<grid, block>>>(rcp);
  fillTanh<<<grid, block>>>(tanhTable, tanhLow, tanhBinades, tanhBits);
  CHECK_CUDA(cudaDeviceSynchronize());
  saveDeviceWords(dir + "/ex2.u32", ex2, 1u << 24);
  saveDeviceWords(dir + "/lg2_e0.u32", lg2e0, 1u << 23);
  saveDeviceWords(dir + "/lg2_em1.u32", lg2em1, 1u << 23);
  saveDeviceWords(dir + "/rcp.u32", rcp, 1u << 23);
  saveDeviceWords(dir + "/tanh.u32", tanhTable, (size_t)tanhBinades << tanhBits);

  const char *quant[] = {"floor", "nearest", "trunc"};
  for (int bits : {23, 24})
    for (int q = 0; q < 3; ++q) {
      std::string name = "ex2.ftz.F" + std::to_string(bits) + "." + quant[q];
      runCheck(name.c_str(), [&] { checkEx2<<<grid, block>>>(ex2, bits, q, result); });
    }
  runCheck("ex2.full=halve+square", [&] { checkEx2Full<<<grid, block>>>(result); });
  runCheck("lg2.ftz.nearest", [&] { checkLg2<<<grid, block>>>(lg2e0, lg2em1, 0, result); });
  runCheck("lg2.ftz.towardzero", [&] { checkLg2<<<grid, block>>>(lg2e0, lg2em1, 1, result); });
  runCheck("lg2.full=scale24", [&] { checkLg2Full<<<grid, block>>>(result); });
  runCheck("rcp.ftz.table", [&] { checkRcp<<<grid, block>>>(rcp, result); });
  runCheck("rcp.full=ftz", [&] { checkRcpFull<<<grid, block>>>(result); });
  runCheck("tanh.odd", [&] { checkTanh<<<grid, block>>>(0, 0, result); });
  for (int k = 8; k <= 22; ++k) {
    std::string name = "tanh.top" + std::to_string(k);
    runCheck(name.c_str(), [&] { checkTanh<<<grid, block>>>(1, k, result); });
  }
  return 0;
}
