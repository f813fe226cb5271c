// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --attn-explain 2>&1 | FileCheck %s

// attn-explain names an op's FP8 operands under its problem line, their
// descales, O's type, and that no kernel lowers FP8 yet.
// CHECK: problem: f8E4M3FN, Hq 4 / Hkv 2 (group 2), Dqk 64, Dv 64, mask #attn.mask<causal>
// CHECK-NEXT: fp8: f8E4M3FN Q (descale per tensor), K (descale per batch and key/value head), V (no descale), O bf16; no kernel lowers FP8 yet (the kernel paths refuse the op)
// CHECK: problem: bf16, Hq 4 / Hkv 2 (group 2), Dqk 64, Dv 64, mask #attn.mask<none>
// CHECK-NEXT: fp8: f8E4M3FN K (no descale), V (descale per tensor), O bf16; no kernel lowers FP8 yet (the kernel paths refuse the op)
func.func @fp8(%q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>, %qd: tensor<f32>, %kd: tensor<2x2xf32>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %k q_descale(%qd : tensor<f32>) k_descale(%kd : tensor<2x2xf32>) {mask = #attn.mask<causal>} : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}

func.func @fp8_cache(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xf8E4M3FN>, %vd: tensor<f32>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %k v_descale(%vd : tensor<f32>) : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
