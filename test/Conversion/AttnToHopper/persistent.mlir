// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-hopper-kernel=persistent=true | FileCheck %s

// Persistent FA3: one CTA per SM (132 on sm_90a) walks the work tiles
// blockIdx.x, blockIdx.x + gridDim.x, ... of the ceil_div(Sq, 128) * Hq * B
// list. Producer and consumers each loop over the same work tiles carrying
// (work tiles done, K/V ring tiles used), so the K/V ring and the Q buffer's
// barrier parities continue from one work tile to the next. The producer
// reloads Q once the consumers have released the previous work tile's Q on
// the Q-empty barrier (1), which they do after their last P V, before the
// epilogue.

// Causal d = 128: BN = 176, two K/V stages; heaviest row blocks first.
// CHECK-LABEL: func @causal
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: block = array<i64: 384, 1, 1>
// CHECK-SAME: grid = {{\[}}["132"], ["1"], ["1"]]
// CHECK-SAME: params = ["tmap:q:1x64x1x64:128", "tmap:k:1x176x1x64:128", "tmap:v:1x176x1x64:128", "ptr:o", "i32:b", "i32:sq", "i32:skv", "i64:o.stride.0", "i64:o.stride.1", "i64:o.stride.2", "f32:scale_log2"]
// CHECK: llvm.func @fa4_fa3_causal_sm_90a(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// The work list: ceil_div(Sq, 128) * 6 * B tiles; this CTA starts at
// blockIdx.x and strides by gridDim.x.
// CHECK: %[[BM:.*]] = arith.constant 128 : i32
// CHECK: %[[SQUP:.*]] = arith.addi %[[SQ]], %{{.*}} : i32
// CHECK-NEXT: %[[ROWBLOCKS:.*]] = arith.divui %[[SQUP]], %[[BM]] : i32
// CHECK-NEXT: %[[HEADS:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[HEADSB:.*]] = arith.muli %[[HEADS]], %[[B]] : i32
// CHECK-NEXT: %[[NUMWORK:.*]] = arith.muli %[[ROWBLOCKS]], %[[HEADSB]] : i32
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[FIRST:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK-NEXT: %[[GX:.*]] = gpu.grid_dim x
// CHECK-NEXT: %[[STRIDE:.*]] = arith.index_cast %[[GX]] : index to i32
// Q empty (barrier 1) counts one arrival per consumer thread.
// CHECK: scf.if
// CHECK: %[[QEOFF:.*]] = arith.muli %c1_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[QEBASE:.*]] = arith.constant 212992 : i32
// CHECK-NEXT: %[[QEADDR:.*]] = arith.addi %[[QEBASE]], %[[QEOFF]] : i32
// CHECK-NEXT: %[[QEINIT:.*]] = llvm.getelementptr %{{.*}}[%[[QEADDR]]]
// CHECK-NEXT: nvvm.mbarrier.init %[[QEINIT]], %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: nvvm.barrier0
//
// Producer (thread 0 of warpgroup 0): the work loop, starting with no work
// tiles done and no ring tiles used.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: scf.if
// CHECK-NEXT: %[[PDONE0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[PKV0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[PSTEP:.*]] = arith.index_cast %[[STRIDE]] : i32 to index
// CHECK-NEXT: %[[PUB:.*]] = arith.index_cast %[[NUMWORK]] : i32 to index
// CHECK-NEXT: %[[PLB:.*]] = arith.index_cast %[[FIRST]] : i32 to index
// CHECK-NEXT: %{{.*}}:2 = scf.for %[[PWI:.*]] = %[[PLB]] to %[[PUB]] step %[[PSTEP]] iter_args(%[[PDONE:.*]] = %[[PDONE0]], %[[PKV:.*]] = %[[PKV0]]) -> (i32, i32) {
// CHECK-NEXT: %[[PWORK:.*]] = arith.index_cast %[[PWI]] : index to i32
// Causal: heaviest first, row block = ceil_div(Sq, 128) - 1 - work / (6 * B).
// CHECK: %[[PROWBLOCKS:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PHEADS:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[PHEADSB:.*]] = arith.muli %[[PHEADS]], %[[B]] : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[PWORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: %[[PONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[PLAST:.*]] = arith.subi %[[PROWBLOCKS]], %[[PONE]] : i32
// CHECK-NEXT: %[[PROWBLOCK:.*]] = arith.subi %[[PLAST]], %[[PASS]] : i32
// CHECK-NEXT: %[[PHEADBATCH:.*]] = arith.remui %[[PWORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: arith.muli %[[PROWBLOCK]], %{{.*}} : i32
// CHECK-NEXT: %[[HEAD:.*]] = arith.remui %[[PHEADBATCH]], %[[PHEADS]] : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[PHEADBATCH]], %[[PHEADS]] : i32
// CHECK: %[[PNUMTILES:.*]] = arith.select
// After the first work tile, wait until the consumers released the previous
// Q: Q empty (barrier 1), parity (done - 1) & 1.
// CHECK: %[[REUSEQ:.*]] = arith.cmpi sgt, %[[PDONE]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: scf.if %[[REUSEQ]] {
// CHECK: %[[PREV:.*]] = arith.subi %[[PDONE]], %{{.*}} : i32
// CHECK-NEXT: %[[QEPARITY:.*]] = arith.andi %[[PREV]], %{{.*}} : i32
// CHECK-NEXT: %[[QEIDX:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QEEIGHT:.*]] = arith.constant 8 : i32
// CHECK-NEXT: arith.muli %[[QEIDX]], %[[QEEIGHT]] : i32
// CHECK: %[[QEWAIT:.*]] = llvm.getelementptr
// CHECK-NEXT: arith.constant 10000000 : i32
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[QEWAIT]], %[[QEPARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT: }
// Then Q (barrier 0) for the new work tile.
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[QBAR:.*]], %c32768_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[QBAR]], box[%{{.*}}, %[[HEAD]], %{{.*}}, %[[BATCH]]]
// K/V: the ring continues at ring tile = ring tiles used + t.
// CHECK: scf.for
// CHECK-NEXT: %[[PT:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[PRING:.*]] = arith.addi %[[PKV]], %[[PT]] : i32
// CHECK-NEXT: %[[PSTAGES:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[PSLOT:.*]] = arith.remui %[[PRING]], %[[PSTAGES]] : i32
// CHECK-NEXT: arith.divui %[[PRING]], %[[PSTAGES]] : i32
// CHECK-NEXT: arith.cmpi uge, %[[PRING]], %[[PSTAGES]] : i32
// CHECK: arith.addi %c6_i32{{(_[0-9]+)?}}, %[[PSLOT]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: arith.addi %c2_i32{{(_[0-9]+)?}}, %[[PSLOT]] : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %[[BATCH]]]
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %[[BATCH]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: }
// One more work tile done; its tiles used the ring.
// CHECK-NEXT: %[[PINC:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[PDONE1:.*]] = arith.addi %[[PDONE]], %[[PINC]] : i32
// CHECK-NEXT: %[[PKV1:.*]] = arith.addi %[[PKV]], %[[PNUMTILES]] : i32
// CHECK-NEXT: scf.yield %[[PDONE1]], %[[PKV1]] : i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: } else {
//
// Consumers: consumer 1's first grant is before the work loop; the loop has
// the same bounds and carries.
// CHECK: nvvm.setmaxregister increase 240
// CHECK: nvvm.barrier.arrive id = %[[OTHER:.*]] number_of_threads = %[[PAIR:.*]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[CDONE0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[CKV0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[CSTEP:.*]] = arith.index_cast %[[STRIDE]] : i32 to index
// CHECK-NEXT: %[[CUB:.*]] = arith.index_cast %[[NUMWORK]] : i32 to index
// CHECK-NEXT: %[[CLB:.*]] = arith.index_cast %[[FIRST]] : i32 to index
// CHECK-NEXT: %{{.*}}:2 = scf.for %[[CWI:.*]] = %[[CLB]] to %[[CUB]] step %[[CSTEP]] iter_args(%[[CDONE:.*]] = %[[CDONE0]], %[[CKV:.*]] = %[[CKV0]]) -> (i32, i32) {
// CHECK-NEXT: %[[CWORK:.*]] = arith.index_cast %[[CWI]] : index to i32
// CHECK: %[[CHEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[CASS:.*]] = arith.divui %[[CWORK]], %[[CHEADSB]] : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: %[[CLAST:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.subi %[[CLAST]], %[[CASS]] : i32
// CHECK: %[[CNUMTILES:.*]] = arith.select
// Q full (barrier 0) of this work tile: parity done & 1.
// CHECK: %[[QPARITY:.*]] = arith.andi %[[CDONE]], %{{.*}} : i32
// CHECK-NEXT: %[[QIDX:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[QEIGHT:.*]] = arith.constant 8 : i32
// CHECK-NEXT: arith.muli %[[QIDX]], %[[QEIGHT]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[QPARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32
// K tiles at ring tile = ring tiles used + t.
// CHECK: scf.for
// CHECK-NEXT: %[[CT:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[CRING:.*]] = arith.addi %[[CKV]], %[[CT]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %[[PAIR]]
// CHECK: wgmma.mma_async.sync.aligned.m64n176k16
// CHECK: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %[[PAIR]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// The last P V reads ring tile used + numTiles - 1, then releases its slot.
// CHECK: scf.yield
// CHECK: %[[CEND:.*]] = arith.addi %[[CKV]], %[[CNUMTILES]] : i32
// CHECK-NEXT: %[[CLASTTILE:.*]] = arith.subi %[[CEND]], %{{.*}} : i32
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: arith.remui %[[CLASTTILE]], %{{.*}} : i32
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// Q released (barrier 1) before the epilogue, which stores this work tile.
// CHECK-NEXT: %[[QERIDX:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QEREIGHT:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[QEROFF:.*]] = arith.muli %[[QERIDX]], %[[QEREIGHT]] : i32
// CHECK-NEXT: %[[QERBASE:.*]] = arith.constant 212992 : i32
// CHECK-NEXT: %[[QERADDR:.*]] = arith.addi %[[QERBASE]], %[[QEROFF]] : i32
// CHECK-NEXT: %[[QEMPTY:.*]] = llvm.getelementptr %{{.*}}[%[[QERADDR]]]
// CHECK-NEXT: nvvm.mbarrier.arrive %[[QEMPTY]] : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier id
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK-NOT: scf.yield
// CHECK: %[[CINC:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[CDONE1:.*]] = arith.addi %[[CDONE]], %[[CINC]] : i32
// CHECK-NEXT: %[[CKV1:.*]] = arith.addi %[[CKV]], %[[CNUMTILES]] : i32
// CHECK-NEXT: scf.yield %[[CDONE1]], %[[CKV1]] : i32, i32
// CHECK-NEXT: }
// Consumer 0's last GEMM turn, after all work tiles.
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[IS_FIRST:.*]] = arith.cmpi eq, %{{.*}}, %[[ZERO]] : i32
// CHECK-NEXT: scf.if %[[IS_FIRST]] {
// CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %[[PAIR]]
// CHECK-NEXT: }
// CHECK-NOT: llvm.store
// CHECK: llvm.return
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// No mask, 4 heads: the row blocks of one head are adjacent in the work list
// (row block = work % ceil_div(Sq, 128), then head and batch), so CTAs
// running together share K and V in L2.
// CHECK-LABEL: func @no_mask
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: grid = {{\[}}["132"], ["1"], ["1"]]
// CHECK: llvm.func @fa4_fa3_no_mask_sm_90a(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// CHECK: %[[HEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[NUMWORK:.*]] = arith.muli %{{.*}}, %[[HEADSB]] : i32
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[FIRST:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK-NEXT: %[[GX:.*]] = gpu.grid_dim x
// CHECK-NEXT: %[[STRIDE:.*]] = arith.index_cast %[[GX]] : index to i32
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PSTEP:.*]] = arith.index_cast %[[STRIDE]] : i32 to index
// CHECK-NEXT: %[[PUB:.*]] = arith.index_cast %[[NUMWORK]] : i32 to index
// CHECK-NEXT: %[[PLB:.*]] = arith.index_cast %[[FIRST]] : i32 to index
// CHECK-NEXT: scf.for %[[PWI:.*]] = %[[PLB]] to %[[PUB]] step %[[PSTEP]] iter_args(
// CHECK-NEXT: %[[PWORK:.*]] = arith.index_cast %[[PWI]] : index to i32
// CHECK: %[[PROWBLOCKS:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PHEADS:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[PROWBLOCK:.*]] = arith.remui %[[PWORK]], %[[PROWBLOCKS]] : i32
// CHECK-NEXT: %[[PHEADBATCH:.*]] = arith.divui %[[PWORK]], %[[PROWBLOCKS]] : i32
// CHECK-NEXT: arith.muli %[[PROWBLOCK]], %{{.*}} : i32
// CHECK-NEXT: arith.remui %[[PHEADBATCH]], %[[PHEADS]] : i32
// CHECK-NEXT: arith.divui %[[PHEADBATCH]], %[[PHEADS]] : i32
// No reversal: nothing is subtracted from ceil_div(Sq, 128) - 1.
// CHECK-NOT: arith.subi %{{.*}}, %[[PROWBLOCK]]
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.setmaxregister increase 240
// CHECK: scf.for %[[CWI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK-NEXT: %[[CWORK:.*]] = arith.index_cast %[[CWI]] : index to i32
// CHECK: %[[CROWBLOCKS:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.constant 4 : i32
// CHECK-NEXT: arith.remui %[[CWORK]], %[[CROWBLOCKS]] : i32
// CHECK-NEXT: arith.divui %[[CWORK]], %[[CROWBLOCKS]] : i32
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: scf.yield
// CHECK: llvm.return
func.func @no_mask(%q: tensor<?x?x4x64xbf16>, %k: tensor<?x?x4x64xbf16>, %v: tensor<?x?x4x64xbf16>) -> tensor<?x?x4x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16>, tensor<?x?x4x64xbf16> -> tensor<?x?x4x64xbf16>
  return %o : tensor<?x?x4x64xbf16>
}
