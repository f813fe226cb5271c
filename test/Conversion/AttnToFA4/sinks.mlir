// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,HOPPER
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,BLACKWELL
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-reference-kernel -canonicalize -cse | FileCheck %s --check-prefix=REF

// Attention sinks (issue 61) in both kernels: the op's f32 [Hq] sinks come
// as a pointer right after O's (and LSE's), and each row's softmax starts
// from its sink (fa4.sink.rows) instead of (-inf, 0), so the sink joins
// the row's max and sum once and contributes no value row.

// Prefill: every row holds its sink (no split of the keys).
// CHECK-LABEL: gpu.func @fa4_{{hopper|blackwell}}_prefill_sm_{{90|100}}a(
// CHECK-SAME: %arg0: !fa4.tensor_map, %arg1: !fa4.tensor_map, %arg2: !fa4.tensor_map, %arg3: !llvm.ptr<1>, %[[SINKS:arg4]]: !llvm.ptr<1>, %arg5: i32
// CHECK: %max, %sum = fa4.sink.rows %[[SINKS]][%{{[0-9]+}}] if %true : <[[ROWS:64|128]]xf32>, !llvm.ptr<1>
// CHECK: fa4.softmax %{{[0-9]+}} max %{{[a-z0-9]+}} sum %{{[a-z0-9]+}}
func.func @prefill(%q: tensor<2x1024x8x128xbf16>, %k: tensor<2x1024x8x128xbf16>, %v: tensor<2x1024x8x128xbf16>, %s: tensor<8xf32>) -> tensor<2x1024x8x128xbf16> {
  %o = attn.attention %q, %k, %v sinks(%s : tensor<8xf32>) {mask = #attn.mask<causal>} : tensor<2x1024x8x128xbf16>, tensor<2x1024x8x128xbf16>, tensor<2x1024x8x128xbf16> -> tensor<2x1024x8x128xbf16>
  return %o : tensor<2x1024x8x128xbf16>
}

// A cluster split-K decode with fused GQA (4 q-heads of a kv-head in one
// tile, head = kv head * 4): the sink belongs once to each row's softmax,
// so only partition 0 (cluster rank 0) starts from it and the others from
// the empty state; the combine then counts it once. On sm_90a the two
// consumer warpgroups split the keys too: consumer 0 of partition 0.
// CHECK-LABEL: gpu.func @fa4_{{hopper|blackwell}}_split_decode_sm_{{90|100}}a(
// CHECK-SAME: %arg3: !llvm.ptr<1>, %arg4: !llvm.ptr<1>, %[[SINKS:arg5]]: !llvm.ptr<1>, %arg6: i32
// CHECK: %cluster_block_id_x = gpu.cluster_block_id  x
// CHECK: %[[RANK:[0-9]+]] = arith.index_cast %cluster_block_id_x : index to i32
// CHECK: %[[KV_HEAD:[0-9]+]] = arith.index_cast %block_id_y : index to i32
// CHECK: %[[HEAD:[0-9]+]] = arith.muli %[[KV_HEAD]], %c4_i32 : i32
// CHECK: %[[FIRST:[0-9]+]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// HOPPER-NEXT: %[[CONSUMER0:[0-9]+]] = arith.cmpi eq, %arg{{[0-9]+}}, %c0_i32 : i32
// HOPPER-NEXT: %[[HOLDS:[0-9]+]] = arith.andi %[[FIRST]], %[[CONSUMER0]] : i1
// HOPPER-NEXT: fa4.sink.rows %[[SINKS]][%[[HEAD]]] if %[[HOLDS]] {group = 4 : i64} : <64xf32>, !llvm.ptr<1>
// BLACKWELL-NEXT: fa4.sink.rows %[[SINKS]][%[[HEAD]]] if %[[FIRST]] {group = 4 : i64} : <128xf32>, !llvm.ptr<1>
// CHECK: fa4.splitk.stage
// CHECK: fa4.splitk.combine
func.func @split_decode(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>, %s: tensor<32xf32>) -> (tensor<1x1x32x128xbf16>, tensor<1x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v sinks(%s : tensor<32xf32>) : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16> -> tensor<1x1x32x128xbf16>, tensor<1x32x1xf32>
  return %o, %lse : tensor<1x1x32x128xbf16>, tensor<1x32x1xf32>
}

// The reference kernel: the row's running (max, sum) start at
// (sinks[head] * log2 e, 1), head the grid's y.
// REF-LABEL: gpu.func @fa4_ref_prefill_sm_90a(
// REF-SAME: %arg3: !llvm.ptr<1>, %[[SINKS:arg4]]: !llvm.ptr<1>, %arg5: i32
// REF-DAG: %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// REF-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// REF: %block_id_y = gpu.block_id  y
// REF-NEXT: %[[HEAD:[0-9]+]] = arith.index_cast %block_id_y : index to i64
// REF: %[[AT:[0-9]+]] = llvm.getelementptr %[[SINKS]][%[[HEAD]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// REF-NEXT: %[[SINK:[0-9]+]] = llvm.load %[[AT]] : !llvm.ptr<1> -> f32
// REF-NEXT: %[[MAX0:[0-9]+]] = arith.mulf %[[SINK]], %[[LOG2E]] : f32
// REF: scf.for {{.*}} iter_args(%{{[a-z0-9]+}} = %[[MAX0]], %{{[a-z0-9]+}} = %[[ONE]],
