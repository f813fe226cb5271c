// RUN: fa4-opt %s --convert-attn-to-fa4=tensor-core-row-sum | FileCheck %s

// convert-attn-to-fa4{tensor-core-row-sum} where the plan leaves no room
// for the operand: this plan (attn-plan-pipeline's for d = 64, 512 keys,
// its smem_used raised to 231000 bytes) has less than 3 KB past its
// regions below the 227 KB carveout (nor room for the looped kernel's O
// staging). The kernel keeps the softmax's FADD sums; the launch's shared
// memory stays the plan's.
// CHECK: dynamic_smem_bytes = 231000 : i64
// CHECK-NOT: row_sum
// CHECK: fa4.softmax
// CHECK-SAME: sum %[[SUM:[a-zA-Z0-9_]+]]
// CHECK-NOT: row_sum
// CHECK: fa4.epilogue
// CHECK-NOT: row_sum
module {
  func.func @prefill(%arg0: tensor<2x512x16x64xbf16>, %arg1: tensor<2x512x16x64xbf16>, %arg2: tensor<2x512x16x64xbf16>) -> tensor<2x512x16x64xbf16> {
    %0 = attn.attention %arg0, %arg1, %arg2 {config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 176, bk0 = 64, bk1 = 64, qk_depth = 64, padded_qk_depth = 64, ov_depth = 64, padded_ov_depth = 64, nope_depth = 64, padded_nope_depth = 64, group = 1, num_q_heads = 16, num_kv_heads = 16, num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, page_size = 0, is_mla = false, num_threads = 384>, smem = #attn.smem<kv_stages = 4, qk_stages = 1, pv_stages = 1, k_stage_bytes = 22528, v_stage_bytes = 22528, rope_buffers = 0, barriers = 20, smem_used = 231000, regions = {barriers = array<i64: 196608, 160, 8>, kRing = array<i64: 16384, 90112, 1024>, oStaging = array<i64: 0, 16384, 1024>, q = array<i64: 0, 16384, 1024>, vRing = array<i64: 106496, 90112, 1024>}>, splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, cluster_size = 1, kv_per_partition = 512, kv_span = 512, work_items = 128, ctas = 128, band_columns = 0, partitions_with_band = 0>, swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>} : tensor<2x512x16x64xbf16>, tensor<2x512x16x64xbf16>, tensor<2x512x16x64xbf16> -> tensor<2x512x16x64xbf16>
    return %0 : tensor<2x512x16x64xbf16>
  }
}

