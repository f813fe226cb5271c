#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention(%arg0: tensor<2x4x33x64xf16>, %arg1: tensor<2x4x33x64xf16>, %arg2: tensor<2x4x33x64xf16>) -> tensor<2x4x33x64xf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<3.535160e-01> : tensor<f16>
    %cst_2 = arith.constant dense<[[true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]]> : tensor<33x33xi1>
    %cst_3 = arith.constant dense<0xFC00> : tensor<f16>
    %0 = tensor.empty() : tensor<2x4x33x64xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %cst_1 : tensor<2x4x33x64xf16>, tensor<f16>) outs(%0 : tensor<2x4x33x64xf16>) {
    ^bb0(%in: f16, %in_9: f16, %out: f16):
      %30 = arith.mulf %in, %in_9 : f16
      linalg.yield %30 : f16
    } -> tensor<2x4x33x64xf16>
    %2 = tensor.empty() : tensor<2x4x64x33xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x4x33x64xf16>) outs(%2 : tensor<2x4x64x33xf16>) permutation = [0, 1, 3, 2] 
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed, %cst_1 : tensor<2x4x64x33xf16>, tensor<f16>) outs(%2 : tensor<2x4x64x33xf16>) {
    ^bb0(%in: f16, %in_9: f16, %out: f16):
      %30 = arith.mulf %in, %in_9 : f16
      linalg.yield %30 : f16
    } -> tensor<2x4x64x33xf16>
    %collapsed = tensor.collapse_shape %1 [[0, 1], [2], [3]] : tensor<2x4x33x64xf16> into tensor<8x33x64xf16>
    %collapsed_4 = tensor.collapse_shape %3 [[0, 1], [2], [3]] : tensor<2x4x64x33xf16> into tensor<8x64x33xf16>
    %4 = tensor.empty() : tensor<8x33x33xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<8x33x33xf32>) -> tensor<8x33x33xf32>
    %6 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<8x33x64xf16>, tensor<8x64x33xf16>) outs(%5 : tensor<8x33x33xf32>) -> tensor<8x33x33xf32>
    %7 = tensor.empty() : tensor<8x33x33xf16>
    %8 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<8x33x33xf32>) outs(%7 : tensor<8x33x33xf16>) {
    ^bb0(%in: f32, %out: f16):
      %30 = arith.truncf %in : f32 to f16
      linalg.yield %30 : f16
    } -> tensor<8x33x33xf16>
    %expanded = tensor.expand_shape %8 [[0, 1], [2], [3]] output_shape [2, 4, 33, 33] : tensor<8x33x33xf16> into tensor<2x4x33x33xf16>
    %9 = tensor.empty() : tensor<2x4x33x33xf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_2, %expanded, %cst_3 : tensor<33x33xi1>, tensor<2x4x33x33xf16>, tensor<f16>) outs(%9 : tensor<2x4x33x33xf16>) {
    ^bb0(%in: i1, %in_9: f16, %in_10: f16, %out: f16):
      %30 = arith.select %in, %in_9, %in_10 : f16
      linalg.yield %30 : f16
    } -> tensor<2x4x33x33xf16>
    %11 = tensor.empty() : tensor<2x4x33x33xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x4x33x33xf16>) outs(%11 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f16, %out: f32):
      %30 = arith.extf %in : f16 to f32
      linalg.yield %30 : f32
    } -> tensor<2x4x33x33xf32>
    %13 = tensor.empty() : tensor<2x4x33xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<2x4x33xi64>) -> tensor<2x4x33xi64>
    %15 = tensor.empty() : tensor<2x4x33xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<2x4x33xf32>) -> tensor<2x4x33xf32>
    %17:2 = linalg.generic {indexing_maps = [#map, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%12 : tensor<2x4x33x33xf32>) outs(%16, %14 : tensor<2x4x33xf32>, tensor<2x4x33xi64>) {
    ^bb0(%in: f32, %out: f32, %out_9: i64):
      %30 = linalg.index 3 : index
      %31 = arith.index_cast %30 : index to i64
      %32 = arith.maximumf %in, %out : f32
      %33 = arith.cmpf ogt, %in, %out : f32
      %34 = arith.select %33, %31, %out_9 : i64
      linalg.yield %32, %34 : f32, i64
    } -> (tensor<2x4x33xf32>, tensor<2x4x33xi64>)
    %expanded_5 = tensor.expand_shape %17#0 [[0], [1], [2, 3]] output_shape [2, 4, 33, 1] : tensor<2x4x33xf32> into tensor<2x4x33x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_5 : tensor<2x4x33x33xf32>, tensor<2x4x33x1xf32>) outs(%11 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %30 = arith.subf %in, %in_9 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x33x33xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<2x4x33x33xf32>) outs(%11 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = math.exp %in : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x33x33xf32>
    %20 = tensor.empty() : tensor<2x4x33x1xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<2x4x33x1xf32>) -> tensor<2x4x33x1xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%19 : tensor<2x4x33x33xf32>) outs(%21 : tensor<2x4x33x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x33x1xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map5, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %22 : tensor<2x4x33x33xf32>, tensor<2x4x33x1xf32>) outs(%11 : tensor<2x4x33x33xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %30 = arith.divf %in, %in_9 : f32
      linalg.yield %30 : f32
    } -> tensor<2x4x33x33xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<2x4x33x33xf32>) outs(%9 : tensor<2x4x33x33xf16>) {
    ^bb0(%in: f32, %out: f16):
      %30 = arith.truncf %in : f32 to f16
      linalg.yield %30 : f16
    } -> tensor<2x4x33x33xf16>
    %collapsed_6 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<2x4x33x33xf16> into tensor<8x33x33xf16>
    %collapsed_7 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x4x33x64xf16> into tensor<8x33x64xf16>
    %25 = tensor.empty() : tensor<8x33x64xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<8x33x64xf32>) -> tensor<8x33x64xf32>
    %27 = linalg.batch_matmul ins(%collapsed_6, %collapsed_7 : tensor<8x33x33xf16>, tensor<8x33x64xf16>) outs(%26 : tensor<8x33x64xf32>) -> tensor<8x33x64xf32>
    %28 = tensor.empty() : tensor<8x33x64xf16>
    %29 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%27 : tensor<8x33x64xf32>) outs(%28 : tensor<8x33x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %30 = arith.truncf %in : f32 to f16
      linalg.yield %30 : f16
    } -> tensor<8x33x64xf16>
    %expanded_8 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 4, 33, 64] : tensor<8x33x64xf16> into tensor<2x4x33x64xf16>
    return %expanded_8 : tensor<2x4x33x64xf16>
  }
}

