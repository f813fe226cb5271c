// What the Hopper kernel refuses of the serving forms, by name (under
// kernel=auto the reference kernel takes them, with the same words in a
// remark: serving-reference.mlir): pages the plan gathers row by row, and
// a decode or split plan (a static one-row query).
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -split-input-file -verify-diagnostics

func.func @gathered_pages(%q: tensor<?x?x8x128xbf16>, %kc: tensor<?x16x2x128xbf16>, %vc: tensor<?x16x2x128xbf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>) -> tensor<?x?x8x128xbf16> {
  // expected-error @+1 {{'attn.paged_attention' op has pages of 16 keys, which its plan gathers row by row (kv_path gather_cp_async); the Hopper kernel loads K and V by TMA boxes within a page only}}
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) : tensor<?x?x8x128xbf16>, tensor<?x16x2x128xbf16>, tensor<?x16x2x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}

// -----

func.func @paged_decode(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  // expected-error @+1 {{'attn.paged_attention' op has no Hopper kernel for a decode or split-K plan of a serving form: its kernel runs prefill's work list}}
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}
