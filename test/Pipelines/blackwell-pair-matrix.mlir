// The sm_100a FA4 kernel under pair_cta over every configuration the planner
// pairs (static B = 4, Sq = Skv = 8192, 16 query heads): (Dqk, Dv) in
// {(128, 128), (96, 96), (192, 128)}, MHA, GQA and MQA, all four masks,
// bf16 and f16, with and without LSE. Every launch is a cluster of two, with
// shared memory within the 232448-byte carveout (the largest is 223464, at
// Dqk = 192: three 24 KB + 16 KB K/V stages per CTA next to two Q tiles).
// D = 64 (a V half would be 32 columns) and (256, 256) (one Q tile) are not
// paired; blackwell-matrix.mlir covers them. Without ptxas;
// blackwell-pair-ptxas-matrix.mlir assembles the same kernels.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t --quiet
// RUN: cat %t/*/manifest.json | FileCheck %s --check-prefix=LAUNCH

// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},
// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},
// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},
// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},
// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},
// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},
// LAUNCH: "cluster": [
// LAUNCH-NEXT: 2,
// LAUNCH: "dynamic_smem_bytes": {{(19[0-9]{4}|2[01][0-9]{4}|22[0-9]{4}|23[01][0-9]{3}|232[0-3][0-9]{2}|2324[0-4][0-9])}},

func.func @d128_128_h16_16_none_bf16_lse(%q: tensor<4x8192x16x128xbf16>, %k: tensor<4x8192x16x128xbf16>, %v: tensor<4x8192x16x128xbf16>) -> (tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<4x8192x16x128xbf16>, tensor<4x8192x16x128xbf16>, tensor<4x8192x16x128xbf16> -> tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>
  return %o, %lse : tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>
}

func.func @d128_128_h16_8_causal_f16(%q: tensor<4x8192x16x128xf16>, %k: tensor<4x8192x8x128xf16>, %v: tensor<4x8192x8x128xf16>) -> tensor<4x8192x16x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<4x8192x16x128xf16>, tensor<4x8192x8x128xf16>, tensor<4x8192x8x128xf16> -> tensor<4x8192x16x128xf16>
  return %o : tensor<4x8192x16x128xf16>
}

func.func @d128_128_h16_1_w128_0_bf16_lse(%q: tensor<4x8192x16x128xbf16>, %k: tensor<4x8192x1x128xbf16>, %v: tensor<4x8192x1x128xbf16>) -> (tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<4x8192x16x128xbf16>, tensor<4x8192x1x128xbf16>, tensor<4x8192x1x128xbf16> -> tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>
  return %o, %lse : tensor<4x8192x16x128xbf16>, tensor<4x16x8192xf32>
}

func.func @d128_128_h16_4_w17_33_f16(%q: tensor<4x8192x16x128xf16>, %k: tensor<4x8192x4x128xf16>, %v: tensor<4x8192x4x128xf16>) -> tensor<4x8192x16x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<4x8192x16x128xf16>, tensor<4x8192x4x128xf16>, tensor<4x8192x4x128xf16> -> tensor<4x8192x16x128xf16>
  return %o : tensor<4x8192x16x128xf16>
}

func.func @d96_96_h16_16_causal_bf16_lse(%q: tensor<4x8192x16x96xbf16>, %k: tensor<4x8192x16x96xbf16>, %v: tensor<4x8192x16x96xbf16>) -> (tensor<4x8192x16x96xbf16>, tensor<4x16x8192xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<4x8192x16x96xbf16>, tensor<4x8192x16x96xbf16>, tensor<4x8192x16x96xbf16> -> tensor<4x8192x16x96xbf16>, tensor<4x16x8192xf32>
  return %o, %lse : tensor<4x8192x16x96xbf16>, tensor<4x16x8192xf32>
}

func.func @d192_128_h16_16_none_bf16(%q: tensor<4x8192x16x192xbf16>, %k: tensor<4x8192x16x192xbf16>, %v: tensor<4x8192x16x128xbf16>) -> tensor<4x8192x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<4x8192x16x192xbf16>, tensor<4x8192x16x192xbf16>, tensor<4x8192x16x128xbf16> -> tensor<4x8192x16x128xbf16>
  return %o : tensor<4x8192x16x128xbf16>
}

func.func @d192_128_h16_2_causal_f16_lse(%q: tensor<4x8192x16x192xf16>, %k: tensor<4x8192x2x192xf16>, %v: tensor<4x8192x2x128xf16>) -> (tensor<4x8192x16x128xf16>, tensor<4x16x8192xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<4x8192x16x192xf16>, tensor<4x8192x2x192xf16>, tensor<4x8192x2x128xf16> -> tensor<4x8192x16x128xf16>, tensor<4x16x8192xf32>
  return %o, %lse : tensor<4x8192x16x128xf16>, tensor<4x16x8192xf32>
}
