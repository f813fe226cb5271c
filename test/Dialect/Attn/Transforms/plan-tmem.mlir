// Decisions and diagnostics of attn-plan-tmem, run alone on hand-written
// #attn.config attributes. The map: S0 = 0, S1 = S0 + BN / m_pack,
// O0 = S1 + BN / m_pack, O1 = O0 + Dv / m_pack (absent with single_o), P inside
// the upper columns of its S tile; tcgen05.alloc takes the next power of two.

// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-plan-tmem | FileCheck %s

// Two Q tiles at depth 128: S0, S1, O0, O1 take all 512 columns; each 16-bit P
// takes the upper 64 columns of its S tile.
// CHECK-LABEL: func @two_q_tiles_fill_512_columns
// CHECK: tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 512, alloc = 512>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @two_q_tiles_fill_512_columns(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// Depth 64 with two Q tiles: 384 columns, allocated as 512.
// CHECK-LABEL: func @depth_64_two_q_tiles
// CHECK: tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 320, p0 = 64, p1 = 192, s_columns = 128, o_columns = 64, p_columns = 64, used = 384, alloc = 512>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64,
    ov_depth = 64, padded_ov_depth = 64, nope_depth = 64,
    padded_nope_depth = 64, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @depth_64_two_q_tiles(%q: tensor<1x4096x16x64xf16>, %k: tensor<1x4096x16x64xf16>, %v: tensor<1x4096x16x64xf16>) -> tensor<1x4096x16x64xf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>
      -> tensor<1x4096x16x64xf16>
  return %o : tensor<1x4096x16x64xf16>
}

// -----

// One Q tile (decode): single O, no O1.
// CHECK-LABEL: func @single_o_has_no_o1
// CHECK: tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 384, alloc = 512>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @single_o_has_no_o1(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Depth 256 with one Q tile: 2 x 128 + 256 = 512.
// CHECK-LABEL: func @depth_256_single_o
// CHECK: tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = -1, p0 = 64, p1 = 192, s_columns = 128, o_columns = 256, p_columns = 64, used = 512, alloc = 512>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 256, padded_qk_depth = 256,
    ov_depth = 256, padded_ov_depth = 256, nope_depth = 256,
    padded_nope_depth = 256, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @depth_256_single_o(%q: tensor<1x4096x16x256xbf16>, %k: tensor<1x4096x16x256xbf16>, %v: tensor<1x4096x16x256xbf16>) -> tensor<1x4096x16x256xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>
      -> tensor<1x4096x16x256xbf16>
  return %o : tensor<1x4096x16x256xbf16>
}

// -----

// MLA packs two 64-row tiles per lane (m_pack 2): S tiles 64 / 2 = 32 columns,
// O 512 / 2 = 256, P 16; 320 used, allocated as 512.
// CHECK-LABEL: func @mla_packed_tiles
// CHECK: tmem = #attn.tmem<s0 = 0, s1 = 32, o0 = 64, o1 = -1, p0 = 16, p1 = 48, s_columns = 32, o_columns = 256, p_columns = 16, used = 320, alloc = 512>
#config = #attn.config<chip = sm_100a, mma_m = 64, mma_k = 16, m_pack = 2, bm = 64,
    bn = 64, bk0 = 64, bk1 = 64, qk_depth = 576, padded_qk_depth = 576,
    ov_depth = 512, padded_ov_depth = 512, nope_depth = 512,
    padded_nope_depth = 512, group = 16, num_q_heads = 16, num_kv_heads = 1,
    num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = true, num_threads = 512>

func.func @mla_packed_tiles(%q: tensor<1x1x16x576xbf16>, %k: tensor<1x8192x1x576xbf16>, %v: tensor<1x8192x1x512xbf16>) -> tensor<1x1x16x512xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x16x576xbf16>, tensor<1x8192x1x576xbf16>, tensor<1x8192x1x512xbf16>
      -> tensor<1x1x16x512xbf16>
  return %o : tensor<1x1x16x512xbf16>
}

// -----

// A small hand-written tile: 2 x 32 + 64 = 128 columns, allocated as 128 (a
// power of two, not always 512).
// CHECK-LABEL: func @small_tile_allocates_128
// CHECK: tmem = #attn.tmem<s0 = 0, s1 = 32, o0 = 64, o1 = -1, p0 = 16, p1 = 48, s_columns = 32, o_columns = 64, p_columns = 16, used = 128, alloc = 128>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 32, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64,
    ov_depth = 64, padded_ov_depth = 64, nope_depth = 64,
    padded_nope_depth = 64, group = 1, num_q_heads = 8, num_kv_heads = 8,
    num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @small_tile_allocates_128(%q: tensor<1x128x8x64xbf16>, %k: tensor<1x1024x8x64xbf16>, %v: tensor<1x1024x8x64xbf16>) -> tensor<1x128x8x64xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x128x8x64xbf16>, tensor<1x1024x8x64xbf16>, tensor<1x1024x8x64xbf16>
      -> tensor<1x128x8x64xbf16>
  return %o : tensor<1x128x8x64xbf16>
}

// -----

// sm_90a keeps S and O in registers: no #attn.tmem, and a stale one is removed.
// CHECK-LABEL: func @sm90a_has_no_tmem
// CHECK: attn.attention
// CHECK-NOT: tmem
// CHECK: return
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @sm90a_has_no_tmem(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, tmem = #attn.tmem<s0 = 0, s1 = 128, o0 = 256, o1 = 384, p0 = 64, p1 = 192, s_columns = 128, o_columns = 128, p_columns = 64, used = 512, alloc = 512>}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

func.func @missing_config_is_an_error(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-plan-tmem needs #attn.config; run attn-select-config first}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Two O tiles of depth 256 next to two 128-column S tiles.
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 256, padded_qk_depth = 256,
    ov_depth = 256, padded_ov_depth = 256, nope_depth = 256,
    padded_nope_depth = 256, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = true, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @two_q_tiles_depth_256_overflow(%q: tensor<1x4096x16x256xbf16>, %k: tensor<1x4096x16x256xbf16>, %v: tensor<1x4096x16x256xbf16>) -> tensor<1x4096x16x256xbf16> {
  // expected-error @+1 {{'attn.attention' op TMEM plan needs 768 columns (S0,S1 = 2x128, O0,O1 = 2x256) but sm_100a has 512}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>
      -> tensor<1x4096x16x256xbf16>
  return %o : tensor<1x4096x16x256xbf16>
}

// -----

// BN 192 is too large for TMEM next to a 256-column O.
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 128,
    bn = 192, bk0 = 64, bk1 = 64, qk_depth = 256, padded_qk_depth = 256,
    ov_depth = 256, padded_ov_depth = 256, nope_depth = 256,
    padded_nope_depth = 256, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = false, num_threads = 512>

func.func @single_o_bn_192_overflow(%q: tensor<1x4096x16x256xbf16>, %k: tensor<1x4096x16x256xbf16>, %v: tensor<1x4096x16x256xbf16>) -> tensor<1x4096x16x256xbf16> {
  // expected-error @+1 {{'attn.attention' op TMEM plan needs 640 columns (S0,S1 = 2x192, O0 = 256) but sm_100a has 512}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>, tensor<1x4096x16x256xbf16>
      -> tensor<1x4096x16x256xbf16>
  return %o : tensor<1x4096x16x256xbf16>
}
