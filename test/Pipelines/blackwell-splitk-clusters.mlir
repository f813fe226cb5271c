// The sm_100a split-K decode kernels' clusters, from their manifests: 32/8
// heads at B = 1 (16 partitions) and B = 3 (6 partitions), 16/16 heads at
// d = 64 (9 partitions: the ninth owns no band), and causal f16 with Sq = 4.
// Without ptxas; blackwell-splitk-ptxas.mlir assembles the same kernels.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=none -o %t/b1 --quiet
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --batch-hint=3 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=none -o %t/b3 --quiet
// RUN: cat %t/b1/*/manifest.json | FileCheck %s --check-prefix=CLUSTER1
// RUN: cat %t/b3/*/manifest.json | FileCheck %s --check-prefix=CLUSTER3

// Cluster dims as planned (manifests in kernel-name order: causal_sq4, gqa,
// mha_d64): 16, 16 and 9 at B = 1; 6, 6 and 3 at B = 3.
// CLUSTER1: "cluster": [
// CLUSTER1-NEXT: 16,
// CLUSTER1: "cluster": [
// CLUSTER1-NEXT: 16,
// CLUSTER1: "cluster": [
// CLUSTER1-NEXT: 9,
// CLUSTER3: "cluster": [
// CLUSTER3-NEXT: 6,
// CLUSTER3: "cluster": [
// CLUSTER3-NEXT: 6,
// CLUSTER3: "cluster": [
// CLUSTER3-NEXT: 3,

func.func @gqa(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

func.func @mha_d64(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}

func.func @causal_sq4(%q: tensor<?x?x32x128xf16>, %k: tensor<?x?x8x128xf16>, %v: tensor<?x?x8x128xf16>) -> (tensor<?x?x32x128xf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x32x128xf16>, tensor<?x?x8x128xf16>, tensor<?x?x8x128xf16> -> tensor<?x?x32x128xf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xf16>, tensor<?x32x?xf32>
}
