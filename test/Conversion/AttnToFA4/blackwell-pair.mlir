// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// pair_cta on sm_100a (FA4's 2-CTA mode): long causal GQA prefill, d = 128,
// B = 4, Sq = Skv = 8192, 16/8 heads; the planner pairs CTAs (MMA_M = 256).
// A cluster of two CTAs per work item of 512 rows (two 128-row Q tiles
// each); K boxes of BN / 2 = 64 keys (each CTA's half of a K tile), V boxes
// of all 128 keys and 64 depth columns (each CTA's half of V's depth).
// CHECK-LABEL: func @pair_d128
// CHECK: mma_m = 256,{{.*}}pair_cta = true
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>,
// CHECK-SAME: grid = {{\[}}[2, #fa4.ceil_div<"sq", 512>, "hq", "b"], [1], [1]]
// CHECK-SAME: cluster = [2, 1, 1]

// The MMA warp of both CTAs allocates the pair's tensor memory together
// (cta_group::2). P ready counts one arrival per warp of the softmax and
// correction warpgroups of both CTAs: 2 x 2 x 4 = 16. The cluster meets
// once every barrier is initialised (Q full, 4 + 4 + 4 + 4 ring barriers
// and S full 0 take one arrival), before any peer load, commit or
// arrival can reach them.
// CHECK: scf.if %[[ISMMA:.*]] {
// CHECK-NEXT: fa4.tmem.alloc 512 columns to 198656 pair
// CHECK-COUNT-18: fa4.mbarrier.init %{{.*}} count 1
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.init %{{.*}} count 16
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.init %{{.*}} count 1
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.init %{{.*}} count 128
// CHECK: fa4.mbarrier.init %{{.*}} count 16
// CHECK: fa4.fence.mbarrier_init
// CHECK-NEXT: }
// CHECK-NEXT: fa4.cluster.sync

// Softmax: the work item is blockIdx.x / 2 (512 rows of one (batch, head),
// heaviest first), and CTA `rank` of the cluster owns rows [256 rank,
// 256 rank + 256) of it. P goes into this CTA's TMEM; each warp meets and
// its lane 0 arrives on the pair leader's (rank 0) P-ready barrier.
// CHECK: fa4.warp_specialize warpgroups [2, 1, 1] registers [184, 72, 72] {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %[[THREAD:.*]]: i32):
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[RANKIDX:.*]] = gpu.cluster_block_id x
// CHECK-NEXT: %[[RANK:.*]] = arith.index_cast %[[RANKIDX]] : index to i32
// CHECK-NEXT: %[[ITEM:.*]] = arith.divui %{{.*}}, %c2_i32 : i32
// CHECK: %[[OWN:.*]] = arith.muli %[[RANK]], %c256_i32 : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %{{.*}}, %[[OWN]] : i32
// CHECK: fa4.tmem.store
// CHECK-NEXT: %[[PREADY:.*]] = fa4.mbarrier.get
// CHECK-NEXT: fa4.tmem.fence {after = false}
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[THREAD]], %c32_i32 : i32
// CHECK-NEXT: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[LANE0]] {
// CHECK-NEXT: fa4.mbarrier.arrive %[[PREADY]] in_cta %c0_i32
// CHECK-NEXT: }

// Correction: the same handover after O's rescale.
// CHECK: fa4.tmem.scale_rows
// CHECK: nvvm.bar.warp.sync
// CHECK: fa4.mbarrier.arrive %{{.*}} in_cta %c0_i32

// Loader: both CTAs load their halves; only the leader arrives on the full
// barriers, expecting both CTAs' bytes (Q: 2 x 64 KB; K and V: 2 x 16 KB),
// and every load counts on the leader's barrier (in_cta 0). K rows start
// at the tile's first key + 64 rank; V columns at 64 rank.
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: i32):
// CHECK: %[[LRANKIDX:.*]] = gpu.cluster_block_id x
// CHECK-NEXT: %[[LRANK:.*]] = arith.index_cast %[[LRANKIDX]] : index to i32
// CHECK: %[[QFULL:.*]] = fa4.mbarrier.get %c0_i32
// CHECK-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %[[LRANK]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[QFULL]] bytes 131072
// CHECK-NEXT: }
// CHECK-COUNT-2: fa4.tma.load %arg0[{{.*}}] to %{{.*}}, %[[QFULL]] in_cta %c0_i32
// CHECK: fa4.tma.load %arg0[{{.*}}] to %{{.*}}, %[[QFULL]] in_cta %c0_i32
// CHECK: %[[HALF:.*]] = arith.muli %[[LRANK]], %c64_i32 : i32
// CHECK: scf.for
// CHECK: %[[KEY:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// CHECK: scf.if %[[LEADER]] {
// CHECK-NEXT: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// CHECK: %[[KROW:.*]] = arith.addi %[[KEY]], %[[HALF]] : i32
// CHECK-NEXT: fa4.tma.load %arg1[%c0_i32, %{{.*}}, %[[KROW]], %{{.*}}] to %{{.*}}, %{{.*}} in_cta %c0_i32
// CHECK: fa4.tma.load %arg1[%c64_i32, %{{.*}}, %[[KROW]], %{{.*}}] to %{{.*}}, %{{.*}} in_cta %c0_i32
// CHECK: scf.if %[[LEADER]] {
// CHECK-NEXT: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// CHECK: fa4.tma.load %arg2[%[[HALF]], %{{.*}}, %[[KEY]], %{{.*}}] to
// The producer tail: the last use of each K and V slot is released before
// the loader leaves (the leader's commits land on this CTA's barriers).
// CHECK: scf.for
// CHECK: fa4.mbarrier.wait
// CHECK: scf.for
// CHECK: fa4.mbarrier.wait

// MMA: only the leader's MMA warp (whole; its elected lane issues),
// cta_group::2 over M = 256; K is this CTA's 64-key half, V its 64-column
// half; commits reach both CTAs; the wait for P (arrivals released by both
// CTAs) acquires at cluster scope.
// CHECK: %[[ISLEADER:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: %[[ISSUES:.*]] = arith.andi %{{.*}}, %[[ISLEADER]] : i1
// CHECK-NEXT: scf.if %[[ISSUES]] {
// CHECK-COUNT-6: fa4.tmem.tile
// CHECK-NEXT: %[[ISSUER:.*]] = nvvm.elect.sync -> i1
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %false issued_by %[[ISSUER]] pair : !fa4.smem_tile<128x128xbf16, k_major>, <64x128xbf16, k_major>, <128x128xf32>
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.tmem.commit %{{.*}} issued_by %[[ISSUER]] pair
// CHECK: fa4.mbarrier.wait %{{.*}} parity %{{.*}} cluster
// CHECK-NEXT: fa4.tmem.fence {after = true}
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} issued_by %[[ISSUER]] pair : !fa4.tmem_tile<128x128xbf16>, <128x64xbf16, mn_major>, <128x128xf32>
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.tmem.commit %{{.*}} issued_by %[[ISSUER]] pair
// CHECK-NOT: fa4.tmem.commit %{{[0-9]+}}{{$}}

// The pair meets before the two MMA warps free the allocation together.
// CHECK: fa4.cluster.sync
// CHECK-NEXT: scf.if %[[ISMMA]] {
// CHECK-NEXT: fa4.tmem.dealloc 512 columns at 198656 pair
func.func @pair_d128(%q: tensor<4x8192x16x128xbf16>, %k: tensor<4x8192x8x128xbf16>, %v: tensor<4x8192x8x128xbf16>) -> (tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<4x8192x16x128xbf16>, tensor<4x8192x8x128xbf16>, tensor<4x8192x8x128xbf16> -> tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>
  return %o, %lse : tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>
}
