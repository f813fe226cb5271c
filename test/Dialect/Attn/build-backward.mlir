// RUN: fa4-opt %s -split-input-file --test-attention-backward -verify-diagnostics | FileCheck %s

// The autodiff link (issue 63): AttentionOp::buildBackward, run by the test
// pass, gives a forward attn.attention its backward pass. An op without
// LSE is first replaced by one that returns it (withLse: O's uses move to
// it); the backward op reads the forward's Q, K, V, O and LSE and carries
// its scale, mask and softcap.
// CHECK-LABEL: func.func @no_lse(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: tensor<2x7x4x8xf16>, %[[K:[a-z0-9]+]]: tensor<2x5x2x8xf16>, %[[V:[a-z0-9]+]]: tensor<2x5x2x4xf16>, %[[DO:[a-z0-9]+]]: tensor<2x7x4x4xf16>)
// CHECK-SAME: -> (tensor<2x7x4x4xf16>, tensor<2x7x4x8xf16>, tensor<2x5x2x8xf16>, tensor<2x5x2x4xf16>)
// CHECK: %[[F:.+]]:2 = attn.attention %[[Q]], %[[K]], %[[V]] {mask = #attn.mask<causal>, scale = 5.000000e-01 : f32, softcap = 2.000000e+00 : f32} : {{.*}} -> tensor<2x7x4x4xf16>, tensor<2x4x7xf32>
// CHECK-NEXT: %[[DQ:[a-z_]+]], %[[DK:[a-z_]+]], %[[DV:[a-z_]+]] = attn.attention_backward %[[DO]], %[[Q]], %[[K]], %[[V]], %[[F]]#0, %[[F]]#1 {mask = #attn.mask<causal>, scale = 5.000000e-01 : f32, softcap = 2.000000e+00 : f32}
// CHECK-NEXT: return %[[F]]#0, %[[DQ]], %[[DK]], %[[DV]]
func.func @no_lse(%q: tensor<2x7x4x8xf16>, %k: tensor<2x5x2x8xf16>, %v: tensor<2x5x2x4xf16>) -> tensor<2x7x4x4xf16> {
  %o = attn.attention %q, %k, %v {scale = 0.5 : f32, mask = #attn.mask<causal>, softcap = 2.0 : f32} : tensor<2x7x4x8xf16>, tensor<2x5x2x8xf16>, tensor<2x5x2x4xf16> -> tensor<2x7x4x4xf16>
  return %o : tensor<2x7x4x4xf16>
}

// -----

// An op that returns LSE is used as it is; dynamic sizes carry over.
// CHECK-LABEL: func.func @with_lse(
// CHECK: %[[F:.+]]:2 = attn.attention
// CHECK-NEXT: attn.attention_backward %arg3, %arg0, %arg1, %arg2, %[[F]]#0, %[[F]]#1 : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x8x?xf32> -> tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>
func.func @with_lse(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x8x64xbf16>, %v: tensor<?x?x8x64xbf16>) -> (tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16> -> tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
}

// -----

// With sinks, the backward op's dQ, dK and dV stand (the forward's LSE
// holds the sinks), and buildSinksGradient gives the sinks' own gradient:
// one generic over (b, i, h, d) reducing all but h, minus exp(sink - LSE)
// times dO * O.
// CHECK-LABEL: func.func @sinks(
// CHECK-SAME: -> (tensor<1x7x4x8xf16>, tensor<1x4x7xf32>, tensor<1x7x4x8xf16>, tensor<1x5x2x8xf16>, tensor<1x5x2x8xf16>, tensor<4xf32>)
// CHECK: %[[F:.+]]:2 = attn.attention
// CHECK: attn.attention_backward
// CHECK: %[[INIT:.+]] = linalg.fill
// CHECK: %[[DS:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "reduction", "parallel", "reduction"]
// CHECK-SAME: ins(%arg2, %[[F]]#1, %arg3, %[[F]]#0 : tensor<4xf32>, tensor<1x4x7xf32>, tensor<1x7x4x8xf16>, tensor<1x7x4x8xf16>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.subf
// CHECK: return {{.*}}, %[[DS]] :
func.func @sinks(%q: tensor<1x7x4x8xf16>, %k: tensor<1x5x2x8xf16>, %s: tensor<4xf32>) -> (tensor<1x7x4x8xf16>, tensor<1x4x7xf32>) {
  %o, %lse = attn.attention %q, %k, %k sinks(%s : tensor<4xf32>) : tensor<1x7x4x8xf16>, tensor<1x5x2x8xf16>, tensor<1x5x2x8xf16> -> tensor<1x7x4x8xf16>, tensor<1x4x7xf32>
  return %o, %lse : tensor<1x7x4x8xf16>, tensor<1x4x7xf32>
}

// -----

// Nor FP8 operands.
func.func @fp8(%q: tensor<1x7x4x8xf8E4M3FN>, %k: tensor<1x5x2x8xf8E4M3FN>) -> (tensor<1x7x4x8xbf16>, tensor<1x4x7xf32>) {
  // expected-error @+1 {{'attn.attention' op has FP8 operands: the backward pass takes bf16 or f16}}
  %o, %lse = attn.attention %q, %k, %k : tensor<1x7x4x8xf8E4M3FN>, tensor<1x5x2x8xf8E4M3FN>, tensor<1x5x2x8xf8E4M3FN> -> tensor<1x7x4x8xbf16>, tensor<1x4x7xf32>
  return %o, %lse : tensor<1x7x4x8xbf16>, tensor<1x4x7xf32>
}
