// The sm_100a split-K decode kernel through the whole pipeline (32 q / 8 kv
// heads, d = 128, hints B = 1, Sq = 1, Skv = 32k: 16 partitions of one
// cluster, fused GQA): PTX with tcgen05, the cluster barriers, mapa and
// ld.shared::cluster of the reduce-scatter, a manifest with cluster dims,
// and ptxas for sm_100a with no stack and no spills (also at B = 3, where
// 24 work items get 6 partitions, and for 16/16 heads at d = 64, where 9
// partitions leave one without a band).
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_blackwell_decode_sm_100a/fa4_blackwell_decode_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=CLUSTER --input-file=%t/fa4_blackwell_decode_sm_100a/fa4_blackwell_decode_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_blackwell_decode_sm_100a/manifest.json

// CHECK: .visible .entry fa4_blackwell_decode_sm_100a(
// CHECK-DAG: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32
// CHECK-DAG: tcgen05.mma.cta_group::1.kind::f16
// CHECK-DAG: tcgen05.ld.sync.aligned.32x32b.x16.b32
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 112;
// The combine reads every partition's (max, sum) and band slice through
// DSMEM.
// CHECK-DAG: mapa.shared::cluster.u64
// CHECK-DAG: ld.shared::cluster.b32
// Three roles each meet the cluster twice (publish, then keep shared memory
// alive for the peers' reads).
// CLUSTER-COUNT-6: barrier.cluster.arrive.aligned;
// CLUSTER-NEXT: barrier.cluster.wait.aligned;
// CLUSTER-NOT: barrier.cluster.arrive

// A softmax, a correction and a load/MMA warpgroup; 16 partitions per
// cluster; grid (partition, kv head, batch x row tiles of 32 query rows).
// MANIFEST: "block": [
// MANIFEST-NEXT: 384,
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 16,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: 16
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: [
// MANIFEST-NEXT: "hkv"
// MANIFEST-NEXT: ],

func.func @decode(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}
