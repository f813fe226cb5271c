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

// One head's [S, D] (linalg.matmul, as torch-mlir lowers 2D operands):
// raised where K^T is a transpose of K; left alone where K comes already
// transposed ([D, Skv]: no K to give attn.attention without a transpose
// the pass would have to invent) and for a matmul that is no attention.
// CHECK-LABEL: func.func @single_head
// CHECK-SAME: (%[[Q:.*]]: tensor<33x32xf16>, %[[K:.*]]: tensor<40x32xf16>, %[[V:.*]]: tensor<40x32xf16>)
// CHECK: %[[QE:.*]] = tensor.expand_shape %[[Q]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 33, 1, 32]
// CHECK: %[[KE:.*]] = tensor.expand_shape %[[K]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 40, 1, 32]
// CHECK: %[[VE:.*]] = tensor.expand_shape %[[V]]
// CHECK: %[[O:.*]] = attn.attention %[[QE]], %[[KE]], %[[VE]] {scale = 1.250000e-01 : f32} : tensor<1x33x1x32xf16>, tensor<1x40x1x32xf16>, tensor<1x40x1x32xf16> -> tensor<1x33x1x32xf16>
// CHECK: %[[OC:.*]] = tensor.collapse_shape %[[O]] {{\[\[}}0, 1], [2, 3]] : tensor<1x33x1x32xf16> into tensor<33x32xf16>
// CHECK-NEXT: return %[[OC]]
// CHECK-LABEL: func.func @single_head_key_transposed
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: attn.attention
// CHECK: linalg.matmul
func.func @single_head(%q: tensor<33x32xf16>, %k: tensor<40x32xf16>,
                       %v: tensor<40x32xf16>) -> tensor<33x32xf16> {
  %kt0 = tensor.empty() : tensor<32x40xf16>
  %kt = linalg.transpose ins(%k : tensor<40x32xf16>)
      outs(%kt0 : tensor<32x40xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant dense<8.0> : tensor<f32>
  %s0 = tensor.empty() : tensor<33x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<33x40xf32>)
      -> tensor<33x40xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<33x32xf16>, tensor<32x40xf16>)
      outs(%sz : tensor<33x40xf32>) -> tensor<33x40xf32>
  %d0 = tensor.empty() : tensor<33x40xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> ()>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%s, %eight : tensor<33x40xf32>, tensor<f32>)
      outs(%d0 : tensor<33x40xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<33x40xf32>
  %p0 = tensor.empty() : tensor<33x40xf32>
  %p = linalg.softmax dimension(1) ins(%scaled : tensor<33x40xf32>)
      outs(%p0 : tensor<33x40xf32>) -> tensor<33x40xf32>
  %h0 = tensor.empty() : tensor<33x40xf16>
  %ph = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<33x40xf32>) outs(%h0 : tensor<33x40xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<33x40xf16>
  %o0 = tensor.empty() : tensor<33x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<33x32xf32>)
      -> tensor<33x32xf32>
  %o = linalg.matmul ins(%ph, %v : tensor<33x40xf16>, tensor<40x32xf16>)
      outs(%oz : tensor<33x32xf32>) -> tensor<33x32xf32>
  %oh0 = tensor.empty() : tensor<33x32xf16>
  %oh = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<33x32xf32>) outs(%oh0 : tensor<33x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<33x32xf16>
  return %oh : tensor<33x32xf16>
}

func.func @single_head_key_transposed(%q: tensor<33x32xf16>,
    %kt: tensor<32x40xf16>, %v: tensor<40x32xf16>) -> tensor<33x32xf16> {
  %zero = arith.constant 0.0 : f32
  %eight = arith.constant dense<8.0> : tensor<f32>
  %s0 = tensor.empty() : tensor<33x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<33x40xf32>)
      -> tensor<33x40xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<33x32xf16>, tensor<32x40xf16>)
      outs(%sz : tensor<33x40xf32>) -> tensor<33x40xf32>
  %d0 = tensor.empty() : tensor<33x40xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> ()>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%s, %eight : tensor<33x40xf32>, tensor<f32>)
      outs(%d0 : tensor<33x40xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<33x40xf32>
  %p0 = tensor.empty() : tensor<33x40xf32>
  %p = linalg.softmax dimension(1) ins(%scaled : tensor<33x40xf32>)
      outs(%p0 : tensor<33x40xf32>) -> tensor<33x40xf32>
  %h0 = tensor.empty() : tensor<33x40xf16>
  %ph = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<33x40xf32>) outs(%h0 : tensor<33x40xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<33x40xf16>
  %o0 = tensor.empty() : tensor<33x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<33x32xf32>)
      -> tensor<33x32xf32>
  %o = linalg.matmul ins(%ph, %v : tensor<33x40xf16>, tensor<40x32xf16>)
      outs(%oz : tensor<33x32xf32>) -> tensor<33x32xf32>
  %oh0 = tensor.empty() : tensor<33x32xf16>
  %oh = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<33x32xf32>) outs(%oh0 : tensor<33x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<33x32xf16>
  return %oh : tensor<33x32xf16>
}

func.func @matmul(%a: tensor<33x64xf16>, %b: tensor<64x33xf16>)
    -> tensor<33x33xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<33x33xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<33x33xf32>)
      -> tensor<33x33xf32>
  %product = linalg.matmul
      ins(%a, %b : tensor<33x64xf16>, tensor<64x33xf16>)
      outs(%filled : tensor<33x33xf32>) -> tensor<33x33xf32>
  return %product : tensor<33x33xf32>
}

// A constant mask counts only as read at (query, key): the same causal
// constant read transposed, (key, query), keeps the keys after each query
// instead, which is no mask fa4 has: left alone.
// CHECK-LABEL: func.func @mask_at_query_key
// CHECK: attn.attention {{.*}} {mask = #attn.mask<causal>, scale = 1.000000e+00 : f32} : tensor<1x4x1x32xf16>
// CHECK-LABEL: func.func @mask_transposed
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax
func.func @mask_at_query_key(%q: tensor<4x32xf16>, %k: tensor<4x32xf16>,
    %v: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[0.0, 0xFF800000, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0.0, 0xFF800000],
                                [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %kt0 = tensor.empty() : tensor<32x4xf16>
  %kt = linalg.transpose ins(%k : tensor<4x32xf16>)
      outs(%kt0 : tensor<32x4xf16>) permutation = [1, 0]
  %s0 = tensor.empty() : tensor<4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4x4xf32>)
      -> tensor<4x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<4x32xf16>, tensor<32x4xf16>)
      outs(%sz : tensor<4x4xf32>) -> tensor<4x4xf32>
  %d0 = tensor.empty() : tensor<4x4xf32>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%d0 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.addf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %p0 = tensor.empty() : tensor<4x4xf32>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<4x4xf32>)
      outs(%p0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h0 = tensor.empty() : tensor<4x4xf16>
  %ph = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x4xf32>) outs(%h0 : tensor<4x4xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x4xf16>
  %o0 = tensor.empty() : tensor<4x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<4x32xf32>)
      -> tensor<4x32xf32>
  %o = linalg.matmul ins(%ph, %v : tensor<4x4xf16>, tensor<4x32xf16>)
      outs(%oz : tensor<4x32xf32>) -> tensor<4x32xf32>
  %oh0 = tensor.empty() : tensor<4x32xf16>
  %oh = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<4x32xf32>) outs(%oh0 : tensor<4x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x32xf16>
  return %oh : tensor<4x32xf16>
}

func.func @mask_transposed(%q: tensor<4x32xf16>, %k: tensor<4x32xf16>,
    %v: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[0.0, 0xFF800000, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0.0, 0xFF800000],
                                [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %kt0 = tensor.empty() : tensor<32x4xf16>
  %kt = linalg.transpose ins(%k : tensor<4x32xf16>)
      outs(%kt0 : tensor<32x4xf16>) permutation = [1, 0]
  %s0 = tensor.empty() : tensor<4x4xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4x4xf32>)
      -> tensor<4x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<4x32xf16>, tensor<32x4xf16>)
      outs(%sz : tensor<4x4xf32>) -> tensor<4x4xf32>
  %d0 = tensor.empty() : tensor<4x4xf32>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (b, a)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%d0 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %y = arith.addf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  %p0 = tensor.empty() : tensor<4x4xf32>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<4x4xf32>)
      outs(%p0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h0 = tensor.empty() : tensor<4x4xf16>
  %ph = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x4xf32>) outs(%h0 : tensor<4x4xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x4xf16>
  %o0 = tensor.empty() : tensor<4x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<4x32xf32>)
      -> tensor<4x32xf32>
  %o = linalg.matmul ins(%ph, %v : tensor<4x4xf16>, tensor<4x32xf16>)
      outs(%oz : tensor<4x32xf32>) -> tensor<4x32xf32>
  %oh0 = tensor.empty() : tensor<4x32xf16>
  %oh = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<4x32xf32>) outs(%oh0 : tensor<4x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x32xf16>
  return %oh : tensor<4x32xf16>
}

// Products on buffers (no value to replace): left alone.
// CHECK-LABEL: func.func @buffers
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : memref<4x17x64xf16>, memref<4x64x40xf16>)
// CHECK-LABEL: func.func @matmul_buffers
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<17x64xf16>, memref<64x40xf16>)
func.func @buffers(%a: memref<4x17x64xf16>, %b: memref<4x64x40xf16>,
                   %c: memref<4x17x40xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x17x64xf16>, memref<4x64x40xf16>)
      outs(%c : memref<4x17x40xf32>)
  return
}

func.func @matmul_buffers(%a: memref<17x64xf16>, %b: memref<64x40xf16>,
                          %c: memref<17x40xf32>) {
  linalg.matmul ins(%a, %b : memref<17x64xf16>, memref<64x40xf16>)
      outs(%c : memref<17x40xf32>)
  return
}
