// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefixes=CHECK,HOPPER
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 | FileCheck %s --check-prefixes=CHECK,BLACKWELL
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-reference-kernel | FileCheck %s --check-prefix=REF

// softcap = 15 (FlashAttention's arrangement, issue 61): the scores of each
// K/V tile go through fa4.softcap with input scale scale_log2 / (c log2 e)
// = scale / c (0.0462098 = 1 / (15 log2 e)) before the mask, and the
// softmax takes c log2 e = 21.6404 as its scale, so it sees
// c * tanh(scale * s / c) in the exp2 domain with no multiply by c.
// CHECK-LABEL: gpu.func @fa4_{{hopper|blackwell}}_softcap_sm_{{90|100}}a(
// CHECK-SAME: %[[SCALE_LOG2:arg[0-9]+]]: f32) kernel
// HOPPER: %[[SCORES:[0-9]+]] = fa4.mma
// BLACKWELL: %[[SCORES:[0-9]+]] = fa4.tmem.load
// CHECK: %[[INV:.+]] = arith.constant 0.0462098122 : f32
// CHECK-NEXT: %[[IN:[0-9]+]] = arith.mulf %[[SCALE_LOG2]], %[[INV]] : f32
// CHECK-NEXT: %[[CAPPED:[0-9]+]] = fa4.softcap %[[SCORES]] scale %[[IN]] : <[[TILE:[0-9x]+]]xf32>
// CHECK-NEXT: %[[CAP:.+]] = arith.constant 21.6404247 : f32
// CHECK-NEXT: %[[MASKED:[0-9]+]] = fa4.mask %[[CAPPED]] mask #attn.mask<causal>
// CHECK-NEXT: fa4.softmax %[[MASKED]] max %{{.*}} sum %{{.*}} scale %[[CAP]]
// The Blackwell kernel takes every third exp2 pair on the FMA pipe under a
// softcap (D-67), every fourth without (D-64); the Hopper kernel none.
// HOPPER-NOT: polyExp2Period
// BLACKWELL-SAME: polyExp2Period = 3 : i64
// CHECK-NOT: fa4.softmax
// CHECK-NOT: scale %[[SCALE_LOG2]]
// CHECK: gpu.return

// The reference kernel: its score (scale_log2 folded in) becomes
// c log2 e * tanh(score / (c log2 e)).
// REF: %[[SCORE:[0-9]+]] = arith.mulf %{{[0-9]+}}, %{{arg[0-9]+}} : f32
// REF-NEXT: %[[INV:.+]] = arith.constant 0.0462098122 : f32
// REF-NEXT: %[[IN:[0-9]+]] = arith.mulf %[[SCORE]], %[[INV]] : f32
// REF-NEXT: %[[T:[0-9]+]] = llvm.intr.tanh(%[[IN]]) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// REF-NEXT: %[[CAP:.+]] = arith.constant 21.6404247 : f32
// REF-NEXT: %[[CAPPED:[0-9]+]] = arith.mulf %[[CAP]], %[[T]] : f32
// REF-NEXT: arith.maximumf %{{.*}}, %[[CAPPED]] : f32
func.func @softcap(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x64xbf16>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>, softcap = 15.0 : f32} : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x64xbf16> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
