// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-attn-to-fa4 | FileCheck %s

// Every plan readPlan() refuses, each a one-field edit of the plan that
// `fa4-opt --attn-plan-pipeline=chip=sm_90a` prints for a 4-head d = 64 bf16
// op (the first case, which lowers).

// CHECK: gpu.func @fa4_hopper_control_sm_90a(
// The plan attn-plan-pipeline{chip=sm_90a} prints for this op lowers; every
// case below changes one field of it.
func.func @control(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// No plan at all.
func.func @unplanned(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op needs #attn.config, #attn.swizzle and #attn.smem; run attn-plan-pipeline first}}
  %o = attn.attention %q, %q, %q : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// A plan without its swizzle boxes.
func.func @no_swizzle(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op needs #attn.config, #attn.swizzle and #attn.smem; run attn-plan-pipeline{chip=sm_90a} first}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// One K/V ring (use_shared_kv): the kernel has separate K and V rings.
func.func @shared_kv(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = true, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = true, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// BN = 168 is not a whole number of k16 steps of P V.
func.func @bn_not_k16(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 168, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 168, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 168, columns = 64, swizzle = 128>, v = <rows = 168, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// BN = 272 is past wgmma's largest N (and TMA's largest box).
func.func @bn_over_256(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 272, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 272, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 272, columns = 64, swizzle = 128>, v = <rows = 272, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// wgmma's M is 64 rows per consumer warpgroup.
func.func @mma_m_128(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// BM = 128 is not num_q = 3 consumer tiles of 64 rows.
func.func @bm_not_consumers(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 3, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 3, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// Padded Dv = 320 does not fit one wgmma N (256).
func.func @dv_over_256(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 320, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 320, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// A padded depth of 80 is not whole 64-column boxes.
func.func @depth_not_boxes(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 80, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 80, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// Q boxes with a 64B swizzle: the descriptors assume 128B.
func.func @swizzle_64(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 64>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// K boxes of 128 rows for BN = 176.
func.func @k_box_not_bn(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// V boxes of 32 columns: TMA and the descriptors assume 64.
func.func @v_box_columns(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has an sm_90a plan this kernel does not implement (it needs 64-row consumer tiles, depths in 64-column 128B-swizzled boxes, Dv <= 256, BN a multiple of 16 up to 256, K/V boxes of BN rows or of whole 8-row groups within a page that tile BN, and separate K/V rings), got #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 32, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// A K slot of 16 KiB for one 176 x 128 B box (22 KiB).
func.func @k_stage_too_small(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has a shared-memory plan too small for its K/V slots or its 20 mbarriers: #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 16384, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 16384, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// A V slot 128 bytes short of one 176-key box.
func.func @v_stage_too_small(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has a shared-memory plan too small for its K/V slots or its 20 mbarriers: #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22400, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22400, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// 96 bytes of mbarriers for 2 * 2 + 4 * 4 = 20 barriers (160 bytes): per Q
// tile Q full and Q empty, and per slot K full, V full, K empty and V empty.
func.func @barriers_too_small(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has a shared-memory plan too small for its K/V slots or its 20 mbarriers: #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 96, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 96, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// 152 bytes of mbarriers: one short of 2 * 2 + 4 * 4 = 20 (160 bytes).
func.func @barriers_one_short(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has a shared-memory plan too small for its K/V slots or its 20 mbarriers: #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 152, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 152, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// No mbarrier region at all.
func.func @no_barrier_region(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has a shared-memory plan too small for its K/V slots or its 20 mbarriers: #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}}}
  %o = attn.attention %q, %q, %q {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}

// -----

// A looped twin's own config without its own shared-memory and swizzle
// plans (attn-plan-smem and attn-select-swizzle write them).
func.func @twin_config_alone(%q: tensor<1x128x4x64xbf16>) -> tensor<1x128x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has a twin_config without twin_smem and twin_swizzle; run attn-plan-pipeline{chip=sm_90a}}}
  %o = attn.attention %q, %q, %q {twin_config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 4, num_kv_heads = 4, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 196768, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16>, tensor<1x128x4x64xbf16> -> tensor<1x128x4x64xbf16>
  return %o : tensor<1x128x4x64xbf16>
}
