// The Blackwell serving kernels of blackwell-serving.mlir assemble with
// ptxas for sm_100a: no stack, no spills, the dense kernels' registers
// (128 for 512 threads; 168 for the d = 256 plan's 384).
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/hopper-serving.mlir --chip=sm_100a --ptxas=%ptxas -o %t --quiet > %t.log
// RUN: FileCheck %s < %t.log

// CHECK: Compiling entry function 'fa4_blackwell_causal_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_causal_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_seqused_none_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_seqused_none_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_window_d256_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_window_d256_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_blackwell_paged_dense_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged_dense_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_paged_dense_decode_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged_dense_decode_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_blackwell_paged64_packed_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged64_packed_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// Paged decode (the op's one-row plan, and paged_dense's decode variant).
// CHECK: Compiling entry function 'fa4_blackwell_paged_decode_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged_decode_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
