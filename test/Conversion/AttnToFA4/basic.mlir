// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a causal-block-n=0 consumer-warpgroups=2" --convert-attn-to-fa4="intra-wg-overlap=0 tma-store-o=0 kv-multicast-causal=0" -canonicalize -cse | FileCheck %s
// (consumer-warpgroups=2 holds every depth to two consumers; three-consumers.mlir
// and twin-plan.mlir check the d = 64 default of three.)

// The kernel IR convert-attn-to-fa4 writes from the plan: the ABI record,
// the gpu.func signature, the mbarriers, the warp roles and their register
// budgets, the TMA boxes, the shared-memory tiles the MMAs read, the mask and
// the epilogue. How each fa4 op becomes PTX is test/Conversion/FA4ToNVVM.
// This file pins the plain consumer schedule (intra-wg-overlap=0, what
// decode and window kernels keep); intra-wg-overlap.mlir has the default
// prefill one. It also pins the epilogue from registers (tma-store-o=0, what
// persistent kernels and decode keep); tma-store-o.mlir has the plain
// prefill kernel's store of O through shared memory. causal-block-n=0 keeps
// the 176-key, two-stage plan of a non-causal or long causal kernel for
// the causal one below; persistent.mlir pins the default causal plan (128
// keys, three stages). kv-multicast-causal=0 keeps the causal kernel on
// one CTA per work tile (kv-multicast.mlir has its pairs).

// -----

// CHECK-LABEL: func @mha_causal_lse_d128
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: kernel = @fa4_hopper_mha_causal_lse_d128_sm_90a_module::@fa4_hopper_mha_causal_lse_d128_sm_90a
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 176, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 176, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]]
// CHECK-SAME: block = [384, 1, 1]
// CHECK-SAME: cluster = [1, 1, 1]
// CHECK-SAME: dynamic_smem_bytes = 213120
// CHECK-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}, smem_used = 213120
// CHECK-SAME: swizzle = #attn.swizzle<q = <rows = 64, columns = 64, swizzle = 128>, k = <rows = 176, columns = 64, swizzle = 128>, v = <rows = 176, columns = 64, swizzle = 128>
// d = 128 causal with LSE: BN = 176, two K/V stages. 2 * 2 + 4 * 2
// barriers: per consumer's Q tile Q full (tile; 1 arrival: the producer's
// expect_tx) and Q empty (2 + tile; 128: the consumer's threads), K full
// (4 + slot) and V full (6 + slot) (1 each), K empty (8 + slot) and V empty
// (10 + slot) (256: every consumer thread).
// CHECK: gpu.module @fa4_hopper_mha_causal_lse_d128_sm_90a_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">]
// CHECK: gpu.func @fa4_hopper_mha_causal_lse_d128_sm_90a(%[[QMAP:.*]]: !fa4.tensor_map, %[[KMAP:.*]]: !fa4.tensor_map, %[[VMAP:.*]]: !fa4.tensor_map, %[[OPTR:.*]]: !llvm.ptr<1>, %[[LSEPTR:.*]]: !llvm.ptr<1>, %[[B:.*]]: i32, %[[SQ:.*]]: i32, %[[SKV:.*]]: i32, %[[OS0:.*]]: i64, %[[OS1:.*]]: i64, %[[OS2:.*]]: i64, %[[LS0:.*]]: i64, %[[LS1:.*]]: i64, %[[SCALE:.*]]: f32) kernel attributes {nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: %[[WORK:.*]] = arith.index_cast %block_id_x : index to i32
// CHECK: scf.if
// CHECK: %[[QFULL0:.*]] = fa4.mbarrier.get %c0_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[QFULL0]] count 1
// CHECK-NEXT: %[[QEMPTY0:.*]] = fa4.mbarrier.get %c2_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[QEMPTY0]] count 128
// CHECK-NEXT: %[[QFULL1:.*]] = fa4.mbarrier.get %c1_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[QFULL1]] count 1
// CHECK-NEXT: %[[QEMPTY1:.*]] = fa4.mbarrier.get %c3_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[QEMPTY1]] count 128
// CHECK-COUNT-4: fa4.mbarrier.init %{{.*}} count 1
// CHECK-NEXT: %[[KEMPTY0:.*]] = fa4.mbarrier.get %c8_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[KEMPTY0]] count 256
// CHECK-NEXT: %[[KEMPTY1:.*]] = fa4.mbarrier.get %c9_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[KEMPTY1]] count 256
// CHECK-NEXT: %[[VEMPTY0:.*]] = fa4.mbarrier.get %c10_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[VEMPTY0]] count 256
// CHECK-NEXT: %[[VEMPTY1:.*]] = fa4.mbarrier.get %c11_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.init %[[VEMPTY1]] count 256
// CHECK-NOT: fa4.mbarrier.init
// CHECK: fa4.fence.mbarrier_init
// CHECK: gpu.barrier
// Programmatic dependent launch: wait for the grids before this one on the
// stream before any global access, then let the next one be scheduled.
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// One producer warpgroup at 24 registers, two consumers at 240.
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %[[PTHREAD:.*]]: i32):
// CHECK-NEXT: arith.cmpi eq, %[[PTHREAD]], %c0_i32
// The work tile under a mask: heaviest row block first within L2 sections
// of G (batch, head) pairs, G = min(max(65536 / max(Skv, 1), 1), 6 B) (32
// MiB of K and V at 512 bytes a key, work-order.mlir); with R =
// ceil_div(Sq, 128) row blocks, section = work / (G R), within = work -
// section G R, width = min(G, 6 B - section G) (the last section may be
// narrower); row block = R - 1 - within / width, pair = section G +
// within % width; head = pair % 6, batch = pair / 6.
// CHECK: %[[R:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[HB:.*]] = arith.muli %[[B]], %c6_i32 : i32
// CHECK-NEXT: %[[SKV1:.*]] = arith.maxsi %[[SKV]], %c1_i32 : i32
// CHECK-NEXT: %[[FIT:.*]] = arith.divui %c65536_i32, %[[SKV1]] : i32
// CHECK-NEXT: %[[FIT1:.*]] = arith.maxsi %[[FIT]], %c1_i32 : i32
// CHECK-NEXT: %[[G:.*]] = arith.minsi %[[FIT1]], %[[HB]] : i32
// CHECK-NEXT: %[[GR:.*]] = arith.muli %[[G]], %[[R]] : i32
// CHECK-NEXT: %[[SEC:.*]] = arith.divui %[[WORK]], %[[GR]] : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[SEC]], %[[G]] : i32
// CHECK-NEXT: %[[FR:.*]] = arith.muli %[[FIRST]], %[[R]] : i32
// CHECK-NEXT: %[[WITHIN:.*]] = arith.subi %[[WORK]], %[[FR]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[HB]], %[[FIRST]] : i32
// CHECK-NEXT: %[[WIDTH:.*]] = arith.minsi %[[G]], %[[LEFT]] : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[WITHIN]], %[[WIDTH]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[R]], %c1_i32 : i32
// CHECK-NEXT: %[[RB:.*]] = arith.subi %[[LAST]], %[[PASS]] : i32
// CHECK-NEXT: %[[INSEC:.*]] = arith.remui %[[WITHIN]], %[[WIDTH]] : i32
// CHECK-NEXT: %[[HBI:.*]] = arith.addi %[[FIRST]], %[[INSEC]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[RB]], %c128_i32 : i32
// CHECK-NEXT: %[[HEAD:.*]] = arith.remui %[[HBI]], %c6_i32 : i32
// CHECK-NEXT: %[[BATCH:.*]] = arith.divui %[[HBI]], %c6_i32 : i32
// Causal: the block's last key is min(Skv, last row + Skv - Sq + 1).
// CHECK: arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK: arith.minsi %[[SKV]], %{{.*}} : i32
// K and V rings, K one tile ahead of V. K(0) first, when the block has a
// tile, to slot 0 of the fresh ring without waiting: K full (barrier 4), two
// 176 x 64 boxes of 22528 B from byte 32768.
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[NTILES:.*]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[K0BAR:.*]] = fa4.mbarrier.get %c4_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[K0BAR]] bytes 45056
// CHECK-NEXT: fa4.tma.load %[[KMAP]][%c0_i32, %[[HEAD]], %c0_i32, %[[BATCH]]] to %c32768_i32, %[[K0BAR]]
// CHECK-NEXT: fa4.tma.load %[[KMAP]][%c64_i32, %[[HEAD]], %c0_i32, %[[BATCH]]] to %c55296_i32, %[[K0BAR]]
// CHECK-NEXT: }
// Then each consumer's Q tile, 2 depth boxes (16 KiB), on its own Q full.
// CHECK-NEXT: %[[QBAR:.*]] = fa4.mbarrier.get %c0_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[QBAR]] bytes 16384
// CHECK-NEXT: fa4.tma.load %[[QMAP]][%c0_i32, %[[HEAD]], %[[ROW]], %[[BATCH]]] to %c0_i32, %[[QBAR]]
// CHECK-NEXT: fa4.tma.load %[[QMAP]][%c64_i32, %[[HEAD]], %[[ROW]], %[[BATCH]]] to %c8192_i32, %[[QBAR]]
// CHECK-NEXT: %[[QBAR1:.*]] = fa4.mbarrier.get %c1_i32 offset 212992
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[QBAR1]] bytes 16384
// CHECK-NEXT: %[[ROW1:.*]] = arith.addi %[[ROW]], %c64_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[QMAP]][%c0_i32, %[[HEAD]], %[[ROW1]], %[[BATCH]]] to %c16384_i32, %[[QBAR1]]
// CHECK-NEXT: fa4.tma.load %[[QMAP]][%c64_i32, %[[HEAD]], %[[ROW1]], %[[BATCH]]] to %c24576_i32, %[[QBAR1]]
// Then for t = 1 .. tiles - 1: K(t), then V(t - 1). A K slot is refilled
// once its K empty barrier (8 + slot) completed the previous round: parity
// (t / 2 - 1) & 1, waited on only from t = 2.
// CHECK-NEXT: %[[END:.*]] = arith.index_cast %[[NTILES]] : i32 to index
// CHECK-NEXT: scf.for %[[T:.*]] = %c1 to %[[END]] step %c1 {
// CHECK-NEXT: %[[TILE:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK-NEXT: %[[SLOT:.*]] = arith.remui %[[TILE]], %c2_i32 : i32
// CHECK-NEXT: %[[KEI:.*]] = arith.addi %[[SLOT]], %c8_i32 : i32
// CHECK-NEXT: %[[KEMPTY:.*]] = fa4.mbarrier.get %[[KEI]] offset 212992
// CHECK-NEXT: %[[KREUSE:.*]] = arith.cmpi uge, %[[TILE]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[KREUSE]] {
// CHECK-NEXT: %[[KROUND:.*]] = arith.divui %[[TILE]], %c2_i32 : i32
// CHECK-NEXT: %[[KPREV:.*]] = arith.subi %[[KROUND]], %c1_i32 : i32
// CHECK-NEXT: %[[KPARITY:.*]] = arith.andi %[[KPREV]], %c1_i32 : i32
// CHECK-NEXT: fa4.mbarrier.wait %[[KEMPTY]] parity %[[KPARITY]]
// CHECK-NEXT: }
// K full (4 + slot): two 176 x 64 boxes of 22528 B into the K ring (from
// byte 32768, 45056 B per slot).
// CHECK-NEXT: %[[KEYROW:.*]] = arith.muli %[[TILE]], %c176_i32 : i32
// CHECK-NEXT: %[[KBI:.*]] = arith.addi %[[SLOT]], %c4_i32 : i32
// CHECK-NEXT: %[[KBAR:.*]] = fa4.mbarrier.get %[[KBI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[KBAR]] bytes 45056
// CHECK-NEXT: %[[KSTAGE:.*]] = arith.muli %[[SLOT]], %c45056_i32 : i32
// CHECK-NEXT: %[[K0:.*]] = arith.addi %[[KSTAGE]], %c32768_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[KMAP]][%c0_i32, %[[HEAD]], %[[KEYROW]], %[[BATCH]]] to %[[K0]], %[[KBAR]]
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[KSTAGE]], %c55296_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[KMAP]][%c64_i32, %[[HEAD]], %[[KEYROW]], %[[BATCH]]] to %[[K1]], %[[KBAR]]
// V(t - 1): its slot is refilled once its V empty barrier (10 + slot)
// completed the previous round; V full (6 + slot) into the V ring (from byte
// 122880).
// CHECK-NEXT: %[[VT:.*]] = arith.subi %[[TILE]], %c1_i32 : i32
// CHECK-NEXT: %[[VSLOT:.*]] = arith.remui %[[VT]], %c2_i32 : i32
// CHECK-NEXT: %[[VEI:.*]] = arith.addi %[[VSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[VEMPTY:.*]] = fa4.mbarrier.get %[[VEI]] offset 212992
// CHECK-NEXT: %[[VREUSE:.*]] = arith.cmpi uge, %[[VT]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[VREUSE]] {
// CHECK-NEXT: %[[VROUND:.*]] = arith.divui %[[VT]], %c2_i32 : i32
// CHECK-NEXT: %[[VPREV:.*]] = arith.subi %[[VROUND]], %c1_i32 : i32
// CHECK-NEXT: %[[VPARITY:.*]] = arith.andi %[[VPREV]], %c1_i32 : i32
// CHECK-NEXT: fa4.mbarrier.wait %[[VEMPTY]] parity %[[VPARITY]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[VKEYROW:.*]] = arith.muli %[[VT]], %c176_i32 : i32
// CHECK-NEXT: %[[VBI:.*]] = arith.addi %[[VSLOT]], %c6_i32 : i32
// CHECK-NEXT: %[[VBAR:.*]] = fa4.mbarrier.get %[[VBI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[VBAR]] bytes 45056
// CHECK-NEXT: %[[VSTAGE:.*]] = arith.muli %[[VSLOT]], %c45056_i32 : i32
// CHECK-NEXT: %[[V0:.*]] = arith.addi %[[VSTAGE]], %c122880_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[VMAP]][%c0_i32, %[[HEAD]], %[[VKEYROW]], %[[BATCH]]] to %[[V0]], %[[VBAR]]
// CHECK-NEXT: %[[V1:.*]] = arith.addi %[[VSTAGE]], %c145408_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[VMAP]][%c64_i32, %[[HEAD]], %[[VKEYROW]], %[[BATCH]]] to %[[V1]], %[[VBAR]]
// CHECK-NEXT: }
// After the loop, V of the last tile (tiles - 1), on the same V empty wait.
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: %[[LT:.*]] = arith.subi %[[NTILES]], %c1_i32 : i32
// CHECK-NEXT: %[[LSLOT:.*]] = arith.remui %[[LT]], %c2_i32 : i32
// CHECK-NEXT: %[[LEI:.*]] = arith.addi %[[LSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[LEMPTY:.*]] = fa4.mbarrier.get %[[LEI]] offset 212992
// CHECK-NEXT: %[[LREUSE:.*]] = arith.cmpi uge, %[[LT]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[LREUSE]] {
// CHECK: fa4.mbarrier.wait %[[LEMPTY]] parity
// CHECK-NEXT: }
// CHECK-NEXT: %[[LKEYROW:.*]] = arith.muli %[[LT]], %c176_i32 : i32
// CHECK-NEXT: %[[LBI:.*]] = arith.addi %[[LSLOT]], %c6_i32 : i32
// CHECK-NEXT: %[[LBAR:.*]] = fa4.mbarrier.get %[[LBI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[LBAR]] bytes 45056
// CHECK-NEXT: %[[LSTAGE:.*]] = arith.muli %[[LSLOT]], %c45056_i32 : i32
// CHECK-NEXT: %[[LV0:.*]] = arith.addi %[[LSTAGE]], %c122880_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[VMAP]][%c0_i32, %[[HEAD]], %[[LKEYROW]], %[[BATCH]]] to %[[LV0]], %[[LBAR]]
// CHECK-NEXT: %[[LV1:.*]] = arith.addi %[[LSTAGE]], %c145408_i32 : i32
// CHECK-NEXT: fa4.tma.load %[[VMAP]][%c64_i32, %[[HEAD]], %[[LKEYROW]], %[[BATCH]]] to %[[LV1]], %[[LBAR]]
// CHECK-NEXT: }
// CHECK-NOT: fa4.tma.load
// Consumer c: Q tile at 16384 * c; consumer 1 opens consumer 0's first GEMM
// turn (named barriers 1 + c of 256 threads: FA3 ping-pong).
// CHECK: }, {
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[QOFF:.*]] = arith.muli %[[CONSUMER]], %c16384_i32 : i32
// CHECK-NEXT: %[[QTILE:.*]] = fa4.smem.tile %[[QOFF]] : <64x128xbf16, k_major>
// CHECK-NEXT: %[[OWN:.*]] = arith.addi %[[CONSUMER]], %c1_i32 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c2_i32, %[[CONSUMER]] : i32
// CHECK-NEXT: %[[SECOND:.*]] = arith.cmpi eq, %[[CONSUMER]], %c1_i32 : i32
// CHECK-NEXT: scf.if %[[SECOND]] {
// CHECK-NEXT: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %c256_i32
// A consumer whose 64 rows start at or past Sq (its first row: the row
// block's plus 64 * consumer) issues no GEMM: per K/V tile it waits for K
// (barrier 4 + slot), takes and passes its turn, releases K (8 + slot),
// waits for V (6 + slot) and releases it (10 + slot); then it releases its
// Q (2 + consumer). The barriers' counts stay those of two consumers.
// CHECK: %[[CROWS:.*]] = arith.muli %[[CONSUMER]], %c64_i32 : i32
// CHECK-NEXT: %[[CROW:.*]] = arith.addi %{{.*}}, %[[CROWS]] : i32
// CHECK-NEXT: %[[IDLE:.*]] = arith.cmpi sge, %[[CROW]], %arg6 : i32
// CHECK-NEXT: scf.if %[[IDLE]] {
// CHECK-NEXT: %[[IQFULL:.*]] = fa4.mbarrier.get %[[CONSUMER]] offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[IQFULL]] parity %c0_i32
// CHECK: scf.for
// CHECK-NOT: fa4.mma
// CHECK: %[[IKSLOT:.*]] = arith.addi %[[ISLOT:.*]], %c4_i32 : i32
// CHECK-NEXT: %[[IKFULL:.*]] = fa4.mbarrier.get %[[IKSLOT]] offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[IKFULL]]
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %c256_i32
// CHECK-NEXT: arith.addi %[[ISLOT]], %c8_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: arith.addi %[[ISLOT]], %c6_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.wait
// CHECK-NEXT: arith.addi %[[ISLOT]], %c10_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive
// CHECK-NEXT: }
// CHECK-NEXT: %[[IQSLOT:.*]] = arith.addi %[[CONSUMER]], %c2_i32 : i32
// CHECK-NEXT: %[[IQEMPTY:.*]] = fa4.mbarrier.get %[[IQSLOT]] offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[IQEMPTY]]
// CHECK-NEXT: } else {
// The consumer's own Q full (barrier `consumer`), parity (work tiles done &
// 1) = 0; then its own K/V tile count under the mask (own-tiles.mlir); the
// loop carries O, row max, row sum and P of the previous tile.
// CHECK-NEXT: %[[QFULL:.*]] = fa4.mbarrier.get %[[CONSUMER]] offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[QFULL]] parity %c0_i32
// CHECK: %[[ZEROS:.*]] = fa4.splat %[[ZERO:.*]] : !fa4.frag<64x176xf32>
// CHECK-NEXT: %[[NOP:.*]] = fa4.truncf %[[ZEROS]] : <64x176xf32> to <64x176xbf16>
// CHECK-NEXT: %[[O0:.*]] = fa4.splat %[[ZERO]] : !fa4.frag<64x128xf32>
// CHECK-NEXT: %[[M0:.*]] = fa4.splat %{{.*}} : !fa4.rows<64xf32>
// CHECK-NEXT: %[[L0:.*]] = fa4.splat %[[ZERO]] : !fa4.rows<64xf32>
// CHECK: %[[LOOP:.*]]:4 = scf.for %{{.*}} iter_args(%[[O:.*]] = %[[O0]], %[[M:.*]] = %[[M0]], %[[L:.*]] = %[[L0]], %[[P:.*]] = %[[NOP]]) -> (!fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x176xbf16>)
// Per tile: K full (4 + slot), this consumer's turn, S = Q K^T (m64n176,
// K = 128).
// CHECK-NEXT: %[[CT:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[CSLOT:.*]] = arith.remui %[[CT]], %c2_i32 : i32
// CHECK: %[[HASPREV:.*]] = arith.cmpi sgt, %[[CT]], %c0_i32 : i32
// CHECK-NEXT: %[[CPREV:.*]] = arith.subi %[[CT]], %c1_i32 : i32
// CHECK: %[[KFI:.*]] = arith.addi %[[CSLOT]], %c4_i32 : i32
// CHECK-NEXT: %[[KFULL:.*]] = fa4.mbarrier.get %[[KFI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[KFULL]] parity
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK: %[[KTILE:.*]] = fa4.smem.tile %{{.*}} : <176x128xbf16, k_major>
// CHECK-NEXT: %[[S:.*]] = fa4.mma %[[QTILE]], %[[KTILE]], %[[ZEROS]] : !fa4.smem_tile<64x128xbf16, k_major>, <176x128xbf16, k_major>, <64x176xf32>
// In the same turn, O += P V of the previous tile, after V's full barrier.
// CHECK-NEXT: %[[PV:.*]] = scf.if %[[HASPREV]] -> (!fa4.frag<64x128xf32>) {
// CHECK: %[[PVSLOT:.*]] = arith.remui %[[CPREV]], %c2_i32 : i32
// CHECK-NEXT: %[[VFI:.*]] = arith.addi %[[PVSLOT]], %c6_i32 : i32
// CHECK-NEXT: %[[VFULL:.*]] = fa4.mbarrier.get %[[VFI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[VFULL]] parity
// CHECK: %[[VTILE:.*]] = fa4.smem.tile %{{.*}} : <176x128xbf16, mn_major>
// CHECK-NEXT: %[[OPV:.*]] = fa4.mma %[[P]], %[[VTILE]], %[[O]] : !fa4.frag<64x176xbf16>, <176x128xbf16, mn_major>, <64x128xf32>
// CHECK-NEXT: scf.yield %[[OPV]]
// CHECK: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %c256_i32
// CHECK-NEXT: fa4.mma.wait
// S is in registers: this tile's K slot is released right away (K empty,
// 8 + slot); the previous tile's V slot (V empty, 10 + slot) once its P V
// is done, which the same wait covers.
// CHECK-NEXT: %[[KEI:.*]] = arith.addi %[[CSLOT]], %c8_i32 : i32
// CHECK-NEXT: %[[KRELEASE:.*]] = fa4.mbarrier.get %[[KEI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[KRELEASE]]
// CHECK-NEXT: scf.if %[[HASPREV]] {
// CHECK-NEXT: %[[PSLOT:.*]] = arith.remui %[[CPREV]], %c2_i32 : i32
// CHECK-NEXT: %[[VEI:.*]] = arith.addi %[[PSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[VRELEASE:.*]] = fa4.mbarrier.get %[[VEI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[VRELEASE]]
// CHECK-NEXT: }
// CHECK: %[[MASKED:.*]] = fa4.mask %[[S]] mask #attn.mask<causal> keys %{{.*}} rows %[[TILEROW:[^ ]+]] sq %[[SQ]] skv %[[SKV]] : <64x176xf32>
// CHECK-NEXT: %[[PROBS:.*]], %[[NEWMAX:.*]], %[[NEWSUM:.*]], %[[CORR:.*]] = fa4.softmax %[[MASKED]] max %[[M]] sum %[[L]] scale %[[SCALE]] {rescaleThreshold = 8.000000e+00 : f64} : <64x176xf32>, <64xf32>
// CHECK-NEXT: %[[RESCALED:.*]] = fa4.scale_rows lazy %[[PV]] by %[[CORR]] : <64x128xf32>, <64xf32>
// CHECK-NEXT: %[[NEXTP:.*]] = fa4.truncf %[[PROBS]] : <64x176xf32> to <64x176xbf16>
// CHECK-NEXT: scf.yield %[[RESCALED]], %[[NEWMAX]], %[[NEWSUM]], %[[NEXTP]]
// After the loop, whose last step waited for the last QK^T: the
// consumer's Q empty (barrier 2 + consumer), so its next Q can load under
// this tile's drain; then the last tile's P V, which releases its V slot
// (V empty, 10 + slot), and the epilogue: O / sum for 128 columns, and LSE.
// CHECK: %[[QEI:.*]] = arith.addi %[[CONSUMER]], %c2_i32 : i32
// CHECK-NEXT: %[[QEMPTY:.*]] = fa4.mbarrier.get %[[QEI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[QEMPTY]]
// CHECK: scf.if
// CHECK-NEXT: %[[LASTT:.*]] = arith.subi %{{.*}}, %c1_i32 : i32
// CHECK: %[[LASTSLOT:.*]] = arith.remui %[[LASTT]], %c2_i32 : i32
// CHECK: fa4.mma %[[LOOP]]#3, %{{.*}}, %[[LOOP]]#0
// CHECK-NEXT: fa4.mma.wait
// CHECK-NEXT: %[[LVEI:.*]] = arith.addi %[[LASTSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[LVRELEASE:.*]] = fa4.mbarrier.get %[[LVEI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[LVRELEASE]]
// CHECK: fa4.epilogue %{{.*}}, %[[LOOP]]#1, %[[LOOP]]#2 to %[[OPTR]][%[[CBATCH:.*]], %[[TILEROW]], %[[CHEAD:.*]]] strides[%[[OS0]], %[[OS1]], %[[OS2]]] sq %[[SQ]] depth 128 of bf16 lse %[[LSEPTR]] strides[%[[LS0]], %[[LS1]]]
// Consumer 0 takes the turn consumer 1's first arrive granted.
// CHECK-NEXT: }
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[CONSUMER]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK: gpu.return
func.func @mha_causal_lse_d128(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// -----

// CHECK-LABEL: func @mha_none_f16_d64
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 176, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 176, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]]
// CHECK-SAME: dynamic_smem_bytes = 196768
// CHECK-SAME: smem = #attn.smem<kv_stages = 4, {{.*}}, smem_used = 196768
// d = 64, f16, no mask, no LSE: one Q box per consumer, four K/V stages
// (so 2 * 2 + 4 * 4 mbarriers: Q full 0 and 1, Q empty 2 and 3, K full
// 4 + slot, V full 8 + slot, K empty 12 + slot, V empty 16 + slot), m64n176
// with K = 64, P V m64n64.
// CHECK: gpu.func @fa4_hopper_mha_none_f16_d64_sm_90a(%{{.*}}: !fa4.tensor_map, %{{.*}}: !fa4.tensor_map, %{{.*}}: !fa4.tensor_map, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32)
// CHECK: fa4.mbarrier.init %{{.*}} count 1
// CHECK: fa4.mbarrier.init %{{.*}} count 128
// CHECK: fa4.mbarrier.init %{{.*}} count 1
// CHECK: fa4.mbarrier.init %{{.*}} count 128
// CHECK-COUNT-8: fa4.mbarrier.init %{{.*}} count 1
// CHECK-COUNT-8: fa4.mbarrier.init %{{.*}} count 256
// CHECK-NOT: fa4.mbarrier.init
// Without a mask the row blocks of one head are adjacent (L2 reuse of K/V):
// row block = work % ceil_div(Sq, 128).
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// CHECK: arith.remui %{{.*}}, %{{.*}} : i32
// K(0) into slot 0 (byte 16384) on K full 4, then each consumer's Q tile
// (8 KiB); then per t >= 1, K(t) after its K empty wait (12 + slot), V(t -
// 1) after its V empty wait (16 + slot), on V full 8 + slot into the V ring
// from byte 106496; then V of the last tile.
// CHECK: %[[K0BAR:.*]] = fa4.mbarrier.get %c4_i32 offset 196608
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[K0BAR]] bytes 22528
// CHECK-NEXT: fa4.tma.load %{{.*}} to %c16384_i32, %[[K0BAR]]
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 8192
// CHECK-NEXT: fa4.tma.load
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 8192
// CHECK: fa4.tma.load
// CHECK: scf.for
// CHECK: %[[KSLOT:.*]] = arith.remui %{{.*}}, %c4_i32 : i32
// CHECK-NEXT: arith.addi %[[KSLOT]], %c12_i32 : i32
// CHECK: fa4.mbarrier.wait
// CHECK: arith.addi %[[KSLOT]], %c4_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.expect_tx %{{.*}} bytes 22528
// CHECK-NEXT: arith.muli %[[KSLOT]], %c22528_i32
// CHECK-NEXT: arith.addi %{{.*}}, %c16384_i32
// CHECK-NEXT: fa4.tma.load
// CHECK-NEXT: %[[VT:.*]] = arith.subi %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: %[[VSLOT:.*]] = arith.remui %[[VT]], %c4_i32 : i32
// CHECK-NEXT: arith.addi %[[VSLOT]], %c16_i32 : i32
// CHECK: fa4.mbarrier.wait
// CHECK: arith.addi %[[VSLOT]], %c8_i32 : i32
// CHECK-NEXT: fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.expect_tx %{{.*}} bytes 22528
// CHECK-NEXT: arith.muli %[[VSLOT]], %c22528_i32
// CHECK-NEXT: arith.addi %{{.*}}, %c106496_i32
// CHECK-NEXT: fa4.tma.load
// CHECK-NEXT: }
// CHECK-NEXT: scf.if
// CHECK: arith.addi %{{.*}}, %c16_i32 : i32
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 22528
// CHECK: fa4.tma.load
// CHECK-NOT: fa4.tma.load
// CHECK: fa4.smem.tile %{{.*}} : <64x64xf16, k_major>
// CHECK: fa4.mma %{{.*}}, %{{.*}}, %{{.*}} : !fa4.smem_tile<64x64xf16, k_major>, <176x64xf16, k_major>, <64x176xf32>
// CHECK: fa4.mma %{{.*}}, %{{.*}}, %{{.*}} : !fa4.frag<64x176xf16>, <176x64xf16, mn_major>, <64x64xf32>
// CHECK: fa4.mask %{{.*}} mask #attn.mask<none> {{.*}} : <64x176xf32>
// CHECK: fa4.epilogue {{.*}} depth 64 of f16 : !fa4.frag<64x64xf32>, <64xf32>, !llvm.ptr<1>{{$}}
func.func @mha_none_f16_d64(%q: tensor<?x?x6x64xf16>, %k: tensor<?x?x6x64xf16>, %v: tensor<?x?x6x64xf16>) -> tensor<?x?x6x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x64xf16>, tensor<?x?x6x64xf16>, tensor<?x?x6x64xf16> -> tensor<?x?x6x64xf16>
  return %o : tensor<?x?x6x64xf16>
}

// -----

// CHECK-LABEL: func @gqa_right_window_f16_d96
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 176, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 176, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: dynamic_smem_bytes = 213120
// d = 96 pads to two 64-column boxes (128); the epilogue stores 96 columns.
// GQA 6/3: the kv head is head / 2. window(-1, 32): only the right edge.
// CHECK: arith.divui %{{.*}}, %c2_i32 : i32
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 16384
// CHECK: fa4.smem.tile %{{.*}} : <64x128xf16, k_major>
// CHECK: fa4.mma {{.*}} : !fa4.smem_tile<64x128xf16, k_major>, <176x128xf16, k_major>, <64x176xf32>
// CHECK: fa4.mma {{.*}} : !fa4.frag<64x176xf16>, <176x128xf16, mn_major>, <64x128xf32>
// CHECK: fa4.mask %{{.*}} mask #attn.mask<window(-1, 32)> {{.*}} : <64x176xf32>
// CHECK: fa4.epilogue {{.*}} depth 96 of f16 : !fa4.frag<64x128xf32>, <64xf32>, !llvm.ptr<1>{{$}}
func.func @gqa_right_window_f16_d96(%q: tensor<?x?x6x96xf16>, %k: tensor<?x?x3x96xf16>, %v: tensor<?x?x3x96xf16>) -> tensor<?x?x6x96xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x6x96xf16>, tensor<?x?x3x96xf16>, tensor<?x?x3x96xf16> -> tensor<?x?x6x96xf16>
  return %o : tensor<?x?x6x96xf16>
}

// -----

// CHECK-LABEL: func @mqa_window_lse_d192_128
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: dynamic_smem_bytes = 213136
// CHECK-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}, k_stage_bytes = 49152, v_stage_bytes = 32768, {{.*}}, smem_used = 213136
// Dqk = 192 != Dv = 128: three Q/K boxes (48 KiB K stages), two V boxes
// (32 KiB), BN = 128. MQA: every head reads kv head head / 6.
// CHECK: arith.divui %{{.*}}, %c6_i32 : i32
// K(0); Q; per later tile K(t) then V(t - 1); V of the last tile.
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 49152
// CHECK-COUNT-3: fa4.tma.load %arg1
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 24576
// CHECK-COUNT-3: fa4.tma.load %arg0
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 24576
// CHECK-COUNT-3: fa4.tma.load %arg0
// CHECK: scf.for
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 49152
// CHECK-COUNT-3: fa4.tma.load %arg1
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// CHECK-COUNT-2: fa4.tma.load %arg2
// CHECK: scf.if
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// CHECK-COUNT-2: fa4.tma.load %arg2
// CHECK-NOT: fa4.tma.load
// CHECK: fa4.smem.tile %{{.*}} : <64x192xbf16, k_major>
// CHECK: fa4.mma {{.*}} : !fa4.smem_tile<64x192xbf16, k_major>, <128x192xbf16, k_major>, <64x128xf32>
// CHECK: fa4.mma {{.*}} : !fa4.frag<64x128xbf16>, <128x128xbf16, mn_major>, <64x128xf32>
// CHECK: fa4.mask %{{.*}} mask #attn.mask<window(17, 33)> {{.*}} : <64x128xf32>
// CHECK: fa4.epilogue {{.*}} depth 128 of bf16 lse
func.func @mqa_window_lse_d192_128(%q: tensor<?x?x6x192xbf16>, %k: tensor<?x?x1x192xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x192xbf16>, tensor<?x?x1x192xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// -----

// CHECK-LABEL: func @gqa_left_window_d256
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 80, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 80, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: dynamic_smem_bytes = 229568
// CHECK-SAME: smem = #attn.smem<kv_stages = 2, {{.*}}, k_stage_bytes = 40960, v_stage_bytes = 40960, {{.*}}, smem_used = 229568
// d = 256 on memrefs: BN = 80 keeps S (40 registers) and O (128) in the
// consumer's 240; 16 QK steps of m64n80 and 5 P V steps of m64n256.
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 32768
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 40960
// CHECK-COUNT-4: fa4.tma.load %arg1
// CHECK: fa4.smem.tile %{{.*}} : <64x256xbf16, k_major>
// CHECK: fa4.mma {{.*}} : !fa4.smem_tile<64x256xbf16, k_major>, <80x256xbf16, k_major>, <64x80xf32>
// CHECK: fa4.mma {{.*}} : !fa4.frag<64x80xbf16>, <80x256xbf16, mn_major>, <64x256xf32>
// CHECK: fa4.mask %{{.*}} mask #attn.mask<window(128, 0)> {{.*}} : <64x80xf32>
// CHECK: fa4.epilogue {{.*}} depth 256 of bf16 : !fa4.frag<64x256xf32>, <64xf32>, !llvm.ptr<1>{{$}}
func.func @gqa_left_window_d256(%q: memref<?x?x6x256xbf16>, %k: memref<?x?x3x256xbf16>, %v: memref<?x?x3x256xbf16>, %o: memref<?x?x6x256xbf16>) {
  attn.attention %q, %k, %v outs(%o : memref<?x?x6x256xbf16>) {mask = #attn.mask<window(128, 0)>} : memref<?x?x6x256xbf16>, memref<?x?x3x256xbf16>, memref<?x?x3x256xbf16>
  return
}
