// RUN: fa4-opt --attn-raise %s | FileCheck %s
// A bound past what kernels compute with (window bounds below 2^30): left
// alone, not turned into an invalid mask.
// RUN: sed -e 's/%ahead = arith.constant 2 : i64/%ahead = arith.constant 1099511627776 : i64/' %s | fa4-opt --attn-raise | FileCheck %s --check-prefix=FAR
// FAR-LABEL: func.func @lookahead
// FAR-NOT: attn.attention
// FAR: linalg.softmax

// Masks computed from the lengths when the model runs (symbolic Sq and
// Skv), written as arange comparisons: the forms raise.test's real
// frontend did not write (its Trilu lowering is in
// Inputs/raise/dynamic-causal.mlir). One head's [S, D] with linalg.matmul.

// masked_fill over `key > query + Skv - Sq`: causal.
// CHECK-LABEL: func.func @masked_fill_causal
// CHECK: attn.attention {{.*}} {mask = #attn.mask<causal>, scale = 1.000000e+00 : f32} : tensor<1x?x1x32xf16>
// CHECK-NOT: linalg.generic
func.func @masked_fill_causal(%q: tensor<?x32xf16>, %k: tensor<?x32xf16>,
    %v: tensor<?x32xf16>) -> tensor<?x32xf16> {
  %c0 = arith.constant 0 : index
  %sq = tensor.dim %q, %c0 : tensor<?x32xf16>
  %skv = tensor.dim %k, %c0 : tensor<?x32xf16>
  %kt0 = tensor.empty(%skv) : tensor<32x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x32xf16>)
      outs(%kt0 : tensor<32x?xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %s0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?xf16>)
      -> tensor<?x?xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<?x32xf16>, tensor<32x?xf16>)
      outs(%sz : tensor<?x?xf16>) -> tensor<?x?xf16>
  %a = arith.index_cast %skv : index to i64
  %b = arith.index_cast %sq : index to i64
  %offset = arith.subi %a, %b : i64
  %c0_init = tensor.empty(%sq, %skv) : tensor<?x?xi1>
  %cond = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%c0_init : tensor<?x?xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %query = arith.index_cast %i : index to i64
    %key = arith.index_cast %j : index to i64
    %diagonal = arith.addi %query, %offset : i64
    %hide = arith.cmpi sgt, %key, %diagonal : i64
    linalg.yield %hide : i1
  } -> tensor<?x?xi1>
  %ninf_t = arith.constant dense<0xFC00> : tensor<f16>
  %m0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> ()>,
                       affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%cond, %ninf_t, %s : tensor<?x?xi1>, tensor<f16>, tensor<?x?xf16>)
      outs(%m0 : tensor<?x?xf16>) {
  ^bb0(%c: i1, %n: f16, %x: f16, %out: f16):
    %y = arith.select %c, %n, %x : f16
    linalg.yield %y : f16
  } -> tensor<?x?xf16>
  %p0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<?x?xf16>)
      outs(%p0 : tensor<?x?xf16>) -> tensor<?x?xf16>
  %o0 = tensor.empty(%sq) : tensor<?x32xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x32xf16>)
      -> tensor<?x32xf16>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf16>, tensor<?x32xf16>)
      outs(%oz : tensor<?x32xf16>) -> tensor<?x32xf16>
  return %o : tensor<?x32xf16>
}

// Kept where `query + Skv - Sq - 16 <= key <= query + Skv - Sq`: a window.
// CHECK-LABEL: func.func @window
// CHECK: attn.attention {{.*}} {mask = #attn.mask<window(16, 0)>
func.func @window(%q: tensor<?x32xf16>, %k: tensor<?x32xf16>,
    %v: tensor<?x32xf16>) -> tensor<?x32xf16> {
  %c0 = arith.constant 0 : index
  %sq = tensor.dim %q, %c0 : tensor<?x32xf16>
  %skv = tensor.dim %k, %c0 : tensor<?x32xf16>
  %kt0 = tensor.empty(%skv) : tensor<32x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x32xf16>)
      outs(%kt0 : tensor<32x?xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %s0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?xf16>)
      -> tensor<?x?xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<?x32xf16>, tensor<32x?xf16>)
      outs(%sz : tensor<?x?xf16>) -> tensor<?x?xf16>
  %a = arith.index_cast %skv : index to i64
  %b = arith.index_cast %sq : index to i64
  %offset = arith.subi %a, %b : i64
  %c0_init = tensor.empty(%sq, %skv) : tensor<?x?xi1>
  %cond = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%c0_init : tensor<?x?xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %query = arith.index_cast %i : index to i64
    %key = arith.index_cast %j : index to i64
    %diagonal = arith.addi %query, %offset : i64
    %sixteen = arith.constant 16 : i64
    %first = arith.subi %diagonal, %sixteen : i64
    %below = arith.cmpi sle, %key, %diagonal : i64
    %after = arith.cmpi sge, %key, %first : i64
    %keep = arith.andi %below, %after : i1
    linalg.yield %keep : i1
  } -> tensor<?x?xi1>
  %ninf_t = arith.constant dense<0xFC00> : tensor<f16>
  %m0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> ()>, affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%cond, %s, %ninf_t : tensor<?x?xi1>, tensor<?x?xf16>, tensor<f16>)
      outs(%m0 : tensor<?x?xf16>) {
  ^bb0(%c: i1, %x: f16, %n: f16, %out: f16):
    %y = arith.select %c, %x, %n : f16
    linalg.yield %y : f16
  } -> tensor<?x?xf16>
  %p0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<?x?xf16>)
      outs(%p0 : tensor<?x?xf16>) -> tensor<?x?xf16>
  %o0 = tensor.empty(%sq) : tensor<?x32xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x32xf16>)
      -> tensor<?x32xf16>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf16>, tensor<?x32xf16>)
      outs(%oz : tensor<?x32xf16>) -> tensor<?x32xf16>
  return %o : tensor<?x32xf16>
}

// Kept where `key < query + Skv - Sq + 2`: one key past the diagonal too.
// CHECK-LABEL: func.func @lookahead
// CHECK: attn.attention {{.*}} {mask = #attn.mask<window(-1, 1)>
func.func @lookahead(%q: tensor<?x32xf16>, %k: tensor<?x32xf16>,
    %v: tensor<?x32xf16>) -> tensor<?x32xf16> {
  %c0 = arith.constant 0 : index
  %sq = tensor.dim %q, %c0 : tensor<?x32xf16>
  %skv = tensor.dim %k, %c0 : tensor<?x32xf16>
  %kt0 = tensor.empty(%skv) : tensor<32x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x32xf16>)
      outs(%kt0 : tensor<32x?xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %s0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?xf16>)
      -> tensor<?x?xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<?x32xf16>, tensor<32x?xf16>)
      outs(%sz : tensor<?x?xf16>) -> tensor<?x?xf16>
  %a = arith.index_cast %skv : index to i64
  %b = arith.index_cast %sq : index to i64
  %offset = arith.subi %a, %b : i64
  %c0_init = tensor.empty(%sq, %skv) : tensor<?x?xi1>
  %cond = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%c0_init : tensor<?x?xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %query = arith.index_cast %i : index to i64
    %key = arith.index_cast %j : index to i64
    %diagonal = arith.addi %query, %offset : i64
    %ahead = arith.constant 2 : i64
    %last = arith.addi %diagonal, %ahead : i64
    %keep = arith.cmpi slt, %key, %last : i64
    linalg.yield %keep : i1
  } -> tensor<?x?xi1>
  %ninf_t = arith.constant dense<0xFC00> : tensor<f16>
  %m0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> ()>, affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%cond, %s, %ninf_t : tensor<?x?xi1>, tensor<?x?xf16>, tensor<f16>)
      outs(%m0 : tensor<?x?xf16>) {
  ^bb0(%c: i1, %x: f16, %n: f16, %out: f16):
    %y = arith.select %c, %x, %n : f16
    linalg.yield %y : f16
  } -> tensor<?x?xf16>
  %p0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<?x?xf16>)
      outs(%p0 : tensor<?x?xf16>) -> tensor<?x?xf16>
  %o0 = tensor.empty(%sq) : tensor<?x32xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x32xf16>)
      -> tensor<?x32xf16>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf16>, tensor<?x32xf16>)
      outs(%oz : tensor<?x32xf16>) -> tensor<?x32xf16>
  return %o : tensor<?x32xf16>
}

// The diagonal at `query + Sq - Skv` (top-right for Sq < Skv): left alone.
// CHECK-LABEL: func.func @diagonal_reversed
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax
func.func @diagonal_reversed(%q: tensor<?x32xf16>, %k: tensor<?x32xf16>,
    %v: tensor<?x32xf16>) -> tensor<?x32xf16> {
  %c0 = arith.constant 0 : index
  %sq = tensor.dim %q, %c0 : tensor<?x32xf16>
  %skv = tensor.dim %k, %c0 : tensor<?x32xf16>
  %kt0 = tensor.empty(%skv) : tensor<32x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x32xf16>)
      outs(%kt0 : tensor<32x?xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %s0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?xf16>)
      -> tensor<?x?xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<?x32xf16>, tensor<32x?xf16>)
      outs(%sz : tensor<?x?xf16>) -> tensor<?x?xf16>
  %a = arith.index_cast %sq : index to i64
  %b = arith.index_cast %skv : index to i64
  %offset = arith.subi %a, %b : i64
  %c0_init = tensor.empty(%sq, %skv) : tensor<?x?xi1>
  %cond = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%c0_init : tensor<?x?xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %query = arith.index_cast %i : index to i64
    %key = arith.index_cast %j : index to i64
    %diagonal = arith.addi %query, %offset : i64
    %hide = arith.cmpi sgt, %key, %diagonal : i64
    linalg.yield %hide : i1
  } -> tensor<?x?xi1>
  %ninf_t = arith.constant dense<0xFC00> : tensor<f16>
  %m0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> ()>,
                       affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%cond, %ninf_t, %s : tensor<?x?xi1>, tensor<f16>, tensor<?x?xf16>)
      outs(%m0 : tensor<?x?xf16>) {
  ^bb0(%c: i1, %n: f16, %x: f16, %out: f16):
    %y = arith.select %c, %n, %x : f16
    linalg.yield %y : f16
  } -> tensor<?x?xf16>
  %p0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<?x?xf16>)
      outs(%p0 : tensor<?x?xf16>) -> tensor<?x?xf16>
  %o0 = tensor.empty(%sq) : tensor<?x32xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x32xf16>)
      -> tensor<?x32xf16>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf16>, tensor<?x32xf16>)
      outs(%oz : tensor<?x32xf16>) -> tensor<?x32xf16>
  return %o : tensor<?x32xf16>
}

// An unsigned comparison (the bound may be negative): left alone.
// CHECK-LABEL: func.func @unsigned
// CHECK-NOT: attn.attention
// CHECK: linalg.softmax
func.func @unsigned(%q: tensor<?x32xf16>, %k: tensor<?x32xf16>,
    %v: tensor<?x32xf16>) -> tensor<?x32xf16> {
  %c0 = arith.constant 0 : index
  %sq = tensor.dim %q, %c0 : tensor<?x32xf16>
  %skv = tensor.dim %k, %c0 : tensor<?x32xf16>
  %kt0 = tensor.empty(%skv) : tensor<32x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x32xf16>)
      outs(%kt0 : tensor<32x?xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %s0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?xf16>)
      -> tensor<?x?xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<?x32xf16>, tensor<32x?xf16>)
      outs(%sz : tensor<?x?xf16>) -> tensor<?x?xf16>
  %a = arith.index_cast %skv : index to i64
  %b = arith.index_cast %sq : index to i64
  %offset = arith.subi %a, %b : i64
  %c0_init = tensor.empty(%sq, %skv) : tensor<?x?xi1>
  %cond = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%c0_init : tensor<?x?xi1>) {
  ^bb0(%out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %query = arith.index_cast %i : index to i64
    %key = arith.index_cast %j : index to i64
    %diagonal = arith.addi %query, %offset : i64
    %keep = arith.cmpi ule, %key, %diagonal : i64
    linalg.yield %keep : i1
  } -> tensor<?x?xi1>
  %ninf_t = arith.constant dense<0xFC00> : tensor<f16>
  %m0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %masked = linalg.generic {
      indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>,
                       affine_map<(a, b) -> ()>, affine_map<(a, b) -> (a, b)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%cond, %s, %ninf_t : tensor<?x?xi1>, tensor<?x?xf16>, tensor<f16>)
      outs(%m0 : tensor<?x?xf16>) {
  ^bb0(%c: i1, %x: f16, %n: f16, %out: f16):
    %y = arith.select %c, %x, %n : f16
    linalg.yield %y : f16
  } -> tensor<?x?xf16>
  %p0 = tensor.empty(%sq, %skv) : tensor<?x?xf16>
  %p = linalg.softmax dimension(1) ins(%masked : tensor<?x?xf16>)
      outs(%p0 : tensor<?x?xf16>) -> tensor<?x?xf16>
  %o0 = tensor.empty(%sq) : tensor<?x32xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x32xf16>)
      -> tensor<?x32xf16>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf16>, tensor<?x32xf16>)
      outs(%oz : tensor<?x32xf16>) -> tensor<?x32xf16>
  return %o : tensor<?x32xf16>
}
