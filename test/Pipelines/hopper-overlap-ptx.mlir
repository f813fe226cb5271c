// The intra-warpgroup overlap variant of the sm_90a kernel
// (fa4-compile --intra-wg-overlap) at d = 64, 128 (also causal) and 256
// with the planner's BN: its PTX waits with one group pending before the
// softmax. Without ptxas; hopper-overlap-ptxas.mlir assembles the same
// compile.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --intra-wg-overlap --ptxas=none -o %t --quiet
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_hopper_p128_sm_90a/fa4_hopper_p128_sm_90a.ptx

// PTX: wgmma.wait_group.sync.aligned 1;

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
