// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=SM100

// GQA decode (32/8 heads, d = 128) with Sq = 1 compiled without hints: the
// batch and Skv are the launch's, so the split is too. The grid's x is the
// size symbol "splits", which the runtime binds by the recorded rule (at
// most 132 partitions of at least 4 x 96 keys, in 96-key tiles); the
// workspace holds that many partitions of two partials (one per consumer)
// of 128 + 1 floats per (b, sq, hq) row, and the combine kernel takes the
// count as its last parameter.
// CHECK-LABEL: func @gqa_decode
// CHECK: grid = {{\[}}["splits"], ["hkv"], ["b", #fa4.ceil_div<"sq", 16>]]
// CHECK-SAME: combine = <kernel = @{{.*}}::@[[KERNEL:.*]]_combine, workspace_bytes = [1032, "splits", "b", "sq", "hq"], launch = <params = [#fa4.workspace, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<i32, "splits">], grid = {{\[}}["sq"], ["b"], [32]], block = [128, 1, 1]
// CHECK-SAME: split_at_launch = <max_partitions = 132, min_keys_per_partition = 384, key_tile = 96, min_partitions = 48>
// CHECK-SAME: splitk = #attn.splitk<mode = workspace, reason = at_launch, partitions = 132, cluster_size = 1, kv_per_partition = 384

// CHECK: gpu.func @[[KERNEL]](
// CHECK-SAME: %[[SKV:arg7]]: i32
// The consumer deals this work item's K/V tiles out to gridDim.x
// partitions: ceil(tiles / gridDim.x) from blockIdx.x's share on.
// CHECK: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK-NEXT: %[[PARTITION:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK: %[[TILES:.*]] = arith.select %{{.*}}, %c0_i32, %{{.*}} : i32
// CHECK-NEXT: %[[GX:.*]] = gpu.grid_dim  x
// CHECK-NEXT: %[[COUNT:.*]] = arith.index_cast %[[GX]] : index to i32
// CHECK-NEXT: %[[LESS:.*]] = arith.subi %[[COUNT]], %c1_i32 : i32
// CHECK-NEXT: %[[ROUND:.*]] = arith.addi %[[TILES]], %[[LESS]] : i32
// CHECK-NEXT: %[[EACH:.*]] = arith.divui %[[ROUND]], %[[COUNT]] : i32
// CHECK-NEXT: arith.muli %[[PARTITION]], %[[EACH]] : i32
// Its partial, 2 x partition + consumer, and the LSEs after all
// 2 x gridDim.x partials of O.
// CHECK: %[[TWICE:.*]] = arith.muli %[[PARTITION]], %c2_i32 : i32
// CHECK-NEXT: arith.addi %[[TWICE]], %[[CONSUMER]] : i32
// CHECK-NEXT: %[[PARTIALS:.*]] = arith.muli %[[COUNT]], %c2_i32 : i32
// CHECK: %[[PARTIALS64:.*]] = arith.extsi %[[PARTIALS]] : i32 to i64
// CHECK: fa4.epilogue {{.*}} depth 128 of f32 lse

// The combine: 2 x the launch's count of partials.
// CHECK: gpu.func @[[KERNEL]]_combine(
// CHECK-SAME: %[[SPLITS:arg10]]: i32)
// CHECK: %[[N:.*]] = arith.muli %[[SPLITS]], %c2_i32 : i32
// CHECK: fa4.splitk.workspace_combine %[[N]] partials from

// sm_100a: the same rule over its 148 SMs and 128-key tiles, one partial
// per CTA (516 bytes per row and partition), the count passed as it is.
// SM100-LABEL: func @gqa_decode
// SM100: grid = {{\[}}["splits"], ["hkv"], ["b", #fa4.ceil_div<"sq", 32>]]
// SM100-SAME: workspace_bytes = [516, "splits", "b", "sq", "hq"]
// SM100-SAME: split_at_launch = <max_partitions = 148, min_keys_per_partition = 512, key_tile = 128, min_partitions = 48>
// SM100: gpu.grid_dim  x
// SM100: gpu.func @{{.*}}_combine(
// SM100-SAME: %[[SPLITS:arg10]]: i32)
// SM100: fa4.splitk.workspace_combine %[[SPLITS]] partials from

func.func @gqa_decode(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x1x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>
}
