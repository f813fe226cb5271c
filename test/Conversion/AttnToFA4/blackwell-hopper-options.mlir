// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=persistent=1 -verify-diagnostics
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=ping-pong=0 -verify-diagnostics
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=kv-multicast=false -verify-diagnostics
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=l2-section-bytes=0 | FileCheck %s --check-prefix=BUILT
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=persistent=1 | FileCheck %s --check-prefix=HOPPER
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=loop-producer-registers=24 -verify-diagnostics
// RUN: not fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 --convert-fa4-to-nvvm=fold-key-bound=0 2>&1 | FileCheck %s --check-prefix=NVVM

// An option only the Hopper kernel reads, set on an op the Blackwell kernel
// builds, would do nothing: refused with its name. The options both
// kernels read (l2-section-bytes) are taken, and on an sm_90a plan the
// Hopper options are too.

func.func @causal(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  // expected-error-re @+1 {{convert-attn-to-fa4: {{persistent|ping-pong|kv-multicast|loop-producer-registers}} applies to the Hopper kernel only, and this op's plan is for sm_100a (the Blackwell kernel): leave it at its default}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}

// BUILT: gpu.module @fa4_blackwell_causal_sm_100a_module
// HOPPER: gpu.module @fa4_hopper_causal_sm_90a_module
// The groups come from Passes.td (KernelOption<"sm_90a">); convert-fa4-to-nvvm
// checks its own against each module's chip.
// NVVM: error: convert-fa4-to-nvvm: fold-key-bound applies to sm_90a kernels only, and this module targets sm_100a: leave it at its default
