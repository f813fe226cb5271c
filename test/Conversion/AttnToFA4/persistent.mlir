// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=persistent=true -canonicalize -cse | FileCheck %s

// Persistent FA3: one CTA per SM (132 on sm_90a) walks the work tiles
// blockIdx.x, blockIdx.x + gridDim.x, ... of the ceil_div(Sq, 128) * Hq * B
// list. Producer and consumers each loop over the same work tiles carrying
// (work tiles done, K/V ring tiles used), so the K/V ring and the Q buffer's
// barrier parities continue from one work tile to the next. The producer
// reloads Q once the consumers have released the previous work tile's Q on
// the Q-empty barrier (1), which they do after their last P V, before the
// epilogue.

// Causal d = 128: the work list has ceil_div(Sq, 128) * 6 * B tiles.
// CHECK-LABEL: func @causal
// CHECK: fa4.abi = {{{.*}}grid = {{\[}}["132"], ["1"], ["1"]]
// CHECK: gpu.func @fa4_fa3_causal_sm_90a(
// CHECK: %[[ROWBLOCKS:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[HB:.*]] = arith.muli %{{.*}}, %c6_i32 : i32
// CHECK-NEXT: %[[NUMWORK:.*]] = arith.muli %[[ROWBLOCKS]], %[[HB]] : i32
// CHECK-NEXT: %[[FIRST:.*]] = gpu.block_id x
// CHECK-NEXT: %[[STRIDE:.*]] = gpu.grid_dim x
// Producer: the work loop, starting with no work tiles done and no ring
// tiles used; heaviest first: row block = ceil_div(Sq, 128) - 1 - work /
// (6 * B).
// CHECK: fa4.warp_specialize
// CHECK: %[[END:.*]] = arith.index_cast %[[NUMWORK]] : i32 to index
// CHECK-NEXT: %{{.*}}:2 = scf.for %[[W:.*]] = %[[FIRST]] to %[[END]] step %[[STRIDE]] iter_args(%[[DONE:.*]] = %c0_i32, %[[USED:.*]] = %c0_i32) -> (i32, i32)
// CHECK-NEXT: %[[WORK:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[WORK]], %[[HB]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[ROWBLOCKS]], %c1_i32 : i32
// CHECK-NEXT: arith.subi %[[LAST]], %[[PASS]] : i32
// After the first work tile, wait for the consumers to release the previous
// Q: Q empty (barrier 1), parity (done - 1) & 1; then Q full (barrier 0).
// CHECK: %[[AGAIN:.*]] = arith.cmpi sgt, %[[DONE]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[AGAIN]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[DONE]], %c1_i32 : i32
// CHECK-NEXT: %[[QPARITY:.*]] = arith.andi %[[PREV]], %c1_i32 : i32
// CHECK-NEXT: %[[QEMPTY:.*]] = fa4.mbarrier.get %c1_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[QEMPTY]] parity %[[QPARITY]]
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// K/V: the ring continues at ring tile = ring tiles used + t.
// CHECK: scf.for %[[T:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK-NEXT: %[[TI:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK-NEXT: %[[RING:.*]] = arith.addi %[[USED]], %[[TI]] : i32
// CHECK-NEXT: arith.remui %[[RING]], %c2_i32 : i32
// One more work tile done; its tiles used the ring.
// CHECK: %[[NEXTDONE:.*]] = arith.addi %[[DONE]], %c1_i32 : i32
// CHECK-NEXT: %[[NEXTUSED:.*]] = arith.addi %[[USED]], %{{.*}} : i32
// CHECK-NEXT: scf.yield %[[NEXTDONE]], %[[NEXTUSED]] : i32, i32
// Consumers: the same work loop; Q full of this work tile with parity
// done & 1; K tiles at ring tile used + t; Q released before the epilogue.
// CHECK: }, {
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %[[STRIDE]] iter_args(%[[CDONE:.*]] = %c0_i32, %[[CUSED:.*]] = %c0_i32) -> (i32, i32)
// CHECK: %[[CQPARITY:.*]] = arith.andi %[[CDONE]], %c1_i32 : i32
// CHECK-NEXT: %[[CQFULL:.*]] = fa4.mbarrier.get %c0_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[CQFULL]] parity %[[CQPARITY]]
// CHECK: scf.for
// CHECK: arith.addi %[[CUSED]], %{{.*}} : i32
// CHECK: fa4.mma
// CHECK: %[[CQEMPTY:.*]] = fa4.mbarrier.get %c1_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[CQEMPTY]]
// CHECK-NEXT: fa4.epilogue
// CHECK: scf.yield %{{.*}}, %{{.*}} : i32, i32
// Consumer 0's last GEMM turn comes after all work tiles.
// CHECK-NEXT: }
// CHECK-NEXT: arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: scf.if
// CHECK-NEXT: nvvm.barrier id
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// No mask, 4 heads: the row blocks of one head are adjacent in the work list
// (row block = work % ceil_div(Sq, 128), then head and batch), so CTAs
// running together share K and V in L2; nothing is reversed.
// CHECK-LABEL: func @no_mask
// CHECK: gpu.func @fa4_fa3_no_mask_sm_90a(
// CHECK: %[[ROWBLOCKS:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK: fa4.warp_specialize
// CHECK: scf.for %[[W:.*]] = %{{.*}} iter_args
// CHECK-NEXT: %[[WORK:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK-NEXT: %[[RB:.*]] = arith.remui %[[WORK]], %[[ROWBLOCKS]] : i32
// CHECK-NEXT: %[[HB:.*]] = arith.divui %[[WORK]], %[[ROWBLOCKS]] : i32
// CHECK-NEXT: arith.muli %[[RB]], %c128_i32 : i32
// CHECK-NEXT: arith.remui %[[HB]], %c4_i32 : i32
// CHECK-NEXT: arith.divui %[[HB]], %c4_i32 : i32
func.func @no_mask(%q: tensor<?x?x4x64xbf16>, %k: tensor<?x?x4x64xbf16>, %v: tensor<?x?x4x64xbf16>) -> tensor<?x?x4x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16> -> tensor<?x?x4x64xbf16>
  return %o : tensor<?x?x4x64xbf16>
}
