// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// The FA4 structure on sm_100a, d = 128 causal with LSE: two 128-row Q
// tiles (BM = 256), BN = 128, TMEM S0 = 0, S1 = 128, O0 = 256, O1 = 384,
// P0 = 64, P1 = 192 (P over the upper half of S), a 512-column allocation.
// CHECK-LABEL: func @fa4_d128
// O leaves by TMA: its tensor map (128-row boxes of 64 columns) comes
// last; LSE by pointer.
// CHECK: params = [#fa4.tensor_map<"q", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, {{.*}}, #fa4.scalar<f32, "scale_log2">, #fa4.tensor_map<"o", [1, 128, 1, 64], swizzle = 128>]
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 256>, "hq", "b"], [1], [1]]
// CHECK-SAME: block = [512, 1, 1]
// CHECK: gpu.func @fa4_blackwell_fa4_d128_sm_100a(
// CHECK-SAME: nvvm.maxntid = array<i32: 512, 1, 1>
// The MMA warp (warp 13: two softmax warpgroups and the correction
// warpgroup come first, then the load warp) allocates the planned 512
// columns, its address at the plan's tmemAddress slot; thread 0 initialises
// 1 + 4 x 2 stages + 5 x 2 mbarriers (per Q tile: S full, P ready, O done,
// stats ready, O staged).
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[ISMMA:.*]] = arith.cmpi eq, %[[WARP]], %c13_i32 : i32
// CHECK-NEXT: scf.if %[[ISMMA]] {
// CHECK-NEXT: fa4.tmem.alloc 512 columns to 198656
// CHECK-COUNT-19: fa4.mbarrier.init
// CHECK-NOT: fa4.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// Roles: 2 softmax warpgroups at 184 registers, correction and the
// load/MMA warpgroup at 72 (the 65536 of a 512-thread CTA).
// CHECK: fa4.warp_specialize warpgroups [2, 1, 1] registers [184, 72, 72] {
// Softmax 0: S0 from TMEM once S full (barrier 9) completes, the mask, the
// softmax with FA4's lazy rescale (threshold 2^8), its scores in f32x2
// pairs (at 184 registers, D-61) and every 4th pair's exp2 on the FMA pipe;
// the factors go to the correction rows (stats ready, 15); P0 into TMEM
// over S0, then P ready (11).
// CHECK: scf.for {{.*}} -> (!fa4.rows<128xf32>, !fa4.rows<128xf32>)
// CHECK: %[[SFULL0:.*]] = fa4.mbarrier.get %c9_i32 offset 198664
// CHECK-NEXT: fa4.mbarrier.wait %[[SFULL0]]
// CHECK-NEXT: %[[S0:.*]] = fa4.tmem.tile column 0 of 198656 : <128x128xf32>
// CHECK-NEXT: %[[SCORES:.*]] = fa4.tmem.load %[[S0]] : <128x128xf32> -> <128x128xf32>
// CHECK: %[[MASKED:.*]] = fa4.mask %[[SCORES]] mask #attn.mask<causal>
// CHECK-NEXT: %[[P:.*]], %[[MAX:.*]], %[[SUM:.*]], %[[CORR:.*]] = fa4.softmax %[[MASKED]] {{.*}} {packedPairs, polyExp2Period = 4 : i64, rescaleThreshold = 8.000000e+00 : f64} : <128x128xf32>, <128xf32>
// CHECK-NEXT: fa4.rows.store %[[CORR]] at 196608 : <128xf32>
// CHECK: fa4.mbarrier.arrive
// CHECK-NEXT: %[[P16:.*]] = fa4.truncf %[[P]] : <128x128xf32> to <128x128xbf16>
// CHECK-NEXT: %[[P0:.*]] = fa4.tmem.tile column 64 of 198656 : <128x128xbf16>
// CHECK-NEXT: fa4.tmem.store %[[P16]], %[[P0]]
// CHECK: fa4.mbarrier.arrive
// CHECK: scf.yield %[[MAX]], %[[SUM]]
// The final max and sum for the epilogue.
// CHECK: fa4.rows.store %{{.*}}#0 at 196608
// CHECK-NEXT: fa4.rows.store %{{.*}}#1 at 197120
// Softmax 1: S1 at column 128, P1 at 192, its rows at 197632.
// CHECK: fa4.tmem.tile column 128 of 198656 : <128x128xf32>
// CHECK: fa4.tmem.tile column 192 of 198656 : <128x128xbf16>
// CHECK: }, {
// Correction: per tile and Q tile, the factors; from the second tile on,
// once the previous P V is done (O done, 13 / 14), O_i rescaled in TMEM;
// then its share of P ready.
// CHECK: fa4.rows.load 196608 : <128xf32>
// CHECK: fa4.mbarrier.get %c13_i32
// CHECK: fa4.tmem.tile column 256 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.tmem.scale_rows
// CHECK: fa4.tmem.tile column 384 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.tmem.scale_rows
// The epilogue: O_i / sum from TMEM (zeros when no key was visible) into
// shared memory over Q (dead once O_i's last P V is done), 32 KB per Q
// tile; LSE straight to memory; then O staged (17 / 18).
// CHECK: fa4.tmem.store %{{.*}}, %{{.*}} : <128x128xf32>, <128x128xf32>
// CHECK: %[[O0:.*]] = fa4.tmem.tile column 256 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.epilogue.stage %[[O0]], %{{.*}} to 0 of bf16 : !fa4.tmem_tile<128x128xf32>, <128xf32>
// CHECK-NEXT: fa4.lse.store
// CHECK-NEXT: %[[STAGED0:.*]] = fa4.mbarrier.get %c17_i32
// CHECK-NEXT: fa4.mbarrier.arrive %[[STAGED0]]
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 32768 of bf16
// CHECK: fa4.mbarrier.get %c18_i32
// CHECK-NOT: fa4.epilogue {{.*}}
// CHECK: }, {
// Warp 0's lane 0 loads (Q once, K and V per tile into 2-stage rings); warp
// 1, whole and converged, runs the MMA role and its lane elected once issues
// every MMA: S_i = Q_i K^T overwriting S_i, committed onto S full; O_i (+)=
// P_i V with P from TMEM, committed onto O done; the K and V slots released
// by commits.
// CHECK: fa4.mbarrier.expect_tx %{{.*}} bytes 65536
// CHECK-COUNT-4: fa4.tma.load %arg0
// CHECK: %[[MMAWARP:.*]] = arith.cmpi eq, %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: scf.if %[[MMAWARP]] {
// Its TMEM tiles made once, where the role starts (D-66): S_0, S_1, O_0,
// P_0, O_1, P_1, in the order of first use.
// CHECK-NEXT: fa4.tmem.tile column 0 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.tmem.tile column 128 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.tmem.tile column 256 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.tmem.tile column 64 of 198656 : <128x128xbf16>
// CHECK-NEXT: fa4.tmem.tile column 384 of 198656 : <128x128xf32>
// CHECK-NEXT: fa4.tmem.tile column 192 of 198656 : <128x128xbf16>
// CHECK-NEXT: %[[ISSUER:.*]] = nvvm.elect.sync -> i1
// CHECK-NOT: fa4.tmem.tile
// CHECK-NOT: nvvm.elect.sync
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %false issued_by %[[ISSUER]] : !fa4.smem_tile<128x128xbf16, k_major>, <128x128xbf16, k_major>, <128x128xf32>
// CHECK: fa4.tmem.commit %{{.*}} issued_by %[[ISSUER]]
// CHECK: fa4.tmem.fence {after = true}
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} issued_by %[[ISSUER]] : !fa4.tmem_tile<128x128xbf16>, <128x128xbf16, mn_major>, <128x128xf32>
// CHECK: fa4.tmem.commit %{{.*}} issued_by %[[ISSUER]]
// Warp 2's lane 0, the epilogue warp: once O_i is staged, two TMA stores
// of 64 columns each (16 KB apart) at the tile's first row, then it waits
// until the stores have read shared memory.
// CHECK: %[[OSTAGED0:.*]] = fa4.mbarrier.get %c17_i32
// CHECK-NEXT: fa4.mbarrier.wait %[[OSTAGED0]] parity %c0_i32
// CHECK-NEXT: fa4.tma.store %arg14[%c0_i32, %[[HEAD:.*]], %[[ROW0:.*]], %[[BATCH:.*]]] from %c0_i32
// CHECK-NEXT: fa4.tma.store %arg14[%c64_i32, %[[HEAD]], %[[ROW0]], %[[BATCH]]] from %c16384_i32
// CHECK: fa4.mbarrier.get %c18_i32
// CHECK: fa4.tma.store %arg14[%c0_i32, %[[HEAD]], %[[ROW1:.*]], %[[BATCH]]] from %c32768_i32
// CHECK-NEXT: fa4.tma.store %arg14[%c64_i32, %[[HEAD]], %[[ROW1]], %[[BATCH]]] from %c49152_i32
// CHECK-NEXT: fa4.tma.store.wait
// After the roles join, the MMA warp frees the tensor memory.
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if %[[ISMMA]] {
// CHECK-NEXT: fa4.tmem.dealloc 512 columns at 198656
func.func @fa4_d128(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
