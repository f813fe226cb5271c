// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -cse | FileCheck %s

// fa4.sink.rows (attention sinks, issue 61): each row's softmax starts from
// its sink. Row r belongs to query head head + r % group; its max is
// sinks[that head] * log2(e) where `holds`, else -inf; its sum 1 where
// `holds`, else 0.

// sm_90a: a thread owns rows FROW and FROW + 8 (FROW = 16 (t / 32) +
// (t % 32) / 4, t the thread in its warpgroup), and a row's sum is spread
// over the quad of threads t..t+3 that hold it: only the quad's first
// (t % 4 == 0) counts the sink, so the quad's sum holds it once.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[SINKS:arg0]]: !llvm.ptr<1>, %[[HEAD:arg1]]: i32, %[[HOLDS:arg2]]: i1
// CHECK: %[[T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32 : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK: %[[QUAD:[0-9]+]] = arith.remui %[[T]], %c4_i32 : i32
// CHECK-NEXT: %[[FIRST:[0-9]+]] = arith.cmpi eq, %[[QUAD]], %c0_i32 : i32
// CHECK: %[[ONE_IF_FIRST:[0-9]+]] = arith.select %[[FIRST]], %[[ONE:cst[_0-9]*]], %[[ZERO:cst[_0-9]*]] : f32
// CHECK-NEXT: %[[SUM:[0-9]+]] = arith.select %[[HOLDS]], %[[ONE_IF_FIRST]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[FROW]], %c0_i32 : i32
// CHECK-NEXT: %[[G0:[0-9]+]] = arith.remui %[[ROW0]], %c4_i32 : i32
// CHECK-NEXT: %[[H0:[0-9]+]] = arith.addi %[[HEAD]], %[[G0]] : i32
// CHECK-NEXT: %[[I0:[0-9]+]] = arith.extsi %[[H0]] : i32 to i64
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.getelementptr %[[SINKS]][%[[I0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[L0:[0-9]+]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.mulf %[[L0]], %[[LOG2E]] : f32
// CHECK-NEXT: arith.select %[[HOLDS]], %[[M0]], %[[NEG_INF]] : f32
// CHECK-NEXT: %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32 : i32
// CHECK-NEXT: %[[G1:[0-9]+]] = arith.remui %[[ROW1]], %c4_i32 : i32
// CHECK-NEXT: %[[H1:[0-9]+]] = arith.addi %[[HEAD]], %[[G1]] : i32
// CHECK: llvm.load
// CHECK: arith.select %[[HOLDS]], %{{[0-9]+}}, %[[NEG_INF]] : f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%sinks: !llvm.ptr<1>, %head: i32, %holds: i1, %n32: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %max, %sum = fa4.sink.rows %sinks[%head] if %holds {group = 4 : i64} : <64xf32>, !llvm.ptr<1>
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %max, %s = %sum) -> (!fa4.rows<64xf32>, !fa4.rows<64xf32>) {
        scf.yield %m, %s : !fa4.rows<64xf32>, !fa4.rows<64xf32>
      }
      gpu.return
    }
  }
}

// -----

// sm_100a: thread r of the warpgroup owns row r and its whole sum.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[SINKS:arg0]]: !llvm.ptr<1>, %[[HEAD:arg1]]: i32, %[[HOLDS:arg2]]: i1
// CHECK: %[[T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32 : i32
// CHECK: %[[G:[0-9]+]] = arith.remui %[[T]], %c8_i32 : i32
// CHECK-NEXT: %[[H:[0-9]+]] = arith.addi %[[HEAD]], %[[G]] : i32
// CHECK-NEXT: %[[I:[0-9]+]] = arith.extsi %[[H]] : i32 to i64
// CHECK-NEXT: %[[P:[0-9]+]] = llvm.getelementptr %[[SINKS]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[L:[0-9]+]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK-NEXT: %[[M:[0-9]+]] = arith.mulf %[[L]], %[[LOG2E]] : f32
// CHECK-NEXT: arith.select %[[HOLDS]], %[[M]], %[[NEG_INF]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.select %[[HOLDS]], %[[ONE]], %[[ZERO]] : f32
// CHECK-NOT: llvm.load
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @f(%sinks: !llvm.ptr<1>, %head: i32, %holds: i1, %n32: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %max, %sum = fa4.sink.rows %sinks[%head] if %holds {group = 8 : i64} : <128xf32>, !llvm.ptr<1>
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %max, %s = %sum) -> (!fa4.rows<128xf32>, !fa4.rows<128xf32>) {
        scf.yield %m, %s : !fa4.rows<128xf32>, !fa4.rows<128xf32>
      }
      gpu.return
    }
  }
}
