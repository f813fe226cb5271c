//===- TargetInfo.cpp - Hardware facts of the fa4 targets -----------------===//

#include "fa4/Target/TargetInfo.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace fa4;

// sm_90a, H100/H200 SXM.
static const TargetInfo kSM90a = {
    Chip::SM90a,
    // CUDA C++ Programming Guide, compute capability 9.0: H100 SXM5 has 132
    // SMs (H200 uses the same GH100 die configuration).
    /*numSMs=*/132,
    // Programming Guide table "Technical Specifications per Compute
    // Capability": 227 KB maximum shared memory per block for 9.0.
    /*smemCarveoutBytes=*/227 * 1024,
    // Tensor memory arrives with tcgen05 in sm_100.
    /*hasTmem=*/false,
    /*tmemColumns=*/0,
    /*tmemLanes=*/0,
    /*tmemMinAllocColumns=*/0,
    /*tmemMaxAllocColumns=*/0,
    // Programming Guide "Thread Block Clusters": 8 portable, 16 with the
    // non-portable attribute; DESIGN.md measured 16 working on the H200.
    /*portableClusterSize=*/8,
    /*nonPortableClusterSize=*/16,
    // bench/RESULTS.md, H200, split-K decode at B = 1, 32/8 heads: 8-CTA
    // clusters 2.39 TB/s against 2.10 for 16 at Skv = 32k (2.83 / 2.59 at
    // 128k), with half the CTAs.
    /*splitKClusterSize=*/8,
    // Decode CTAs stream 64-key tiles (32 KB of K+V at d=128): 6 of them
    // keep ~160 KB in flight per SM (bench/RESULTS.md, split-K decode).
    /*maxKvStagesPerRing=*/6,
    /*maxThreadsPerBlock=*/1024,
    // FA3: one producer warpgroup and two consumer warpgroups.
    /*kernelThreads=*/384,
    // FA3's setmaxnreg split with two consumer warpgroups: 240 registers for
    // consumers, 24 for the producer (240*256 + 24*128 <= 64K registers).
    /*consumerRegisters=*/240,
    /*mbarrierBytes=*/8,
    // cuTensorMapEncodeTiled: boxDim[i] <= 256, boxDim[0] * elementSize a
    // multiple of 16 bytes.
    /*maxTmaBoxRows=*/256,
    /*tmaRowGranuleBytes=*/16,
};

// sm_100a, B200.
static const TargetInfo kSM100a = {
    Chip::SM100a,
    // Modular FA4Config.sm100_smem_carveout: GPUInfo "B200", 148 SMs.
    /*numSMs=*/148,
    // FA4Config.sm100_smem_carveout = 233472 (shared memory per SM) - 1024
    // (reserved per block).
    /*smemCarveoutBytes=*/233472 - 1024,
    // FA4Config.sm100_tmem_cols = 512; PTX ISA "Tensor Memory": 128 lanes x
    // 512 columns of 32-bit cells per CTA; tcgen05.alloc: "nCols must be a
    // power of 2 in the range [32, 512]".
    /*hasTmem=*/true,
    /*tmemColumns=*/512,
    /*tmemLanes=*/128,
    /*tmemMinAllocColumns=*/32,
    /*tmemMaxAllocColumns=*/512,
    // Programming Guide "Thread Block Clusters": 8 portable, 16 non-portable.
    /*portableClusterSize=*/8,
    /*nonPortableClusterSize=*/16,
    // Not measured on a B200: the non-portable limit until it is.
    /*splitKClusterSize=*/16,
    // FA4's rings; not measured on a B200.
    /*maxKvStagesPerRing=*/4,
    /*maxThreadsPerBlock=*/1024,
    // FA4Config.num_threads = 512: 2 softmax + 1 correction warpgroup, MMA,
    // load and epilogue warps.
    /*kernelThreads=*/512,
    /*consumerRegisters=*/0,
    /*mbarrierBytes=*/8,
    /*maxTmaBoxRows=*/256,
    /*tmaRowGranuleBytes=*/16,
};

const TargetInfo &fa4::getTargetInfo(Chip chip) {
  switch (chip) {
  case Chip::SM90a:
    return kSM90a;
  case Chip::SM100a:
    return kSM100a;
  }
  llvm_unreachable("unknown chip");
}

std::optional<Chip> fa4::parseChip(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Chip>>(name)
      .Case("sm_90a", Chip::SM90a)
      .Case("sm_100a", Chip::SM100a)
      .Default(std::nullopt);
}

llvm::StringRef fa4::chipName(Chip chip) {
  switch (chip) {
  case Chip::SM90a:
    return "sm_90a";
  case Chip::SM100a:
    return "sm_100a";
  }
  llvm_unreachable("unknown chip");
}
