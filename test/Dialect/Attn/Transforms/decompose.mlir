// RUN: fa4-opt --attn-decompose %s | FileCheck %s

// attn-decompose writes attn.attention's meaning as linalg: GQA reads key
// head h floordiv G, the scale and a bottom-right window from the indices
// and Skv - Sq, the softmax in f32 from -inf and 0, LSE as max + log(sum),
// O rounded to the operands' type. raise-oracle.test runs it against the
// IR that attn-raise replaces.

// CHECK-DAG: #[[KEY:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1 floordiv 4, d4)>
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
