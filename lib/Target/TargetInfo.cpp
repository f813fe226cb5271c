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
    // non-portable attribute; docs/Design.md records 16 working on the H200.
    /*portableClusterSize=*/8,
    /*nonPortableClusterSize=*/16,
    // D-31, H200, split-K decode at B = 1, 32/8 heads: 8-CTA
    // clusters 2.39 TB/s against 2.10 for 16 at Skv = 32k (2.83 / 2.59 at
    // 128k), with half the CTAs.
    /*splitKClusterSize=*/8,
    // Decode CTAs stream 64-key tiles (32 KB of K+V at d=128): 6 of them
    // keep ~160 KB in flight per SM (D-32).
    /*maxKvStagesPerRing=*/6,
    /*maxThreadsPerBlock=*/1024,
    // FA3: one producer warpgroup and two consumer warpgroups.
    /*kernelThreads=*/384,
    /*mbarrierBytes=*/8,
    // cuTensorMapEncodeTiled: boxDim[i] <= 256, boxDim[0] * elementSize a
    // multiple of 16 bytes.
    /*maxTmaBoxRows=*/256,
    /*tmaRowGranuleBytes=*/16,
    // PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate":
    // wgmma.mma_async has M = 64.
    /*mmaTileRows=*/64,
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
    /*mbarrierBytes=*/8,
    /*maxTmaBoxRows=*/256,
    /*tmaRowGranuleBytes=*/16,
    // tcgen05.mma with cta_group::1 at M = 128: one TMEM lane per row.
    /*mmaTileRows=*/128,
};

WarpgroupRegisters fa4::hopperWarpgroupRegisters(int numConsumers) {
  // fa4.warp_specialize's verifier checks that a split fits the pool.
  switch (numConsumers) {
  case 1:
    // 255 x 256 has room to spare: the producer keeps enough for a
    // persistent work loop's decoding, which spills 24 bytes at 24
    // registers (ptxas 13.0).
    return {56, 240};
  case 3:
    // FA3's d = 64 tile: 160 x 384 + 32 x 128 = 128 x 512, exactly.
    return {32, 160};
  default:
    // FA3's split: 240 x 256 + 24 x 128 = 168 x 384, exactly.
    return {24, 240};
  }
}

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
