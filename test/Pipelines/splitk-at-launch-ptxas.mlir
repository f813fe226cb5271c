// The decode of splitk-at-launch.mlir, compiled without size hints (the
// split-K left to the launch): both kernels, the combine and the attention
// kernel, assemble with no stack and no spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/splitk-at-launch.mlir --chip=sm_90a --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75

// CHECK: Compiling entry function 'fa4_hopper_gqa_sm_90a_combine' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_gqa_sm_90a_combine
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_gqa_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_gqa_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
