// RUN: fa4-opt %s -split-input-file -verify-diagnostics --convert-fa4-to-nvvm

// Shapes the fa4 dialect accepts but sm_90a's wgmma cannot issue: N above
// 256 (wgmma.mma_async is m64nNk16 with N <= 256). The pass names the
// instruction and the shape, then the conversion fails on the op. (N not a
// multiple of 8 cannot be written: frags are multiples of 16 columns.)

// Q K^T with a 272-key tile, both operands in shared memory.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%qo: i32, %ko: i32) kernel {
      %zero = arith.constant 0.0 : f32
      %q = fa4.smem.tile %qo : <64x64xbf16, k_major>
      %k = fa4.smem.tile %ko : <272x64xbf16, k_major>
      %acc = fa4.splat %zero : !fa4.frag<64x272xf32>
      // expected-error @+2 {{'fa4.mma' op on sm_90a is wgmma m64nNk16: needs M = 64 and N a multiple of 8 up to 256, got M = 64, N = 272}}
      // expected-error @+1 {{failed to legalize operation 'fa4.mma' that was explicitly marked illegal}}
      %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x64xbf16, k_major>, <272x64xbf16, k_major>, <64x272xf32>
      gpu.return
    }
  }
}

// -----

// P V with a 320-column V: A from registers, B MN-major.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%vo: i32) kernel {
      %zero = arith.constant 0.0 : f32
      %s = fa4.splat %zero : !fa4.frag<64x16xf32>
      %p = fa4.truncf %s : <64x16xf32> to <64x16xbf16>
      %v = fa4.smem.tile %vo : <16x320xbf16, mn_major>
      %acc = fa4.splat %zero : !fa4.frag<64x320xf32>
      // expected-error @+2 {{'fa4.mma' op on sm_90a is wgmma m64nNk16: needs M = 64 and N a multiple of 8 up to 256, got M = 64, N = 320}}
      // expected-error @+1 {{failed to legalize operation 'fa4.mma' that was explicitly marked illegal}}
      %o = fa4.mma %p, %v, %acc : !fa4.frag<64x16xbf16>, <16x320xbf16, mn_major>, <64x320xf32>
      gpu.return
    }
  }
}
