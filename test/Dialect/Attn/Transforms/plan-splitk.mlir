// Decisions and diagnostics of attn-plan-splitk, run alone on hand-written
// #attn.config attributes (as attn-select-config writes them).
//
// The rule: W = batch x (kv-heads if fuse_gqa else q-heads) x q-tiles (head
// tiles, ceil(group x Sq / BM), when a fused group outnumbers BM); P =
// floor(#SMs / (W x ctaGroup)) so all CTAs run in one wave, no split when that
// is below 2; P = min(P, span / (4 x BN)), capped at 16 (cluster_dsmem) when
// that keeps 3/4 of the SMs busy, else workspace.

// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-plan-splitk | FileCheck %s
// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-plan-splitk="batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" | FileCheck %s --check-prefix=HINT

// The pass checks its hints itself (it used to divide by zero on batch-hint=0
// and plan -40 work items for batch-hint=-5).
// RUN: not fa4-opt %s -split-input-file --attn-plan-splitk="batch-hint=0" 2>&1 | FileCheck %s --check-prefix=ZERO-HINT
// RUN: not fa4-opt %s -split-input-file --attn-plan-splitk="batch-hint=-5" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-HINT
// ZERO-HINT: error: 'attn.attention' op expected batch hint to be -1 (none) or 1 to 1073741823, but got 0
// NEGATIVE-HINT: error: 'attn.attention' op expected batch hint to be -1 (none) or 1 to 1073741823, but got -5

// The issue's decode case on sm_90a: B=1, Hq=32, Hkv=8, Sq=1, Skv=32768, d=128.
// GQA fusion leaves 8 work items for 132 SMs; floor(132 / 8) = 16 partitions
// would fill one wave, but sm_90a's split-K clusters stop at 8 (measured
// faster on the H200). Keys per partition: alignTo(32768 / 8, BN 176) = 4224.
// Each partition combines one 16-column band of the 128 output columns.
// CHECK-LABEL: func @decode_gqa_sm90a_cluster_8
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, cluster_size = 8, kv_per_partition = 4224, kv_span = 32768, work_items = 8, ctas = 64, band_columns = 16, partitions_with_band = 8>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @decode_gqa_sm90a_cluster_8(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// The same decode on sm_100a (BN 128, 148 SMs): floor(148 / 8) = 18, capped at
// the cluster limit of 16 since 8 x 16 = 128 CTAs keep over 3/4 of the SMs
// busy.
// CHECK-LABEL: func @decode_gqa_sm100a_cluster_16
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2048, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @decode_gqa_sm100a_cluster_16(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Sq 4, group 16: 4 fused work items; a cluster of 16 would leave 84 of 148 SMs
// idle, so the split goes through the workspace with P = floor(148 / 4) = 37.
// CHECK-LABEL: func @few_work_items_use_workspace
// CHECK: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 37, cluster_size = 1, kv_per_partition = 3584, kv_span = 131072, work_items = 4, ctas = 148, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 16, num_q_heads = 64, num_kv_heads = 4,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @few_work_items_use_workspace(%q: tensor<1x4x64x128xbf16>, %k: tensor<1x131072x4x128xbf16>, %v: tensor<1x131072x4x128xbf16>) -> tensor<1x4x64x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<1x4x64x128xbf16>, tensor<1x131072x4x128xbf16>, tensor<1x131072x4x128xbf16>
      -> tensor<1x4x64x128xbf16>
  return %o : tensor<1x4x64x128xbf16>
}

// -----

// CHECK-LABEL: func @few_work_items_use_workspace_sm90a
// CHECK: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 33, cluster_size = 1, kv_per_partition = 4048, kv_span = 131072, work_items = 4, ctas = 132, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 16, num_q_heads = 64, num_kv_heads = 4,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @few_work_items_use_workspace_sm90a(%q: tensor<1x4x64x128xbf16>, %k: tensor<1x131072x4x128xbf16>, %v: tensor<1x131072x4x128xbf16>) -> tensor<1x4x64x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<1x4x64x128xbf16>, tensor<1x131072x4x128xbf16>, tensor<1x131072x4x128xbf16>
      -> tensor<1x4x64x128xbf16>
  return %o : tensor<1x4x64x128xbf16>
}

// -----

// Each partition streams at least 4 KV tiles: 4096 keys over BN 176 allow
// only 5 partitions (80 CTAs). Dv 64 in bands of 16 leaves the fifth
// partition without a band.
// CHECK-LABEL: func @short_kv_limits_partitions
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 5, cluster_size = 5, kv_per_partition = 880, kv_span = 4096, work_items = 16, ctas = 80, band_columns = 16, partitions_with_band = 4>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 64, padded_ov_depth = 64, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @short_kv_limits_partitions(%q: tensor<1x128x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x64xbf16>) -> tensor<1x128x16x64xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x128x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x64xbf16>
      -> tensor<1x128x16x64xbf16>
  return %o : tensor<1x128x16x64xbf16>
}

// -----

// Two work items of two Q tiles on a CTA pair leave SMs idle, but the
// Blackwell kernel does not split work items of two Q tiles (nor pairs): no
// split rather than one it would refuse.
// CHECK-LABEL: func @pair_cta_split_uses_workspace
// CHECK: splitk = #attn.splitk<mode = none, reason = two_q_tiles, partitions = 1, cluster_size = 2, kv_per_partition = 65536, kv_span = 65536, work_items = 2, ctas = 4, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 2, num_kv_heads = 2,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @pair_cta_split_uses_workspace(%q: tensor<1x512x2x128xbf16>, %k: tensor<1x65536x2x128xbf16>, %v: tensor<1x65536x2x128xbf16>) -> tensor<1x512x2x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x512x2x128xbf16>, tensor<1x65536x2x128xbf16>, tensor<1x65536x2x128xbf16>
      -> tensor<1x512x2x128xbf16>
  return %o : tensor<1x512x2x128xbf16>
}

// -----

// Enough work items: 2 x 32 heads x 16 Q tiles fill every SM.
// CHECK-LABEL: func @prefill_enough_work
// CHECK: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, cluster_size = 1, kv_per_partition = 4096, kv_span = 4096, work_items = 2048, ctas = 2048, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @prefill_enough_work(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// One key cannot make two partitions of 4 tiles.
// CHECK-LABEL: func @one_key_short_kv
// CHECK: splitk = #attn.splitk<mode = none, reason = short_kv, partitions = 1, cluster_size = 1, kv_per_partition = 1, kv_span = 1, work_items = 8, ctas = 8, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @one_key_short_kv(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x1x8x128xbf16>, %v: tensor<1x1x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x32x128xbf16>, tensor<1x1x8x128xbf16>, tensor<1x1x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// A window bounded on the left: the tile's 128 rows each see [i + d - 1024,
// i + d], together left + right + rows = 1024 + 0 + 128 = 1152 of 131072 keys,
// so two partitions of 640.
// CHECK-LABEL: func @window_limits_kv_span
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 2, cluster_size = 2, kv_per_partition = 640, kv_span = 1152, work_items = 8, ctas = 16, band_columns = 64, partitions_with_band = 2>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 8, num_q_heads = 8, num_kv_heads = 1,
    num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @window_limits_kv_span(%q: tensor<1x128x8x128xbf16>, %k: tensor<1x131072x1x128xbf16>, %v: tensor<1x131072x1x128xbf16>) -> tensor<1x128x8x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<window(1024,0)>}
      : tensor<1x128x8x128xbf16>, tensor<1x131072x1x128xbf16>, tensor<1x131072x1x128xbf16>
      -> tensor<1x128x8x128xbf16>
  return %o : tensor<1x128x8x128xbf16>
}

// -----

// Unbounded on the right: row 0 sees from 4096 keys before its diagonal to the
// last key, the other rows less: 4096 + Sq = 4100 keys.
// CHECK-LABEL: func @window_unbounded_right
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 7, cluster_size = 7, kv_per_partition = 640, kv_span = 4100, work_items = 8, ctas = 56, band_columns = 24, partitions_with_band = 6>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 8, num_kv_heads = 8,
    num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @window_unbounded_right(%q: tensor<1x4x8x128xbf16>, %k: tensor<1x131072x8x128xbf16>, %v: tensor<1x131072x8x128xbf16>) -> tensor<1x4x8x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<window(4096,-1)>}
      : tensor<1x4x8x128xbf16>, tensor<1x131072x8x128xbf16>, tensor<1x131072x8x128xbf16>
      -> tensor<1x4x8x128xbf16>
  return %o : tensor<1x4x8x128xbf16>
}

// -----

// A window bounded only on the right visits all keys.
// CHECK-LABEL: func @window_unbounded_left
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, cluster_size = 8, kv_per_partition = 8272, kv_span = 65536, work_items = 8, ctas = 64, band_columns = 16, partitions_with_band = 8>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 8, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @window_unbounded_left(%q: tensor<1x4x8x128xbf16>, %k: tensor<1x65536x8x128xbf16>, %v: tensor<1x65536x8x128xbf16>) -> tensor<1x4x8x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<window(-1,0)>}
      : tensor<1x4x8x128xbf16>, tensor<1x65536x8x128xbf16>, tensor<1x65536x8x128xbf16>
      -> tensor<1x4x8x128xbf16>
  return %o : tensor<1x4x8x128xbf16>
}

// -----

// Dynamic sizes with no hint: no split (the launch cannot know the work).
// With hints (HINT RUN line) the decode splits as above.
// CHECK-LABEL: func @dynamic_sizes_need_hints
// CHECK: splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1, cluster_size = 1, kv_per_partition = 0, kv_span = 0, work_items = 0, ctas = 0, band_columns = 0, partitions_with_band = 0>
// HINT-LABEL: func @dynamic_sizes_need_hints
// HINT: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, cluster_size = 8, kv_per_partition = 4224, kv_span = 32768, work_items = 8, ctas = 64, band_columns = 16, partitions_with_band = 8>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @dynamic_sizes_need_hints(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>
  return %o : tensor<?x?x32x128xbf16>
}

// -----

// A decode with Sq known (1) but batch and Skv dynamic: each head is one
// work item, so the split is left to the launch: a workspace split of at
// most 132 partitions (the SMs) of at least 4 x BN 96 = 384 keys, which the
// runtime picks from the launch's sizes. With hints the plan splits at
// compile time as above.
// CHECK-LABEL: func @decode_split_at_launch
// CHECK: splitk = #attn.splitk<mode = workspace, reason = at_launch, partitions = 132, cluster_size = 1, kv_per_partition = 384, kv_span = 0, work_items = 0, ctas = 0, band_columns = 0, partitions_with_band = 0>
// HINT-LABEL: func @decode_split_at_launch
// HINT: splitk = #attn.splitk<mode = cluster_dsmem, reason = split
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
func.func @decode_split_at_launch(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<?x1x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x1x32x128xbf16>
  return %o : tensor<?x1x32x128xbf16>
}

// -----

// Skv static but short: 700 keys make no two partitions of 384, so the
// dynamic batch alone leaves no split to pick at launch.
// CHECK-LABEL: func @decode_at_launch_short_keys
// CHECK: splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
func.func @decode_at_launch_short_keys(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x700x8x128xbf16>, %v: tensor<?x700x8x128xbf16>) -> tensor<?x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<?x1x32x128xbf16>, tensor<?x700x8x128xbf16>, tensor<?x700x8x128xbf16>
      -> tensor<?x1x32x128xbf16>
  return %o : tensor<?x1x32x128xbf16>
}

// -----

// Skv static and long with a dynamic batch: at launch, with the keys' span
// recorded.
// CHECK-LABEL: func @decode_at_launch_dynamic_batch
// CHECK: splitk = #attn.splitk<mode = workspace, reason = at_launch, partitions = 132, cluster_size = 1, kv_per_partition = 384, kv_span = 8192,
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
func.func @decode_at_launch_dynamic_batch(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x8192x8x128xbf16>, %v: tensor<?x8192x8x128xbf16>) -> tensor<?x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<?x1x32x128xbf16>, tensor<?x8192x8x128xbf16>, tensor<?x8192x8x128xbf16>
      -> tensor<?x1x32x128xbf16>
  return %o : tensor<?x1x32x128xbf16>
}

// -----

// A window bounded on the left: a work item sees fewer keys than Skv, which
// the launch rule does not model; no split.
// CHECK-LABEL: func @decode_at_launch_not_under_left_window
// CHECK: splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
func.func @decode_at_launch_not_under_left_window(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<window(4096, 0)>}
      : tensor<?x1x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x1x32x128xbf16>
  return %o : tensor<?x1x32x128xbf16>
}

// -----

// Sq = 1024 static with a dynamic batch: eight 128-row work items per head,
// a prefill; no split (it keeps its persistent schedule).
// CHECK-LABEL: func @prefill_no_split_at_launch
// CHECK: splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
func.func @prefill_no_split_at_launch(%q: tensor<?x1024x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x1024x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<?x1024x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x1024x32x128xbf16>
  return %o : tensor<?x1024x32x128xbf16>
}

// -----

func.func @missing_config_is_an_error(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-plan-splitk needs #attn.config; run attn-select-config first}}
  %o = attn.attention %q, %k, %v
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// A hand-written config with BN 0.
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 0, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @zero_bn_config(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op split-K expects a config with BN, BM, group and head counts >= 1, but got BN 0, BM 128, group 4, 32 q-heads and 8 kv-heads}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// MLA decode with 128 heads on one kv-head: the fused group outnumbers the 64
// rows, so each tile holds 64 heads and the kv-head's work is ceil(128 x 1 /
// 64) = 2 work items; floor(148 / 2) = 74 partitions of alignTo(32768 / 74,
// 64) = 448 keys, beyond the cluster limit: workspace.
// CHECK-LABEL: func @mla_head_tiles
// CHECK: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 74, cluster_size = 1, kv_per_partition = 448, kv_span = 32768, work_items = 2, ctas = 148, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_100a, mma_m = 64, mma_k = 16, m_pack = 2, bm = 64,
    bn = 64, bk0 = 64, bk1 = 64, qk_depth = 576, padded_qk_depth = 576,
    ov_depth = 512, padded_ov_depth = 512, nope_depth = 512,
    padded_nope_depth = 512, group = 128, num_q_heads = 128, num_kv_heads = 1,
    num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = true, num_threads = 512>

func.func @mla_head_tiles(%q: tensor<1x1x128x576xbf16>, %k: tensor<1x32768x1x576xbf16>, %v: tensor<1x32768x1x512xbf16>) -> tensor<1x1x128x512xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x128x576xbf16>, tensor<1x32768x1x576xbf16>, tensor<1x32768x1x512xbf16>
      -> tensor<1x1x128x512xbf16>
  return %o : tensor<1x1x128x512xbf16>
}

// -----

// 16 MHA heads, Sq 1: 16 work items; floor(148 / 16) = 9 partitions (144 CTAs,
// one wave), where ceil gave 10 (160 CTAs on 148 SMs).
// CHECK-LABEL: func @one_wave_mha_decode
// CHECK: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 9, cluster_size = 9, kv_per_partition = 3712, kv_span = 32768, work_items = 16, ctas = 144, band_columns = 16, partitions_with_band = 8>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @one_wave_mha_decode(%q: tensor<1x1x16x128xbf16>, %k: tensor<1x32768x16x128xbf16>, %v: tensor<1x32768x16x128xbf16>) -> tensor<1x1x16x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x16x128xbf16>, tensor<1x32768x16x128xbf16>, tensor<1x32768x16x128xbf16>
      -> tensor<1x1x16x128xbf16>
  return %o : tensor<1x1x16x128xbf16>
}

// -----

// 128 work items on 148 SMs: floor(148 / 128) = 1, so no split (ceil gave P = 2
// and 256 CTAs, a second wave of the same work).
// CHECK-LABEL: func @one_wave_holds_one_partition
// CHECK: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, cluster_size = 1, kv_per_partition = 1280, kv_span = 1280, work_items = 128, ctas = 128, band_columns = 0, partitions_with_band = 0>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 8, num_q_heads = 8, num_kv_heads = 1,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @one_wave_holds_one_partition(%q: tensor<1x4096x8x128xbf16>, %k: tensor<1x131072x1x128xbf16>, %v: tensor<1x131072x1x128xbf16>) -> tensor<1x4096x8x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<window(1024,0)>}
      : tensor<1x4096x8x128xbf16>, tensor<1x131072x1x128xbf16>, tensor<1x131072x1x128xbf16>
      -> tensor<1x4096x8x128xbf16>
  return %o : tensor<1x4096x8x128xbf16>
}
