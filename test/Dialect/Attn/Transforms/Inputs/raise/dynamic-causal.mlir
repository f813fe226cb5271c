#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention(%arg0: tensor<?x4x?x64xf16>, %arg1: tensor<?x4x?x64xf16>, %arg2: tensor<?x4x?x64xf16>) -> tensor<?x4x?x64xf16> {
    %true = arith.constant true
    %cst = arith.constant dense<0xFC00> : tensor<f16>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<f16>
    %cst_1 = arith.constant dense<1.250000e-01> : tensor<f16>
    %cst_2 = arith.constant 0xFF800000 : f32
    %cst_3 = arith.constant 0.000000e+00 : f16
    %cst_4 = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c4_i64 = arith.constant 4 : i64
    %c64_i64 = arith.constant 64 : i64
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
    %4 = linalg.fill ins(%cst_4 : f32) outs(%3 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %5 = linalg.batch_matmul ins(%collapsed, %collapsed_8 : tensor<?x?x64xf16>, tensor<?x64x?xf16>) outs(%4 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %6 = tensor.empty(%2, %dim_7, %dim_5) : tensor<?x?x?xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<?x?x?xf32>) outs(%6 : tensor<?x?x?xf16>) {
    ^bb0(%in: f32, %out: f16):
      %50 = arith.truncf %in : f32 to f16
      linalg.yield %50 : f16
    } -> tensor<?x?x?xf16>
    %8 = arith.divsi %2, %c4 : index
    %expanded = tensor.expand_shape %7 [[0, 1], [2], [3]] output_shape [%8, 4, %dim_7, %dim_5] : tensor<?x?x?xf16> into tensor<?x4x?x?xf16>
    %9 = tensor.empty(%8, %dim_7, %dim_5) : tensor<?x4x?x?xf16>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded, %cst_1 : tensor<?x4x?x?xf16>, tensor<f16>) outs(%9 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: f16, %in_18: f16, %out: f16):
      %50 = arith.mulf %in, %in_18 : f16
      linalg.yield %50 : f16
    } -> tensor<?x4x?x?xf16>
    %11 = arith.index_cast %dim_7 : index to i64
    %12 = arith.index_cast %dim_5 : index to i64
    %13 = arith.cmpi sge, %11, %c0_i64 : i64
    cf.assert %13, "negative values not allowed in new dimensions"
    %14 = arith.cmpi sge, %12, %c0_i64 : i64
    cf.assert %14, "negative values not allowed in new dimensions"
    %15 = tensor.empty(%dim_7, %dim_5) : tensor<?x?xf16>
    %16 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%cst_0 : tensor<f16>) outs(%15 : tensor<?x?xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<?x?xf16>
    %17 = arith.index_cast %dim : index to i64
    %from_elements = tensor.from_elements %17, %c4_i64, %12, %c64_i64 : tensor<4xi64>
    %extracted_slice = tensor.extract_slice %from_elements[2] [1] [1] : tensor<4xi64> to tensor<1xi64>
    %18 = arith.index_cast %dim_6 : index to i64
    %from_elements_9 = tensor.from_elements %18, %c4_i64, %11, %c64_i64 : tensor<4xi64>
    %extracted_slice_10 = tensor.extract_slice %from_elements_9[2] [1] [1] : tensor<4xi64> to tensor<1xi64>
    %19 = tensor.empty() : tensor<1xi64>
    %20 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel"]} ins(%extracted_slice, %extracted_slice_10 : tensor<1xi64>, tensor<1xi64>) outs(%19 : tensor<1xi64>) {
    ^bb0(%in: i64, %in_18: i64, %out: i64):
      %50 = arith.subi %in, %in_18 : i64
      linalg.yield %50 : i64
    } -> tensor<1xi64>
    %collapsed_11 = tensor.collapse_shape %20 [] : tensor<1xi64> into tensor<i64>
    %extracted = tensor.extract %collapsed_11[] : tensor<i64>
    %21 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<?x?xf16>) outs(%15 : tensor<?x?xf16>) {
    ^bb0(%in: f16, %out: f16):
      %50 = linalg.index 0 : index
      %51 = arith.index_cast %50 : index to i64
      %52 = linalg.index 1 : index
      %53 = arith.index_cast %52 : index to i64
      %54 = arith.addi %51, %extracted : i64
      %55 = arith.cmpi sle, %53, %54 : i64
      %56 = arith.select %55, %in, %cst_3 : f16
      linalg.yield %56 : f16
    } -> tensor<?x?xf16>
    %22 = tensor.empty(%dim_7, %dim_5) : tensor<?x?xi1>
    %23 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%21 : tensor<?x?xf16>) outs(%22 : tensor<?x?xi1>) {
    ^bb0(%in: f16, %out: i1):
      %50 = arith.cmpf une, %in, %cst_3 : f16
      linalg.yield %50 : i1
    } -> tensor<?x?xi1>
    cf.assert %true, "mismatched size for broadcast"
    cf.assert %true, "mismatched size for broadcast"
    %24 = tensor.empty(%8, %dim_7, %dim_5) : tensor<?x4x?x?xf16>
    %25 = linalg.generic {indexing_maps = [#map6, #map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %10, %cst : tensor<?x?xi1>, tensor<?x4x?x?xf16>, tensor<f16>) outs(%24 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: i1, %in_18: f16, %in_19: f16, %out: f16):
      %50 = arith.select %in, %in_18, %in_19 : f16
      linalg.yield %50 : f16
    } -> tensor<?x4x?x?xf16>
    %26 = tensor.empty(%8, %dim_7, %dim_5) : tensor<?x4x?x?xf32>
    %27 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25 : tensor<?x4x?x?xf16>) outs(%26 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f16, %out: f32):
      %50 = arith.extf %in : f16 to f32
      linalg.yield %50 : f32
    } -> tensor<?x4x?x?xf32>
    %28 = tensor.empty(%8, %dim_7) : tensor<?x4x?xi64>
    %29 = linalg.fill ins(%c0_i64 : i64) outs(%28 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %30 = tensor.empty(%8, %dim_7) : tensor<?x4x?xf32>
    %31 = linalg.fill ins(%cst_2 : f32) outs(%30 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %32:2 = linalg.generic {indexing_maps = [#map1, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%27 : tensor<?x4x?x?xf32>) outs(%31, %29 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_18: i64):
      %50 = linalg.index 3 : index
      %51 = arith.index_cast %50 : index to i64
      %52 = arith.maximumf %in, %out : f32
      %53 = arith.cmpf ogt, %in, %out : f32
      %54 = arith.select %53, %51, %out_18 : i64
      linalg.yield %52, %54 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_12 = tensor.expand_shape %32#0 [[0], [1], [2, 3]] output_shape [%8, 4, %dim_7, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %expanded_12 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%26 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %50 = arith.subf %in, %in_18 : f32
      linalg.yield %50 : f32
    } -> tensor<?x4x?x?xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33 : tensor<?x4x?x?xf32>) outs(%26 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = math.exp %in : f32
      linalg.yield %50 : f32
    } -> tensor<?x4x?x?xf32>
    %35 = tensor.empty(%8, %dim_7) : tensor<?x4x?x1xf32>
    %36 = linalg.fill ins(%cst_4 : f32) outs(%35 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %37 = linalg.generic {indexing_maps = [#map1, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%34 : tensor<?x4x?x?xf32>) outs(%36 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.addf %in, %out : f32
      linalg.yield %50 : f32
    } -> tensor<?x4x?x1xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map8, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34, %37 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%26 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %50 = arith.divf %in, %in_18 : f32
      linalg.yield %50 : f32
    } -> tensor<?x4x?x?xf32>
    %39 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38 : tensor<?x4x?x?xf32>) outs(%24 : tensor<?x4x?x?xf16>) {
    ^bb0(%in: f32, %out: f16):
      %50 = arith.truncf %in : f32 to f16
      linalg.yield %50 : f16
    } -> tensor<?x4x?x?xf16>
    %dim_13 = tensor.dim %arg2, %c0 : tensor<?x4x?x64xf16>
    %40 = arith.maxui %8, %dim_13 : index
    %dim_14 = tensor.dim %arg2, %c2 : tensor<?x4x?x64xf16>
    %41 = arith.index_cast %dim_14 : index to i64
    %42 = arith.cmpi eq, %12, %41 : i64
    cf.assert %42, "mismatching contracting dimension"
    %collapsed_15 = tensor.collapse_shape %39 [[0, 1], [2], [3]] : tensor<?x4x?x?xf16> into tensor<?x?x?xf16>
    %collapsed_16 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
    %43 = arith.muli %40, %c4 : index
    %44 = tensor.empty(%43, %dim_7) : tensor<?x?x64xf32>
    %45 = linalg.fill ins(%cst_4 : f32) outs(%44 : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
    %46 = linalg.batch_matmul ins(%collapsed_15, %collapsed_16 : tensor<?x?x?xf16>, tensor<?x?x64xf16>) outs(%45 : tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
    %47 = tensor.empty(%43, %dim_7) : tensor<?x?x64xf16>
    %48 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%46 : tensor<?x?x64xf32>) outs(%47 : tensor<?x?x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %50 = arith.truncf %in : f32 to f16
      linalg.yield %50 : f16
    } -> tensor<?x?x64xf16>
    %49 = arith.divsi %43, %c4 : index
    %expanded_17 = tensor.expand_shape %48 [[0, 1], [2], [3]] output_shape [%49, 4, %dim_7, 64] : tensor<?x?x64xf16> into tensor<?x4x?x64xf16>
    return %expanded_17 : tensor<?x4x?x64xf16>
  }
}

