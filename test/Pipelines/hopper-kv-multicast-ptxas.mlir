// The three compiles of hopper-kv-multicast-ptx.mlir (kernels in clusters
// of two under --kv-multicast, looped twins in pairs or alone, the causal
// kernels), assembled by ptxas: the kernels still assemble without spills,
// the d = 128 twin in pairs too (its producer gets 40 registers; 8 B at 32,
// 28 B at 24), the d = 256 one with a few words (the pair's work list beside
// the producer's state: 32 B, at FA3's 24; 5-6% faster than one CTA per work
// item all the same, D-9). The PTX and manifests are checked there, without
// ptxas.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/hopper-kv-multicast-ptx.mlir --chip=sm_90a --kv-multicast --decode-variants=false --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: rm -rf %t.one && fa4-compile %S/hopper-kv-multicast-ptx.mlir --chip=sm_90a --kv-multicast-twin=false --decode-variants=false --ptxas=%ptxas -o %t.one --quiet | FileCheck %s --check-prefix=ONE --implicit-check-not=C75
// RUN: rm -rf %t.causal && fa4-compile %S/hopper-kv-multicast-ptx.mlir --chip=sm_90a --kv-multicast-causal-min-seq-kv=0 --decode-variants=false --ptxas=%ptxas -o %t.causal --quiet | FileCheck %s --check-prefix=CAUSAL --implicit-check-not=C75

// CHECK: Compiling entry function 'fa4_hopper_p128_sm_90a_persistent' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p128_sm_90a_persistent
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_p128_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p128_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_p256_sm_90a_persistent' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p256_sm_90a_persistent
// CHECK-NEXT: 24 bytes stack frame, 32 bytes spill stores, 40 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_p256_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_p256_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Function properties for fa4_hopper_c128_sm_90a_persistent
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Function properties for fa4_hopper_c128_sm_90a{{$}}
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Function properties for fa4_hopper_c256_sm_90a{{$}}
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// With --kv-multicast-twin=false the twins load for themselves alone: the
// d = 128 one spills nothing, the d = 256 one 16 B (its work loop's state
// beside a 64 x 256 O).
// ONE: Function properties for fa4_hopper_p128_sm_90a_persistent
// ONE-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// ONE: Function properties for fa4_hopper_p128_sm_90a
// ONE-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// ONE: Function properties for fa4_hopper_p256_sm_90a_persistent
// ONE-NEXT: 16 bytes stack frame, 16 bytes spill stores, 32 bytes spill loads
// ONE: Function properties for fa4_hopper_p256_sm_90a
// ONE-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// With --kv-multicast-causal-min-seq-kv=0 the d = 256 causal kernel pairs
// too and still assembles without spills.
// CAUSAL: Function properties for fa4_hopper_c256_sm_90a{{$}}
// CAUSAL-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
