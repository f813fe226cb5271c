// RUN: fa4-opt --attn-raise %s | FileCheck %s

// attn-raise's TOSA forms that torch-mlir's backend did not write for
// raise-tosa.test's models: a scale as the reciprocal of a constant (a
// division) on either side of the multiply, masked_fill's select(cond,
// -inf, scores), an additive mask given first, the softmax's reciprocal
// first, bf16; and what it leaves alone.

// CHECK-LABEL: func.func @masked_fill_divided
// CHECK: attn.attention {{.*}} {mask = #attn.mask<causal>, scale = 1.250000e-01 : f32} : tensor<1x4x2x8xf16>
// CHECK-NOT: tosa.
func.func @masked_fill_divided(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf16>) -> tensor<2x8x4xf16>
  %product = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf16>, tensor<2x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x4xf32>
  %s = tosa.cast %product : (tensor<2x4x4xf32>) -> tensor<2x4x4xf16>
  %eight = "tosa.const"() <{values = dense<8.000000e+00> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %inverse_eight = tosa.reciprocal %eight : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
  %scaled = tosa.mul %inverse_eight, %s, %shift : (tensor<1x1x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %hide = "tosa.const"() <{values = dense<[[[false, true, true, true], [false, false, true, true], [false, false, false, true], [false, false, false, false]]]> : tensor<1x4x4xi1>}> : () -> tensor<1x4x4xi1>
  %minus_inf = "tosa.const"() <{values = dense<0xFC00> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %masked = tosa.select %hide, %minus_inf, %scaled : (tensor<1x4x4xi1>, tensor<1x1x1xf16>, tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %shifted = tosa.sub %masked, %max : (tensor<2x4x4xf16>, tensor<2x4x1xf16>) -> tensor<2x4x4xf16>
  %exp = tosa.exp %shifted : (tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %inverse = tosa.reciprocal %sum : (tensor<2x4x1xf16>) -> tensor<2x4x1xf16>
  %p = tosa.mul %inverse, %exp, %shift : (tensor<2x4x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf16>, tensor<2x4x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x8xf16>
  return %o : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @bf16_window_mask_first
// CHECK: attn.attention {{.*}} {mask = #attn.mask<window(1, 0)>, scale = 1.250000e-01 : f32} : tensor<1x4x2x8xbf16>
func.func @bf16_window_mask_first(%q: tensor<2x4x8xbf16>, %k: tensor<2x4x8xbf16>, %v: tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xbf16>) -> tensor<2x8x4xbf16>
  %product = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xbf16>, tensor<2x8x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x4x4xf32>
  %s = tosa.cast %product : (tensor<2x4x4xf32>) -> tensor<2x4x4xbf16>
  %eight = "tosa.const"() <{values = dense<8.000000e+00> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %inverse_eight = tosa.reciprocal %eight : (tensor<1x1x1xbf16>) -> tensor<1x1x1xbf16>
  %scaled = tosa.mul %inverse_eight, %s, %shift : (tensor<1x1x1xbf16>, tensor<2x4x4xbf16>, tensor<1xi8>) -> tensor<2x4x4xbf16>
  %mask = "tosa.const"() <{values = dense<[[[0.000000e+00, 0xFF80, 0xFF80, 0xFF80], [0.000000e+00, 0.000000e+00, 0xFF80, 0xFF80], [0xFF80, 0.000000e+00, 0.000000e+00, 0xFF80], [0xFF80, 0xFF80, 0.000000e+00, 0.000000e+00]]]> : tensor<1x4x4xbf16>}> : () -> tensor<1x4x4xbf16>
  %masked = tosa.add %mask, %scaled : (tensor<1x4x4xbf16>, tensor<2x4x4xbf16>) -> tensor<2x4x4xbf16>
  %max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x4x4xbf16>) -> tensor<2x4x1xbf16>
  %shifted = tosa.sub %masked, %max : (tensor<2x4x4xbf16>, tensor<2x4x1xbf16>) -> tensor<2x4x4xbf16>
  %exp = tosa.exp %shifted : (tensor<2x4x4xbf16>) -> tensor<2x4x4xbf16>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<2x4x4xbf16>) -> tensor<2x4x1xbf16>
  %inverse = tosa.reciprocal %sum : (tensor<2x4x1xbf16>) -> tensor<2x4x1xbf16>
  %p = tosa.mul %inverse, %exp, %shift : (tensor<2x4x1xbf16>, tensor<2x4x4xbf16>, tensor<1xi8>) -> tensor<2x4x4xbf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xbf16>, tensor<2x4x8xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x4x8xbf16>
  return %o : tensor<2x4x8xbf16>
}

// A scale that is no constant: left alone.
// CHECK-LABEL: func.func @scale_not_constant
// CHECK-NOT: attn.attention
// CHECK: tosa.matmul
func.func @scale_not_constant(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>, %factor: tensor<1x1x1xf16>) -> tensor<2x4x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf16>) -> tensor<2x8x4xf16>
  %product = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf16>, tensor<2x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x4xf32>
  %s = tosa.cast %product : (tensor<2x4x4xf32>) -> tensor<2x4x4xf16>
  %scaled = tosa.mul %s, %factor, %shift : (tensor<2x4x4xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %hide = "tosa.const"() <{values = dense<[[[false, true, true, true], [false, false, true, true], [false, false, false, true], [false, false, false, false]]]> : tensor<1x4x4xi1>}> : () -> tensor<1x4x4xi1>
  %minus_inf = "tosa.const"() <{values = dense<0xFC00> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %masked = tosa.select %hide, %minus_inf, %scaled : (tensor<1x4x4xi1>, tensor<1x1x1xf16>, tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %shifted = tosa.sub %masked, %max : (tensor<2x4x4xf16>, tensor<2x4x1xf16>) -> tensor<2x4x4xf16>
  %exp = tosa.exp %shifted : (tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %inverse = tosa.reciprocal %sum : (tensor<2x4x1xf16>) -> tensor<2x4x1xf16>
  %p = tosa.mul %inverse, %exp, %shift : (tensor<2x4x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf16>, tensor<2x4x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x8xf16>
  return %o : tensor<2x4x8xf16>
}

// A mask per head ([2, Sq, Skv], the heads' masks alike or not): left alone.
// CHECK-LABEL: func.func @mask_per_head
// CHECK-NOT: attn.attention
// CHECK: tosa.matmul
func.func @mask_per_head(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf16>) -> tensor<2x8x4xf16>
  %product = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf16>, tensor<2x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x4xf32>
  %s = tosa.cast %product : (tensor<2x4x4xf32>) -> tensor<2x4x4xf16>
  %eight = "tosa.const"() <{values = dense<8.000000e+00> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %inverse_eight = tosa.reciprocal %eight : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
  %scaled = tosa.mul %inverse_eight, %s, %shift : (tensor<1x1x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %mask = "tosa.const"() <{values = dense<[[[0.000000e+00, 0xFC00, 0xFC00, 0xFC00], [0.000000e+00, 0.000000e+00, 0xFC00, 0xFC00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFC00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]], [[0.000000e+00, 0xFC00, 0xFC00, 0xFC00], [0.000000e+00, 0.000000e+00, 0xFC00, 0xFC00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFC00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]> : tensor<2x4x4xf16>}> : () -> tensor<2x4x4xf16>
  %masked = tosa.add %mask, %scaled : (tensor<2x4x4xf16>, tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %shifted = tosa.sub %masked, %max : (tensor<2x4x4xf16>, tensor<2x4x1xf16>) -> tensor<2x4x4xf16>
  %exp = tosa.exp %shifted : (tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %inverse = tosa.reciprocal %sum : (tensor<2x4x1xf16>) -> tensor<2x4x1xf16>
  %p = tosa.mul %inverse, %exp, %shift : (tensor<2x4x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf16>, tensor<2x4x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x8xf16>
  return %o : tensor<2x4x8xf16>
}

// The max taken over the queries (axis 1), the sum over the keys: left
// alone.
// CHECK-LABEL: func.func @max_over_queries
// CHECK-NOT: attn.attention
// CHECK: tosa.matmul
func.func @max_over_queries(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf16>) -> tensor<2x8x4xf16>
  %product = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf16>, tensor<2x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x4xf32>
  %s = tosa.cast %product : (tensor<2x4x4xf32>) -> tensor<2x4x4xf16>
  %eight = "tosa.const"() <{values = dense<8.000000e+00> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %inverse_eight = tosa.reciprocal %eight : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
  %scaled = tosa.mul %inverse_eight, %s, %shift : (tensor<1x1x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %hide = "tosa.const"() <{values = dense<[[[false, true, true, true], [false, false, true, true], [false, false, false, true], [false, false, false, false]]]> : tensor<1x4x4xi1>}> : () -> tensor<1x4x4xi1>
  %minus_inf = "tosa.const"() <{values = dense<0xFC00> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %masked = tosa.select %hide, %minus_inf, %scaled : (tensor<1x4x4xi1>, tensor<1x1x1xf16>, tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %max = tosa.reduce_max %masked {axis = 1 : i32} : (tensor<2x4x4xf16>) -> tensor<2x1x4xf16>
  %shifted = tosa.sub %masked, %max : (tensor<2x4x4xf16>, tensor<2x1x4xf16>) -> tensor<2x4x4xf16>
  %exp = tosa.exp %shifted : (tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<2x4x4xf16>) -> tensor<2x4x1xf16>
  %inverse = tosa.reciprocal %sum : (tensor<2x4x1xf16>) -> tensor<2x4x1xf16>
  %p = tosa.mul %inverse, %exp, %shift : (tensor<2x4x1xf16>, tensor<2x4x4xf16>, tensor<1xi8>) -> tensor<2x4x4xf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf16>, tensor<2x4x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x8xf16>
  return %o : tensor<2x4x8xf16>
}

// Q of batch 2 with 4 heads, K and V of batch 4 with 2 (both flattened to 8
// for the products): no attention of one batch; left alone.
// CHECK-LABEL: func.func @batches_differ
// CHECK-NOT: attn.attention
// CHECK: tosa.matmul
func.func @batches_differ(%q: tensor<2x4x4x8xf16>, %k: tensor<4x2x4x8xf16>, %v: tensor<4x2x4x8xf16>) -> tensor<2x4x4x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %flat_qv = tosa.const_shape {values = dense<[8, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat_kt = tosa.const_shape {values = dense<[8, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat_s = tosa.const_shape {values = dense<[8, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %scores_shape = tosa.const_shape {values = dense<[2, 4, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o_shape = tosa.const_shape {values = dense<[2, 4, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<4x2x4x8xf16>) -> tensor<4x2x8x4xf16>
  %q3 = tosa.reshape %q, %flat_qv : (tensor<2x4x4x8xf16>, !tosa.shape<3>) -> tensor<8x4x8xf16>
  %kt3 = tosa.reshape %kt, %flat_kt : (tensor<4x2x8x4xf16>, !tosa.shape<3>) -> tensor<8x8x4xf16>
  %product = tosa.matmul %q3, %kt3, %zp, %zp : (tensor<8x4x8xf16>, tensor<8x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x4x4xf16>
  %s = tosa.reshape %product, %scores_shape : (tensor<8x4x4xf16>, !tosa.shape<4>) -> tensor<2x4x4x4xf16>
  %max = tosa.reduce_max %s {axis = 3 : i32} : (tensor<2x4x4x4xf16>) -> tensor<2x4x4x1xf16>
  %shifted = tosa.sub %s, %max : (tensor<2x4x4x4xf16>, tensor<2x4x4x1xf16>) -> tensor<2x4x4x4xf16>
  %exp = tosa.exp %shifted : (tensor<2x4x4x4xf16>) -> tensor<2x4x4x4xf16>
  %sum = tosa.reduce_sum %exp {axis = 3 : i32} : (tensor<2x4x4x4xf16>) -> tensor<2x4x4x1xf16>
  %inverse = tosa.reciprocal %sum : (tensor<2x4x4x1xf16>) -> tensor<2x4x4x1xf16>
  %p = tosa.mul %exp, %inverse, %shift : (tensor<2x4x4x4xf16>, tensor<2x4x4x1xf16>, tensor<1xi8>) -> tensor<2x4x4x4xf16>
  %p3 = tosa.reshape %p, %flat_s : (tensor<2x4x4x4xf16>, !tosa.shape<3>) -> tensor<8x4x4xf16>
  %v3 = tosa.reshape %v, %flat_qv : (tensor<4x2x4x8xf16>, !tosa.shape<3>) -> tensor<8x4x8xf16>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<8x4x4xf16>, tensor<8x4x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x4x8xf16>
  %o = tosa.reshape %o3, %o_shape : (tensor<8x4x8xf16>, !tosa.shape<4>) -> tensor<2x4x4x8xf16>
  return %o : tensor<2x4x4x8xf16>
}

// A product that is no attention and a dead constant of the user's stay.
// CHECK-LABEL: func.func @not_attention
// CHECK: tosa.const
// CHECK: tosa.matmul
func.func @not_attention(%a: tensor<2x4x8xf16>, %b: tensor<2x8x4xf16>) -> tensor<2x4x4xf32> {
  %unused = "tosa.const"() <{values = dense<4.200000e+01> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
  %product = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x8xf16>, tensor<2x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x4x4xf32>
  return %product : tensor<2x4x4xf32>
}
