// The third measurement (bench/mufu/README.md): lg2.approx.ftz.f32 by
// exponent. tables.cu found that e + L[m] (L read off [1, 2) and [0.5, 1),
// 36 fraction bits) rounded toward zero misses 0.29% of inputs. This finds
// where: for every positive normal input it compares the unit with that
// model, counts the differences per exponent in ulps, writes the
// mismatching inputs (sorted, bit 31 set where the unit's result is above
// the model's), and checks candidate roundings of the sum e + L:
//   abs.F   L floored to F fraction bits, the sum rounded toward zero;
//   rel.P   the sum floored (two's complement) to P significant bits, then
//           rounded toward zero;
//   two-table  e >= 0 ? rz(e + T1[m]) : rz(e + 1 + T05[m]), T1 and T05 the
//           unit on [1, 2) and on [0.5, 1): a table rounded toward zero is
//           the floor of L for a positive sum and the ceiling for a negative
//           one, which is what rz(e + L) needs of L (all 2^32 inputs, with
//           zeros, negatives, infinities, NaNs; and lg2.approx.f32 as
//           lg2.ftz(x 2^24) - 24 for a subnormal x).
//   lg2 DIR   writes DIR/lg2-mismatch.u32, prints a table and CHECK lines
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "sfu_checks.cuh"

constexpr int kExponents = 254; // -126 .. 127

// The ordinal of an f32 (monotone in its value).
__device__ long long ordinal(float v) {
  int32_t b = __float_as_int(v);
  return b < 0 ? -(long long)(b & 0x7fffffff) : (long long)b;
}

// mode 0: the plain sum; 1: L floored to `bits` fraction bits; 2: the sum
// floored to `bits` significant bits.
__device__ float model(uint32_t bits, const uint32_t *e0, const uint32_t *em1,
                       int mode, int precision) {
  int e = (int)(bits >> 23) - 127;
  double l = lg2Fixed(e0, em1, bits & 0x7fffffu);
  if (mode == 1) l = floor(ldexp(l, precision)) / ldexp(1.0, precision);
  double sum = (double)e + l;
  if (mode == 2 && sum != 0.0) {
    int q = precision - 1 - ilogb(sum);
    sum = floor(ldexp(sum, q)) / ldexp(1.0, q);
  }
  return __double2float_rz(sum);
}

__device__ float twoTables(float x, const uint32_t *e0, const uint32_t *em1) {
  uint32_t bits = __float_as_uint(x);
  // The fourth run (h100/checks4.txt): every NaN input gives 0x7fffffff.
  if (isnan(x)) return __uint_as_float(0x7fffffffu);
  if ((bits & 0x7fffffffu) < 0x00800000u) return -INFINITY;
  if (bits >> 31) return __uint_as_float(0x7fffffffu);
  if (isinf(x)) return INFINITY;
  int e = (int)(bits >> 23) - 127;
  uint32_t j = bits & 0x7fffffu;
  double sum = e >= 0 ? (double)e + (double)__uint_as_float(e0[j])
                      : (double)(e + 1) + (double)__uint_as_float(em1[j]);
  return __double2float_rz(sum);
}

// full 0: lg2.approx.ftz against twoTables; 1: lg2.approx against it, with
// a subnormal input scaled by 2^24.
__global__ void checkTwoTables(const uint32_t *e0, const uint32_t *em1, int full,
                               Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    float x = __uint_as_float((uint32_t)b);
    bool sub = x != 0.0f && fabsf(x) < 1.1754943508222875e-38f;
    float got = full ? lg2Full(x) : lg2Ftz(x);
    float want = full && sub ? twoTables(x * 16777216.0f, e0, em1) - 24.0f
                             : twoTables(x, e0, em1);
    ++checked;
    if (__float_as_uint(got) != __float_as_uint(want))
      record(r, (uint32_t)b, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

__global__ void sweep(const uint32_t *e0, const uint32_t *em1,
                      unsigned long long *counts, uint32_t *list,
                      unsigned long long *listed, unsigned long long capacity) {
  for (uint64_t b = 0x00800000ull + blockIdx.x * blockDim.x + threadIdx.x;
       b < 0x7f800000ull; b += gridDim.x * blockDim.x) {
    uint32_t bits = (uint32_t)b;
    long long d = ordinal(lg2Ftz(__uint_as_float(bits))) -
                  ordinal(model(bits, e0, em1, 0, 0));
    if (d == 0) continue;
    int slot = d == -1 ? 0 : d == 1 ? 1 : 2;
    atomicAdd(&counts[((bits >> 23) - 1) * 3 + slot], 1ull);
    unsigned long long k = atomicAdd(listed, 1ull);
    if (k < capacity) list[k] = bits | (d > 0 ? 0x80000000u : 0u);
  }
}

__global__ void check(const uint32_t *e0, const uint32_t *em1, int mode,
                      int precision, Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = 0x00800000ull + blockIdx.x * blockDim.x + threadIdx.x;
       b < 0x7f800000ull; b += gridDim.x * blockDim.x) {
    uint32_t bits = (uint32_t)b;
    float got = lg2Ftz(__uint_as_float(bits));
    float want = model(bits, e0, em1, mode, precision);
    ++checked;
    if (!sameBits(got, want)) record(r, bits, __float_as_uint(got), __float_as_uint(want));
  }
  atomicAdd(&r->checked, checked);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: lg2 DIR\n");
    return 2;
  }
  const int grid = 132 * 16, block = 256;
  const unsigned long long capacity = 1ull << 26;
  CHECK_CUDA(cudaMalloc(&result, sizeof(Result)));
  uint32_t *e0, *em1, *list;
  unsigned long long *counts, *listed;
  CHECK_CUDA(cudaMalloc(&e0, 4u << 23));
  CHECK_CUDA(cudaMalloc(&em1, 4u << 23));
  CHECK_CUDA(cudaMalloc(&list, 4 * capacity));
  CHECK_CUDA(cudaMalloc(&counts, 8 * 3 * kExponents));
  CHECK_CUDA(cudaMalloc(&listed, 8));
  CHECK_CUDA(cudaMemset(counts, 0, 8 * 3 * kExponents));
  CHECK_CUDA(cudaMemset(listed, 0, 8));
  fillLg2<<<grid, block>>>(e0, 1.0f);
  fillLg2<<<grid, block>>>(em1, 0.5f);
  sweep<<<grid, block>>>(e0, em1, counts, list, listed, capacity);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned long long> hostCounts(3 * kExponents);
  unsigned long long n = 0;
  CHECK_CUDA(cudaMemcpy(hostCounts.data(), counts, 8 * hostCounts.size(), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&n, listed, 8, cudaMemcpyDeviceToHost));
  printf("e  unit-below  unit-above  other   (ulps against rz(e + L))\n");
  for (int i = 0; i < kExponents; ++i)
    if (hostCounts[3 * i] + hostCounts[3 * i + 1] + hostCounts[3 * i + 2])
      printf("%4d %10llu %10llu %6llu\n", i - 126, hostCounts[3 * i],
             hostCounts[3 * i + 1], hostCounts[3 * i + 2]);
  printf("mismatches %llu\n", n);
  std::vector<uint32_t> host(std::min(n, capacity));
  CHECK_CUDA(cudaMemcpy(host.data(), list, 4 * host.size(), cudaMemcpyDeviceToHost));
  std::sort(host.begin(), host.end(),
            [](uint32_t a, uint32_t b) { return (a & 0x7fffffffu) < (b & 0x7fffffffu); });
  writeWords(std::string(argv[1]) + "/lg2-mismatch.u32", host);
  fflush(stdout);
  runCheck("lg2.ftz.two-table", [&] { checkTwoTables<<<grid, block>>>(e0, em1, 0, result); });
  runCheck("lg2.full.two-table", [&] { checkTwoTables<<<grid, block>>>(e0, em1, 1, result); });
  for (int precision : {24, 26, 28, 30, 32, 34, 36}) {
    std::string name = "lg2.abs.F" + std::to_string(precision);
    runCheck(name.c_str(), [&] { check<<<grid, block>>>(e0, em1, 1, precision, result); });
  }
  for (int precision : {24, 25, 26, 27, 28, 29, 30, 32, 34}) {
    std::string name = "lg2.rel.P" + std::to_string(precision);
    runCheck(name.c_str(), [&] { check<<<grid, block>>>(e0, em1, 2, precision, result); });
  }
  return 0;
}
