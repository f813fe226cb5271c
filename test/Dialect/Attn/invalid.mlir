// RUN: fa4-opt %s -split-input-file -verify-diagnostics

func.func @mixed_tensor_and_memref(%q: tensor<1x8x4x64xbf16>, %k: memref<1x8x4x64xbf16>, %v: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects query, key and value to be all tensors or all memrefs, but query is 'tensor<1x8x4x64xbf16>' and key is 'memref<1x8x4x64xbf16>'}}
  %o = "attn.attention"(%q, %k, %v) : (tensor<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @memref_with_results(%q: memref<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  // expected-error @+1 {{with memref operands returns no results; pass O and LSE in outs}}
  %r = "attn.attention"(%q, %q, %q, %o) : (memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @tensor_with_outs(%q: tensor<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  // expected-error @+1 {{with tensor operands takes no outs; it returns O and LSE as results}}
  %r = attn.attention %q, %q, %q outs(%o : memref<1x8x4x64xbf16>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @tensor_without_results(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects O and an optional LSE (1 or 2 results), but got 0}}
  attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @memref_three_outs(%q: memref<1x8x4x64xbf16>, %lse: memref<1x4x8xf32>) {
  // expected-error @+1 {{expects O and an optional LSE (1 or 2 outs), but got 3}}
  attn.attention %q, %q, %q outs(%q, %lse, %lse : memref<1x8x4x64xbf16>, memref<1x4x8xf32>, memref<1x4x8xf32>) : memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>
  return
}

// -----

func.func @query_rank_3(%q: tensor<8x4x64xbf16>, %k: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects query to have rank 4 (BSHD: batch, sequence, heads, depth), but got rank 3}}
  %o = attn.attention %q, %k, %k : tensor<8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @output_rank_5(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects output to have rank 4 (BSHD: batch, sequence, heads, depth), but got rank 5}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x1x8x4x64xbf16>
  return
}

// -----

func.func @empty_sequence(%q: tensor<1x0x4x64xbf16>, %k: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects every dim of query to be >= 1, but dim 1 is 0}}
  %o = attn.attention %q, %k, %k : tensor<1x0x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x0x4x64xbf16>
  return
}

// -----

func.func @dynamic_heads(%q: tensor<1x8x?x64xbf16>, %k: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the head count (dim 2) of query to be static}}
  %o = attn.attention %q, %k, %k : tensor<1x8x?x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @dynamic_depth(%q: tensor<1x8x4x64xbf16>, %v: tensor<1x8x4x?xbf16>) {
  // expected-error @+1 {{expects the depth (dim 3) of value to be static}}
  %o = attn.attention %q, %q, %v : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x?xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @f32_unsupported(%q: tensor<1x8x4x64xf32>) {
  // expected-error @+1 {{element type 'f32' is not supported; supported: bf16, f16}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf32>, tensor<1x8x4x64xf32>, tensor<1x8x4x64xf32> -> tensor<1x8x4x64xf32>
  return
}

// -----

func.func @f8_not_yet(%q: tensor<1x8x4x64xf8E4M3FN>) {
  // expected-error @+1 {{element type f8E4M3FN is not supported yet (it needs descale operands); supported: bf16, f16}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xf8E4M3FN>
  return
}

// -----

func.func @key_element_type(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x4x64xf16>) {
  // expected-error @+1 {{expects key to have element type 'bf16' like query, but got 'f16'}}
  %o = attn.attention %q, %k, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @output_element_type(%q: tensor<1x8x4x64xf16>) {
  // expected-error @+1 {{expects output to have element type 'f16' like query, but got 'bf16'}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf16>, tensor<1x8x4x64xf16>, tensor<1x8x4x64xf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @batch_key(%q: tensor<2x8x4x64xbf16>, %k: tensor<3x8x4x64xbf16>) {
  // expected-error @+1 {{expects the batch size of query (2) and key (3) to be equal}}
  %o = attn.attention %q, %k, %k : tensor<2x8x4x64xbf16>, tensor<3x8x4x64xbf16>, tensor<3x8x4x64xbf16> -> tensor<2x8x4x64xbf16>
  return
}

// -----

func.func @batch_value(%q: tensor<2x8x4x64xbf16>, %v: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the batch size of query (2) and value (1) to be equal}}
  %o = attn.attention %q, %q, %v : tensor<2x8x4x64xbf16>, tensor<2x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<2x8x4x64xbf16>
  return
}

// -----

func.func @batch_output(%q: tensor<2x8x4x64xbf16>) {
  // expected-error @+1 {{expects the batch size of query (2) and output (4) to be equal}}
  %o = attn.attention %q, %q, %q : tensor<2x8x4x64xbf16>, tensor<2x8x4x64xbf16>, tensor<2x8x4x64xbf16> -> tensor<4x8x4x64xbf16>
  return
}

// -----

func.func @kv_sequence(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x16x4x64xbf16>, %v: tensor<1x17x4x64xbf16>) {
  // expected-error @+1 {{expects the key/value sequence length of key (16) and value (17) to be equal}}
  %o = attn.attention %q, %k, %v : tensor<1x8x4x64xbf16>, tensor<1x16x4x64xbf16>, tensor<1x17x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @query_sequence(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the query sequence length of query (8) and output (9) to be equal}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x9x4x64xbf16>
  return
}

// -----

func.func @kv_heads(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x2x64xbf16>, %v: tensor<1x8x1x64xbf16>) {
  // expected-error @+1 {{expects the key/value head count of key (2) and value (1) to be equal}}
  %o = attn.attention %q, %k, %v : tensor<1x8x4x64xbf16>, tensor<1x8x2x64xbf16>, tensor<1x8x1x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @output_heads(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the query head count of query (4) and output (8) to be equal}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x8x64xbf16>
  return
}

// -----

func.func @qk_depth(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x4x128xbf16>) {
  // expected-error @+1 {{expects the QK depth of query (64) and key (128) to be equal}}
  %o = attn.attention %q, %k, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x128xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @ov_depth(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the OV depth of value (64) and output (128) to be equal}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x128xbf16>
  return
}

// -----

func.func @heads_not_multiple(%q: tensor<1x8x6x64xbf16>, %k: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the query head count (6) to be a multiple of the key/value head count (4)}}
  %o = attn.attention %q, %k, %k : tensor<1x8x6x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x6x64xbf16>
  return
}

// -----

func.func @lse_rank(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects lse to have rank 3 (batch, query heads, query sequence), but got rank 2}}
  %o, %lse = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>, tensor<4x8xf32>
  return
}

// -----

func.func @lse_element_type(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects lse to have element type f32, but got 'bf16'}}
  %o, %lse = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>, tensor<1x4x8xbf16>
  return
}

// -----

func.func @lse_bshd_instead_of_bhs(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the query head count of query (4) and lse (dim 1) (8) to be equal}}
  %o, %lse = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>, tensor<1x8x4xf32>
  return
}

// -----

func.func @lse_sequence(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects the query sequence length of query (8) and lse (dim 2) (7) to be equal}}
  %o, %lse = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>, tensor<1x4x7xf32>
  return
}

// -----

func.func @lse_batch(%q: memref<2x8x4x64xbf16>, %lse: memref<3x4x8xf32>) {
  // expected-error @+1 {{expects the batch size of query (2) and lse (3) to be equal}}
  attn.attention %q, %q, %q outs(%q, %lse : memref<2x8x4x64xbf16>, memref<3x4x8xf32>) : memref<2x8x4x64xbf16>, memref<2x8x4x64xbf16>, memref<2x8x4x64xbf16>
  return
}

// -----

func.func @lse_zero_dim(%q: memref<1x8x4x64xbf16>, %lse: memref<1x0x8xf32>) {
  // expected-error @+1 {{expects every dim of lse to be >= 1, but dim 1 is 0}}
  attn.attention %q, %q, %q outs(%q, %lse : memref<1x8x4x64xbf16>, memref<1x0x8xf32>) : memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>
  return
}

// -----

func.func @negative_scale(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects scale to be finite and > 0, but got -1}}
  %o = attn.attention %q, %q, %q {scale = -1.0 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @infinite_scale(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects scale to be finite and > 0, but got INF}}
  %o = attn.attention %q, %q, %q {scale = 0x7F800000 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @scale_wrong_type(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{attribute 'scale' failed to satisfy constraint: 32-bit float attribute}}
  %o = attn.attention %q, %q, %q {scale = 2 : i32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @mask_wrong_attribute(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{attribute 'mask' failed to satisfy constraint}}
  %o = attn.attention %q, %q, %q {mask = "causal"} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}
