// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The cluster combine's arithmetic, operand by operand, for 2 partitions of
// fused GQA rows (group 4): its weights w_p = 2^(m_p - M) / L (not
// 2^(M - m_p)), L = sum l_p 2^(m_p - M), O = sum w_p O_p, and the LSE
// (M + log2 L) ln 2 (not log2: the LSE is a natural log), written at the row's
// own head, head + tileRow % group (not the work item's first head).
// splitk.mlir checks the structure (mapa, loops, barriers); this file checks
// the values, so that a reversed exponent, a missing ln 2 or the wrong head
// fails.
// CHECK-LABEL: llvm.func @f(
// CHECK-DAG: %[[LN2:.*]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[TILEROW:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[HEADOFF:.*]] = arith.remui %[[TILEROW]], %c4_i32 : i32
// CHECK-NEXT: %[[ROWHEAD:.*]] = arith.addi %[[HEAD:arg6]], %[[HEADOFF]] : i32
// CHECK: %[[M0:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: %[[L0:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: %[[M1:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: %[[L1:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: %[[MAX:.*]] = arith.maximumf %[[M0]], %[[M1]] : f32
// CHECK-NEXT: %[[NOKEYS:.*]] = arith.cmpf oeq, %[[MAX]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[NOKEYS]], %[[ZERO]], %[[MAX]] : f32
// CHECK-NEXT: %[[D0:.*]] = arith.subf %[[M0]], %[[SAFE]] : f32
// CHECK-NEXT: %[[S0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[D0]])
// CHECK-NEXT: %[[T0:.*]] = llvm.intr.fma(%[[L0]], %[[S0]], %[[ZERO]])
// CHECK-NEXT: %[[D1:.*]] = arith.subf %[[M1]], %[[SAFE]] : f32
// CHECK-NEXT: %[[S1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[D1]])
// CHECK-NEXT: %[[TOTAL:.*]] = llvm.intr.fma(%[[L1]], %[[S1]], %[[T0]])
// CHECK-NEXT: %[[SEES:.*]] = arith.cmpf ogt, %[[TOTAL]], %[[ZERO]] : f32
// CHECK-NEXT: %[[RECIP:.*]] = arith.divf %[[ONE]], %[[TOTAL]] : f32
// CHECK-NEXT: %[[INV:.*]] = arith.select %[[SEES]], %[[RECIP]], %[[ZERO]] : f32
// O: each partition's pair weighted by w_p = s_p / L.
// CHECK: %[[W0:.*]] = arith.mulf %[[S0]], %[[INV]] : f32
// CHECK: %[[O0:.*]] = llvm.load %{{.*}} : !llvm.ptr<7> -> f32
// CHECK-NEXT: %[[A0:.*]] = llvm.intr.fma(%[[O0]], %[[W0]], %[[ZERO]])
// CHECK: %[[W1:.*]] = arith.mulf %[[S1]], %[[INV]] : f32
// CHECK: %[[O1:.*]] = llvm.load %{{.*}} : !llvm.ptr<7> -> f32
// CHECK-NEXT: llvm.intr.fma(%[[O1]], %[[W1]], %[[A0]])
// The output index: the row's own head.
// CHECK: %[[OHEAD:.*]] = arith.extsi %[[ROWHEAD]] : i32 to i64
// CHECK-NEXT: arith.muli %[[OHEAD]], %[[OHEADSTRIDE:arg10]] : i64
// LSE = (M + log2 L) ln 2, -inf for a row no partition saw, at the row's
// own head.
// CHECK: %[[LOG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[TOTAL]])
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[MAX]], %[[LOG]] : f32
// CHECK-NEXT: %[[NAT:.*]] = arith.mulf %[[SUM]], %[[LN2]] : f32
// CHECK-NEXT: %[[LSE:.*]] = arith.select %[[SEES]], %[[NAT]], %[[NEGINF]] : f32
// CHECK: %[[LHEAD:.*]] = arith.extsi %[[ROWHEAD]] : i32 to i64
// CHECK-NEXT: arith.muli %[[LHEAD]], %[[LHEADSTRIDE:arg12]] : i64
// CHECK: llvm.store %[[LSE]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %rank: i32, %out: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %b: i32, %row: i32, %head: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %l0: i64, %l1: i64) kernel {
      fa4.splitk.combine rank %rank of 2 band 64 from 0 rows 64 columns 128 to %out[%b, %row, %head] strides [%s0, %s1, %s2] sq %sq depth 128 of bf16 lse %lse strides [%l0, %l1] {group = 4} : !llvm.ptr<1>, !llvm.ptr<1>
      gpu.return
    }
  }
}
