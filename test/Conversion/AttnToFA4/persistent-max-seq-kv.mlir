// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=persistent-max-seq-kv=2048 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=DEFAULT

// persistent-max-seq-kv=N builds two kernels over the one-dimensional grid
// of work tiles: the prefill kernel, one work tile per CTA, and its twin
// `<kernel>_persistent` with the work-tile loop; it records the rule the
// runtime applies per launch: the twin on at most one CTA per SM when
// Skv <= N, the kernel on the whole grid above (docs/KernelABI.md,
// launch.persistent). Each regime runs code built for it: the loop costs a
// kernel 3-5% where every CTA gets one work tile.

// Dynamic Skv: the runtime decides.
// CHECK-LABEL: func @dynamic
// The kernel runs in pairs of CTAs (kv-multicast), two row blocks a pair.
// CHECK: fa4.abi = #fa4.abi<{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem_bytes = 213120>
// At d = 128 without a mask the twin has its own plan (128-key tiles) and
// so its own launch: its parameters' K/V boxes, block, grid (in pairs
// too, kv-multicast-twin) and shared memory.
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2048, kernel = @fa4_hopper_dynamic_sm_90a_module::@fa4_hopper_dynamic_sm_90a_persistent,
// CHECK-SAME: launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>, {{.*}}], grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem_bytes = 197664>>
// CHECK: gpu.func @fa4_hopper_dynamic_sm_90a(
// CHECK-NOT: gpu.grid_dim
// CHECK: gpu.return
// CHECK: gpu.func @fa4_hopper_dynamic_sm_90a_persistent(
// CHECK: gpu.grid_dim x
// CHECK: fa4.warp_specialize
// CHECK: scf.for
func.func @dynamic(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}

// -----

// A static Skv at or under the bound: one kernel, looped (no twin).
// CHECK-LABEL: func @short_static
// CHECK: fa4.abi = #fa4.abi<{{.*}}persistent = <ctas_per_sm = 1, max_seq_kv = 2147483647>
// CHECK: gpu.func @fa4_hopper_short_static_sm_90a(
// CHECK: gpu.grid_dim x
// CHECK: gpu.return
// CHECK-NOT: gpu.func
func.func @short_static(%q: tensor<2x1024x8x64xbf16>, %k: tensor<2x2048x8x64xbf16>, %v: tensor<2x2048x8x64xbf16>) -> tensor<2x1024x8x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<2x1024x8x64xbf16>, tensor<2x2048x8x64xbf16>, tensor<2x2048x8x64xbf16> -> tensor<2x1024x8x64xbf16>
  return %o : tensor<2x1024x8x64xbf16>
}

// -----

// A static Skv past the bound decides at compile time: one CTA per work
// tile, no loop, no rule.
// CHECK-LABEL: func @long_static
// CHECK-NOT: persistent =
// CHECK: gpu.func @fa4_hopper_long_static_sm_90a(
// CHECK-NOT: gpu.grid_dim
// CHECK: gpu.return
// CHECK-NOT: gpu.func
func.func @long_static(%q: tensor<1x4096x8x128xbf16>, %k: tensor<1x4096x8x128xbf16>, %v: tensor<1x4096x8x128xbf16>) -> tensor<1x4096x8x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<1x4096x8x128xbf16>, tensor<1x4096x8x128xbf16>, tensor<1x4096x8x128xbf16> -> tensor<1x4096x8x128xbf16>
  return %o : tensor<1x4096x8x128xbf16>
}

// -----

// The default (-1, the planner's rule, D-12): a twin up to Skv = 1024
// where Dv <= 64 (2048 under a causal mask) and 4096 where Dv <= 128, and
// the mask is not a window; at Dv = 256 a twin with its own plan (64-key
// tiles, 384 threads, room to stage O) up to Skv = 512, where it measured
// faster (D-19); window masks, unmeasured, keep one kernel.
// DEFAULT-LABEL: func @dynamic
// DEFAULT: persistent = <ctas_per_sm = 1, max_seq_kv = 4096, kernel = @{{.*}}::@fa4_hopper_dynamic_sm_90a_persistent, launch = {{.*}}>
// CHECK-LABEL: func @depth256
// DEFAULT-LABEL: func @depth256
// DEFAULT: persistent = <ctas_per_sm = 1, max_seq_kv = 512, kernel = @{{.*}}::@fa4_hopper_depth256_sm_90a_persistent, launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 64, 1, 64], swizzle = 128>, {{.*}}], {{.*}}block = [384, 1, 1]
// DEFAULT: gpu.func @fa4_hopper_depth256_sm_90a(
// DEFAULT: gpu.func @fa4_hopper_depth256_sm_90a_persistent(
// DEFAULT-NOT: gpu.func
// CHECK-LABEL: func @window
// DEFAULT-LABEL: func @window
// DEFAULT-NOT: persistent =
// DEFAULT: gpu.func @fa4_hopper_window_sm_90a(
// DEFAULT-NOT: gpu.func
func.func @depth256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}

// -----

func.func @window(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
