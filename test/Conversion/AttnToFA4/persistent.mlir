// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a consumer-warpgroups=2" --convert-attn-to-fa4="persistent=true tma-store-o=false" -canonicalize -cse | FileCheck %s
// (consumer-warpgroups=2 holds every depth to two consumers; three-consumers.mlir
// and twin-plan.mlir check the d = 64 default of three.)

// Persistent FA3: the grid is the ceil_div(Sq, 128) * Hq * B work tiles,
// which the runtime may launch on one CTA per SM (the manifest's persistent
// rule); CTA i walks work tiles i, i + gridDim.x, ... Producer and consumers
// each count the same work tiles, carrying the K/V ring tiles used (the
// count is the loop's induction variable), so the K and V rings (K empty
// barrier 8 + slot, V empty 10 + slot) and the Q tiles' barrier parities
// continue from one work tile to the next. The producer reloads a
// consumer's Q tile once that consumer has released the previous work
// tile's on its Q-empty barrier (2 + consumer), which it does once its last
// QK^T is done, so the next Q loads under the last P V and the epilogue;
// the next work tile's first K goes before that wait. Each work tile
// drains before the next starts. This is the protocol of a looped kernel with
// one Q buffer: without tma-store-o, or where a second does not fit
// (double-q.mlir has the default's two).

// Causal d = 128: the work list has ceil_div(Sq, 128) * 6 * B tiles.
// CHECK-LABEL: func @causal
// CHECK: fa4.abi = #fa4.abi<{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]]
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2147483647>
// CHECK: gpu.func @fa4_hopper_causal_sm_90a(
// CHECK: %[[ROWBLOCKS:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[HB:.*]] = arith.muli %{{.*}}, %c6_i32 : i32
// CHECK-NEXT: %[[NUMWORK:.*]] = arith.muli %[[ROWBLOCKS]], %[[HB]] : i32
// CHECK-NEXT: %[[FIRST:.*]] = gpu.block_id x
// CHECK-NEXT: %[[FIRST32:.*]] = arith.index_cast %[[FIRST]] : index to i32
// CHECK-NEXT: %[[STRIDE:.*]] = gpu.grid_dim x
// CHECK-NEXT: %[[STRIDE32:.*]] = arith.index_cast %[[STRIDE]] : index to i32
// Producer: this CTA's work tiles, ceil((work tiles - blockIdx.x) /
// gridDim.x), none when blockIdx.x is past the list; the loop starts with no
// ring tiles used; work tile = blockIdx.x + done * gridDim.x. Under a causal
// mask the looped CTAs take row blocks R - 1 - k and k of a pair in rounds
// 2m and 2m + 1 of gridDim.x work tiles (pairedSlot, work-order.mlir): the
// heavy one, R - 1 - k, in even rounds.
// CHECK: fa4.warp_specialize
// CHECK: %[[SM1:.*]] = arith.subi %[[STRIDE32]], %c1_i32 : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[NUMWORK]], %[[FIRST32]] : i32
// CHECK-NEXT: %[[LEFTUP:.*]] = arith.addi %[[LEFT]], %[[SM1]] : i32
// CHECK-NEXT: %[[MINE:.*]] = arith.divui %[[LEFTUP]], %[[STRIDE32]] : i32
// CHECK-NEXT: %[[ANYWORK:.*]] = arith.cmpi sgt, %[[NUMWORK]], %[[FIRST32]] : i32
// CHECK-NEXT: %[[MYWORK:.*]] = arith.select %[[ANYWORK]], %[[MINE]], %c0_i32 : i32
// CHECK-NEXT: %[[END:.*]] = arith.index_cast %[[MYWORK]] : i32 to index
// CHECK-NEXT: %{{.*}} = scf.for %[[W:.*]] = %c0 to %[[END]] step %c1 iter_args(%[[USED:.*]] = %c0_i32) -> (i32)
// CHECK-NEXT: %[[DONE:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK-NEXT: %[[SKIP:.*]] = arith.muli %[[DONE]], %[[STRIDE32]] : i32
// CHECK-NEXT: %[[WORK:.*]] = arith.addi %[[FIRST32]], %[[SKIP]] : i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[WORK]], %[[STRIDE32]] : i32
// CHECK: %[[PARITY:.*]] = arith.remui %[[ROUND]], %c2_i32 : i32
// CHECK-NEXT: %[[EVEN:.*]] = arith.cmpi ult, %[[PARITY]], %c1_i32 : i32
// CHECK: %[[HEAVY:.*]] = arith.select %{{.*}}, %[[EVEN]], %{{.*}} : i1
// CHECK: %[[K:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[ROWBLOCKS]], %c1_i32 : i32
// CHECK-NEXT: %[[HEAVYBLOCK:.*]] = arith.subi %[[LAST]], %[[K]] : i32
// CHECK-NEXT: arith.select %[[HEAVY]], %[[HEAVYBLOCK]], %[[K]] : i32
// K/V: K runs one tile ahead of V; both rings continue at ring tile = ring
// tiles used + t. K(0) is at ring tile `used`: once the ring has wrapped
// (used >= 2) it waits on K empty (8 + slot) with parity (used / 2 - 1) & 1.
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[NTILES:.*]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[K0SLOT:.*]] = arith.remui %[[USED]], %c2_i32 : i32
// CHECK-NEXT: %[[K0EI:.*]] = arith.addi %[[K0SLOT]], %c8_i32 : i32
// CHECK-NEXT: %[[K0EMPTY:.*]] = fa4.mbarrier.get %[[K0EI]] offset 163840
// CHECK-NEXT: %[[K0WRAP:.*]] = arith.cmpi uge, %[[USED]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[K0WRAP]] {
// CHECK-NEXT: %[[K0ROUND:.*]] = arith.divui %[[USED]], %c2_i32 : i32
// CHECK-NEXT: %[[K0PREV:.*]] = arith.subi %[[K0ROUND]], %c1_i32 : i32
// CHECK-NEXT: %[[K0PARITY:.*]] = arith.andi %[[K0PREV]], %c1_i32 : i32
// CHECK-NEXT: fa4.mbarrier.wait %[[K0EMPTY]] parity %[[K0PARITY]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[K0FI:.*]] = arith.addi %[[K0SLOT]], %c4_i32 : i32
// CHECK-NEXT: %[[K0FULL:.*]] = fa4.mbarrier.get %[[K0FI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[K0FULL]] bytes 32768
// CHECK-COUNT-2: fa4.tma.load %arg1[{{.*}}, %c0_i32, {{.*}}] to %{{.*}}, %[[K0FULL]]
// CHECK-NEXT: }
// Then each consumer's Q tile: after the first work tile, wait for that
// consumer to release the previous one: Q empty (barrier 2 + tile), parity
// (done - 1) & 1; then its two boxes on Q full (barrier tile).
// CHECK-NEXT: %[[AGAIN:.*]] = arith.cmpi sgt, %[[DONE]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[AGAIN]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[DONE]], %c1_i32 : i32
// CHECK-NEXT: %[[QPARITY:.*]] = arith.andi %[[PREV]], %c1_i32 : i32
// CHECK-NEXT: %[[QEMPTY:.*]] = fa4.mbarrier.get %c2_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[QEMPTY]] parity %[[QPARITY]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[QFULL0:.*]] = fa4.mbarrier.get %c0_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[QFULL0]] bytes 16384
// CHECK-COUNT-2: fa4.tma.load %arg0{{.*}}, %[[QFULL0]]
// CHECK: scf.if %[[AGAIN]] {
// CHECK: %[[QEMPTY1:.*]] = fa4.mbarrier.get %c3_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[QEMPTY1]] parity %[[QPARITY]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[QFULL1:.*]] = fa4.mbarrier.get %c1_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[QFULL1]] bytes 16384
// CHECK-COUNT-2: fa4.tma.load %arg0{{.*}}, %[[QFULL1]]
// Then for t = 1 .. tiles - 1: K(t) on K empty (8 + slot of used + t), then
// V(t - 1) on V empty (10 + slot of used + t - 1).
// CHECK: %[[TEND:.*]] = arith.index_cast %[[NTILES]] : i32 to index
// CHECK-NEXT: scf.for %[[T:.*]] = %c1 to %[[TEND]] step %c1 {
// CHECK-NEXT: %[[TI:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK-NEXT: %[[RING:.*]] = arith.addi %[[USED]], %[[TI]] : i32
// CHECK-NEXT: %[[KSLOT:.*]] = arith.remui %[[RING]], %c2_i32 : i32
// CHECK-NEXT: %[[KEI:.*]] = arith.addi %[[KSLOT]], %c8_i32 : i32
// CHECK-NEXT: %[[KEMPTY:.*]] = fa4.mbarrier.get %[[KEI]] offset 163840
// CHECK-NEXT: arith.cmpi uge, %[[RING]], %c2_i32 : i32
// CHECK: fa4.mbarrier.wait %[[KEMPTY]] parity
// CHECK: fa4.tma.load %arg1
// CHECK-NEXT: %[[KBOX1:.*]] = arith.addi
// CHECK-NEXT: fa4.tma.load %arg1
// CHECK-NEXT: %[[PT:.*]] = arith.subi %[[TI]], %c1_i32 : i32
// CHECK-NEXT: %[[VRING:.*]] = arith.addi %[[USED]], %[[PT]] : i32
// CHECK-NEXT: %[[VSLOT:.*]] = arith.remui %[[VRING]], %c2_i32 : i32
// CHECK-NEXT: %[[VEI:.*]] = arith.addi %[[VSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[VEMPTY:.*]] = fa4.mbarrier.get %[[VEI]] offset 163840
// CHECK-NEXT: arith.cmpi uge, %[[VRING]], %c2_i32 : i32
// CHECK: fa4.mbarrier.wait %[[VEMPTY]] parity
// CHECK: fa4.tma.load %arg2
// CHECK-NEXT: %[[VBOX1:.*]] = arith.addi
// CHECK-NEXT: fa4.tma.load %arg2
// CHECK-NEXT: }
// V of the last tile at ring tile used + tiles - 1.
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[LT:.*]] = arith.subi %[[NTILES]], %c1_i32 : i32
// CHECK-NEXT: %[[LRING:.*]] = arith.addi %[[USED]], %[[LT]] : i32
// CHECK-NEXT: %[[LSLOT:.*]] = arith.remui %[[LRING]], %c2_i32 : i32
// CHECK-NEXT: arith.addi %[[LSLOT]], %c10_i32 : i32
// CHECK: fa4.tma.load %arg2
// CHECK-NEXT: arith.addi
// CHECK-NEXT: fa4.tma.load %arg2
// CHECK-NEXT: }
// The work tile's K/V tiles used the rings.
// CHECK-NEXT: %[[NEXTUSED:.*]] = arith.addi %[[USED]], %[[NTILES]] : i32
// CHECK-NEXT: scf.yield %[[NEXTUSED]] : i32
// Consumers: the same work loop; its own Q tile's Q full (barrier
// consumer) with parity done & 1; K tiles at ring tile used + t, the K slot
// released (K empty, 8 + slot) right after the QK^T's wait; the last
// tile's V slot (V empty, 10 + slot) after its P V; its Q tile released
// (Q empty, 2 + consumer) as soon as the loop has waited for the last
// QK^T, before that P V and the epilogue.
// CHECK: }, {
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: scf.for %[[CW:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[CUSED:.*]] = %c0_i32) -> (i32)
// CHECK-NEXT: %[[CDONE:.*]] = arith.index_cast %[[CW]] : index to i32
// CHECK: %[[CQPARITY:.*]] = arith.andi %[[CDONE]], %c1_i32 : i32
// CHECK-NEXT: %[[CQFULL:.*]] = fa4.mbarrier.get %[[CONSUMER]] offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[CQFULL]] parity %[[CQPARITY]]
// CHECK: scf.for
// CHECK-NEXT: %[[CT:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[CRING:.*]] = arith.addi %[[CUSED]], %[[CT]] : i32
// CHECK-NEXT: %[[CSLOT:.*]] = arith.remui %[[CRING]], %c2_i32 : i32
// CHECK: fa4.mma
// CHECK: fa4.mma.wait
// CHECK-NEXT: %[[CKEI:.*]] = arith.addi %[[CSLOT]], %c8_i32 : i32
// CHECK-NEXT: %[[CKEMPTY:.*]] = fa4.mbarrier.get %[[CKEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[CKEMPTY]]
// CHECK: %[[CQEI:.*]] = arith.addi %[[CONSUMER]], %c2_i32 : i32
// CHECK-NEXT: %[[CQEMPTY:.*]] = fa4.mbarrier.get %[[CQEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[CQEMPTY]]
// CHECK: %[[CLT:.*]] = arith.subi %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: %[[CLRING:.*]] = arith.addi %[[CUSED]], %[[CLT]] : i32
// CHECK: %[[CLSLOT:.*]] = arith.remui %[[CLRING]], %c2_i32 : i32
// CHECK: fa4.mma.wait
// CHECK-NEXT: %[[CVEI:.*]] = arith.addi %[[CLSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[CVEMPTY:.*]] = fa4.mbarrier.get %[[CVEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[CVEMPTY]]
// O from registers (tma-store-o=false: the default stages it over a second
// Q buffer, double-q.mlir; or box by box, tma-store-o.mlir).
// CHECK: fa4.epilogue %{{.*}} to %arg3
// CHECK-NEXT: %{{.*}} = arith.addi
// CHECK-NEXT: scf.yield %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-NOT: fa4.tma.store.wait
// Consumer 0's last GEMM turn comes after all work tiles.
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
// CHECK: gpu.func @fa4_hopper_no_mask_sm_90a(
// CHECK: %[[ROWBLOCKS:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK: fa4.warp_specialize
// CHECK: scf.for %[[W:.*]] = %{{.*}} iter_args
// CHECK-NEXT: %[[DONE:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK-NEXT: %[[SKIP:.*]] = arith.muli %[[DONE]], %{{.*}} : i32
// CHECK-NEXT: %[[WORK:.*]] = arith.addi %{{.*}}, %[[SKIP]] : i32
// CHECK-NEXT: %[[RB:.*]] = arith.remui %[[WORK]], %[[ROWBLOCKS]] : i32
// CHECK-NEXT: %[[HB:.*]] = arith.divui %[[WORK]], %[[ROWBLOCKS]] : i32
// CHECK-NEXT: arith.muli %[[RB]], %c128_i32 : i32
// CHECK-NEXT: arith.remui %[[HB]], %c4_i32 : i32
// CHECK-NEXT: arith.divui %[[HB]], %c4_i32 : i32
func.func @no_mask(%q: tensor<?x?x4x64xbf16>, %k: tensor<?x?x4x64xbf16>, %v: tensor<?x?x4x64xbf16>) -> tensor<?x?x4x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16> -> tensor<?x?x4x64xbf16>
  return %o : tensor<?x?x4x64xbf16>
}
