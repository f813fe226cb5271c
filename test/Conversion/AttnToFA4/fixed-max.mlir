// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s

// D-68: under a softcap c <= 50 (bf16, no sinks, O through shared memory)
// the Hopper kernel keeps each row's max at 0. Each consumer writes its
// ones row past the plan, meets its warpgroup, and each P V is followed by
// a GEMM of the same rounded P with that row (repeat_b: its one MMA_K step
// serves all of P's), its own commit group: the overlapped step waits for
// S with two groups still pending. The softmax keeps no maxima and O is
// never rescaled; the LSE takes the softmax's exact sums and O is staged
// with the GEMM's, finished by fa4.row_sums.
// CHECK-LABEL: gpu.func @fa4_hopper_cap15_sm_90a(
// CHECK: %[[ONES:[0-9]+]] = fa4.smem.ones_row %{{[0-9]+}} : <8x16xbf16, k_major>
// CHECK: nvvm.barrier id = %{{[0-9]+}} number_of_threads = %c128_i32
// CHECK: fa4.softmax %{{.*}} {fixedMax} : <64x176xf32>, <64xf32>
// CHECK-NOT: fa4.scale_rows
// CHECK: fa4.mma %{{.*}}, %{{.*}}, %{{.*}} : !fa4.frag<64x176xbf16>, <176x128xbf16, mn_major>, <64x128xf32>
// CHECK-NEXT: fa4.mma %{{.*}}, %[[ONES]], %{{.*}} {repeat_b} : !fa4.frag<64x176xbf16>, <8x16xbf16, k_major>, <64x8xf32>
// CHECK: fa4.mma.wait {pending = 2 : i64}
// CHECK: fa4.softmax %{{.*}} {fixedMax} : <64x176xf32>, <64xf32>
// CHECK-NOT: fa4.scale_rows
// CHECK: %[[SUMS:[0-9]+]] = fa4.row_sums %{{.*}} : <64x8xf32>, <64xf32>
// CHECK-NEXT: fa4.lse.store %[[MAX:[0-9]+]]#1, %[[MAX]]#2 to
// CHECK: fa4.epilogue.stage %{{.*}}, %[[SUMS]] to
// CHECK: gpu.return
func.func @cap15(%q: tensor<2x300x4x128xbf16>, %k: tensor<2x300x4x128xbf16>, %v: tensor<2x300x4x128xbf16>) -> (tensor<2x300x4x128xbf16>, tensor<2x4x300xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>, softcap = 15.0 : f32} : tensor<2x300x4x128xbf16>, tensor<2x300x4x128xbf16>, tensor<2x300x4x128xbf16> -> tensor<2x300x4x128xbf16>, tensor<2x4x300xf32>
  return %o, %lse : tensor<2x300x4x128xbf16>, tensor<2x4x300xf32>
}

// Past c = 50 probabilities could reach f32's limits over long rows; f16's
// P holds no e^c past 65504; sinks add an uncapped logit; a decode writes
// O from registers: each keeps tracking maxima, with no ones row.
// CHECK-LABEL: gpu.func @fa4_hopper_cap60_sm_90a(
// CHECK-NOT: fa4.smem.ones_row
// CHECK-NOT: fixedMax
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @fa4_hopper_f16_sm_90a(
// CHECK-NOT: fa4.smem.ones_row
// CHECK-NOT: fixedMax
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @fa4_hopper_sinks_sm_90a(
// CHECK-NOT: fa4.smem.ones_row
// CHECK-NOT: fixedMax
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @fa4_hopper_decode_sm_90a(
// CHECK-NOT: fa4.smem.ones_row
// CHECK-NOT: fixedMax
// CHECK: gpu.return
func.func @cap60(%q: tensor<2x300x4x128xbf16>, %k: tensor<2x300x4x128xbf16>, %v: tensor<2x300x4x128xbf16>) -> tensor<2x300x4x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>, softcap = 60.0 : f32} : tensor<2x300x4x128xbf16>, tensor<2x300x4x128xbf16>, tensor<2x300x4x128xbf16> -> tensor<2x300x4x128xbf16>
  return %o : tensor<2x300x4x128xbf16>
}
func.func @f16(%q: tensor<2x300x4x128xf16>, %k: tensor<2x300x4x128xf16>, %v: tensor<2x300x4x128xf16>) -> tensor<2x300x4x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>, softcap = 15.0 : f32} : tensor<2x300x4x128xf16>, tensor<2x300x4x128xf16>, tensor<2x300x4x128xf16> -> tensor<2x300x4x128xf16>
  return %o : tensor<2x300x4x128xf16>
}
func.func @sinks(%q: tensor<2x300x4x128xbf16>, %k: tensor<2x300x4x128xbf16>, %v: tensor<2x300x4x128xbf16>, %s: tensor<4xf32>) -> tensor<2x300x4x128xbf16> {
  %o = attn.attention %q, %k, %v sinks(%s : tensor<4xf32>) {mask = #attn.mask<causal>, softcap = 15.0 : f32} : tensor<2x300x4x128xbf16>, tensor<2x300x4x128xbf16>, tensor<2x300x4x128xbf16> -> tensor<2x300x4x128xbf16>
  return %o : tensor<2x300x4x128xbf16>
}
func.func @decode(%q: tensor<2x1x32x128xbf16>, %k: tensor<2x4096x8x128xbf16>, %v: tensor<2x4096x8x128xbf16>) -> tensor<2x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>, softcap = 15.0 : f32} : tensor<2x1x32x128xbf16>, tensor<2x4096x8x128xbf16>, tensor<2x4096x8x128xbf16> -> tensor<2x1x32x128xbf16>
  return %o : tensor<2x1x32x128xbf16>
}
