// The Hopper kernel of the serving forms: packed sequences
// (attn.varlen_attention) and paged caches whose pages hold whole K/V boxes
// (attn.paged_attention, kv_path page_boxes). Prefill's
// work list over the longest sequence's row blocks for every sequence
// (grid ceil(max_sq / 128) x Hq x B), each work tile reading its
// sequence's spans from cu_seqlens (and seqused_k): TMA boxes of the packed
// [T, H, D] tensors at its first token (3D maps, no batch coordinate), its
// own lengths for the bottom-right mask and the epilogue's row bound, O and
// LSE from registers at its first row (a TMA store would write the next
// sequence's rows). A paged K/V tile is BN / box-rows boxes, each of the
// page the block table gives (4D maps over [pages, page_size, H, D], the
// page as the batch coordinate), its keys clamped to the block-table row;
// queries dense (4D, the batch coordinate) or packed. Packed sequences'
// prefill runs on persistent CTAs (one per SM, the runtime's cap of the
// grid), each looping over the work list and skipping, before it loads Q,
// a work tile whose row block lies past its sequence's rows (D-59); a
// paged cache's prefill one work tile per CTA. Pairs of CTAs share K/V
// tiles (kv-multicast) without a mask at Dv >= 128 (@none_pairs); no
// device-built maps;
// the decode variant attn-decode-variants made of packed queries is
// dropped (this kernel serves every Sq); a paged cache's dense queries
// decode (@paged_decode). Refusals: hopper-serving-invalid.mlir. Numerics on fa4-emu: test/Emulator/serving-reference.test.
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s
// RUN: not fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=device-tensor-maps=true 2>&1 | FileCheck %s --check-prefix=MAPS
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4="device-tensor-maps=true reference-fallback=true" 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: fa4-opt %s --attn-decode-variants --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefix=VARIANT
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefix=DECODE
// ptxas: test/Pipelines/hopper-serving-ptxas.mlir.

// MAPS: error: 'attn.varlen_attention' op has no Hopper kernel for device-tensor-maps with a serving form: the kernel builds maps of dense BSHD tensors only
// FALLBACK: remark: left for the reference kernel: the Hopper kernel does not implement this plan: device-tensor-maps with a serving form

func.func @causal_lse(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<5xi32>, %ck: tensor<5xi32>) -> (tensor<?x8x128xbf16>, tensor<8x?xf32>) {
  %o, %lse = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<5xi32>, tensor<5xi32>) {mask = #attn.mask<causal>} : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16> -> tensor<?x8x128xbf16>, tensor<8x?xf32>
  return %o, %lse : tensor<?x8x128xbf16>, tensor<8x?xf32>
}

func.func @seqused_none(%q: tensor<?x4x64xf16>, %k: tensor<?x4x64xf16>, %v: tensor<?x4x64xf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %used: tensor<?xi32>) -> tensor<?x4x64xf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) seqused_k(%used : tensor<?xi32>) : tensor<?x4x64xf16>, tensor<?x4x64xf16>, tensor<?x4x64xf16> -> tensor<?x4x64xf16>
  return %o : tensor<?x4x64xf16>
}

func.func @none_pairs(%q: tensor<?x8x128xbf16>, %k: tensor<?x2x128xbf16>, %v: tensor<?x2x128xbf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>) -> tensor<?x8x128xbf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) : tensor<?x8x128xbf16>, tensor<?x2x128xbf16>, tensor<?x2x128xbf16> -> tensor<?x8x128xbf16>
  return %o : tensor<?x8x128xbf16>
}

func.func @window_d256(%q: tensor<?x4x256xbf16>, %k: tensor<?x1x256xbf16>, %v: tensor<?x1x256xbf16>, %cq: tensor<3xi32>, %ck: tensor<3xi32>) -> tensor<?x4x256xbf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<3xi32>, tensor<3xi32>) {mask = #attn.mask<window(256, 0)>} : tensor<?x4x256xbf16>, tensor<?x1x256xbf16>, tensor<?x1x256xbf16> -> tensor<?x4x256xbf16>
  return %o : tensor<?x4x256xbf16>
}

// CHECK-LABEL: func.func @causal_lse(
// CHECK: attn.varlen_attention {{.*}}fa4.abi = #fa4.abi<kernel = @fa4_hopper_causal_lse_sm_90a_module::@fa4_hopper_causal_lse_sm_90a, launch = <params = [#fa4.tensor_map<"q", [64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.pointer<"cu_seqlens_q">, #fa4.pointer<"cu_seqlens_k">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "max_sq">, #fa4.scalar<i32, "tq">, #fa4.scalar<i32, "tk">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<f32, "scale_log2">], grid = {{\[}}[#fa4.ceil_div<"max_sq", 128>, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [1, 1, 1]
// CHECK-SAME: alignment = {cu_seqlens_k = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, cu_seqlens_q = #fa4.alignment<base_bytes = 4, stride_bytes = 4>
// CHECK-SAME: programmatic_dependent_launch = true, persistent = <ctas_per_sm = 1, max_seq_kv = 2147483647>>
// CHECK-LABEL: func.func @seqused_none(
// CHECK: #fa4.pointer<"cu_seqlens_q">, #fa4.pointer<"cu_seqlens_k">, #fa4.pointer<"seqused_k">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "max_sq">
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"max_sq", 192>, "hq", "b"]
// CHECK-SAME: seqused_k = #fa4.alignment<base_bytes = 4, stride_bytes = 4>
// Without a mask at Dv >= 128, pairs of CTAs share K/V (kv-multicast): a
// cluster of two per work item of two row blocks, whole clusters of the
// persistent grid.
// CHECK-LABEL: func.func @none_pairs(
// CHECK: grid = {{\[}}[#fa4.ceil_div<"max_sq", 256>, 2, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [2, 1, 1]
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2147483647>
// CHECK-LABEL: func.func @window_d256(
// CHECK: #fa4.tensor_map<"k", [80, 1, 64], swizzle = 128>

// CHECK-LABEL: func.func @paged_dense(
// CHECK: attn.paged_attention {{.*}}launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k_cache", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v_cache", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.pointer<"block_table">, #fa4.pointer<"seqlens_k">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "max_pages">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<i64, "block_table.stride.0">, #fa4.scalar<f32, "scale_log2">, #fa4.pointer<"k_cache">, #fa4.pointer<"v_cache">, #fa4.scalar<i32, "pages">, #fa4.scalar<i64, "k_cache.stride.0">, #fa4.scalar<i64, "k_cache.stride.1">, #fa4.scalar<i64, "k_cache.stride.2">, #fa4.scalar<i64, "v_cache.stride.0">, #fa4.scalar<i64, "v_cache.stride.1">, #fa4.scalar<i64, "v_cache.stride.2">], grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"]
// CHECK-SAME: alignment = {block_table = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, k_cache = #fa4.alignment<base_bytes = 16, stride_bytes = 16>
// CHECK-SAME: programmatic_dependent_launch = true>, mask
// CHECK-LABEL: func.func @paged64_packed(
// CHECK: #fa4.tensor_map<"q", [64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k_cache", [1, 64, 1, 64], swizzle = 128>
// CHECK-SAME: #fa4.pointer<"block_table">, #fa4.pointer<"seqlens_k">, #fa4.pointer<"cu_seqlens_q">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "max_sq">, #fa4.scalar<i32, "tq">, #fa4.scalar<i32, "max_pages">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "block_table.stride.0">

// The kernel reads each work tile's spans (cu_seqlens_q at b and b + 1,
// cu_seqlens_k at b and b + 1: four loads a role), skips the tile unless
// its row block starts within its sequence's rows (the work loop carries
// the ring's tiles and the tiles run, which count the Q buffer's phases),
// loads 3D boxes, and writes O through registers with a zero batch stride.
// CHECK-LABEL: gpu.func @fa4_hopper_causal_lse_sm_90a(
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (i32, i32) {
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// CHECK: %[[HAS_ROWS:.+]] = arith.cmpi slt, {{.*}} : i32
// CHECK-NEXT: scf.if %[[HAS_ROWS]] {
// CHECK: fa4.tma.load %arg0[{{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK: fa4.tma.load %arg1[{{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK: fa4.tma.load %arg2[{{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// CHECK: fa4.epilogue {{.*}} strides[%c0_i64{{[_0-9]*}}, %arg11, %arg12] sq {{.*}} lse {{.*}} strides[%c0_i64{{[_0-9]*}}, %arg13]
// CHECK-NOT: fa4.tma.store
// CHECK: gpu.return

// VARIANT-NOT: func.func private @causal_lse_decode
// VARIANT-NOT: attn.decode_variant
// VARIANT: fa4_hopper_causal_lse_sm_90a_module

func.func @paged_dense(%q: tensor<?x?x8x128xbf16>, %kc: tensor<?x256x2x128xbf16>, %vc: tensor<?x256x2x128xbf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) {mask = #attn.mask<causal>} : tensor<?x?x8x128xbf16>, tensor<?x256x2x128xbf16>, tensor<?x256x2x128xbf16> -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}

func.func @paged64_packed(%q: tensor<?x8x128xbf16>, %kc: tensor<?x64x2x128xbf16>, %vc: tensor<?x64x2x128xbf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>, %cq: tensor<?xi32>) -> tensor<?x8x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) cu_seqlens_q(%cq : tensor<?xi32>) {mask = #attn.mask<causal>} : tensor<?x8x128xbf16>, tensor<?x64x2x128xbf16>, tensor<?x64x2x128xbf16> -> tensor<?x8x128xbf16>
  return %o : tensor<?x8x128xbf16>
}

// A paged tile of BN = 128 keys over 64-key pages: two block-table reads,
// each clamped to the sequence's last page, and four boxes (two depth
// boxes of each page) whose coordinates are (depth, head, row in page,
// page).
// CHECK-LABEL: gpu.func @fa4_hopper_paged64_packed_sm_90a(
// CHECK: arith.minsi
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// CHECK: arith.remui
// CHECK: fa4.tma.load %arg1[{{%[^,]+}}, {{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// CHECK: fa4.tma.load %arg1[
// CHECK: arith.minsi
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// CHECK: fa4.tma.load %arg1[
// CHECK: fa4.tma.load %arg1[


// Paged decode (a one-row Sq, or the decode variant of a dynamic one): the
// dense queries' decode plan, fused GQA (a Q box of 16 rows of the group's
// 4 heads) with the K/V tiles dealt out to partitions the launch picks
// (max_pages x page_size keys stand for Skv), each work item reading its
// sequence's keys before its tiles are dealt out; partials through the
// workspace and the dense combine.
func.func @paged_decode(%q: tensor<?x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<?x?xi32>, %sk: tensor<?xi32>) -> tensor<?x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<?x?xi32>) seqlens_k(%sk : tensor<?xi32>) : tensor<?x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<?x1x32x128xbf16>
  return %o : tensor<?x1x32x128xbf16>
}

// DECODE-LABEL: func.func @paged_decode(
// DECODE: launch = <params = [#fa4.tensor_map<"q", [1, 16, 4, 64], swizzle = 128>, #fa4.tensor_map<"k_cache", [1, 64, 1, 64], swizzle = 128>
// DECODE-SAME: #fa4.scalar<i64, "block_table.stride.0">, #fa4.scalar<f32, "scale_log2">, #fa4.workspace, #fa4.pointer<"k_cache">, #fa4.pointer<"v_cache">, #fa4.scalar<i32, "pages">, #fa4.scalar<i64, "k_cache.stride.0">, #fa4.scalar<i64, "k_cache.stride.1">, #fa4.scalar<i64, "k_cache.stride.2">, #fa4.scalar<i64, "v_cache.stride.0">, #fa4.scalar<i64, "v_cache.stride.1">, #fa4.scalar<i64, "v_cache.stride.2">], grid = {{\[}}["splits"], ["hkv"], ["b", #fa4.ceil_div<"sq", 16>]]
// DECODE-SAME: combine = <kernel = @fa4_hopper_paged_decode_sm_90a_module::@fa4_hopper_paged_decode_sm_90a_combine, workspace_bytes = [1032, "splits", "b", "sq", "hq"]
// DECODE-SAME: split_at_launch = <max_partitions = 132, min_keys_per_partition = 256, key_tile = 64, min_partitions = 48>
// The sequence's key count (seqlens_k) before the partitions (gridDim.x)
// share its tiles; a tile's page from the block table.
// DECODE-LABEL: gpu.func @fa4_hopper_paged_decode_sm_90a(
// DECODE: fa4.warp_specialize
// DECODE: gpu.block_id  z
// DECODE: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// DECODE: gpu.grid_dim  x
// DECODE: llvm.load {{.*}} : !llvm.ptr<1> -> i32
// DECODE: arith.remui
// DECODE: fa4.tma.load %arg1[{{%[^,]+}}, {{%[^,]+}}, {{%[^,]+}}, {{%[^]]+}}] to
// DECODE: gpu.func @fa4_hopper_paged_decode_sm_90a_combine(

// The decode variant of a paged cache's dense queries is kept: it is the
// decode kernel above (the variants of packed queries are dropped).
// VARIANT-LABEL: func.func @paged_dense(
// VARIANT: attn.decode_variant = @paged_dense_decode
// VARIANT-LABEL: func.func private @paged_dense_decode(
// VARIANT: grid = {{\[}}["splits"], ["hkv"]
