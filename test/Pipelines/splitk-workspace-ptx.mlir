// The workspace split-K through the whole pipeline (MQA decode, B = 1,
// Skv = 32k: 69 partitions, beyond a cluster): one PTX module with two
// entries, the attention kernel writing f32 partials and the combine
// kernel, and a version 3 manifest naming the workspace and the combine.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_hopper_mqa_sm_90a/fa4_hopper_mqa_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_hopper_mqa_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=none -o %t/sm100 --quiet
// RUN: FileCheck %s --check-prefix=SM100 --input-file=%t/sm100/fa4_blackwell_mqa_sm_100a/fa4_blackwell_mqa_sm_100a.ptx

// sm_100a: the correction warpgroup's thread holds a whole 128-column row
// of O from TMEM and stores it as 64 8-byte f32 pairs, then the row's LSE;
// tcgen05, no cluster barrier; the same combine kernel.
// SM100: .visible .entry fa4_blackwell_mqa_sm_100a(
// SM100-NOT: barrier.cluster
// SM100: tcgen05.mma
// SM100: tcgen05.ld
// SM100-COUNT-64: st.global.b64
// SM100-NOT: st.global.b64
// SM100: .visible .entry fa4_blackwell_mqa_sm_100a_combine(
// SM100: ex2.approx.f32
// SM100: st.global.b16

// The attention kernel: no cluster barrier, no DSMEM; its epilogue stores
// the thread's 64 f32 of O as 32 8-byte pairs and 2 row LSEs.
// CHECK: .visible .entry fa4_hopper_mqa_sm_90a(
// CHECK-NOT: barrier.cluster
// CHECK-NOT: mapa
// CHECK-COUNT-32: st.global.v2.b32
// CHECK-NOT: st.global.v2
// CHECK: .visible .entry fa4_hopper_mqa_sm_90a_combine(
// The combine: 4 warps, one per 32 columns of a row, one pass over the
// 138 partials. A step of 64: all 66 loads (two LSEs a lane, the lane's
// column of 64 partials) before any use, the step's max by butterfly, the
// rescale's ex2 and the first block's weight, each block's 32 weights by
// shuffle. Two such steps for partials 0-127, then one clamped block for
// the last 10 (11 loads); the weights' sum by butterfly, a bf16 store, lg2
// for the LSE.
// CHECK: .maxntid 128, 1, 1
// CHECK-COUNT-66: ld.global.b32
// CHECK-NOT: shfl.sync
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-NOT: ld.global
// CHECK-COUNT-2: ex2.approx.f32
// CHECK-COUNT-32: shfl.sync.idx.b32
// CHECK: ex2.approx.f32
// CHECK-COUNT-32: shfl.sync.idx.b32
// CHECK-NOT: shfl.sync.idx.b32
// CHECK-COUNT-11: ld.global.b32
// CHECK-NOT: ld.global
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK-COUNT-2: ex2.approx.f32
// CHECK-COUNT-32: shfl.sync.idx.b32
// CHECK-NOT: shfl.sync.idx.b32
// CHECK-NOT: ex2.approx.f32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: st.global.b16
// CHECK: lg2.approx.f32
// CHECK: st.global.b32

// MANIFEST: "combine": {
// MANIFEST-NEXT: "kernel": "fa4_hopper_mqa_sm_90a_combine",
// MANIFEST-NEXT: "launch": {
// MANIFEST-NEXT: "block": [
// MANIFEST-NEXT: 128,
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: "sq"
// MANIFEST: "programmatic_dependent_launch": true
// MANIFEST: "params": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "workspace"
// MANIFEST: "fa4_abi_version": 4,
// MANIFEST: "launch": {
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: 69
// MANIFEST: "programmatic_dependent_launch": true
// MANIFEST: "kind": "workspace"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ],
// 138 partials x (128 + 1) floats per (b, sq, hq) row.
// MANIFEST: "workspace": {
// MANIFEST-NEXT: "bytes": [
// MANIFEST-NEXT: 71208,
// MANIFEST-NEXT: "b",
// MANIFEST-NEXT: "sq",
// MANIFEST-NEXT: "hq"

func.func @mqa(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}
