// The FA4-structure kernels of blackwell-matrix.mlir (tcgen05 + TMEM, 512
// threads in softmax, correction and load/MMA roles; the points of the
// sm_90a matrix, every depth pair) assemble with ptxas for sm_100a: no
// stack, no spills, 128 registers at launch (setmaxnreg then gives the
// softmax warpgroups 184, the other roles 72). Their shared memory (within
// the 232448-byte carveout) is checked there, without ptxas.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/blackwell-matrix.mlir --chip=sm_100a --kernel=blackwell --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75

// CHECK: Compiling entry function 'fa4_blackwell_d64_64_h6_6_none_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d64_64_h6_6_none_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d64_64_h6_3_causal_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d64_64_h6_3_causal_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d64_64_h6_1_w128_0_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d64_64_h6_1_w128_0_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d96_96_h6_6_causal_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d96_96_h6_6_causal_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d96_96_h6_3_w128_0_bf16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d96_96_h6_3_w128_0_bf16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d96_96_h6_1_w17_33_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d96_96_h6_1_w17_33_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h6_6_w128_0_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h6_6_w128_0_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h6_3_w17_33_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h6_3_w17_33_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h6_1_none_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h6_1_none_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_64_h6_6_w17_33_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_64_h6_6_w17_33_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_64_h6_3_none_bf16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_64_h6_3_none_bf16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_64_h6_1_causal_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_64_h6_1_causal_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// (192, 128): two Q tiles and K and V alternating in one ring of two 48 KB
// slots, at 168 / 72 / 104 (the MMA issuer keeps 36 descriptors live).
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h6_6_none_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h6_6_none_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h6_3_causal_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h6_3_causal_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h6_1_w128_0_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h6_1_w128_0_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// (256, 256): one Q tile and K and V alternating in one ring of two 64 KB
// slots, 384 threads (168 registers at launch; 232 / 112 / 112 after
// setmaxnreg).
// CHECK: Compiling entry function 'fa4_blackwell_d256_256_h6_6_w17_33_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d256_256_h6_6_w17_33_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_blackwell_d256_256_h6_3_none_bf16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d256_256_h6_3_none_bf16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_blackwell_d256_256_h6_1_causal_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d256_256_h6_1_causal_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
