// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --attn-explain 2>&1 | FileCheck %s

// attn-explain prints an op's softcap under its problem line, and how the
// kernels compute it; the plan itself is made as without one.
// CHECK: problem: bf16, Hq 4 / Hkv 2 (group 2), Dqk 64, Dv 64, mask #attn.mask<causal>, scale
// CHECK-NEXT: softcap 1.500000e+01: each scaled score s becomes c * tanh(s / c) before the mask (tanh.approx.f32 on the kernels' scores)
// CHECK: config: sm_90a
func.func @softcap(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x64xbf16>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>, softcap = 15.0 : f32} : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x64xbf16> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
