// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// d = 256 on sm_100a: two 128 x 256 O tiles would take all of TMEM, so the
// plan is one Q tile (S0, S1 and O0 = 128 + 128 + 256 columns), and two
// separate K+V stages (4 x 64 KB) do not fit next to the 64 KB Q tile, so
// K and V alternate in one ring of two 64 KB slots: K(t) in ring slot
// 2t mod 2, V(t) in (2t + 1) mod 2, each slot with a full barrier (1 +
// slot) and an empty barrier (3 + slot). Three warpgroup roles at 232 /
// 112 / 112 registers (the 384 x 168 launch pool).
// CHECK-LABEL: func @d256
// CHECK: block = [384, 1, 1]
// mbarriers: Q full; 2 full and 2 empty ring barriers (one arrival: the
// TMA's expect_tx, or the MMA thread's tcgen05.commit); S full, P ready
// (softmax + correction), O done, stats ready and O staged (for the
// epilogue warp) of the one Q tile.
// CHECK-COUNT-6: fa4.mbarrier.init %{{.*}} count 1
// CHECK-NEXT: fa4.mbarrier.get %c6_i32
// CHECK-NEXT: fa4.mbarrier.init %{{.*}} count 256
// CHECK: fa4.mbarrier.init %{{.*}} count 1
// CHECK: fa4.mbarrier.init %{{.*}} count 128
// CHECK-NEXT: fa4.mbarrier.get %c9_i32
// CHECK-NEXT: fa4.mbarrier.init %{{.*}} count 128
// CHECK-NEXT: fa4.fence.mbarrier_init
// CHECK: fa4.warp_specialize warpgroups [1, 1, 1] registers [232, 112, 112] {
// The loader: K(t) at ring index 2t, waiting for the slot's empty barrier
// (3 + slot) from the second round on, then four 64-column boxes into the
// slot (64 KB from byte 65536) on its full barrier (1 + slot).
// CHECK: scf.for
// CHECK: %[[KRING:.*]] = arith.muli %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: %[[KSLOT:.*]] = arith.remui %[[KRING]], %c2_i32 : i32
// CHECK-NEXT: %[[KREUSE:.*]] = arith.cmpi uge, %[[KRING]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[KREUSE]] {
// CHECK: %[[KEMPTYI:.*]] = arith.addi %[[KSLOT]], %c3_i32 : i32
// CHECK-NEXT: %[[KEMPTY:.*]] = fa4.mbarrier.get %[[KEMPTYI]]
// CHECK-NEXT: fa4.mbarrier.wait %[[KEMPTY]]
// CHECK: %[[KFULLI:.*]] = arith.addi %[[KSLOT]], %c1_i32 : i32
// CHECK-NEXT: %[[KFULL:.*]] = fa4.mbarrier.get %[[KFULLI]]
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[KFULL]] bytes 65536
// CHECK-NEXT: %[[KBASE:.*]] = arith.muli %[[KSLOT]], %c65536_i32 : i32
// CHECK-COUNT-4: fa4.tma.load %arg1
// V(t) at ring index 2t + 1, through the same slots and barriers.
// CHECK: %[[VRING:.*]] = arith.addi %[[KRING]], %c1_i32 : i32
// CHECK-NEXT: %[[VSLOT:.*]] = arith.remui %[[VRING]], %c2_i32 : i32
// CHECK: arith.addi %[[VSLOT]], %c3_i32 : i32
// CHECK: %[[VFULLI:.*]] = arith.addi %[[VSLOT]], %c1_i32 : i32
// CHECK-NEXT: %[[VFULL:.*]] = fa4.mbarrier.get %[[VFULLI]]
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[VFULL]] bytes 65536
// CHECK-COUNT-4: fa4.tma.load %arg2
// The MMA thread: S(0) = Q K(0)^T from ring slot 0 (full barrier 1), then
// slot 0 is released onto its empty barrier 3 by a commit.
// CHECK: fa4.mbarrier.get %c1_i32
// CHECK-NEXT: fa4.mbarrier.wait
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %false issued_by %{{.*}} : !fa4.smem_tile<128x256xbf16, k_major>, <128x256xbf16, k_major>, <128x128xf32>
// CHECK: fa4.tmem.commit
// CHECK-NEXT: %[[K0EMPTY:.*]] = fa4.mbarrier.get %c3_i32
// CHECK-NEXT: fa4.tmem.commit %[[K0EMPTY]] issued_by
// O += P V(t): P from TMEM, V MN-major from ring slot (2t + 1) mod 2.
// CHECK: scf.for
// CHECK: %[[TWICE:.*]] = arith.muli %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: %[[VR:.*]] = arith.addi %[[TWICE]], %c1_i32 : i32
// CHECK-NEXT: %[[VS:.*]] = arith.remui %[[VR]], %c2_i32 : i32
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} issued_by %{{.*}} : !fa4.tmem_tile<128x128xbf16>, <128x256xbf16, mn_major>, <128x256xf32>
func.func @d256(%q: tensor<?x?x6x256xbf16>, %k: tensor<?x?x3x256xbf16>, %v: tensor<?x?x3x256xbf16>) -> tensor<?x?x6x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x256xbf16>, tensor<?x?x3x256xbf16>, tensor<?x?x3x256xbf16> -> tensor<?x?x6x256xbf16>
  return %o : tensor<?x?x6x256xbf16>
}
