// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-fa4-to-nvvm | FileCheck %s --enable-var-scope

// The chip is each kernel module's #nvvm.target (convert-attn-to-fa4
// attaches the plan's): a module without one, with two, or naming a chip
// fa4 does not lower to is refused on the module; modules without fa4 are
// none of the pass's business.

module attributes {gpu.container_module} {
  // expected-error @+1 {{has no #nvvm.target: convert-fa4-to-nvvm lowers fa4 kernels for the chip their module targets (convert-attn-to-fa4 attaches the plan's)}}
  gpu.module @k {
    gpu.func @f(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{targets sm_80; fa4 kernels lower to sm_90a (wgmma) or sm_100a (tcgen05)}}
  gpu.module @k [#nvvm.target<chip = "sm_80">] {
    gpu.func @f(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{targets both sm_90a and sm_100a; an fa4 kernel module lowers for one chip}}
  gpu.module @k [#nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

// Two modules, one per chip, in one module: each lowers for its own (an
// sm_90a mbarrier arrive and the sm_100a one are alike; the frags are
// not: sm_90a keeps 64-row tiles, sm_100a 128).
// CHECK-LABEL: gpu.module @hopper
// CHECK: llvm.func @f
// CHECK-LABEL: gpu.module @blackwell
// CHECK: llvm.func @g
module attributes {gpu.container_module} {
  gpu.module @hopper [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32) kernel {
      %s = fa4.splat %x : !fa4.frag<64x16xf32>
      gpu.return
    }
  }
  gpu.module @blackwell [#nvvm.target<chip = "sm_100a">] {
    gpu.func @g(%x: f32) kernel {
      %s = fa4.splat %x : !fa4.frag<128x16xf32>
      gpu.return
    }
  }
}

// -----

// sm_100a lowers 128-row tiles (a row per thread); a 64-row frag is an
// sm_90a tile.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%x: f32) kernel {
      // expected-error @+1 {{'fa4.splat' op produces '!fa4.frag<64x16xf32>'; sm_100a lowers 128-row tiles (tcgen05 M = 128, a row per thread)}}
      %s = fa4.splat %x : !fa4.frag<64x16xf32>
      gpu.return
    }
  }
}

// -----

// wgmma-style fa4.mma has no sm_100a lowering: accumulators live in TMEM.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%a: i32, %x: f32) kernel {
      %q = fa4.smem.tile %a : !fa4.smem_tile<128x64xbf16, k_major>
      %k = fa4.smem.tile %a : !fa4.smem_tile<16x64xbf16, k_major>
      %acc = fa4.splat %x : !fa4.frag<128x16xf32>
      // expected-error @+1 {{'fa4.mma' op is not lowered on sm_100a: accumulators live in TMEM there (fa4.tmem.mma)}}
      %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<128x64xbf16, k_major>, !fa4.smem_tile<16x64xbf16, k_major>, !fa4.frag<128x16xf32>
      gpu.return
    }
  }
}

// -----

// A split-K partial staged from a register frag (the sm_90a form) is
// refused on sm_100a: O lives in TMEM there and is staged from its tile.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%x: f32) kernel {
      %o = fa4.splat %x : !fa4.frag<128x64xf32>
      %m = fa4.splat %x : !fa4.rows<128xf32>
      // expected-error @+1 {{'fa4.splitk.stage' op stages a register frag; on sm_100a the partial O is staged from its TMEM tile}}
      fa4.splitk.stage %o, %m, %m at 0 : !fa4.frag<128x64xf32>, <128xf32>
      gpu.return
    }
  }
}

// -----

// Without fa4 ops or types the pass succeeds on an sm_100a module and changes
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
