// The fa4-compile pipeline to PTX (gpu.binary, format=isa), on both chips.
// RUN: fa4-opt %s --fa4-compile="chip=sm_90a kernel=reference" | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: fa4-opt %s --fa4-compile="chip=sm_100a kernel=reference" | FileCheck %s --check-prefixes=CHECK,SM100

// CHECK: attn.attention
// CHECK-SAME: config = #attn.config<chip = [[CHIP:sm_[0-9a]+]]
// CHECK-SAME: fa4.abi = #fa4.abi<
// CHECK: gpu.binary @fa4_ref_attention_[[CHIP]]_module
// SM90-SAME: .target sm_90a
// SM100-SAME: .target sm_100a
// CHECK-SAME: .visible .entry fa4_ref_attention_[[CHIP]](
// The score's warp reduction, exp2 on the MUFU unit, O rounded to bf16, then
// LSE's log2.
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: ex2.approx.f32
// CHECK-SAME: cvt.rn.bf16.f32
// CHECK-SAME: lg2.approx.f32
func.func @attention(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>,
                     %v: tensor<?x?x8x128xbf16>)
    -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}
