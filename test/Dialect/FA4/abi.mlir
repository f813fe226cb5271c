// RUN: fa4-opt %s | fa4-opt | FileCheck %s
// `fa4.abi` round-trips: every parameter kind, grid factor and optional
// section the lowerings write (docs/KernelABI.md).

// CHECK-LABEL: func @every_section
// CHECK: fa4.abi = #fa4.abi<kernel = @m::@k,
// CHECK-SAME: launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<f32, "scale_log2">, #fa4.workspace],
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem_bytes = 213120>,
// CHECK-SAME: alignment = {k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>,
// CHECK-SAME: programmatic_dependent_launch = true,
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 4096, kernel = @m::@k_persistent, launch = <params = [#fa4.tensor_map_scratch<[<"q", [1, 64, 1, 64], swizzle = 128>, <"k", [1, 128, 1, 64], swizzle = 0>]>]
// CHECK-SAME: combine = <kernel = @m::@k_combine, workspace_bytes = [1032, "splits", "b", "sq", "hq"], launch = <params = [#fa4.workspace, #fa4.scalar<i32, "splits">]
// CHECK-SAME: split_at_launch = <max_partitions = 132, min_keys_per_partition = 384, key_tile = 96, min_partitions = 48>>>
func.func @every_section(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x8x64xbf16>, %v: tensor<?x?x8x64xbf16>) -> (tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {fa4.abi = #fa4.abi<
      kernel = @m::@k,
      launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<f32, "scale_log2">, #fa4.workspace],
                grid = [[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]],
                block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem_bytes = 213120>,
      alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, lse = #fa4.alignment<base_bytes = 4, stride_bytes = 4>},
      programmatic_dependent_launch = true,
      persistent = <ctas_per_sm = 1, max_seq_kv = 4096, kernel = @m::@k_persistent,
                    launch = <params = [#fa4.tensor_map_scratch<[#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 0>]>],
                              grid = [["splits"], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>>,
      combine = <kernel = @m::@k_combine, workspace_bytes = [1032, "splits", "b", "sq", "hq"],
                 launch = <params = [#fa4.workspace, #fa4.scalar<i32, "splits">], grid = [["sq"], ["b"], [8]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>,
                 split_at_launch = <max_partitions = 132, min_keys_per_partition = 384, key_tile = 96, min_partitions = 48>>>}
      : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16> -> tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
}

// The optional sections are optional: no persistent rule, no combine.
// CHECK-LABEL: func @minimal
// CHECK: fa4.abi = #fa4.abi<kernel = @m::@r, launch = <params = [#fa4.pointer<"q">], grid = {{\[}}[1], [1], [1]], block = [32, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {
// CHECK-SAME: }>}
func.func @minimal(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@r,
      launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [32, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>,
      alignment = {q = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, k = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, v = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, o = #fa4.alignment<base_bytes = 2, stride_bytes = 2>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}
