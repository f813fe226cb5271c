// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The cluster reduce-scatter on sm_90a, for 4 partitions with bands of 32
// columns, a 64 x 128 partial and fused GQA rows (group 4).
//
// fa4.splitk.stage: the thread's 64 f32 registers as 32 8-byte pairs at
// byte 4 * (row * 128 + column); the row max at 32768 + 4 * row and the
// row sum, completed across the row's 4 lanes, at 33024 + 4 * row, both
// from lane % 4 == 0.
// CHECK-LABEL: llvm.func @f(
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: vector<2xf32>, !llvm.ptr<3>
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK: gpu.shuffle xor %[[SUM]], %c2_i32, %c32_i32 : f32
// CHECK: scf.if
// CHECK: arith.addi %{{.*}}, %c32768_i32 : i32
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: arith.addi %{{.*}}, %c33024_i32 : i32
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// Publish: a cluster-wide release/acquire barrier.
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// Combine: 64 rows x 16 column pairs of this rank's 32-column band, 128 at
// a time; the band starts at rank * 32. Row r is query row first + r / 4 of
// head + r % 4, stored when the query row is below Sq.
// CHECK: %[[BANDSTART:.*]] = arith.muli %[[RANK:.*]], %c32_i32 : i32
// CHECK: scf.for %[[ITEM:.*]] = %{{.*}} to %c1024 step %c128 {
// CHECK: %[[TILEROW:.*]] = arith.divui %{{.*}}, %c16_i32 : i32
// CHECK-NEXT: %[[PAIR:.*]] = arith.remui %{{.*}}, %c16_i32 : i32
// CHECK-NEXT: %[[PAIRCOL:.*]] = arith.muli %[[PAIR]], %c2_i32 : i32
// CHECK-NEXT: %[[COLUMN:.*]] = arith.addi %[[BANDSTART]], %[[PAIRCOL]] : i32
// CHECK-NEXT: %[[QROW:.*]] = arith.divui %[[TILEROW]], %c4_i32 : i32
// CHECK: %[[HEADOFF:.*]] = arith.remui %[[TILEROW]], %c4_i32 : i32
// Every partition's (max, sum) of the row through DSMEM: mapa to rank p,
// then ld.shared::cluster.
// CHECK: %[[MAXADDR:.*]] = llvm.getelementptr
// CHECK-NEXT: %[[M0:.*]] = nvvm.mapa %[[MAXADDR]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: llvm.load %[[M0]] {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: %[[SUMADDR:.*]] = llvm.getelementptr
// CHECK-NEXT: nvvm.mapa %[[SUMADDR]], %c0_i32
// CHECK: nvvm.mapa %[[MAXADDR]], %c1_i32
// CHECK: nvvm.mapa %[[SUMADDR]], %c1_i32
// CHECK: nvvm.mapa %[[MAXADDR]], %c2_i32
// CHECK: nvvm.mapa %[[SUMADDR]], %c2_i32
// CHECK: nvvm.mapa %[[MAXADDR]], %c3_i32
// CHECK: nvvm.mapa %[[SUMADDR]], %c3_i32
// CHECK-NOT: nvvm.mapa %[[MAXADDR]]
// M = max m_p, with a row no partition saw subtracting 0; L = sum l_p
// 2^(m_p - M); 1 / L, or 0 for such a row.
// CHECK: %[[ISINF:.*]] = arith.cmpf oeq, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[ISINF]]
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: %[[SEES:.*]] = arith.cmpf ogt
// CHECK-NEXT: arith.divf
// CHECK-NEXT: %[[INV:.*]] = arith.select %[[SEES]]
// Columns of the band below Dv: O = sum w_p O_p, w_p = 2^(m_p - M) / L,
// reading each peer's two f32 of the pair, stored as one bf16 pair.
// CHECK: scf.if
// CHECK-COUNT-4: nvvm.mapa %{{.*}}, %c{{[0-3]}}_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// Rank 0 stores LSE = (M + log2 L) ln 2, once per row (pair 0).
// CHECK: %[[RANK0:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK-NEXT: %[[LSEWRITER:.*]] = arith.andi %[[RANK0]], %{{.*}} : i1
// CHECK-NEXT: scf.if %[[LSEWRITER]] {
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// The second meeting keeps this CTA's shared memory alive for its peers.
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %rank: i32, %out: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %b: i32, %row: i32, %head: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %l0: i64, %l1: i64) kernel {
      %o = fa4.splat %x : !fa4.frag<64x128xf32>
      %m = fa4.splat %x : !fa4.rows<64xf32>
      fa4.splitk.stage %o, %m, %m at 0 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
      fa4.cluster.sync
      fa4.splitk.combine rank %rank of 4 band 32 from 0 rows 64 columns 128 to %out[%b, %row, %head] strides [%s0, %s1, %s2] sq %sq depth 128 of bf16 lse %lse strides [%l0, %l1] {group = 4} : !llvm.ptr<1>, !llvm.ptr<1>
      fa4.cluster.sync
      gpu.return
    }
  }
}
