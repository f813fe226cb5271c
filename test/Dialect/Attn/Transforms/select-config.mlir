// Decisions of attn-select-config (#attn.config) on both chips. Diagnostics are
// in select-config-invalid.mlir; the MLA config is in plan-pipeline-mla.mlir.

// RUN: fa4-opt %s -split-input-file --attn-select-config=chip=sm_100a | FileCheck %s --check-prefix=SM100
// RUN: fa4-opt %s -split-input-file --attn-select-config=chip=sm_90a | FileCheck %s --check-prefix=SM90
// The default chip is sm_100a.
// RUN: fa4-opt %s -split-input-file --attn-select-config | FileCheck %s --check-prefix=SM100
// Hints stand in for dynamic sizes only; static shapes ignore them.
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" | FileCheck %s --check-prefix=DECODE100
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" | FileCheck %s --check-prefix=DECODE90
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_100a batch-hint=2 seq-q-hint=8192 seq-kv-hint=8192" | FileCheck %s --check-prefix=PREFILL100

// Llama-3-8B-style GQA prefill. sm_100a: two 128-row Q tiles (BM 256), BN 128
// fills TMEM (2x128 S + 2x128 O = 512), and 2 x 32 x 8 = 512 pair tiles >= 74
// SM pairs gives pair_cta (MMA_M 256). sm_90a: FA3 shape, BM 128 of two wgmma
// M=64 tiles, BN 176 by registers (S+P+O = 88+44+64 = 196 of 200), capped
// at 128 under this causal mask (select-config-causal-block-n.mlir).
// SM100-LABEL: func @prefill_d128_gqa_pair_cta
// SM100: config = #attn.config<chip = sm_100a, mma_m = 256, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false, {{.*}}num_threads = 512>
// SM90-LABEL: func @prefill_d128_gqa_pair_cta
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
// DECODE100-LABEL: func @prefill_d128_gqa_pair_cta
// DECODE100: config = #attn.config<chip = sm_100a, mma_m = 256, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false, {{.*}}num_threads = 512>
func.func @prefill_d128_gqa_pair_cta(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// Depth 64: same tiles, but no CTA pair (a V half would be 32 columns, not
// a whole 128-byte swizzle row). sm_90a, with Sq and Skv past 2048, takes
// three consumer warpgroups (BM = 192, 512 threads) and BN = 128 from their
// 160 registers; at 2048 keys it keeps two and BN at its 176 cap.
// SM100-LABEL: func @prefill_d64_mha
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 64, {{.*}}padded_ov_depth = 64, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 512>
// SM90-LABEL: func @prefill_d64_mha
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 192, bn = 128, {{.*}}padded_qk_depth = 64, {{.*}}padded_ov_depth = 64, {{.*}}num_q = 3, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 512>
func.func @prefill_d64_mha(%q: tensor<1x4096x16x64xbf16>, %k: tensor<1x4096x16x64xbf16>, %v: tensor<1x4096x16x64xbf16>) -> tensor<1x4096x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x64xbf16>, tensor<1x4096x16x64xbf16>, tensor<1x4096x16x64xbf16>
      -> tensor<1x4096x16x64xbf16>
  return %o : tensor<1x4096x16x64xbf16>
}

// -----

// Without a mask the looped twin (two consumers) stops at 1024 keys, so a
// static 2048 takes the plain kernel's three; under a causal mask the twin
// runs to 2048 keys, and 2048 keeps two.
// SM90-LABEL: func @prefill_d64_mha_2k
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}bm = 192, bn = 128, {{.*}}num_q = 3, {{.*}}num_threads = 512>
func.func @prefill_d64_mha_2k(%q: tensor<1x2048x16x64xbf16>, %k: tensor<1x2048x16x64xbf16>, %v: tensor<1x2048x16x64xbf16>) -> tensor<1x2048x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x2048x16x64xbf16>, tensor<1x2048x16x64xbf16>, tensor<1x2048x16x64xbf16>
      -> tensor<1x2048x16x64xbf16>
  return %o : tensor<1x2048x16x64xbf16>
}

// -----

// SM90-LABEL: func @prefill_d64_mha_1k
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}bm = 128, bn = 176, {{.*}}num_q = 2, {{.*}}num_threads = 384>
func.func @prefill_d64_mha_1k(%q: tensor<1x1024x16x64xbf16>, %k: tensor<1x1024x16x64xbf16>, %v: tensor<1x1024x16x64xbf16>) -> tensor<1x1024x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1024x16x64xbf16>, tensor<1x1024x16x64xbf16>, tensor<1x1024x16x64xbf16>
      -> tensor<1x1024x16x64xbf16>
  return %o : tensor<1x1024x16x64xbf16>
}

// -----

// SM90-LABEL: func @prefill_d64_mha_2k_causal
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}bm = 128, {{.*}}num_q = 2, {{.*}}num_threads = 384>
func.func @prefill_d64_mha_2k_causal(%q: tensor<1x2048x16x64xbf16>, %k: tensor<1x2048x16x64xbf16>, %v: tensor<1x2048x16x64xbf16>) -> tensor<1x2048x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x2048x16x64xbf16>, tensor<1x2048x16x64xbf16>, tensor<1x2048x16x64xbf16>
      -> tensor<1x2048x16x64xbf16>
  return %o : tensor<1x2048x16x64xbf16>
}

// -----

// Depth 96 pads to 128 (whole 64-element swizzle rows).
// SM100-LABEL: func @prefill_d96_f16_pads_depth_to_128
// SM100: config = #attn.config<chip = sm_100a, mma_m = 256, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false, {{.*}}num_threads = 512>
// SM90-LABEL: func @prefill_d96_f16_pads_depth_to_128
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @prefill_d96_f16_pads_depth_to_128(%q: tensor<1x4096x16x96xf16>, %k: tensor<1x4096x16x96xf16>, %v: tensor<1x4096x16x96xf16>) -> tensor<1x4096x16x96xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x4096x16x96xf16>, tensor<1x4096x16x96xf16>, tensor<1x4096x16x96xf16>
      -> tensor<1x4096x16x96xf16>
  return %o : tensor<1x4096x16x96xf16>
}

// -----

// Dqk 128 / Dv 64 with 128 query rows: on sm_100a one tile holds every row, so
// numQ = 1 with a single O; sm_90a always has two consumer tiles.
// SM100-LABEL: func @sq128_d128_64_one_q_tile
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 64, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// SM90-LABEL: func @sq128_d128_64_one_q_tile
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 176, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 64, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @sq128_d128_64_one_q_tile(%q: tensor<1x128x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x64xbf16>) -> tensor<1x128x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x128x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x64xbf16>
      -> tensor<1x128x16x64xbf16>
  return %o : tensor<1x128x16x64xbf16>
}

// -----

// Dqk 192 / Dv 128: sm_90a lowers BN to 128 so two K+V stages fit next to Q
// (2 x 128 x 320 x 2 + 128 x 192 x 2 = 208 KB).
// SM100-LABEL: func @prefill_d192_128
// SM100: config = #attn.config<chip = sm_100a, mma_m = 256, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 192, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false, {{.*}}num_threads = 512>
// SM90-LABEL: func @prefill_d192_128
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 192, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @prefill_d192_128(%q: tensor<1x4096x16x192xbf16>, %k: tensor<1x4096x16x192xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x192xbf16>, tensor<1x4096x16x192xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Depth 256: sm_100a 2Q would leave BN 0, so numQ = 1, BN 128 (256 + 256 = 512
// columns) and K/V share one ring; sm_90a BN 80 so two K+V stages
// (2 x 80 x 512 x 2 bytes) fit next to the 64 KB Q.
// SM100-LABEL: func @prefill_d256_single_o_shared_kv
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 256, {{.*}}padded_ov_depth = 256, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// SM90-LABEL: func @prefill_d256_single_o_shared_kv
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 80, {{.*}}padded_qk_depth = 256, {{.*}}padded_ov_depth = 256, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @prefill_d256_single_o_shared_kv(%q: tensor<1x4096x16x256xbf16>, %k: tensor<1x4096x16x256xbf16>, %v: tensor<1x4096x16x256xbf16>) -> tensor<1x4096x16x256xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>
      -> tensor<1x4096x16x256xbf16>
  return %o : tensor<1x4096x16x256xbf16>
}

// -----

// 8 heads x 8 pair tiles = 64 < 74 SM pairs: no pair_cta.
// SM100-LABEL: func @few_pair_tiles_no_pair_cta
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 512>
// SM90-LABEL: func @few_pair_tiles_no_pair_cta
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 176, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @few_pair_tiles_no_pair_cta(%q: tensor<1x4096x8x128xbf16>, %k: tensor<1x4096x8x128xbf16>, %v: tensor<1x4096x8x128xbf16>) -> tensor<1x4096x8x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x8x128xbf16>, tensor<1x4096x8x128xbf16>, tensor<1x4096x8x128xbf16>
      -> tensor<1x4096x8x128xbf16>
  return %o : tensor<1x4096x8x128xbf16>
}

// -----

// Decode, group 4: the 4 q-heads of a kv-head share one M tile; sm_100a uses one
// Q tile for the 4 rows.
// SM100-LABEL: func @decode_group4_fuses_gqa
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// SM90-LABEL: func @decode_group4_fuses_gqa
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 96, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @decode_group4_fuses_gqa(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Sq 4, group 16: 64 fused rows.
// SM100-LABEL: func @sq4_group16_fuses_gqa
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// SM90-LABEL: func @sq4_group16_fuses_gqa
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 96, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @sq4_group16_fuses_gqa(%q: tensor<1x4x64x128xf16>, %k: tensor<1x8192x4x128xf16>, %v: tensor<1x8192x4x128xf16>) -> tensor<1x4x64x128xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4x64x128xf16>, tensor<1x8192x4x128xf16>, tensor<1x8192x4x128xf16>
      -> tensor<1x4x64x128xf16>
  return %o : tensor<1x4x64x128xf16>
}

// -----

// Sq 32, group 8: 256 fused rows would fill sm_100a's two Q tiles, but the
// FA4 kernel runs fused q-heads on one 128-row tile (its decode path), so
// sm_100a does not fuse them; nor does sm_90a (BM 128).
// SM100-LABEL: func @sq32_group8_fuses_within_chip_tile
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// SM90-LABEL: func @sq32_group8_fuses_within_chip_tile
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 96, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @sq32_group8_fuses_within_chip_tile(%q: tensor<1x32x64x128xbf16>, %k: tensor<1x8192x8x128xbf16>, %v: tensor<1x8192x8x128xbf16>) -> tensor<1x32x64x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x32x64x128xbf16>, tensor<1x8192x8x128xbf16>, tensor<1x8192x8x128xbf16>
      -> tensor<1x32x64x128xbf16>
  return %o : tensor<1x32x64x128xbf16>
}

// -----

// Sq 128, group 4: 512 rows is past any tile and Sq > 8, so no fusion.
// SM100-LABEL: func @sq128_group4_no_fusion
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// SM90-LABEL: func @sq128_group4_no_fusion
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 176, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
func.func @sq128_group4_no_fusion(%q: tensor<1x128x32x128xbf16>, %k: tensor<1x8192x8x128xbf16>, %v: tensor<1x8192x8x128xbf16>) -> tensor<1x128x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(256,0)>}
      : tensor<1x128x32x128xbf16>, tensor<1x8192x8x128xbf16>, tensor<1x8192x8x128xbf16>
      -> tensor<1x128x32x128xbf16>
  return %o : tensor<1x128x32x128xbf16>
}

// -----

// Dynamic batch and sequences: with no hint, no fusion and no pair_cta (the
// conservative side); hints decide them (the DECODE and PREFILL RUN
// lines); static sizes ignore the hints.
// SM100-LABEL: func @dynamic_sizes_group4
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 512>
// SM90-LABEL: func @dynamic_sizes_group4
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
// DECODE100-LABEL: func @dynamic_sizes_group4
// DECODE100: config = #attn.config<chip = sm_100a, mma_m = 128, {{.*}}m_pack = 1, bm = 128, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true, {{.*}}num_threads = 512>
// DECODE90-LABEL: func @dynamic_sizes_group4
// DECODE90: config = #attn.config<chip = sm_90a, mma_m = 64, {{.*}}m_pack = 1, bm = 128, bn = 96, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 384>
// PREFILL100-LABEL: func @dynamic_sizes_group4
// PREFILL100: config = #attn.config<chip = sm_100a, mma_m = 256, {{.*}}m_pack = 1, bm = 256, bn = 128, {{.*}}padded_qk_depth = 128, {{.*}}padded_ov_depth = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false, {{.*}}num_threads = 512>
func.func @dynamic_sizes_group4(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>
  return %o : tensor<?x?x32x128xbf16>
}
