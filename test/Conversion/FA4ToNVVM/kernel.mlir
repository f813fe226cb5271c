// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm | FileCheck %s --enable-var-scope

// The kernel function itself: gpu.func -> llvm.func, its parameters and
// attributes, gpu.return, and the dynamic shared memory global that every
// shared-memory address of the kernel is computed from.

// A kernel with fa4 types in its signature becomes an llvm.func. Tensor maps
// are 128-byte CUtensorMaps passed by value as __grid_constant__ (TMA reads
// them in parameter space, so they must stay a byval pointer, 64-aligned);
// other arguments keep their types. nvvm.kernel marks the entry point and the
// launch bounds convert-attn-to-fa4 put on the gpu.func (nvvm.maxntid,
// nvvm.minctasm) must survive. The global is created once, at the top of the
// gpu.module, external and 1024-aligned (the 128B swizzle repeats every 1024
// bytes) in address space 3.
// CHECK-LABEL: gpu.module @k
// CHECK-NEXT: llvm.mlir.global external @fa4_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT: llvm.mlir.global
// CHECK-NEXT: llvm.func @f(%arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg1: !llvm.ptr<1>, %arg2: i32, %arg3: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg4: i64, %arg5: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32, passthrough = {{\[\["no-jump-tables", "true"\]\]}}} {
// CHECK-NOT: gpu.return
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: llvm.return
// CHECK-NEXT: {{^ *}$}}
// CHECK-NOT: gpu.func
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%q: !fa4.tensor_map, %o: !llvm.ptr<1>, %n: i32, %k: !fa4.tensor_map, %s: i64, %scale: f32) kernel attributes {nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32} {
      %c0 = arith.constant 0 : i32
      %b = fa4.mbarrier.get %c0 offset 1024
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

// The other fa4 types convert as values: an mbarrier is a pointer into
// shared memory (address space 3) and a shared-memory tile its 32-bit
// shared-window address; neither is a byval parameter. A kernel without
// launch bounds gets none.
// CHECK-LABEL: gpu.module @k
// CHECK: llvm.func @f(%arg0: !llvm.ptr<3>, %arg1: i32) attributes {nvvm.kernel, passthrough = {{\[\["no-jump-tables", "true"\]\]}}} {
// CHECK-NEXT: nvvm.mbarrier.arrive %arg0 : !llvm.ptr<3>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%b: !fa4.mbarrier, %t: !fa4.smem_tile<64x64xbf16, k_major>) kernel {
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

// A gpu.func that is not a kernel converts too, but must not become an
// entry point.
// CHECK-LABEL: gpu.module @k
// CHECK: llvm.func @f(%arg0: !llvm.ptr<3>) attributes {passthrough = {{\[\["no-jump-tables", "true"\]\]}}} {
// CHECK-NOT: nvvm.kernel
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%b: !fa4.mbarrier) {
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

// Functions without fa4 ops or types are left alone, even next to an fa4
// kernel in the same gpu.module (@plain keeps gpu.func and gpu.return), and a
// gpu.module without fa4 gets no shared-memory global. Two fa4 kernels in one
// gpu.module share a single global.
// CHECK-LABEL: gpu.module @k
// CHECK-NEXT: llvm.mlir.global external @fa4_dynamic_smem()
// CHECK-NOT: llvm.mlir.global
// CHECK: llvm.func @f(%arg0: i32) attributes {nvvm.kernel,
// CHECK: llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK: llvm.return
// CHECK: gpu.func @plain(%arg0: i32) kernel {
// CHECK-NEXT: gpu.return
// CHECK: llvm.func @g(%arg0: i32) attributes {nvvm.kernel,
// CHECK: llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK: llvm.return
// CHECK: gpu.module @other
// CHECK-NOT: llvm.mlir.global
// CHECK-NOT: llvm.func
// CHECK: gpu.func @plain(%arg0: i32) kernel {
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
    gpu.func @plain(%x: i32) kernel {
      gpu.return
    }
    gpu.func @g(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
  gpu.module @other [#nvvm.target<chip = "sm_90a">] {
    gpu.func @plain(%x: i32) kernel {
      gpu.return
    }
  }
}

// -----

// A gpu.module that already declares @fa4_dynamic_smem (an earlier run, or a
// hand-written declaration) keeps that one global; the kernel addresses it.
// CHECK-LABEL: gpu.module @k
// CHECK-NEXT: llvm.mlir.global external @fa4_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT: llvm.mlir.global
// CHECK: llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    llvm.mlir.global external @fa4_dynamic_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    gpu.func @f(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 0
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}
