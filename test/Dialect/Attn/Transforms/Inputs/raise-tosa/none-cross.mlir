module {
  func.func @attention(%arg0: tensor<2x4x17x64xf16>, %arg1: tensor<2x4x40x64xf16>, %arg2: tensor<2x4x40x64xf16>) -> tensor<2x4x17x64xf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %1 = tosa.const_shape  {values = dense<[8, 17, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[8, 64, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[2, 4, 17, 40]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[8, 17, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[8, 40, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[2, 4, 17, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %8 = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1x1xf16>}> : () -> tensor<1x1x1x1xf16>
    %9 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<2x4x40x64xf16>) -> tensor<2x4x64x40xf16>
    %10 = tosa.reshape %arg0, %1 : (tensor<2x4x17x64xf16>, !tosa.shape<3>) -> tensor<8x17x64xf16>
    %11 = tosa.reshape %9, %2 : (tensor<2x4x64x40xf16>, !tosa.shape<3>) -> tensor<8x64x40xf16>
    %12 = tosa.matmul %10, %11, %0, %0 : (tensor<8x17x64xf16>, tensor<8x64x40xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x17x40xf32>
    %13 = tosa.reshape %12, %3 : (tensor<8x17x40xf32>, !tosa.shape<4>) -> tensor<2x4x17x40xf32>
    %14 = tosa.cast %13 : (tensor<2x4x17x40xf32>) -> tensor<2x4x17x40xf16>
    %15 = tosa.mul %14, %8, %4 : (tensor<2x4x17x40xf16>, tensor<1x1x1x1xf16>, tensor<1xi8>) -> tensor<2x4x17x40xf16>
    %16 = tosa.cast %15 : (tensor<2x4x17x40xf16>) -> tensor<2x4x17x40xf32>
    %17 = tosa.reduce_max %16 {axis = 3 : i32} : (tensor<2x4x17x40xf32>) -> tensor<2x4x17x1xf32>
    %18 = tosa.sub %16, %17 : (tensor<2x4x17x40xf32>, tensor<2x4x17x1xf32>) -> tensor<2x4x17x40xf32>
    %19 = tosa.exp %18 : (tensor<2x4x17x40xf32>) -> tensor<2x4x17x40xf32>
    %20 = tosa.reduce_sum %19 {axis = 3 : i32} : (tensor<2x4x17x40xf32>) -> tensor<2x4x17x1xf32>
    %21 = tosa.reciprocal %20 : (tensor<2x4x17x1xf32>) -> tensor<2x4x17x1xf32>
    %22 = tosa.mul %19, %21, %4 : (tensor<2x4x17x40xf32>, tensor<2x4x17x1xf32>, tensor<1xi8>) -> tensor<2x4x17x40xf32>
    %23 = tosa.cast %22 : (tensor<2x4x17x40xf32>) -> tensor<2x4x17x40xf16>
    %24 = tosa.reshape %23, %5 : (tensor<2x4x17x40xf16>, !tosa.shape<3>) -> tensor<8x17x40xf16>
    %25 = tosa.reshape %arg2, %6 : (tensor<2x4x40x64xf16>, !tosa.shape<3>) -> tensor<8x40x64xf16>
    %26 = tosa.matmul %24, %25, %0, %0 : (tensor<8x17x40xf16>, tensor<8x40x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x17x64xf32>
    %27 = tosa.reshape %26, %7 : (tensor<8x17x64xf32>, !tosa.shape<4>) -> tensor<2x4x17x64xf32>
    %28 = tosa.cast %27 : (tensor<2x4x17x64xf32>) -> tensor<2x4x17x64xf16>
    return %28 : tensor<2x4x17x64xf16>
  }
}

