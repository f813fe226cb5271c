// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The combine when each CTA's two consumer warpgroups staged a partial each
// (split-K decode on sm_90a, `partials = 2`): 2 partitions x 2 partials,
// bands of 64 columns of a 64 x 128 partial. Partial k is slot k % 2 of
// rank k / 2; slot 1 starts one staged partial (64 x (128 + 2) f32 = 33280
// bytes) after slot 0, in the same CTA's shared memory.
// CHECK-LABEL: llvm.func @f(
// The two stages: consumer 0 at byte 0, consumer 1 at 33280 (its row maxima
// at 33280 + 32768 = 66048).
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: arith.addi %{{.*}}, %c32768_i32 : i32
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: arith.addi %{{.*}}, %c66048_i32 : i32
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// (max, sum) of all four partials: rank 0 slot 0 (maxima at 32768, sums at
// 33024), rank 0 slot 1 (33280 bytes on: 66048, 66304), then rank 1's.
// CHECK: %[[MAXOFF:.*]] = arith.addi %[[ROWBYTES:.*]], %c32768_i32 : i32
// CHECK-NEXT: %[[MAX0:.*]] = llvm.getelementptr %{{.*}}[%[[MAXOFF]]]
// CHECK-NEXT: nvvm.mapa %[[MAX0]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: arith.addi %[[ROWBYTES]], %c33024_i32 : i32
// CHECK-NEXT: %[[SUM0:.*]] = llvm.getelementptr
// CHECK-NEXT: nvvm.mapa %[[SUM0]], %c0_i32
// CHECK: arith.addi %[[ROWBYTES]], %c66048_i32 : i32
// CHECK-NEXT: %[[MAX1:.*]] = llvm.getelementptr
// CHECK-NEXT: nvvm.mapa %[[MAX1]], %c0_i32
// CHECK: arith.addi %[[ROWBYTES]], %c66304_i32 : i32
// CHECK-NEXT: %[[SUM1:.*]] = llvm.getelementptr
// CHECK-NEXT: nvvm.mapa %[[SUM1]], %c0_i32
// CHECK: nvvm.mapa %[[MAX0]], %c1_i32
// CHECK: nvvm.mapa %[[SUM0]], %c1_i32
// CHECK: nvvm.mapa %[[MAX1]], %c1_i32
// CHECK: nvvm.mapa %[[SUM1]], %c1_i32
// CHECK-NOT: nvvm.mapa %[[MAX0]]
// Four weights, and the four partials' column pairs in the weighted sum:
// slot 1's pair 33280 bytes after slot 0's.
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: scf.if
// CHECK: %[[O0:.*]] = llvm.getelementptr %{{.*}}[%[[OBYTES:.*]]] : (!llvm.ptr<3>, i32)
// CHECK-NEXT: nvvm.mapa %[[O0]], %c0_i32
// CHECK: %[[O1OFF:.*]] = arith.addi %[[OBYTES]], %c33280_i32 : i32
// CHECK-NEXT: %[[O1:.*]] = llvm.getelementptr %{{.*}}[%[[O1OFF]]]
// CHECK-NEXT: nvvm.mapa %[[O1]], %c0_i32
// CHECK: nvvm.mapa %[[O0]], %c1_i32
// CHECK: nvvm.mapa %[[O1]], %c1_i32
// CHECK-NOT: nvvm.mapa
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %rank: i32, %out: !llvm.ptr<1>, %b: i32, %row: i32, %head: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64) kernel {
      %o = fa4.splat %x : !fa4.frag<64x128xf32>
      %m = fa4.splat %x : !fa4.rows<64xf32>
      fa4.splitk.stage %o, %m, %m at 0 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
      fa4.splitk.stage %o, %m, %m at 33280 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
      fa4.cluster.sync
      fa4.splitk.combine rank %rank of 2 band 64 from 0 rows 64 columns 128 to %out[%b, %row, %head] strides [%s0, %s1, %s2] sq %sq depth 128 of bf16 {partials = 2} : !llvm.ptr<1>
      fa4.cluster.sync
      gpu.return
    }
  }
}
