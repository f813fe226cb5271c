// fa4-compile (--kv-multicast, the default): the sm_90a prefill kernels without a mask at
// d = 128 and 256 run in clusters of two (manifest version 10: a clustered
// kernel beside its looped twin, whose own launch has no cluster); each CTA
// of a pair loads every other 64-column box of each K and V tile into both
// (multicast mask 3: d = 128's two boxes a tile, d = 256's four), and
// releases its slots on the peer's barriers (mapa, an arrive of 32 per warp
// at CTA scope, CUTLASS's form); the kernels still assemble without
// spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --kv-multicast --decode-variants=false --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_fa3_p128_sm_90a/fa4_fa3_p128_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MC --input-file=%t/fa4_fa3_p128_sm_90a/fa4_fa3_p128_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MC256 --input-file=%t/fa4_fa3_p256_sm_90a/fa4_fa3_p256_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_fa3_p128_sm_90a/manifest.json

// CHECK: Compiling entry function 'fa4_fa3_p128_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p128_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_fa3_p256_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p256_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// PTX-LABEL: .entry fa4_fa3_p128_sm_90a(
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], [{{.*}}], %rs{{[0-9]+}};
// PTX-DAG: mapa.shared::cluster.u64
// PTX-DAG: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// The looped twin loads for itself alone.
// PTX-LABEL: .entry fa4_fa3_p128_sm_90a_persistent(
// PTX-NOT: multicast
// PTX-NOT: barrier.cluster
// PTX: ret;
// Every K and V copy of the kernel multicasts: d = 128 two boxes a tile,
// d = 256 four, each in the first, the looped and the last load.
// MC-COUNT-12: multicast::cluster
// MC-NOT: multicast::cluster
// MC256-COUNT-24: multicast::cluster
// MC256-NOT: multicast::cluster

// MANIFEST: "fa4_abi_version": 10,
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "ceil_div": [
// MANIFEST-NEXT: "sq",
// MANIFEST-NEXT: 256
// MANIFEST: "twin": {
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 1,

func.func @p128(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
func.func @p256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}
