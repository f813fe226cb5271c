// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The cluster reduce-scatter on sm_100a, for 2 partitions with bands of 32
// columns of a 128 x 64 partial that lives in TMEM, with fused GQA rows
// (group 4).
//
// fa4.splitk.stage from TMEM: thread r (row r, TMEM lane r) loads its row
// 16 columns at a time (tcgen05.ld 32x32b, lane base 32 * warp << 16, then
// tcgen05.wait::ld) after the fence that orders it behind the last MMA's
// completion, and stores each 16 as four 16-byte stores at byte
// 4 * (64 * r + column); then its row max at 32768 + 4r and its row sum at
// 33280 + 4r (a row's statistics are one thread's: no lane reduce).
// CHECK-LABEL: llvm.func @f(
// CHECK: %[[ROW:.*]] = arith.remui %{{.*}}, %c128_i32 : i32
// CHECK: %[[ROWSTART:.*]] = arith.muli %[[ROW]], %c256_i32 : i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK: arith.divui %[[ROW]], %c32_i32 : i32
// CHECK: nvvm.tcgen05.ld %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK: nvvm.tcgen05.wait <load>
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %{{.*}}[%[[ROWSTART]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[FIRST]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-COUNT-3: nvvm.tcgen05.ld
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK: %[[LAST:.*]] = arith.addi %[[ROWSTART]], %c240_i32 : i32
// CHECK-NEXT: %[[LASTPTR:.*]] = llvm.getelementptr %{{.*}}[%[[LAST]]]
// CHECK-NEXT: llvm.store %{{.*}}, %[[LASTPTR]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: %[[ROWBYTES:.*]] = arith.muli %[[ROW]], %c4_i32 : i32
// CHECK-NEXT: %[[MAXAT:.*]] = arith.addi %[[ROWBYTES]], %c32768_i32 : i32
// CHECK-NEXT: %[[MAXPTR:.*]] = llvm.getelementptr %{{.*}}[%[[MAXAT]]]
// CHECK-NEXT: llvm.store %arg0, %[[MAXPTR]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[SUMAT:.*]] = arith.addi %[[ROWBYTES]], %c33280_i32 : i32
// CHECK-NEXT: %[[SUMPTR:.*]] = llvm.getelementptr %{{.*}}[%[[SUMAT]]]
// CHECK-NEXT: llvm.store %arg0, %[[SUMPTR]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// Publish, then the combine shared with sm_90a: 128 rows x 16 column pairs
// of this rank's band, 128 items at a time, every partition's (max, sum)
// and pairs through mapa + ld.shared::cluster.
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: %[[BANDSTART:.*]] = arith.muli %arg1, %c32_i32 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2048 step %c128 {
// CHECK: nvvm.mapa %{{.*}}, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mapa %{{.*}}, %c1_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%x: f32, %rank: i32, %out: !llvm.ptr<1>, %b: i32, %row: i32, %head: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64) kernel {
      %o = fa4.tmem.tile column 128 of 1024 : <128x64xf32>
      %m = fa4.splat %x : !fa4.rows<128xf32>
      fa4.splitk.stage %o, %m, %m at 0 : !fa4.tmem_tile<128x64xf32>, <128xf32>
      fa4.cluster.sync
      fa4.splitk.combine rank %rank of 2 band 32 from 0 rows 128 columns 64 to %out[%b, %row, %head] strides [%s0, %s1, %s2] sq %sq depth 64 of bf16 {group = 4} : !llvm.ptr<1>
      fa4.cluster.sync
      gpu.return
    }
  }
}
