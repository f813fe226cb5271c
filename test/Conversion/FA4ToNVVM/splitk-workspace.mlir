// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The workspace combine of 138 partials for 8 q-heads, depth 80, by the
// warp of columns %column + lane (the third warp of a row, column 64, has
// lanes 16 and on past the depth).
// With B = %b and Sq = %sq, a row's partials lie side by side: partial s
// of row (batch, row, head) holds O at float
// (((batch * Sq + row) * 8 + head) * 138 + s) * 80 and its LSE at
// 138 * B * Sq * 8 * 80 + ((batch * 8 + head) * 138 + s) * Sq + row.
// CHECK-LABEL: llvm.func @combine(
// CHECK-SAME: %[[WS:arg0]]: !llvm.ptr<1>, %[[OUT:arg1]]: !llvm.ptr<1>, %[[LSE:arg2]]: !llvm.ptr<1>, %[[B:arg3]]: i32, %[[SQ:arg4]]: i32, {{.*}}, %[[BATCH:arg10]]: i32, %[[ROW:arg11]]: i32, %[[HEAD:arg12]]: i32, %[[COLUMN:arg13]]: i32)
// The lane: thread % 32.
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32 : i32
// CHECK-NEXT: %[[SQ64:.*]] = arith.extsi %[[SQ]] : i32 to i64
// The strides (SplitKWorkspaceLayout): O's by batch 138 * 80 * 8 * Sq, by
// row 138 * 80 * 8, by head 138 * 80; the LSEs' by head 138 * Sq, by batch
// 8 * 138 * Sq; the LSEs start past every row's O.
// CHECK-NEXT: %[[OBATCH:.*]] = arith.muli %[[SQ64]], %c88320_i64 : i64
// CHECK-NEXT: %[[LHEAD:.*]] = arith.muli %[[SQ64]], %c138_i64 : i64
// CHECK-NEXT: %[[LBATCH:.*]] = arith.muli %[[SQ64]], %c1104_i64 : i64
// CHECK-NEXT: %[[B64:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK-NEXT: %[[ALLO:.*]] = arith.muli %[[OBATCH]], %[[B64]] : i64
// The row's O: batch, row and head by their strides.
// CHECK-NEXT: %[[HEAD64:.*]] = arith.extsi %[[HEAD]] : i32 to i64
// CHECK-NEXT: %[[OHEAD:.*]] = arith.muli %[[HEAD64]], %c11040_i64 : i64
// CHECK-NEXT: %[[ROW64:.*]] = arith.extsi %[[ROW]] : i32 to i64
// CHECK-NEXT: %[[OROWAT:.*]] = arith.muli %[[ROW64]], %c88320_i64 : i64
// CHECK-NEXT: %[[BATCH64:.*]] = arith.extsi %[[BATCH]] : i32 to i64
// CHECK-NEXT: %[[OBATCHAT:.*]] = arith.muli %[[BATCH64]], %[[OBATCH]] : i64
// CHECK-NEXT: %[[OBR:.*]] = arith.addi %[[OBATCHAT]], %[[OROWAT]] : i64
// CHECK-NEXT: %[[OROW:.*]] = arith.addi %[[OBR]], %[[OHEAD]] : i64
// Its LSEs: past all O, then batch and head by their strides, plus the row.
// CHECK-NEXT: %[[LHEADAT:.*]] = arith.muli %[[HEAD64]], %[[LHEAD]] : i64
// CHECK-NEXT: %[[INROW:.*]] = arith.addi %[[LHEADAT]], %[[ROW64]] : i64
// CHECK-NEXT: %[[LBATCHAT:.*]] = arith.muli %[[BATCH64]], %[[LBATCH]] : i64
// CHECK-NEXT: %[[LB:.*]] = arith.addi %[[ALLO]], %[[LBATCHAT]] : i64
// CHECK-NEXT: %[[LSEROW:.*]] = arith.addi %[[LB]], %[[INROW]] : i64
// The lane's column, column + lane, against the depth of 80: a lane past
// it reads column 79 and stores nothing.
// CHECK: %[[LANE64:.*]] = arith.extsi %[[LANE]] : i32 to i64
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[COLUMN]], %[[LANE]] : i32
// CHECK-NEXT: %[[IN0:.*]] = arith.cmpi slt, %[[COL]], %c80_i32 : i32
// CHECK-NEXT: %[[READ:.*]] = arith.minsi %[[COL]], %c79_i32 : i32
// CHECK-NEXT: %[[READ64:.*]] = arith.extsi %[[READ]] : i32 to i64
// CHECK-NEXT: %[[AT0:.*]] = arith.addi %[[OROW]], %[[READ64]] : i64
// CHECK-NEXT: %[[COLUMN0:.*]] = llvm.getelementptr %[[WS]][%[[AT0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// One pass; a known count past three blocks (138) takes 64 partials a step
// while 64 remain (partials 0-127 here), with no clamp and no branch; carried: the running max (from -inf), four
// accumulators of the lane's column and the lane's weights' sum.
// CHECK: %[[FULL:.*]]:6 = scf.for %[[FIRST:.*]] = %c0_i64 to %c128_i64 step %c64_i64 iter_args(%[[RUNNING:.*]] = %[[NEGINF:cst[_0-9]*]], %[[A0:.*]] = %[[ZERO:cst[_0-9]*]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %[[WSUM:.*]] = %[[ZERO]]) -> (f32, f32, f32, f32, f32, f32)  : i64 {
// Every load of the step before any use: lane l's LSE of partial
// first + l, then its column of partials first ... first + 31, then the
// second block the same way.
// The step's partials at constant offsets (80 floats apart) from its
// first; lane l's LSE at (first + l) * Sq from the row's.
// CHECK-NEXT: %[[FIRSTAT:.*]] = arith.muli %[[FIRST]], %c80_i64 : i64
// CHECK-NEXT: %[[STEPBASE:.*]] = llvm.getelementptr %[[COLUMN0]][%[[FIRSTAT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[MINE:.*]] = arith.addi %[[FIRST]], %[[LANE64]] : i64
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %[[MINE]], %[[SQ64]] : i64
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[LSEROW]], %[[STEP]] : i64
// CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr %[[WS]][%[[AT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[L0:.*]] = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: llvm.load %[[STEPBASE]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[STEPBASE]][80] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.load %[[P1]]
// CHECK-NOT: arith.select
// CHECK-NOT: scf.if
// CHECK-NOT: arith.maximumf
// CHECK-COUNT-31: llvm.load
// CHECK-NOT: arith.maximumf
// CHECK-COUNT-32: llvm.load
// The step's max: the two blocks' LSEs, a butterfly, then the running max.
// CHECK-NEXT: %[[M2:.*]] = arith.maximumf %[[L0]], %{{.*}} : f32
// CHECK-NEXT: gpu.shuffle  xor %[[M2]], %c16_i32, %c32_i32 : f32
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK-NEXT: %[[STEPMAX:.*]] = arith.maximumf
// CHECK-NEXT: %[[NEWMAX:.*]] = arith.maximumf %[[RUNNING]], %[[STEPMAX]] : f32
// While every LSE so far is -inf the weights subtract 0, and the sums
// (all 0) keep scale 1; otherwise they scale by e^(old - new).
// CHECK-NEXT: %[[NOKEY:.*]] = arith.cmpf oeq, %[[NEWMAX]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[NOKEY]], %[[ZERO]], %[[NEWMAX]] : f32
// CHECK-NEXT: %[[DROP:.*]] = arith.subf %[[RUNNING]], %[[NEWMAX]] : f32
// CHECK-NEXT: %[[DROP2:.*]] = arith.mulf %[[DROP]], %[[LOG2E:.*]] : f32
// CHECK-NEXT: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[DROP2]]) : (f32) -> f32
// CHECK-NEXT: %[[WASNONE:.*]] = arith.cmpf oeq, %[[RUNNING]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[SCALE:.*]] = arith.select %[[WASNONE]], %{{.*}}, %[[E]] : f32
// CHECK-NEXT: %[[A0S:.*]] = arith.mulf %[[A0]], %[[SCALE]] : f32
// CHECK-COUNT-3: arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK-NEXT: %[[WSUMS:.*]] = arith.mulf %[[WSUM]], %[[SCALE]] : f32
// Lane l's weight e^(l_s - M) = 2^((l_s - M) log2 e) of partial
// first + l, and each lane's column of 32 partials weighted by shuffle,
// into four accumulators.
// CHECK-NEXT: %[[D0:.*]] = arith.subf %[[L0]], %[[SAFE]] : f32
// CHECK-NEXT: %[[D0L:.*]] = arith.mulf %[[D0]], %[[LOG2E]] : f32
// CHECK-NEXT: %[[W0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[D0L]]) : (f32) -> f32
// CHECK-NEXT: arith.addf %[[WSUMS]], %[[W0]] : f32
// CHECK-NEXT: %[[S0:.*]], %{{.*}} = gpu.shuffle  idx %[[W0]], %c0_i32, %c32_i32 : f32
// CHECK-NEXT: llvm.intr.fma(%{{.*}}, %[[S0]], %[[A0S]]) : (f32, f32, f32) -> f32
// CHECK-COUNT-31: gpu.shuffle  idx %[[W0]]
// CHECK: %[[W1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-COUNT-31: gpu.shuffle  idx %[[W1]]
// CHECK: %[[W63:.*]], %{{.*}} = gpu.shuffle  idx %[[W1]], %c31_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK-NEXT: %[[ACC3:.*]] = llvm.intr.fma(%{{.*}}, %[[W63]], %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: scf.yield %[[NEWMAX]], %{{.*}}, %{{.*}}, %{{.*}}, %[[ACC3]], %{{.*}}
// CHECK-NEXT: }
// ...then one clamped step of the rest (partials 128-137: one block, the
// branches folded here): lane l reads partial 128 + l, or 137 with LSE
// -inf past it (weight 0); every lane's column of partials 128-137 and
// 137 again.
// CHECK-NEXT: %[[TAILMINE:.*]] = arith.addi %[[LANE64]], %c128_i64 : i64
// CHECK-NEXT: %[[REAL:.*]] = arith.cmpi slt, %[[TAILMINE]], %c138_i64 : i64
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.select %[[REAL]], %[[TAILMINE]], %c137_i64 : i64
// CHECK: %[[TAILL:.*]] = llvm.load
// CHECK-NEXT: %[[TAILLSE:.*]] = arith.select %[[REAL]], %[[TAILL]], %[[NEGINF]] : f32
// CHECK-COUNT-10: llvm.load
// CHECK-NOT: llvm.load
// CHECK: gpu.shuffle  xor %[[TAILLSE]], %c16_i32, %c32_i32 : f32
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK-NEXT: %[[TAILSTEPMAX:.*]] = arith.maximumf
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[FULL]]#0, %[[TAILSTEPMAX]] : f32
// The rescale's ex2, then the weight's.
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: %[[TAILW:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-NEXT: %[[TOTALSTEP:.*]] = arith.addf %{{.*}}, %[[TAILW]] : f32
// CHECK-COUNT-32: gpu.shuffle  idx %[[TAILW]]
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
// run to the count's sign extension, a row's O is N partials of 64 floats,
// and the LSEs start past N partials of every row's O.
// CHECK-LABEL: llvm.func @combine_at_launch(
// CHECK-SAME: %[[WS:arg0]]: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[B:arg2]]: i32, %[[SQ:arg3]]: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[N:arg7]]: i32
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT: %[[SQ64:.*]] = arith.extsi %[[SQ]] : i32 to i64
// CHECK-NEXT: %[[OHEAD:.*]] = arith.muli %[[N64]], %c64_i64 : i64
// CHECK-NEXT: %[[OROW:.*]] = arith.muli %[[N64]], %c256_i64 : i64
// CHECK-NEXT: %[[OBATCH:.*]] = arith.muli %[[OROW]], %[[SQ64]] : i64
// CHECK-NEXT: %[[LHEAD:.*]] = arith.muli %[[N64]], %[[SQ64]] : i64
// CHECK-NEXT: arith.muli %[[LHEAD]], %c4_i64 : i64
// CHECK-NEXT: %[[B64:.*]] = arith.extsi %[[B]] : i32 to i64
// CHECK-NEXT: arith.muli %[[OBATCH]], %[[B64]] : i64
// CHECK: %[[LASTS:.*]] = arith.subi %[[N64]], %c1_i64 : i64
// The whole steps, three blocks each, end at 96 * (N / 96)...
// CHECK: %[[STEPS:.*]] = arith.divui %[[N64]], %c96_i64 : i64
// CHECK-NEXT: %[[FULLEND:.*]] = arith.muli %[[STEPS]], %c96_i64 : i64
// CHECK-NEXT: %[[FULL:.*]]:6 = scf.for %{{.*}} = %c0_i64 to %[[FULLEND]] step %c96_i64 iter_args(%{{.*}}) -> (f32, f32, f32, f32, f32, f32)  : i64 {
// CHECK-NOT: arith.select %{{.*}}, %{{.*}}, %[[LASTS]] : i64
// CHECK: scf.yield
// ...then one clamped step takes the rest: three blocks where more than
// 64 remain, else two where more than 32, else one where any remain (no
// LSE output here, so no max is carried out).
// CHECK: %[[REST:.*]] = arith.subi %[[N64]], %[[FULLEND]] : i64
// CHECK-NEXT: %[[THREE:.*]] = arith.cmpi sgt, %[[REST]], %c64_i64 : i64
// CHECK-NEXT: %[[TAIL:.*]]:5 = scf.if %[[THREE]] -> (f32, f32, f32, f32, f32) {
// CHECK-COUNT-3: arith.select %{{.*}}, %{{.*}}, %[[LASTS]] : i64
// CHECK: } else {
// CHECK-NEXT: %[[TWO:.*]] = arith.cmpi sgt, %[[REST]], %c32_i64 : i64
// CHECK-NEXT: scf.if %[[TWO]] -> (f32, f32, f32, f32, f32) {
// CHECK-COUNT-2: arith.select %{{.*}}, %{{.*}}, %[[LASTS]] : i64
// CHECK: } else {
// CHECK-NEXT: %[[ONE:.*]] = arith.cmpi sgt, %[[REST]], %c0_i64 : i64
// CHECK-NEXT: scf.if %[[ONE]] -> (f32, f32, f32, f32, f32) {
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[LASTS]] : i64
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[FULL]]#1, %[[FULL]]#2, %[[FULL]]#3, %[[FULL]]#4, %[[FULL]]#5
gpu.module @launch [#nvvm.target<chip = "sm_90a">] {
  gpu.func @combine_at_launch(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %b: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %partials: i32, %batch: i32, %row: i32, %head: i32, %column: i32) kernel {
    fa4.splitk.workspace_combine %partials partials from %ws to %out[%batch, %row, %head] column %column strides [%s0, %s1, %s2] b %b sq %sq heads 4 depth 64 of f16 : !llvm.ptr<1>, !llvm.ptr<1>
    gpu.return
  }
}

// A count known here and at most three blocks (40 partials: two) takes one
// clamped step with no loop: lane l's LSEs of partials l and 32 + l (-inf
// past 39), every lane's column of partials 0-39, all loaded before the
// step's max.
// CHECK-LABEL: llvm.func @combine_one_step(
// CHECK-NOT: scf.for
// CHECK-NOT: scf.if
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32 : i32
// CHECK: %[[LANE64:.*]] = arith.extsi %[[LANE]] : i32 to i64
// CHECK-NOT: arith.maximumf
// CHECK: %[[L0:.*]] = llvm.load
// CHECK-NEXT: %[[LSE0:.*]] = arith.select %{{.*}}, %[[L0]], %[[NEGINF:.*]] : f32
// CHECK-COUNT-32: llvm.load
// CHECK-NOT: arith.maximumf
// CHECK: %[[SECOND:.*]] = arith.addi %[[LANE64]], %c32_i64 : i64
// CHECK-NEXT: %[[REAL:.*]] = arith.cmpi slt, %[[SECOND]], %c40_i64 : i64
// CHECK-NEXT: arith.select %[[REAL]], %[[SECOND]], %c39_i64 : i64
// CHECK-NOT: arith.maximumf
// CHECK: %[[L1:.*]] = llvm.load
// CHECK-NEXT: %[[LSE1:.*]] = arith.select %[[REAL]], %[[L1]], %[[NEGINF]] : f32
// CHECK-COUNT-8: llvm.load
// CHECK-NOT: llvm.load
// CHECK: arith.maximumf %[[LSE0]], %[[LSE1]] : f32
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK-COUNT-64: gpu.shuffle  idx
// CHECK-NOT: gpu.shuffle  idx
// CHECK-NOT: scf.for
gpu.module @known [#nvvm.target<chip = "sm_90a">] {
  gpu.func @combine_one_step(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %b: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %batch: i32, %row: i32, %head: i32, %column: i32) kernel {
    %partials = arith.constant 40 : i32
    fa4.splitk.workspace_combine %partials partials from %ws to %out[%batch, %row, %head] column %column strides [%s0, %s1, %s2] b %b sq %sq heads 4 depth 64 of f16 : !llvm.ptr<1>, !llvm.ptr<1>
    gpu.return
  }
}
