// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// convert-attn-to-fa4{intra-wg-overlap}, on by default for prefill plans
// without a window mask: FA3's intra-warpgroup overlap in the consumer. Step 0 (no P V yet) is peeled off; in the loop every step
// issues S(t) = Q K^T(t) and O += P(t-1) V(t-1) in one GEMM turn, waits for
// S only (`pending = 1`: groups complete in order), releases K(t), runs the
// mask and the softmax of S(t) while the P V is in flight, then waits for
// it, releases V(t-1) and rescales O. No run-time branch sits between the
// P V and its wait.
// CHECK-LABEL: func @mha
// CHECK: fa4.warp_specialize
// CHECK: }, {
// The peeled step 0: one MMA, a full wait, the softmax.
// CHECK: %[[FIRST:.*]]:4 = scf.if %{{.*}} -> (!fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x176xbf16>) {
// CHECK: %[[S0:.*]] = fa4.mma %[[Q:.*]], %{{.*}}, %{{.*}} : !fa4.smem_tile<64x128xbf16, k_major>, <176x128xbf16, k_major>, <64x176xf32>
// CHECK-NOT: fa4.mma
// CHECK: fa4.mma.wait{{$}}
// CHECK: fa4.mbarrier.arrive
// CHECK: fa4.mask %[[S0]]
// CHECK: fa4.softmax
// CHECK-NOT: fa4.mma.wait
// CHECK: scf.yield
// The loop from step 1.
// CHECK: scf.for %{{.*}} = %c1 to %{{.*}} step %c1 iter_args(%[[OUT:.*]] = %[[FIRST]]#0, %{{.*}} = %[[FIRST]]#1, %{{.*}} = %[[FIRST]]#2, %[[P:.*]] = %[[FIRST]]#3)
// CHECK: %[[S:.*]] = fa4.mma %[[Q]], %{{.*}}, %{{.*}} : !fa4.smem_tile<64x128xbf16, k_major>, <176x128xbf16, k_major>, <64x176xf32>
// CHECK-NOT: scf.if
// CHECK: %[[PV:.*]] = fa4.mma %[[P]], %{{.*}}, %[[OUT]] : !fa4.frag<64x176xbf16>, <176x128xbf16, mn_major>, <64x128xf32>
// CHECK-NEXT: nvvm.barrier.arrive
// CHECK-NEXT: fa4.mma.wait {pending = 1 : i64}
// The K slot of this tile (K empty: 8 + slot).
// CHECK: arith.addi %{{.*}}, %c8_i32 : i32
// CHECK-NEXT: %[[KEMPTY:.*]] = fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive %[[KEMPTY]]{{$}}
// At d = 128 without a mask the kernel's CTAs go in pairs (kv-multicast):
// lane 0 of each warp releases the peer's slot too.
// CHECK-NEXT: %[[LEAD:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32 : i32
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT: fa4.mbarrier.arrive %[[KEMPTY]] in_cta %{{.*}} count 32 cta_scope
// CHECK-NEXT: }
// CHECK-NEXT: %[[MASKED:.*]] = fa4.mask %[[S]]
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %[[CORR:.*]] = fa4.softmax %[[MASKED]]
// CHECK-NEXT: fa4.mma.wait{{$}}
// The previous tile's V slot (V empty: 10 + slot), then O.
// CHECK: arith.addi %{{.*}}, %c10_i32 : i32
// CHECK-NEXT: %[[VEMPTY:.*]] = fa4.mbarrier.get
// CHECK-NEXT: fa4.mbarrier.arrive %[[VEMPTY]]{{$}}
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT: fa4.mbarrier.arrive %[[VEMPTY]] in_cta %{{.*}} count 32 cta_scope
// CHECK-NEXT: }
// CHECK-NEXT: fa4.scale_rows lazy %[[PV]] by %[[CORR]]
// CHECK: scf.yield
// The last tile's P V after the loop, then the epilogue.
// CHECK: fa4.mma %{{.*}}, %{{.*}}, %{{.*}} : !fa4.frag<64x176xbf16>, <176x128xbf16, mn_major>, <64x128xf32>
// CHECK: fa4.epilogue
func.func @mha(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}

// -----

// A window mask keeps the plain schedule: its compares on top of the
// previous tile's P would spill (hopper-ptxas-matrix.mlir). Every MMA wait
// drains the pipeline; the P V of step t waits behind a run-time branch.
// CHECK-LABEL: func @window
// CHECK: fa4.warp_specialize
// CHECK-NOT: pending = 1
// CHECK: fa4.epilogue
func.func @window(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}

// -----

// The causal prefill takes the overlap: the causal mask is one of the
// two measured.
// CHECK-LABEL: func @causal
// CHECK: fa4.mma.wait {pending = 1 : i64}
func.func @causal(%q: tensor<?x?x16x64xf16>, %k: tensor<?x?x16x64xf16>, %v: tensor<?x?x16x64xf16>) -> tensor<?x?x16x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x64xf16>, tensor<?x?x16x64xf16>, tensor<?x?x16x64xf16> -> tensor<?x?x16x64xf16>
  return %o : tensor<?x?x16x64xf16>
}
