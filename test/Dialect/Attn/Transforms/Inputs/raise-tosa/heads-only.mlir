module {
  func.func @attention(%arg0: tensor<4x17x64xf16>, %arg1: tensor<4x40x64xf16>, %arg2: tensor<4x40x64xf16>) -> tensor<4x17x64xf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
    %3 = tosa.transpose %arg1 {perms = array<i32: 0, 2, 1>} : (tensor<4x40x64xf16>) -> tensor<4x64x40xf16>
    %4 = tosa.matmul %arg0, %3, %0, %0 : (tensor<4x17x64xf16>, tensor<4x64x40xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x17x40xf32>
    %5 = tosa.cast %4 : (tensor<4x17x40xf32>) -> tensor<4x17x40xf16>
    %6 = tosa.mul %5, %2, %1 : (tensor<4x17x40xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<4x17x40xf16>
    %7 = tosa.cast %6 : (tensor<4x17x40xf16>) -> tensor<4x17x40xf32>
    %8 = tosa.reduce_max %7 {axis = 2 : i32} : (tensor<4x17x40xf32>) -> tensor<4x17x1xf32>
    %9 = tosa.sub %7, %8 : (tensor<4x17x40xf32>, tensor<4x17x1xf32>) -> tensor<4x17x40xf32>
    %10 = tosa.exp %9 : (tensor<4x17x40xf32>) -> tensor<4x17x40xf32>
    %11 = tosa.reduce_sum %10 {axis = 2 : i32} : (tensor<4x17x40xf32>) -> tensor<4x17x1xf32>
    %12 = tosa.reciprocal %11 : (tensor<4x17x1xf32>) -> tensor<4x17x1xf32>
    %13 = tosa.mul %10, %12, %1 : (tensor<4x17x40xf32>, tensor<4x17x1xf32>, tensor<1xi8>) -> tensor<4x17x40xf32>
    %14 = tosa.cast %13 : (tensor<4x17x40xf32>) -> tensor<4x17x40xf16>
    %15 = tosa.matmul %14, %arg2, %0, %0 : (tensor<4x17x40xf16>, tensor<4x40x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x17x64xf32>
    %16 = tosa.cast %15 : (tensor<4x17x64xf32>) -> tensor<4x17x64xf16>
    return %16 : tensor<4x17x64xf16>
  }
}

