// The sm_100a FA4 kernels under pair_cta of blackwell-pair-matrix.mlir
// (every configuration the planner pairs) assemble with ptxas: no stack, no
// spills, 128 registers at launch (setmaxnreg then gives 184 / 72 / 72, and
// 168 / 72 / 104 at Dqk = 192). Their launches (clusters of two, shared
// memory) are checked there, without ptxas; blackwell-ptxas-matrix.mlir
// assembles the unpaired D = 64 and (256, 256).
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/blackwell-pair-matrix.mlir --chip=sm_100a --kernel=blackwell --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75

// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_16_none_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_16_none_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_8_causal_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_8_causal_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_1_w128_0_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_1_w128_0_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_4_w17_33_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_4_w17_33_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d96_96_h16_16_causal_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d96_96_h16_16_causal_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h16_16_none_bf16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h16_16_none_bf16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h16_2_causal_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h16_2_causal_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
