// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-fa4-to-nvvm

// Tensor memory is sm_100a's: on sm_90a the pass refuses a tmem op by name
// instead of failing to legalize it.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f() kernel {
      // expected-error @+1 {{'fa4.tmem.alloc' op uses tensor memory, which sm_90a does not have}}
      fa4.tmem.alloc 128 columns to 0
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f() kernel {
      // expected-error @+1 {{'fa4.tmem.tile' op uses tensor memory, which sm_90a does not have}}
      %t = fa4.tmem.tile column 0 of 0 : !fa4.tmem_tile<128x128xf32>
      gpu.return
    }
  }
}

// -----

// The TMA-store epilogue's staging from a TMEM tile is sm_100a's (sm_90a
// stages its O frag from registers).
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%o: !fa4.tmem_tile<128x128xf32>, %sum: !fa4.rows<128xf32>) kernel {
      // expected-error @+1 {{'fa4.epilogue.stage' op uses tensor memory, which sm_90a does not have}}
      fa4.epilogue.stage %o, %sum to 0 of bf16 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
      gpu.return
    }
  }
}
