// RUN: fa4-opt %s -split-input-file --convert-attn-to-reference-kernel=chip=sm_90a | FileCheck %s

// The backward pass's reference kernel (issue 63): one kernel, its ABI the
// forward's tensors (o and lse read), dout, and the three gradients. The
// grid's z holds the batches twice: the dQ role's, then the dK/dV role's.
// CHECK-LABEL: func @gqa_causal_softcap
// CHECK: attn.attention_backward
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: kernel = @fa4_ref_bwd_gqa_causal_softcap_sm_90a_module::@fa4_ref_bwd_gqa_causal_softcap_sm_90a
// CHECK-SAME: params = [#fa4.pointer<"q">, #fa4.pointer<"k">, #fa4.pointer<"v">, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.pointer<"dout">, #fa4.pointer<"dq">, #fa4.pointer<"dk">, #fa4.pointer<"dv">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "q.stride.0">
// CHECK-SAME: #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<i64, "dout.stride.0">
// CHECK-SAME: #fa4.scalar<i64, "dv.stride.2">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 4>], ["hq"], ["b", 2]]
// CHECK-SAME: block = [128, 1, 1]
// CHECK-SAME: dout = #fa4.alignment<base_bytes = 2, stride_bytes = 2>
// CHECK-SAME: lse = #fa4.alignment<base_bytes = 4, stride_bytes = 4>
// CHECK: gpu.func @fa4_ref_bwd_gqa_causal_softcap_sm_90a(
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// The role: blockIdx.z below b computes dQ, the rest dK and dV.
// CHECK: %[[Z:.*]] = gpu.block_id  z
// CHECK: %[[ROLE:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK: scf.if %[[ROLE]] {
// dQ: D = rowsum(dO * O) once per row, then a loop over the keys the row
// sees (causal: the last is min(Skv - 1, row + Skv - Sq)).
// CHECK: gpu.shuffle  xor
// CHECK: arith.minsi
// CHECK: scf.for
// The softcap's tanh, and its derivative 1 - tanh^2 on dS.
// CHECK: llvm.intr.tanh
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: arith.cmpf one
// CHECK: arith.mulf
// CHECK: arith.subf
// CHECK: scf.yield
// dQ scaled by the natural scale (scale_log2 * ln 2) and rounded to bf16.
// CHECK: arith.constant 0.693147182 : f32
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: } else {
// dK/dV: items (kv head, key) strided over every warp of the role's grid.
// CHECK: gpu.grid_dim  x
// CHECK: scf.for
// The query heads of the key's group (4 of them), then the rows that see
// the key (causal: the first is max(0, key + Sq - Skv)).
// CHECK: arith.constant 4 : i64
// CHECK: scf.for
// CHECK: arith.maxsi
// CHECK: scf.for
// CHECK: llvm.intr.tanh
// CHECK: scf.yield
// CHECK: scf.yield
// dK scaled and stored, then dV.
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: gpu.return
func.func @gqa_causal_softcap(%do: tensor<?x?x8x64xbf16>, %q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x2x128xbf16>, %v: tensor<?x?x2x64xbf16>, %o: tensor<?x?x8x64xbf16>, %lse: tensor<?x8x?xf32>) -> (tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x64xbf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<causal>, softcap = 15.0 : f32} : tensor<?x?x8x64xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x8x?xf32> -> tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x64xbf16>
  return %dq, %dk, %dv : tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x64xbf16>
}

// -----

// A window: each row sees [diagonal - left, diagonal + right]; each key the
// rows [key + Sq - Skv - right, key + Sq - Skv + left]. Depth 72 is not a
// multiple of 32: the last lane columns are masked on load and store.
// CHECK-LABEL: func @window_odd_depth
// CHECK: gpu.func @fa4_ref_bwd_window_odd_depth_sm_90a(
// CHECK-NOT: llvm.intr.tanh
// CHECK: scf.if
// CHECK: arith.constant 71 : i64
// CHECK: arith.constant 3 : i64
// CHECK: arith.constant 5 : i64
// CHECK: } else {
// CHECK: arith.constant 3 : i64
// CHECK: arith.maxsi
// CHECK: arith.constant 5 : i64
// CHECK: arith.minsi
// CHECK: gpu.return
func.func @window_odd_depth(%do: tensor<2x33x4x72xf16>, %q: tensor<2x33x4x72xf16>, %k: tensor<2x40x4x72xf16>, %v: tensor<2x40x4x72xf16>, %o: tensor<2x33x4x72xf16>, %lse: tensor<2x4x33xf32>) -> (tensor<2x33x4x72xf16>, tensor<2x40x4x72xf16>, tensor<2x40x4x72xf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<window(5, 3)>} : tensor<2x33x4x72xf16>, tensor<2x33x4x72xf16>, tensor<2x40x4x72xf16>, tensor<2x40x4x72xf16>, tensor<2x33x4x72xf16>, tensor<2x4x33xf32> -> tensor<2x33x4x72xf16>, tensor<2x40x4x72xf16>, tensor<2x40x4x72xf16>
  return %dq, %dk, %dv : tensor<2x33x4x72xf16>, tensor<2x40x4x72xf16>, tensor<2x40x4x72xf16>
}
