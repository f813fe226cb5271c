// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-fa4-to-nvvm

// One kernel, one cta_group (PTX ISA: a kernel's tcgen05 instructions all
// name the same .cta_group): a pair allocation with a lone MMA is refused
// before any lowering, pointing at both.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mixed(%qo: i32, %ko: i32, %acc: i1) kernel {
      // expected-note @+1 {{first tcgen05 instruction here}}
      fa4.tmem.alloc 512 columns to 1024 pair
      %q = fa4.smem.tile %qo : !fa4.smem_tile<128x64xbf16, k_major>
      %k = fa4.smem.tile %ko : !fa4.smem_tile<128x64xbf16, k_major>
      %s = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x128xf32>
      // expected-error @+1 {{'fa4.tmem.mma' op is cta_group::1 but the kernel's tcgen05 instructions are cta_group::2; one kernel uses one cta_group}}
      fa4.tmem.mma %q, %k into %s accumulate %acc : !fa4.smem_tile<128x64xbf16, k_major>, !fa4.smem_tile<128x64xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @commit(%i: i32) kernel {
      // expected-note @+1 {{first tcgen05 instruction here}}
      fa4.tmem.alloc 512 columns to 1024
      %bar = fa4.mbarrier.get %i offset 2048
      // expected-error @+1 {{'fa4.tmem.commit' op is cta_group::2 but the kernel's tcgen05 instructions are cta_group::1}}
      fa4.tmem.commit %bar pair
      fa4.tmem.dealloc 512 columns at 1024
      gpu.return
    }
  }
}
