// RUN: fa4-opt %s -split-input-file -verify-diagnostics
// What the fa4 dialect refuses in a kernel ABI record: each attribute's own
// rules (parsed alone), then the record against the attn.attention it sits
// on (the tensors, sizes and workspace it names).
func.func @box_extent(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{tensor map of 'q': the box must have 1 to 5 extents of 1 to 256}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  // expected-error @below {{failed to parse FA4_LaunchAttr parameter 'params' which is to be a `::mlir::ArrayAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.tensor_map<"q", [1, 300, 1, 64], swizzle = 128>], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @swizzle(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{tensor map of 'q': swizzle 96 is not 0, 32, 64 or 128 bytes}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  // expected-error @below {{failed to parse FA4_LaunchAttr parameter 'params' which is to be a `::mlir::ArrayAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 96>], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @scalar_type(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{a scalar parameter is i32, i64 or f32, not 'f16'}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  // expected-error @below {{failed to parse FA4_LaunchAttr parameter 'params' which is to be a `::mlir::ArrayAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.scalar<f16, "b">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @not_a_param(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{kernel parameter "ptr:q" is not a #fa4.pointer, #fa4.workspace, #fa4.scalar, #fa4.tensor_map or #fa4.tensor_map_scratch}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = ["ptr:q"], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @grid_rank(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{grid must have three dimensions (x, y, z)}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @grid_factor(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{each grid dimension must be a list of factors: i64 constants >= 1, size symbols or #fa4.ceil_div}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[0], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @ceil_div(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{ceil_div needs a size symbol and a divisor >= 1}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  // expected-error @below {{failed to parse FA4_LaunchAttr parameter 'grid' which is to be a `::mlir::ArrayAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[#fa4.ceil_div<"sq", 0>], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @block(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{block must be three positive sizes (x, y, z)}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @cluster(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{cluster must be three positive sizes (x, y, z)}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [0, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @smem(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{dynamic_smem_bytes must be >= 0}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'launch' which is to be a `LaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = -1>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @alignment_pow2(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{alignments must be powers of two, not 12 and 16}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'alignment' which is to be a `::mlir::DictionaryAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 12, stride_bytes = 16>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @alignment_kind(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{alignment of 'q' must be a #fa4.alignment}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = array<i64: 16, 16>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @twin_launch_without_kernel(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{a persistent launch of its own needs its kernel}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'persistent' which is to be a `PersistentAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}, persistent = <ctas_per_sm = 1, max_seq_kv = 64, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>>>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @split_at_launch(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{split_at_launch needs positive sizes and min_partitions <= max_partitions}}
  // expected-error @below {{failed to parse FA4_KernelABIAttr parameter 'combine' which is to be a `CombineAttr`}}
  // expected-error @below {{failed to parse FA4_CombineAttr parameter 'split_at_launch' which is to be a `SplitAtLaunchAttr`}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}, combine = <kernel = @m::@c, workspace_bytes = [4], launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, split_at_launch = <max_partitions = 4, min_keys_per_partition = 64, key_tile = 64, min_partitions = 8>>>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @kernel_ref(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{kernel must be @module::@function, not @k}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @unknown_tensor(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel names tensor 'x', which is not one of the op's}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"x">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @lse_without_lse(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel names tensor 'lse', which is not one of the op's}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"lse">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @stride_dim(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel passes stride 'o.stride.3', not a dimension of 'o' with a stride}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.scalar<i64, "o.stride.3">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @scalar_value(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel passes 'heads', which the runtime cannot}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.scalar<i32, "heads">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @box_rank(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel: the box of 'k' has 2 extents, the tensor 4 dimensions}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.tensor_map<"k", [128, 64], swizzle = 128>], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @workspace_without_combine(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel takes a workspace, but there is no combine}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.workspace], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @splits_without_rule(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: the kernel names size 'splits', which the runtime does not bind here}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [["splits"], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @combine_symbol(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: workspace_bytes names size 'heads', which the runtime does not bind here}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}, combine = <kernel = @m::@c, workspace_bytes = [4, "heads"], launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>>>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @missing_alignment(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: no alignment for tensor 'k'}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @extra_alignment(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi: alignment of 'lse', which is not a tensor of the op}}
  %o = attn.attention %q, %q, %q {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[1], [1], [1]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, v = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, lse = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @not_abi(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op fa4.abi must be a #fa4.abi}}
  %o = attn.attention %q, %q, %q {fa4.abi = {kernel = @m::@k}}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @unknown_attr(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
  // expected-error @below {{'attn.attention' op has unknown fa4 dialect attribute 'fa4.frobnicate'}}
  %o = attn.attention %q, %q, %q {fa4.frobnicate = unit}
      : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return %o : tensor<1x8x4x64xbf16>
}

// -----

func.func @abi_on_another_op() {
  // expected-error @below {{'func.call' op fa4.abi belongs on attn.attention, attn.varlen_attention, attn.paged_attention or attn.attention_backward}}
  func.call @abi_on_another_op() {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [], grid = [[1], [1], [1]], block = [1, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {}>} : () -> ()
  return
}

// -----

// expected-error @below {{'gpu.module' op fa4.device_tensor_maps must be a #fa4.tensor_map_scratch}}
gpu.module @kernels attributes {fa4.device_tensor_maps = "q:1x64x1x64:128"} {
}

// -----

// The serving forms' records name their own tensors and sizes: a packed
// varlen op has no "sq" (its grid covers "max_sq") and no "k_cache".
func.func @varlen_dense_size(%q: tensor<?x4x64xbf16>, %cq: tensor<3xi32>) -> tensor<?x4x64xbf16> {
  // expected-error @below {{fa4.abi: the kernel names size 'sq', which the runtime does not bind here}}
  %o = attn.varlen_attention %q, %q, %q cu_seqlens(%cq, %cq : tensor<3xi32>, tensor<3xi32>) {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"q">], grid = [[#fa4.ceil_div<"sq", 4>], ["hq"], ["b"]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, k = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, v = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, o = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, cu_seqlens_q = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, cu_seqlens_k = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<?x4x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16> -> tensor<?x4x64xbf16>
  return %o : tensor<?x4x64xbf16>
}

// -----

func.func @varlen_cache_tensor(%q: tensor<?x4x64xbf16>, %cq: tensor<3xi32>) -> tensor<?x4x64xbf16> {
  // expected-error @below {{fa4.abi: the kernel names tensor 'k_cache', which is not one of the op's}}
  %o = attn.varlen_attention %q, %q, %q cu_seqlens(%cq, %cq : tensor<3xi32>, tensor<3xi32>) {fa4.abi = #fa4.abi<kernel = @m::@k, launch = <params = [#fa4.pointer<"k_cache">], grid = [[#fa4.ceil_div<"max_sq", 4>], ["hq"], ["b"]], block = [128, 1, 1], cluster = [1, 1, 1], dynamic_smem_bytes = 0>, alignment = {q = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, k = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, v = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, o = #fa4.alignment<base_bytes = 2, stride_bytes = 2>, cu_seqlens_q = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, cu_seqlens_k = #fa4.alignment<base_bytes = 4, stride_bytes = 4>}>}
      : tensor<?x4x64xbf16>, tensor<?x4x64xbf16>, tensor<?x4x64xbf16> -> tensor<?x4x64xbf16>
  return %o : tensor<?x4x64xbf16>
}
