// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a batch-hint=64 seq-q-hint=1 seq-kv-hint=8192" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=NOSPLIT

// Decode, 32 q / 8 kv heads, d = 128, B = 1, Skv = 32k: the planner fuses
// the 4 q-heads of a kv-head into one 64-row tile (16 query rows x 4 heads),
// takes decode tiles of BN = 96 keys (four K/V stages) and splits the keys
// over a cluster of 8 partitions, each combining a band of 16 of the 128
// output columns. A 3D grid of (partition, kv head, batch x row tile) with
// cluster (8, 1, 1); Q boxes of 16 rows x 4 heads. Both consumer
// warpgroups work on the one Q tile, taking the partition's K/V tiles in
// turn, and each stages its own partial.
// CHECK-LABEL: func @gqa_decode
// CHECK: params = [#fa4.tensor_map<"q", [1, 16, 4, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 96, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 96, 1, 64], swizzle = 128>
// CHECK-SAME: grid = {{\[}}[8], ["hkv"], ["b", #fa4.ceil_div<"sq", 16>]]
// CHECK-SAME: cluster = [8, 1, 1]
// A slot's K and V are read by one consumer only: its empty barrier waits
// for 128 threads (the Q barrier still for both consumers' 256).
// CHECK: fa4.mbarrier.init %{{.*}} count 256
// CHECK-COUNT-8: fa4.mbarrier.init %{{.*}} count 1
// CHECK-COUNT-4: fa4.mbarrier.init %{{.*}} count 128
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// The producer: its partition is its cluster rank; the kv head is
// blockIdx.y, its q heads start at 4 * kv head; the row tile and the batch
// come from blockIdx.z.
// CHECK: %[[RANK:.*]] = arith.index_cast %cluster_block_id_x : index to i32
// CHECK: %[[KVHEAD:.*]] = arith.index_cast %block_id_y : index to i32
// CHECK: %[[Z:.*]] = arith.index_cast %block_id_z : index to i32
// CHECK: %[[ROWTILES:.*]] = arith.divui %{{.*}}, %c16_i32 : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[Z]], %[[ROWTILES]] : i32
// CHECK-NEXT: %[[TILE:.*]] = arith.remui %[[Z]], %[[ROWTILES]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[TILE]], %c16_i32 : i32
// CHECK-NEXT: %[[HEAD:.*]] = arith.muli %[[KVHEAD]], %c4_i32 : i32
// The visible tiles (causal: up to the last row's diagonal) are dealt out
// in runs of ceil(tiles / 8); a partition past the end gets none.
// CHECK: %[[TILES:.*]] = arith.select
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[TILES]], %c7_i32 : i32
// CHECK-NEXT: %[[PER:.*]] = arith.divui %[[UP]], %c8_i32 : i32
// CHECK-NEXT: %[[SKIPPED:.*]] = arith.muli %[[RANK]], %[[PER]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TILES]], %[[SKIPPED]] : i32
// CHECK-NEXT: %[[MINE:.*]] = arith.minsi %[[PER]], %[[LEFT]] : i32
// CHECK-NEXT: %[[MYTILES:.*]] = arith.maxsi %[[MINE]], %c0_i32 : i32
// Q once, for both consumers: two boxes of 16 rows x 4 heads x 128 B.
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 16384
// CHECK-NEXT: fa4.tma.load %arg0[%c0_i32, %[[HEAD]], %[[ROW]], %[[BATCH]]]
// CHECK-NEXT: fa4.tma.load %arg0[%c64_i32, %[[HEAD]], %[[ROW]], %[[BATCH]]]
// CHECK-NOT: fa4.tma.load %arg0
// K tiles from the partition's first tile, of the kv head, through four
// slots.
// CHECK: arith.remui %{{.*}}, %c4_i32 : i32
// CHECK: %[[KTILE:.*]] = arith.addi %[[SKIPPED]], %{{.*}} : i32
// CHECK-NEXT: %[[KEYROW:.*]] = arith.muli %[[KTILE]], %c96_i32 : i32
// CHECK: fa4.tma.load %arg1[%c0_i32, %[[KVHEAD]], %[[KEYROW]], %[[BATCH]]]
// Every producer thread meets the cluster twice (publish, read).
// CHECK: fa4.cluster.sync
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NEXT: }, {
// The consumers: consumer c takes tiles c, c + 2, ... of the partition's,
// (tiles + 1 - c) / 2 of them, from the one Q tile at byte 0.
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[QTILE:.*]] = fa4.smem.tile %c0_i32 : <64x128xbf16, k_major>
// CHECK: %[[CSKIPPED:.*]] = arith.muli %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK: %[[CMINE:.*]] = arith.maxsi %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: %[[PLUS1:.*]] = arith.addi %[[CMINE]], %c1_i32 : i32
// CHECK-NEXT: %[[OWN:.*]] = arith.subi %[[PLUS1]], %[[CONSUMER]] : i32
// CHECK-NEXT: %[[STEPS:.*]] = arith.divui %[[OWN]], %c2_i32 : i32
// CHECK: scf.for %[[STEP:.*]] = %c0 to %{{.*}} step %c1 iter_args(
// CHECK-NEXT: %[[STEP32:.*]] = arith.index_cast %[[STEP]] : index to i32
// CHECK-NEXT: %[[TWICE:.*]] = arith.muli %[[STEP32]], %c2_i32 : i32
// CHECK-NEXT: %[[MYTILE:.*]] = arith.addi %[[CONSUMER]], %[[TWICE]] : i32
// CHECK: %[[ABS:.*]] = arith.addi %[[CSKIPPED]], %[[MYTILE]] : i32
// CHECK-NEXT: %[[FIRSTKEY:.*]] = arith.muli %[[ABS]], %c96_i32 : i32
// The P V of the consumer's previous tile, two ring tiles back.
// CHECK: arith.subi %[[MYTILE]], %c2_i32 : i32
// CHECK: fa4.mma %[[QTILE]], %{{.*}}, %{{.*}} : !fa4.smem_tile<64x128xbf16, k_major>, <96x128xbf16, k_major>, <64x96xf32>
// Rows are (query row, head) pairs, so the mask and the combine take
// group = 4.
// CHECK: fa4.mask %{{.*}} mask #attn.mask<causal> keys %[[FIRSTKEY]] rows %{{.*}} sq %arg6 skv %arg7 {group = 4 : i64} : <64x96xf32>
// The staging slots alias Q and the K/V rings: the consumers meet on named
// barrier 3 first. Consumer 0 stages at byte 0, consumer 1 after it (64 x
// (128 + 2) f32); then the cluster meets, consumer 0 combines the 16
// partials, and the cluster meets again.
// CHECK: nvvm.barrier id = %c3_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[CONSUMER]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: fa4.splitk.stage %{{.*}}, %{{.*}}#1, %{{.*}}#2 at 0 : !fa4.frag<64x128xf32>, <64xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: fa4.splitk.stage %{{.*}}, %{{.*}}#1, %{{.*}}#2 at 33280 : !fa4.frag<64x128xf32>, <64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: fa4.splitk.combine rank %{{.*}} of 8 band 16 from 0 rows 64 columns 128 to %arg3[%{{.*}}] strides[%arg8, %arg9, %arg10] sq %arg6 depth 128 of bf16 lse %arg4 strides[%arg11, %arg12] {group = 4 : i64, partials = 2 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NOT: fa4.epilogue

// B = 64, Skv = 8k: 512 work items fill the GPU without a split. The
// q-heads stay fused; no cluster, the epilogue stores the 4 heads' rows;
// persistent CTAs take the work items (persistent-decode.mlir).
// NOSPLIT-LABEL: func @gqa_decode
// NOSPLIT: grid = {{\[}}[#fa4.ceil_div<"sq", 16>, "hkv", "b"], [1], [1]]
// NOSPLIT-SAME: cluster = [1, 1, 1]
// NOSPLIT-NOT: fa4.cluster.sync
// NOSPLIT: fa4.epilogue {{.*}} depth 128 of bf16 lse {{.*}} {group = 4 : i64}
// NOSPLIT-NOT: fa4.splitk
func.func @gqa_decode(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// -----

// 16 / 16 heads: nothing to fuse (one q-head per kv-head). At B = 1 the 16
// work items split 8 ways; rows are 64 query rows of one q head (grid y =
// hq), bands of 16 columns of d = 64 ... 8 partitions x 8 = 64.
// CHECK-LABEL: func @mha_decode
// CHECK: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>
// CHECK-SAME: grid = {{\[}}[8], ["hq"], ["b", #fa4.ceil_div<"sq", 64>]]
// CHECK-SAME: cluster = [8, 1, 1]
// CHECK: fa4.mask {{.*}} : <64x{{[0-9]+}}xf32>
// CHECK: fa4.splitk.combine rank %{{.*}} of 8 band 8 from 0 rows 64 columns 64 {{.*}} depth 64 of bf16 {partials = 2 : i64} :
// NOSPLIT-LABEL: func @mha_decode
// NOSPLIT-NOT: fa4.splitk
// NOSPLIT: fa4.epilogue.stage {{.*}} of bf16 : !fa4.frag<64x64xf32>, <64xf32>
// NOSPLIT: fa4.tma.store
func.func @mha_decode(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
