// RUN: fa4-opt %s | fa4-opt | FileCheck %s
// RUN: fa4-opt %s -mlir-print-op-generic | fa4-opt | FileCheck %s
// RUN: fa4-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @tensor_gqa_causal_with_lse
// CHECK: %{{.*}}:2 = attn.attention %{{.*}}, %{{.*}}, %{{.*}} {mask = #attn.mask<causal>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
// GENERIC-LABEL: sym_name = "tensor_gqa_causal_with_lse"
// GENERIC: "attn.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{mask = #attn.mask<causal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>}>
func.func @tensor_gqa_causal_with_lse(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// The default mask (none) is elided when printed.
// CHECK-LABEL: func @tensor_mha_no_mask
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4096x16x64xf16>
// CHECK-NOT: mask
// CHECK: return
func.func @tensor_mha_no_mask(%q: tensor<1x4096x16x64xf16>, %k: tensor<1x4096x16x64xf16>, %v: tensor<1x4096x16x64xf16>) -> tensor<1x4096x16x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>}
      : tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>, tensor<1x4096x16x64xf16>
      -> tensor<1x4096x16x64xf16>
  return %o : tensor<1x4096x16x64xf16>
}

// CHECK-LABEL: func @tensor_window_scale_dqk_ne_dv
// CHECK: attn.attention {{.*}} {mask = #attn.mask<window(128, 0)>, scale = 5.000000e-01 : f32} : tensor<2x113x6x192xbf16>, tensor<2x203x1x192xbf16>, tensor<2x203x1x128xbf16> -> tensor<2x113x6x128xbf16>
func.func @tensor_window_scale_dqk_ne_dv(%q: tensor<2x113x6x192xbf16>, %k: tensor<2x203x1x192xbf16>, %v: tensor<2x203x1x128xbf16>) -> tensor<2x113x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>, scale = 0.5 : f32}
      : tensor<2x113x6x192xbf16>, tensor<2x203x1x192xbf16>, tensor<2x203x1x128xbf16>
      -> tensor<2x113x6x128xbf16>
  return %o : tensor<2x113x6x128xbf16>
}

// One-sided windows: -1 leaves that side unbounded.
// CHECK-LABEL: func @tensor_window_one_sided
// CHECK: mask = #attn.mask<window(-1, 16)>
func.func @tensor_window_one_sided(%q: tensor<1x7x4x64xbf16>, %k: tensor<1x9x2x64xbf16>, %v: tensor<1x9x2x64xbf16>) -> tensor<1x7x4x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1, 16)>}
      : tensor<1x7x4x64xbf16>, tensor<1x9x2x64xbf16>, tensor<1x9x2x64xbf16>
      -> tensor<1x7x4x64xbf16>
  return %o : tensor<1x7x4x64xbf16>
}

// CHECK-LABEL: func @memref_destination_style
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}} : memref<2x113x8x64xf16>) : memref<2x113x8x64xf16>, memref<2x203x8x64xf16>, memref<2x203x8x64xf16>
// GENERIC-LABEL: sym_name = "memref_destination_style"
// GENERIC: "attn.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mask = #attn.mask<none>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>}> : (memref<2x113x8x64xf16>, memref<2x203x8x64xf16>, memref<2x203x8x64xf16>, memref<2x113x8x64xf16>) -> ()
func.func @memref_destination_style(%q: memref<2x113x8x64xf16>, %k: memref<2x203x8x64xf16>, %v: memref<2x203x8x64xf16>, %o: memref<2x113x8x64xf16>) {
  attn.attention %q, %k, %v outs(%o : memref<2x113x8x64xf16>)
      : memref<2x113x8x64xf16>, memref<2x203x8x64xf16>, memref<2x203x8x64xf16>
  return
}

// CHECK-LABEL: func @memref_mqa_dynamic_with_lse
// CHECK: attn.attention {{.*}} outs(%{{.*}}, %{{.*}} : memref<?x?x6x128xbf16>, memref<?x6x?xf32>) {mask = #attn.mask<causal>, scale = 2.500000e-01 : f32}
func.func @memref_mqa_dynamic_with_lse(%q: memref<?x?x6x128xbf16>, %k: memref<?x?x1x128xbf16>, %v: memref<?x?x1x128xbf16>, %o: memref<?x?x6x128xbf16>, %lse: memref<?x6x?xf32>) {
  attn.attention %q, %k, %v outs(%o, %lse : memref<?x?x6x128xbf16>, memref<?x6x?xf32>) {mask = #attn.mask<causal>, scale = 0.25 : f32}
      : memref<?x?x6x128xbf16>, memref<?x?x1x128xbf16>, memref<?x?x1x128xbf16>
  return
}

// Strided memrefs (a view into a packed QKV buffer) are valid operands.
// CHECK-LABEL: func @memref_strided_view
// CHECK: attn.attention {{.*}} : memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1]>>
func.func @memref_strided_view(%q: memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1]>>, %k: memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1], offset: 256>>, %v: memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1], offset: 512>>, %o: memref<1x64x4x64xbf16>) {
  attn.attention %q, %k, %v outs(%o : memref<1x64x4x64xbf16>)
      : memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1]>>, memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1], offset: 256>>, memref<1x64x4x64xbf16, strided<[49152, 768, 64, 1], offset: 512>>
  return
}

// Logit softcapping (Gemma 2/3): an f32 attribute, printed back as given.
// CHECK-LABEL: func @softcap
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} {mask = #attn.mask<causal>, softcap = 1.500000e+01 : f32}
// GENERIC-LABEL: sym_name = "softcap"
// GENERIC: "attn.attention"(%{{.*}}, %{{.*}}, %{{.*}}) <{mask = #attn.mask<causal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, softcap = 1.500000e+01 : f32}>
func.func @softcap(%q: tensor<2x7x4x8xf16>, %k: tensor<2x5x2x8xf16>, %v: tensor<2x5x2x8xf16>) -> tensor<2x7x4x8xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>, softcap = 15.0 : f32}
      : tensor<2x7x4x8xf16>, tensor<2x5x2x8xf16>, tensor<2x5x2x8xf16>
      -> tensor<2x7x4x8xf16>
  return %o : tensor<2x7x4x8xf16>
}


// Attention sinks (gpt-oss): an f32 [Hq] operand, in both forms.
// CHECK-LABEL: func @sinks
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%{{.*}} : tensor<4xf32>) {mask = #attn.mask<window(127, 0)>} : tensor<2x7x4x8xf16>
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} sinks(%{{.*}} : memref<4xf32>) outs(%{{.*}} : memref<2x7x4x8xf16>) : memref<2x7x4x8xf16>
// GENERIC-LABEL: sym_name = "sinks"
// GENERIC: "attn.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mask = #attn.mask<window(127, 0)>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}>
// GENERIC: "attn.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mask = #attn.mask<none>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 1>}>
func.func @sinks(%q: tensor<2x7x4x8xf16>, %k: tensor<2x5x2x8xf16>, %s: tensor<4xf32>,
                 %qm: memref<2x7x4x8xf16>, %km: memref<2x5x2x8xf16>, %sm: memref<4xf32>) -> tensor<2x7x4x8xf16> {
  %o = attn.attention %q, %k, %k sinks(%s : tensor<4xf32>) {mask = #attn.mask<window(127, 0)>}
      : tensor<2x7x4x8xf16>, tensor<2x5x2x8xf16>, tensor<2x5x2x8xf16>
      -> tensor<2x7x4x8xf16>
  attn.attention %qm, %km, %km sinks(%sm : memref<4xf32>) outs(%qm : memref<2x7x4x8xf16>)
      : memref<2x7x4x8xf16>, memref<2x5x2x8xf16>, memref<2x5x2x8xf16>
  return %o : tensor<2x7x4x8xf16>
}

// FP8 (issue 62): f8E4M3FN Q, K and V with descales per tensor and per
// (batch, key/value head), O bf16; an FP8 KV cache under a bf16 Q; the
// memref form.
// CHECK-LABEL: func @fp8
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} q_descale(%{{.*}} : tensor<f32>) k_descale(%{{.*}} : tensor<2x2xf32>) v_descale(%{{.*}} : tensor<2x2xf32>) {mask = #attn.mask<causal>} : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} k_descale(%{{.*}} : tensor<f32>) : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
// CHECK: attn.attention %{{.*}}, %{{.*}}, %{{.*}} v_descale(%{{.*}} : memref<f32>) outs(%{{.*}} : memref<2x7x4x64xf16>) : memref<2x7x4x64xf8E4M3FN>
// GENERIC-LABEL: sym_name = "fp8"
// GENERIC: "attn.attention"({{.*}}) <{mask = #attn.mask<causal>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}>
// GENERIC: "attn.attention"({{.*}}) <{mask = #attn.mask<none>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0>}>
// GENERIC: "attn.attention"({{.*}}) <{mask = #attn.mask<none>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1>}>
func.func @fp8(%q: tensor<2x7x4x64xf8E4M3FN>, %k: tensor<2x5x2x64xf8E4M3FN>, %qd: tensor<f32>, %kd: tensor<2x2xf32>,
               %qb: tensor<2x7x4x64xbf16>, %qm: memref<2x7x4x64xf8E4M3FN>, %km: memref<2x5x2x64xf8E4M3FN>,
               %dm: memref<f32>, %om: memref<2x7x4x64xf16>) -> (tensor<2x7x4x64xbf16>, tensor<2x7x4x64xbf16>) {
  %o = attn.attention %q, %k, %k q_descale(%qd : tensor<f32>) k_descale(%kd : tensor<2x2xf32>) v_descale(%kd : tensor<2x2xf32>) {mask = #attn.mask<causal>}
      : tensor<2x7x4x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>
      -> tensor<2x7x4x64xbf16>
  %c = attn.attention %qb, %k, %k k_descale(%qd : tensor<f32>)
      : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN>
      -> tensor<2x7x4x64xbf16>
  attn.attention %qm, %km, %km v_descale(%dm : memref<f32>) outs(%om : memref<2x7x4x64xf16>)
      : memref<2x7x4x64xf8E4M3FN>, memref<2x5x2x64xf8E4M3FN>, memref<2x5x2x64xf8E4M3FN>
  return %o, %c : tensor<2x7x4x64xbf16>, tensor<2x7x4x64xbf16>
}
