// RUN: fa4-opt %s --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s --convert-attn-to-fa4=persistent-max-seq-kv=2048 -canonicalize -cse | FileCheck %s --check-prefix=ASKED

// The lowering's twin rule under a causal mask at Dv > 64: a looped twin
// only where it can store O by TMA, box by box past the plan. This plan,
// written by hand as attn-plan-smem lays out a static 4096 keys (no twin:
// three K/V stages, 229552 bytes), leaves 2896 bytes, too few for the
// twin's 16 KB; at a dynamic Skv the plain kernel with its TMA store then
// serves every Skv (the twin writing O from registers lost 2-5% to it,
// D-12). Asked for by persistent-max-seq-kv,
// the twin is built and writes O from registers.
// CHECK-LABEL: func @causal_d128_no_room
// CHECK: dynamic_smem_bytes = 229552
// CHECK-NOT: persistent =
// CHECK: gpu.func @fa4_hopper_causal_d128_no_room_sm_90a(
// CHECK-NOT: gpu.func @fa4_hopper_causal_d128_no_room_sm_90a_persistent(
// ASKED: dynamic_smem_bytes = 229552
// ASKED-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2048, kernel = @fa4_hopper_causal_d128_no_room_sm_90a_module::@fa4_hopper_causal_d128_no_room_sm_90a_persistent, launch = {{.*}}>
// ASKED: gpu.func @fa4_hopper_causal_d128_no_room_sm_90a_persistent(
// ASKED-NOT: fa4.epilogue.stage
// ASKED: fa4.epilogue %
#config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1,
    bm = 128, bn = 128, bk0 = 64, bk1 = 64, qk_depth = 128,
    padded_qk_depth = 128, ov_depth = 128, padded_ov_depth = 128,
    nope_depth = 128, padded_nope_depth = 128, group = 1, num_q_heads = 6,
    num_kv_heads = 6, num_q = 2, fuse_gqa = false, use_shared_kv = false,
    pair_cta = false, single_o = false, page_size = 0, is_mla = false,
    num_threads = 384>
#smem = #attn.smem<kv_stages = 3, qk_stages = 2, pv_stages = 2,
    k_stage_bytes = 32768, v_stage_bytes = 32768, rope_buffers = 0,
    barriers = 22, smem_used = 229552, regions = {
      barriers = array<i64: 229376, 176, 8>,
      kRing = array<i64: 32768, 98304, 1024>,
      oStaging = array<i64: 0, 32768, 1024>,
      q = array<i64: 0, 32768, 1024>,
      vRing = array<i64: 131072, 98304, 1024>}>
#splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1,
    cluster_size = 1, kv_per_partition = 0, kv_span = 0, work_items = 0,
    ctas = 0, band_columns = 0, partitions_with_band = 0>
#swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>,
    k = <rows = 128, columns = 64, swizzle = 128>,
    v = <rows = 128, columns = 64, swizzle = 128>,
    o = <rows = 64, columns = 64, swizzle = 128>>
func.func @causal_d128_no_room(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {config = #config, smem = #smem, splitk = #splitk, swizzle = #swizzle, mask = #attn.mask<causal>}
      : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>
      -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
