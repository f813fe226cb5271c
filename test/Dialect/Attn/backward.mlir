// RUN: fa4-opt %s | fa4-opt | FileCheck %s
// RUN: fa4-opt %s --mlir-print-op-generic | fa4-opt | FileCheck %s

// attn.attention_backward (issue 63) round-trips: GQA 8/2 causal with
// dynamic batch and lengths; MHA with Dqk != Dv, an explicit scale, a
// softcap, a window and deterministic mode.

// CHECK-LABEL: func @gqa_causal
// CHECK: %grad_query, %grad_key, %grad_value = attn.attention_backward %arg0, %arg1, %arg2, %arg3, %arg4, %arg5 {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x8x?xf32> -> tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>
func.func @gqa_causal(%do: tensor<?x?x8x64xbf16>, %q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x2x64xbf16>, %v: tensor<?x?x2x64xbf16>, %o: tensor<?x?x8x64xbf16>, %lse: tensor<?x8x?xf32>) -> (tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x8x?xf32> -> tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>
  return %dq, %dk, %dv : tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>
}

// CHECK-LABEL: func @mha_everything
// CHECK: attn.attention_backward {{.*}} {deterministic, mask = #attn.mask<window(64, 0)>, scale = 1.250000e-01 : f32, softcap = 1.500000e+01 : f32} : tensor<1x100x4x128xf16>, tensor<1x100x4x192xf16>, tensor<1x300x4x192xf16>, tensor<1x300x4x128xf16>, tensor<1x100x4x128xf16>, tensor<1x4x100xf32> -> tensor<1x100x4x192xf16>, tensor<1x300x4x192xf16>, tensor<1x300x4x128xf16>
func.func @mha_everything(%do: tensor<1x100x4x128xf16>, %q: tensor<1x100x4x192xf16>, %k: tensor<1x300x4x192xf16>, %v: tensor<1x300x4x128xf16>, %o: tensor<1x100x4x128xf16>, %lse: tensor<1x4x100xf32>) -> (tensor<1x100x4x192xf16>, tensor<1x300x4x192xf16>, tensor<1x300x4x128xf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<window(64, 0)>, scale = 0.125 : f32, softcap = 15.0 : f32, deterministic} : tensor<1x100x4x128xf16>, tensor<1x100x4x192xf16>, tensor<1x300x4x192xf16>, tensor<1x300x4x128xf16>, tensor<1x100x4x128xf16>, tensor<1x4x100xf32> -> tensor<1x100x4x192xf16>, tensor<1x300x4x192xf16>, tensor<1x300x4x128xf16>
  return %dq, %dk, %dv : tensor<1x100x4x192xf16>, tensor<1x300x4x192xf16>, tensor<1x300x4x128xf16>
}
