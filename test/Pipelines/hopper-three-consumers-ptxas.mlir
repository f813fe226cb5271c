// Three consumer warpgroups (consumer-warpgroups=3) assemble with ptxas for
// sm_90a: 512 threads launch with 128 registers each, setmaxnreg gives the
// consumers 160. The plain kernels, which serve Skv past 2048 and are the
// ones the planner picks three for, neither spill nor draw a C75xx
// advisory at d = 64 (BN = 128) and d = 128 (BN = 80). Each module's looped
// twin (first) spills 116-120 B (the work loop's state next to S, P and O)
// while it stored O box by box through a staging slot, one reason the
// planner keeps two consumers where the twin runs; at d = 64 (one box of
// O) it still does, while the d = 128 one, whose O is staged over its
// second Q buffer's tiles, spills 8 B, the pair's (kv-multicast-twin).
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --consumer-warpgroups=3 --ptxas=%ptxas -o %t --quiet > %t.log
// RUN: FileCheck %s --implicit-check-not=C75 < %t.log

// CHECK: Function properties for fa4_hopper_d64_none_sm_90a_persistent
// CHECK-NEXT: 120 bytes stack frame, 116 bytes spill stores
// CHECK: Compiling entry function 'fa4_hopper_d64_none_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d64_none_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Function properties for fa4_hopper_d64_causal_sm_90a_persistent
// CHECK-NEXT: 120 bytes stack frame, 120 bytes spill stores
// CHECK: Compiling entry function 'fa4_hopper_d64_causal_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d64_causal_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Function properties for fa4_hopper_d128_none_sm_90a_persistent
// CHECK-NEXT: 8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_d128_none_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_none_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers

func.func @d64_none(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> (tensor<?x?x16x64xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x?x16x64xbf16>, tensor<?x16x?xf32>
}
func.func @d64_causal(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> (tensor<?x?x16x64xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x?x16x64xbf16>, tensor<?x16x?xf32>
}
func.func @d128_none(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
