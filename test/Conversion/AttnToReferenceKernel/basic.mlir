// RUN: fa4-opt %s -split-input-file --convert-attn-to-reference-kernel=chip=sm_90a | FileCheck %s

// One kernel per op in a gpu.module for the chip; the op records the ABI.
// CHECK-LABEL: func @gqa_causal_lse
// CHECK: attn.attention
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK-SAME: kernel = @fa4_ref_gqa_causal_lse_sm_90a_module::@fa4_ref_gqa_causal_lse_sm_90a
// CHECK-SAME: params = [#fa4.pointer<"q">, #fa4.pointer<"k">, #fa4.pointer<"v">, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "q.stride.0">, #fa4.scalar<i64, "q.stride.1">, #fa4.scalar<i64, "q.stride.2">, #fa4.scalar<i64, "k.stride.0">, #fa4.scalar<i64, "k.stride.1">, #fa4.scalar<i64, "k.stride.2">, #fa4.scalar<i64, "v.stride.0">, #fa4.scalar<i64, "v.stride.1">, #fa4.scalar<i64, "v.stride.2">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<f32, "scale_log2">]
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 4>], ["hq"], ["b"]]
// CHECK-SAME: block = [128, 1, 1]
// CHECK-SAME: cluster = [1, 1, 1]
// CHECK: gpu.module @fa4_ref_gqa_causal_lse_sm_90a_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">]
// CHECK: gpu.func @fa4_ref_gqa_causal_lse_sm_90a(%{{.*}}: !llvm.ptr<1>, {{.*}}, %{{.*}}: f32) kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// The kv head of query head h (block y) is h / group (group 4).
// CHECK: gpu.block_id  y
// CHECK: %[[GROUP:.*]] = arith.constant 4 : i64
// CHECK: arith.divui %{{.*}}, %[[GROUP]] : i64
// Causal: the last key is min(Skv - 1, row + Skv - Sq).
// CHECK: arith.minsi
// CHECK: scf.for {{.*}} iter_args
// The score is reduced across the warp with 5 butterfly shuffles.
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: scf.yield
// LSE, natural log, from lane 0.
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: gpu.return
func.func @gqa_causal_lse(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// -----

// No LSE: no lse pointer or strides. A window bounds both ends of the key
// range; Dv = 96 is not a multiple of 32, so the columns of the last lane
// group are clamped and guarded.
// CHECK-LABEL: func @window_no_lse
// CHECK: attn.attention
// CHECK-SAME: params = [#fa4.pointer<"q">, #fa4.pointer<"k">, #fa4.pointer<"v">, #fa4.pointer<"o">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "q.stride.0">, #fa4.scalar<i64, "q.stride.1">, #fa4.scalar<i64, "q.stride.2">, #fa4.scalar<i64, "k.stride.0">, #fa4.scalar<i64, "k.stride.1">, #fa4.scalar<i64, "k.stride.2">, #fa4.scalar<i64, "v.stride.0">, #fa4.scalar<i64, "v.stride.1">, #fa4.scalar<i64, "v.stride.2">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<f32, "scale_log2">]
// CHECK: gpu.func @fa4_ref_window_no_lse_sm_90a(
// CHECK: %[[RIGHT:.*]] = arith.constant 8 : i64
// CHECK: arith.addi %{{.*}}, %[[RIGHT]]
// CHECK: arith.minsi
// CHECK: %[[LEFT:.*]] = arith.constant 16 : i64
// CHECK: arith.subi %{{.*}}, %[[LEFT]]
// CHECK: arith.maxsi
// CHECK-NOT: lg2.approx
// CHECK: gpu.return
func.func @window_no_lse(%q: memref<?x?x6x80xf16>, %k: memref<?x?x1x80xf16>, %v: memref<?x?x1x96xf16>, %o: memref<?x?x6x96xf16>) {
  attn.attention %q, %k, %v outs(%o : memref<?x?x6x96xf16>) {mask = #attn.mask<window(16, 8)>}
      : memref<?x?x6x80xf16>, memref<?x?x1x80xf16>, memref<?x?x1x96xf16>
  return
}
