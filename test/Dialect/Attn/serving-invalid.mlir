// RUN: fa4-opt %s -split-input-file -verify-diagnostics
// What the serving forms refuse: ranks and layouts, heads, element types,
// the sizes their operands share, the i32 index vectors (cu_seqlens,
// seqused_k, block table, seqlens_k) against one batch, the LSE, the scale.

func.func @varlen_rank(%q: tensor<1x?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects query to have rank 3 (tokens, heads, depth), but got rank 4}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<1x?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<1x?x8x64xbf16>
  return
}

// -----

func.func @varlen_heads(%q: tensor<?x6x64xbf16>, %k: tensor<?x4x64xbf16>, %v: tensor<?x4x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects the query head count (6) to be a multiple of the key/value head count (4)}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x6x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16> -> tensor<?x6x64xbf16>
  return
}

// -----

func.func @varlen_dtype(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xf16>, %v: tensor<?x2x64xf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects key to have element type 'bf16' like query, but got 'f16'}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xf16>, tensor<?x2x64xf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_f32(%q: tensor<?x8x64xf32>, %k: tensor<?x2x64xf32>, %v: tensor<?x2x64xf32>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{element type 'f32' is not supported; supported: bf16, f16}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x64xf32>, tensor<?x2x64xf32>, tensor<?x2x64xf32> -> tensor<?x8x64xf32>
  return
}

// -----

func.func @varlen_kv_tokens(%q: tensor<?x8x64xbf16>, %k: tensor<10x2x64xbf16>, %v: tensor<11x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects the key token count of key (10) and value (11) to be equal}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<10x2x64xbf16>, tensor<11x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_o_depth(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x32xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects the OV depth of value (32) and output (64) to be equal}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x32xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_dynamic_heads(%q: tensor<?x?x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects the head count (dim 1) of query to be static}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x?x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x?x64xbf16>
  return
}

// -----

func.func @varlen_cu_rank(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5x1xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects cu_seqlens_q to have rank 1 (batch + 1), but got rank 2}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5x1xi32>, tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_cu_short(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<1xi32>, %ck: tensor<1xi32>) {
  // expected-error @below {{expects cu_seqlens_q to hold at least two offsets (one sequence), but it has 1}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<1xi32>, tensor<1xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_cu_batch(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<4xi32>) {
  // expected-error @below {{expects the batch size of cu_seqlens_q (4) and cu_seqlens_k (3) to be equal}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<4xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_used_batch(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>, %u: tensor<5xi32>) {
  // expected-error @below {{expects the batch size of cu_seqlens_q (4) and seqused_k (5) to be equal}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) seqused_k(%u : tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_lse(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects lse to have element type f32, but got 'f16'}}
  %r:2 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>, tensor<8x?xf16>
  return
}

// -----

func.func @varlen_lse_tokens(%q: tensor<7x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects the query token count of query (7) and lse (dim 1) (9) to be equal}}
  %r:2 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<7x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<7x8x64xbf16>, tensor<8x9xf32>
  return
}

// -----

func.func @varlen_results(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects O and an optional LSE (1 or 2 results), but got 3}}
  %r:3 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>, tensor<8x?xf32>, tensor<8x?xf32>
  return
}

// -----

func.func @varlen_scale(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects scale to be finite and > 0, but got -1}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) {scale = -1.0 : f32} : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @varlen_softcap(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %v: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) {
  // expected-error @below {{expects softcap to be finite and > 0, but got 0}}
  %r:1 = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) {softcap = 0.0 : f32} : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @paged_softcap(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x64x2x64xbf16>, %vc: tensor<?x64x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects softcap to be finite and > 0, but got nan}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) {softcap = 0x7FC00000 : f32} : tensor<4x1x8x64xbf16>, tensor<?x64x2x64xbf16>, tensor<?x64x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_cache_rank(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x2x64xbf16>, %vc: tensor<?x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects key_cache to have rank 4 (pages, page size, heads, depth), but got rank 3}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_page_size(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x?x2x64xbf16>, %vc: tensor<?x?x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects the page size (dim 1) of key_cache to be static}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_page_mismatch(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x32x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects the page size of key_cache (16) and value_cache (32) to be equal}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x32x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_pages(%q: tensor<4x1x8x64xbf16>, %kc: tensor<100x16x2x64xbf16>, %vc: tensor<99x16x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects the page count of key_cache (100) and value_cache (99) to be equal}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<100x16x2x64xbf16>, tensor<99x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_table_rank(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<128xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects block_table to have rank 2 (batch, pages), but got rank 1}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<128xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_batch(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<3x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects the batch size of block_table (3) and seqlens_k (4) to be equal}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<3x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_seqlens_batch(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<5xi32>) {
  // expected-error @below {{expects the batch size of block_table (4) and seqlens_k (5) to be equal}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<5xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_dense_rank(%q: tensor<?x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects query to have rank 4 (BSHD: batch, sequence, heads, depth), but got rank 3}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<?x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @paged_packed_rank(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>, %cq: tensor<5xi32>) {
  // expected-error @below {{expects query to have rank 3 (tokens, heads, depth (packed by cu_seqlens_q)), but got rank 4}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) cu_seqlens_q(%cq : tensor<5xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_packed_batch(%q: tensor<?x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>, %cq: tensor<3xi32>) {
  // expected-error @below {{expects the batch size of block_table (4) and cu_seqlens_q (2) to be equal}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) cu_seqlens_q(%cq : tensor<3xi32>) : tensor<?x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}

// -----

func.func @paged_heads(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x3x64xbf16>, %vc: tensor<?x16x3x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects the query head count (8) to be a multiple of the key/value head count (3)}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x3x64xbf16>, tensor<?x16x3x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_lse(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects the query sequence length of query (1) and lse (dim 2) (2) to be equal}}
  %r:2 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>, tensor<4x8x2xf32>
  return
}

// -----

func.func @paged_cache_dtype(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xf16>, %vc: tensor<?x16x2x64xf16>, %bt: tensor<4x32xi32>, %sk: tensor<4xi32>) {
  // expected-error @below {{expects key_cache to have element type 'bf16' like query, but got 'f16'}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi32>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xf16>, tensor<?x16x2x64xf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_table_type(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<4x32xi64>, %sk: tensor<4xi32>) {
  // expected-error @below {{must be ranked tensor of 32-bit signless integer values}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x32xi64>) seqlens_k(%sk : tensor<4xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}

// -----

func.func @paged_query_batch(%q: tensor<4x1x8x64xbf16>, %kc: tensor<?x16x2x64xbf16>, %vc: tensor<?x16x2x64xbf16>, %bt: tensor<3x32xi32>, %sk: tensor<3xi32>) {
  // expected-error @below {{expects the batch size of block_table (3) and query (4) to be equal}}
  %r:1 = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<3x32xi32>) seqlens_k(%sk : tensor<3xi32>) : tensor<4x1x8x64xbf16>, tensor<?x16x2x64xbf16>, tensor<?x16x2x64xbf16> -> tensor<4x1x8x64xbf16>
  return
}
