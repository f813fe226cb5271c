// Checks the tanh.approx.f32 model of bench/mufu/tanh_model (analysis.md,
// model.py; exact on the 16-fraction-bit table, unverified below it)
// against the hardware on all 2^32 inputs:
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
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "../sfu_checks.cuh"

// Segment bits per binade e = -8..2; coefficient rows in order of (e, seg).
__constant__ int kSegBits[11] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 3};
__constant__ int kFirstRow[11] = {0, 1, 2, 3, 5, 7, 11, 15, 19, 27, 43};
// C0, C1, C2 in units of 2^(e - 25): y = C0 + C1 t + C2 sq(t), t in [0, 1).
__constant__ long long kCoef[51][3] = {
    {33554432, 33554432, -1024},
    {33553920, 33552384, -3072},
    {33551872, 33548288, -13312},
    {33543552, 16761856, -10496},
    {50294912, 16740864, -14080},
    {33510784, 16714752, -40704},
    {50184576, 16633856, -56832},
    {33380768, 8260096, -35776},
    {41604960, 8188416, -43264},
    {49749952, 8101888, -50560},
    {57801216, 8000768, -57024},
    {32872320, 7889408, -132416},
    {40628832, 7623680, -154368},
    {48097792, 7314304, -171904},
    {55239936, 6969728, -185216},
    {31012000, 6601088, -394368},
    {37218624, 5807872, -402432},
    {42624416, 5000064, -386432},
    {47238688, 4225408, -354752},
    {25555088, 1757504, -157168},
    {27155824, 1443264, -135648},
    {28463888, 1172288, -114304},
    {29522280, 944032, -94768},
    {30371904, 754880, -77472},
    {31049608, 600320, -62752},
    {31587440, 475200, -50304},
    {32012536, 374912, -40144},
    {16173728, 147496, -15946},
    {16305345, 115768, -12590},
    {16408581, 90696, -9898},
    {16489421, 70984, -7784},
    {16552657, 55480, -6094},
    {16602069, 43340, -4776},
    {16640655, 33828, -3734},
    {16670765, 26396, -2920},
    {16694254, 20584, -2278},
    {16712570, 16048, -1778},
    {16726848, 12508, -1386},
    {16737977, 9748, -1082},
    {16746648, 7596, -842},
    {16753405, 5916, -654},
    {16758669, 4608, -508},
    {16762770, 3588, -394},
    {8383000, 5272, -1752},
    {8386544, 1944, -648},
    {8387848, 712, -232},
    {8388328, 264, -88},
    {8388506, 96, -32},
    {8388570, 40, -16},
    {8388594, 16, -8},
    {8388602, 8, -4}};
constexpr int kKeep = 15; // the squarer keeps the columns of t^2 >= 2^-15
constexpr int kDxBits = 17; // fraction bits below the segment index in t

__host__ __device__ inline uint64_t foldedSquare(uint32_t dx, int n) {
  int low = 2 * n - kKeep;
  uint64_t s = 0;
  for (int i = 0; i < n; ++i) {
    if (!((dx >> i) & 1)) continue;
    if (2 * i >= low) s += 1ull << (2 * i);
    for (int j = i + 1; j < n; ++j)
      if (((dx >> j) & 1) && i + j + 1 >= low) s += 1ull << (i + j + 1);
  }
  return s >> low;
}

__device__ uint32_t tanhModel(uint32_t bits) {
  uint32_t sign = bits & 0x80000000u, mag = bits & 0x7fffffffu;
  if (mag > 0x7f800000u) return 0x7fffffffu; // NaN: the canonical NaN
  int e = (int)(mag >> 23) - 127;
  uint32_t frac = mag & 0x7fffffu;
  if (e < -8) return bits;
  if (e >= 3) return sign | 0x3f800000u;
  int m = kSegBits[e + 8], n = kDxBits;
  uint32_t seg = m ? frac >> (23 - m) : 0;
  uint32_t dx = (frac >> (23 - m - n)) & ((1u << n) - 1);
  const long long *c = kCoef[kFirstRow[e + 8] + seg];
  long long f = (c[0] << n) + c[1] * (long long)dx +
                ((c[2] * (long long)foldedSquare(dx, n)) << (n - kKeep));
  int scale = e - 25 - n;
  int len = 64 - __clzll(f);
  if (len > 24) {
    f >>= len - 24;
    scale += len - 24;
  }
  len = 64 - __clzll(f);
  int ebits = scale + 23 + 127 + (len - 24);
  f <<= 24 - len;
  return sign | ((uint32_t)ebits << 23) | ((uint32_t)f & 0x7fffffu);
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
__global__ void fill(uint32_t *t, int e, uint32_t first, uint32_t step, uint32_t count) {
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < count;
       j += gridDim.x * blockDim.x)
    t[j] = __float_as_uint(tanhApprox(
        __uint_as_float(((uint32_t)(e + 127) << 23) | (first + j * step))));
}

__global__ void special(const uint32_t *in, uint32_t *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __float_as_uint(tanhApprox(__uint_as_float(in[i])));
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
  CHECK_CUDA(cudaMalloc(&result, sizeof(Result)));
  runCheck("tanh.model", [&] { checkModel<<<132 * 16, 256>>>(result); });
  unsigned long long h[256];
  CHECK_CUDA(cudaMemcpyFromSymbol(h, perExp, sizeof(h)));
  for (int i = 0; i < 256; ++i)
    if (h[i]) printf("  exponent %4d: %llu mismatches\n", i - 127, h[i]);
  if (argc > 1) {
    std::string dir = argv[1];
    dump(dir + "/tanh_e0_s0.u32", 0, 0, 1, 1u << 20);
    dump(dir + "/tanh_e1_s0.u32", 1, 0, 1, 1u << 19);
    dump(dir + "/tanh_em8.u32", -8, 0, 1, 1u << 20);
    dump(dir + "/tanh_em1_s0.u32", -1, 0, 1, 1u << 20);
    std::vector<uint32_t> in = {0x7fc00000u, 0x7fffffffu, 0x7f800001u, 0xffc00000u,
                                0x7f800000u, 0xff800000u, 0x00000000u, 0x80000000u,
                                0x00000001u, 0x807fffffu, 0x3b7fffffu, 0x3b800000u,
                                0x3b800003u, 0x40ffffffu, 0x41000000u, 0x3f800003u};
    uint32_t *din, *dout;
    CHECK_CUDA(cudaMalloc(&din, 4 * in.size()));
    CHECK_CUDA(cudaMalloc(&dout, 4 * in.size()));
    CHECK_CUDA(cudaMemcpy(din, in.data(), 4 * in.size(), cudaMemcpyHostToDevice));
    special<<<1, 64>>>(din, dout, (int)in.size());
    std::vector<uint32_t> out(in.size());
    CHECK_CUDA(cudaMemcpy(out.data(), dout, 4 * in.size(), cudaMemcpyDeviceToHost));
    FILE *f = fopen((dir + "/tanh_special.txt").c_str(), "w");
    for (size_t i = 0; i < in.size(); ++i) {
      fprintf(f, "%08x %08x\n", in[i], out[i]);
      printf("special %08x -> %08x\n", in[i], out[i]);
    }
    fclose(f);
  }
  return 0;
}
