// RUN: fa4-opt %s --attn-decode-variants | FileCheck %s
// RUN: fa4-opt %s --attn-decode-variants --attn-plan-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=PLAN

// A dynamic, unhinted query length: the op gets a private function of its
// own, @gqa_decode, holding a clone of it that plans for one query row
// (its operands in, its results out); the two ops name each other's
// functions.
// CHECK-LABEL: func.func @gqa(
// CHECK: attn.attention {{.*}} {attn.decode_variant = @gqa_decode}
// CHECK-LABEL: func.func private @gqa_decode(
// CHECK-SAME: %[[Q:.*]]: tensor<?x?x32x128xbf16>, %[[K:.*]]: tensor<?x?x8x128xbf16>, %[[V:.*]]: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>)
// CHECK-NEXT: %[[R:.*]]:2 = attn.attention %[[Q]], %[[K]], %[[V]] {attn.decode_variant_of = @gqa, attn.seq_q_hint = 1 : i64}
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
// The planners see the hint: the variant fuses the 4 q-heads of a kv-head
// into its tile and leaves its split-K to the launch; the original keeps
// its prefill plan.
// PLAN-LABEL: func.func @gqa(
// PLAN: attn.attention
// PLAN-SAME: config = #attn.config<{{[^>]*}}fuse_gqa = false
// PLAN-SAME: splitk = #attn.splitk<mode = none
// PLAN-LABEL: func.func private @gqa_decode(
// PLAN: attn.attention
// PLAN-SAME: config = #attn.config<{{[^>]*}}fuse_gqa = true
// PLAN-SAME: splitk = #attn.splitk<mode = workspace, reason = at_launch
func.func @gqa(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// A causal mask and a window bounded only on the right keep the span of
// Skv: variants too. The variant of @causal takes the next free name, as
// @causal_decode is taken.
// CHECK-LABEL: func.func @causal(
// CHECK: attn.decode_variant = @causal_decode_0
// CHECK-LABEL: func.func private @causal_decode_0(
// CHECK: attn.decode_variant_of = @causal
// CHECK-LABEL: func.func @right_window(
// CHECK: attn.decode_variant = @right_window_decode
func.func @causal(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x8x64xf16>, %v: tensor<?x?x8x64xf16>) -> tensor<?x?x8x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x?x8x64xf16>
  return %o : tensor<?x?x8x64xf16>
}
func.func private @causal_decode()
func.func @right_window(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x8x64xf16>, %v: tensor<?x?x8x64xf16>) -> tensor<?x?x8x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 0)>} : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x?x8x64xf16>
  return %o : tensor<?x?x8x64xf16>
}

// Left alone: a static query length, a hinted one, and a window bounded
// on the left (a row's keys do not span Skv).
// CHECK-LABEL: func.func @static_sq(
// CHECK-NOT: attn.decode_variant
// CHECK-LABEL: func.func @hinted(
// CHECK-NOT: attn.decode_variant
// CHECK-LABEL: func.func @left_window(
// CHECK-NOT: attn.decode_variant
// A function of several ops (a model's layers): a variant for each, in
// order, each in its own function.
// CHECK-LABEL: func.func @two(
// CHECK: attn.attention {{.*}} {attn.decode_variant = @two_decode}
// CHECK: attn.attention {{.*}} {attn.decode_variant = @two_decode_1, mask = #attn.mask<causal>}
// CHECK-LABEL: func.func private @two_decode(
// CHECK: attn.attention {{.*}} {attn.decode_variant_of = @two, attn.seq_q_hint = 1 : i64}
// CHECK-LABEL: func.func private @two_decode_1(
// CHECK: attn.attention {{.*}} {attn.decode_variant_of = @two, attn.seq_q_hint = 1 : i64, mask = #attn.mask<causal>}
// CHECK-NOT: @static_sq_decode
// CHECK-NOT: @hinted_decode
// CHECK-NOT: @left_window_decode
func.func @static_sq(%q: tensor<?x1x8x64xf16>, %k: tensor<?x?x8x64xf16>, %v: tensor<?x?x8x64xf16>) -> tensor<?x1x8x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x1x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x1x8x64xf16>
  return %o : tensor<?x1x8x64xf16>
}
func.func @hinted(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x8x64xf16>, %v: tensor<?x?x8x64xf16>) -> tensor<?x?x8x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>, attn.seq_q_hint = 4096 : i64} : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x?x8x64xf16>
  return %o : tensor<?x?x8x64xf16>
}
func.func @left_window(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x8x64xf16>, %v: tensor<?x?x8x64xf16>) -> tensor<?x?x8x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x?x8x64xf16>
  return %o : tensor<?x?x8x64xf16>
}
func.func @two(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x8x64xf16>, %v: tensor<?x?x8x64xf16>) -> (tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x?x8x64xf16>
  %p = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16> -> tensor<?x?x8x64xf16>
  return %o, %p : tensor<?x?x8x64xf16>, tensor<?x?x8x64xf16>
}

// The memref form: the variant takes the outputs as arguments too and
// returns nothing; the scale and mask go with the clone.
// CHECK-LABEL: func.func private @memref_mqa_decode(
// CHECK-SAME: %[[Q:.*]]: memref<?x?x6x128xbf16>, %[[K:.*]]: memref<?x?x1x128xbf16>, %[[V:.*]]: memref<?x?x1x128xbf16>, %[[O:.*]]: memref<?x?x6x128xbf16>, %[[L:.*]]: memref<?x6x?xf32>) {
// CHECK-NEXT: attn.attention %[[Q]], %[[K]], %[[V]] outs(%[[O]], %[[L]] : memref<?x?x6x128xbf16>, memref<?x6x?xf32>) {attn.decode_variant_of = @memref_mqa, attn.seq_q_hint = 1 : i64, mask = #attn.mask<causal>, scale = 2.500000e-01 : f32}
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @memref_mqa(%q: memref<?x?x6x128xbf16>, %k: memref<?x?x1x128xbf16>, %v: memref<?x?x1x128xbf16>, %o: memref<?x?x6x128xbf16>, %lse: memref<?x6x?xf32>) {
  attn.attention %q, %k, %v outs(%o, %lse : memref<?x?x6x128xbf16>, memref<?x6x?xf32>) {mask = #attn.mask<causal>, scale = 0.25 : f32}
      : memref<?x?x6x128xbf16>, memref<?x?x1x128xbf16>, memref<?x?x1x128xbf16>
  return
}

// The serving forms too: packed queries (each sequence its own length) and
// a paged cache's dense queries of unknown length get decode variants,
// which the planners give fused heads and a split at launch; a paged
// decode of one static query row needs none.
// CHECK-LABEL: func.func @varlen(
// CHECK: attn.varlen_attention {{.*}}attn.decode_variant = @varlen_decode
// CHECK-LABEL: func.func private @varlen_decode(
// CHECK: attn.varlen_attention {{.*}}attn.decode_variant_of = @varlen, attn.seq_q_hint = 1 : i64
// CHECK-LABEL: func.func @paged(
// CHECK: attn.paged_attention {{.*}}attn.decode_variant = @paged_decode
// CHECK-LABEL: func.func @paged_one_row(
// CHECK-NOT: attn.decode_variant
// CHECK: return
// PLAN-LABEL: func.func private @varlen_decode(
// PLAN: attn.varlen_attention
// PLAN-SAME: config = #attn.config<{{[^>]*}}fuse_gqa = true
// PLAN-LABEL: func.func private @paged_decode(
// PLAN: attn.paged_attention
// PLAN-SAME: config = #attn.config<{{[^>]*}}fuse_gqa = true
// PLAN-SAME: splitk = #attn.splitk<mode = workspace, reason = at_launch
func.func @varlen(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<9xi32>, %ck: tensor<9xi32>) -> tensor<?x32x128xbf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>
  return %o : tensor<?x32x128xbf16>
}

func.func @paged(%q: tensor<8x?x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> tensor<8x?x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x?x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x?x32x128xbf16>
  return %o : tensor<8x?x32x128xbf16>
}

func.func @paged_one_row(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}
