// RUN: fa4-opt %s --attn-decode-variants | FileCheck %s
// RUN: fa4-opt %s --attn-decode-variants --attn-plan-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=PLAN

// A dynamic, unhinted query length: the function is cloned as
// @gqa_decode, whose op plans for one query row; the two ops name each
// other's functions.
// CHECK-LABEL: func.func @gqa(
// CHECK: attn.attention {{.*}} {attn.decode_variant = @gqa_decode}
// CHECK-LABEL: func.func @gqa_decode(
// CHECK: attn.attention {{.*}} {attn.decode_variant_of = @gqa, attn.seq_q_hint = 1 : i64}
// The planners see the hint: the variant fuses the 4 q-heads of a kv-head
// into its tile and leaves its split-K to the launch; the original keeps
// its prefill plan.
// PLAN-LABEL: func.func @gqa(
// PLAN: attn.attention
// PLAN-SAME: config = #attn.config<{{[^>]*}}fuse_gqa = false
// PLAN-SAME: splitk = #attn.splitk<mode = none
// PLAN-LABEL: func.func @gqa_decode(
// PLAN: attn.attention
// PLAN-SAME: config = #attn.config<{{[^>]*}}fuse_gqa = true
// PLAN-SAME: splitk = #attn.splitk<mode = workspace, reason = at_launch
func.func @gqa(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// A causal mask and a window bounded only on the right keep the span of
// Skv: variants too. The clone of @causal takes the next free name, as
// @causal_decode is taken.
// CHECK-LABEL: func.func @causal(
// CHECK: attn.decode_variant = @causal_decode_0
// CHECK-LABEL: func.func @causal_decode_0(
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

// Left alone: a static query length, a hinted one, a window bounded on
// the left (a row's keys do not span Skv), and a function of two ops.
// CHECK-LABEL: func.func @static_sq(
// CHECK-NOT: attn.decode_variant
// CHECK-LABEL: func.func @hinted(
// CHECK-NOT: attn.decode_variant
// CHECK-LABEL: func.func @left_window(
// CHECK-NOT: attn.decode_variant
// CHECK-LABEL: func.func @two(
// CHECK-NOT: attn.decode_variant
// CHECK-NOT: func.func @static_sq_decode
// CHECK-NOT: func.func @hinted_decode
// CHECK-NOT: func.func @left_window_decode
// CHECK-NOT: func.func @two_decode
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
