// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// Element types: what is supported, and that all operands agree.

func.func @f32_unsupported(%q: tensor<1x8x4x64xf32>) {
  // expected-error @+1 {{element type 'f32' is not supported; supported: bf16, f16}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf32>, tensor<1x8x4x64xf32>, tensor<1x8x4x64xf32> -> tensor<1x8x4x64xf32>
  return
}

// -----

func.func @f8_not_yet(%q: tensor<1x8x4x64xf8E4M3FN>) {
  // expected-error @+1 {{element type f8E4M3FN is not supported yet (it needs descale operands); supported: bf16, f16}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN>, tensor<1x8x4x64xf8E4M3FN> -> tensor<1x8x4x64xf8E4M3FN>
  return
}

// -----

func.func @key_element_type(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x4x64xf16>) {
  // expected-error @+1 {{expects key to have element type 'bf16' like query, but got 'f16'}}
  %o = attn.attention %q, %k, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @output_element_type(%q: tensor<1x8x4x64xf16>) {
  // expected-error @+1 {{expects output to have element type 'f16' like query, but got 'bf16'}}
  %o = attn.attention %q, %q, %q : tensor<1x8x4x64xf16>, tensor<1x8x4x64xf16>, tensor<1x8x4x64xf16> -> tensor<1x8x4x64xbf16>
  return
}
