// RUN: fa4-opt %s -split-input-file --convert-attn-to-reference-kernel -verify-diagnostics

// FP8 (issue 62) on the reference kernel: the op takes f8E4M3FN operands
// with descales and attn-decompose gives their meaning, but the reference
// kernel does not lower them, so it refuses the op by name rather than
// read FP8 bytes as 16-bit ones (the Blackwell kernel lowers FP8 Q, K and
// V: blackwell-fp8.mlir).

func.func @fp8(%q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>, %d: tensor<f32>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has f8E4M3FN operands, which the reference kernel does not lower yet; attn-decompose gives their meaning}}
  %o = attn.attention %q, %k, %k q_descale(%d : tensor<f32>) {mask = #attn.mask<causal>} : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}

// -----

func.func @fp8_cache(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xf8E4M3FN>, %d: tensor<2x2xf32>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has f8E4M3FN operands, which the reference kernel does not lower yet; attn-decompose gives their meaning}}
  %o = attn.attention %q, %k, %k k_descale(%d : tensor<2x2xf32>) v_descale(%d : tensor<2x2xf32>) : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
