// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a | FileCheck %s

// FP8 Q, K and V (issue 62) plan on sm_100a as FA4Config does: the seed's
// rule forces the 64-byte swizzle on the 8-bit boxes (64 e4m3 columns are
// 64 bytes), O keeps bf16's 128-byte rows. (No kernel lowers the plan yet:
// fp8-refused.mlir.)
// CHECK-LABEL: func.func @fp8
// CHECK: swizzle = #attn.swizzle<q = <rows = 128, columns = 64, swizzle = 64>, k = <rows = 128, columns = 64, swizzle = 64>, v = <rows = 128, columns = 64, swizzle = 64>, o = <rows = 128, columns = 64, swizzle = 128>>
func.func @fp8(%q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>, %d: tensor<f32>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %k q_descale(%d : tensor<f32>) {mask = #attn.mask<causal>} : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
