// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// The tensor and memref forms: operand kinds, results vs outs, how many outputs.

func.func @mixed_tensor_and_memref(%q: tensor<1x8x4x64xbf16>, %k: memref<1x8x4x64xbf16>, %v: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects query, key and value to be all tensors or all memrefs, but query is 'tensor<1x8x4x64xbf16>' and key is 'memref<1x8x4x64xbf16>'}}
  %o = "attn.attention"(%q, %k, %v) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>}> : (tensor<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @memref_with_results(%q: memref<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  // expected-error @+1 {{with memref operands returns no results; pass O and LSE in outs}}
  %r = "attn.attention"(%q, %q, %q, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>}> : (memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @tensor_with_outs(%q: tensor<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  // expected-error @+1 {{with tensor operands takes no outs; it returns O and LSE as results}}
  %r = attn.attention %q, %q, %q outs(%o : memref<1x8x4x64xbf16>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @tensor_without_results(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects O and an optional LSE (1 or 2 results), but got 0}}
  attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @memref_three_outs(%q: memref<1x8x4x64xbf16>, %lse: memref<1x4x8xf32>) {
  // expected-error @+1 {{expects O and an optional LSE (1 or 2 outs), but got 3}}
  attn.attention %q, %q, %q outs(%q, %lse, %lse : memref<1x8x4x64xbf16>, memref<1x4x8xf32>, memref<1x4x8xf32>) : memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>
  return
}

// -----

// Sinks: f32 [Hq], a tensor or a memref as the other operands.
func.func @sinks_f16(%q: tensor<1x8x4x64xbf16>, %s: tensor<4xf16>) {
  // expected-error @+1 {{expects sinks to have element type f32, but got 'f16'}}
  %o = attn.attention %q, %q, %q sinks(%s : tensor<4xf16>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @sinks_per_kv_head(%q: tensor<1x8x4x64xbf16>, %k: tensor<1x8x2x64xbf16>, %s: tensor<2xf32>) {
  // expected-error @+1 {{expects the head count of sinks (2) and query (4) to be equal}}
  %o = attn.attention %q, %k, %k sinks(%s : tensor<2xf32>) : tensor<1x8x4x64xbf16>, tensor<1x8x2x64xbf16>, tensor<1x8x2x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @sinks_rank(%q: tensor<1x8x4x64xbf16>, %s: tensor<1x4xf32>) {
  // expected-error @+1 {{expects sinks to have rank 1 (query heads), but got rank 2}}
  %o = attn.attention %q, %q, %q sinks(%s : tensor<1x4xf32>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @sinks_memref_beside_tensors(%q: tensor<1x8x4x64xbf16>, %s: memref<4xf32>) {
  // expected-error @+1 {{expects sinks to be a tensor as the other operands, but got 'memref<4xf32>'}}
  %o = attn.attention %q, %q, %q sinks(%s : memref<4xf32>) : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @varlen_sinks(%q: tensor<?x8x64xbf16>, %k: tensor<?x2x64xbf16>, %cq: tensor<5xi32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{expects the head count of sinks (2) and query (8) to be equal}}
  %o = attn.varlen_attention %q, %k, %k cu_seqlens(%cq, %cq : tensor<5xi32>, tensor<5xi32>) sinks(%s : tensor<2xf32>) : tensor<?x8x64xbf16>, tensor<?x2x64xbf16>, tensor<?x2x64xbf16> -> tensor<?x8x64xbf16>
  return
}
