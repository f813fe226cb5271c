module {
  func.func @attention(%arg0: tensor<2x4x33x64xf16>, %arg1: tensor<2x4x33x64xf16>, %arg2: tensor<2x4x33x64xf16>) -> tensor<2x4x33x64xf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %1 = tosa.const_shape  {values = dense<[8, 33, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[8, 64, 33]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[2, 4, 33, 33]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 33, 33]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[2, 4, 33, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %7 = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
    %8 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x33x64xf16>) -> tensor<2x4x64x33xf16>
    %9 = tosa.reshape %arg0, %1 : (tensor<2x4x33x64xf16>, !tosa.shape<3>) -> tensor<8x33x64xf16>
    %10 = tosa.reshape %8, %2 : (tensor<2x4x64x33xf16>, !tosa.shape<3>) -> tensor<8x64x33xf16>
    %11 = tosa.matmul %9, %10, %0, %0 : (tensor<8x33x64xf16>, tensor<8x64x33xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x33x33xf32>
    %12 = tosa.reshape %11, %3 : (tensor<8x33x33xf32>, !tosa.shape<4>) -> tensor<2x4x33x33xf32>
    %13 = tosa.cast %12 : (tensor<2x4x33x33xf32>) -> tensor<2x4x33x33xf16>
    %14 = tosa.mul %13, %7, %4 : (tensor<2x4x33x33xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x4x33x33xf16>
    %15 = tosa.cast %14 : (tensor<2x4x33x33xf16>) -> tensor<2x4x33x33xf32>
    %16 = tosa.reduce_max %15 {axis = 2 : i32} : (tensor<2x4x33x33xf32>) -> tensor<2x4x1x33xf32>
    %17 = tosa.sub %15, %16 : (tensor<2x4x33x33xf32>, tensor<2x4x1x33xf32>) -> tensor<2x4x33x33xf32>
    %18 = tosa.exp %17 : (tensor<2x4x33x33xf32>) -> tensor<2x4x33x33xf32>
    %19 = tosa.reduce_sum %18 {axis = 2 : i32} : (tensor<2x4x33x33xf32>) -> tensor<2x4x1x33xf32>
    %20 = tosa.reciprocal %19 : (tensor<2x4x1x33xf32>) -> tensor<2x4x1x33xf32>
    %21 = tosa.mul %18, %20, %4 : (tensor<2x4x33x33xf32>, tensor<2x4x1x33xf32>, tensor<1xi8>) -> tensor<2x4x33x33xf32>
    %22 = tosa.cast %21 : (tensor<2x4x33x33xf32>) -> tensor<2x4x33x33xf16>
    %23 = tosa.reshape %22, %5 : (tensor<2x4x33x33xf16>, !tosa.shape<3>) -> tensor<8x33x33xf16>
    %24 = tosa.reshape %arg2, %1 : (tensor<2x4x33x64xf16>, !tosa.shape<3>) -> tensor<8x33x64xf16>
    %25 = tosa.matmul %23, %24, %0, %0 : (tensor<8x33x33xf16>, tensor<8x33x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x33x64xf32>
    %26 = tosa.reshape %25, %6 : (tensor<8x33x64xf32>, !tosa.shape<4>) -> tensor<2x4x33x64xf32>
    %27 = tosa.cast %26 : (tensor<2x4x33x64xf32>) -> tensor<2x4x33x64xf16>
    return %27 : tensor<2x4x33x64xf16>
  }
}

