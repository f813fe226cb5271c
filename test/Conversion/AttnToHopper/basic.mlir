// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-hopper-kernel | FileCheck %s

// The FA3 structure for d = 128 (BN = 176, two K/V stages): the ABI with the
// tensor-map boxes of #attn.swizzle and a one-dimensional grid of work tiles,
// one producer and two consumer warpgroups, 2 + 3 * kv_stages mbarriers, 8 k16 steps of S = Q K^T (m64n176, both
// operands from K-major descriptors) and 11 of O += P V (m64n128, P in four
// registers, V transposed), the causal compare, LSE.
// CHECK-LABEL: func @mha_causal_lse_d128
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: block = array<i64: 384, 1, 1>
// CHECK-SAME: cluster = array<i64: 1, 1, 1>
// CHECK-SAME: dynamic_smem_bytes = 213104 : i64
// CHECK-SAME: grid = {{\[}}["ceil_div:sq:128", "hq", "b"], ["1"], ["1"]]
// CHECK-SAME: kernel = @fa4_fa3_mha_causal_lse_d128_sm_90a_module::@fa4_fa3_mha_causal_lse_d128_sm_90a
// CHECK-SAME: params = ["tmap:q:1x64x1x64:128", "tmap:k:1x176x1x64:128", "tmap:v:1x176x1x64:128", "ptr:o", "ptr:lse", "i32:b", "i32:sq", "i32:skv", "i64:o.stride.0", "i64:o.stride.1", "i64:o.stride.2", "i64:lse.stride.0", "i64:lse.stride.1", "f32:scale_log2"]
// CHECK-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}, smem_used = 213104
// CHECK-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>
// CHECK: gpu.module @fa4_fa3_mha_causal_lse_d128_sm_90a_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">]
// Dynamic shared memory at the 1024-byte alignment of the 128B swizzle atom.
// CHECK: llvm.mlir.global external @fa4_fa3_mha_causal_lse_d128_sm_90a_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// Tensor maps are 128-byte, 64-aligned __grid_constant__ parameters.
// CHECK: llvm.func @fa4_fa3_mha_causal_lse_d128_sm_90a(
// CHECK-SAME: %[[QMAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[KMAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[VMAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %[[LSEPTR:[^:]+]]: !llvm.ptr<1>,
// CHECK-SAME: %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// CHECK-SAME: %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64,
// CHECK-SAME: %[[SCALE:[^:]+]]: f32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// The grid is one dimension of ceil_div(Sq, 128) * 6 heads * B work tiles;
// the CTA's work tile is blockIdx.x.
// CHECK: %[[BM:.*]] = arith.constant 128 : i32
// CHECK: %[[SQUP:.*]] = arith.addi %[[SQ]], %{{.*}} : i32
// CHECK-NEXT: %[[ROWBLOCKS:.*]] = arith.divui %[[SQUP]], %[[BM]] : i32
// CHECK-NEXT: %[[HEADS:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[HEADSB:.*]] = arith.muli %[[HEADS]], %[[B]] : i32
// CHECK-NEXT: arith.muli %[[ROWBLOCKS]], %[[HEADSB]] : i32
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[WORK:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK-NOT: gpu.block_id
// Thread 0 initialises Q full (barrier 0) with one arrival (the producer's
// expect_tx), Q empty (barrier 1) with one arrival per consumer thread
// (2 * 128), 2 K full (from barrier 2) and 2 V full barriers with one arrival
// each, then 2 slot-empty barriers (from barrier 2 + 2 * 2) with 256.
// CHECK: scf.if
// CHECK: %[[QFULLOFF:.*]] = arith.muli %c0_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[BARRIERS0:.*]] = arith.constant 212992 : i32
// CHECK-NEXT: %[[QFULLADDR:.*]] = arith.addi %[[BARRIERS0]], %[[QFULLOFF]] : i32
// CHECK-NEXT: %[[QFULLINIT:.*]] = llvm.getelementptr %{{.*}}[%[[QFULLADDR]]]
// CHECK-NEXT: nvvm.mbarrier.init %[[QFULLINIT]], %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: %[[QEMPTYOFF:.*]] = arith.muli %c1_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[BARRIERS1:.*]] = arith.constant 212992 : i32
// CHECK-NEXT: %[[QEMPTYADDR:.*]] = arith.addi %[[BARRIERS1]], %[[QEMPTYOFF]] : i32
// CHECK-NEXT: %[[QEMPTYINIT:.*]] = llvm.getelementptr %{{.*}}[%[[QEMPTYADDR]]]
// CHECK-NEXT: nvvm.mbarrier.init %[[QEMPTYINIT]], %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: arith.muli %c2_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-COUNT-4: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: arith.addi %c6_i32{{(_[0-9]+)?}}, %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-COUNT-2: nvvm.mbarrier.init %{{[0-9]+}}, %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.barrier0
// Producer: 24 registers. Its thread 0 decodes the work tile, heaviest first
// under a mask: row block = ceil_div(Sq, 128) - 1 - work / (6 * B), head =
// work % (6 * B) % 6, batch = work % (6 * B) / 6; kv head = head / 1.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PROWBLOCKS:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PHEADS:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[PHEADSB:.*]] = arith.muli %[[PHEADS]], %[[B]] : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[WORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: %[[PONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[PLAST:.*]] = arith.subi %[[PROWBLOCKS]], %[[PONE]] : i32
// CHECK-NEXT: %[[PROWBLOCK:.*]] = arith.subi %[[PLAST]], %[[PASS]] : i32
// CHECK-NEXT: %[[PHEADBATCH:.*]] = arith.remui %[[WORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: %[[BLOCKROW:.*]] = arith.muli %[[PROWBLOCK]], %{{.*}} : i32
// CHECK-NEXT: %[[HEAD:.*]] = arith.remui %[[PHEADBATCH]], %[[PHEADS]] : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[PHEADBATCH]], %[[PHEADS]] : i32
// CHECK-NEXT: %[[GROUP:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KVHEAD:.*]] = arith.divui %[[HEAD]], %[[GROUP]] : i32
// Causal: the block's last key is min(Skv, last row + Skv - Sq + 1).
// CHECK: %[[SHIFT:.*]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK: arith.minsi %[[SKV]], %{{.*}} : i32
// CHECK: arith.constant 176 : i32
// Q for both consumers (2 x 2 boxes, 32 KiB) on barrier 0, then per tile 2 K
// boxes and 2 V boxes of 176 x 128 B each.
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[QBAR:.*]], %c32768_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[QMAP]], %[[QBAR]], box[%{{.*}}, %[[HEAD]], %{{.*}}, %[[BATCH]]] : !llvm.ptr<7>, !llvm.ptr
// The one work tile starts the K/V ring at ring tile 0: slot = tile % 2.
// CHECK: scf.for
// CHECK-NEXT: %[[PTILE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[PRING:.*]] = arith.addi %c0_i32{{(_[0-9]+)?}}, %[[PTILE]] : i32
// CHECK-NEXT: %[[PSTAGES:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[PSLOT:.*]] = arith.remui %[[PRING]], %[[PSTAGES]] : i32
// A slot is refilled once the consumers have released it (slot-empty
// barrier 6 + slot).
// CHECK: arith.cmpi uge, %[[PRING]], %[[PSTAGES]] : i32
// CHECK-NEXT: scf.if
// CHECK: arith.addi %c6_i32{{(_[0-9]+)?}}, %[[PSLOT]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity
// K full: barrier 2 + slot.
// CHECK: arith.addi %c2_i32{{(_[0-9]+)?}}, %[[PSLOT]] : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[KBAR:.*]], %c45056_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: %[[KSTAGE:.*]] = arith.muli %{{.*}}, %c45056_i32{{.*}} : i32
// CHECK: %[[KSLOT:.*]] = arith.addi %c32768_i32{{.*}}, %[[KSTAGE]] : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[KMAP]], %[[KBAR]], box[%c0_i32{{.*}}, %[[KVHEAD]], %[[KEYROW:.*]], %[[BATCH]]]
// CHECK: arith.addi %[[KSLOT]], %c22528_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[KMAP]], %[[KBAR]], box[%c64_i32{{.*}}, %[[KVHEAD]], %[[KEYROW]], %[[BATCH]]]
// V full: barrier 2 + 2 + slot.
// CHECK: arith.addi %c4_i32{{(_[0-9]+)?}}, %[[PSLOT]] : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[VBAR:.*]], %c45056_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: arith.addi %c122880_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[VMAP]], %[[VBAR]], box[%{{.*}}, %[[KVHEAD]], %[[KEYROW]], %[[BATCH]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// Consumers: 240 registers; consumer 1 opens consumer 0's first GEMM turn
// (named barriers of 256 threads, FA3 ping-pong). Each decodes the same work
// tile, then waits for Q (barrier 0, parity = work tiles done & 1 = 0).
// CHECK: nvvm.setmaxregister increase 240
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// CHECK: %[[CHEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[CASS:.*]] = arith.divui %[[WORK]], %[[CHEADSB]] : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: %[[CLAST:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.subi %[[CLAST]], %[[CASS]] : i32
// CHECK-NEXT: arith.remui %[[WORK]], %[[CHEADSB]] : i32
// CHECK: %[[QPARITY:.*]] = arith.andi %c0_i32{{(_[0-9]+)?}}, %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[QIDX:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[QEIGHT:.*]] = arith.constant 8 : i32
// CHECK-NEXT: arith.muli %[[QIDX]], %[[QEIGHT]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[QPARITY]], %{{.*}} : !llvm.ptr<3>, i32, i32
// Per tile: K full (barrier 2 + slot of ring tile 0 + t), then the turn.
// CHECK: scf.for
// CHECK-NEXT: %[[CTILE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[CRING:.*]] = arith.addi %c0_i32{{(_[0-9]+)?}}, %[[CTILE]] : i32
// CHECK-NEXT: %[[CSLOT:.*]] = arith.remui %[[CRING]], %{{.*}} : i32
// CHECK: arith.addi %c2_i32{{(_[0-9]+)?}}, %[[CSLOT]] : i32
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK: nvvm.wgmma.fence.aligned
// K-major descriptors: LBO 16 B, SBO 1024 B, 128B swizzle.
// CHECK: arith.constant 4611686293305360384 : i64
// CHECK-COUNT-8: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 {$0, {{.*}}, $87}, $176, $177, 1, 1, 1, 0, 0;", "{{(=f,){87}=f}},{{([0-9]+,){87}[0-9]+}},l,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// In the same turn, O += P V of the previous tile: V's full barrier, V from
// an MN-major descriptor (LBO = one 176-key box, 22528 B), P in registers.
// CHECK: scf.if
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: arith.constant 4611686293397569536 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-11: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, 1, 1, 1, 1;", "{{(=f,){63}=f}},{{([0-9]+,){63}[0-9]+}},r,r,r,r,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// Only tiles that reach Skv or cross the diagonal take the masked path.
// CHECK: arith.cmpi sge, %{{.*}}, %[[SKV]] : i32
// CHECK-NEXT: arith.cmpi sgt
// CHECK-NEXT: arith.ori
// CHECK-NEXT: scf.if
// CHECK: %[[INRANGE:.*]] = arith.cmpi slt, %[[KEY:[^,]+]], %[[SKV]] : i32
// CHECK-NEXT: %[[DIAG:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[CAUSAL:.*]] = arith.cmpi sle, %[[KEY]], %[[DIAG]] : i32
// CHECK-NEXT: %[[KEEP:.*]] = arith.andi %[[INRANGE]], %[[CAUSAL]] : i1
// CHECK-NEXT: arith.select %[[KEEP]], %{{.*}}, %{{.*}} : f32
// The row maximum over the 4 lanes of a row; p = exp2(s * scale - max).
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32{{.*}}, %c32_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32{{.*}}, %c32_i32
// CHECK: %[[P:.*]] = llvm.intr.fma(%{{.*}}, %[[SCALE]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[P]])
// P as bf16 pairs, carried to the next turn.
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: llvm.bitcast %{{.*}} : vector<2xbf16> to i32
// CHECK: scf.yield
// The last tile's P V after the loop, then the slot is released (barrier
// 6 + slot).
// CHECK: scf.if
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-11: "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, 1, 1, 1, 1;"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: arith.remui
// CHECK-NEXT: arith.constant 6 : i32
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// Every consumer thread is done with Q: it arrives on Q empty (barrier 1)
// before the epilogue.
// CHECK-NEXT: %[[QEIDX:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QEEIGHT:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[QEOFF:.*]] = arith.muli %[[QEIDX]], %[[QEEIGHT]] : i32
// CHECK-NEXT: %[[QEBASE:.*]] = arith.constant 212992 : i32
// CHECK-NEXT: %[[QEADDR:.*]] = arith.addi %[[QEBASE]], %[[QEOFF]] : i32
// CHECK-NEXT: %[[QEMPTY:.*]] = llvm.getelementptr %{{.*}}[%[[QEADDR]]]
// CHECK-NEXT: nvvm.mbarrier.arrive %[[QEMPTY]] : !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier id
// Epilogue: O as bf16 pairs, LSE = (max + log2(sum)) * ln 2 per row half.
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: %[[LSEADDR:.*]] = llvm.getelementptr %[[LSEPTR]]
// CHECK-NEXT: llvm.store %{{.*}}, %[[LSEADDR]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// After the epilogue, consumer 0 takes its last turn.
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK-NOT: llvm.store
// CHECK: llvm.return
func.func @mha_causal_lse_d128(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// -----

// d = 64, f16, no mask, no LSE: four K/V stages (2 + 3 * 4 mbarriers), one
// depth box (4 QK steps), Dv = 64 (m64n64 for P V), only the Skv bound.
// CHECK-LABEL: func @mha_none_f16_d64
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: dynamic_smem_bytes = 196752 : i64
// CHECK-SAME: grid = {{\[}}["ceil_div:sq:128", "hq", "b"], ["1"], ["1"]]
// CHECK-SAME: params = ["tmap:q:1x64x1x64:128", "tmap:k:1x176x1x64:128", "tmap:v:1x176x1x64:128", "ptr:o", "i32:b", "i32:sq", "i32:skv", "i64:o.stride.0", "i64:o.stride.1", "i64:o.stride.2", "f32:scale_log2"]
// CHECK-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}, smem_used = 196752
// CHECK: llvm.func @fa4_fa3_mha_none_f16_d64_sm_90a(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// CHECK-SAME: %[[SCALE:[^:]+]]: f32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: %[[HEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: arith.muli %{{.*}}, %[[HEADSB]] : i32
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[WORK:.*]] = arith.index_cast %[[BX]] : index to i32
// Q full (1 arrival), Q empty (256), 4 K full and 4 V full (1 each), 4 slot
// empty (256).
// CHECK: arith.constant 196608 : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init %{{[0-9]+}}, %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-8: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32
// CHECK-COUNT-4: nvvm.mbarrier.init %{{[0-9]+}}, %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// No mask: the row blocks of one head are adjacent: row block =
// work % ceil_div(Sq, 128), head = work / ceil_div(Sq, 128) % 6, batch =
// work / ceil_div(Sq, 128) / 6.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PROWBLOCKS:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PHEADS:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[PROWBLOCK:.*]] = arith.remui %[[WORK]], %[[PROWBLOCKS]] : i32
// CHECK-NEXT: %[[PHEADBATCH:.*]] = arith.divui %[[WORK]], %[[PROWBLOCKS]] : i32
// CHECK-NEXT: arith.muli %[[PROWBLOCK]], %{{.*}} : i32
// CHECK-NEXT: arith.remui %[[PHEADBATCH]], %[[PHEADS]] : i32
// CHECK-NEXT: arith.divui %[[PHEADBATCH]], %[[PHEADS]] : i32
// No mask: the key range is [0, Skv).
// CHECK-NOT: arith.minsi %[[SKV]]
// CHECK: arith.maxsi %[[SKV]], %{{.*}} : i32
// CHECK-NOT: arith.minsi %[[SKV]]
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.for
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c22528_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c22528_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: nvvm.setmaxregister increase 240
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: "wgmma.mma_async.sync.aligned.m64n176k16.f32.f16.f16 {$0, {{.*}}, $87}, $176, $177, 1, 1, 1, 0, 0;", "{{(=f,){87}=f}},{{([0-9]+,){87}[0-9]+}},l,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-11: "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, 1, 1, 1, 1;", "{{(=f,){31}=f}},{{([0-9]+,){31}[0-9]+}},r,r,r,r,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// Only tiles reaching Skv are masked, and only against Skv.
// CHECK: arith.cmpi sge, %{{.*}}, %[[SKV]] : i32
// CHECK-NEXT: scf.if
// CHECK: %[[INRANGE:.*]] = arith.cmpi slt, %[[KEY:[^,]+]], %[[SKV]] : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.select %[[INRANGE]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.cmpi sle
// CHECK-NOT: arith.cmpi sge
// CHECK: scf.yield
// CHECK: llvm.intr.fma(%{{.*}}, %[[SCALE]], %{{.*}})
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: scf.yield
// CHECK-COUNT-11: "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$64, $65, $66, $67}, $68, 1, 1, 1, 1;"
// CHECK-NOT: wgmma.mma_async
// No LSE: 2 x 8 O stores (f16 pairs) and nothing else.
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: lg2.approx
// CHECK-NOT: llvm.store
// CHECK: llvm.return
func.func @mha_none_f16_d64(%q: tensor<?x?x6x64xf16>, %k: tensor<?x?x6x64xf16>, %v: tensor<?x?x6x64xf16>) -> tensor<?x?x6x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x64xf16>, tensor<?x?x6x64xf16>, tensor<?x?x6x64xf16> -> tensor<?x?x6x64xf16>
  return %o : tensor<?x?x6x64xf16>
}

// -----

// d = 96 is padded to two 64-column boxes (TMA zero-fills columns 96..127):
// 8 QK steps, P V over n = 128, O stores guarded by column < 96. GQA 6/3
// reads kv head q head / 2. A right-only window bounds the last key only.
// CHECK-LABEL: func @gqa_right_window_f16_d96
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: dynamic_smem_bytes = 213104 : i64
// CHECK-SAME: params = ["tmap:q:1x64x1x64:128", "tmap:k:1x176x1x64:128", "tmap:v:1x176x1x64:128", "ptr:o", "i32:b", "i32:sq", "i32:skv", "i64:o.stride.0", "i64:o.stride.1", "i64:o.stride.2", "f32:scale_log2"]
// CHECK: llvm.func @fa4_fa3_gqa_right_window_f16_d96_sm_90a(
// CHECK-SAME: %[[QMAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[KMAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[VMAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[WORK:.*]] = arith.index_cast %[[BX]] : index to i32
// A window is a mask: heaviest row block first, as for causal.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PHEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[WORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: %[[PLAST:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.subi %[[PLAST]], %[[PASS]] : i32
// CHECK-NEXT: %[[PHEADBATCH:.*]] = arith.remui %[[WORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: arith.muli
// CHECK-NEXT: %[[HEAD:.*]] = arith.remui %[[PHEADBATCH]], %{{.*}} : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[PHEADBATCH]], %{{.*}} : i32
// CHECK-NEXT: %[[GROUP:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[KVHEAD:.*]] = arith.divui %[[HEAD]], %[[GROUP]] : i32
// The block's key range ends at min(Skv, last row + Skv - Sq + 32 + 1); no
// lower bound.
// CHECK: %[[RIGHT:.*]] = arith.constant 33 : i32
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %[[RIGHT]] : i32
// CHECK-NEXT: arith.minsi %[[SKV]], %[[END]] : i32
// CHECK-NEXT: arith.maxsi
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[QMAP]], %{{.*}}, box[%{{.*}}, %[[HEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: scf.for
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[KMAP]], %{{.*}}, box[%{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[VMAP]], %{{.*}}, box[%{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: nvvm.setmaxregister increase 240
// CHECK-COUNT-8: "wgmma.mma_async.sync.aligned.m64n176k16.f32.f16.f16 {$0, {{.*}}, $87}, $176, $177, 1, 1, 1, 0, 0;"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-COUNT-11: "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, 1, 1, 1, 1;"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// Tile test: the tile's last key past the first row's diagonal + 32.
// CHECK: arith.cmpi sge, %{{.*}}, %[[SKV]] : i32
// CHECK-NEXT: %[[TILERIGHT:.*]] = arith.constant 32 : i32
// CHECK-NEXT: arith.addi %{{.*}}, %[[TILERIGHT]] : i32
// CHECK-NEXT: arith.cmpi sgt
// CHECK-NEXT: arith.ori
// CHECK-NEXT: scf.if
// CHECK: %[[INRANGE:.*]] = arith.cmpi slt, %[[KEY:[^,]+]], %[[SKV]] : i32
// CHECK-NEXT: %[[DIAG:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[R:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[DIAG]], %[[R]] : i32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpi sle, %[[KEY]], %[[LAST]] : i32
// CHECK-NEXT: %[[KEEP:.*]] = arith.andi %[[INRANGE]], %[[BELOW]] : i1
// CHECK-NEXT: arith.select %[[KEEP]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.cmpi sge
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK-COUNT-11: "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, 1, 1, 1, 1;"
// CHECK-NOT: wgmma.mma_async
// Epilogue: column pairs past Dv = 96 are not stored.
// CHECK: %[[DV:.*]] = arith.constant 96 : i32
// CHECK-NEXT: arith.cmpi slt, %{{.*}}, %[[DV]] : i32
// CHECK-NOT: lg2.approx
// CHECK: llvm.return
func.func @gqa_right_window_f16_d96(%q: tensor<?x?x6x96xf16>, %k: tensor<?x?x3x96xf16>, %v: tensor<?x?x3x96xf16>) -> tensor<?x?x6x96xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x6x96xf16>, tensor<?x?x3x96xf16>, tensor<?x?x3x96xf16> -> tensor<?x?x6x96xf16>
  return %o : tensor<?x?x6x96xf16>
}

// -----

// Dqk = 192 != Dv = 128: three Q/K boxes (12 QK steps, 48 KiB K stages),
// two V boxes (32 KiB V stages), BN = 128. MQA reads kv head q head / 6. A
// two-sided window bounds both ends of the key range. LSE present.
// CHECK-LABEL: func @mqa_window_lse_d192_128
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: dynamic_smem_bytes = 213120 : i64
// CHECK-SAME: params = ["tmap:q:1x64x1x64:128", "tmap:k:1x128x1x64:128", "tmap:v:1x128x1x64:128", "ptr:o", "ptr:lse", "i32:b", "i32:sq", "i32:skv", "i64:o.stride.0", "i64:o.stride.1", "i64:o.stride.2", "i64:lse.stride.0", "i64:lse.stride.1", "f32:scale_log2"]
// CHECK-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}, k_stage_bytes = 49152, v_stage_bytes = 32768, {{.*}}, smem_used = 213120
// CHECK-SAME: k = <rows = 128, columns = 64, swizzle = 128>, v = <rows = 128, columns = 64, swizzle = 128>
// CHECK: llvm.func @fa4_fa3_mqa_window_lse_d192_128_sm_90a(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %{{[^:]+}}: !llvm.ptr<1>, %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT: %[[WORK:.*]] = arith.index_cast %[[BX]] : index to i32
// Q full (1 arrival), Q empty (256), 2 K full and 2 V full (1 each), 2 slot
// empty (256).
// CHECK: scf.if
// CHECK: arith.muli %c0_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: arith.constant 212992 : i32
// CHECK: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// CHECK: nvvm.mbarrier.init %{{[0-9]+}}, %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-4: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init %{{[0-9]+}}, %c1_i32
// CHECK-COUNT-2: nvvm.mbarrier.init %{{[0-9]+}}, %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.init
// The work tile, heaviest row block first; MQA: kv head = head / 6.
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PHEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[WORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: %[[PLAST:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[PROWBLOCK:.*]] = arith.subi %[[PLAST]], %[[PASS]] : i32
// CHECK-NEXT: %[[PHEADBATCH:.*]] = arith.remui %[[WORK]], %[[PHEADSB]] : i32
// CHECK-NEXT: %[[BLOCKROW:.*]] = arith.muli %[[PROWBLOCK]], %{{.*}} : i32
// CHECK-NEXT: %[[HEAD:.*]] = arith.remui %[[PHEADBATCH]], %{{.*}} : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[PHEADBATCH]], %{{.*}} : i32
// CHECK-NEXT: %[[GROUP:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[KVHEAD:.*]] = arith.divui %[[HEAD]], %[[GROUP]] : i32
// Key range [max(0, first row + Skv - Sq - 17),
//            min(Skv, last row + Skv - Sq + 33 + 1)), first tile = begin / BN.
// CHECK: %[[SHIFT:.*]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK: %[[RIGHT:.*]] = arith.constant 34 : i32
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %[[RIGHT]] : i32
// CHECK-NEXT: %[[KEYEND:.*]] = arith.minsi %[[SKV]], %[[END]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.constant 17 : i32
// CHECK-NEXT: %[[FIRSTDIAG:.*]] = arith.addi %[[BLOCKROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[BEGIN:.*]] = arith.subi %[[FIRSTDIAG]], %[[LEFT]] : i32
// CHECK-NEXT: %[[KEYBEGIN:.*]] = arith.maxsi %{{.*}}, %[[BEGIN]] : i32
// CHECK-NEXT: arith.maxsi %[[KEYEND]], %[[KEYBEGIN]] : i32
// CHECK-NEXT: %[[BN:.*]] = arith.constant 128 : i32
// CHECK-NEXT: arith.divui %[[KEYBEGIN]], %[[BN]] : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-6: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %[[HEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: scf.for
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: box[%c0_i32{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: box[%c64_i32{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: box[%c128_i32{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: box[%c0_i32{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK: box[%c64_i32{{.*}}, %[[KVHEAD]], %{{.*}}, %[[BATCH]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: nvvm.setmaxregister increase 240
// CHECK-COUNT-12: "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, $128, $129, 1, 1, 1, 0, 0;", "{{(=f,){63}=f}},{{([0-9]+,){63}[0-9]+}},l,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// V: LBO = one 128-key box, 16384 B.
// CHECK: arith.constant 4611686293372403712 : i64
// CHECK-COUNT-8: "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, 1, 1, 1, 1;", "{{(=f,){63}=f}},{{([0-9]+,){63}[0-9]+}},r,r,r,r,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// Tile test: past Skv, past the first row's diagonal + 33, or before the
// last row's diagonal - 17.
// CHECK: arith.cmpi sge, %{{.*}}, %[[SKV]] : i32
// CHECK-NEXT: arith.constant 33 : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.cmpi sgt
// CHECK-NEXT: arith.ori
// CHECK-NEXT: arith.constant 17 : i32
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.cmpi slt
// CHECK-NEXT: arith.ori
// CHECK-NEXT: scf.if
// CHECK: %[[INRANGE:.*]] = arith.cmpi slt, %[[KEY:[^,]+]], %[[SKV]] : i32
// CHECK-NEXT: %[[DIAG:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[R:.*]] = arith.constant 33 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[DIAG]], %[[R]] : i32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpi sle, %[[KEY]], %[[LAST]] : i32
// CHECK-NEXT: %[[KEEP1:.*]] = arith.andi %[[INRANGE]], %[[BELOW]] : i1
// CHECK-NEXT: %[[L:.*]] = arith.constant 17 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.subi %[[DIAG]], %[[L]] : i32
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpi sge, %[[KEY]], %[[FIRST]] : i32
// CHECK-NEXT: %[[KEEP:.*]] = arith.andi %[[KEEP1]], %[[ABOVE]] : i1
// CHECK-NEXT: arith.select %[[KEEP]], %{{.*}}, %{{.*}} : f32
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK-COUNT-8: "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, 1, 1, 1, 1;"
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: llvm.return
func.func @mqa_window_lse_d192_128(%q: tensor<?x?x6x192xbf16>, %k: tensor<?x?x1x192xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x192xbf16>, tensor<?x?x1x192xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// -----

// d = 256 on memrefs: BN = 80 keeps S (40) + O (128) accumulators in the
// consumer's registers; 16 QK steps of m64n80 and 5 P V steps of m64n256.
// window(128, 0): keys in [row + Skv - Sq - 128, row + Skv - Sq].
// CHECK-LABEL: func @gqa_left_window_d256
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = {
// CHECK-SAME: dynamic_smem_bytes = 229552 : i64
// CHECK-SAME: params = ["tmap:q:1x64x1x64:128", "tmap:k:1x80x1x64:128", "tmap:v:1x80x1x64:128", "ptr:o", "i32:b", "i32:sq", "i32:skv", "i64:o.stride.0", "i64:o.stride.1", "i64:o.stride.2", "f32:scale_log2"]
// CHECK-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}, k_stage_bytes = 40960, v_stage_bytes = 40960, {{.*}}, smem_used = 229552
// CHECK: llvm.func @fa4_fa3_gqa_left_window_d256_sm_90a(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr<1>, %[[B:[^:]+]]: i32, %[[SQ:[^:]+]]: i32, %[[SKV:[^:]+]]: i32,
// CHECK: arith.constant 229376 : i32
// CHECK: nvvm.setmaxregister decrease 24
// CHECK: %[[PHEADSB:.*]] = arith.muli %{{.*}}, %[[B]] : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %{{.*}}, %[[PHEADSB]] : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: %[[PLAST:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.subi %[[PLAST]], %[[PASS]] : i32
// CHECK: %[[GROUP:.*]] = arith.constant 2 : i32
// CHECK-NEXT: arith.divui %{{.*}}, %[[GROUP]] : i32
// CHECK: arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: arith.constant 0 : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[END:.*]] = arith.addi %{{.*}}, %[[ONE]] : i32
// CHECK-NEXT: arith.minsi %[[SKV]], %[[END]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.constant 128 : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.subi %{{.*}}, %[[LEFT]] : i32
// CHECK-NEXT: arith.maxsi
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c65536_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-8: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.for
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c40960_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c40960_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: nvvm.setmaxregister increase 240
// CHECK-COUNT-16: "wgmma.mma_async.sync.aligned.m64n80k16.f32.bf16.bf16 {$0, {{.*}}, $39}, $80, $81, 1, 1, 1, 0, 0;", "{{(=f,){39}=f}},{{([0-9]+,){39}[0-9]+}},l,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// V: LBO = one 80-key box, 10240 B.
// CHECK: arith.constant 4611686293347237888 : i64
// CHECK-COUNT-5: "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {$0, {{.*}}, $127}, {$256, $257, $258, $259}, $260, 1, 1, 1, 1;", "{{(=f,){127}=f}},{{([0-9]+,){127}[0-9]+}},r,r,r,r,l"
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: %[[INRANGE:.*]] = arith.cmpi slt, %[[KEY:[^,]+]], %[[SKV]] : i32
// CHECK-NEXT: %[[DIAG:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[R:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[DIAG]], %[[R]] : i32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpi sle, %[[KEY]], %[[LAST]] : i32
// CHECK-NEXT: %[[KEEP1:.*]] = arith.andi %[[INRANGE]], %[[BELOW]] : i1
// CHECK-NEXT: %[[L:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.subi %[[DIAG]], %[[L]] : i32
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpi sge, %[[KEY]], %[[FIRST]] : i32
// CHECK-NEXT: arith.andi %[[KEEP1]], %[[ABOVE]] : i1
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK-COUNT-5: "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {$0, {{.*}}, $127}, {$256, $257, $258, $259}, $260, 1, 1, 1, 1;"
// CHECK-NOT: wgmma.mma_async
// CHECK-NOT: lg2.approx
// CHECK: llvm.return
func.func @gqa_left_window_d256(%q: memref<?x?x6x256xbf16>, %k: memref<?x?x3x256xbf16>, %v: memref<?x?x3x256xbf16>, %o: memref<?x?x6x256xbf16>) {
  attn.attention %q, %k, %v outs(%o : memref<?x?x6x256xbf16>) {mask = #attn.mask<window(128, 0)>} : memref<?x?x6x256xbf16>, memref<?x?x3x256xbf16>, memref<?x?x3x256xbf16>
  return
}
