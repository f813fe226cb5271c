// fa4-compile (--kv-multicast, the default): the sm_90a prefill kernels without a mask at
// d = 128 and 256 run in clusters of two (manifest version 10: a clustered
// kernel beside its looped twin, which runs in pairs on its own launch
// with --kv-multicast-twin, the default, and alone without); each CTA
// of a pair loads every other 64-column box of each K and V tile into both
// (multicast mask 3: d = 128's two boxes a tile, d = 256's four), and
// releases its slots on the peer's barriers (mapa, an arrive of 32 per warp
// at CTA scope, CUTLASS's form). The causal kernel beside the d = 128 twin,
// which serves launches past 4096 keys, pairs as well (kv-multicast-causal);
// the d = 256 one, from 513 keys, stays alone under
// kv-multicast-causal-min-seq-kv (2048). The PTX and manifests, without
// ptxas; hopper-kv-multicast-ptxas.mlir assembles the same three compiles.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --kv-multicast --decode-variants=false --ptxas=none -o %t --quiet
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_hopper_p128_sm_90a/fa4_hopper_p128_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MC --input-file=%t/fa4_hopper_p128_sm_90a/fa4_hopper_p128_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MC256 --input-file=%t/fa4_hopper_p256_sm_90a/fa4_hopper_p256_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_hopper_p128_sm_90a/manifest.json
// RUN: rm -rf %t.one && fa4-compile %s --chip=sm_90a --kv-multicast-twin=false --decode-variants=false --ptxas=none -o %t.one --quiet
// RUN: FileCheck %s --check-prefix=ONEPTX --input-file=%t.one/fa4_hopper_p128_sm_90a/fa4_hopper_p128_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=ONEMANIFEST --input-file=%t.one/fa4_hopper_p128_sm_90a/manifest.json
// RUN: FileCheck %s --check-prefix=CAUSALPTX --input-file=%t/fa4_hopper_c128_sm_90a/fa4_hopper_c128_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=ALONE256 --input-file=%t/fa4_hopper_c256_sm_90a/fa4_hopper_c256_sm_90a.ptx
// RUN: rm -rf %t.causal && fa4-compile %s --chip=sm_90a --kv-multicast-causal-min-seq-kv=0 --decode-variants=false --ptxas=none -o %t.causal --quiet
// RUN: FileCheck %s --check-prefix=CAUSAL256PTX --input-file=%t.causal/fa4_hopper_c256_sm_90a/fa4_hopper_c256_sm_90a.ptx

// The causal kernel at d = 128 in pairs; its looped twin stays alone.
// CAUSALPTX-LABEL: .entry fa4_hopper_c128_sm_90a(
// CAUSALPTX: fence.mbarrier_init.release.cluster;
// CAUSALPTX-COUNT-12: multicast::cluster
// CAUSALPTX-LABEL: .entry fa4_hopper_c128_sm_90a_persistent(
// CAUSALPTX-NOT: multicast::cluster
// ALONE256-LABEL: .entry fa4_hopper_c256_sm_90a(
// ALONE256-NOT: multicast::cluster
// ALONE256-NOT: barrier.cluster
// With --kv-multicast-causal-min-seq-kv=0 the d = 256 causal kernel pairs
// too (four boxes a tile).
// CAUSAL256PTX-LABEL: .entry fa4_hopper_c256_sm_90a(
// CAUSAL256PTX: fence.mbarrier_init.release.cluster;
// CAUSAL256PTX-COUNT-24: multicast::cluster
// CAUSAL256PTX-LABEL: .entry fa4_hopper_c256_sm_90a_persistent(
// CAUSAL256PTX-NOT: multicast::cluster

// PTX-LABEL: .entry fa4_hopper_p128_sm_90a(
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], [{{.*}}], %rs{{[0-9]+}};
// PTX-DAG: mapa.shared::cluster.u64
// PTX-DAG: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// The looped twin in pairs: an elected lane releases the peer's slot.
// PTX-LABEL: .entry fa4_hopper_p128_sm_90a_persistent(
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX-DAG: multicast::cluster
// PTX-DAG: elect.sync
// PTX-DAG: mbarrier.arrive.shared::cluster.b64 _, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// ONEPTX-LABEL: .entry fa4_hopper_p128_sm_90a_persistent(
// ONEPTX-NOT: multicast
// ONEPTX-NOT: barrier.cluster
// ONEPTX: ret;
// Every K and V copy multicasts: d = 128 two boxes a tile, d = 256 four,
// each in the kernel's first, looped and last load and in the twin's.
// MC-LABEL: .entry fa4_hopper_p128_sm_90a(
// MC-COUNT-12: multicast::cluster
// MC-NOT: multicast::cluster
// MC-LABEL: .entry fa4_hopper_p128_sm_90a_persistent(
// MC-COUNT-8: multicast::cluster
// MC-NOT: multicast::cluster
// MC256-LABEL: .entry fa4_hopper_p256_sm_90a(
// MC256-COUNT-24: multicast::cluster
// MC256-NOT: multicast::cluster
// MC256-LABEL: .entry fa4_hopper_p256_sm_90a_persistent(
// MC256-COUNT-16: multicast::cluster
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
// MANIFEST-NEXT: 2,
// ONEMANIFEST: "twin": {
// ONEMANIFEST: "cluster": [
// ONEMANIFEST-NEXT: 1,

func.func @p128(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
func.func @p256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}
func.func @c128(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
func.func @c256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}
