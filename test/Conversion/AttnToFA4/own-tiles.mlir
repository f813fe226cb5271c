// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// Under a causal mask each consumer of the plain kernel (one work tile per
// CTA) runs its GEMMs only on the K/V tiles its own 64 rows see: at
// d = 256 (BN = 80) the first consumer of a 128-row block often sees one
// tile fewer than the block. Its own count: keyEnd = min(Skv, last own row
// + Skv - Sq + 1), clamped at 0, rounded up to whole 80-key tiles, at most
// the block's. Step 0 and the loop run to it; after the last P V (which
// releases the consumer's last V slot) the consumer only keeps its turns
// for the block's remaining tiles: K full (4 + slot), its turn and the
// next's, K empty (8 + slot), V full (6 + slot), V empty (10 + slot);
// then its epilogue.
// CHECK-LABEL: gpu.func @fa4_hopper_causal_d256_sm_90a(
// CHECK-SAME: %{{[a-z0-9]+}}: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32,
// CHECK: } else {
// CHECK-NEXT: %[[QFULL:.*]] = fa4.mbarrier.get %{{.*}} offset 229376
// CHECK-NEXT: fa4.mbarrier.wait %[[QFULL]] parity %c0_i32
// CHECK-NEXT: %[[ROWEND:.*]] = arith.addi %[[ROW:.*]], %c64_i32 : i32
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[ROWEND]], %[[SQ]] : i32
// CHECK-NEXT: %[[LASTROW:.*]] = arith.subi %[[CLAMPED]], %c1_i32 : i32
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.addi %[[LASTROW]], %{{.*}} : i32
// CHECK-NEXT: %[[DIAG:.*]] = arith.addi %[[SHIFTED]], %c1_i32 : i32
// CHECK-NEXT: %[[KEYEND:.*]] = arith.minsi %[[SKV]], %[[DIAG]] : i32
// CHECK-NEXT: %[[NONNEG:.*]] = arith.maxsi %[[KEYEND]], %c0_i32 : i32
// CHECK-NEXT: %[[ROUND:.*]] = arith.addi %[[NONNEG]], %c79_i32 : i32
// CHECK-NEXT: %[[ENDTILE:.*]] = arith.divui %[[ROUND]], %c80_i32 : i32
// CHECK-NEXT: %[[OWNPOS:.*]] = arith.maxsi %[[ENDTILE]], %c0_i32 : i32
// CHECK-NEXT: %[[OWN:.*]] = arith.minsi %[[BLOCK:.*]], %[[OWNPOS]] : i32
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[OWN]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[ANY]]
// CHECK: %[[OWNIDX:.*]] = arith.index_cast %[[OWN]] : i32 to index
// CHECK-NEXT: %[[LOOP:.*]]:4 = scf.for %{{.*}} = %c1 to %[[OWNIDX]] step %c1
// The last P V, of the consumer's own last tile.
// CHECK: scf.if %[[ANY]]
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[OWN]], %c1_i32 : i32
// CHECK: fa4.mma %[[LOOP]]#3, %{{.*}}, %[[LOOP]]#0
// CHECK-NEXT: fa4.mma.wait
// CHECK-NEXT: %[[LVE:.*]] = arith.addi %{{.*}}, %c10_i32 : i32
// CHECK-NEXT: %[[LVEMPTY:.*]] = fa4.mbarrier.get %[[LVE]]
// CHECK-NEXT: fa4.mbarrier.arrive %[[LVEMPTY]]
// CHECK: %[[BLOCKIDX:.*]] = arith.index_cast %[[BLOCK]] : i32 to index
// CHECK-NEXT: scf.for %[[T:.*]] = %[[OWNIDX]] to %[[BLOCKIDX]] step %c1 {
// CHECK-NOT: fa4.mma
// CHECK: %[[TSLOT:.*]] = arith.remui %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: %[[KF:.*]] = arith.addi %[[TSLOT]], %c4_i32 : i32
// CHECK-NEXT: %[[KFULL:.*]] = fa4.mbarrier.get %[[KF]]
// CHECK-NEXT: fa4.mbarrier.wait %[[KFULL]]
// CHECK-NEXT: nvvm.barrier id
// CHECK-NEXT: nvvm.barrier.arrive id
// CHECK-NEXT: arith.addi %[[TSLOT]], %c8_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: arith.addi %[[TSLOT]], %c6_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.wait
// CHECK-NEXT: arith.addi %[[TSLOT]], %c10_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: }
// CHECK: fa4.epilogue.stage
// The looped twin (up to 512 keys at d = 256) keeps the block's count for
// both consumers: there the trailing turns cost more than the GEMMs they
// save (D-22). Its last P V is followed by the
// epilogue's staging offset, with no loop of turns between.
// CHECK-LABEL: gpu.func @fa4_hopper_causal_d256_sm_90a_persistent(
// CHECK: fa4.mma %{{.*}}#3, %{{.*}}, %{{.*}}#0 : !fa4.frag<64x64xbf16>
// CHECK-NEXT: fa4.mma.wait
// CHECK-NEXT: arith.addi %{{.*}}, %c10_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: arith.muli %{{.*}}, %c8192_i32 : i32
func.func @causal_d256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}

// -----

// Without a mask every consumer sees every key: one count, no trailing
// turns; the loop runs to the block's count.
// CHECK-LABEL: gpu.func @fa4_hopper_none_d256_sm_90a(
// CHECK: } else {
// CHECK-NEXT: %[[QFULL:.*]] = fa4.mbarrier.get %{{.*}} offset
// CHECK-NEXT: fa4.mbarrier.wait %[[QFULL]] parity %c0_i32
// CHECK-NEXT: fa4.splat
// CHECK-NOT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
// CHECK: fa4.epilogue.stage
func.func @none_d256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}

// -----

// A window's right bound ends keys at a diagonal too (here 32 keys past
// it): the consumer's keyEnd is min(Skv, last own row + Skv - Sq + 33).
// CHECK-LABEL: gpu.func @fa4_hopper_right_window_d256_sm_90a(
// CHECK-SAME: %{{[a-z0-9]+}}: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32,
// The consumer's Q full is barrier `consumer` (a block argument).
// CHECK: %[[QFULL:.*]] = fa4.mbarrier.get %arg{{[0-9]+}} offset 229376
// CHECK-NEXT: fa4.mbarrier.wait %[[QFULL]] parity %c0_i32
// CHECK-NEXT: %[[ROWEND:.*]] = arith.addi %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minsi %[[ROWEND]], %[[SQ]] : i32
// CHECK-NEXT: %[[LASTROW:.*]] = arith.subi %[[CLAMPED]], %c1_i32 : i32
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.addi %[[LASTROW]], %{{.*}} : i32
// CHECK-NEXT: %[[DIAG:.*]] = arith.addi %[[SHIFTED]], %c33_i32 : i32
// CHECK-NEXT: arith.minsi %[[SKV]], %[[DIAG]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 {
// CHECK-NOT: fa4.mma
// CHECK: nvvm.barrier id
// CHECK-NEXT: nvvm.barrier.arrive id
// CHECK: fa4.epilogue.stage
func.func @right_window_d256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}
