// Checks fa4-emu's tanh.approx.f32 model (emu/lib/TanhModel.h;
// analysis.md, model.py) against the hardware on all 2^32 inputs:
//   CHECK tanh.model checked=N mismatches=M input:hardware/model ...
// then the mismatches per input exponent, and, given a directory argument,
// dumps what a failing model needs to be pinned down (all under 16 MB):
//   DIR/tanh_e0_s0.u32    tanh at every fraction of binade 0, segment 0
//                         (x = 1 + j 2^-23, j < 2^20: 4 MiB)
//   DIR/tanh_e1_s0.u32    binade 1, segment 0 (x = 2 (1 + j 2^-23), j < 2^19)
//   DIR/tanh_em8.u32      binade -8, the first 2^20 fractions (j < 2^20)
//   DIR/tanh_em1_s0.u32   binade -1, the first half of segment 0 (j < 2^20)
//   DIR/tanh_special.txt  NaN, inf, zero, subnormal and threshold results
// Build: nvcc -std=c++17 -arch=sm_90a -o check_tanh check_tanh.cu
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <string>
#include <vector>

#include "../../../emu/lib/TanhModel.h"
#include "../sfu_checks.cuh"

using namespace fa4::emu::tanh_model;

// fa4-emu's model (emu/lib/TanhModel.h); main copies its tables here.
__constant__ Tables deviceTables;

__device__ uint32_t tanhModel(uint32_t bits) {
  return tanhBits(bits, deviceTables);
}

__device__ unsigned long long perExp[256];

__global__ void checkModel(Result *r) {
  unsigned long long checked = 0;
  for (uint64_t b = blockIdx.x * blockDim.x + threadIdx.x; b < (1ull << 32);
       b += gridDim.x * blockDim.x) {
    uint32_t bits = (uint32_t)b;
    uint32_t got = __float_as_uint(tanhApprox(__uint_as_float(bits)));
    uint32_t want = tanhModel(bits);
    ++checked;
    if (got != want) {
      record(r, bits, got, want);
      atomicAdd(&perExp[(bits >> 23) & 0xff], 1ull);
    }
  }
  atomicAdd(&r->checked, checked);
}

// tanh at 2^e (1 + (j step) 2^-23), j < count.
__global__ void fill(uint32_t *t, int e, uint32_t first, uint32_t step,
                     uint32_t count) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < count;
       j += gridDim.x * blockDim.x)
    t[j] = __float_as_uint(tanhApprox(
        __uint_as_float(((uint32_t)(e + 127) << 23) | (first + j * step))));
}

__global__ void special(const uint32_t *in, uint32_t *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    out[i] = __float_as_uint(tanhApprox(__uint_as_float(in[i])));
}

static void dump(const std::string &path, int e, uint32_t first, uint32_t step,
                 uint32_t count) {
  uint32_t *d;
  CHECK_CUDA(cudaMalloc(&d, 4ull * count));
  fill<<<1024, 256>>>(d, e, first, step, count);
  CHECK_CUDA(cudaDeviceSynchronize());
  saveDeviceWords(path, d, count);
  CHECK_CUDA(cudaFree(d));
}

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  CHECK_CUDA(cudaMemcpyToSymbol(deviceTables, &kTables, sizeof(Tables)));
  CHECK_CUDA(cudaMalloc(&result, sizeof(Result)));
  runCheck("tanh.model", [&] { checkModel<<<132 * 16, 256>>>(result); });
  unsigned long long h[256];
  CHECK_CUDA(cudaMemcpyFromSymbol(h, perExp, sizeof(h)));
  for (int i = 0; i < 256; ++i)
    if (h[i])
      printf("  exponent %4d: %llu mismatches\n", i - 127, h[i]);
  if (argc > 1) {
    std::string dir = argv[1];
    dump(dir + "/tanh_e0_s0.u32", 0, 0, 1, 1u << 20);
    dump(dir + "/tanh_e1_s0.u32", 1, 0, 1, 1u << 19);
    dump(dir + "/tanh_em8.u32", -8, 0, 1, 1u << 20);
    dump(dir + "/tanh_em1_s0.u32", -1, 0, 1, 1u << 20);
    std::vector<uint32_t> in = {
        0x7fc00000u, 0x7fffffffu, 0x7f800001u, 0xffc00000u,
        0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u,
        0x00000001u, 0x807fffffu, 0x3b7fffffu, 0x3b800000u,
        0x3b800003u, 0x40ffffffu, 0x41000000u, 0x3f800003u};
    uint32_t *din, *dout;
    CHECK_CUDA(cudaMalloc(&din, 4 * in.size()));
    CHECK_CUDA(cudaMalloc(&dout, 4 * in.size()));
    CHECK_CUDA(
        cudaMemcpy(din, in.data(), 4 * in.size(), cudaMemcpyHostToDevice));
    special<<<1, 64>>>(din, dout, (int)in.size());
    std::vector<uint32_t> out(in.size());
    CHECK_CUDA(
        cudaMemcpy(out.data(), dout, 4 * in.size(), cudaMemcpyDeviceToHost));
    FILE *f = fopen((dir + "/tanh_special.txt").c_str(), "w");
    for (size_t i = 0; i < in.size(); ++i) {
      fprintf(f, "%08x %08x\n", in[i], out[i]);
      printf("special %08x -> %08x\n", in[i], out[i]);
    }
    fclose(f);
  }
  return 0;
}
