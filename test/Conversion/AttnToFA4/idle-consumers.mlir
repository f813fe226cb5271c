// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// Where a prefill kernel takes one work tile per CTA, a consumer whose 64
// rows all start at or past Sq (the row block's first row + 64 * consumer)
// issues no GEMM and no softmax: it only takes and passes its ping-pong
// turns and releases each K/V tile and its Q, so the barriers keep the
// counts of every consumer and the others have the tensor cores to
// themselves (+2% at d = 64, Sq = 4096, D-38). The
// looped twin keeps no such branch: across its work loop it made ptxas
// spill (28-32 B in the d = 128 causal and d = 256 twins).
// CHECK-LABEL: gpu.func @fa4_hopper_plain_sm_90a(
// CHECK: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[ROWS:.*]] = arith.muli %[[CONSUMER]], %c64_i32 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.addi %{{.*}}, %[[ROWS]] : i32
// CHECK-NEXT: %[[IDLE:.*]] = arith.cmpi sge, %[[FIRST]], %arg5 : i32
// CHECK-NEXT: scf.if %[[IDLE]] {
// CHECK-NOT: fa4.mma
// CHECK-NOT: fa4.softmax
// CHECK-NOT: fa4.epilogue
// CHECK: } else {
// CHECK: fa4.mma
// CHECK: fa4.softmax
// CHECK: fa4.epilogue.stage
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @fa4_hopper_plain_sm_90a_persistent(
// CHECK-NOT: arith.cmpi sge
// CHECK: gpu.return
func.func @plain(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Under a window mask the branch made ptxas spill 4 B at d = 96 and 128:
// every consumer runs its tile.
// CHECK-LABEL: gpu.func @fa4_hopper_window_sm_90a(
// CHECK-NOT: arith.cmpi sge
// CHECK: gpu.return
func.func @window(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
