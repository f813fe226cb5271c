// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a batch-hint=64 seq-q-hint=1 seq-kv-hint=8192" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a batch-hint=64 seq-q-hint=1 seq-kv-hint=8192" --convert-attn-to-fa4=persistent-decode=0 -canonicalize -cse | FileCheck %s --check-prefix=OFF

// persistent-decode (default on): a decode plan without a split (here B = 64: 512 work
// items already fill the 132 SMs) runs on persistent CTAs. The grid is the
// decode grid flattened, (Sq / 16 row tiles) x kv heads x B, with the rule
// "at most one CTA per SM" at every Skv; CTA i takes work items i, i +
// grid, ..., each decoded heads fastest: kv head = item % 8, then batch
// and row tile from item / 8. The one consumer leaves the producer room
// for the loop (56 registers).
// CHECK-LABEL: func @decode
// CHECK: fa4.abi = #fa4.abi<{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 16>, "hkv", "b"], [1], [1]]
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2147483647>
// CHECK: %[[ROWTILES:.*]] = arith.divui %{{.*}}, %c16_i32 : i32
// CHECK: %[[FIRST:.*]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[STRIDE:.*]] = arith.index_cast %grid_dim_x : index to i32
// CHECK: fa4.warp_specialize warpgroups [1, 1] registers [56, 240]
// CHECK: scf.for %[[DONE:.*]] = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %c0_i32) -> (i32) {
// CHECK: %[[DONE32:.*]] = arith.index_cast %[[DONE]] : index to i32
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %[[DONE32]], %[[STRIDE]] : i32
// CHECK-NEXT: %[[ITEM:.*]] = arith.addi %[[FIRST]], %[[STEP]] : i32
// CHECK-NEXT: %[[Z:.*]] = arith.divui %[[ITEM]], %c8_i32 : i32
// CHECK-NEXT: %[[KVHEAD:.*]] = arith.remui %[[ITEM]], %c8_i32 : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[Z]], %[[ROWTILES]] : i32
// CHECK-NEXT: %[[TILE:.*]] = arith.remui %[[Z]], %[[ROWTILES]] : i32
// CHECK: fa4.tma.load
// CHECK: fa4.epilogue
// persistent-decode=0: one CTA per work item, (1, kv heads, B x row tiles).
// OFF-LABEL: func @decode
// OFF-NOT: persistent =
// OFF: grid = {{\[}}[1], ["hkv"], ["b", #fa4.ceil_div<"sq", 16>]]
// OFF-NOT: persistent =
// OFF-NOT: gpu.grid_dim
// OFF: fa4.epilogue
func.func @decode(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// -----

// A decode plan with a split (a cluster, or a workspace) keeps its grid:
// its partitions meet in a cluster or write one workspace, which a work
// loop would not keep apart.
// CHECK-LABEL: func @split
// OFF-LABEL: func @split
// CHECK-NOT: persistent =
// CHECK: cluster = [8, 1, 1]
// CHECK-NOT: persistent =
// CHECK: gpu.func
func.func @split(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16> -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}
