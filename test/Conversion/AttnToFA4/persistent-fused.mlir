// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4="persistent=true fuse-work-tiles=true" -canonicalize -cse | FileCheck %s

// Persistent FA3 with fuse-work-tiles (off by default: measured 0-4%
// slower, bench/RESULTS.md session 8): each consumer's work tile runs into
// the next. The work loop carries the softmax state (row
// max, row sum, P of the last step; O is zero at every tile's start, so
// canonicalisation drops it), the ring position of the tile's first K/V
// tile, and whether the tile's step 0 already ran in the previous tile's
// last GEMM turn. (persistent.mlir checks the producer and the unfused
// consumer.)

// CHECK-LABEL: func @causal
// CHECK: }, {
// CHECK-NEXT: ^bb0(%[[C:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[ZERO_O:.*]] = fa4.splat %{{.*}} : !fa4.frag<64x128xf32>
// At BN = 128 the zero P is the zero O, rounded.
// CHECK-NEXT: fa4.truncf %[[ZERO_O]] : <64x128xf32> to <64x128xbf16>
// CHECK-NEXT: %[[NO_MAX:.*]] = fa4.splat %{{.*}} : !fa4.rows<64xf32>
// CHECK-NEXT: %[[NO_SUM:.*]] = fa4.splat %{{.*}} : !fa4.rows<64xf32>
// CHECK: scf.for %[[W:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[MAX:.*]] = %[[NO_MAX]], %[[SUM:.*]] = %[[NO_SUM]], %[[P:.*]] = %{{.*}}, %[[RING:.*]] = %c0_i32, %[[STARTED:.*]] = %false) -> (!fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x128xbf16>, i32, i1) {
// CHECK-NEXT: %[[DONE:.*]] = arith.index_cast %[[W]] : index to i32
// Step 0 unless the previous tile's last turn ran it: wait for this
// consumer's Q tile (Q full, barrier `consumer`, parity done & 1), then, if
// the tile sees any key, S = Q K^T alone and its softmax from -inf / 0.
// CHECK: %[[ROWOFF:.*]] = arith.muli %[[C]], %c64_i32 : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %{{.*}}, %[[ROWOFF]] : i32
// CHECK-NEXT: %[[S0:.*]]:4 = scf.if %[[STARTED]] -> (!fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x128xbf16>) {
// CHECK-NEXT: scf.yield %[[ZERO_O]], %[[MAX]], %[[SUM]], %[[P]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[QPARITY:.*]] = arith.andi %[[DONE]], %c1_i32 : i32
// CHECK-NEXT: %[[QFULL:.*]] = fa4.mbarrier.get %[[C]] offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[QFULL]] parity %[[QPARITY]]
// CHECK: fa4.mma %
// CHECK-NOT: fa4.mma %
// CHECK: fa4.softmax %{{.*}} max %[[NO_MAX]] sum %[[NO_SUM]]
// The remaining steps from 1, each with the previous step's P V.
// CHECK: %[[STEPS:.*]]:4 = scf.for %{{.*}} = %c1 to %{{.*}} step %c1 iter_args(%{{.*}} = %[[S0]]#0, %{{.*}} = %[[S0]]#1, %{{.*}} = %[[S0]]#2, %{{.*}} = %[[S0]]#3)
// CHECK-COUNT-2: fa4.mma %
// CHECK: scf.yield
// CHECK-NEXT: }
// The consumer's Q tile is free (Q empty, 2 + consumer).
// CHECK-NEXT: %[[QEI:.*]] = arith.addi %[[C]], %c2_i32 : i32
// CHECK-NEXT: %[[QEMPTY:.*]] = fa4.mbarrier.get %[[QEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[QEMPTY]]
// The next work tile (done + 1): fused when it exists and both it and this
// tile see keys.
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[DONE]], %c1_i32 : i32
// CHECK: %[[NEXTRING:.*]] = arith.addi %[[RING]], %[[TILES:.*]] : i32
// CHECK-NEXT: %[[NEXTROW:.*]] = arith.addi %{{.*}}, %[[ROWOFF]] : i32
// CHECK-NEXT: %[[HASNEXT:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : i32
// CHECK-NEXT: %[[HERE:.*]] = arith.cmpi sgt, %[[TILES]], %c0_i32 : i32
// CHECK-NEXT: %[[THERE:.*]] = arith.cmpi sgt, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[HERE]], %[[THERE]] : i1
// CHECK-NEXT: %[[FUSE:.*]] = arith.andi %[[HASNEXT]], %[[BOTH]] : i1
// CHECK-NEXT: %[[NEXTSTATE:.*]]:3 = scf.if %[[FUSE]] -> (!fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x128xbf16>) {
// One GEMM turn: wait for the next tile's first K (K full, 4 + slot) and
// the turn, this tile's last P V (after V full, 6 + slot), then the next
// tile's Q (Q full, parity (done + 1) & 1) and its first Q K^T.
// CHECK: %[[KFULL:.*]] = fa4.mbarrier.get %{{.*}} offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[KFULL]] parity
// CHECK-NEXT: nvvm.barrier id
// CHECK: fa4.mbarrier.wait
// CHECK: %[[OUT:.*]] = fa4.mma %[[STEPS]]#3, %{{.*}}, %[[STEPS]]#0 : !fa4.frag<64x128xbf16>, <128x128xbf16, mn_major>, <64x128xf32>
// CHECK-NEXT: %[[NQPARITY:.*]] = arith.andi %[[NEXT]], %c1_i32 : i32
// CHECK-NEXT: %[[NQFULL:.*]] = fa4.mbarrier.get %[[C]] offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[NQFULL]] parity %[[NQPARITY]]
// CHECK: %[[S:.*]] = fa4.mma %{{.*}}, %{{.*}}, %{{.*}} : !fa4.smem_tile<64x128xbf16, k_major>, <128x128xbf16, k_major>, <64x128xf32>
// CHECK-NEXT: nvvm.barrier.arrive id
// The P V, issued first, completes first: its V slot (V empty, 10 + slot)
// frees and O leaves while the Q K^T runs; then S is waited for, its K slot
// (K empty, 8 + slot) freed, masked from the next tile's first key and row,
// and the softmax starts from -inf / 0.
// CHECK-NEXT: fa4.mma.wait {pending = 1 : i64}
// CHECK-NEXT: %[[VEI:.*]] = arith.addi %{{.*}}, %c10_i32 : i32
// CHECK-NEXT: %[[VEMPTY:.*]] = fa4.mbarrier.get %[[VEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[VEMPTY]]
// CHECK-NEXT: fa4.epilogue %[[OUT]], %[[STEPS]]#1, %[[STEPS]]#2 to %{{.*}}{{\[}}%{{.*}}, %[[ROW]], %{{.*}}]
// CHECK-NEXT: fa4.mma.wait
// CHECK-NEXT: %[[KEI:.*]] = arith.addi %{{.*}}, %c8_i32 : i32
// CHECK-NEXT: %[[KEMPTY:.*]] = fa4.mbarrier.get %[[KEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[KEMPTY]]
// CHECK-NEXT: %[[MASKED:.*]] = fa4.mask %[[S]] mask #attn.mask<causal> keys %{{.*}} rows %[[NEXTROW]] sq
// CHECK-NEXT: %{{.*}}, %[[NMAX:.*]], %[[NSUM:.*]], %{{.*}} = fa4.softmax %[[MASKED]] max %[[NO_MAX]] sum %[[NO_SUM]]
// CHECK-NEXT: %[[NP:.*]] = fa4.truncf
// CHECK-NEXT: scf.yield %[[NMAX]], %[[NSUM]], %[[NP]]
// Otherwise this tile drains alone: its last P V outside a GEMM turn, O,
// and the next tile starts from scratch.
// CHECK-NEXT: } else {
// CHECK: fa4.mma %[[STEPS]]#3
// CHECK: fa4.epilogue %{{.*}}, %[[STEPS]]#1, %[[STEPS]]#2 to %{{.*}}{{\[}}%{{.*}}, %[[ROW]], %{{.*}}]
// CHECK-NEXT: scf.yield %[[NO_MAX]], %[[NO_SUM]], %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[NEXTSTATE]]#0, %[[NEXTSTATE]]#1, %[[NEXTSTATE]]#2, %[[NEXTRING]], %[[FUSE]]
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
