// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -verify-diagnostics
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=reference-fallback=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FALLBACK

// attn.attention_backward (issue 63) has no tensor-core kernel yet: the
// chip's kernel path refuses it by name rather than leave it unlowered, and
// under reference-fallback leaves it to the reference kernel.
// FALLBACK: remark: left for the reference kernel: no tensor-core kernel lowers the backward pass yet
func.func @bw(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) -> (tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>) {
  // expected-error @+1 {{'attn.attention_backward' op has no tensor-core kernel yet (the backward pass, issue 63); kernel=reference or kernel=auto lowers it to the reference kernel}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<causal>} : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return %dq, %dk, %dv : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
}
