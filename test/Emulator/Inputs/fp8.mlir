// FP8 Q, K and V (issue 62): GQA 4/2 heads, d = 128, causal, with LSE; Q
// descaled by one value, K and V per batch and kv-head. fp8.test runs it.
func.func @fp8(%q: tensor<?x?x4x128xf8E4M3FN>, %k: tensor<?x?x2x128xf8E4M3FN>, %v: tensor<?x?x2x128xf8E4M3FN>, %qd: tensor<f32>, %kd: tensor<?x2xf32>, %vd: tensor<?x2xf32>) -> (tensor<?x?x4x128xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v q_descale(%qd : tensor<f32>) k_descale(%kd : tensor<?x2xf32>) v_descale(%vd : tensor<?x2xf32>) {mask = #attn.mask<causal>} : tensor<?x?x4x128xf8E4M3FN>, tensor<?x?x2x128xf8E4M3FN>, tensor<?x?x2x128xf8E4M3FN> -> tensor<?x?x4x128xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x?x4x128xbf16>, tensor<?x4x?xf32>
}

