// Round trips of the synchronisation a K/V step waits on, on the H100/H200,
// for the timing model (bench/sm-model/README.md):
//   bar: two warpgroups hand a named barrier back and forth, as the
//        consumers' ping-pong does (bar.arrive on the other's barrier,
//        bar.sync on one's own): cycles per hand-over;
//   mbarrier: one thread of warp 0 arrives on an mbarrier, warp 4 waits for
//        its phase (try_wait), arrives on a second one, warp 0 waits: cycles
//        per hand-over (half a round trip), as a K/V slot's full and empty
//        barriers pass between producer and consumer.
// One CTA of 256 threads per SM, every SM; the median SM is printed.
//   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -o sync \
//     sync.cu && ./sync
// prints: SYNC name=bar|mbarrier cycles_per_handover=C
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#include "../mufu/sfu_checks.cuh" // CHECK_CUDA

constexpr int kRounds = 1024;

__global__ void barPingPong(long long *clocks) {
  int group = threadIdx.x / 128;
  __syncthreads();
  long long start = clock64();
  for (int i = 0; i < kRounds; ++i) {
    if (group == 0) {
      asm volatile("bar.arrive 1, 256;" ::: "memory");
      asm volatile("bar.sync 2, 256;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 256;" ::: "memory");
      asm volatile("bar.arrive 2, 256;" ::: "memory");
    }
  }
  long long end = clock64();
  if (threadIdx.x == 0)
    clocks[blockIdx.x] = (end - start);
}

__device__ void arrive(unsigned long long *barrier) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(address)
               : "memory");
}

__device__ void wait(unsigned long long *barrier, unsigned phase) {
  unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(barrier));
  asm volatile("{\n.reg .pred done;\nwait_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra wait_%=;\n}" ::"r"(address),
               "r"(phase)
               : "memory");
}

__global__ void mbarrierPingPong(long long *clocks) {
  __shared__ unsigned long long barriers[2];
  if (threadIdx.x == 0) {
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&barriers[0]));
    unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(&barriers[1]));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(a));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  long long start = clock64();
  if (threadIdx.x == 0) {
    for (int i = 0; i < kRounds; ++i) {
      arrive(&barriers[0]);
      wait(&barriers[1], i & 1);
    }
  } else if (threadIdx.x == 128) {
    for (int i = 0; i < kRounds; ++i) {
      wait(&barriers[0], i & 1);
      arrive(&barriers[1]);
    }
  }
  long long end = clock64();
  if (threadIdx.x == 0)
    clocks[blockIdx.x] = end - start;
}

template <typename Kernel> void run(const char *name, Kernel kernel, int sms) {
  long long *clocks;
  CHECK_CUDA(cudaMalloc(&clocks, sms * sizeof(long long)));
  for (int pass = 0; pass < 2; ++pass) // the first pass warms up
    kernel<<<sms, 256>>>(clocks);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<long long> host(sms);
  CHECK_CUDA(cudaMemcpy(host.data(), clocks, sms * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  std::sort(host.begin(), host.end());
  std::printf("SYNC name=%s cycles_per_handover=%.1f\n", name,
              static_cast<double>(host[sms / 2]) / kRounds / 2);
  CHECK_CUDA(cudaFree(clocks));
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  run("bar", barPingPong, prop.multiProcessorCount);
  run("mbarrier", mbarrierPingPong, prop.multiProcessorCount);
  return 0;
}
