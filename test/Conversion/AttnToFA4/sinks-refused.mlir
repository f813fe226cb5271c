// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -verify-diagnostics
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -verify-diagnostics
// RUN: fa4-opt %s -split-input-file --convert-attn-to-reference-kernel -verify-diagnostics

// Attention sinks: no kernel lowers them yet, so every kernel path (the
// Hopper and Blackwell kernels, the reference kernel) refuses the op by
// name rather than dropping them; planning runs, and attn-decompose gives
// their meaning (decompose-run.test).

func.func @sinks(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x64xbf16>, %s: tensor<4xf32>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has sinks, which no kernel lowers yet; attn-decompose gives their meaning}}
  %o = attn.attention %q, %k, %v sinks(%s : tensor<4xf32>) {mask = #attn.mask<causal>} : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x64xbf16> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}

// -----

func.func @varlen_sinks(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %s: tensor<8xf32>) -> tensor<?x8x64xbf16> {
  // expected-error @+1 {{'attn.varlen_attention' op has sinks, which no kernel lowers yet; attn-decompose gives their meaning}}
  %o = attn.varlen_attention %q, %k, %k cu_seqlens(%cq, %cq : tensor<5xi32>, tensor<5xi32>) sinks(%s : tensor<8xf32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return %o : tensor<?x8x64xbf16>
}
