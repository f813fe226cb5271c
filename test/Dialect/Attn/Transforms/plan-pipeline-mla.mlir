// MLA (Dqk 576 = nope 512 + rope 64, Dv 512) through attn-plan-pipeline:
// planned on sm_100a with 64-row tiles packed two rows per TMEM lane (m_pack 2),
// rejected on sm_90a with a diagnostic.

// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a | FileCheck %s --check-prefix=SM100
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=SM90

// DeepSeek-style MLA decode, 16 heads on one latent kv-head: the 16 heads fill a
// 64-row tile (one work item), split through the workspace into 128
// partitions of 256 keys (4 KV tiles of 64).
// SM100-LABEL: func @mla_decode_fused_heads_workspace_splitk
// SM100: config = #attn.config<{{.*}}mma_m = 64, {{.*}}m_pack = 2, bm = 64, bn = 64, {{.*}}padded_qk_depth = 576, {{.*}}padded_ov_depth = 512, nope_depth = 512, padded_nope_depth = 512, group = 16, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false, single_o = true, page_size = 0, is_mla = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 2, qk_stages = 9, pv_stages = 8, k_stage_bytes = 65536, v_stage_bytes = 65536, rope_buffers = 1, barriers = 26, smem_used = 213720, regions = {barriers = array<i64: 213512, 208, 8>, correction = array<i64: 212992, 512, 128>, kRing = array<i64: 73728, 131072, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 73728, 1024>, rope = array<i64: 204800, 8192, 1024>, tmemAddress = array<i64: 213504, 4, 4>}>
// SM100-SAME: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 128, cluster_size = 1, kv_per_partition = 256, kv_span = 32768, work_items = 1, ctas = 128, band_columns = 0, partitions_with_band = 0>
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<s0 = 0, s1 = 32, o0 = 64, o1 = -1, p0 = 16, p1 = 48, s_columns = 32, o_columns = 256, p_columns = 16, used = 320, alloc = 512>
// SM90: error: 'attn.attention' op MLA 576/512 on sm_90a needs O (64 x 512 f32 = 256 registers per thread) split across warpgroups with P staged in shared memory, which is not planned; expected head depths of at most 256
func.func @mla_decode_fused_heads_workspace_splitk(%q: tensor<1x1x16x576xbf16>, %k: tensor<1x32768x1x576xbf16>, %v: tensor<1x32768x1x512xbf16>) -> tensor<1x1x16x512xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x16x576xbf16>, tensor<1x32768x1x576xbf16>, tensor<1x32768x1x512xbf16>
      -> tensor<1x1x16x512xbf16>
  return %o : tensor<1x1x16x512xbf16>
}

// -----

// MLA decode with 128 heads: the group outnumbers the 64-row tile, so the heads
// are fused into ceil(128 x 1 / 64) = 2 head tiles (2 work items, not 128
// unfused ones); floor(148 / 2) = 74 partitions of 448 keys fill one wave.
// SM100-LABEL: func @mla_decode_128_heads_head_tiles
// SM100: config = #attn.config<{{.*}}mma_m = 64, {{.*}}m_pack = 2, bm = 64, bn = 64, {{.*}}group = 128, num_q_heads = 128, num_kv_heads = 1, num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false, single_o = true, page_size = 0, is_mla = true,
// SM100-SAME: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 74, cluster_size = 1, kv_per_partition = 448, kv_span = 32768, work_items = 2, ctas = 148, band_columns = 0, partitions_with_band = 0>
// SM90: error: 'attn.attention' op MLA 576/512 on sm_90a needs O (64 x 512 f32 = 256 registers per thread) split across warpgroups with P staged in shared memory, which is not planned; expected head depths of at most 256
func.func @mla_decode_128_heads_head_tiles(%q: tensor<1x1x128x576xbf16>, %k: tensor<1x32768x1x576xbf16>, %v: tensor<1x32768x1x512xbf16>) -> tensor<1x1x128x512xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x128x576xbf16>, tensor<1x32768x1x576xbf16>, tensor<1x32768x1x512xbf16>
      -> tensor<1x1x128x512xbf16>
  return %o : tensor<1x1x128x512xbf16>
}

// -----

// Sq 4 x 16 heads = 64 rows: fused; 4 work items, and 8192 keys allow 32
// partitions of 4 KV tiles (128 CTAs).
// SM100-LABEL: func @mla_sq4_batch4_fused
// SM100: config = #attn.config<{{.*}}mma_m = 64, {{.*}}m_pack = 2, bm = 64, bn = 64, {{.*}}padded_qk_depth = 576, {{.*}}padded_ov_depth = 512, nope_depth = 512, padded_nope_depth = 512, group = 16, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false, single_o = true, page_size = 0, is_mla = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 2, qk_stages = 9, pv_stages = 8, k_stage_bytes = 65536, v_stage_bytes = 65536, rope_buffers = 1, barriers = 26, smem_used = 213720, regions = {barriers = array<i64: 213512, 208, 8>, correction = array<i64: 212992, 512, 128>, kRing = array<i64: 73728, 131072, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 73728, 1024>, rope = array<i64: 204800, 8192, 1024>, tmemAddress = array<i64: 213504, 4, 4>}>
// SM100-SAME: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 32, cluster_size = 1, kv_per_partition = 256, kv_span = 8192, work_items = 4, ctas = 128, band_columns = 0, partitions_with_band = 0>
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<s0 = 0, s1 = 32, o0 = 64, o1 = -1, p0 = 16, p1 = 48, s_columns = 32, o_columns = 256, p_columns = 16, used = 320, alloc = 512>
// SM90: error: 'attn.attention' op MLA 576/512 on sm_90a needs O (64 x 512 f32 = 256 registers per thread) split across warpgroups with P staged in shared memory, which is not planned; expected head depths of at most 256
func.func @mla_sq4_batch4_fused(%q: tensor<4x4x16x576xf16>, %k: tensor<4x8192x1x576xf16>, %v: tensor<4x8192x1x512xf16>) -> tensor<4x4x16x512xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<4x4x16x576xf16>, tensor<4x8192x1x576xf16>, tensor<4x8192x1x512xf16>
      -> tensor<4x4x16x512xf16>
  return %o : tensor<4x4x16x512xf16>
}

// -----

// MLA prefill: 16 heads x 64 Q tiles of 64 rows, enough work.
// SM100-LABEL: func @mla_prefill_no_split
// SM100: config = #attn.config<{{.*}}mma_m = 64, {{.*}}m_pack = 2, bm = 64, bn = 64, {{.*}}padded_qk_depth = 576, {{.*}}padded_ov_depth = 512, nope_depth = 512, padded_nope_depth = 512, group = 16, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false, single_o = true, page_size = 0, is_mla = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 2, qk_stages = 9, pv_stages = 8, k_stage_bytes = 65536, v_stage_bytes = 65536, rope_buffers = 1, barriers = 26, smem_used = 213720, regions = {barriers = array<i64: 213512, 208, 8>, correction = array<i64: 212992, 512, 128>, kRing = array<i64: 73728, 131072, 1024>, oStaging = array<i64: 0, 65536, 1024>, q = array<i64: 0, 73728, 1024>, rope = array<i64: 204800, 8192, 1024>, tmemAddress = array<i64: 213504, 4, 4>}>
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, cluster_size = 1, kv_per_partition = 4096, kv_span = 4096, work_items = 1024, ctas = 1024, band_columns = 0, partitions_with_band = 0>
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<s0 = 0, s1 = 32, o0 = 64, o1 = -1, p0 = 16, p1 = 48, s_columns = 32, o_columns = 256, p_columns = 16, used = 320, alloc = 512>
// SM90: error: 'attn.attention' op MLA 576/512 on sm_90a needs O (64 x 512 f32 = 256 registers per thread) split across warpgroups with P staged in shared memory, which is not planned; expected head depths of at most 256
func.func @mla_prefill_no_split(%q: tensor<1x4096x16x576xbf16>, %k: tensor<1x4096x1x576xbf16>, %v: tensor<1x4096x1x512xbf16>) -> tensor<1x4096x16x512xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x4096x16x576xbf16>, tensor<1x4096x1x576xbf16>, tensor<1x4096x1x512xbf16>
      -> tensor<1x4096x16x512xbf16>
  return %o : tensor<1x4096x16x512xbf16>
}
