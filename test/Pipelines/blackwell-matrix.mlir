// The FA4-structure kernel (tcgen05 + TMEM) for sm_100a over the points of
// the sm_90a matrix the sm_100a lowering implements (two 128-row Q tiles
// with separate K/V rings: every (Dqk, Dv) up to 128, MHA 6/6, GQA 6/3, MQA
// 6/1, all four masks, bf16 and f16, with and without LSE), and (192, 128)
// and (256, 256), which plan a shared K/V ring (and (256, 256) one Q tile),
// so every depth pair of the sm_90a matrix is here. Without ptxas;
// blackwell-ptxas-matrix.mlir assembles the same kernels.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t --quiet
// RUN: cat %t/*/manifest.json | FileCheck %s --check-prefix=SMEM

// Every plan's dynamic shared memory is within the 232448-byte carveout
// (the largest, 230600, a decode variant's: four K/V stages of 128 keys).
// SMEM: "dynamic_smem_bytes":
// SMEM-NOT: "dynamic_smem_bytes": {{2324[5-9][0-9]|232[5-9][0-9][0-9]|23[3-9][0-9][0-9][0-9]|2[4-9][0-9][0-9][0-9][0-9]|[0-9][0-9][0-9][0-9][0-9][0-9][0-9]}}

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

func.func @d256_256_h6_6_w17_33_f16_lse(%q: tensor<?x?x6x256xf16>, %k: tensor<?x?x6x256xf16>, %v: tensor<?x?x6x256xf16>) -> (tensor<?x?x6x256xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(17, 33)>} : tensor<?x?x6x256xf16>, tensor<?x?x6x256xf16>, tensor<?x?x6x256xf16> -> tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
}

func.func @d256_256_h6_3_none_bf16(%q: tensor<?x?x6x256xbf16>, %k: tensor<?x?x3x256xbf16>, %v: tensor<?x?x3x256xbf16>) -> tensor<?x?x6x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x256xbf16>, tensor<?x?x3x256xbf16>, tensor<?x?x3x256xbf16> -> tensor<?x?x6x256xbf16>
  return %o : tensor<?x?x6x256xbf16>
}

func.func @d256_256_h6_1_causal_f16_lse(%q: tensor<?x?x6x256xf16>, %k: tensor<?x?x1x256xf16>, %v: tensor<?x?x1x256xf16>) -> (tensor<?x?x6x256xf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x256xf16>, tensor<?x?x1x256xf16>, tensor<?x?x1x256xf16> -> tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x256xf16>, tensor<?x6x?xf32>
}
