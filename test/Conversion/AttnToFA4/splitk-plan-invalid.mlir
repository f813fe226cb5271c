// RUN: fa4-opt %s -split-input-file --convert-attn-to-fa4 -verify-diagnostics

// Decode plans either kernel builder refuses (readClusterSplit, the per-chip
// staging checks, the sm_100a decode shape), written by hand from planned ops.

// sm_90a: 8 bands of 10 columns do not cover Dv = 128.
module {
  func.func @dec(%arg0: tensor<?x?x32x128xbf16>, %arg1: tensor<?x?x8x128xbf16>, %arg2: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
    // expected-error @+1 {{has a cluster split-K plan the kernel does not implement (it needs at most 16 partitions and even bands covering Dv)}}
    %0:2 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 2, pv_stages = 2, k_stage_bytes = 24576, v_stage_bytes = 24576, rope_buffers = 0, barriers = 27, smem_used = 229592, regions = {barriers = array<i64: 229376, 216, 8>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 0, 66560, 128>, vRing = array<i64: 131072, 98304, 1024>}>, splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, cluster_size = 8, kv_per_partition = 4128, kv_span = 32768, work_items = 8, ctas = 64, band_columns = 10, partitions_with_band = 8>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
    return %0#0, %0#1 : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  }
}


// -----

// sm_100a: 16 bands of 6 columns do not cover Dv = 128.
module {
  func.func @dec(%arg0: tensor<?x?x32x128xbf16>, %arg1: tensor<?x?x8x128xbf16>, %arg2: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
    // expected-error @+1 {{has a cluster split-K plan the kernel does not implement (it needs at most 16 partitions and even bands covering Dv)}}
    %0:2 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128, bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true, page_size = 0, is_mla = false, num_threads = 512>, smem = #attn.smem<kv_stages = 3, qk_stages = 2, pv_stages = 2, k_stage_bytes = 32768, v_stage_bytes = 32768, rope_buffers = 0, barriers = 24, smem_used = 230600, regions = {barriers = array<i64: 230408, 192, 8>, correction = array<i64: 229376, 1024, 128>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 0, 66560, 128>, tmemAddress = array<i64: 230400, 4, 4>, vRing = array<i64: 131072, 98304, 1024>}>, splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2048, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 6, partitions_with_band = 16>, swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>, tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
    return %0#0, %0#1 : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  }
}


// -----

// sm_90a: two staged 64 x 130 f32 partials from byte 180000 reach into the
// mbarriers at 229376.
module {
  func.func @dec(%arg0: tensor<?x?x32x128xbf16>, %arg1: tensor<?x?x8x128xbf16>, %arg2: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
    // expected-error @+1 {{has a split-K staging region that overlaps its barriers}}
    %0:2 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 2, pv_stages = 2, k_stage_bytes = 24576, v_stage_bytes = 24576, rope_buffers = 0, barriers = 27, smem_used = 229592, regions = {barriers = array<i64: 229376, 216, 8>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 180000, 66560, 128>, vRing = array<i64: 131072, 98304, 1024>}>, splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, cluster_size = 8, kv_per_partition = 4128, kv_span = 32768, work_items = 8, ctas = 64, band_columns = 16, partitions_with_band = 8>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
    return %0#0, %0#1 : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  }
}


// -----

// sm_100a: a staged 128 x 130 f32 partial from byte 180000 reaches into the
// correction rows at 229376.
module {
  func.func @dec(%arg0: tensor<?x?x32x128xbf16>, %arg1: tensor<?x?x8x128xbf16>, %arg2: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
    // expected-error @+1 {{has a split-K staging region that overlaps its correction rows}}
    %0:2 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128, bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true, page_size = 0, is_mla = false, num_threads = 512>, smem = #attn.smem<kv_stages = 3, qk_stages = 2, pv_stages = 2, k_stage_bytes = 32768, v_stage_bytes = 32768, rope_buffers = 0, barriers = 24, smem_used = 230600, regions = {barriers = array<i64: 230408, 192, 8>, correction = array<i64: 229376, 1024, 128>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 180000, 66560, 128>, tmemAddress = array<i64: 230400, 4, 4>, vRing = array<i64: 131072, 98304, 1024>}>, splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2048, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>, swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>, tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
    return %0#0, %0#1 : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  }
}


// -----

// sm_100a: a decode plan with two Q tiles; the decode kernel runs one.
module {
  func.func @dec(%arg0: tensor<?x?x32x128xbf16>, %arg1: tensor<?x?x8x128xbf16>, %arg2: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
    // expected-error @+1 {{has a decode plan the FA4 kernel does not implement (one 128-row Q tile holding at most 128 fused q-heads)}}
    %0:2 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128, bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true, page_size = 0, is_mla = false, num_threads = 512>, smem = #attn.smem<kv_stages = 3, qk_stages = 2, pv_stages = 2, k_stage_bytes = 32768, v_stage_bytes = 32768, rope_buffers = 0, barriers = 24, smem_used = 230600, regions = {barriers = array<i64: 230408, 192, 8>, correction = array<i64: 229376, 1024, 128>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 0, 66560, 128>, tmemAddress = array<i64: 230400, 4, 4>, vRing = array<i64: 131072, 98304, 1024>}>, splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2048, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>, swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>, tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
    return %0#0, %0#1 : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  }
}

// -----

// sm_90a: a split picked at launch needs the least keys a partition takes
// (the runtime's rule divides by it).
module {
  func.func @dec(%arg0: tensor<?x?x32x128xbf16>, %arg1: tensor<?x?x8x128xbf16>, %arg2: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
    // expected-error @+1 {{has a split-K picked at launch with fewer than two partitions or no minimum keys per partition: #attn.splitk<mode = workspace, reason = at_launch, partitions = 132, cluster_size = 1, kv_per_partition = 0}}
    %0:2 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 96, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 2, pv_stages = 2, k_stage_bytes = 24576, v_stage_bytes = 24576, rope_buffers = 0, barriers = 27, smem_used = 229592, regions = {barriers = array<i64: 229376, 216, 8>, kRing = array<i64: 32768, 98304, 1024>, q = array<i64: 0, 32768, 1024>, splitKStaging = array<i64: 0, 66560, 128>, vRing = array<i64: 131072, 98304, 1024>}>, splitk = #attn.splitk<mode = workspace, reason = at_launch, partitions = 132, cluster_size = 1, kv_per_partition = 0, kv_span = 0, work_items = 0, ctas = 0, band_columns = 0, partitions_with_band = 0>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
    return %0#0, %0#1 : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  }
}

