// RUN: fa4-opt %s | fa4-opt | FileCheck %s

// Every plan attribute round-trips through its struct-style syntax; fields
// print in declaration order whatever order they were written in.

// CHECK-LABEL: func private @config
// CHECK-SAME: plan = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>
func.func private @config() attributes {plan = #attn.config<num_threads = 384, chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false>}

// CHECK-LABEL: func private @splitk
// CHECK-SAME: plan = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2112, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>
func.func private @splitk() attributes {plan = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2112, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>}

// CHECK-LABEL: func private @tmem
// CHECK-SAME: plan = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 512, alloc = 512>
func.func private @tmem() attributes {plan = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 512, alloc = 512>}

// CHECK-LABEL: func private @swizzle
// CHECK-SAME: plan = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
func.func private @swizzle() attributes {plan = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>}

// A paged cache's K/V path prints after the boxes; `contiguous`, the
// default, is elided.
// CHECK-LABEL: func private @swizzle_paged
// CHECK-SAME: plan = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>, kv_path = gather_cp_async>
func.func private @swizzle_paged() attributes {plan = #attn.swizzle<kv_path = gather_cp_async, q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>}
// CHECK-LABEL: func private @swizzle_contiguous
// CHECK-SAME: plan = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>}
func.func private @swizzle_contiguous() attributes {plan = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>, kv_path = contiguous>}

// CHECK-LABEL: func private @smem
// CHECK-SAME: plan = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 14, smem_used = 213104, regions = {barriers = array<i64: 212992, 112, 8>, kRing = array<i64: 32768, 90112, 1024>, oStaging = array<i64: 0, 32768, 1024>, q = array<i64: 0, 32768, 1024>, vRing = array<i64: 122880, 90112, 1024>}>
func.func private @smem() attributes {plan = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 14, smem_used = 213104, regions = {q = array<i64: 0, 32768, 1024>, oStaging = array<i64: 0, 32768, 1024>, kRing = array<i64: 32768, 90112, 1024>, vRing = array<i64: 122880, 90112, 1024>, barriers = array<i64: 212992, 112, 8>}>}
