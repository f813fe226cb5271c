// RUN: fa4-opt --attn-raise %s | FileCheck %s

// attn-raise touches only what it raises: a batch_matmul that is no
// attention and a dead constant of the user's stay.

// CHECK-LABEL: func.func @not_attention
// CHECK: arith.constant 4.200000e+01 : f32
// CHECK: linalg.batch_matmul
// CHECK-NOT: attn.attention
func.func @not_attention(%a: tensor<8x33x64xf16>, %b: tensor<8x64x33xf16>)
    -> tensor<8x33x33xf32> {
  %unused = arith.constant 42.0 : f32
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x33x33xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<8x33x33xf32>)
      -> tensor<8x33x33xf32>
  %product = linalg.batch_matmul
      ins(%a, %b : tensor<8x33x64xf16>, tensor<8x64x33xf16>)
      outs(%filled : tensor<8x33x33xf32>) -> tensor<8x33x33xf32>
  return %product : tensor<8x33x33xf32>
}
