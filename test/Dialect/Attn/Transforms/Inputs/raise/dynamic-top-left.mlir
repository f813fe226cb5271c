#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention(%arg0: tensor<?x4x?x64xf16>, %arg1: tensor<?x4x?x64xf16>, %arg2: tensor<?x4x?x64xf16>) -> tensor<?x4x?x64xf16> {
    %true = arith.constant true
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant dense<1.250000e-01> : tensor<f16>
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<f16>
    %cst_4 = arith.constant dense<0xFC00> : tensor<f16>
    %dim = tensor.dim %arg1, %c0 : tensor<?x4x?x64xf16>
    %dim_5 = tensor.dim %arg1, %c2 : tensor<?x4x?x64xf16>
    %0 = tensor.empty(%dim, %dim_5) : tensor<?x4x64x?xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x64xf16>) outs(%0 : tensor<?x4x64x?xf16>) permutation = [0, 1, 3, 2] 
    %dim_6 = tensor.dim %arg0, %c0 : tensor<?x4x?x64xf16>
    %1 = arith.maxui %dim_6, %dim : index
    %dim_7 = tensor.dim %arg0, %c2 : tensor<?x4x?x64xf16>
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
    %collapsed_8 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<?x4x64x?xf16> into tensor<?x64x?xf16>
    %2 = arith.muli %1, %c4 : index
    %3 = tensor.empty(%2, %dim_7, %dim_5) : tensor<?x?x?xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<?x?x64xf16>, tensor<?x64x?xf16>) outs(%4 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %6 = tensor.empty(%2, %dim_7, %dim_5) : tensor<?x?x?xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<?x?x?xf32>) outs(%6 : tensor<?x?x?xf16>) {
    ^bb0(%in: f32, %out: f16):
      %46 = arith.truncf %in : f32 to f16
      linalg.yield %46 : f16
    } -> tensor<?x?x?xf16>
    %8 = arith.divsi %2, %c4 : index
    %expanded = tensor.expand_shape %7 [[0, 1], [2], [3]] output_shape [%8, 4, %dim_7, %dim_5] : tensor<?x?x?xf16> into tensor<?x4x?x?xf16>
    %9 = tensor.empty(%8, %dim_7, %dim_5) : tensor<?x4x?x?xf16>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %cst_2 : tensor<?x4x?x?xf16>, tensor<f16>) outs(%9 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: f16, %in_15: f16, %out: f16):
      %46 = arith.mulf %in, %in_15 : f16
      linalg.yield %46 : f16
    } -> tensor<?x4x?x?xf16>
    %11 = arith.index_cast %dim_7 : index to i64
    %12 = arith.index_cast %dim_5 : index to i64
    %13 = arith.cmpi sge, %11, %c0_i64 : i64
    cf.assert %13, "negative values not allowed in new dimensions"
    %14 = arith.cmpi sge, %12, %c0_i64 : i64
    cf.assert %14, "negative values not allowed in new dimensions"
    %15 = tensor.empty(%dim_7, %dim_5) : tensor<?x?xf16>
    %16 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%cst_3 : tensor<f16>) outs(%15 : tensor<?x?xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<?x?xf16>
    %17 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<?x?xf16>) outs(%15 : tensor<?x?xf16>) {
    ^bb0(%in: f16, %out: f16):
      %46 = linalg.index 0 : index
      %47 = arith.index_cast %46 : index to i64
      %48 = linalg.index 1 : index
      %49 = arith.index_cast %48 : index to i64
      %50 = arith.cmpi sle, %49, %47 : i64
      %51 = arith.select %50, %in, %cst_0 : f16
      linalg.yield %51 : f16
    } -> tensor<?x?xf16>
    %18 = tensor.empty(%dim_7, %dim_5) : tensor<?x?xi1>
    %19 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<?x?xf16>) outs(%18 : tensor<?x?xi1>) {
    ^bb0(%in: f16, %out: i1):
      %46 = arith.cmpf une, %in, %cst_0 : f16
      linalg.yield %46 : i1
    } -> tensor<?x?xi1>
    cf.assert %true, "mismatched size for broadcast"
    cf.assert %true, "mismatched size for broadcast"
    %20 = tensor.empty(%8, %dim_7, %dim_5) : tensor<?x4x?x?xf16>
    %21 = linalg.generic {indexing_maps = [#map5, #map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %10, %cst_4 : tensor<?x?xi1>, tensor<?x4x?x?xf16>, tensor<f16>) outs(%20 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: i1, %in_15: f16, %in_16: f16, %out: f16):
      %46 = arith.select %in, %in_15, %in_16 : f16
      linalg.yield %46 : f16
    } -> tensor<?x4x?x?xf16>
    %22 = tensor.empty(%8, %dim_7, %dim_5) : tensor<?x4x?x?xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21 : tensor<?x4x?x?xf16>) outs(%22 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f16, %out: f32):
      %46 = arith.extf %in : f16 to f32
      linalg.yield %46 : f32
    } -> tensor<?x4x?x?xf32>
    %24 = tensor.empty(%8, %dim_7) : tensor<?x4x?xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %26 = tensor.empty(%8, %dim_7) : tensor<?x4x?xf32>
    %27 = linalg.fill ins(%cst_1 : f32) outs(%26 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %28:2 = linalg.generic {indexing_maps = [#map1, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%23 : tensor<?x4x?x?xf32>) outs(%27, %25 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_15: i64):
      %46 = linalg.index 3 : index
      %47 = arith.index_cast %46 : index to i64
      %48 = arith.maximumf %in, %out : f32
      %49 = arith.cmpf ogt, %in, %out : f32
      %50 = arith.select %49, %47, %out_15 : i64
      linalg.yield %48, %50 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_9 = tensor.expand_shape %28#0 [[0], [1], [2, 3]] output_shape [%8, 4, %dim_7, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %expanded_9 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%22 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %46 = arith.subf %in, %in_15 : f32
      linalg.yield %46 : f32
    } -> tensor<?x4x?x?xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<?x4x?x?xf32>) outs(%22 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %46 = math.exp %in : f32
      linalg.yield %46 : f32
    } -> tensor<?x4x?x?xf32>
    %31 = tensor.empty(%8, %dim_7) : tensor<?x4x?x1xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%30 : tensor<?x4x?x?xf32>) outs(%32 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %46 = arith.addf %in, %out : f32
      linalg.yield %46 : f32
    } -> tensor<?x4x?x1xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %33 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%22 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %46 = arith.divf %in, %in_15 : f32
      linalg.yield %46 : f32
    } -> tensor<?x4x?x?xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<?x4x?x?xf32>) outs(%20 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: f32, %out: f16):
      %46 = arith.truncf %in : f32 to f16
      linalg.yield %46 : f16
    } -> tensor<?x4x?x?xf16>
    %dim_10 = tensor.dim %arg2, %c0 : tensor<?x4x?x64xf16>
    %36 = arith.maxui %8, %dim_10 : index
    %dim_11 = tensor.dim %arg2, %c2 : tensor<?x4x?x64xf16>
    %37 = arith.index_cast %dim_11 : index to i64
    %38 = arith.cmpi eq, %12, %37 : i64
    cf.assert %38, "mismatching contracting dimension"
    %collapsed_12 = tensor.collapse_shape %35 [[0, 1], [2], [3]] : tensor<?x4x?x?xf16> into tensor<?x?x?xf16>
    %collapsed_13 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
    %39 = arith.muli %36, %c4 : index
    %40 = tensor.empty(%39, %dim_7) : tensor<?x?x64xf32>
    %41 = linalg.fill ins(%cst : f32) outs(%40 : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
    %42 = linalg.batch_matmul ins(%collapsed_12, %collapsed_13 : tensor<?x?x?xf16>, tensor<?x?x64xf16>) outs(%41 : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
    %43 = tensor.empty(%39, %dim_7) : tensor<?x?x64xf16>
    %44 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%42 : tensor<?x?x64xf32>) outs(%43 : tensor<?x?x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %46 = arith.truncf %in : f32 to f16
      linalg.yield %46 : f16
    } -> tensor<?x?x64xf16>
    %45 = arith.divsi %39, %c4 : index
    %expanded_14 = tensor.expand_shape %44 [[0, 1], [2], [3]] output_shape [%45, 4, %dim_7, 64] : tensor<?x?x64xf16> into tensor<?x4x?x64xf16>
    return %expanded_14 : tensor<?x4x?x64xf16>
  }
}

