// fa4-compile --twin-own-tiles: the causal looped twins also stop each
// consumer's GEMMs at its own last K/V tile (trimsTrailingTiles). At
// d = 64 and 128 they still assemble without spills; the d = 256 twin
// spills as its default does (72 / 112 B there, 84 / 144 B with the
// trailing turns, ptxas 13.0).
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --twin-own-tiles --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75

// CHECK: Compiling entry function 'fa4_fa3_p256c_sm_90a_persistent' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p256c_sm_90a_persistent
// CHECK-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]+}} bytes spill stores, {{[0-9]+}} bytes spill loads
// CHECK: Compiling entry function 'fa4_fa3_p128c_sm_90a_persistent' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p128c_sm_90a_persistent
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_fa3_p64c_sm_90a_persistent' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p64c_sm_90a_persistent
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @p256c(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}
func.func @p128c(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
func.func @p64c(%q: tensor<?x?x32x64xbf16>, %k: tensor<?x?x32x64xbf16>, %v: tensor<?x?x32x64xbf16>) -> tensor<?x?x32x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x32x64xbf16>, tensor<?x?x32x64xbf16>, tensor<?x?x32x64xbf16> -> tensor<?x?x32x64xbf16>
  return %o : tensor<?x?x32x64xbf16>
}
