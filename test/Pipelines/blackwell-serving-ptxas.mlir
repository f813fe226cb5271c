// The Blackwell serving kernels of blackwell-serving.mlir assemble with
// ptxas for sm_100a: the dense kernels' registers (128 for 512 threads;
// 168 for the d = 256 plan's 384), no stack and no spills for packed
// sequences. The paged kernels spill (8 to 364 bytes, 2026-12-07) since
// the loader warp's lanes copy a tile that ends past its sequence's last
// key (copyPagedTile): open, to be measured on a B200 and removed.
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
// CHECK-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]+}} bytes spill stores
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_paged_dense_decode_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged_dense_decode_sm_100a
// CHECK-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]+}} bytes spill stores
// CHECK: Compiling entry function 'fa4_blackwell_paged64_packed_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged64_packed_sm_100a
// CHECK-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]+}} bytes spill stores
// CHECK-NEXT: Used 128 registers
// Paged decode (the op's one-row plan, and paged_dense's decode variant).
// CHECK: Compiling entry function 'fa4_blackwell_paged_decode_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_paged_decode_sm_100a
// CHECK-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]+}} bytes spill stores
