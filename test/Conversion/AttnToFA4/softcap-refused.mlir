// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -verify-diagnostics
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -verify-diagnostics
// RUN: fa4-opt %s -split-input-file --convert-attn-to-reference-kernel -verify-diagnostics

// attn.attention with softcap: no kernel lowers it yet, so every kernel
// path (the Hopper and Blackwell kernels, the reference kernel) refuses the
// op by name rather than dropping the softcap; planning runs
// (explain-softcap.mlir).

func.func @softcap(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x64xbf16>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has softcap, which no kernel lowers yet; attn-decompose gives its meaning}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>, softcap = 15.0 : f32} : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x64xbf16> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
