// RUN: fa4-opt %s | fa4-opt | FileCheck %s
// The serving forms round-trip: packed sequences of different lengths
// (cu_seqlens, optional seqused_k) and a paged key/value cache (block
// table, per-sequence key counts; Q dense or packed), with and without LSE.

// CHECK-LABEL: func @varlen
// CHECK: attn.varlen_attention %{{.*}}, %{{.*}}, %{{.*}} cu_seqlens(%{{.*}}, %{{.*}} : tensor<9xi32>, tensor<9xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>
func.func @varlen(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<9xi32>, %ck: tensor<9xi32>) -> tensor<?x32x128xbf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>
  return %o : tensor<?x32x128xbf16>
}

// CHECK-LABEL: func @varlen_used_lse
// CHECK: attn.varlen_attention {{.*}} seqused_k(%{{.*}} : tensor<?xi32>) {mask = #attn.mask<window(64, 0)>, scale = 1.250000e-01 : f32} : tensor<100x4x192xf16>, tensor<?x1x192xf16>, tensor<?x1x128xf16> -> tensor<100x4x128xf16>, tensor<4x100xf32>
func.func @varlen_used_lse(%q: tensor<100x4x192xf16>, %k: tensor<?x1x192xf16>, %v: tensor<?x1x128xf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %used: tensor<?xi32>) -> (tensor<100x4x128xf16>, tensor<4x100xf32>) {
  %o, %lse = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) seqused_k(%used : tensor<?xi32>) {mask = #attn.mask<window(64, 0)>, scale = 0.125 : f32} : tensor<100x4x192xf16>, tensor<?x1x192xf16>, tensor<?x1x128xf16> -> tensor<100x4x128xf16>, tensor<4x100xf32>
  return %o, %lse : tensor<100x4x128xf16>, tensor<4x100xf32>
}

// CHECK-LABEL: func @paged_decode
// CHECK: attn.paged_attention %{{.*}}, %{{.*}}, %{{.*}} block_table(%{{.*}} : tensor<8x512xi32>) seqlens_k(%{{.*}} : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>
func.func @paged_decode(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> (tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>) {
  %o, %lse = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>
  return %o, %lse : tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>
}

// CHECK-LABEL: func @paged_packed
// CHECK: attn.paged_attention {{.*}} cu_seqlens_q(%{{.*}} : tensor<?xi32>) {mask = #attn.mask<causal>} : tensor<?x8x64xf16>, tensor<?x16x2x64xf16>, tensor<?x16x2x64xf16> -> tensor<?x8x64xf16>, tensor<8x?xf32>
func.func @paged_packed(%q: tensor<?x8x64xf16>, %kc: tensor<?x16x2x64xf16>, %vc: tensor<?x16x2x64xf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>, %cq: tensor<?xi32>) -> (tensor<?x8x64xf16>, tensor<8x?xf32>) {
  %o, %lse = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) cu_seqlens_q(%cq : tensor<?xi32>) {mask = #attn.mask<causal>} : tensor<?x8x64xf16>, tensor<?x16x2x64xf16>, tensor<?x16x2x64xf16> -> tensor<?x8x64xf16>, tensor<8x?xf32>
  return %o, %lse : tensor<?x8x64xf16>, tensor<8x?xf32>
}

// Logit softcapping on both serving forms, as on attn.attention.
// CHECK-LABEL: func @softcapped
// CHECK: attn.varlen_attention {{.*}} {mask = #attn.mask<causal>, softcap = 5.000000e+01 : f32} : tensor<?x8x64xbf16>
// CHECK: attn.paged_attention {{.*}} {softcap = 3.000000e+01 : f32} : tensor<4x1x8x64xbf16>
func.func @softcapped(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>, %dq: tensor<4x1x8x64xbf16>, %kc: tensor<?x64x2x64xbf16>, %vc: tensor<?x64x2x64xbf16>, %bt: tensor<4x8xi32>, %sk: tensor<4xi32>) -> (tensor<?x8x64xbf16>, tensor<4x1x8x64xbf16>) {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) {mask = #attn.mask<causal>, softcap = 50.0 : f32} : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  %p = attn.paged_attention %dq, %kc, %vc block_table(%bt : tensor<4x8xi32>) seqlens_k(%sk : tensor<4xi32>) {softcap = 30.0 : f32} : tensor<4x1x8x64xbf16>, tensor<?x64x2x64xbf16>, tensor<?x64x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return %o, %p : tensor<?x8x64xbf16>, tensor<4x1x8x64xbf16>
}

// Sinks on both serving forms.
// CHECK-LABEL: func @with_sinks
// CHECK: attn.varlen_attention {{.*}} seqused_k(%{{.*}} : tensor<4xi32>) sinks(%{{.*}} : tensor<8xf32>) : tensor<?x8x64xbf16>
// CHECK: attn.paged_attention {{.*}} cu_seqlens_q(%{{.*}} : tensor<5xi32>) sinks(%{{.*}} : tensor<8xf32>) {mask = #attn.mask<causal>} : tensor<?x8x64xbf16>
func.func @with_sinks(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %used: tensor<4xi32>, %s: tensor<8xf32>, %kc: tensor<?x64x2x64xbf16>, %bt: tensor<4x8xi32>) -> (tensor<?x8x64xbf16>, tensor<?x8x64xbf16>) {
  %o = attn.varlen_attention %q, %k, %k cu_seqlens(%cq, %cq : tensor<5xi32>, tensor<5xi32>) seqused_k(%used : tensor<4xi32>) sinks(%s : tensor<8xf32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  %p = attn.paged_attention %q, %kc, %kc block_table(%bt : tensor<4x8xi32>) seqlens_k(%used : tensor<4xi32>) cu_seqlens_q(%cq : tensor<5xi32>) sinks(%s : tensor<8xf32>) {mask = #attn.mask<causal>} : tensor<?x8x64xbf16>, tensor<?x64x2x64xbf16>, tensor<?x64x2x64xbf16> -> tensor<?x8x64xbf16>
  return %o, %p : tensor<?x8x64xbf16>, tensor<?x8x64xbf16>
}
