// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// Under a causal mask each consumer runs its GEMMs only on the K/V tiles
// its own 64 rows see: at d = 256 (BN = 80 in the plain kernel, 64 in the
// looped twin) the first consumer of a 128-row block often sees one tile
// fewer than the block. Its own count: keyEnd = min(Skv, last own row +
// Skv - Sq + 1), clamped at 0, rounded up to whole tiles, at most the
// block's. Step 0 and the loop run to it. For the block's tiles past it
// the consumer only keeps the barriers' counts: first the turns of up to
// kvStages - 1 of them (K full 4 + slot, its turn and the next's, K empty
// 8 + slot), so that the other consumer's turns do not wait for this one's
// last P V; then its last P V (which releases its last V slot); then their
// V tiles (V full 6 + slot, V empty 10 + slot); then both for any further
// tile (K tile own + kvStages lands only after V tile own - 1 is
// released); then its epilogue.
// CHECK-LABEL: gpu.func @fa4_fa3_causal_d256_sm_90a(
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
// Two K/V stages: one early turn.
// CHECK: %[[EARLYEND:.*]] = arith.addi %[[OWN]], %c1_i32 : i32
// CHECK-NEXT: %[[EARLY:.*]] = arith.minsi %[[BLOCK]], %[[EARLYEND]] : i32
// CHECK-NEXT: %[[EARLYIDX:.*]] = arith.index_cast %[[EARLY]] : i32 to index
// CHECK-NEXT: scf.for %{{.*}} = %[[OWNIDX]] to %[[EARLYIDX]] step %c1 {
// CHECK-NOT: fa4.mma
// CHECK: %[[KSLOT:.*]] = arith.remui %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: %[[KF:.*]] = arith.addi %[[KSLOT]], %c4_i32 : i32
// CHECK-NEXT: %[[KFULL:.*]] = fa4.mbarrier.get %[[KF]]
// CHECK-NEXT: fa4.mbarrier.wait %[[KFULL]]
// CHECK-NEXT: nvvm.barrier id
// CHECK-NEXT: nvvm.barrier.arrive id
// CHECK-NEXT: arith.addi %[[KSLOT]], %c8_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: }
// The last P V, of the consumer's own last tile.
// CHECK-NEXT: scf.if %[[ANY]]
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[OWN]], %c1_i32 : i32
// CHECK: fa4.mma %[[LOOP]]#3, %{{.*}}, %[[LOOP]]#0
// CHECK-NEXT: fa4.mma.wait
// CHECK-NEXT: %[[LVE:.*]] = arith.addi %{{.*}}, %c10_i32 : i32
// CHECK-NEXT: %[[LVEMPTY:.*]] = fa4.mbarrier.get %[[LVE]]
// CHECK-NEXT: fa4.mbarrier.arrive %[[LVEMPTY]]
// CHECK: scf.for %{{.*}} = %[[OWNIDX]] to %[[EARLYIDX]] step %c1 {
// CHECK-NOT: nvvm.barrier
// CHECK: %[[VSLOT:.*]] = arith.remui %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: arith.addi %[[VSLOT]], %c6_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.wait
// CHECK-NEXT: arith.addi %[[VSLOT]], %c10_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: }
// CHECK-NEXT: %[[BLOCKIDX:.*]] = arith.index_cast %[[BLOCK]] : i32 to index
// CHECK-NEXT: scf.for %{{.*}} = %[[EARLYIDX]] to %[[BLOCKIDX]] step %c1 {
// CHECK-NOT: fa4.mma
// CHECK: %[[TSLOT:.*]] = arith.remui %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: %[[TKF:.*]] = arith.addi %[[TSLOT]], %c4_i32 : i32
// CHECK-NEXT: %[[TKFULL:.*]] = fa4.mbarrier.get %[[TKF]]
// CHECK-NEXT: fa4.mbarrier.wait %[[TKFULL]]
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
// The looped twin (up to 512 keys at d = 256; BN = 64) too, inside its
// work loop: its own count in 64-key tiles, the early turn before its last
// P V.
// CHECK-LABEL: gpu.func @fa4_fa3_causal_d256_sm_90a_persistent(
// CHECK: %[[TQFULL:.*]] = fa4.mbarrier.get %arg{{[0-9]+}} offset 196608
// CHECK-NEXT: fa4.mbarrier.wait %[[TQFULL]] parity
// CHECK-NEXT: arith.addi %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: arith.maxsi
// CHECK-NEXT: %[[TROUND:.*]] = arith.addi %{{.*}}, %c63_i32 : i32
// CHECK-NEXT: %[[TEND:.*]] = arith.divui %[[TROUND]], %c64_i32 : i32
// CHECK-NEXT: %[[TOWNPOS:.*]] = arith.maxsi %[[TEND]], %c0_i32 : i32
// CHECK-NEXT: %[[TOWN:.*]] = arith.minsi %{{.*}}, %[[TOWNPOS]] : i32
// CHECK: %[[TEARLYEND:.*]] = arith.addi %[[TOWN]], %c1_i32 : i32
// CHECK: scf.for
// CHECK: nvvm.barrier id
// CHECK-NEXT: nvvm.barrier.arrive id
// CHECK: fa4.mma %{{.*}}#3, %{{.*}}, %{{.*}}#0 : !fa4.frag<64x64xbf16>
// CHECK: fa4.epilogue.stage
func.func @causal_d256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}

// -----

// Without a mask every consumer sees every key: one count, no trailing
// turns; the loop runs to the block's count.
// CHECK-LABEL: gpu.func @fa4_fa3_none_d256_sm_90a(
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
// CHECK-LABEL: gpu.func @fa4_fa3_right_window_d256_sm_90a(
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
