// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm | FileCheck %s --enable-var-scope

// convert-fa4-to-nvvm's fold-key-bound (the default; softmax.mlir has the
// two-compare lowering, fold-key-bound=0): in a masked tile, a mask with an upper diagonal
// tests key <= min(upper, skv - 1) instead of key < skv and key <= upper:
// one compare per register, the min of a row shared by its registers
// (CSE'd downstream). Where there is no upper diagonal (a window open on
// the right, and no mask) the skv compare stays.

// Causal: the upper bound is the row's diagonal (row + skv - sq).
// CHECK-LABEL: llvm.func @causal(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: scf.if
// CHECK: %[[LAST:[0-9]+]] = arith.subi %[[SKV]], %{{.+}} : i32
// CHECK: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %[[U0:[0-9]+]] = arith.minsi %[[D0]], %[[LAST]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi sle, %[[K0]], %[[U0]] : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.select %[[V0]], %{{[a-z0-9]+}}, %{{.+}} : f32
// CHECK-NOT: arith.cmpi slt, %{{[0-9]+}}, %[[SKV]]
// CHECK: scf.yield
// CHECK-NEXT: } else {
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @causal(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !fa4.frag<64x16xf32> {
        %m = fa4.mask %s mask #attn.mask<causal> keys %key rows %row sq %sq skv %skv : <64x16xf32>
        scf.yield %m : !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// window(17, 33): the upper bound is diagonal + 33, then the left test.
// CHECK-LABEL: llvm.func @window(
// CHECK-SAME: %[[SKV:[a-z0-9]+]]: i32)
// CHECK: scf.if
// CHECK: %[[LAST:[0-9]+]] = arith.subi %[[SKV]], %{{.+}} : i32
// CHECK: %[[C33:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[R0:[0-9]+]] = arith.addi %{{[0-9]+}}, %[[C33]] : i32
// CHECK-NEXT: %[[U0:[0-9]+]] = arith.minsi %[[R0]], %[[LAST]] : i32
// CHECK-NEXT: %[[LE0:[0-9]+]] = arith.cmpi sle, %{{[0-9]+}}, %[[U0]] : i32
// CHECK: %[[GE0:[0-9]+]] = arith.cmpi sge
// CHECK-NEXT: %[[BOTH0:[0-9]+]] = arith.andi %[[LE0]], %[[GE0]] : i1
// CHECK-NOT: arith.cmpi slt, %{{[0-9]+}}, %[[SKV]]
// CHECK: } else {
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @window(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !fa4.frag<64x16xf32> {
        %m = fa4.mask %s mask #attn.mask<window(17, 33)> keys %key rows %row sq %sq skv %skv : <64x16xf32>
        scf.yield %m : !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// window(40, -1), open on the right: nothing to fold, key < skv stays.
// CHECK-LABEL: llvm.func @open_right(
// CHECK-SAME: %[[SKV:[a-z0-9]+]]: i32)
// CHECK: scf.if
// CHECK-NOT: arith.minsi
// CHECK: arith.cmpi slt, %{{[0-9]+}}, %[[SKV]] : i32
// CHECK-NOT: arith.minsi
// CHECK: } else {
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @open_right(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !fa4.frag<64x16xf32> {
        %m = fa4.mask %s mask #attn.mask<window(40, -1)> keys %key rows %row sq %sq skv %skv : <64x16xf32>
        scf.yield %m : !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}
