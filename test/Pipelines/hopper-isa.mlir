// fa4-compile on sm_90a picks the TMA + wgmma kernel (kernel=auto) and
// serializes it to PTX in a gpu.binary; kernel=reference keeps the SIMT one;
// persistent=true lets the runtime launch one CTA per SM that loops over the
// work tiles, at every Skv; persistent-max-seq-kv=2048 up to Skv = 2048,
// where it launches the looped twin kernel of the same module (the kernel
// itself, without the loop, serves longer Skv).
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a" | FileCheck %s
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a kernel=reference" | FileCheck %s --check-prefix=REF
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a persistent=true" | FileCheck %s --check-prefix=PERSIST
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a persistent=true loop-producer-registers=24" | FileCheck %s --check-prefix=FA3SPLIT
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a persistent-max-seq-kv=2048" | FileCheck %s --check-prefix=SHORT
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a persistent-max-seq-kv=0 decode-variants=false" | FileCheck %s --check-prefix=PLAIN

// persistent-max-seq-kv=0: one kernel, one CTA per work tile, no loop.
// PLAIN: attn.attention
// PLAIN-NOT: persistent =
// PLAIN: gpu.binary @fa4_hopper_attention_sm_90a_module
// PLAIN-SAME: .visible .entry fa4_hopper_attention_sm_90a(
// PLAIN-NOT: nctaid
// PLAIN-NOT: .entry

// CHECK: attn.attention
// CHECK-SAME: config = #attn.config<chip = sm_90a
// CHECK-SAME: fa4.abi = #fa4.abi<
// By default (Dv <= 128, no window mask) the kernel takes one work tile a
// CTA, here in pairs of CTAs (kv-multicast-causal: it serves only past its
// twin's bound, from 4097 keys), and its looped twin serves Skv <= 4096 at
// Dv = 128 (2048 at Dv <= 64; the SHORT checks below take 2048), on its own
// launch.
// This one is causal at Dv = 128: its plan keeps two K/V stages so that the
// twin stores O by TMA too (O's tensor map last), box by box past the plan.
// CHECK-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">,
// CHECK-SAME: #fa4.scalar<f32, "scale_log2">, #fa4.tensor_map<"o", [1, 64, 1, 64], swizzle = 128>]
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]]
// CHECK-SAME: block = [384, 1, 1]
// The plan (163968 bytes, two K/V stages) and, past it, the twin's second
// Q buffer (32 KB from 164864) and its four barriers.
// CHECK-SAME: dynamic_smem_bytes = 197664
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 4096, kernel = @fa4_hopper_attention_sm_90a_module::@fa4_hopper_attention_sm_90a_persistent, launch = {{.*}}>
// CHECK: gpu.binary @fa4_hopper_attention_sm_90a_module
// CHECK-SAME: assembly = "
// CHECK-SAME: .target sm_90a
// CHECK-SAME: .visible .entry fa4_hopper_attention_sm_90a(
// CHECK-SAME: .maxntid 384, 1, 1
// CHECK-SAME: setmaxnreg.inc.sync.aligned.u32 \09240;
// Causal, so 128 keys per tile: S = Q K^T and O += P V are both m64n128.
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: m64n176k16
// CHECK-SAME: setmaxnreg.dec.sync.aligned.u32 \0924;
// CHECK-SAME: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME: .visible .entry fa4_hopper_attention_sm_90a_persistent(
// CHECK-NOT: gpu.module

// PERSIST: attn.attention
// PERSIST-SAME: fa4.abi = #fa4.abi<
// PERSIST-SAME: params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, #fa4.tensor_map<"k", [1, 128, 1, 64], swizzle = 128>, #fa4.tensor_map<"v", [1, 128, 1, 64], swizzle = 128>, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">,
// PERSIST-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]]
// PERSIST-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2147483647>
// PERSIST: gpu.binary @fa4_hopper_attention_sm_90a_module
// PERSIST-SAME: .visible .entry fa4_hopper_attention_sm_90a(
// PERSIST-SAME: %nctaid.x;
// A looped kernel at Dv <= 128 gives its producer 40 registers
// (loop-producer-registers) and its consumers the rest of the pool, 232;
// 24 keeps FA3's split.
// PERSIST-SAME: setmaxnreg.inc.sync.aligned.u32 \09232;
// PERSIST-SAME: setmaxnreg.dec.sync.aligned.u32 \0940;
// PERSIST-NOT: gpu.module
// FA3SPLIT: .visible .entry fa4_hopper_attention_sm_90a(
// FA3SPLIT-SAME: setmaxnreg.inc.sync.aligned.u32 \09240;
// FA3SPLIT-SAME: setmaxnreg.dec.sync.aligned.u32 \0924;

// SHORT: fa4.abi = #fa4.abi<
// SHORT-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]]
// SHORT-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 2048, kernel = @fa4_hopper_attention_sm_90a_module::@fa4_hopper_attention_sm_90a_persistent, launch = {{.*}}>
// SHORT: gpu.binary
// SHORT-SAME: .visible .entry fa4_hopper_attention_sm_90a(
// SHORT-SAME: .visible .entry fa4_hopper_attention_sm_90a_persistent(
// SHORT-SAME: %nctaid.x;

// REF: gpu.binary @fa4_ref_attention_sm_90a_module
// REF-NOT: wgmma
// REF-NOT: gpu.module
func.func @attention(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
