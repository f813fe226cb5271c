// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a consumer-warpgroups=2" --convert-attn-to-fa4=persistent=true -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a consumer-warpgroups=2" --convert-attn-to-fa4="persistent=true tma-store-o=false" -canonicalize -cse | FileCheck %s --check-prefix=ONEQ

// A looped (persistent) kernel with two Q buffers, where a second fits past
// the plan and O fits in a Q tile (HopperPlan::loopDoubleQ): work tile w
// of a CTA reads buffer w % 2. The producer loads the CTA's first Q at
// its first work tile and each later one under the work tile before it,
// once that tile's K and V are issued, so a work tile's Q is in shared
// memory before the tile starts (it was loaded after the previous tile's
// last Q K^T, and took 0.15-0.2 us of waiting per work tile at 512 keys).
// Each consumer stages its O over its own Q tile, dead after its last
// Q K^T, and its first thread releases the buffer once the store has read
// it, during the next work tile's step 0.
//
// d = 128 causal: the plan's 163968 bytes (Q tiles at 0 and 16384, barriers
// from 163840), then the second buffer from the swizzle atom at 164864 (Q
// tiles at 164864 and 181248) and its barriers from 197632: Q full 4224 +
// tile, Q empty 4226 + tile in units of the plan's barrier offset.
// CHECK-LABEL: func @causal
// CHECK: dynamic_smem_bytes = 197664
// Both buffers' Q empty barriers count one arrival: the storing thread's.
// CHECK: %[[QE0:.*]] = fa4.mbarrier.get %c2_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.init %[[QE0]] count 1
// CHECK: %[[QE1:.*]] = fa4.mbarrier.get %c4226_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.init %[[QE1]] count 1
// CHECK: %[[QF1:.*]] = fa4.mbarrier.get %c4225_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.init %[[QF1]] count 1
// CHECK: %[[QE1B:.*]] = fa4.mbarrier.get %c4227_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.init %[[QE1B]] count 1
// CHECK: fa4.mbarrier.init %{{.*}} count 256
// Producer: the first work tile's Q (buffer 0, no release to wait for).
// CHECK: fa4.warp_specialize
// CHECK: scf.for %[[W:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[USED:.*]] = %c0_i32) -> (i32)
// CHECK-NEXT: %[[DONE:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK: %[[FIRSTWORK:.*]] = arith.cmpi eq, %[[DONE]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRSTWORK]] {
// CHECK-NEXT: %[[F0:.*]] = fa4.mbarrier.get %c0_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[F0]] bytes 16384
// CHECK-NEXT: fa4.tma.load %arg0[%c0_i32, %{{.*}}] to %c0_i32, %[[F0]]
// CHECK-NEXT: fa4.tma.load %arg0[%c64_i32, %{{.*}}] to %c8192_i32, %[[F0]]
// CHECK-NEXT: %[[F1:.*]] = fa4.mbarrier.get %c1_i32 offset 163840
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[F1]] bytes 16384
// CHECK: fa4.tma.load %arg0[%c0_i32, %{{.*}}] to %c16384_i32, %[[F1]]
// CHECK-NOT: fa4.mbarrier.wait
// CHECK: }
// The work tile's K and V, then the next work tile's Q into buffer
// next % 2, decoded from its own index, after the release of the work tile
// two before (parity ((next - 2) / 2) % 2).
// CHECK: scf.for
// CHECK: fa4.tma.load %arg2
// CHECK: fa4.tma.load %arg2
// CHECK: %[[NEXT:.*]] = arith.addi %[[DONE]], %c1_i32 : i32
// CHECK-NEXT: %[[HASNEXT:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[HASNEXT]] {
// CHECK-NEXT: %[[NSKIP:.*]] = arith.muli %[[NEXT]], %{{.*}} : i32
// CHECK: %[[BUF:.*]] = arith.andi %[[NEXT]], %c1_i32 : i32
// CHECK-NEXT: %[[REUSE:.*]] = arith.cmpi sgt, %[[NEXT]], %c1_i32 : i32
// CHECK-NEXT: scf.if %[[REUSE]] {
// CHECK-NEXT: %[[TWOBACK:.*]] = arith.addi %[[DONE]], %c-1_i32 : i32
// CHECK-NEXT: %[[USES:.*]] = arith.divui %[[TWOBACK]], %c2_i32 : i32
// CHECK-NEXT: %[[EPAR:.*]] = arith.andi %[[USES]], %c1_i32 : i32
// CHECK-NEXT: %[[BUFE:.*]] = arith.muli %[[BUF]], %c4224_i32 : i32
// CHECK-NEXT: %[[E0I:.*]] = arith.addi %[[BUFE]], %c2_i32 : i32
// CHECK-NEXT: %[[E0:.*]] = fa4.mbarrier.get %[[E0I]] offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[E0]] parity %[[EPAR]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[NF0I:.*]] = arith.muli %[[BUF]], %c4224_i32 : i32
// CHECK-NEXT: %[[NF0:.*]] = fa4.mbarrier.get %[[NF0I]] offset 163840
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[NF0]] bytes 16384
// CHECK-NEXT: %[[NQ0:.*]] = arith.muli %[[BUF]], %c164864_i32 : i32
// CHECK-NEXT: fa4.tma.load %arg0[%c0_i32, %{{.*}}] to %[[NQ0]], %[[NF0]]
// CHECK: %[[NQ1:.*]] = arith.addi %[[NQ0]], %c16384_i32 : i32
// CHECK: fa4.tma.load %arg0[%c0_i32, %{{.*}}] to %[[NQ1]], %{{.*}}
// CHECK: }
// CHECK-NEXT: %[[NEXTUSED:.*]] = arith.addi %[[USED]], %{{.*}} : i32
// CHECK-NEXT: scf.yield %[[NEXTUSED]] : i32
// Consumer: its Q tile in buffer done % 2 (a run-time offset), its Q full
// with parity (done / 2) % 2.
// CHECK: }, {
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: scf.for %[[CW:.*]] = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %c0_i32) -> (i32)
// CHECK-NEXT: %[[CDONE:.*]] = arith.index_cast %[[CW]] : index to i32
// CHECK: %[[CBUF:.*]] = arith.andi %[[CDONE]], %c1_i32 : i32
// CHECK-NEXT: %[[CQTILE:.*]] = arith.muli %[[CONSUMER]], %c16384_i32 : i32
// CHECK-NEXT: %[[CBUFOFF:.*]] = arith.muli %[[CBUF]], %c164864_i32 : i32
// CHECK-NEXT: %[[CQ:.*]] = arith.addi %[[CQTILE]], %[[CBUFOFF]] : i32
// CHECK-NEXT: fa4.smem.tile %[[CQ]] : <64x128xbf16, k_major>
// CHECK: %[[CUSES:.*]] = arith.divui %[[CDONE]], %c2_i32 : i32
// CHECK-NEXT: %[[CPAR:.*]] = arith.andi %[[CUSES]], %c1_i32 : i32
// CHECK-NEXT: %[[CFI:.*]] = arith.muli %[[CBUF]], %c4224_i32 : i32
// CHECK-NEXT: %[[CFJ:.*]] = arith.addi %[[CONSUMER]], %[[CFI]] : i32
// CHECK-NEXT: %[[CF:.*]] = fa4.mbarrier.get %[[CFJ]] offset 163840
// CHECK-NEXT: fa4.mbarrier.wait %[[CF]] parity %[[CPAR]]
// After step 0, from the CTA's second work tile on, the first thread waits
// for the previous tile's stores to have read its Q tile and releases it.
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi sgt, %[[CDONE]], %c0_i32 : i32
// CHECK-NEXT: %[[RELEASES:.*]] = arith.andi %[[NOTFIRST]], %[[LANE0]] : i1
// CHECK-NEXT: scf.if %[[RELEASES]] {
// CHECK-NEXT: fa4.tma.store.wait
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[CDONE]], %c1_i32 : i32
// CHECK-NEXT: %[[PBUF:.*]] = arith.andi %[[PREV]], %c1_i32 : i32
// CHECK-NEXT: %[[PBI:.*]] = arith.muli %[[PBUF]], %c4224_i32 : i32
// CHECK-NEXT: %[[PBJ:.*]] = arith.addi %[[CONSUMER]], %[[PBI]] : i32
// CHECK-NEXT: %[[PEI:.*]] = arith.addi %[[PBJ]], %c2_i32 : i32
// CHECK-NEXT: %[[PE:.*]] = fa4.mbarrier.get %[[PEI]] offset 163840
// CHECK-NEXT: fa4.mbarrier.arrive %[[PE]]
// CHECK-NEXT: }
// No release after the K/V loop: the tile's O goes there.
// CHECK: scf.for
// CHECK-NOT: fa4.mbarrier.arrive %{{.*}}
// CHECK: fa4.mma.wait
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 0 plus %[[CQ]] of bf16
// CHECK: fa4.tma.store %{{.*}}[%c0_i32, {{.*}}] from %[[CQ]]
// CHECK: fa4.tma.store %{{.*}}[%c64_i32,
// CHECK-NOT: fa4.tma.store.wait
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: scf.if
// CHECK-NEXT: fa4.tma.store.wait
// CHECK: gpu.return
// Without a TMA store of O the looped kernel keeps one Q buffer, reloaded
// once its last Q K^T is done (persistent.mlir).
// ONEQ-LABEL: func @causal
// ONEQ: dynamic_smem_bytes = 163968
// ONEQ-NOT: 4224
// ONEQ-NOT: plus
// ONEQ: gpu.return
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Where a second Q buffer does not fit past the plan (d = 256 at 80-key
// tiles: 229568 bytes, a Q buffer of 64 KB), the looped kernel keeps one
// and no O staging: O leaves from registers.
// CHECK-LABEL: func @deep
// CHECK: dynamic_smem_bytes = 229568
// CHECK-NOT: plus
// CHECK: fa4.epilogue %{{.*}} to %arg3
// CHECK: gpu.return
func.func @deep(%q: tensor<?x?x2x256xbf16>, %k: tensor<?x?x2x256xbf16>, %v: tensor<?x?x2x256xbf16>) -> tensor<?x?x2x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x2x256xbf16>, tensor<?x?x2x256xbf16>, tensor<?x?x2x256xbf16> -> tensor<?x?x2x256xbf16>
  return %o : tensor<?x?x2x256xbf16>
}

// -----

// With one 64-column box of O (Dv = 64) the looped kernel keeps one Q
// buffer and its slot past the plan (213216 bytes, the slot from the atom
// at 214016, 8 KB per consumer): the slot's only wait is for the previous
// work tile's store, long done, while a Q buffer released after the next
// step 0 cost 1-2.7% at d = 64 (kMinBoxesToStageOverQ).
// CHECK-LABEL: func @shallow
// CHECK: dynamic_smem_bytes = 230400
// CHECK-NOT: plus
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 214016 of bf16 {box = 0 : i64}
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 222208 of bf16 {box = 0 : i64}
// CHECK: gpu.return
func.func @shallow(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x6x64xbf16>, %v: tensor<?x?x6x64xbf16>) -> tensor<?x?x6x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16> -> tensor<?x?x6x64xbf16>
  return %o : tensor<?x?x6x64xbf16>
}
