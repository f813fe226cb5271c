// RUN: fa4-opt %s -cse -canonicalize | FileCheck %s

// The tensor form has no memory effects: identical ops are merged and an
// unused one is erased.
// CHECK-LABEL: func @tensor_form_is_pure
// CHECK-COUNT-1: attn.attention
// CHECK-NOT: attn.attention
// CHECK: return
func.func @tensor_form_is_pure(%q: tensor<1x8x4x64xbf16>) -> (tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>) {
  %a = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  %b = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  %unused = attn.attention %q, %q, %q {mask = #attn.mask<causal>} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %a, %b : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>
}

// The memref form writes its outs: both ops stay.
// CHECK-LABEL: func @memref_form_writes
// CHECK-COUNT-2: attn.attention
func.func @memref_form_writes(%q: memref<1x8x4x64xbf16>, %o: memref<1x8x4x64xbf16>) {
  attn.attention %q, %q, %q outs(%o : memref<1x8x4x64xbf16>) : memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>
  attn.attention %q, %q, %q outs(%o : memref<1x8x4x64xbf16>) : memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>, memref<1x8x4x64xbf16>
  return
}
