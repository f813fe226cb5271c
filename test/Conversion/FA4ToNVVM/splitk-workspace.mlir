// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The workspace combine of 138 partials for 8 q-heads, depth 80, by the
// warp of columns %column + lane (the third warp of a row, column 64, has
// lanes 16 and on past the depth).
// With B = %b and Sq = %sq, partial s of row (batch, row, head) holds O at
// float ((s * B + batch) * Sq + row) * 8 + head) * 80 and its LSE at
// 138 * B * Sq * 8 * 80 + ((s * B + batch) * 8 + head) * Sq + row.
// CHECK-LABEL: llvm.func @combine(
// CHECK-SAME: %[[WS:arg0]]: !llvm.ptr<1>, %[[OUT:arg1]]: !llvm.ptr<1>, %[[LSE:arg2]]: !llvm.ptr<1>, %[[B:arg3]]: i32, %[[SQ:arg4]]: i32, {{.*}}, %[[COLUMN:arg13]]: i32)
// CHECK-DAG: %[[PARTIALBYTES:.*]] = arith.constant 88320 : i64
// The lane: thread % 32.
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32 : i32
// CHECK: %[[SQ64:.*]] = arith.extsi %[[SQ]] : i32 to i64
// CHECK-NEXT: %[[B64:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK-NEXT: %[[BSQ:.*]] = arith.muli %[[B64]], %[[SQ64]] : i64
// CHECK-NEXT: %[[ROWS:.*]] = arith.muli %[[BSQ]], %c8_i64 : i64
// CHECK: %[[LSEBASE:.*]] = arith.muli %[[BSQ]], %[[PARTIALBYTES]] : i64
// CHECK-NEXT: %[[LSEROW:.*]] = arith.addi %[[LSEBASE]], %{{.*}} : i64
// The maximum LSE over the 138 partials: lane l takes partials l, l + 32,
// l + 64, l + 96 in one step (past the last, the last again: the max is
// idempotent), then a butterfly over the warp.
// CHECK: %[[LANE64:.*]] = arith.extsi %[[LANE]] : i32 to i64
// CHECK-NEXT: %[[LANEMAX:.*]] = scf.for %[[S:.*]] = %[[LANE64]] to %c138_i64 step %c128_i64 iter_args(%[[RUNNING:.*]] = %cst{{.*}}) -> (f32)  : i64 {
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[S]], %c138_i64 : i64
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.select %[[IN]], %[[S]], %c137_i64 : i64
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %[[CLAMPED]], %[[ROWS]] : i64
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[LSEROW]], %[[STEP]] : i64
// CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr %[[WS]][%[[AT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[L:.*]] = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: arith.maximumf %[[RUNNING]], %[[L]] : f32
// CHECK-COUNT-3: arith.maximumf
// CHECK-NEXT: scf.yield
// CHECK: gpu.shuffle  xor %[[LANEMAX]], %c16_i32, %c32_i32 : f32
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf
// An all -inf row subtracts 0 instead.
// CHECK-NEXT: %[[NOKEY:.*]] = arith.cmpf oeq, %[[MAX]], %[[NEGINF:.*]] : f32
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[NOKEY]], %{{.*}}, %[[MAX]] : f32
// The lane's column, column + lane, against the depth of 80: a lane past
// it reads column 79 and stores nothing.
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[COLUMN]], %[[LANE]] : i32
// CHECK-NEXT: %[[IN0:.*]] = arith.cmpi slt, %[[COL]], %c80_i32 : i32
// CHECK-NEXT: %[[READ:.*]] = arith.minsi %[[COL]], %c79_i32 : i32
// O and the weights' sum: lane l's weight e^(l_s - M) = 2^((l_s - M)
// log2 e) of partial s = first + l, and each lane's column of 32 partials
// weighted by shuffle, into four accumulators. 64 partials a step while 64
// remain, with no clamp and no branch (partials 0-127 here)...
// CHECK: %[[FULL:.*]]:5 = scf.for %[[FIRST:.*]] = %c0_i64 to %c128_i64 step %c64_i64 iter_args({{.*}}) -> (f32, f32, f32, f32, f32)  : i64 {
// CHECK-NEXT: %[[MINE:.*]] = arith.addi %[[FIRST]], %[[LANE64]] : i64
// CHECK-NOT: arith.select
// CHECK-NOT: scf.if
// CHECK: arith.subf %{{.*}}, %[[SAFE]] : f32
// CHECK: %[[E0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-COUNT-32: gpu.shuffle  idx %[[E0]]
// CHECK-NOT: arith.select
// CHECK: %[[E1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-COUNT-31: gpu.shuffle  idx %[[E1]]
// CHECK: %[[W63:.*]], %{{.*}} = gpu.shuffle  idx %[[E1]], %c31_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[O63:.*]] = llvm.load
// CHECK-NEXT: %[[ACC3:.*]] = llvm.intr.fma(%[[O63]], %[[W63]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[ACC3]], %{{.*}}
// ...then 32 a step, clamped: past the last partial, the last one with
// weight 0 (here one step, partials 128-137, which canonicalize unrolls).
// CHECK-NEXT: }
// CHECK-NEXT: %[[TAILMINE:.*]] = arith.addi %[[LANE64]], %c128_i64 : i64
// CHECK-NEXT: %[[REAL:.*]] = arith.cmpi slt, %[[TAILMINE]], %c138_i64 : i64
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-NEXT: %[[W:.*]] = arith.select %[[REAL]], %[[E]], %{{.*}} : f32
// CHECK-NEXT: %[[TOTALSTEP:.*]] = arith.addf %[[FULL]]#4, %[[W]] : f32
// CHECK-COUNT-32: gpu.shuffle  idx %[[W]]
// CHECK-NOT: gpu.shuffle  idx
// CHECK-COUNT-3: arith.addf
// CHECK: gpu.shuffle  xor %[[TOTALSTEP]], %c16_i32
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf
// 1 / sum, 0 for a row no partial saw; O rounded to bf16, one column at a
// time.
// CHECK: %[[SEES:.*]] = arith.cmpf ogt, %[[TOTAL]], %{{.*}} : f32
// CHECK: scf.if %[[IN0]] {
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: llvm.getelementptr %[[OUT]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<1>
// LSE = M + ln(sum), from the lane of column 0.
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[COL]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[LOG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[TOTAL]]) : (f32) -> f32
// CHECK-NEXT: %[[LN:.*]] = arith.mulf %[[LOG]], %{{.*}} : f32
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addf %[[MAX]], %[[LN]] : f32
// CHECK-NEXT: arith.select %[[SEES]], %[[TOTAL]], %[[NEGINF]] : f32
// CHECK: llvm.getelementptr %[[LSE]]
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @combine(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %b: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %l0: i64, %l1: i64, %batch: i32, %row: i32, %head: i32, %column: i32) kernel {
    %partials = arith.constant 138 : i32
    fa4.splitk.workspace_combine %partials partials from %ws to %out[%batch, %row, %head] column %column strides [%s0, %s1, %s2] b %b sq %sq heads 8 depth 80 of bf16 lse %lse strides [%l0, %l1] : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>
    gpu.return
  }
}

// A count known only at launch (a split-K picked by the runtime): the loops
// run to the count's sign extension, and the LSEs start past that many
// partials of O.
// CHECK-LABEL: llvm.func @combine_at_launch(
// CHECK-SAME: %[[WS:arg0]]: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[B:arg2]]: i32, %[[SQ:arg3]]: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[N:arg7]]: i32
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[BSQ:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[OSTRIDE:.*]] = arith.muli %[[BSQ]], %c256_i64 : i64
// CHECK: arith.muli %[[N64]], %[[OSTRIDE]] : i64
// CHECK: %[[LASTS:.*]] = arith.subi %[[N64]], %c1_i64 : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N64]] step %c128_i64 iter_args(%{{.*}}) -> (f32)  : i64 {
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[LASTS]] : i64
// The full steps end at 64 * (N / 64); the clamped steps take the rest.
// CHECK: %[[STEPS:.*]] = arith.divui %[[N64]], %c64_i64 : i64
// CHECK-NEXT: %[[FULLEND:.*]] = arith.muli %[[STEPS]], %c64_i64 : i64
// CHECK-NEXT: %[[FULL:.*]]:5 = scf.for %{{.*}} = %c0_i64 to %[[FULLEND]] step %c64_i64 iter_args(%{{.*}}) -> (f32, f32, f32, f32, f32)  : i64 {
// CHECK: scf.for %{{.*}} = %[[FULLEND]] to %[[N64]] step %c32_i64 iter_args(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1, %{{.*}} = %[[FULL]]#2, %{{.*}} = %[[FULL]]#3, %{{.*}} = %[[FULL]]#4) -> (f32, f32, f32, f32, f32)  : i64 {
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[LASTS]] : i64
gpu.module @launch [#nvvm.target<chip = "sm_90a">] {
  gpu.func @combine_at_launch(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %b: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %partials: i32, %batch: i32, %row: i32, %head: i32, %column: i32) kernel {
    fa4.splitk.workspace_combine %partials partials from %ws to %out[%batch, %row, %head] column %column strides [%s0, %s1, %s2] b %b sq %sq heads 4 depth 64 of f16 : !llvm.ptr<1>, !llvm.ptr<1>
    gpu.return
  }
}
