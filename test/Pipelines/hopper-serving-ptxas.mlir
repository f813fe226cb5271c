// The serving kernels of hopper-serving.mlir assemble with ptxas for sm_90a:
// no stack, no spills, and the dense kernels' registers (168 for 384
// threads, 128 for the three consumers of d = 64 without a window), with
// no C75xx advisory (ptxas fencing the wgmma pipeline itself). The span
// reads, the per-sequence pointers and the block-table reads cost no
// spill.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/hopper-serving.mlir --chip=sm_90a --ptxas=%ptxas -o %t --quiet > %t.log
// RUN: FileCheck %s --implicit-check-not=C75 < %t.log

// CHECK: Compiling entry function 'fa4_hopper_causal_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_causal_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_seqused_none_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_seqused_none_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_hopper_none_pairs_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_none_pairs_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_window_d256_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_window_d256_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_paged_dense_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_paged_dense_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_paged_dense_decode_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_paged_dense_decode_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_paged64_packed_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_paged64_packed_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// Paged decode (the op's one-row plan, and paged_dense's decode variant):
// the dense decode kernel's registers, no spill.
// CHECK: Compiling entry function 'fa4_hopper_paged_decode_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_paged_decode_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
