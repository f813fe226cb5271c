// Decisions and diagnostics of attn-select-swizzle, run alone on hand-written
// #attn.config attributes: per TMA box, the swizzle whose span (128B/64B/32B)
// equals the row, none for other rows or under 8 rows
// (cuTensorMapEncodeTiled needs boxDim[0] x element size <= the span).
//
// Only in the gtests (unittests/Planning/SwizzlePlanTest.cpp): the O box
// diagnostics (O has Q's rows and, with the output type equal to the input
// type as the op requires, V fails first on any bad depth). 8-bit operands
// forced to 64B: plan-fp8.mlir, from FP8 IR.

// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-select-swizzle | FileCheck %s

// sm_100a pair-CTA prefill: Q and O boxes hold one 128-row softmax tile, K
// the 64 keys this CTA holds (BN / 2), V all 128 keys of half the depth; all
// rows are 64 bf16 = 128 bytes, so 128B swizzle.
// CHECK-LABEL: func @pair_cta_halves_k_rows_and_v_columns
// CHECK: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 4, num_q_heads = 32, num_kv_heads = 8,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @pair_cta_halves_k_rows_and_v_columns(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// Depth 64 under pair_cta: V's box is 32 columns (64-byte rows), so 64B.
// CHECK-LABEL: func @pair_cta_depth_64_v_gets_64b
// CHECK: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 32, swizzle = 64>, o = <rows = 128, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64,
    ov_depth = 64, padded_ov_depth = 64, nope_depth = 64,
    padded_nope_depth = 64, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @pair_cta_depth_64_v_gets_64b(%q: tensor<1x4096x16x64xf16>, %k: tensor<1x4096x16x64xf16>, %v: tensor<1x4096x16x64xf16>) -> tensor<1x4096x16x64xf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>
      -> tensor<1x4096x16x64xf16>
  return %o : tensor<1x4096x16x64xf16>
}

// -----

// Depth 96 pads to 128: two 64-column boxes per row.
// CHECK-LABEL: func @depth_96_padded_boxes
// CHECK: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 96, padded_qk_depth = 128,
    ov_depth = 96, padded_ov_depth = 128, nope_depth = 96,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @depth_96_padded_boxes(%q: tensor<1x4096x16x96xbf16>, %k: tensor<1x4096x16x96xbf16>, %v: tensor<1x4096x16x96xbf16>) -> tensor<1x4096x16x96xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<window(128,0)>}
      : tensor<1x4096x16x96xbf16>, tensor<1x4096x16x96xbf16>, tensor<1x4096x16x96xbf16>
      -> tensor<1x4096x16x96xbf16>
  return %o : tensor<1x4096x16x96xbf16>
}

// -----

// MLA: 64-row boxes.
// CHECK-LABEL: func @mla_64_row_boxes
// CHECK: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 64, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_100a, mma_m = 64, mma_k = 16, m_pack = 2, bm = 64,
    bn = 64, bk0 = 64, bk1 = 64, qk_depth = 576, padded_qk_depth = 576,
    ov_depth = 512, padded_ov_depth = 512, nope_depth = 512,
    padded_nope_depth = 512, group = 16, num_q_heads = 16, num_kv_heads = 1,
    num_q = 1, fuse_gqa = true, use_shared_kv = true, pair_cta = false,
    single_o = true, page_size = 0, is_mla = true, num_threads = 512>

func.func @mla_64_row_boxes(%q: tensor<1x1x16x576xbf16>, %k: tensor<1x8192x1x576xbf16>, %v: tensor<1x8192x1x512xbf16>) -> tensor<1x1x16x512xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x1x16x576xbf16>, tensor<1x8192x1x576xbf16>, tensor<1x8192x1x512xbf16>
      -> tensor<1x1x16x512xbf16>
  return %o : tensor<1x1x16x512xbf16>
}

// -----

// sm_90a: Q and O boxes are one 64-row consumer tile, K and V the 176 keys.
// CHECK-LABEL: func @sm90a_bn_176_boxes
// CHECK: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @sm90a_bn_176_boxes(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, mask = #attn.mask<causal>}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// sm_90a depth 256: BN 80.
// CHECK-LABEL: func @sm90a_depth_256_bn_80
// CHECK: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 80, columns = 64, swizzle = 128>, v = <rows = 80, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 80, bk0 = 64, bk1 = 64, qk_depth = 256, padded_qk_depth = 256,
    ov_depth = 256, padded_ov_depth = 256, nope_depth = 256,
    padded_nope_depth = 256, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @sm90a_depth_256_bn_80(%q: tensor<1x4096x16x256xf16>, %k: tensor<1x4096x16x256xf16>, %v: tensor<1x4096x16x256xf16>) -> tensor<1x4096x16x256xf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x256xf16>, tensor<1x4096x16x256xf16>, tensor<1x4096x16x256xf16>
      -> tensor<1x4096x16x256xf16>
  return %o : tensor<1x4096x16x256xf16>
}

// -----

// Hand-written narrow depths: 16 bf16 = 32-byte rows get 32B, 32 = 64-byte rows
// get 64B.
// CHECK-LABEL: func @narrow_rows_get_narrow_swizzles
// CHECK: swizzle = #attn.swizzle<q = <rows = 128, columns = 16, swizzle = 32>, k = <rows = 128, columns = 16, swizzle = 32>, v = <rows = 128, columns = 32, swizzle = 64>, o = <rows = 128, columns = 32, swizzle = 64>>
#config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 256,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 16,
    ov_depth = 128, padded_ov_depth = 32, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @narrow_rows_get_narrow_swizzles(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Hand-written 8-element depth: 16-byte rows take no swizzle.
// CHECK-LABEL: func @sixteen_byte_rows_no_swizzle
// CHECK: swizzle = #attn.swizzle<q = <rows = 64, columns = 8, swizzle = 0>, k = <rows = 176, columns = 8, swizzle = 0>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 8,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @sixteen_byte_rows_no_swizzle(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Hand-written BN 4: K and V boxes under 8 rows take no swizzle.
// CHECK-LABEL: func @boxes_under_8_rows_no_swizzle
// CHECK: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 4, columns = 64, swizzle = 0>, v = <rows = 4, columns = 64, swizzle = 0>, o = <rows = 64, columns = 64, swizzle = 128>>
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 4, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @boxes_under_8_rows_no_swizzle(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

func.func @missing_config_is_an_error(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op attn-select-swizzle needs #attn.config; run attn-select-config first}}
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// One 512-row Q tile.
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 512,
    bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @q_box_too_many_rows(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected the Q TMA box to have 1 to 256 rows, but got 512}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 512, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @k_box_too_many_rows(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected the K TMA box to have 1 to 256 rows, but got 512}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 0, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @k_box_no_rows(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected the K TMA box to have 1 to 256 rows, but got 0}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Under pair_cta K holds BN / 2 = 256 keys, V all 512.
#config = #attn.config<chip = sm_100a, mma_m = 256, mma_k = 16, m_pack = 1, bm = 256,
    bn = 512, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true,
    single_o = false, page_size = 0, is_mla = false, num_threads = 512>

func.func @v_box_too_many_rows(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected the V TMA box to have 1 to 256 rows, but got 512}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 36,
    ov_depth = 128, padded_ov_depth = 128, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @q_row_not_16_byte_units(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected the Q TMA box row to be a multiple of 16 bytes, but got 72}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128,
    bn = 176, bk0 = 64, bk1 = 64, qk_depth = 128, padded_qk_depth = 128,
    ov_depth = 128, padded_ov_depth = 36, nope_depth = 128,
    padded_nope_depth = 128, group = 1, num_q_heads = 16, num_kv_heads = 16,
    num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false,
    single_o = false, page_size = 0, is_mla = false, num_threads = 384>

func.func @v_row_not_16_byte_units(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected the V TMA box row to be a multiple of 16 bytes, but got 72}}
  %o = attn.attention %q, %k, %v {config = #config}
      : tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}
