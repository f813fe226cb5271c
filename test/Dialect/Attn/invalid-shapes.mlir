// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// BSHD shapes: ranks, sizes, static heads and depths, and the sizes that must agree.

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

// Sizes past fa4/Limits.h: kernels take batch and sequence lengths in 32
// bits (and sums of them), so a static size past the limit is refused here
// instead of wrapping in the kernel or the manifest.
func.func @batch_past_the_limit(%q: tensor<2199023255552x4x8x64xbf16>) {
  // expected-error @+1 {{expects the batch size (dim 0) of query to be at most 1073741823, but got 2199023255552}}
  %o = attn.attention %q, %q, %q : tensor<2199023255552x4x8x64xbf16>, tensor<2199023255552x4x8x64xbf16>, tensor<2199023255552x4x8x64xbf16> -> tensor<2199023255552x4x8x64xbf16>
  return
}

// -----

func.func @sequence_past_the_limit(%q: tensor<1x1073741824x8x64xbf16>) {
  // expected-error @+1 {{expects the sequence length (dim 1) of query to be at most 1073741823, but got 1073741824}}
  %o = attn.attention %q, %q, %q : tensor<1x1073741824x8x64xbf16>, tensor<1x1073741824x8x64xbf16>, tensor<1x1073741824x8x64xbf16> -> tensor<1x1073741824x8x64xbf16>
  return
}

// -----

func.func @heads_past_the_limit(%q: tensor<1x4x4097x64xbf16>) {
  // expected-error @+1 {{expects the head count (dim 2) of query to be at most 4096, but got 4097}}
  %o = attn.attention %q, %q, %q : tensor<1x4x4097x64xbf16>, tensor<1x4x4097x64xbf16>, tensor<1x4x4097x64xbf16> -> tensor<1x4x4097x64xbf16>
  return
}

// -----

func.func @depth_past_the_limit(%q: tensor<1x4x8x1025xbf16>) {
  // expected-error @+1 {{expects the depth (dim 3) of query to be at most 1024, but got 1025}}
  %o = attn.attention %q, %q, %q : tensor<1x4x8x1025xbf16>, tensor<1x4x8x1025xbf16>, tensor<1x4x8x1025xbf16> -> tensor<1x4x8x1025xbf16>
  return
}
