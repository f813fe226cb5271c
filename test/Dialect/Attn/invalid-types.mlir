// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// Element types: what is supported, and that all operands agree.

func.func @f32_unsupported(%q: tensor<1x8x4x64xf32>) {
  // expected-error @+1 {{element type 'f32' is not supported; supported: bf16, f16}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf32>, tensor<1x8x4x64xf32>, tensor<1x8x4x64xf32> -> tensor<1x8x4x64xf32>
  return
}

// -----

// FP8 (issue 62): f8E4M3FN Q, K and V with a bf16 or f16 O, or FP8 K and
// V under a Q of O's type; descales only on FP8 operands, f32, rank 0 or
// [B, Hkv].
func.func @f8_output(%q: tensor<1x8x4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects output element type bf16 or f16 with f8E4M3FN operands, but got 'f8E4M3FN'}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xf8E4M3FN>
  return
}

// -----

func.func @f8_query_bf16_key(%q: tensor<1x8x4x64xf8E4M3FN>, %k: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects key and value to be f8E4M3FN with an f8E4M3FN operand, but got key 'bf16' and value 'bf16'}}
  %o = attn.attention %q, %k, %k : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @f8_key_alone(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects key and value to be f8E4M3FN with an f8E4M3FN operand, but got key 'f8E4M3FN' and value 'bf16'}}
  %o = attn.attention %q, %k, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @f8_cache_query_type(%q: tensor<1x8x4x64xf16>, %k: tensor<1x8x4x64xf8E4M3FN>) {
  // expected-error @+1 {{expects query to be f8E4M3FN or of the output's element type 'bf16', but got 'f16'}}
  %o = attn.attention %q, %k, %k : tensor<1x8x4x64xf16>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @descale_of_bf16(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x4x64xf8E4M3FN>, %d: tensor<f32>) {
  // expected-error @+1 {{has q_descale, but the query is 'bf16', not f8E4M3FN: only FP8 operands take a descale}}
  %o = attn.attention %q, %k, %k q_descale(%d : tensor<f32>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @descale_rank(%q: tensor<1x8x4x64xf8E4M3FN>, %d: tensor<4xf32>) {
  // expected-error @+1 {{expects k_descale to have rank 0 (one value for the tensor) or 2 (batch, key/value heads), but got rank 1}}
  %o = attn.attention %q, %q, %q k_descale(%d : tensor<4xf32>) : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @descale_f16(%q: tensor<1x8x4x64xf8E4M3FN>, %d: tensor<f16>) {
  // expected-error @+1 {{expects v_descale to have element type f32, but got 'f16'}}
  %o = attn.attention %q, %q, %q v_descale(%d : tensor<f16>) : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @descale_batch(%q: tensor<2x8x4x64xf8E4M3FN>, %k: tensor<2x8x2x64xf8E4M3FN>, %d: tensor<3x2xf32>) {
  // expected-error @+1 {{expects the batch size of query (2) and q_descale (3) to be equal}}
  %o = attn.attention %q, %k, %k q_descale(%d : tensor<3x2xf32>) : tensor<2x8x4x64xf8E4M3FN>, tensor<2x8x2x64xf8E4M3FN>, tensor<2x8x2x64xf8E4M3FN> -> tensor<2x8x4x64xbf16>
  return
}

// -----

func.func @descale_heads(%q: tensor<2x8x4x64xf8E4M3FN>, %k: tensor<2x8x2x64xf8E4M3FN>, %d: tensor<2x4xf32>) {
  // expected-error @+1 {{expects the key/value head count of key (2) and k_descale (4) to be equal}}
  %o = attn.attention %q, %k, %k k_descale(%d : tensor<2x4xf32>) : tensor<2x8x4x64xf8E4M3FN>, tensor<2x8x2x64xf8E4M3FN>, tensor<2x8x2x64xf8E4M3FN> -> tensor<2x8x4x64xbf16>
  return
}

// -----

func.func @descale_memref(%q: tensor<1x8x4x64xf8E4M3FN>, %d: memref<f32>) {
  // expected-error @+1 {{expects q_descale to be a tensor as the other operands, but got 'memref<f32>'}}
  %o = attn.attention %q, %q, %q q_descale(%d : memref<f32>) : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xbf16>
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
