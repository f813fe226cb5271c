// The intra-warpgroup overlap variant of the sm_90a kernel
// (fa4-compile --intra-wg-overlap) assembles with no spills and without
// ptxas serialising the wgmma pipeline (no C75xx warning), at d = 64, 128
// (also causal) and 256 with the planner's BN; its PTX waits with one group
// pending before the softmax.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --intra-wg-overlap --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_hopper_p128_sm_90a/fa4_hopper_p128_sm_90a.ptx

// PTX: wgmma.wait_group.sync.aligned 1;
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

func.func @p128(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
func.func @p128c(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
func.func @p64(%q: tensor<?x?x32x64xbf16>, %k: tensor<?x?x32x64xbf16>, %v: tensor<?x?x32x64xbf16>) -> tensor<?x?x32x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x64xbf16>, tensor<?x?x32x64xbf16>, tensor<?x?x32x64xbf16> -> tensor<?x?x32x64xbf16>
  return %o : tensor<?x?x32x64xbf16>
}
func.func @p256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}
