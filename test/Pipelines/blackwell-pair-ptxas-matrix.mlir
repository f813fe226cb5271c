// The sm_100a FA4 kernel under pair_cta assembles with ptxas over every
// configuration the planner pairs (static B = 4, Sq = Skv = 8192, 16 query
// heads): (Dqk, Dv) in {(128, 128), (96, 96), (192, 128)}, MHA, GQA and MQA,
// all four masks, bf16 and f16, with and without LSE. No stack, no spills,
// 128 registers at launch (setmaxnreg then gives 184 / 72 / 72, and
// 168 / 72 / 104 at Dqk = 192), shared memory within the 232448-byte
// carveout (the largest is 223464, at Dqk = 192: three 24 KB + 16 KB K/V
// stages per CTA next to two Q tiles), and every launch a cluster of two.
// D = 64 (a V half would be 32 columns) and (256, 256) (one Q tile) are
// not paired; blackwell-ptxas-matrix.mlir covers them.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: cat %t/*/manifest.json | FileCheck %s --check-prefix=LAUNCH

// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_16_none_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_16_none_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_8_causal_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_8_causal_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_1_w128_0_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_1_w128_0_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d128_128_h16_4_w17_33_f16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d128_128_h16_4_w17_33_f16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d96_96_h16_16_causal_bf16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d96_96_h16_16_causal_bf16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h16_16_none_bf16_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h16_16_none_bf16_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_blackwell_d192_128_h16_2_causal_f16_lse_sm_100a' for 'sm_100a'
// CHECK-NEXT: Function properties for fa4_blackwell_d192_128_h16_2_causal_f16_lse_sm_100a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
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
