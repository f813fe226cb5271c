// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -verify-diagnostics

// FP8 on sm_90a: FP8 Q, K and V stop at the planner (wgmma takes 8-bit B
// operands K-major only, and V transposed is not planned); an FP8 KV cache
// under a bf16 Q plans as bf16 and stops at the kernel, by name.

func.func @fp8(%q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{f8E4M3FN on sm_90a needs V transposed in shared memory (wgmma takes 8-bit B operands K-major only), which is not planned; expected bf16 or f16}}
  %o = attn.attention %q, %k, %k : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}

// -----

func.func @fp8_cache(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xf8E4M3FN>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has f8E4M3FN operands, which the Hopper kernel does not lower yet; attn-decompose gives their meaning}}
  %o = attn.attention %q, %k, %k : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
