// The TMA + wgmma kernel for sm_90a over 18 points of the sm_90a issue's
// configuration matrix: every (Dqk, Dv) with every head layout (6/6 MHA,
// 6/3 GQA, 6/1 MQA), each (Dqk, Dv) in both bf16 and f16 and under three of
// the four masks (none, causal, window(128, 0), window(17, 33)), with and
// without LSE: every point compiles to the hopper kernel, one module each,
// in the order of the functions. Without ptxas; hopper-ptxas-matrix.mlir
// assembles the same kernels (registers, spills, the looped twins).
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=none -o %t --quiet | FileCheck %s

func.func @d64_64_h6_6_none_bf16_lse(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x6x64xbf16>, %v: tensor<?x?x6x64xbf16>) -> (tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16> -> tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
}
func.func @d64_64_h6_3_causal_f16(%q: tensor<?x?x6x64xf16>, %k: tensor<?x?x3x64xf16>, %v: tensor<?x?x3x64xf16>) -> tensor<?x?x6x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x64xf16>, tensor<?x?x3x64xf16>, tensor<?x?x3x64xf16> -> tensor<?x?x6x64xf16>
  return %o : tensor<?x?x6x64xf16>
}
func.func @d64_64_h6_1_w128_0_bf16_lse(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x1x64xbf16>, %v: tensor<?x?x1x64xbf16>) -> (tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x64xbf16>, tensor<?x?x1x64xbf16>, tensor<?x?x1x64xbf16> -> tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
}
func.func @d96_96_h6_6_causal_f16_lse(%q: tensor<?x?x6x96xf16>, %k: tensor<?x?x6x96xf16>, %v: tensor<?x?x6x96xf16>) -> (tensor<?x?x6x96xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x96xf16>, tensor<?x?x6x96xf16>, tensor<?x?x6x96xf16> -> tensor<?x?x6x96xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x96xf16>, tensor<?x6x?xf32>
}
func.func @d96_96_h6_3_w128_0_bf16(%q: tensor<?x?x6x96xbf16>, %k: tensor<?x?x3x96xbf16>, %v: tensor<?x?x3x96xbf16>) -> tensor<?x?x6x96xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x96xbf16>, tensor<?x?x3x96xbf16>, tensor<?x?x3x96xbf16> -> tensor<?x?x6x96xbf16>
  return %o : tensor<?x?x6x96xbf16>
}
func.func @d96_96_h6_1_w17_33_f16_lse(%q: tensor<?x?x6x96xf16>, %k: tensor<?x?x1x96xf16>, %v: tensor<?x?x1x96xf16>) -> (tensor<?x?x6x96xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x96xf16>, tensor<?x?x1x96xf16>, tensor<?x?x1x96xf16> -> tensor<?x?x6x96xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x96xf16>, tensor<?x6x?xf32>
}
func.func @d128_128_h6_6_w128_0_bf16_lse(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d128_128_h6_3_w17_33_f16(%q: tensor<?x?x6x128xf16>, %k: tensor<?x?x3x128xf16>, %v: tensor<?x?x3x128xf16>) -> tensor<?x?x6x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x128xf16>, tensor<?x?x3x128xf16>, tensor<?x?x3x128xf16> -> tensor<?x?x6x128xf16>
  return %o : tensor<?x?x6x128xf16>
}
func.func @d128_128_h6_1_none_bf16_lse(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d128_64_h6_6_w17_33_f16_lse(%q: tensor<?x?x6x128xf16>, %k: tensor<?x?x6x128xf16>, %v: tensor<?x?x6x64xf16>) -> (tensor<?x?x6x64xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x128xf16>, tensor<?x?x6x128xf16>, tensor<?x?x6x64xf16> -> tensor<?x?x6x64xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xf16>, tensor<?x6x?xf32>
}
func.func @d128_64_h6_3_none_bf16(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x3x128xbf16>, %v: tensor<?x?x3x64xbf16>) -> tensor<?x?x6x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x3x128xbf16>, tensor<?x?x3x64xbf16> -> tensor<?x?x6x64xbf16>
  return %o : tensor<?x?x6x64xbf16>
}
func.func @d128_64_h6_1_causal_f16_lse(%q: tensor<?x?x6x128xf16>, %k: tensor<?x?x1x128xf16>, %v: tensor<?x?x1x64xf16>) -> (tensor<?x?x6x64xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xf16>, tensor<?x?x1x128xf16>, tensor<?x?x1x64xf16> -> tensor<?x?x6x64xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xf16>, tensor<?x6x?xf32>
}
func.func @d192_128_h6_6_none_bf16_lse(%q: tensor<?x?x6x192xbf16>, %k: tensor<?x?x6x192xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x192xbf16>, tensor<?x?x6x192xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d192_128_h6_3_causal_f16(%q: tensor<?x?x6x192xf16>, %k: tensor<?x?x3x192xf16>, %v: tensor<?x?x3x128xf16>) -> tensor<?x?x6x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x192xf16>, tensor<?x?x3x192xf16>, tensor<?x?x3x128xf16> -> tensor<?x?x6x128xf16>
  return %o : tensor<?x?x6x128xf16>
}
func.func @d192_128_h6_1_w128_0_bf16_lse(%q: tensor<?x?x6x192xbf16>, %k: tensor<?x?x1x192xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x192xbf16>, tensor<?x?x1x192xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d256_256_h6_6_causal_f16_lse(%q: tensor<?x?x6x256xf16>, %k: tensor<?x?x6x256xf16>, %v: tensor<?x?x6x256xf16>) -> (tensor<?x?x6x256xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x256xf16>, tensor<?x?x6x256xf16>, tensor<?x?x6x256xf16> -> tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
}
func.func @d256_256_h6_3_w128_0_bf16(%q: tensor<?x?x6x256xbf16>, %k: tensor<?x?x3x256xbf16>, %v: tensor<?x?x3x256xbf16>) -> tensor<?x?x6x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x256xbf16>, tensor<?x?x3x256xbf16>, tensor<?x?x3x256xbf16> -> tensor<?x?x6x256xbf16>
  return %o : tensor<?x?x6x256xbf16>
}
func.func @d256_256_h6_1_w17_33_f16_lse(%q: tensor<?x?x6x256xf16>, %k: tensor<?x?x1x256xf16>, %v: tensor<?x?x1x256xf16>) -> (tensor<?x?x6x256xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x256xf16>, tensor<?x?x1x256xf16>, tensor<?x?x1x256xf16> -> tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
}
// CHECK: kernel fa4_hopper_d64_64_h6_6_none_bf16_lse_sm_90a
// CHECK: kernel fa4_hopper_d64_64_h6_3_causal_f16_sm_90a
// CHECK: kernel fa4_hopper_d64_64_h6_1_w128_0_bf16_lse_sm_90a
// CHECK: kernel fa4_hopper_d96_96_h6_6_causal_f16_lse_sm_90a
// CHECK: kernel fa4_hopper_d96_96_h6_3_w128_0_bf16_sm_90a
// CHECK: kernel fa4_hopper_d96_96_h6_1_w17_33_f16_lse_sm_90a
// CHECK: kernel fa4_hopper_d128_128_h6_6_w128_0_bf16_lse_sm_90a
// CHECK: kernel fa4_hopper_d128_128_h6_3_w17_33_f16_sm_90a
// CHECK: kernel fa4_hopper_d128_128_h6_1_none_bf16_lse_sm_90a
// CHECK: kernel fa4_hopper_d128_64_h6_6_w17_33_f16_lse_sm_90a
// CHECK: kernel fa4_hopper_d128_64_h6_3_none_bf16_sm_90a
// CHECK: kernel fa4_hopper_d128_64_h6_1_causal_f16_lse_sm_90a
// CHECK: kernel fa4_hopper_d192_128_h6_6_none_bf16_lse_sm_90a
// CHECK: kernel fa4_hopper_d192_128_h6_3_causal_f16_sm_90a
// CHECK: kernel fa4_hopper_d192_128_h6_1_w128_0_bf16_lse_sm_90a
// CHECK: kernel fa4_hopper_d256_256_h6_6_causal_f16_lse_sm_90a
// CHECK: kernel fa4_hopper_d256_256_h6_3_w128_0_bf16_sm_90a
// CHECK: kernel fa4_hopper_d256_256_h6_1_w17_33_f16_lse_sm_90a
