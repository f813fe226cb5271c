// attn-plan-pipeline over a matrix of shapes on both chips: every depth pair
// (MLA in plan-pipeline-mla.mlir), bf16 and f16, Sq in {1, 4, 128, 4096}, Skv
// from 1 to 131072, group in {1, 4, 8, 16}, masks none/causal/window. The full
// cross product is in unittests/Planning/PlanMatrixTest.cpp; here each case
// checks the decisions that matter for it.

// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a | FileCheck %s --check-prefix=SM100
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" | FileCheck %s --check-prefix=HINT100
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" | FileCheck %s --check-prefix=HINT90

// Depth 64, MHA, bf16, no mask, Sq = Skv = 4096. No CTA pair: a V half
// would be 32 columns (64 bytes), not the whole 128-byte swizzle rows the
// sm_100a kernel's MN-major descriptors are built for.
// SM100-LABEL: func @d64_mha_prefill
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 256, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM100-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 166120,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 256,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = 320, {{.*}}used = 384, alloc = 512>
// sm_90a at d = 64 with Sq and Skv past the looped twin's 2048: three
// consumer warpgroups on 192-row tiles (ceil(4096 / 192) x 16 = 352 CTAs),
// BN = 128 from 160 registers a consumer, six 2 x 16 KB stages.
// SM90-LABEL: func @d64_mha_prefill
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 192, bn = 128, {{.*}}num_q = 3, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false, {{.*}}num_threads = 512>
// SM90-SAME: smem = #attn.smem<kv_stages = 6, {{.*}}smem_used = 221424,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 352,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d64_mha_prefill(%q: tensor<1x4096x16x64xbf16>, %k: tensor<1x4096x16x64xbf16>, %v: tensor<1x4096x16x64xbf16>) -> tensor<1x4096x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x64xbf16>, tensor<1x4096x16x64xbf16>, tensor<1x4096x16x64xbf16>
      -> tensor<1x4096x16x64xbf16>
  return %o : tensor<1x4096x16x64xbf16>
}

// -----

// Depth 96 (padded to 128), f16, causal. At 4096 keys the looped kernel
// runs it (the twin's bound at Dv <= 128), so two K/V stages leave room to
// stage O.
// SM100-LABEL: func @d96_f16_causal_prefill
// SM100: config = #attn.config<{{.*}}mma_m = 256, {{.*}}bm = 256, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false,
// SM100-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 198936,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 256,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = 384, {{.*}}used = 512, alloc = 512>
// SM90-LABEL: func @d96_f16_causal_prefill
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 163968,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 512,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d96_f16_causal_prefill(%q: tensor<1x4096x16x96xf16>, %k: tensor<1x4096x16x96xf16>, %v: tensor<1x4096x16x96xf16>) -> tensor<1x4096x16x96xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x4096x16x96xf16>, tensor<1x4096x16x96xf16>, tensor<1x4096x16x96xf16>
      -> tensor<1x4096x16x96xf16>
  return %o : tensor<1x4096x16x96xf16>
}

// -----

// Depth 128, group 4, causal, batch 2: Llama-3-8B prefill.
// SM100-LABEL: func @d128_group4_causal_prefill
// SM100: config = #attn.config<{{.*}}mma_m = 256, {{.*}}bm = 256, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false,
// SM100-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 198936,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 1024,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = 384, {{.*}}used = 512, alloc = 512>
// SM90-LABEL: func @d128_group4_causal_prefill
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 163968,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 2048,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d128_group4_causal_prefill(%q: tensor<2x4096x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x4096x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x4096x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16>
      -> tensor<2x4096x32x128xbf16>
  return %o : tensor<2x4096x32x128xbf16>
}

// -----

// Dqk 128 / Dv 64, Sq 128: 16 work items leave SMs idle, split over the keys.
// SM100-LABEL: func @d128_64_sq128_splits
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 230624,
// SM100-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, {{.*}}kv_per_partition = 512, kv_span = 4096, {{.*}}ctas = 128,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 320, alloc = 512>
// SM90-LABEL: func @d128_64_sq128_splits
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 176, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 168056,
// SM90-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 5, {{.*}}kv_per_partition = 880, kv_span = 4096, {{.*}}ctas = 80,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d128_64_sq128_splits(%q: tensor<1x128x16x128xbf16>, %k: tensor<1x4096x16x128xbf16>, %v: tensor<1x4096x16x64xbf16>) -> tensor<1x128x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x128x16x128xbf16>, tensor<1x4096x16x128xbf16>, tensor<1x4096x16x64xbf16>
      -> tensor<1x128x16x64xbf16>
  return %o : tensor<1x128x16x64xbf16>
}

// -----

// Dqk 192 / Dv 128.
// SM100-LABEL: func @d192_128_prefill
// SM100: config = #attn.config<{{.*}}mma_m = 256, {{.*}}bm = 256, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false,
// SM100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 223496,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 256,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = 384, {{.*}}used = 512, alloc = 512>
// SM90-LABEL: func @d192_128_prefill
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 213136,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 512,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d192_128_prefill(%q: tensor<1x4096x16x192xbf16>, %k: tensor<1x4096x16x192xbf16>, %v: tensor<1x4096x16x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x192xbf16>, tensor<1x4096x16x192xbf16>, tensor<1x4096x16x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Depth 256, f16.
// SM100-LABEL: func @d256_f16_prefill
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = true, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 197768,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 512,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 512, alloc = 512>
// SM90-LABEL: func @d256_f16_prefill
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 80, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 229568,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 4096, kv_span = 4096, {{.*}}ctas = 512,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 80, columns = 64, swizzle = 128>, v = <rows = 80, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d256_f16_prefill(%q: tensor<1x4096x16x256xf16>, %k: tensor<1x4096x16x256xf16>, %v: tensor<1x4096x16x256xf16>) -> tensor<1x4096x16x256xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x16x256xf16>, tensor<1x4096x16x256xf16>, tensor<1x4096x16x256xf16>
      -> tensor<1x4096x16x256xf16>
  return %o : tensor<1x4096x16x256xf16>
}

// -----

// The issue's decode: B=1, Hq=32, Hkv=8, Sq=1, Skv=32768, d=128 bf16: GQA fused,
// split-K over a cluster of 16 for 128 CTAs on sm_100a; on sm_90a over a
// cluster of 8 for 64 CTAs (8-CTA clusters measured faster on the H200).
// SM100-LABEL: func @d128_group4_decode_cluster_splitk
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 230608,
// SM100-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, {{.*}}kv_per_partition = 2048, kv_span = 32768, {{.*}}ctas = 128,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 384, alloc = 512>
// SM90-LABEL: func @d128_group4_decode_cluster_splitk
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 96, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 229608,
// SM90-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, {{.*}}kv_per_partition = 4128, kv_span = 32768, {{.*}}ctas = 64,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d128_group4_decode_cluster_splitk(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Group 8 decode, f16, Skv 131072: 8 fused work items, 16 partitions.
// SM100-LABEL: func @d128_group8_decode_131072
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 230608,
// SM100-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, {{.*}}kv_per_partition = 8192, kv_span = 131072, {{.*}}ctas = 128,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 384, alloc = 512>
// SM90-LABEL: func @d128_group8_decode_131072
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 96, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 229608,
// SM90-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, {{.*}}kv_per_partition = 16416, kv_span = 131072, {{.*}}ctas = 64,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d128_group8_decode_131072(%q: tensor<1x1x64x128xf16>, %k: tensor<1x131072x8x128xf16>, %v: tensor<1x131072x8x128xf16>) -> tensor<1x1x64x128xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x64x128xf16>, tensor<1x131072x8x128xf16>, tensor<1x131072x8x128xf16>
      -> tensor<1x1x64x128xf16>
  return %o : tensor<1x1x64x128xf16>
}

// -----

// Sq 4, group 16, causal, Skv 131072: 4 work items split through the workspace
// into one CTA per SM.
// SM100-LABEL: func @d128_group16_sq4_workspace_splitk
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 230600,
// SM100-SAME: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 37, {{.*}}kv_per_partition = 3584, kv_span = 131072, {{.*}}ctas = 148,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 384, alloc = 512>
// SM90-LABEL: func @d128_group16_sq4_workspace_splitk
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 96, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 229600,
// SM90-SAME: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 33, {{.*}}kv_per_partition = 4032, kv_span = 131072, {{.*}}ctas = 132,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @d128_group16_sq4_workspace_splitk(%q: tensor<1x4x64x128xbf16>, %k: tensor<1x131072x4x128xbf16>, %v: tensor<1x131072x4x128xbf16>) -> tensor<1x4x64x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x4x64x128xbf16>, tensor<1x131072x4x128xbf16>, tensor<1x131072x4x128xbf16>
      -> tensor<1x4x64x128xbf16>
  return %o : tensor<1x4x64x128xbf16>
}

// -----

// Skv 1: nothing to split.
// SM100-LABEL: func @skv1_decode_short_kv
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 230600,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = short_kv, partitions = 1, {{.*}}kv_per_partition = 1, kv_span = 1, {{.*}}ctas = 8,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 384, alloc = 512>
// SM90-LABEL: func @skv1_decode_short_kv
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 96, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 229600,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = short_kv, partitions = 1, {{.*}}kv_per_partition = 1, kv_span = 1, {{.*}}ctas = 8,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @skv1_decode_short_kv(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x1x8x128xbf16>, %v: tensor<1x1x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x32x128xbf16>, tensor<1x1x8x128xbf16>, tensor<1x1x8x128xbf16>
      -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Window prefill, group 8: enough work; the window bounds the keys visited.
// SM100-LABEL: func @window_group8_prefill
// SM100: config = #attn.config<{{.*}}mma_m = 256, {{.*}}bm = 256, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = true, single_o = false,
// SM100-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 198936,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 1536, kv_span = 1536, {{.*}}ctas = 256,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 64, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = 384, {{.*}}used = 512, alloc = 512>
// SM90-LABEL: func @window_group8_prefill
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 176, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 213120,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = enough_work, partitions = 1, {{.*}}kv_per_partition = 1152, kv_span = 1152, {{.*}}ctas = 512,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @window_group8_prefill(%q: tensor<1x4096x16x128xbf16>, %k: tensor<1x131072x2x128xbf16>, %v: tensor<1x131072x2x128xbf16>) -> tensor<1x4096x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(1024,0)>}
      : tensor<1x4096x16x128xbf16>, tensor<1x131072x2x128xbf16>, tensor<1x131072x2x128xbf16>
      -> tensor<1x4096x16x128xbf16>
  return %o : tensor<1x4096x16x128xbf16>
}

// -----

// Window with Sq 128: sm_100a splits the 1152 keys in two, sm_90a's BN 176
// leaves too few keys for two partitions of 4 tiles.
// SM100-LABEL: func @window_sq128_group8
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = true,
// SM100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 230608,
// SM100-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 2, {{.*}}kv_per_partition = 640, kv_span = 1152, {{.*}}ctas = 16,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 384, alloc = 512>
// SM90-LABEL: func @window_sq128_group8
// SM90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 176, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 213120,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = short_kv, partitions = 1, {{.*}}kv_per_partition = 1152, kv_span = 1152, {{.*}}ctas = 8,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// SM90-NOT: tmem
// SM90: return
func.func @window_sq128_group8(%q: tensor<1x128x8x128xf16>, %k: tensor<1x8192x1x128xf16>, %v: tensor<1x8192x1x128xf16>) -> tensor<1x128x8x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(1024,0)>}
      : tensor<1x128x8x128xf16>, tensor<1x8192x1x128xf16>, tensor<1x8192x1x128xf16>
      -> tensor<1x128x8x128xf16>
  return %o : tensor<1x128x8x128xf16>
}

// -----

// Dynamic sizes: no split without hints; with decode hints (HINT RUN lines)
// the same plan as the static decode above.
// SM100-LABEL: func @dynamic_sizes_follow_hints
// SM100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 256, bn = 128, {{.*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM100-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}smem_used = 198856,
// SM100-SAME: splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1, {{.*}}kv_per_partition = 0, kv_span = 0, {{.*}}ctas = 0,
// SM100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// SM100-SAME: tmem = #attn.tmem<{{.*}}o1 = 384, {{.*}}used = 512, alloc = 512>
// SM90-LABEL: func @dynamic_sizes_follow_hints
// SM90: config = #attn.config<{{[^>]*}}mma_m = 64, {{[^>]*}}bm = 128, bn = 176, {{[^>]*}}num_q = 2, fuse_gqa = false, use_shared_kv = false, pair_cta = false, single_o = false,
// SM90-SAME: smem = #attn.smem<kv_stages = 2, {{[^>]*}}smem_used = 213120,
// SM90-SAME: splitk = #attn.splitk<mode = none, reason = unknown_sizes, partitions = 1, {{.*}}kv_per_partition = 0, kv_span = 0, {{.*}}ctas = 0,
// SM90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// The looped twin (Skv <= 2048) at 128-key tiles, its own plan.
// SM90-SAME: twin_config = #attn.config<{{[^>]*}}bm = 128, bn = 128,
// SM90-SAME: twin_smem = #attn.smem<kv_stages = 2, {{[^>]*}}smem_used = 163968,
// SM90-SAME: twin_swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>,
// SM90-NOT: tmem
// SM90: return
// HINT100-LABEL: func @dynamic_sizes_follow_hints
// HINT100: config = #attn.config<{{.*}}mma_m = 128, {{.*}}bm = 128, bn = 128, {{.*}}num_q = 1, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = true,
// HINT100-SAME: smem = #attn.smem<kv_stages = 3, {{.*}}smem_used = 230608,
// HINT100-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 16, {{.*}}kv_per_partition = 2048, kv_span = 32768, {{.*}}ctas = 128,
// HINT100-SAME: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 128>, k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>, o = <rows = 128, columns = 64, swizzle = 128>>
// HINT100-SAME: tmem = #attn.tmem<{{.*}}o1 = -1, {{.*}}used = 384, alloc = 512>
// HINT90-LABEL: func @dynamic_sizes_follow_hints
// HINT90: config = #attn.config<{{.*}}mma_m = 64, {{.*}}bm = 128, bn = 96, {{.*}}num_q = 2, fuse_gqa = true, use_shared_kv = false, pair_cta = false, single_o = false,
// HINT90-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}smem_used = 229608,
// HINT90-SAME: splitk = #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, {{.*}}kv_per_partition = 4128, kv_span = 32768, {{.*}}ctas = 64,
// HINT90-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 96, columns = 64, swizzle = 128>, v = <rows = 96, columns = 64, swizzle = 128>, o = <rows = 64, columns = 64, swizzle = 128>>
// HINT90-NOT: tmem
// HINT90: return
func.func @dynamic_sizes_follow_hints(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x32x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>
  return %o : tensor<?x?x32x128xbf16>
}
