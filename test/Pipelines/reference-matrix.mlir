// The reference kernel for both chips over the configuration matrix of the
// sm_90a issue: every point compiles to a reference kernel, one module each
// in the order of the functions (on sm_100a by the default kernel=auto,
// which picks the reference kernel off sm_90a). Without ptxas;
// reference-ptxas-matrix.mlir assembles the same kernels.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --kernel=reference --ptxas=none -o %t/sm90 --quiet | FileCheck %s --check-prefix=SM90
// RUN: fa4-compile %s --chip=sm_100a --kernel=reference --ptxas=none -o %t/sm100 --quiet | FileCheck %s --check-prefix=SM100

func.func @d64_64_h6_6(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x6x64xbf16>, %v: tensor<?x?x6x64xbf16>) -> (tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16> -> tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
}
func.func @d64_64_h6_3(%q: tensor<?x?x6x64xf16>, %k: tensor<?x?x3x64xf16>, %v: tensor<?x?x3x64xf16>) -> (tensor<?x?x6x64xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x64xf16>, tensor<?x?x3x64xf16>, tensor<?x?x3x64xf16> -> tensor<?x?x6x64xf16>
  return %o : tensor<?x?x6x64xf16>
}
func.func @d64_64_h6_1(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x1x64xbf16>, %v: tensor<?x?x1x64xbf16>) -> (tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>} : tensor<?x?x6x64xbf16>, tensor<?x?x1x64xbf16>, tensor<?x?x1x64xbf16> -> tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
}
func.func @d96_96_h6_6(%q: tensor<?x?x6x96xf16>, %k: tensor<?x?x6x96xf16>, %v: tensor<?x?x6x96xf16>) -> (tensor<?x?x6x96xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x96xf16>, tensor<?x?x6x96xf16>, tensor<?x?x6x96xf16> -> tensor<?x?x6x96xf16>
  return %o : tensor<?x?x6x96xf16>
}
func.func @d96_96_h6_3(%q: tensor<?x?x6x96xbf16>, %k: tensor<?x?x3x96xbf16>, %v: tensor<?x?x3x96xbf16>) -> (tensor<?x?x6x96xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>} : tensor<?x?x6x96xbf16>, tensor<?x?x3x96xbf16>, tensor<?x?x3x96xbf16> -> tensor<?x?x6x96xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x96xbf16>, tensor<?x6x?xf32>
}
func.func @d96_96_h6_1(%q: tensor<?x?x6x96xf16>, %k: tensor<?x?x1x96xf16>, %v: tensor<?x?x1x96xf16>) -> (tensor<?x?x6x96xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x6x96xf16>, tensor<?x?x1x96xf16>, tensor<?x?x1x96xf16> -> tensor<?x?x6x96xf16>
  return %o : tensor<?x?x6x96xf16>
}
func.func @d128_128_h6_6(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d128_128_h6_3(%q: tensor<?x?x6x128xf16>, %k: tensor<?x?x3x128xf16>, %v: tensor<?x?x3x128xf16>) -> (tensor<?x?x6x128xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x6x128xf16>, tensor<?x?x3x128xf16>, tensor<?x?x3x128xf16> -> tensor<?x?x6x128xf16>
  return %o : tensor<?x?x6x128xf16>
}
func.func @d128_128_h6_1(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d128_64_h6_6(%q: tensor<?x?x6x128xf16>, %k: tensor<?x?x6x128xf16>, %v: tensor<?x?x6x64xf16>) -> (tensor<?x?x6x64xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x6x128xf16>, tensor<?x?x6x128xf16>, tensor<?x?x6x64xf16> -> tensor<?x?x6x64xf16>
  return %o : tensor<?x?x6x64xf16>
}
func.func @d128_64_h6_3(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x3x128xbf16>, %v: tensor<?x?x3x64xbf16>) -> (tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x3x128xbf16>, tensor<?x?x3x64xbf16> -> tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x64xbf16>, tensor<?x6x?xf32>
}
func.func @d128_64_h6_1(%q: tensor<?x?x6x128xf16>, %k: tensor<?x?x1x128xf16>, %v: tensor<?x?x1x64xf16>) -> (tensor<?x?x6x64xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xf16>, tensor<?x?x1x128xf16>, tensor<?x?x1x64xf16> -> tensor<?x?x6x64xf16>
  return %o : tensor<?x?x6x64xf16>
}
func.func @d192_128_h6_6(%q: tensor<?x?x6x192xbf16>, %k: tensor<?x?x6x192xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x192xbf16>, tensor<?x?x6x192xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d192_128_h6_3(%q: tensor<?x?x6x192xf16>, %k: tensor<?x?x3x192xf16>, %v: tensor<?x?x3x128xf16>) -> (tensor<?x?x6x128xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x192xf16>, tensor<?x?x3x192xf16>, tensor<?x?x3x128xf16> -> tensor<?x?x6x128xf16>
  return %o : tensor<?x?x6x128xf16>
}
func.func @d192_128_h6_1(%q: tensor<?x?x6x192xbf16>, %k: tensor<?x?x1x192xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>} : tensor<?x?x6x192xbf16>, tensor<?x?x1x192xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
func.func @d256_256_h6_6(%q: tensor<?x?x6x256xf16>, %k: tensor<?x?x6x256xf16>, %v: tensor<?x?x6x256xf16>) -> (tensor<?x?x6x256xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x256xf16>, tensor<?x?x6x256xf16>, tensor<?x?x6x256xf16> -> tensor<?x?x6x256xf16>
  return %o : tensor<?x?x6x256xf16>
}
func.func @d256_256_h6_3(%q: tensor<?x?x6x256xbf16>, %k: tensor<?x?x3x256xbf16>, %v: tensor<?x?x3x256xbf16>) -> (tensor<?x?x6x256xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>} : tensor<?x?x6x256xbf16>, tensor<?x?x3x256xbf16>, tensor<?x?x3x256xbf16> -> tensor<?x?x6x256xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x256xbf16>, tensor<?x6x?xf32>
}
func.func @d256_256_h6_1(%q: tensor<?x?x6x256xf16>, %k: tensor<?x?x1x256xf16>, %v: tensor<?x?x1x256xf16>) -> (tensor<?x?x6x256xf16>) {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 32)>} : tensor<?x?x6x256xf16>, tensor<?x?x1x256xf16>, tensor<?x?x1x256xf16> -> tensor<?x?x6x256xf16>
  return %o : tensor<?x?x6x256xf16>
}
// SM90: kernel fa4_ref_d64_64_h6_6_sm_90a
// SM90: kernel fa4_ref_d64_64_h6_3_sm_90a
// SM90: kernel fa4_ref_d64_64_h6_1_sm_90a
// SM90: kernel fa4_ref_d96_96_h6_6_sm_90a
// SM90: kernel fa4_ref_d96_96_h6_3_sm_90a
// SM90: kernel fa4_ref_d96_96_h6_1_sm_90a
// SM90: kernel fa4_ref_d128_128_h6_6_sm_90a
// SM90: kernel fa4_ref_d128_128_h6_3_sm_90a
// SM90: kernel fa4_ref_d128_128_h6_1_sm_90a
// SM90: kernel fa4_ref_d128_64_h6_6_sm_90a
// SM90: kernel fa4_ref_d128_64_h6_3_sm_90a
// SM90: kernel fa4_ref_d128_64_h6_1_sm_90a
// SM90: kernel fa4_ref_d192_128_h6_6_sm_90a
// SM90: kernel fa4_ref_d192_128_h6_3_sm_90a
// SM90: kernel fa4_ref_d192_128_h6_1_sm_90a
// SM90: kernel fa4_ref_d256_256_h6_6_sm_90a
// SM90: kernel fa4_ref_d256_256_h6_3_sm_90a
// SM90: kernel fa4_ref_d256_256_h6_1_sm_90a
// SM100: kernel fa4_ref_d64_64_h6_6_sm_100a
// SM100: kernel fa4_ref_d64_64_h6_3_sm_100a
// SM100: kernel fa4_ref_d64_64_h6_1_sm_100a
// SM100: kernel fa4_ref_d96_96_h6_6_sm_100a
// SM100: kernel fa4_ref_d96_96_h6_3_sm_100a
// SM100: kernel fa4_ref_d96_96_h6_1_sm_100a
// SM100: kernel fa4_ref_d128_128_h6_6_sm_100a
// SM100: kernel fa4_ref_d128_128_h6_3_sm_100a
// SM100: kernel fa4_ref_d128_128_h6_1_sm_100a
// SM100: kernel fa4_ref_d128_64_h6_6_sm_100a
// SM100: kernel fa4_ref_d128_64_h6_3_sm_100a
// SM100: kernel fa4_ref_d128_64_h6_1_sm_100a
// SM100: kernel fa4_ref_d192_128_h6_6_sm_100a
// SM100: kernel fa4_ref_d192_128_h6_3_sm_100a
// SM100: kernel fa4_ref_d192_128_h6_1_sm_100a
// SM100: kernel fa4_ref_d256_256_h6_6_sm_100a
// SM100: kernel fa4_ref_d256_256_h6_3_sm_100a
// SM100: kernel fa4_ref_d256_256_h6_1_sm_100a
