// What the Hopper kernel refuses of the serving forms, by name (under
// kernel=auto the reference kernel takes them, with the same words in a
// remark: serving-reference.mlir): a decode plan of packed queries
// (one-row queries hinted; a paged cache's dense queries decode, and its
// pages of any size are loaded or copied: hopper-serving.mlir).
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a seq-q-hint=1" --convert-attn-to-fa4 -split-input-file -verify-diagnostics

func.func @varlen_decode(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) -> tensor<?x8x128xbf16> {
  // expected-error @+1 {{'attn.varlen_attention' op has no Hopper kernel for a decode or split-K plan of packed queries: the decode grid, the workspace and its combine address queries by (batch, row)}}
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16> -> tensor<?x8x128xbf16>
  return %o : tensor<?x8x128xbf16>
}
