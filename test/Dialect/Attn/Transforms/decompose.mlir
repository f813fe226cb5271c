// RUN: fa4-opt --attn-decompose %s | FileCheck %s

// attn-decompose writes attn.attention's meaning as linalg: GQA reads key
// head h floordiv G, the scale and a bottom-right window from the indices
// and Skv - Sq, the softmax in f32 from -inf and 0, LSE as max + log(sum),
// O rounded to the operands' type. raise-oracle.test runs it against the
// IR that attn-raise replaces.

// CHECK-DAG: #[[KEY:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1 floordiv 4, d4)>
// The FP8 case's descale maps (@fp8, last).
// CHECK-DAG: #[[NONE:.*]] = affine_map<(d0, d1, d2, d3, d4) -> ()>
// CHECK-DAG: #[[S_HEAD:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 2)>
// CHECK-DAG: #[[O_HEAD:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2 floordiv 2)>
// CHECK-LABEL: func.func @window_gqa_lse
// CHECK-NOT: attn.attention
// CHECK: linalg.generic {{.*}}#[[KEY]]{{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.extf
// CHECK: %[[SQ:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[SKV:.*]] = tensor.dim %arg1, %c1
// CHECK: %[[OFFSET:.*]] = arith.subi %[[SKV]], %[[SQ]]
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: linalg.index 2
// CHECK: linalg.index 3
// CHECK: arith.addi %{{.*}}, %[[OFFSET]]
// CHECK: arith.cmpi sle
// CHECK: arith.cmpi sge
// CHECK: arith.select
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: math.log
// CHECK: return {{.*}} : tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
func.func @window_gqa_lse(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x2x64xbf16>,
                          %v: tensor<?x?x2x64xbf16>)
    -> (tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v
      {scale = 0.5 : f32, mask = #attn.mask<window(3, 1)>}
      : tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>
      -> tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
}

// No mask: no index arithmetic.
// CHECK-LABEL: func.func @no_mask
// CHECK-NOT: linalg.index
// CHECK: return
func.func @no_mask(%q: tensor<1x5x2x16xf16>, %k: tensor<1x7x2x16xf16>,
                   %v: tensor<1x7x2x16xf16>) -> tensor<1x5x2x16xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x5x2x16xf16>, tensor<1x7x2x16xf16>, tensor<1x7x2x16xf16>
      -> tensor<1x5x2x16xf16>
  return %o : tensor<1x5x2x16xf16>
}

// FP8 (issue 62): each f8E4M3FN operand widened to f32 and times its
// descale inside the contractions (the maps at the top): Q K^T by
// q_descale (one value: a rank-0 map) and k_descale (per batch and key/value head: [b, h / G]),
// P V by v_descale; O in the output's bf16.
// CHECK-LABEL: func.func @fp8
// CHECK-SAME: (%[[Q:.*]]: tensor<2x7x4x64xf8E4M3FN>, %[[K:.*]]: tensor<2x5x2x64xf8E4M3FN>, %[[V:.*]]: tensor<2x5x2x64xf8E4M3FN>, %[[QD:.*]]: tensor<f32>, %[[KD:.*]]: tensor<2x2xf32>, %[[VD:.*]]: tensor<2x2xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[NONE]], #[[S_HEAD]], #{{.*}}]{{.*}} ins(%[[Q]], %[[K]], %[[QD]], %[[KD]] :
// CHECK-NEXT: ^bb0(%[[QE:.*]]: f8E4M3FN, %[[KE:.*]]: f8E4M3FN, %[[QS:.*]]: f32, %[[KS:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-DAG: %[[KW:.*]] = arith.extf %[[KE]] : f8E4M3FN to f32
// CHECK-DAG: %[[QW:.*]] = arith.extf %[[QE]] : f8E4M3FN to f32
// CHECK: %[[QK:.*]] = arith.mulf %[[QW]], %[[KW]] : f32
// CHECK-NEXT: %[[QKQ:.*]] = arith.mulf %[[QK]], %[[QS]] : f32
// CHECK-NEXT: %[[QKQK:.*]] = arith.mulf %[[QKQ]], %[[KS]] : f32
// CHECK-NEXT: arith.addf %[[QKQK]], %[[ACC]] : f32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[O_HEAD]], #{{.*}}]{{.*}} ins(%{{.*}}, %[[V]], %[[VD]] :
// CHECK-NEXT: ^bb0(%[[P:.*]]: f32, %[[VE:.*]]: f8E4M3FN, %[[VS:.*]]: f32, %[[OACC:.*]]: f32):
// CHECK-NEXT: %[[VW:.*]] = arith.extf %[[VE]] : f8E4M3FN to f32
// CHECK-NEXT: %[[PV:.*]] = arith.mulf %[[P]], %[[VW]] : f32
// CHECK-NEXT: %[[PVS:.*]] = arith.mulf %[[PV]], %[[VS]] : f32
// CHECK-NEXT: arith.addf %[[PVS]], %[[OACC]] : f32
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: return {{.*}} : tensor<2x7x4x64xbf16>
func.func @fp8(%q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>, %v: tensor<2x5x2x64xf8E4M3FN>,
               %qd: tensor<f32>, %kd: tensor<2x2xf32>, %vd: tensor<2x2xf32>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %v q_descale(%qd : tensor<f32>) k_descale(%kd : tensor<2x2xf32>) v_descale(%vd : tensor<2x2xf32>) {mask = #attn.mask<causal>}
      : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>
      -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
