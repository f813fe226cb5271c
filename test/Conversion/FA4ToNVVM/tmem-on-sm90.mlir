// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-fa4-to-nvvm=chip=sm_90a

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

// The TMA-store epilogue's staging reads O from TMEM; LSE alone is written
// a row per thread: both sm_100a's.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%o: !fa4.tmem_tile<128x128xf32>, %sum: !fa4.rows<128xf32>) kernel {
      // expected-error @+1 {{'fa4.epilogue.stage' op uses tensor memory, which sm_90a does not have}}
      fa4.epilogue.stage %o, %sum to 0 of bf16 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%m: !fa4.rows<64xf32>, %lse: !llvm.ptr<1>, %i: i32, %s: i64) kernel {
      // expected-error @+1 {{'fa4.lse.store' op is lowered on sm_100a only (a row per thread); sm_90a stores LSE with fa4.epilogue}}
      fa4.lse.store %m, %m to %lse[%i, %i, %i] strides [%s, %s] sq %i : !fa4.rows<64xf32>, !llvm.ptr<1>
      gpu.return
    }
  }
}
