// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_100a batch-hint=64 seq-q-hint=1 seq-kv-hint=8192" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=NOSPLIT

// Decode on sm_100a, 32 q / 8 kv heads, d = 128, B = 1, Skv = 32k: the plan
// puts the 4 q-heads of a kv-head in one 128-row Q tile (32 query rows x 4
// heads; numQ = 1, one softmax warpgroup) and splits the keys over a
// cluster of 16 partitions, each combining a band of 8 of the 128 output
// columns. Three warpgroup roles (384 threads), a 3D grid of (partition,
// kv head, batch x row tile) with cluster (16, 1, 1), Q boxes of 32 rows x
// 4 heads.
// CHECK-LABEL: func @gqa_decode
// CHECK: params = [#fa4.tensor_map<"q", [1, 32, 4, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>
// CHECK-SAME: grid = {{\[}}[16], ["hkv"], ["b", #fa4.ceil_div<"sq", 32>]]
// CHECK-SAME: block = [384, 1, 1]
// CHECK-SAME: cluster = [16, 1, 1]
// CHECK: fa4.tmem.alloc 512 columns
// CHECK: fa4.warp_specialize warpgroups [1, 1, 1] registers [232, 112, 112] {
// The softmax warpgroup: its partition is its cluster rank; rows are
// (query row, head) pairs, so the mask takes group = 4. It meets the
// cluster twice after its loop (publish, read).
// CHECK: gpu.cluster_block_id  x
// CHECK: fa4.mask %{{.*}} mask #attn.mask<causal> keys %{{.*}} rows %{{.*}} sq %arg6 skv %arg7 {group = 4 : i64} : <128x128xf32>
// CHECK: fa4.cluster.sync
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NEXT: }, {
// The correction warpgroup: after the last P V it stages O from TMEM (a
// partition with no key stored zeros there; its max stays -inf and its sum
// 0: the neutral partial) at the plan's staging region over Q and the
// rings, publishes, combines its band of every partition's partial with
// group = 4, and meets the cluster again.
// CHECK: %[[RANK:.*]] = arith.index_cast %cluster_block_id_x : index to i32
// CHECK: fa4.tmem.store %{{.*}}, %{{.*}} : <128x128xf32>, <128x128xf32>
// CHECK: %[[O:.*]] = fa4.tmem.tile column 256 of {{[0-9]+}} : <128x128xf32>
// CHECK-NEXT: fa4.splitk.stage %[[O]], %{{.*}}, %{{.*}} at 0 : !fa4.tmem_tile<128x128xf32>, <128xf32>
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NEXT: fa4.splitk.combine rank %[[RANK]] of 16 band 8 from 0 rows 128 columns 128 to %arg3[%{{.*}}] strides[%arg8, %arg9, %arg10] sq %arg6 depth 128 of bf16 lse %arg4 strides[%arg11, %arg12] {group = 4 : i64}
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NOT: fa4.epilogue
// CHECK: }, {
// The load/MMA warpgroup: Q is two boxes of 32 rows x 4 heads x 128 B of
// the kv head's first q head; then the K/V rings; then the cluster twice.
// CHECK: %[[KVHEAD:.*]] = arith.index_cast %block_id_y : index to i32
// CHECK: %[[HEAD:.*]] = arith.muli %[[KVHEAD]], %c4_i32 : i32
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// CHECK-NEXT: fa4.tma.load %arg0[%c0_i32, %[[HEAD]], %{{.*}}, %{{.*}}] to %c0_i32
// CHECK-NEXT: fa4.tma.load %arg0[%c64_i32, %[[HEAD]], %{{.*}}, %{{.*}}] to %c16384_i32
// CHECK: fa4.tma.load %arg1[%c0_i32, %[[KVHEAD]],
// CHECK: fa4.cluster.sync
// CHECK-NEXT: fa4.cluster.sync
// CHECK-NEXT: }
// CHECK: gpu.barrier
// CHECK: fa4.tmem.dealloc 512 columns

// B = 64, Skv = 8k: 512 work items fill the GPU without a split. The
// q-heads stay fused in one tile; no cluster, the epilogue stores the 4
// heads' rows from TMEM.
// NOSPLIT-LABEL: func @gqa_decode
// NOSPLIT: grid = {{\[}}[1], ["hkv"], ["b", #fa4.ceil_div<"sq", 32>]]
// NOSPLIT-SAME: cluster = [1, 1, 1]
// NOSPLIT-NOT: fa4.cluster.sync
// NOSPLIT: fa4.epilogue {{.*}} depth 128 of bf16 lse {{.*}} {group = 4 : i64} : !fa4.tmem_tile<128x128xf32>
// NOSPLIT-NOT: fa4.splitk
func.func @gqa_decode(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// -----

// 16 / 16 heads at d = 64: nothing to fuse; 16 work items split 9 ways (one
// wave of 148 SMs), rows are 128 query rows of one q head (grid y = hq).
// Bands of 8 columns: 8 partitions cover d = 64 and the ninth owns no band,
// it only publishes its partial.
// CHECK-LABEL: func @mha_decode
// CHECK: params = [#fa4.tensor_map<"q", [1, 128, 1, 64], swizzle = 128>
// CHECK-SAME: grid = {{\[}}[9], ["hq"], ["b", #fa4.ceil_div<"sq", 128>]]
// CHECK-SAME: cluster = [9, 1, 1]
// CHECK: fa4.mask {{.*}} : <128x{{[0-9]+}}xf32>
// CHECK: fa4.splitk.stage %{{.*}} at 0 : !fa4.tmem_tile<128x64xf32>, <128xf32>
// CHECK: fa4.splitk.combine rank %{{.*}} of 9 band 8 from 0 rows 128 columns 64 {{.*}} depth 64 of bf16 :
// Without a split the plan is a one-tile prefill kernel: O is staged in
// shared memory and stored by the epilogue warp's TMA (one 64-column box).
// NOSPLIT-LABEL: func @mha_decode
// NOSPLIT: params = [#fa4.tensor_map<"q", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, {{.*}}, #fa4.scalar<f32, "scale_log2">, #fa4.tensor_map<"o", [1, 128, 1, 64], swizzle = 128>]
// NOSPLIT-NOT: fa4.splitk
// NOSPLIT: fa4.epilogue.stage %{{.*}}, %{{.*}} to 0 of bf16 : !fa4.tmem_tile<128x64xf32>, <128xf32>{{$}}
// NOSPLIT: fa4.tma.store %arg11[%c0_i32, {{.*}}] from %c0_i32
// NOSPLIT-NEXT: fa4.tma.store.wait
func.func @mha_decode(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
