// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -verify-diagnostics | FileCheck %s

// FP8 (issue 62) on the Blackwell kernel: Q, K and V e4m3 with descales,
// O bf16. TMA loads 64-column boxes of 64 bytes under the 64-byte swizzle
// (the planner's rule for 1-byte types): a Q tile's two boxes are 8192
// bytes apart and 32768 bytes of Q land per work tile (two tiles of 128 x
// 128 bytes). S = Q K^T and O += P V are kind::f8f6f4 MMAs of 8-bit tiles;
// the softmax's scale takes Q's descale (one value) and K's (per batch
// and kv-head: batch x stride + kv-head), P is rounded to e4m3 into TMEM,
// and the correction warpgroup multiplies the final O by V's descale
// before staging it as bf16. The descales' pointers and batch strides are
// the kernel's last parameters.
// CHECK: fa4.abi = #fa4.abi<kernel = @fa4_blackwell_fp8_sm_100a_module::@fa4_blackwell_fp8_sm_100a, launch = <params = [#fa4.tensor_map<"q", [1, 128, 1, 64], swizzle = 64>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 64>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 64>, #fa4.pointer<"o">,
// CHECK-SAME: #fa4.tensor_map<"o", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"q_descale">, #fa4.pointer<"k_descale">, #fa4.scalar<i64, "k_descale.stride.0">, #fa4.pointer<"v_descale">, #fa4.scalar<i64, "v_descale.stride.0">]
// CHECK-SAME: k_descale = #fa4.alignment<base_bytes = 4, stride_bytes = 4>
// CHECK: gpu.func @fa4_blackwell_fp8_sm_100a(
// CHECK: %[[Q_DESCALE:[a-z0-9]+]] = llvm.load %arg12 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[SCALE_Q:.+]] = arith.mulf %arg10, %[[Q_DESCALE]] : f32
// CHECK: %[[K_INDEX:.+]] = arith.muli %{{.+}}, %arg14 : i64
// CHECK: %[[K_AT:.+]] = llvm.getelementptr %arg13[%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[K_DESCALE:.+]] = llvm.load %[[K_AT]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[SCALE:.+]] = arith.mulf %[[SCALE_Q]], %[[K_DESCALE]] : f32
// CHECK: fa4.softmax {{.+}} scale %[[SCALE]]
// CHECK: fa4.truncf %probs : <128x128xf32> to <128x128xf8E4M3FN>
// CHECK-NEXT: %[[P:.+]] = fa4.tmem.tile column 96 of {{[0-9]+}} : <128x128xf8E4M3FN>
// CHECK-NEXT: fa4.tmem.store %{{.+}}, %[[P]] : <128x128xf8E4M3FN>, <128x128xf8E4M3FN>
// The correction: V's descale once per tile, then the bf16 staging.
// CHECK: %[[V_AT:.+]] = llvm.getelementptr %arg15[%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V_DESCALE:.+]] = llvm.load %[[V_AT]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[V_ROWS:.+]] = fa4.splat %[[V_DESCALE]] : !fa4.rows<128xf32>
// CHECK-NEXT: %[[O:.+]] = fa4.tmem.tile column 256 of {{[0-9]+}} : <128x128xf32>
// CHECK-NEXT: fa4.tmem.scale_rows %[[O]] by %[[V_ROWS]] : <128x128xf32>, <128xf32>
// CHECK: fa4.epilogue.stage %{{.+}}, %{{.+}} to 32768 of bf16
// The loader: Q's boxes 8192 bytes apart, K's 16384-byte stages.
// CHECK: fa4.mbarrier.expect_tx %{{.+}} bytes 32768
// CHECK: fa4.tma.load %arg0[%c0{{.*}}] to %c0_i32{{.*}}
// CHECK: fa4.tma.load %arg0[%c64{{.*}}] to %c8192_i32
// CHECK: fa4.mbarrier.expect_tx %{{.+}} bytes 16384
// CHECK: fa4.tmem.mma %{{.+}}, %{{.+}} into %{{.+}} accumulate %{{.+}} issued_by %{{.+}} : !fa4.smem_tile<128x128xf8E4M3FN, k_major>, <128x128xf8E4M3FN, k_major>, <128x128xf32>
// CHECK: fa4.tmem.mma %{{.+}}, %{{.+}} into %{{.+}} accumulate %{{.+}} issued_by %{{.+}} : !fa4.tmem_tile<128x128xf8E4M3FN>, <128x128xf8E4M3FN, mn_major>, <128x128xf32>
func.func @fp8(%q: tensor<1x256x4x128xf8E4M3FN>, %k: tensor<1x300x2x128xf8E4M3FN>, %v: tensor<1x300x2x128xf8E4M3FN>, %qd: tensor<f32>, %kd: tensor<1x2xf32>, %vd: tensor<1x2xf32>) -> tensor<1x256x4x128xbf16> {
  %o = attn.attention %q, %k, %v q_descale(%qd : tensor<f32>) k_descale(%kd : tensor<1x2xf32>) v_descale(%vd : tensor<1x2xf32>) {mask = #attn.mask<causal>} : tensor<1x256x4x128xf8E4M3FN>, tensor<1x300x2x128xf8E4M3FN>, tensor<1x300x2x128xf8E4M3FN> -> tensor<1x256x4x128xbf16>
  return %o : tensor<1x256x4x128xbf16>
}

// -----

// An FP8 KV cache under a bf16 Q plans as bf16 (the planner sees Q's
// type); the kernel refuses it by name rather than read e4m3 as bf16.
func.func @fp8_cache(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xf8E4M3FN>, %d: tensor<2x2xf32>) -> tensor<2x7x4x64xbf16> {
  // expected-error @+1 {{'attn.attention' op has FP8 keys and values under a 16-bit query, which the FA4 kernel does not implement yet (Q, K and V e4m3 only)}}
  %o = attn.attention %q, %k, %k k_descale(%d : tensor<2x2xf32>) v_descale(%d : tensor<2x2xf32>) : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xf8E4M3FN>, tensor<2x5x2x64xf8E4M3FN> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
