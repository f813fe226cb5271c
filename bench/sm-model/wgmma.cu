// wgmma latency and throughput on the H100/H200, for the timing model
// (bench/sm-model/README.md): one warpgroup per SM issues
// wgmma.mma_async m64nNk16 f32 += bf16 x bf16 (A and B from shared memory),
// N = 64, 128, 256, and times with clock64:
//   latency: fence, one wgmma, commit, wait 0, in a loop;
//   rate:    fence, 8 wgmmas on one accumulator, commit, wait 0, in a loop
//            (cycles per wgmma, against 2 * 64 * N * 16 / 4096 at the
//            tensor core's documented rate).
// Every SM runs the same loop (all busy, as in a kernel); the median SM is
// printed. The operands are zeros: the timing does not depend on values.
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o wgmma \
//     wgmma.cu && ./wgmma
// prints one line per shape and mode:
//   WGMMA n=N mode=latency|rate cycles=C ideal=I
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#include "../mufu/sfu_checks.cuh" // CHECK_CUDA

constexpr int kIterations = 64;
constexpr int kBatch = 8;

// A shared-memory matrix descriptor without swizzle (layout type 0): start
// address, leading and stride byte offsets, each in 16-byte units.
__device__ unsigned long long descriptor(const void *smem, unsigned lead,
                                         unsigned stride) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  return (static_cast<unsigned long long>((address >> 4) & 0x3FFF)) |
         (static_cast<unsigned long long>((lead >> 4) & 0x3FFF) << 16) |
         (static_cast<unsigned long long>((stride >> 4) & 0x3FFF) << 32);
}

__device__ __forceinline__ void wgmma_n64(float *d, unsigned long long a,
                                          unsigned long long b) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, "
               "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, "
               "%26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]),
                 "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
                 "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
                 "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
                 "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(a), "l"(b));
}

__device__ __forceinline__ void wgmma_n128(float *d, unsigned long long a,
                                           unsigned long long b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
      "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "
      "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "
      "%58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),
        "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
        "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]),
        "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
        "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b));
}

__device__ __forceinline__ void wgmma_n256(float *d, unsigned long long a,
                                           unsigned long long b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
      "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "
      "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "
      "%58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, "
      "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "
      "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, "
      "%100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, "
      "%124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0;\n}"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
        "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]),
        "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
        "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
        "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
        "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]),
        "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
        "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
        "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),
        "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]),
        "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]),
        "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]),
        "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]),
        "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),
        "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),
        "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
        "+f"(d[126]), "+f"(d[127])
      : "l"(a), "l"(b));
}

template <int N>
__device__ void mma(float *d, unsigned long long a, unsigned long long b) {
  if constexpr (N == 64)
    wgmma_n64(d, a, b);
  else if constexpr (N == 128)
    wgmma_n128(d, a, b);
  else
    wgmma_n256(d, a, b);
}

template <int N, bool kRate>
__global__ void wgmmaLoop(float *out, long long *clocks) {
  __shared__ __align__(1024) unsigned short a[64 * 16];
  __shared__ __align__(1024) unsigned short b[N * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x)
    a[i] = 0;
  for (int i = threadIdx.x; i < N * 16; i += blockDim.x)
    b[i] = 0;
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i)
    d[i] = 0.f;
  unsigned long long descA = descriptor(a, 128, 256);
  unsigned long long descB = descriptor(b, 128, 256);
  long long start = clock64();
  for (int i = 0; i < kIterations; ++i) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    if constexpr (kRate) {
#pragma unroll
      for (int k = 0; k < kBatch; ++k)
        mma<N>(d, descA, descB);
    } else {
      mma<N>(d, descA, descB);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  long long end = clock64();
  float sum = 0;
  for (int i = 0; i < N / 2; ++i)
    sum += d[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  if (threadIdx.x == 0)
    clocks[blockIdx.x] = end - start;
}

template <int N, bool kRate> void run(int sms) {
  float *out;
  long long *clocks;
  CHECK_CUDA(cudaMalloc(&out, sms * 128 * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&clocks, sms * sizeof(long long)));
  for (int pass = 0; pass < 2; ++pass) // the first pass warms up
    wgmmaLoop<N, kRate><<<sms, 128>>>(out, clocks);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<long long> host(sms);
  CHECK_CUDA(cudaMemcpy(host.data(), clocks, sms * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  std::sort(host.begin(), host.end());
  double perWgmma =
      static_cast<double>(host[sms / 2]) / kIterations / (kRate ? kBatch : 1);
  std::printf("WGMMA n=%d mode=%s cycles=%.1f ideal=%.1f\n", N,
              kRate ? "rate" : "latency", perWgmma, 2.0 * 64 * N * 16 / 4096);
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(clocks));
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  int sms = prop.multiProcessorCount;
  run<64, false>(sms);
  run<128, false>(sms);
  run<256, false>(sms);
  run<64, true>(sms);
  run<128, true>(sms);
  run<256, true>(sms);
  return 0;
}
