// The sm_100a FA4 kernel under pair_cta (FA4's 2-CTA mode) through the whole
// pipeline, checked on its PTX: every tcgen05 instruction is cta_group::2
// (one kernel, one cta_group); the pair's TMEM is allocated and freed by
// both MMA warps; every TMA load counts on the leader's barrier (mapa to
// rank 0, .cta_group::2); commits reach both CTAs (multicast mask 3); P is
// handed over by one lane per warp, released at cluster scope and acquired
// at cluster scope by the leader's MMA thread; the cluster meets after the
// barriers are initialised and again before the allocation is freed.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_blackwell_pair_sm_100a/fa4_blackwell_pair_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=NOT1 --input-file=%t/fa4_blackwell_pair_sm_100a/fa4_blackwell_pair_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_blackwell_pair_sm_100a/manifest.json

// NOT1-NOT: cta_group::1

// CHECK: .visible .entry fa4_blackwell_pair_sm_100a(
// CHECK: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [fa4_dynamic_smem+198656], %r{{[0-9]+}};
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK: mbarrier.init.shared.b64
// CHECK: fence.proxy.async.shared::cta;
// CHECK: barrier.cluster.arrive.aligned;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// Softmax: the leader's P-ready barrier (rank 0), one lane per warp after
// the warp meets, released at cluster scope.
// CHECK: setmaxnreg.inc.sync.aligned.u32 184;
// CHECK: mapa.shared::cluster.u64 [[PREADY:%rd[0-9]+]], %rd{{[0-9]+}}, 0;
// CHECK: tcgen05.st.sync.aligned.32x32b
// CHECK: tcgen05.wait::st.sync.aligned;
// CHECK: tcgen05.fence::before_thread_sync;
// CHECK: bar.warp.sync -1;
// CHECK: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [[[PREADY]]]
// Loader: this CTA's halves into its own shared memory, counted on the
// leader's barriers.
// CHECK: setmaxnreg.dec.sync.aligned.u32 72;
// CHECK: mapa.shared::cluster.u64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 0;
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// MMA (the leader): M = 256 across the pair, committed to both CTAs; P
// acquired at cluster scope before O += P V.
// CHECK: tcgen05.mma.cta_group::2.kind::f16
// CHECK: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [fa4_dynamic_smem+{{[0-9]+}}], %rs{{[0-9]+}};
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK: tcgen05.mma.cta_group::2.kind::f16
// The pair meets, then frees its allocation.
// CHECK: barrier.cluster.arrive.aligned;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// CHECK: tcgen05.dealloc.cta_group::2.sync.aligned.b32

// The launch: clusters of 2 CTAs, grid x = 2 x ceil(Sq / 512) x Hq x B.
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "ceil_div": [
// MANIFEST-NEXT: "sq",
// MANIFEST-NEXT: 512

func.func @pair(%q: tensor<4x8192x16x128xbf16>, %k: tensor<4x8192x16x128xbf16>, %v: tensor<4x8192x16x128xbf16>) -> tensor<4x8192x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<4x8192x16x128xbf16>, tensor<4x8192x16x128xbf16>, tensor<4x8192x16x128xbf16> -> tensor<4x8192x16x128xbf16>
  return %o : tensor<4x8192x16x128xbf16>
}
