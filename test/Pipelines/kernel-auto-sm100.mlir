// kernel=auto on sm_100a: the Blackwell kernel wherever it implements the
// plan (proven on fa4-emu), the reference kernel where it does not (an MLA
// plan), with a remark and fa4-compile's "kernel:" line naming why.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --ptxas=none -o %t 2>/dev/null | FileCheck %s
// RUN: fa4-compile %s --chip=sm_100a --ptxas=none -o %t/remark 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: not fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t/forced 2>&1 | FileCheck %s --check-prefix=FORCED

// CHECK: kernel: the Blackwell kernel (FA4's structure: tcgen05, tensor memory; proven on fa4-emu, not yet on a Blackwell GPU)
// CHECK: kernel: the reference kernel (SIMT): the Blackwell kernel does not implement this plan: 'attn.attention' op has an sm_100a MLA plan
// REMARK: remark: left for the reference kernel: the Blackwell kernel does not implement this plan: 'attn.attention' op has an sm_100a MLA plan
// CHECK-DAG: kernel fa4_blackwell_gqa_sm_100a
// CHECK-DAG: kernel fa4_ref_mla_sm_100a
func.func @gqa(%q: tensor<1x512x8x128xbf16>, %k: tensor<1x512x2x128xbf16>,
               %v: tensor<1x512x2x128xbf16>) -> tensor<1x512x8x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x512x8x128xbf16>, tensor<1x512x2x128xbf16>, tensor<1x512x2x128xbf16>
      -> tensor<1x512x8x128xbf16>
  return %o : tensor<1x512x8x128xbf16>
}

// FORCED: error: 'attn.attention' op has an sm_100a MLA plan, which the FA4 kernel does not lower yet
func.func @mla(%q: tensor<1x1x16x576xbf16>, %k: tensor<1x?x1x576xbf16>,
               %v: tensor<1x?x1x512xbf16>) -> tensor<1x1x16x512xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x16x576xbf16>, tensor<1x?x1x576xbf16>, tensor<1x?x1x512xbf16>
      -> tensor<1x1x16x512xbf16>
  return %o : tensor<1x1x16x512xbf16>
}
