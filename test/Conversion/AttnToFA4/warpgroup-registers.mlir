// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=loop-producer-registers=24 | FileCheck %s --check-prefix=FA3
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=loop-producer-registers=32 | FileCheck %s --check-prefix=R32

// setmaxnreg's split (HopperKernelBuilder::warpgroupRegisters). The kernels
// without a work loop keep FA3's 24 / 240. A looped twin with two
// consumers at a padded Dv up to 128 gives its producer
// loop-producer-registers (40) and its consumers the rest of the pool of
// 504 a thread, rounded down to setmaxnreg's multiple of 8: 232 at 40 and
// at 32 alike. The d = 256 twin keeps 24 / 240 (its consumers fill them),
// and the d = 64 kernel's three consumers their 32 / 160.

// CHECK-LABEL: gpu.func @fa4_hopper_d128_sm_90a(
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// CHECK-LABEL: gpu.func @fa4_hopper_d128_sm_90a_persistent(
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [40, 232]
// FA3-LABEL: gpu.func @fa4_hopper_d128_sm_90a_persistent(
// FA3: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// R32-LABEL: gpu.func @fa4_hopper_d128_sm_90a_persistent(
// R32: fa4.warp_specialize warpgroups [1, 2] registers [32, 232]
func.func @d128(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}

// -----

// CHECK-LABEL: gpu.func @fa4_hopper_d256_sm_90a(
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// CHECK-LABEL: gpu.func @fa4_hopper_d256_sm_90a_persistent(
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// R32-LABEL: gpu.func @fa4_hopper_d256_sm_90a_persistent(
// R32: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
func.func @d256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}

// -----

// CHECK-LABEL: gpu.func @fa4_hopper_d64_sm_90a(
// CHECK: fa4.warp_specialize warpgroups [1, 3] registers [32, 160]
// CHECK-LABEL: gpu.func @fa4_hopper_d64_sm_90a_persistent(
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [40, 232]
func.func @d64(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x8x64xbf16>, %v: tensor<?x?x8x64xbf16>) -> tensor<?x?x8x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16> -> tensor<?x?x8x64xbf16>
  return %o : tensor<?x?x8x64xbf16>
}
