// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown shared-memory region 'scratch'}}
func.func private @unknown_region() attributes {plan = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 14, smem_used = 213104, regions = {scratch = array<i64: 0, 16, 16>}>}

// -----

// expected-error @+1 {{region 'q' must be array<i64: offset, bytes, alignment>}}
func.func private @region_without_alignment() attributes {plan = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 14, smem_used = 213104, regions = {q = array<i64: 0, 32768>}>}

// -----

// expected-error @+1 {{region 'kRing' must be array<i64: offset, bytes, alignment>}}
func.func private @region_not_an_array() attributes {plan = #attn.smem<kv_stages = 2, qk_stages = 2, pv_stages = 2, k_stage_bytes = 45056, v_stage_bytes = 45056, rope_buffers = 0, barriers = 14, smem_used = 213104, regions = {kRing = 32768 : i64}>}

// -----

// A plan attribute lists every field: a missing one is a parse error.
// expected-error @+1 {{expected ','}}
func.func private @tmem_missing_alloc() attributes {plan = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 512>}

// -----

// expected-error @+2 {{expected ::fa4::attn::SplitKMode to be one of: none, cluster_dsmem, workspace}}
// expected-error @+1 {{failed to parse Attn_SplitKAttr parameter 'mode'}}
func.func private @unknown_splitk_mode() attributes {plan = #attn.splitk<mode = cluster, reason = split, partitions = 16, cluster_size = 16, kv_per_partition = 2112, kv_span = 32768, work_items = 8, ctas = 128, band_columns = 8, partitions_with_band = 16>}

// -----

// expected-error @+2 {{unknown chip 'sm_80' (sm_90a or sm_100a)}}
// expected-error @+1 {{failed to parse Attn_ConfigAttr parameter 'chip'}}
func.func private @unknown_chip() attributes {plan = #attn.config<chip = sm_80, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128, nope_depth = 128, padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>}

// -----

// expected-error @+2 {{expected ::fa4::attn::KvPath to be one of: contiguous, page_boxes, gather_cp_async, gather4}}
// expected-error @+1 {{failed to parse Attn_SwizzleAttr parameter 'kv_path'}}
func.func private @unknown_kv_path() attributes {plan = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>, kv_path = tma_gather>}
