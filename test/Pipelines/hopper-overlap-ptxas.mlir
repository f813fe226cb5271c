// The intra-warpgroup overlap variant of the sm_90a kernel
// (fa4-compile --intra-wg-overlap, the kernels of hopper-overlap-ptx.mlir)
// assembles with no spills and without ptxas serialising the wgmma pipeline
// (no C75xx warning), at d = 64, 128 (also causal) and 256 with the
// planner's BN.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/hopper-overlap-ptx.mlir --chip=sm_90a --intra-wg-overlap --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75

// CHECK: Compiling entry function 'fa4_hopper_p128_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p128_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_p128c_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p128c_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_p64_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p64_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_p256_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p256_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
