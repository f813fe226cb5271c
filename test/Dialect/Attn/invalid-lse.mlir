// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// The optional LSE output: [B, Hq, Sq] in f32.

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
