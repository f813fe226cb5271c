// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-fa4-to-nvvm=chip=sm_100a | FileCheck %s --enable-var-scope

// The chip option: only sm_90a is lowered. On any other chip the pass refuses
// fa4 kernels, on the gpu.module that holds them, and says what to use
// instead; modules without fa4 are none of its business on any chip.

// An fa4 kernel under chip=sm_100a: the pass fails with one error on the
// gpu.module, naming the chip and pointing at the reference kernel.
module attributes {gpu.container_module} {
  // expected-error @+1 {{convert-fa4-to-nvvm: chip 'sm_100a' is not supported yet; fa4 kernels lower to sm_90a (wgmma). sm_100a (tcgen05, TMEM) is planned but not lowered; compile sm_100a with the reference kernel (fa4-compile --kernel=reference)}}
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

// A kernel with an fa4 type only in its signature counts as fa4 too.
module attributes {gpu.container_module} {
  // expected-error @+1 {{chip 'sm_100a' is not supported yet}}
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%map: !fa4.tensor_map) kernel {
      gpu.return
    }
  }
}

// -----

// Without fa4 ops or types the pass succeeds under chip=sm_100a and changes
// nothing: the gpu.func stays, and no shared-memory global is added.
// CHECK-LABEL: gpu.module @k
// CHECK-NOT: llvm.mlir.global
// CHECK-NEXT: gpu.func @f(%arg0: !llvm.ptr<1>, %arg1: i32) kernel {
// CHECK-NEXT: llvm.store %arg1, %arg0 : i32, !llvm.ptr<1>
// CHECK-NEXT: gpu.return
// CHECK-NOT: llvm.func
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%p: !llvm.ptr<1>, %x: i32) kernel {
      llvm.store %x, %p : i32, !llvm.ptr<1>
      gpu.return
    }
  }
}
