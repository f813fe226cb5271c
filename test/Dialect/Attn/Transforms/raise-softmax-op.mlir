// RUN: fa4-opt --attn-raise %s | FileCheck %s

// The softmax as linalg.softmax over the keys instead of generics, and the
// scale as a division: raised. The same softmax over the queries: left
// alone.

// CHECK-LABEL: func.func @keys
// CHECK: attn.attention {{.*}} {scale = 1.250000e-01 : f32} : tensor<2x33x4x32xf16>, tensor<2x40x4x32xf16>, tensor<2x40x4x32xf16> -> tensor<2x33x4x32xf16>
// CHECK-NOT: linalg.softmax
// CHECK-NOT: linalg.batch_matmul
// CHECK-LABEL: func.func @queries
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax dimension(2)
// CHECK-NOT: attn.attention

func.func @keys(%q: tensor<2x4x33x32xf16>, %k: tensor<2x4x40x32xf16>,
                        %v: tensor<2x4x40x32xf16>) -> tensor<2x4x33x32xf16> {
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant dense<8.0> : tensor<f32>
  %kt0 = tensor.empty() : tensor<2x4x32x40xf16>
  %kt = linalg.transpose ins(%k : tensor<2x4x40x32xf16>)
      outs(%kt0 : tensor<2x4x32x40xf16>) permutation = [0, 1, 3, 2]
  %qf = tensor.collapse_shape %q [[0, 1], [2], [3]]
      : tensor<2x4x33x32xf16> into tensor<8x33x32xf16>
  %ktf = tensor.collapse_shape %kt [[0, 1], [2], [3]]
      : tensor<2x4x32x40xf16> into tensor<8x32x40xf16>
  %s0 = tensor.empty() : tensor<8x33x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<8x33x40xf32>)
      -> tensor<8x33x40xf32>
  %s = linalg.batch_matmul ins(%qf, %ktf : tensor<8x33x32xf16>, tensor<8x32x40xf16>)
      outs(%sz : tensor<8x33x40xf32>) -> tensor<8x33x40xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 33, 40]
      : tensor<8x33x40xf32> into tensor<2x4x33x40xf32>
  %d0 = tensor.empty() : tensor<2x4x33x40xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>,
                       affine_map<(a, b, c, d) -> ()>,
                       affine_map<(a, b, c, d) -> (a, b, c, d)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4, %eight : tensor<2x4x33x40xf32>, tensor<f32>)
      outs(%d0 : tensor<2x4x33x40xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x33x40xf32>
  %p0 = tensor.empty() : tensor<2x4x33x40xf32>
  %p = linalg.softmax dimension(3) ins(%scaled : tensor<2x4x33x40xf32>)
      outs(%p0 : tensor<2x4x33x40xf32>) -> tensor<2x4x33x40xf32>
  %h0 = tensor.empty() : tensor<2x4x33x40xf16>
  %ph = linalg.generic {
      indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>,
                       affine_map<(a, b, c, d) -> (a, b, c, d)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x4x33x40xf32>) outs(%h0 : tensor<2x4x33x40xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x33x40xf16>
  %pf = tensor.collapse_shape %ph [[0, 1], [2], [3]]
      : tensor<2x4x33x40xf16> into tensor<8x33x40xf16>
  %vf = tensor.collapse_shape %v [[0, 1], [2], [3]]
      : tensor<2x4x40x32xf16> into tensor<8x40x32xf16>
  %o0 = tensor.empty() : tensor<8x33x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<8x33x32xf32>)
      -> tensor<8x33x32xf32>
  %o = linalg.batch_matmul ins(%pf, %vf : tensor<8x33x40xf16>, tensor<8x40x32xf16>)
      outs(%oz : tensor<8x33x32xf32>) -> tensor<8x33x32xf32>
  %oh0 = tensor.empty() : tensor<8x33x32xf16>
  %oh = linalg.generic {
      indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>,
                       affine_map<(a, b, c) -> (a, b, c)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<8x33x32xf32>) outs(%oh0 : tensor<8x33x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x33x32xf16>
  %o4 = tensor.expand_shape %oh [[0, 1], [2], [3]] output_shape [2, 4, 33, 32]
      : tensor<8x33x32xf16> into tensor<2x4x33x32xf16>
  return %o4 : tensor<2x4x33x32xf16>
}

func.func @queries(%q: tensor<2x4x33x32xf16>, %k: tensor<2x4x40x32xf16>,
                        %v: tensor<2x4x40x32xf16>) -> tensor<2x4x33x32xf16> {
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant dense<8.0> : tensor<f32>
  %kt0 = tensor.empty() : tensor<2x4x32x40xf16>
  %kt = linalg.transpose ins(%k : tensor<2x4x40x32xf16>)
      outs(%kt0 : tensor<2x4x32x40xf16>) permutation = [0, 1, 3, 2]
  %qf = tensor.collapse_shape %q [[0, 1], [2], [3]]
      : tensor<2x4x33x32xf16> into tensor<8x33x32xf16>
  %ktf = tensor.collapse_shape %kt [[0, 1], [2], [3]]
      : tensor<2x4x32x40xf16> into tensor<8x32x40xf16>
  %s0 = tensor.empty() : tensor<8x33x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<8x33x40xf32>)
      -> tensor<8x33x40xf32>
  %s = linalg.batch_matmul ins(%qf, %ktf : tensor<8x33x32xf16>, tensor<8x32x40xf16>)
      outs(%sz : tensor<8x33x40xf32>) -> tensor<8x33x40xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 33, 40]
      : tensor<8x33x40xf32> into tensor<2x4x33x40xf32>
  %d0 = tensor.empty() : tensor<2x4x33x40xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>,
                       affine_map<(a, b, c, d) -> ()>,
                       affine_map<(a, b, c, d) -> (a, b, c, d)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4, %eight : tensor<2x4x33x40xf32>, tensor<f32>)
      outs(%d0 : tensor<2x4x33x40xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x33x40xf32>
  %p0 = tensor.empty() : tensor<2x4x33x40xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<2x4x33x40xf32>)
      outs(%p0 : tensor<2x4x33x40xf32>) -> tensor<2x4x33x40xf32>
  %h0 = tensor.empty() : tensor<2x4x33x40xf16>
  %ph = linalg.generic {
      indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>,
                       affine_map<(a, b, c, d) -> (a, b, c, d)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x4x33x40xf32>) outs(%h0 : tensor<2x4x33x40xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x33x40xf16>
  %pf = tensor.collapse_shape %ph [[0, 1], [2], [3]]
      : tensor<2x4x33x40xf16> into tensor<8x33x40xf16>
  %vf = tensor.collapse_shape %v [[0, 1], [2], [3]]
      : tensor<2x4x40x32xf16> into tensor<8x40x32xf16>
  %o0 = tensor.empty() : tensor<8x33x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<8x33x32xf32>)
      -> tensor<8x33x32xf32>
  %o = linalg.batch_matmul ins(%pf, %vf : tensor<8x33x40xf16>, tensor<8x40x32xf16>)
      outs(%oz : tensor<8x33x32xf32>) -> tensor<8x33x32xf32>
  %oh0 = tensor.empty() : tensor<8x33x32xf16>
  %oh = linalg.generic {
      indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>,
                       affine_map<(a, b, c) -> (a, b, c)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<8x33x32xf32>) outs(%oh0 : tensor<8x33x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<8x33x32xf16>
  %o4 = tensor.expand_shape %oh [[0, 1], [2], [3]] output_shape [2, 4, 33, 32]
      : tensor<8x33x32xf16> into tensor<2x4x33x32xf16>
  return %o4 : tensor<2x4x33x32xf16>
}
