// attn-decompose on the serving forms: a varlen op becomes one batch of all
// tokens (its queries' sequences counted from cu_seqlens_q), a paged op a
// gather of its cache by the block table; no attn op is left. Their
// numbers: decompose-serving-run.test. With packed queries a paged cache's
// sequences are gathered end to end.
// RUN: fa4-opt %s --split-input-file --attn-decompose --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @varlen
// CHECK-NOT: attn.
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [1, %{{.*}}, 32, 128] : tensor<?x32x128xbf16> into tensor<1x?x32x128xbf16>
// CHECK: tensor.extract_slice %{{.*}}[1] [8] [1] : tensor<9xi32> to tensor<8xi32>
// CHECK: tensor.extract %{{.*}} : tensor<?xi32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<1x?x32x128xbf16> into tensor<?x32x128xbf16>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x32x?xf32> into tensor<32x?xf32>
func.func @varlen(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<9xi32>, %ck: tensor<9xi32>) -> (tensor<?x32x128xbf16>, tensor<32x?xf32>) {
  %o, %lse = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>, tensor<32x?xf32>
  return %o, %lse : tensor<?x32x128xbf16>, tensor<32x?xf32>
}

// -----

// CHECK-LABEL: func.func @paged
// CHECK-NOT: attn.
// CHECK: tensor.empty() : tensor<8x1024x8x128xbf16>
// CHECK: scf.if
// CHECK: tensor.extract %{{.*}} : tensor<8x16xi32>
// CHECK: tensor.extract %{{.*}} : tensor<?x64x8x128xbf16>
func.func @paged(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x16xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x16xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}

// -----

// CHECK-LABEL: func.func @paged_packed
// CHECK-NOT: attn.
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<4x16384x2x128xf16> into tensor<65536x2x128xf16>
// CHECK: tensor.expand_shape
// CHECK: return %{{.*}} : tensor<?x16x128xf16>
func.func @paged_packed(%q: tensor<?x16x128xf16>, %kc: tensor<?x256x2x128xf16>, %vc: tensor<?x256x2x128xf16>, %bt: tensor<4x64xi32>, %sk: tensor<4xi32>, %cq: tensor<5xi32>) -> tensor<?x16x128xf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x64xi32>) seqlens_k(%sk : tensor<4xi32>) cu_seqlens_q(%cq : tensor<5xi32>) : tensor<?x16x128xf16>, tensor<?x256x2x128xf16>, tensor<?x256x2x128xf16> -> tensor<?x16x128xf16>
  return %o : tensor<?x16x128xf16>
}
