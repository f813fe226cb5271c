// Every pass chained by hand with its default options, as a kernel engineer
// runs them one by one: the planning passes choose sm_100a, and each pass
// after them reads the chip from the IR (the plan's #attn.config, then the
// kernel module's #nvvm.target), so the Blackwell kernel comes out as PTX
// for sm_100a; fa4-compile's PTX of the same op is the same kernel.
// RUN: fa4-opt %s --attn-select-config --attn-plan-splitk --attn-plan-tmem --attn-select-swizzle --attn-plan-smem --convert-attn-to-fa4 --convert-fa4-to-nvvm \
// RUN:   | fa4-opt '--pass-pipeline=builtin.module(gpu.module(canonicalize,cse,convert-scf-to-cf,convert-gpu-to-nvvm),convert-nvvm-to-llvm,reconcile-unrealized-casts,gpu-module-to-binary{format=isa})' \
// RUN:   | FileCheck %s
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_blackwell_causal_sm_100a/fa4_blackwell_causal_sm_100a.ptx

// CHECK: .target sm_100a
// CHECK: .entry fa4_blackwell_causal_sm_100a(
// CHECK: tcgen05.alloc
// CHECK: tcgen05.mma.cta_group::1.kind::f16

func.func @causal(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
