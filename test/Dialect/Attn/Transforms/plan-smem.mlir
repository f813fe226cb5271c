// Decisions and diagnostics of attn-plan-smem, run alone on hand-written
// #attn.config, #attn.splitk, #attn.tmem and #attn.swizzle attributes (as the
// earlier passes write them). kv_stages is the most ring slots, up to 4 per
// ring (8 for a shared ring), whose layout fits the carveout (232448 bytes on
// both chips).

// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-plan-smem | FileCheck %s

// sm_100a pair-CTA prefill, depth 128: Q (2 x 128 rows, 64 KB) with O staged in
// it, four 16 KB K slots (64 keys) and four 16 KB V slots (half depth),
// correction scales, the TMEM address and 34 mbarriers (six per Q tile under a pair).
// CHECK-LABEL: func @pair_cta_prefill_four_stages
// CHECK: smem = #attn.smem<kv_stages = 4, qk_stages = 2, pv_stages = 1, k_stage_bytes = 16384, v_stage_bytes = 16384, rope_buffers = 0, barriers = 34, smem_used = 198936, regions = {barriers = array<i64: 198664, 272, 8>, correction = array<i64: 196608, 2048, 128>, kRing = array<i64: 65536, 65536, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 65536, 1024>, tmemAddress = array<i64: 198656, 4, 4>, vRing = array<i64: 131072, 65536, 1024>}>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1,
    cluster_size = 2, kv_per_partition = 4096, kv_span = 4096,
    work_items = 512, ctas = 1024, band_columns = 0, partitions_with_band = 0>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 128, p_columns = 64, used = 512, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 64, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @pair_cta_prefill_four_stages(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem, swizzle = #swizzle, mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// Without pair_cta each K and V slot is a whole 32 KB tile: two stages fit.
// CHECK-LABEL: func @no_pair_cta_two_stages
// CHECK: smem = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 32768, v_stage_bytes = 32768, rope_buffers = 0, barriers = 24, smem_used = 198856, regions = {barriers = array<i64: 198664, 192, 8>, correction = array<i64: 196608, 2048, 128>, kRing = array<i64: 65536, 65536, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 65536, 1024>, tmemAddress = array<i64: 198656, 4, 4>, vRing = array<i64: 131072, 65536, 1024>}>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1,
    cluster_size = 1, kv_per_partition = 0, kv_span = 0, work_items = 0,
    ctas = 0, band_columns = 0, partitions_with_band = 0>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 128, p_columns = 64, used = 512, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @no_pair_cta_two_stages(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem, swizzle = #swizzle, mask = #attn.mask<causal>}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>
  return %o : tensor<?x?x32x128xbf16>
}

// -----

// Decode with a cluster split: no O staging (the combine stores its band from
// the f32 staging), split-K staging over Q and the rings, one publish barrier.
// CHECK-LABEL: func @decode_cluster_split_staging_aliases_q
// CHECK: smem = #attn.smem<kv_stages = 3, qk_stages = 2, pv_stages = 2, k_stage_bytes = 32768, v_stage_bytes = 32768, rope_buffers = 0, barriers = 25, smem_used = 230608, regions = {barriers = array<i64: 230408, 200, 8>, correction = array<i64: 229376, 1024, 128>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 0, 66560, 128>, tmemAddress = array<i64: 230400, 4, 4>, vRing = array<i64: 131072, 98304, 1024>}>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16,
    cluster_size = 16, kv_per_partition = 2048, kv_span = 32768,
    work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @decode_cluster_split_staging_aliases_q(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem, swizzle = #swizzle}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Depth 256, one Q tile: K and V share a ring of 64 KB slots; two fit.
// CHECK-LABEL: func @depth_256_shared_ring
// CHECK: smem = #attn.smem<kv_stages = 2, qk_stages = 4, pv_stages = 4, k_stage_bytes = 65536, v_stage_bytes = 65536, rope_buffers = 0, barriers = 16, smem_used = 197768, regions = {barriers = array<i64: 197640, 128, 8>, correction = array<i64: 196608, 1024, 128>, kRing = array<i64: 65536, 131072, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 65536, 1024>, tmemAddress = array<i64: 197632, 4, 4>}>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 256, padded_qk_depth = 256,
    ov_depth = 256, padded_ov_depth = 256, nope_depth = 256,
    padded_nope_depth = 256, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1,
    cluster_size = 1, kv_per_partition = 4096, kv_span = 4096,
    work_items = 512, ctas = 512, band_columns = 0, partitions_with_band = 0>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 256, p_columns = 64, used = 512, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @depth_256_shared_ring(%q: tensor<1x4096x16x256xbf16>, %k: tensor<1x4096x16x256xbf16>, %v: tensor<1x4096x16x256xbf16>) -> tensor<1x4096x16x256xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem, swizzle = #swizzle}
      : tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>
      -> tensor<1x4096x16x256xbf16>
  return %o : tensor<1x4096x16x256xbf16>
}

// -----

// MLA: the shared ring holds 64 x 512 nope tiles; the 64-column rope part of K
// sits in its own buffer (one per two slots).
// CHECK-LABEL: func @mla_rope_buffers
// CHECK: smem = #attn.smem<kv_stages = 2, qk_stages = 9, pv_stages = 8, k_stage_bytes = 65536, v_stage_bytes = 65536, rope_buffers = 1, barriers = 26, smem_used = 213720, regions = {barriers = array<i64: 213512, 208, 8>, correction = array<i64: 212992, 512, 128>, kRing = array<i64: 73728, 131072, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 73728, 1024>, rope = array<i64: 204800, 8192, 1024>, tmemAddress = array<i64: 213504, 4, 4>}>
#config = #attn.config<chip = sm_100a, mma_m = 64, mma_k = 16, m_pack = 2, bm = 64,
    bn = 64, bk0 = 64, bk1 = 64, qk_depth = 576, padded_qk_depth = 576,
    ov_depth = 512, padded_ov_depth = 512, nope_depth = 512,
    padded_nope_depth = 512, group = 16, num_q_heads = 16, num_kv_heads = 1,
    num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = true, num_threads = 512>
#splitk = #attn.splitk<mode = workspace, reason = split, partitions = 32,
    cluster_size = 1, kv_per_partition = 256, kv_span = 8192, work_items = 1,
    ctas = 32, band_columns = 0, partitions_with_band = 0>
#tmem = #attn.tmem<s0 = 0, s1 = 32, o0 = 64, o1 = -1, p0 = 16, p1 = 48, s_columns = 32,
    o_columns = 256, p_columns = 16, used = 320, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>,
    k = <rows = 64, columns = 64, swizzle = 128>,
    v = <rows = 64, columns = 64, swizzle = 128>,
    o = <rows = 64, columns = 64, swizzle = 128>>

func.func @mla_rope_buffers(%q: tensor<1x1x16x576xbf16>, %k: tensor<1x8192x1x576xbf16>, %v: tensor<1x8192x1x512xbf16>) -> tensor<1x1x16x512xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem, swizzle = #swizzle}
      : tensor<1x1x16x576xbf16>, tensor<1x8192x1x576xbf16>, tensor<1x8192x1x512xbf16>
      -> tensor<1x1x16x512xbf16>
  return %o : tensor<1x1x16x512xbf16>
}

// -----

// sm_90a depth 128: two 44 KB stages of K and V (BN 176); no correction buffer
// or TMEM slot, and only the ring and Q barriers (named barriers for the rest).
// CHECK-LABEL: func @sm90a_two_stages_bn_176
// CHECK: smem = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 16, smem_used = 213120, regions = {barriers = array<i64: 212992, 128, 8>, kRing = array<i64: 32768, 90112, 1024>, oStaging = array<i64: 0, 32768, 1024>, q = array<i64: 0, 32768, 1024>, vRing = array<i64: 122880, 90112, 1024>}>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
#splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1,
    cluster_size = 1, kv_per_partition = 4096, kv_span = 4096,
    work_items = 2048, ctas = 2048, band_columns = 0, partitions_with_band = 0>
#swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>,
    k = <rows = 176, columns = 64, swizzle = 128>,
    v = <rows = 176, columns = 64, swizzle = 128>,
    o = <rows = 64, columns = 64, swizzle = 128>>

func.func @sm90a_two_stages_bn_176(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, swizzle = #swizzle, mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// sm_90a depth 64: four stages.
// CHECK-LABEL: func @sm90a_depth_64_four_stages
// CHECK: smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64,
    ov_depth = 64, padded_ov_depth = 64, nope_depth = 64,
    padded_nope_depth = 64, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
#splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1,
    cluster_size = 1, kv_per_partition = 4096, kv_span = 4096,
    work_items = 512, ctas = 512, band_columns = 0, partitions_with_band = 0>
#swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>,
    k = <rows = 176, columns = 64, swizzle = 128>,
    v = <rows = 176, columns = 64, swizzle = 128>,
    o = <rows = 64, columns = 64, swizzle = 128>>

func.func @sm90a_depth_64_four_stages(%q: tensor<1x4096x16x64xf16>, %k: tensor<1x4096x16x64xf16>, %v: tensor<1x4096x16x64xf16>) -> tensor<1x4096x16x64xf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, swizzle = #swizzle}
      : tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>
      -> tensor<1x4096x16x64xf16>
  return %o : tensor<1x4096x16x64xf16>
}

// -----

// sm_90a decode with a cluster split.
// CHECK-LABEL: func @sm90a_decode_cluster_split
// CHECK: smem = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 17, smem_used = 213128, regions = {barriers = array<i64: 212992, 136, 8>, kRing = array<i64: 32768, 90112, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 0, 66560, 128>, vRing = array<i64: 122880, 90112, 1024>}>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
#splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16,
    cluster_size = 16, kv_per_partition = 2112, kv_span = 32768,
    work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>
#swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>,
    k = <rows = 176, columns = 64, swizzle = 128>,
    v = <rows = 176, columns = 64, swizzle = 128>,
    o = <rows = 64, columns = 64, swizzle = 128>>

func.func @sm90a_decode_cluster_split(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, swizzle = #swizzle}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// A hand-written BM of 1024 rows: Q alone is 256 KB.
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 1024,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>
#splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1,
    cluster_size = 1, kv_per_partition = 4096, kv_span = 4096,
    work_items = 2048, ctas = 2048, band_columns = 0, partitions_with_band = 0>
#swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>,
    k = <rows = 176, columns = 64, swizzle = 128>,
    v = <rows = 176, columns = 64, swizzle = 128>,
    o = <rows = 64, columns = 64, swizzle = 128>>

func.func @q_too_large_for_one_stage(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op shared-memory plan needs 352336 bytes with 1 KV slot(s) (Q 262144, K ring 45056, V ring 45056, other 80) but sm_90a allows 232448}}
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, swizzle = #swizzle, mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// A hand-written BN of 256 at depth 256: two 128 KB slots of the shared ring
// (its minimum: one K and one V) next to a 64 KB Q.
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 256, bk0 = 64, bk1 = 64, qk_depth = 256, padded_qk_depth = 256,
    ov_depth = 256, padded_ov_depth = 256, nope_depth = 256,
    padded_nope_depth = 256, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1,
    cluster_size = 1, kv_per_partition = 4096, kv_span = 4096,
    work_items = 512, ctas = 512, band_columns = 0, partitions_with_band = 0>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 256, p_columns = 64, used = 512, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @shared_ring_too_large_for_two_slots(%q: tensor<1x4096x16x256xbf16>, %k: tensor<1x4096x16x256xbf16>, %v: tensor<1x4096x16x256xbf16>) -> tensor<1x4096x16x256xbf16> {
  // expected-error @+1 {{'attn.attention' op shared-memory plan needs 328840 bytes with 2 KV slot(s) (Q 65536, K ring 262144, V ring 0, other 1160) but sm_100a allows 232448}}
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem, swizzle = #swizzle}
      : tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>
      -> tensor<1x4096x16x256xbf16>
  return %o : tensor<1x4096x16x256xbf16>
}

// -----

func.func @missing_config(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-plan-smem needs #attn.config; run attn-select-config first}}
  %o = attn.attention %q, %k, %v
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @missing_splitk(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-plan-smem needs #attn.splitk; run attn-plan-splitk first}}
  %o = attn.attention %q, %k, %v {config = #config, tmem = #tmem, swizzle = #swizzle}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16,
    cluster_size = 16, kv_per_partition = 2048, kv_span = 32768,
    work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>
#tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192,
    s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>

func.func @missing_swizzle(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-plan-smem needs #attn.swizzle; run attn-select-swizzle first}}
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, tmem = #tmem}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// sm_100a needs the TMEM plan (sm_90a does not: see the sm90a cases above).
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>
#splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16,
    cluster_size = 16, kv_per_partition = 2048, kv_span = 32768,
    work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>
#swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 128, columns = 64, swizzle = 128>>

func.func @missing_tmem_on_sm100a(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-plan-smem needs #attn.tmem; run attn-plan-tmem first}}
  %o = attn.attention %q, %k, %v {config = #config, splitk = #splitk, swizzle = #swizzle}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}
