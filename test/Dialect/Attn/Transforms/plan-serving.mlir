// The serving forms go through the same planning passes as attn.attention:
// each gets a plan, with no looped twin (each sequence has its own Skv, so
// one kernel serves a launch), and a paged cache's page size sets the K/V
// path: boxes within a page for pages of 64 keys or more (BN nesting with
// the page), a gather otherwise (cp.async on sm_90a, TMA gather4 on
// sm_100a).
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a | FileCheck %s --check-prefixes=PLAN,H
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a | FileCheck %s --check-prefixes=PLAN,B
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --attn-explain -o /dev/null | FileCheck %s --check-prefix=EXPLAIN-H
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --attn-explain -o /dev/null | FileCheck %s --check-prefix=EXPLAIN-B

// PLAN-LABEL: func.func @varlen
// PLAN: attn.varlen_attention
// PLAN-NOT: twin_config
// PLAN-SAME: splitk = #attn.splitk<mode = none, reason = unknown_sizes
// PLAN-NOT: kv_path
// PLAN-SAME: swizzle = #attn.swizzle<q = <rows = {{[0-9]+}}, columns = 64, swizzle = 128>, k = <rows = 128,
func.func @varlen(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<9xi32>, %ck: tensor<9xi32>, %used: tensor<8xi32>) -> (tensor<?x32x128xbf16>, tensor<32x?xf32>) {
  %o, %lse = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>) seqused_k(%used : tensor<8xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>, tensor<32x?xf32>
  return %o, %lse : tensor<?x32x128xbf16>, tensor<32x?xf32>
}

// A decode over pages of 16 keys: gathered; split at launch like a
// contiguous decode of unknown length.
// PLAN-LABEL: func.func @page16
// PLAN: attn.paged_attention
// H-SAME: bn = 96,
// B-SAME: bn = 128,
// PLAN-SAME: page_size = 16,
// PLAN-SAME: splitk = #attn.splitk<mode = workspace, reason = at_launch
// H-SAME: kv_path = gather_cp_async
// B-SAME: kv_path = gather4
func.func @page16(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x16x8x128xbf16>, %vc: tensor<?x16x8x128xbf16>, %bt: tensor<8x2048xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x2048xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}

// Pages of 64 keys: the Hopper decode's 96-key tile becomes 64, one page
// a box.
// PLAN-LABEL: func.func @page64
// PLAN: attn.paged_attention
// H-SAME: bn = 64,
// B-SAME: bn = 128,
// PLAN-SAME: page_size = 64,
// PLAN-SAME: k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>
// PLAN-SAME: kv_path = page_boxes
func.func @page64(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}

// Packed queries over pages of 256 keys: whole tiles within a page.
// PLAN-LABEL: func.func @page256_packed
// PLAN: attn.paged_attention
// PLAN-SAME: page_size = 256,
// PLAN-SAME: kv_path = page_boxes
func.func @page256_packed(%q: tensor<?x16x128xf16>, %kc: tensor<?x256x2x128xf16>, %vc: tensor<?x256x2x128xf16>, %bt: tensor<4x64xi32>, %sk: tensor<4xi32>, %cq: tensor<5xi32>) -> tensor<?x16x128xf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<4x64xi32>) seqlens_k(%sk : tensor<4xi32>) cu_seqlens_q(%cq : tensor<5xi32>) {mask = #attn.mask<causal>} : tensor<?x16x128xf16>, tensor<?x256x2x128xf16>, tensor<?x256x2x128xf16> -> tensor<?x16x128xf16>
  return %o : tensor<?x16x128xf16>
}

// EXPLAIN-H: attn.varlen_attention at
// EXPLAIN-H: sequences: packed, 8 per launch; Q, K and V packed along one token dimension, each sequence's tokens from cu_seqlens_q / cu_seqlens_k, its keys counted by seqused_k; each sequence has its own Sq and Skv, the mask aligned to its own bottom-right corner
// EXPLAIN-H: K/V path: contiguous: one tensor map over contiguous K and V
// EXPLAIN-H-NOT: looped twin (Skv up to the persistent bound)
// EXPLAIN-H: attn.paged_attention at
// EXPLAIN-H: sequences: paged, 8 per launch; K and V in pages of 16 keys, sequence b's key j in page block_table[b, j / 16], its keys counted by seqlens_k; Q dense
// EXPLAIN-H: pageSize = 16 keys per page, fewer than 64: rows are gathered, BN as for contiguous K/V
// EXPLAIN-H: K/V path: gather_cp_async: pages of 16 keys are too small for a TMA box each (< 64); each key row is copied from its page by cp.async (16 bytes a thread; sm_90a has no TMA gather)
// EXPLAIN-H: attn.paged_attention at
// EXPLAIN-H: pageSize = 64 keys per page: BN is the largest multiple of 16 up to the chosen tile that nests with the page (one divides the other), so K/V boxes never cross a page
// EXPLAIN-H: K/V path: page_boxes: pages of 64 keys (>= 64) hold whole boxes of 64 keys, each loaded from the page the block table names
// EXPLAIN-H: attn.paged_attention at
// EXPLAIN-H: sequences: paged, 4 per launch; {{.*}}; Q packed by cu_seqlens_q
// EXPLAIN-B: attn.paged_attention at
// EXPLAIN-B: K/V path: gather4: pages of 16 keys are too small for a TMA box each (< 64); each key row is copied from its page by TMA tile::gather4 (four rows per instruction, sm_100a)
