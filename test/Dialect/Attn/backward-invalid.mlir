// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// attn.attention_backward (issue 63): every verifier rule refuses what
// breaks it, with a message that names the operand and the rule.

// A rank-3 query: the op is BSHD.
func.func @query_rank(%do: tensor<2x7x4x32xbf16>, %q: tensor<7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects query to have rank 4 (BSHD: batch, sequence, heads, depth), but got rank 3}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// FP8 operands: the backward of FP8 attention is not supported.
func.func @fp8(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>, %v: tensor<2x5x2x32xf8E4M3FN>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op takes bf16 or f16 operands: the backward pass of FP8 attention is not supported}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x32xf8E4M3FN>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x32xf8E4M3FN>
  return
}

// -----

// f32 operands: the kernels take bf16 or f16.
func.func @f32(%do: tensor<2x7x4x32xf32>, %q: tensor<2x7x4x64xf32>, %k: tensor<2x5x2x64xf32>, %v: tensor<2x5x2x32xf32>, %o: tensor<2x7x4x32xf32>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op element type 'f32' is not supported; supported: bf16, f16}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xf32>, tensor<2x7x4x64xf32>, tensor<2x5x2x64xf32>, tensor<2x5x2x32xf32>, tensor<2x7x4x32xf32>, tensor<2x4x7xf32> -> tensor<2x7x4x64xf32>, tensor<2x5x2x64xf32>, tensor<2x5x2x32xf32>
  return
}

// -----

// dO in another element type than O.
func.func @grad_output_type(%do: tensor<2x7x4x32xf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects grad_output to have element type 'bf16' like query, but got 'f16'}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// Query heads not a multiple of the key/value heads.
func.func @heads(%do: tensor<2x7x6x32xbf16>, %q: tensor<2x7x6x64xbf16>, %k: tensor<2x5x4x64xbf16>, %v: tensor<2x5x4x32xbf16>, %o: tensor<2x7x6x32xbf16>, %lse: tensor<2x6x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the query head count (6) to be a multiple of the key/value head count (4)}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x6x32xbf16>, tensor<2x7x6x64xbf16>, tensor<2x5x4x64xbf16>, tensor<2x5x4x32xbf16>, tensor<2x7x6x32xbf16>, tensor<2x6x7xf32> -> tensor<2x7x6x64xbf16>, tensor<2x5x4x64xbf16>, tensor<2x5x4x32xbf16>
  return
}

// -----

// Q and K of different depths.
func.func @qk_depth(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x48xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the QK depth of query (64) and key (48) to be equal}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x48xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x48xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// K of another batch.
func.func @batch(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<3x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the batch size of query (2) and key (3) to be equal}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<3x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<3x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// K and V of different lengths.
func.func @kv_length(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x6x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the key/value sequence length of key (5) and value (6) to be equal}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x6x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x6x2x32xbf16>
  return
}

// -----

// O of another query length than Q.
func.func @output_length(%do: tensor<2x8x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x8x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the query sequence length of query (7) and output (8) to be equal}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x8x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x8x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// dO not of O's shape.
func.func @grad_output_shape(%do: tensor<2x7x4x16xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the OV depth of output (32) and grad_output (16) to be equal}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x16xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// LSE in bf16.
func.func @lse_type(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xbf16>) {
  // expected-error @+1 {{'attn.attention_backward' op expects lse to have element type f32, but got 'bf16'}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xbf16> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// LSE of the wrong query length.
func.func @lse_shape(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x9xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the query sequence length of query (7) and lse (dim 2) (9) to be equal}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x9xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// dK not of K's type.
func.func @grad_key(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects grad_key to have the type of key, 'tensor<2x5x2x64xbf16>', but got 'tensor<2x5x2x64xf16>'}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// A negative scale.
func.func @scale(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects scale to be finite and > 0, but got -1.000000e+00}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {scale = -1.0 : f32} : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// A softcap of 0.
func.func @softcap(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects softcap to be finite and > 0, but got 0.000000e+00}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {softcap = 0.0 : f32} : tensor<2x7x4x32xbf16>, tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}

// -----

// Dynamic head counts: heads and depths are static.
func.func @dynamic_heads(%do: tensor<2x7x4x32xbf16>, %q: tensor<2x7x?x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x32xbf16>, %o: tensor<2x7x4x32xbf16>, %lse: tensor<2x4x7xf32>) {
  // expected-error @+1 {{'attn.attention_backward' op expects the head count (dim 2) of query to be static}}
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<2x7x4x32xbf16>, tensor<2x7x?x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>, tensor<2x7x4x32xbf16>, tensor<2x4x7xf32> -> tensor<2x7x?x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x32xbf16>
  return
}
