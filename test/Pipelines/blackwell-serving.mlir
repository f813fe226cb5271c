// The Blackwell (FA4) kernel of the serving forms, on hopper-serving.mlir's
// ops: packed sequences and paged caches whose pages hold whole K/V boxes,
// prefill's work list (one CTA per work tile of two 128-row Q tiles, no
// pair) over the longest sequence's rows where the queries are packed;
// each role reads its work tile's sequence (ServingSpans, as the Hopper
// kernel), the loader's boxes 3D from the sequence's first token in a
// packed tensor, or per page through the block table; O leaves from TMEM
// through registers (no staging, no epilogue warp's TMA store, which would
// write the next sequence's rows); a paged cache's dense queries decode
// (DECODE). Numerics on fa4-emu: test/Emulator/serving-reference.test.
// RUN: fa4-opt %S/hopper-serving.mlir --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 | FileCheck %s
// RUN: not fa4-opt %S/hopper-serving-invalid.mlir --attn-plan-pipeline="chip=sm_100a seq-q-hint=1" --convert-attn-to-fa4 -split-input-file 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: fa4-opt %S/hopper-serving.mlir --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 | FileCheck %s --check-prefix=DECODE

// CHECK-LABEL: func.func @causal_lse(
// CHECK: fa4.abi = #fa4.abi<kernel = @fa4_blackwell_causal_lse_sm_100a_module::@fa4_blackwell_causal_lse_sm_100a, launch = <params = [#fa4.tensor_map<"q", [128, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.pointer<"cu_seqlens_q">, #fa4.pointer<"cu_seqlens_k">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "max_sq">, #fa4.scalar<i32, "tq">, #fa4.scalar<i32, "tk">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<f32, "scale_log2">], grid = {{\[}}[#fa4.ceil_div<"max_sq", 256>, "hq", "b"], [1], [1]], block = [512, 1, 1], cluster = [1, 1, 1]
// CHECK-SAME: alignment = {cu_seqlens_k = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, cu_seqlens_q = #fa4.alignment<base_bytes = 4, stride_bytes = 4>
// CHECK-LABEL: func.func @paged_dense(
// CHECK: #fa4.tensor_map<"q", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"k_cache", [1, 128, 1, 64], swizzle = 128>
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 256>, "hq", "b"]
// CHECK-LABEL: func.func @paged64_packed(
// CHECK: #fa4.tensor_map<"k_cache", [1, 64, 1, 64], swizzle = 128>

// The loader's boxes: Q and K 3D from the sequence's first token; O
// written from registers.
// CHECK-LABEL: gpu.func @fa4_blackwell_causal_lse_sm_100a(
// CHECK: fa4.tma.load %arg0[{{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK: fa4.tma.load %arg1[{{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK: fa4.epilogue {{.*}} strides[%c0_i64{{[_0-9]*}}, %arg11, %arg12] sq
// CHECK-NOT: fa4.tma.store
// CHECK: gpu.return
// A paged tile of BN = 128 keys over 64-key pages: two pages a tile, each
// a block-table read (clamped to the sequence's last page) and 4D boxes
// whose batch coordinate is the page.
// CHECK-LABEL: gpu.func @fa4_blackwell_paged64_packed_sm_100a(
// CHECK: arith.minsi
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// CHECK: fa4.tma.load %arg1[{{%[^,]+}}, {{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK: arith.minsi
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// CHECK: fa4.tma.load %arg1[

// REFUSED: error: 'attn.varlen_attention' op has no Blackwell kernel for a decode or split-K plan of packed queries: the decode grid, the workspace and its combine address queries by (batch, row)

// Paged decode, as the Hopper kernel's: fused GQA (a Q box of 32 rows of
// the group's 4 heads), a tile of 128 keys over two 64-key pages, the
// partitions picked at launch, the workspace and the dense combine.
// DECODE-LABEL: func.func @paged_decode(
// DECODE: launch = <params = [#fa4.tensor_map<"q", [1, 32, 4, 64], swizzle = 128>, #fa4.tensor_map<"k_cache", [1, 64, 1, 64], swizzle = 128>
// DECODE-SAME: #fa4.scalar<f32, "scale_log2">, #fa4.workspace, #fa4.pointer<"k_cache">, #fa4.pointer<"v_cache">, #fa4.scalar<i32, "pages">, #fa4.scalar<i64, "k_cache.stride.0">, #fa4.scalar<i64, "k_cache.stride.1">, #fa4.scalar<i64, "k_cache.stride.2">, #fa4.scalar<i64, "v_cache.stride.0">, #fa4.scalar<i64, "v_cache.stride.1">, #fa4.scalar<i64, "v_cache.stride.2">], grid = {{\[}}["splits"], ["hkv"], ["b", #fa4.ceil_div<"sq", 32>]]
// DECODE-SAME: combine = <kernel = @fa4_blackwell_paged_decode_sm_100a_module::@fa4_blackwell_paged_decode_sm_100a_combine
// DECODE-SAME: split_at_launch = <max_partitions = 148, min_keys_per_partition = 512, key_tile = 128, min_partitions = 48>
