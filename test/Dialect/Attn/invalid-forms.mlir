// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// The tensor and memref forms: operand kinds, results vs outs, how many outputs.

func.func @mixed_tensor_and_memref(%q: tensor<1x8x4x64xbf16>, %k: memref<1x8x4x64xbf16>, %v: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects query, key and value to be all tensors or all memrefs, but query is 'tensor<1x8x4x64xbf16>' and key is 'memref<1x8x4x64xbf16>'}}
  %o = "attn.attention"(%q, %k, %v) : (tensor<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @memref_with_results(%q: memref<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  // expected-error @+1 {{with memref operands returns no results; pass O and LSE in outs}}
  %r = "attn.attention"(%q, %q, %q, %o) : (memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @tensor_with_outs(%q: tensor<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  // expected-error @+1 {{with tensor operands takes no outs; it returns O and LSE as results}}
  %r = attn.attention %q, %q, %q outs(%o : memref<1x8x4x64xbf16>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @tensor_without_results(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects O and an optional LSE (1 or 2 results), but got 0}}
  attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @memref_three_outs(%q: memref<1x8x4x64xbf16>, %lse: memref<1x4x8xf32>) {
  // expected-error @+1 {{expects O and an optional LSE (1 or 2 outs), but got 3}}
  attn.attention %q, %q, %q outs(%q, %lse, %lse : memref<1x8x4x64xbf16>, memref<1x4x8xf32>, memref<1x4x8xf32>) : memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>
  return
}
