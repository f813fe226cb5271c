// Issue rates and latencies of the SM's pipes on the H100/H200, for the
// timing model of issue 60 (bench/sm-model/README.md): for each instruction
// below, its throughput per SM per clock (every SM busy, 16 warps each, 8
// independent chains per thread) and its latency (one warp, one dependent
// chain), from clock64 around an unrolled loop.
//   nvcc -O3 -std=c++17 -arch=sm_90a -o pipes pipes.cu && ./pipes
// prints one line per instruction:
//   PIPE name per_sm_per_clk=R latency_clk=L
// (instructions; tanh2 and ex2h2 take two bf16 elements each, and one
// tanhex2 is two instructions).
#include <cstdio>
#include <cuda_runtime.h>

#include "../mufu/sfu_checks.cuh" // CHECK_CUDA

constexpr int kIterations = 256;
constexpr int kUnroll = 16;

// One step of chain x (a register) by instruction NAME, PTX in asm.
#define OP_FFMA(x) asm volatile("fma.rn.f32 %0, %0, %0, %0;" : "+f"(x))
#define OP_FADD(x) asm volatile("add.rn.f32 %0, %0, %0;" : "+f"(x))
#define OP_FMUL(x) asm volatile("mul.rn.f32 %0, %0, %0;" : "+f"(x))
#define OP_FMNMX(x) asm volatile("max.f32 %0, %0, 0f3F000000;" : "+f"(x))
#define OP_EX2(x) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x))
#define OP_TANH(x) asm volatile("tanh.approx.f32 %0, %0;" : "+f"(x))
// Packed bf16x2 forms (two elements an instruction): whether MUFU runs
// them at the f32 rate decides if a softcap's tanh can halve its MUFU
// work (issue 61).
#define OP_TANH2(x)                                                            \
  asm volatile("{.reg .b32 t; mov.b32 t, %0; tanh.approx.bf16x2 t, t; "        \
               "mov.b32 %0, t;}"                                               \
               : "+f"(x))
#define OP_EX2H2(x)                                                            \
  asm volatile("{.reg .b32 t; mov.b32 t, %0; ex2.approx.ftz.bf16x2 t, t; "     \
               "mov.b32 %0, t;}"                                               \
               : "+f"(x))
// A softcapped score's two MUFU operations, tanh then ex2 (one "op" is
// both): whether the pipe keeps its rate when they alternate.
#define OP_TANHEX2(x)                                                          \
  asm volatile("tanh.approx.f32 %0, %0;\n\tex2.approx.ftz.f32 %0, %0;"         \
               : "+f"(x))
#define OP_F2FP(x)                                                             \
  asm volatile("{.reg .b32 t; cvt.rn.bf16x2.f32 t, %0, %0; mov.b32 %0, t;}"    \
               : "+f"(x))
// The multiplier is a register ptxas cannot see (a kernel argument's bits),
// so it cannot fold the chain into one multiply.
#define OP_IMAD(x)                                                             \
  asm volatile("{.reg .b32 t; mov.b32 t, %0; mad.lo.u32 t, t, %1, t; "         \
               "mov.b32 %0, t;}"                                               \
               : "+f"(x)                                                       \
               : "r"(multiplier))
#define OP_SHFL(x)                                                             \
  asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+f"(x))

#define DEFINE(NAME, OP)                                                       \
  template <int kChains>                                                       \
  __global__ void NAME##Rate(float *out, long long *clocks,                    \
                             unsigned multiplier) {                            \
    float x[8];                                                                \
    for (int c = 0; c < 8; ++c)                                                \
      x[c] = 0.5f + threadIdx.x * 1e-6f + c * 1e-3f;                           \
    __syncthreads();                                                           \
    long long start = clock64();                                               \
    for (int i = 0; i < kIterations; ++i) {                                    \
      _Pragma("unroll") for (int u = 0; u < kUnroll; ++u) {                    \
        _Pragma("unroll") for (int c = 0; c < kChains; ++c) OP(x[c]);          \
      }                                                                        \
    }                                                                          \
    __syncthreads();                                                           \
    long long end = clock64();                                                 \
    float sum = 0;                                                             \
    for (int c = 0; c < 8; ++c)                                                \
      sum += x[c];                                                             \
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;                          \
    if (threadIdx.x == 0)                                                      \
      clocks[blockIdx.x] = end - start;                                        \
  }

DEFINE(ffma, OP_FFMA)
DEFINE(fadd, OP_FADD)
DEFINE(fmul, OP_FMUL)
DEFINE(fmnmx, OP_FMNMX)
DEFINE(ex2, OP_EX2)
DEFINE(tanh, OP_TANH)
DEFINE(tanh2, OP_TANH2)
DEFINE(ex2h2, OP_EX2H2)
DEFINE(tanhex2, OP_TANHEX2)
DEFINE(f2fp, OP_F2FP)
DEFINE(imad, OP_IMAD)
DEFINE(shfl, OP_SHFL)

using Kernel = void (*)(float *, long long *, unsigned);

static int measure(const char *name, Kernel kernel, Kernel chain, int sms,
                   float *out, long long *clocks) {
  long long host[1024];
  // Throughput: one CTA of 512 threads per SM, 8 chains each.
  kernel<<<sms, 512>>>(out, clocks, 3u);
  CHECK_CUDA(cudaDeviceSynchronize());
  kernel<<<sms, 512>>>(out, clocks, 3u);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(host, clocks, sizeof(long long) * sms,
                        cudaMemcpyDeviceToHost));
  double mean = 0;
  for (int s = 0; s < sms; ++s)
    mean += double(host[s]) / sms;
  double ops = 512.0 * 8 * kIterations * kUnroll;
  // Latency: one warp, one chain.
  chain<<<1, 32>>>(out, clocks, 3u);
  CHECK_CUDA(cudaDeviceSynchronize());
  chain<<<1, 32>>>(out, clocks, 3u);
  CHECK_CUDA(cudaDeviceSynchronize());
  long long one;
  CHECK_CUDA(
      cudaMemcpy(&one, clocks, sizeof(long long), cudaMemcpyDeviceToHost));
  printf("PIPE %-6s per_sm_per_clk=%7.2f latency_clk=%6.2f\n", name, ops / mean,
         double(one) / (kIterations * kUnroll));
  return 0;
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  int sms = prop.multiProcessorCount;
  float *out;
  long long *clocks;
  CHECK_CUDA(cudaMalloc(&out, sizeof(float) * sms * 512));
  CHECK_CUDA(cudaMalloc(&clocks, sizeof(long long) * 1024));
#define PIPE(NAME)                                                             \
  { #NAME, NAME##Rate < 8>, NAME##Rate < 1> }
  struct {
    const char *name;
    Kernel kernel, chain;
  } all[] = {PIPE(ffma),    PIPE(fadd), PIPE(fmul),  PIPE(fmnmx),
             PIPE(ex2),     PIPE(tanh), PIPE(tanh2), PIPE(ex2h2),
             PIPE(tanhex2), PIPE(f2fp), PIPE(imad),  PIPE(shfl)};
  for (auto &k : all)
    if (measure(k.name, k.kernel, k.chain, sms, out, clocks))
      return 1;
  return 0;
}
