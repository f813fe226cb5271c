// The split-K decode kernel through the whole pipeline: PTX with the
// cluster barriers, mapa and ld.shared::cluster of the reduce-scatter, a
// manifest with cluster dims, and (with ptxas) an sm_90a binary with no
// spills.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_hopper_decode_sm_90a/fa4_hopper_decode_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=TMA --input-file=%t/fa4_hopper_decode_sm_90a/fa4_hopper_decode_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t/fa4_hopper_decode_sm_90a/fa4_hopper_decode_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=CLUSTER --input-file=%t/fa4_hopper_decode_sm_90a/fa4_hopper_decode_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=STAGE --input-file=%t/fa4_hopper_decode_sm_90a/fa4_hopper_decode_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_hopper_decode_sm_90a/manifest.json

// CHECK: .visible .entry fa4_hopper_decode_sm_90a(
// TMA: cp.async.bulk.tensor.4d.shared::cluster.global
// Decode tiles of 96 keys: S = Q K^T is m64n96, O += P V m64n128.
// MMA: wgmma.mma_async.sync.aligned.m64n96k16.f32.bf16.bf16
// MMA-NOT: m64n176
// MMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// Publish, combine through DSMEM, and the final meeting: each of the
// producer and consumer roles arrives at and waits on the cluster barrier
// twice (the block layout interleaves them with the main loop).
// CHECK-DAG: mapa.shared::cluster.u64
// CHECK-DAG: ld.shared::cluster.b32
// CLUSTER-COUNT-4: barrier.cluster.arrive.aligned;
// CLUSTER-NEXT: barrier.cluster.wait.aligned;
// CLUSTER-NOT: barrier.cluster.arrive

// The two consumers meet on named barrier 3 before they stage over Q and
// the rings, and only then publish.
// STAGE: bar.sync {{.*}}3, 256;
// STAGE: barrier.cluster.arrive.aligned;

// MANIFEST: "block": [
// MANIFEST-NEXT: 384,
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: 8
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: [
// MANIFEST-NEXT: "hkv"
// MANIFEST-NEXT: ],

func.func @decode(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}
