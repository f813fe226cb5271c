#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention(%arg0: tensor<?x4x?x64xf16>, %arg1: tensor<?x4x?x64xf16>, %arg2: tensor<?x4x?x64xf16>) -> tensor<?x4x?x64xf16> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<1.250000e-01> : tensor<f16>
    %dim = tensor.dim %arg1, %c0 : tensor<?x4x?x64xf16>
    %dim_2 = tensor.dim %arg1, %c2 : tensor<?x4x?x64xf16>
    %0 = tensor.empty(%dim, %dim_2) : tensor<?x4x64x?xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x64xf16>) outs(%0 : tensor<?x4x64x?xf16>) permutation = [0, 1, 3, 2] 
    %dim_3 = tensor.dim %arg0, %c0 : tensor<?x4x?x64xf16>
    %1 = arith.maxui %dim_3, %dim : index
    %dim_4 = tensor.dim %arg0, %c2 : tensor<?x4x?x64xf16>
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
    %collapsed_5 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<?x4x64x?xf16> into tensor<?x64x?xf16>
    %2 = arith.muli %1, %c4 : index
    %3 = tensor.empty(%2, %dim_4, %dim_2) : tensor<?x?x?xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %collapsed_5 : tensor<?x?x64xf16>, tensor<?x64x?xf16>) outs(%4 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %6 = tensor.empty(%2, %dim_4, %dim_2) : tensor<?x?x?xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<?x?x?xf32>) outs(%6 : tensor<?x?x?xf16>) {
    ^bb0(%in: f32, %out: f16):
      %36 = arith.truncf %in : f32 to f16
      linalg.yield %36 : f16
    } -> tensor<?x?x?xf16>
    %8 = arith.divsi %2, %c4 : index
    %expanded = tensor.expand_shape %7 [[0, 1], [2], [3]] output_shape [%8, 4, %dim_4, %dim_2] : tensor<?x?x?xf16> into tensor<?x4x?x?xf16>
    %9 = tensor.empty(%8, %dim_4, %dim_2) : tensor<?x4x?x?xf16>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %cst_1 : tensor<?x4x?x?xf16>, tensor<f16>) outs(%9 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: f16, %in_12: f16, %out: f16):
      %36 = arith.mulf %in, %in_12 : f16
      linalg.yield %36 : f16
    } -> tensor<?x4x?x?xf16>
    %11 = tensor.empty(%8, %dim_4, %dim_2) : tensor<?x4x?x?xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<?x4x?x?xf16>) outs(%11 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f16, %out: f32):
      %36 = arith.extf %in : f16 to f32
      linalg.yield %36 : f32
    } -> tensor<?x4x?x?xf32>
    %13 = tensor.empty(%8, %dim_4) : tensor<?x4x?xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %15 = tensor.empty(%8, %dim_4) : tensor<?x4x?xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %17:2 = linalg.generic {indexing_maps = [#map1, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%12 : tensor<?x4x?x?xf32>) outs(%16, %14 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_12: i64):
      %36 = linalg.index 3 : index
      %37 = arith.index_cast %36 : index to i64
      %38 = arith.maximumf %in, %out : f32
      %39 = arith.cmpf ogt, %in, %out : f32
      %40 = arith.select %39, %37, %out_12 : i64
      linalg.yield %38, %40 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_6 = tensor.expand_shape %17#0 [[0], [1], [2, 3]] output_shape [%8, 4, %dim_4, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_6 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%11 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %36 = arith.subf %in, %in_12 : f32
      linalg.yield %36 : f32
    } -> tensor<?x4x?x?xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<?x4x?x?xf32>) outs(%11 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %36 = math.exp %in : f32
      linalg.yield %36 : f32
    } -> tensor<?x4x?x?xf32>
    %20 = tensor.empty(%8, %dim_4) : tensor<?x4x?x1xf32>
    %21 = linalg.fill ins(%cst : f32) outs(%20 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%19 : tensor<?x4x?x?xf32>) outs(%21 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %36 = arith.addf %in, %out : f32
      linalg.yield %36 : f32
    } -> tensor<?x4x?x1xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %22 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%11 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %36 = arith.divf %in, %in_12 : f32
      linalg.yield %36 : f32
    } -> tensor<?x4x?x?xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<?x4x?x?xf32>) outs(%9 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: f32, %out: f16):
      %36 = arith.truncf %in : f32 to f16
      linalg.yield %36 : f16
    } -> tensor<?x4x?x?xf16>
    %dim_7 = tensor.dim %arg2, %c0 : tensor<?x4x?x64xf16>
    %25 = arith.maxui %8, %dim_7 : index
    %dim_8 = tensor.dim %arg2, %c2 : tensor<?x4x?x64xf16>
    %26 = arith.index_cast %dim_2 : index to i64
    %27 = arith.index_cast %dim_8 : index to i64
    %28 = arith.cmpi eq, %26, %27 : i64
    cf.assert %28, "mismatching contracting dimension"
    %collapsed_9 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<?x4x?x?xf16> into tensor<?x?x?xf16>
    %collapsed_10 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
    %29 = arith.muli %25, %c4 : index
    %30 = tensor.empty(%29, %dim_4) : tensor<?x?x64xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
    %32 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<?x?x?xf16>, tensor<?x?x64xf16>) outs(%31 : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
    %33 = tensor.empty(%29, %dim_4) : tensor<?x?x64xf16>
    %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%32 : tensor<?x?x64xf32>) outs(%33 : tensor<?x?x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %36 = arith.truncf %in : f32 to f16
      linalg.yield %36 : f16
    } -> tensor<?x?x64xf16>
    %35 = arith.divsi %29, %c4 : index
    %expanded_11 = tensor.expand_shape %34 [[0, 1], [2], [3]] output_shape [%35, 4, %dim_4, 64] : tensor<?x?x64xf16> into tensor<?x4x?x64xf16>
    return %expanded_11 : tensor<?x4x?x64xf16>
  }
}

