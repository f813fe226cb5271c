// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm=fold-key-bound=0 | FileCheck %s --enable-var-scope

// The softmax side of the kernel on sm_90a registers. Thread t of a
// warpgroup holds, of a 64 x N f32 frag, register 4j + e at row
// 16 * (t / 32) + (t % 32) / 4 + 8 * (e / 2) (the fragment row, FROW, plus
// 8 for e = 2, 3) and column 8j + 2 * (t % 4) + e % 2 (the fragment column,
// FCOL, plus 8j + e % 2); a rows value is the two rows a thread owns. Both
// thread-only values are computed once at the kernel entry, outside the
// K/V loop. The frags in these cases are loop-carried (scf.for iter_args),
// so each register is a distinct block argument and the checks can tell
// which register goes where. The masks here are lowered with two compares
// per score (fold-key-bound=0); mask-fold-key-bound.mlir checks the default,
// which folds the Skv bound into the upper diagonal.

// fa4.mask, causal, on a 64 x 16 tile: one warp-uniform test of whether the
// tile reaches Skv (last key >= skv) or crosses the diagonal for any of its
// 64 rows (last key > first row + skv - sq); interior tiles pass the
// registers through unchanged (else branch). Edge tiles compare each
// register's key (first key + FCOL + 0, 1, 0, 1, 8, 9, 8, 9) against skv
// and against its row's diagonal (registers 0, 1, 4, 5 on query row
// first row + FROW, 2, 3, 6, 7 on first row + FROW + 8; the / 1 is the GQA
// group, 1 by default) and select -inf where it is hidden.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: %[[TC:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TC4:[0-9]+]] = arith.remui %[[TC]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[TC4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TR:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LANE:[0-9]+]] = arith.remui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LQ:[0-9]+]] = arith.divui %[[LANE]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[WARP:[0-9]+]] = arith.divui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[W16:[0-9]+]] = arith.muli %[[WARP]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %[[W16]], %[[LQ]] : i32
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S7:[a-z0-9]+]] = %{{[a-z0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[CLK:.+]] = arith.constant 15 : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.addi %[[KEY]], %[[CLK]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CLD:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[LASTDIAG:[0-9]+]] = arith.addi %[[DIAG]], %[[CLD]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[LASTKEY]], %[[SKV]] : i32
// CHECK-NEXT: %[[ABOVE:[0-9]+]] = arith.cmpi sgt, %[[LASTKEY]], %[[DIAG]] : i32
// CHECK-NEXT: %[[NEEDS1:[0-9]+]] = arith.ori %[[PAST]], %[[ABOVE]] : i1
// CHECK-NEXT: %[[RES:[0-9]+]]:8 = scf.if %[[NEEDS1]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[G0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[FROW]], %[[G0]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK: %[[TR1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[QR1:[0-9]+]] = arith.divui %[[TR1]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[CK0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC0:[0-9]+]] = arith.addi %[[FCOL]], %[[CK0]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %[[KC0]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi slt, %[[K0]], %[[SKV]] : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE0:[0-9]+]] = arith.cmpi sle, %[[K0]], %[[D0]] : i32
// CHECK-NEXT: %[[A0_1:[0-9]+]] = arith.andi %[[V0]], %[[LE0]] : i1
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[A0_1]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC1:[0-9]+]] = arith.addi %[[FCOL]], %[[CK1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = arith.addi %[[KEY]], %[[KC1]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[SKV]] : i32
// CHECK-NEXT: %[[D1:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE1:[0-9]+]] = arith.cmpi sle, %[[K1]], %[[D1]] : i32
// CHECK-NEXT: %[[A1_1:[0-9]+]] = arith.andi %[[V1]], %[[LE1]] : i1
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[A1_1]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC2:[0-9]+]] = arith.addi %[[FCOL]], %[[CK2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = arith.addi %[[KEY]], %[[KC2]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = arith.cmpi slt, %[[K2]], %[[SKV]] : i32
// CHECK-NEXT: %[[D2:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE2:[0-9]+]] = arith.cmpi sle, %[[K2]], %[[D2]] : i32
// CHECK-NEXT: %[[A2_1:[0-9]+]] = arith.andi %[[V2]], %[[LE2]] : i1
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[A2_1]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC3:[0-9]+]] = arith.addi %[[FCOL]], %[[CK3]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = arith.addi %[[KEY]], %[[KC3]] : i32
// CHECK-NEXT: %[[V3:[0-9]+]] = arith.cmpi slt, %[[K3]], %[[SKV]] : i32
// CHECK-NEXT: %[[D3:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE3:[0-9]+]] = arith.cmpi sle, %[[K3]], %[[D3]] : i32
// CHECK-NEXT: %[[A3_1:[0-9]+]] = arith.andi %[[V3]], %[[LE3]] : i1
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[A3_1]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK4:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC4:[0-9]+]] = arith.addi %[[FCOL]], %[[CK4]] : i32
// CHECK-NEXT: %[[K4:[0-9]+]] = arith.addi %[[KEY]], %[[KC4]] : i32
// CHECK-NEXT: %[[V4:[0-9]+]] = arith.cmpi slt, %[[K4]], %[[SKV]] : i32
// CHECK-NEXT: %[[D4:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE4:[0-9]+]] = arith.cmpi sle, %[[K4]], %[[D4]] : i32
// CHECK-NEXT: %[[A4_1:[0-9]+]] = arith.andi %[[V4]], %[[LE4]] : i1
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[A4_1]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK5:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC5:[0-9]+]] = arith.addi %[[FCOL]], %[[CK5]] : i32
// CHECK-NEXT: %[[K5:[0-9]+]] = arith.addi %[[KEY]], %[[KC5]] : i32
// CHECK-NEXT: %[[V5:[0-9]+]] = arith.cmpi slt, %[[K5]], %[[SKV]] : i32
// CHECK-NEXT: %[[D5:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE5:[0-9]+]] = arith.cmpi sle, %[[K5]], %[[D5]] : i32
// CHECK-NEXT: %[[A5_1:[0-9]+]] = arith.andi %[[V5]], %[[LE5]] : i1
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[A5_1]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK6:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC6:[0-9]+]] = arith.addi %[[FCOL]], %[[CK6]] : i32
// CHECK-NEXT: %[[K6:[0-9]+]] = arith.addi %[[KEY]], %[[KC6]] : i32
// CHECK-NEXT: %[[V6:[0-9]+]] = arith.cmpi slt, %[[K6]], %[[SKV]] : i32
// CHECK-NEXT: %[[D6:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE6:[0-9]+]] = arith.cmpi sle, %[[K6]], %[[D6]] : i32
// CHECK-NEXT: %[[A6_1:[0-9]+]] = arith.andi %[[V6]], %[[LE6]] : i1
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[A6_1]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK7:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC7:[0-9]+]] = arith.addi %[[FCOL]], %[[CK7]] : i32
// CHECK-NEXT: %[[K7:[0-9]+]] = arith.addi %[[KEY]], %[[KC7]] : i32
// CHECK-NEXT: %[[V7:[0-9]+]] = arith.cmpi slt, %[[K7]], %[[SKV]] : i32
// CHECK-NEXT: %[[D7:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LE7:[0-9]+]] = arith.cmpi sle, %[[K7]], %[[D7]] : i32
// CHECK-NEXT: %[[A7_1:[0-9]+]] = arith.andi %[[V7]], %[[LE7]] : i1
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[A7_1]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[RES]]#0, %[[RES]]#1, %[[RES]]#2, %[[RES]]#3, %[[RES]]#4, %[[RES]]#5, %[[RES]]#6, %[[RES]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
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

// Sliding window (128, 0): key j is visible to row i iff
// i + d - 128 <= j <= i + d (d = skv - sq). The edge test adds "last key
// past the first row's right bound" (first diagonal + 0) and "first key
// before the last row's left bound" (first diagonal + 63 - 128); each
// register keeps key <= diagonal + 0 and key >= diagonal - 128.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: %[[TC:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TC4:[0-9]+]] = arith.remui %[[TC]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[TC4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TR:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LANE:[0-9]+]] = arith.remui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LQ:[0-9]+]] = arith.divui %[[LANE]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[WARP:[0-9]+]] = arith.divui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[W16:[0-9]+]] = arith.muli %[[WARP]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %[[W16]], %[[LQ]] : i32
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S7:[a-z0-9]+]] = %{{[a-z0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[CLK:.+]] = arith.constant 15 : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.addi %[[KEY]], %[[CLK]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CLD:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[LASTDIAG:[0-9]+]] = arith.addi %[[DIAG]], %[[CLD]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[LASTKEY]], %[[SKV]] : i32
// CHECK-NEXT: %[[CR:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD:[0-9]+]] = arith.addi %[[DIAG]], %[[CR]] : i32
// CHECK-NEXT: %[[ABOVE:[0-9]+]] = arith.cmpi sgt, %[[LASTKEY]], %[[RD]] : i32
// CHECK-NEXT: %[[NEEDS1:[0-9]+]] = arith.ori %[[PAST]], %[[ABOVE]] : i1
// CHECK-NEXT: %[[CL:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD:[0-9]+]] = arith.subi %[[LASTDIAG]], %[[CL]] : i32
// CHECK-NEXT: %[[BELOW:[0-9]+]] = arith.cmpi slt, %[[KEY]], %[[LD]] : i32
// CHECK-NEXT: %[[NEEDS2:[0-9]+]] = arith.ori %[[NEEDS1]], %[[BELOW]] : i1
// CHECK-NEXT: %[[RES:[0-9]+]]:8 = scf.if %[[NEEDS2]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[G0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[FROW]], %[[G0]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK: %[[TR1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[QR1:[0-9]+]] = arith.divui %[[TR1]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[CK0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC0:[0-9]+]] = arith.addi %[[FCOL]], %[[CK0]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %[[KC0]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi slt, %[[K0]], %[[SKV]] : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD0:[0-9]+]] = arith.addi %[[D0]], %[[CR0]] : i32
// CHECK-NEXT: %[[LE0:[0-9]+]] = arith.cmpi sle, %[[K0]], %[[RD0]] : i32
// CHECK-NEXT: %[[A0_1:[0-9]+]] = arith.andi %[[V0]], %[[LE0]] : i1
// CHECK-NEXT: %[[CL0:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD0:[0-9]+]] = arith.subi %[[D0]], %[[CL0]] : i32
// CHECK-NEXT: %[[GE0:[0-9]+]] = arith.cmpi sge, %[[K0]], %[[LD0]] : i32
// CHECK-NEXT: %[[A0_2:[0-9]+]] = arith.andi %[[A0_1]], %[[GE0]] : i1
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[A0_2]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC1:[0-9]+]] = arith.addi %[[FCOL]], %[[CK1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = arith.addi %[[KEY]], %[[KC1]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[SKV]] : i32
// CHECK-NEXT: %[[D1:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD1:[0-9]+]] = arith.addi %[[D1]], %[[CR1]] : i32
// CHECK-NEXT: %[[LE1:[0-9]+]] = arith.cmpi sle, %[[K1]], %[[RD1]] : i32
// CHECK-NEXT: %[[A1_1:[0-9]+]] = arith.andi %[[V1]], %[[LE1]] : i1
// CHECK-NEXT: %[[CL1:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD1:[0-9]+]] = arith.subi %[[D1]], %[[CL1]] : i32
// CHECK-NEXT: %[[GE1:[0-9]+]] = arith.cmpi sge, %[[K1]], %[[LD1]] : i32
// CHECK-NEXT: %[[A1_2:[0-9]+]] = arith.andi %[[A1_1]], %[[GE1]] : i1
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[A1_2]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC2:[0-9]+]] = arith.addi %[[FCOL]], %[[CK2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = arith.addi %[[KEY]], %[[KC2]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = arith.cmpi slt, %[[K2]], %[[SKV]] : i32
// CHECK-NEXT: %[[D2:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD2:[0-9]+]] = arith.addi %[[D2]], %[[CR2]] : i32
// CHECK-NEXT: %[[LE2:[0-9]+]] = arith.cmpi sle, %[[K2]], %[[RD2]] : i32
// CHECK-NEXT: %[[A2_1:[0-9]+]] = arith.andi %[[V2]], %[[LE2]] : i1
// CHECK-NEXT: %[[CL2:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD2:[0-9]+]] = arith.subi %[[D2]], %[[CL2]] : i32
// CHECK-NEXT: %[[GE2:[0-9]+]] = arith.cmpi sge, %[[K2]], %[[LD2]] : i32
// CHECK-NEXT: %[[A2_2:[0-9]+]] = arith.andi %[[A2_1]], %[[GE2]] : i1
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[A2_2]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC3:[0-9]+]] = arith.addi %[[FCOL]], %[[CK3]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = arith.addi %[[KEY]], %[[KC3]] : i32
// CHECK-NEXT: %[[V3:[0-9]+]] = arith.cmpi slt, %[[K3]], %[[SKV]] : i32
// CHECK-NEXT: %[[D3:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR3:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD3:[0-9]+]] = arith.addi %[[D3]], %[[CR3]] : i32
// CHECK-NEXT: %[[LE3:[0-9]+]] = arith.cmpi sle, %[[K3]], %[[RD3]] : i32
// CHECK-NEXT: %[[A3_1:[0-9]+]] = arith.andi %[[V3]], %[[LE3]] : i1
// CHECK-NEXT: %[[CL3:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD3:[0-9]+]] = arith.subi %[[D3]], %[[CL3]] : i32
// CHECK-NEXT: %[[GE3:[0-9]+]] = arith.cmpi sge, %[[K3]], %[[LD3]] : i32
// CHECK-NEXT: %[[A3_2:[0-9]+]] = arith.andi %[[A3_1]], %[[GE3]] : i1
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[A3_2]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK4:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC4:[0-9]+]] = arith.addi %[[FCOL]], %[[CK4]] : i32
// CHECK-NEXT: %[[K4:[0-9]+]] = arith.addi %[[KEY]], %[[KC4]] : i32
// CHECK-NEXT: %[[V4:[0-9]+]] = arith.cmpi slt, %[[K4]], %[[SKV]] : i32
// CHECK-NEXT: %[[D4:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR4:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD4:[0-9]+]] = arith.addi %[[D4]], %[[CR4]] : i32
// CHECK-NEXT: %[[LE4:[0-9]+]] = arith.cmpi sle, %[[K4]], %[[RD4]] : i32
// CHECK-NEXT: %[[A4_1:[0-9]+]] = arith.andi %[[V4]], %[[LE4]] : i1
// CHECK-NEXT: %[[CL4:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD4:[0-9]+]] = arith.subi %[[D4]], %[[CL4]] : i32
// CHECK-NEXT: %[[GE4:[0-9]+]] = arith.cmpi sge, %[[K4]], %[[LD4]] : i32
// CHECK-NEXT: %[[A4_2:[0-9]+]] = arith.andi %[[A4_1]], %[[GE4]] : i1
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[A4_2]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK5:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC5:[0-9]+]] = arith.addi %[[FCOL]], %[[CK5]] : i32
// CHECK-NEXT: %[[K5:[0-9]+]] = arith.addi %[[KEY]], %[[KC5]] : i32
// CHECK-NEXT: %[[V5:[0-9]+]] = arith.cmpi slt, %[[K5]], %[[SKV]] : i32
// CHECK-NEXT: %[[D5:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR5:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD5:[0-9]+]] = arith.addi %[[D5]], %[[CR5]] : i32
// CHECK-NEXT: %[[LE5:[0-9]+]] = arith.cmpi sle, %[[K5]], %[[RD5]] : i32
// CHECK-NEXT: %[[A5_1:[0-9]+]] = arith.andi %[[V5]], %[[LE5]] : i1
// CHECK-NEXT: %[[CL5:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD5:[0-9]+]] = arith.subi %[[D5]], %[[CL5]] : i32
// CHECK-NEXT: %[[GE5:[0-9]+]] = arith.cmpi sge, %[[K5]], %[[LD5]] : i32
// CHECK-NEXT: %[[A5_2:[0-9]+]] = arith.andi %[[A5_1]], %[[GE5]] : i1
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[A5_2]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK6:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC6:[0-9]+]] = arith.addi %[[FCOL]], %[[CK6]] : i32
// CHECK-NEXT: %[[K6:[0-9]+]] = arith.addi %[[KEY]], %[[KC6]] : i32
// CHECK-NEXT: %[[V6:[0-9]+]] = arith.cmpi slt, %[[K6]], %[[SKV]] : i32
// CHECK-NEXT: %[[D6:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR6:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD6:[0-9]+]] = arith.addi %[[D6]], %[[CR6]] : i32
// CHECK-NEXT: %[[LE6:[0-9]+]] = arith.cmpi sle, %[[K6]], %[[RD6]] : i32
// CHECK-NEXT: %[[A6_1:[0-9]+]] = arith.andi %[[V6]], %[[LE6]] : i1
// CHECK-NEXT: %[[CL6:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD6:[0-9]+]] = arith.subi %[[D6]], %[[CL6]] : i32
// CHECK-NEXT: %[[GE6:[0-9]+]] = arith.cmpi sge, %[[K6]], %[[LD6]] : i32
// CHECK-NEXT: %[[A6_2:[0-9]+]] = arith.andi %[[A6_1]], %[[GE6]] : i1
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[A6_2]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK7:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC7:[0-9]+]] = arith.addi %[[FCOL]], %[[CK7]] : i32
// CHECK-NEXT: %[[K7:[0-9]+]] = arith.addi %[[KEY]], %[[KC7]] : i32
// CHECK-NEXT: %[[V7:[0-9]+]] = arith.cmpi slt, %[[K7]], %[[SKV]] : i32
// CHECK-NEXT: %[[D7:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR7:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[RD7:[0-9]+]] = arith.addi %[[D7]], %[[CR7]] : i32
// CHECK-NEXT: %[[LE7:[0-9]+]] = arith.cmpi sle, %[[K7]], %[[RD7]] : i32
// CHECK-NEXT: %[[A7_1:[0-9]+]] = arith.andi %[[V7]], %[[LE7]] : i1
// CHECK-NEXT: %[[CL7:.+]] = arith.constant 128 : i32
// CHECK-NEXT: %[[LD7:[0-9]+]] = arith.subi %[[D7]], %[[CL7]] : i32
// CHECK-NEXT: %[[GE7:[0-9]+]] = arith.cmpi sge, %[[K7]], %[[LD7]] : i32
// CHECK-NEXT: %[[A7_2:[0-9]+]] = arith.andi %[[A7_1]], %[[GE7]] : i1
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[A7_2]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[RES]]#0, %[[RES]]#1, %[[RES]]#2, %[[RES]]#3, %[[RES]]#4, %[[RES]]#5, %[[RES]]#6, %[[RES]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !fa4.frag<64x16xf32> {
        %m = fa4.mask %s mask #attn.mask<window(128, 0)> keys %key rows %row sq %sq skv %skv : <64x16xf32>
        scf.yield %m : !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// Window (17, 33): the bounds land where they belong, right (33) on the
// upper test and left (17) on the lower one, not swapped.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: %[[TC:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TC4:[0-9]+]] = arith.remui %[[TC]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[TC4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TR:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LANE:[0-9]+]] = arith.remui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LQ:[0-9]+]] = arith.divui %[[LANE]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[WARP:[0-9]+]] = arith.divui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[W16:[0-9]+]] = arith.muli %[[WARP]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %[[W16]], %[[LQ]] : i32
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S7:[a-z0-9]+]] = %{{[a-z0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[CLK:.+]] = arith.constant 15 : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.addi %[[KEY]], %[[CLK]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CLD:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[LASTDIAG:[0-9]+]] = arith.addi %[[DIAG]], %[[CLD]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[LASTKEY]], %[[SKV]] : i32
// CHECK-NEXT: %[[CR:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD:[0-9]+]] = arith.addi %[[DIAG]], %[[CR]] : i32
// CHECK-NEXT: %[[ABOVE:[0-9]+]] = arith.cmpi sgt, %[[LASTKEY]], %[[RD]] : i32
// CHECK-NEXT: %[[NEEDS1:[0-9]+]] = arith.ori %[[PAST]], %[[ABOVE]] : i1
// CHECK-NEXT: %[[CL:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD:[0-9]+]] = arith.subi %[[LASTDIAG]], %[[CL]] : i32
// CHECK-NEXT: %[[BELOW:[0-9]+]] = arith.cmpi slt, %[[KEY]], %[[LD]] : i32
// CHECK-NEXT: %[[NEEDS2:[0-9]+]] = arith.ori %[[NEEDS1]], %[[BELOW]] : i1
// CHECK-NEXT: %[[RES:[0-9]+]]:8 = scf.if %[[NEEDS2]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[G0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[FROW]], %[[G0]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK: %[[TR1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[QR1:[0-9]+]] = arith.divui %[[TR1]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[CK0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC0:[0-9]+]] = arith.addi %[[FCOL]], %[[CK0]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %[[KC0]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi slt, %[[K0]], %[[SKV]] : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR0:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD0:[0-9]+]] = arith.addi %[[D0]], %[[CR0]] : i32
// CHECK-NEXT: %[[LE0:[0-9]+]] = arith.cmpi sle, %[[K0]], %[[RD0]] : i32
// CHECK-NEXT: %[[A0_1:[0-9]+]] = arith.andi %[[V0]], %[[LE0]] : i1
// CHECK-NEXT: %[[CL0:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD0:[0-9]+]] = arith.subi %[[D0]], %[[CL0]] : i32
// CHECK-NEXT: %[[GE0:[0-9]+]] = arith.cmpi sge, %[[K0]], %[[LD0]] : i32
// CHECK-NEXT: %[[A0_2:[0-9]+]] = arith.andi %[[A0_1]], %[[GE0]] : i1
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[A0_2]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC1:[0-9]+]] = arith.addi %[[FCOL]], %[[CK1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = arith.addi %[[KEY]], %[[KC1]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[SKV]] : i32
// CHECK-NEXT: %[[D1:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR1:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD1:[0-9]+]] = arith.addi %[[D1]], %[[CR1]] : i32
// CHECK-NEXT: %[[LE1:[0-9]+]] = arith.cmpi sle, %[[K1]], %[[RD1]] : i32
// CHECK-NEXT: %[[A1_1:[0-9]+]] = arith.andi %[[V1]], %[[LE1]] : i1
// CHECK-NEXT: %[[CL1:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD1:[0-9]+]] = arith.subi %[[D1]], %[[CL1]] : i32
// CHECK-NEXT: %[[GE1:[0-9]+]] = arith.cmpi sge, %[[K1]], %[[LD1]] : i32
// CHECK-NEXT: %[[A1_2:[0-9]+]] = arith.andi %[[A1_1]], %[[GE1]] : i1
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[A1_2]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC2:[0-9]+]] = arith.addi %[[FCOL]], %[[CK2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = arith.addi %[[KEY]], %[[KC2]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = arith.cmpi slt, %[[K2]], %[[SKV]] : i32
// CHECK-NEXT: %[[D2:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR2:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD2:[0-9]+]] = arith.addi %[[D2]], %[[CR2]] : i32
// CHECK-NEXT: %[[LE2:[0-9]+]] = arith.cmpi sle, %[[K2]], %[[RD2]] : i32
// CHECK-NEXT: %[[A2_1:[0-9]+]] = arith.andi %[[V2]], %[[LE2]] : i1
// CHECK-NEXT: %[[CL2:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD2:[0-9]+]] = arith.subi %[[D2]], %[[CL2]] : i32
// CHECK-NEXT: %[[GE2:[0-9]+]] = arith.cmpi sge, %[[K2]], %[[LD2]] : i32
// CHECK-NEXT: %[[A2_2:[0-9]+]] = arith.andi %[[A2_1]], %[[GE2]] : i1
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[A2_2]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC3:[0-9]+]] = arith.addi %[[FCOL]], %[[CK3]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = arith.addi %[[KEY]], %[[KC3]] : i32
// CHECK-NEXT: %[[V3:[0-9]+]] = arith.cmpi slt, %[[K3]], %[[SKV]] : i32
// CHECK-NEXT: %[[D3:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR3:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD3:[0-9]+]] = arith.addi %[[D3]], %[[CR3]] : i32
// CHECK-NEXT: %[[LE3:[0-9]+]] = arith.cmpi sle, %[[K3]], %[[RD3]] : i32
// CHECK-NEXT: %[[A3_1:[0-9]+]] = arith.andi %[[V3]], %[[LE3]] : i1
// CHECK-NEXT: %[[CL3:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD3:[0-9]+]] = arith.subi %[[D3]], %[[CL3]] : i32
// CHECK-NEXT: %[[GE3:[0-9]+]] = arith.cmpi sge, %[[K3]], %[[LD3]] : i32
// CHECK-NEXT: %[[A3_2:[0-9]+]] = arith.andi %[[A3_1]], %[[GE3]] : i1
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[A3_2]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK4:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC4:[0-9]+]] = arith.addi %[[FCOL]], %[[CK4]] : i32
// CHECK-NEXT: %[[K4:[0-9]+]] = arith.addi %[[KEY]], %[[KC4]] : i32
// CHECK-NEXT: %[[V4:[0-9]+]] = arith.cmpi slt, %[[K4]], %[[SKV]] : i32
// CHECK-NEXT: %[[D4:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR4:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD4:[0-9]+]] = arith.addi %[[D4]], %[[CR4]] : i32
// CHECK-NEXT: %[[LE4:[0-9]+]] = arith.cmpi sle, %[[K4]], %[[RD4]] : i32
// CHECK-NEXT: %[[A4_1:[0-9]+]] = arith.andi %[[V4]], %[[LE4]] : i1
// CHECK-NEXT: %[[CL4:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD4:[0-9]+]] = arith.subi %[[D4]], %[[CL4]] : i32
// CHECK-NEXT: %[[GE4:[0-9]+]] = arith.cmpi sge, %[[K4]], %[[LD4]] : i32
// CHECK-NEXT: %[[A4_2:[0-9]+]] = arith.andi %[[A4_1]], %[[GE4]] : i1
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[A4_2]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK5:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC5:[0-9]+]] = arith.addi %[[FCOL]], %[[CK5]] : i32
// CHECK-NEXT: %[[K5:[0-9]+]] = arith.addi %[[KEY]], %[[KC5]] : i32
// CHECK-NEXT: %[[V5:[0-9]+]] = arith.cmpi slt, %[[K5]], %[[SKV]] : i32
// CHECK-NEXT: %[[D5:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR5:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD5:[0-9]+]] = arith.addi %[[D5]], %[[CR5]] : i32
// CHECK-NEXT: %[[LE5:[0-9]+]] = arith.cmpi sle, %[[K5]], %[[RD5]] : i32
// CHECK-NEXT: %[[A5_1:[0-9]+]] = arith.andi %[[V5]], %[[LE5]] : i1
// CHECK-NEXT: %[[CL5:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD5:[0-9]+]] = arith.subi %[[D5]], %[[CL5]] : i32
// CHECK-NEXT: %[[GE5:[0-9]+]] = arith.cmpi sge, %[[K5]], %[[LD5]] : i32
// CHECK-NEXT: %[[A5_2:[0-9]+]] = arith.andi %[[A5_1]], %[[GE5]] : i1
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[A5_2]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK6:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC6:[0-9]+]] = arith.addi %[[FCOL]], %[[CK6]] : i32
// CHECK-NEXT: %[[K6:[0-9]+]] = arith.addi %[[KEY]], %[[KC6]] : i32
// CHECK-NEXT: %[[V6:[0-9]+]] = arith.cmpi slt, %[[K6]], %[[SKV]] : i32
// CHECK-NEXT: %[[D6:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR6:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD6:[0-9]+]] = arith.addi %[[D6]], %[[CR6]] : i32
// CHECK-NEXT: %[[LE6:[0-9]+]] = arith.cmpi sle, %[[K6]], %[[RD6]] : i32
// CHECK-NEXT: %[[A6_1:[0-9]+]] = arith.andi %[[V6]], %[[LE6]] : i1
// CHECK-NEXT: %[[CL6:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD6:[0-9]+]] = arith.subi %[[D6]], %[[CL6]] : i32
// CHECK-NEXT: %[[GE6:[0-9]+]] = arith.cmpi sge, %[[K6]], %[[LD6]] : i32
// CHECK-NEXT: %[[A6_2:[0-9]+]] = arith.andi %[[A6_1]], %[[GE6]] : i1
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[A6_2]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK7:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC7:[0-9]+]] = arith.addi %[[FCOL]], %[[CK7]] : i32
// CHECK-NEXT: %[[K7:[0-9]+]] = arith.addi %[[KEY]], %[[KC7]] : i32
// CHECK-NEXT: %[[V7:[0-9]+]] = arith.cmpi slt, %[[K7]], %[[SKV]] : i32
// CHECK-NEXT: %[[D7:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR7:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD7:[0-9]+]] = arith.addi %[[D7]], %[[CR7]] : i32
// CHECK-NEXT: %[[LE7:[0-9]+]] = arith.cmpi sle, %[[K7]], %[[RD7]] : i32
// CHECK-NEXT: %[[A7_1:[0-9]+]] = arith.andi %[[V7]], %[[LE7]] : i1
// CHECK-NEXT: %[[CL7:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD7:[0-9]+]] = arith.subi %[[D7]], %[[CL7]] : i32
// CHECK-NEXT: %[[GE7:[0-9]+]] = arith.cmpi sge, %[[K7]], %[[LD7]] : i32
// CHECK-NEXT: %[[A7_2:[0-9]+]] = arith.andi %[[A7_1]], %[[GE7]] : i1
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[A7_2]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[RES]]#0, %[[RES]]#1, %[[RES]]#2, %[[RES]]#3, %[[RES]]#4, %[[RES]]#5, %[[RES]]#6, %[[RES]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
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

// Window (40, -1): -1 leaves the right side unbounded, so neither the edge
// test nor the registers compare against an upper bound.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: %[[TC:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TC4:[0-9]+]] = arith.remui %[[TC]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[TC4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TR:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LANE:[0-9]+]] = arith.remui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LQ:[0-9]+]] = arith.divui %[[LANE]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[WARP:[0-9]+]] = arith.divui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[W16:[0-9]+]] = arith.muli %[[WARP]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %[[W16]], %[[LQ]] : i32
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S7:[a-z0-9]+]] = %{{[a-z0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[CLK:.+]] = arith.constant 15 : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.addi %[[KEY]], %[[CLK]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CLD:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[LASTDIAG:[0-9]+]] = arith.addi %[[DIAG]], %[[CLD]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[LASTKEY]], %[[SKV]] : i32
// CHECK-NEXT: %[[CL:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD:[0-9]+]] = arith.subi %[[LASTDIAG]], %[[CL]] : i32
// CHECK-NEXT: %[[BELOW:[0-9]+]] = arith.cmpi slt, %[[KEY]], %[[LD]] : i32
// CHECK-NEXT: %[[NEEDS1:[0-9]+]] = arith.ori %[[PAST]], %[[BELOW]] : i1
// CHECK-NEXT: %[[RES:[0-9]+]]:8 = scf.if %[[NEEDS1]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[G0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[FROW]], %[[G0]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK: %[[TR1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[QR1:[0-9]+]] = arith.divui %[[TR1]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[CK0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC0:[0-9]+]] = arith.addi %[[FCOL]], %[[CK0]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %[[KC0]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi slt, %[[K0]], %[[SKV]] : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL0:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD0:[0-9]+]] = arith.subi %[[D0]], %[[CL0]] : i32
// CHECK-NEXT: %[[GE0:[0-9]+]] = arith.cmpi sge, %[[K0]], %[[LD0]] : i32
// CHECK-NEXT: %[[A0_1:[0-9]+]] = arith.andi %[[V0]], %[[GE0]] : i1
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[A0_1]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC1:[0-9]+]] = arith.addi %[[FCOL]], %[[CK1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = arith.addi %[[KEY]], %[[KC1]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[SKV]] : i32
// CHECK-NEXT: %[[D1:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL1:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD1:[0-9]+]] = arith.subi %[[D1]], %[[CL1]] : i32
// CHECK-NEXT: %[[GE1:[0-9]+]] = arith.cmpi sge, %[[K1]], %[[LD1]] : i32
// CHECK-NEXT: %[[A1_1:[0-9]+]] = arith.andi %[[V1]], %[[GE1]] : i1
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[A1_1]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC2:[0-9]+]] = arith.addi %[[FCOL]], %[[CK2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = arith.addi %[[KEY]], %[[KC2]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = arith.cmpi slt, %[[K2]], %[[SKV]] : i32
// CHECK-NEXT: %[[D2:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL2:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD2:[0-9]+]] = arith.subi %[[D2]], %[[CL2]] : i32
// CHECK-NEXT: %[[GE2:[0-9]+]] = arith.cmpi sge, %[[K2]], %[[LD2]] : i32
// CHECK-NEXT: %[[A2_1:[0-9]+]] = arith.andi %[[V2]], %[[GE2]] : i1
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[A2_1]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC3:[0-9]+]] = arith.addi %[[FCOL]], %[[CK3]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = arith.addi %[[KEY]], %[[KC3]] : i32
// CHECK-NEXT: %[[V3:[0-9]+]] = arith.cmpi slt, %[[K3]], %[[SKV]] : i32
// CHECK-NEXT: %[[D3:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL3:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD3:[0-9]+]] = arith.subi %[[D3]], %[[CL3]] : i32
// CHECK-NEXT: %[[GE3:[0-9]+]] = arith.cmpi sge, %[[K3]], %[[LD3]] : i32
// CHECK-NEXT: %[[A3_1:[0-9]+]] = arith.andi %[[V3]], %[[GE3]] : i1
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[A3_1]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK4:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC4:[0-9]+]] = arith.addi %[[FCOL]], %[[CK4]] : i32
// CHECK-NEXT: %[[K4:[0-9]+]] = arith.addi %[[KEY]], %[[KC4]] : i32
// CHECK-NEXT: %[[V4:[0-9]+]] = arith.cmpi slt, %[[K4]], %[[SKV]] : i32
// CHECK-NEXT: %[[D4:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL4:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD4:[0-9]+]] = arith.subi %[[D4]], %[[CL4]] : i32
// CHECK-NEXT: %[[GE4:[0-9]+]] = arith.cmpi sge, %[[K4]], %[[LD4]] : i32
// CHECK-NEXT: %[[A4_1:[0-9]+]] = arith.andi %[[V4]], %[[GE4]] : i1
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[A4_1]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK5:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC5:[0-9]+]] = arith.addi %[[FCOL]], %[[CK5]] : i32
// CHECK-NEXT: %[[K5:[0-9]+]] = arith.addi %[[KEY]], %[[KC5]] : i32
// CHECK-NEXT: %[[V5:[0-9]+]] = arith.cmpi slt, %[[K5]], %[[SKV]] : i32
// CHECK-NEXT: %[[D5:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL5:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD5:[0-9]+]] = arith.subi %[[D5]], %[[CL5]] : i32
// CHECK-NEXT: %[[GE5:[0-9]+]] = arith.cmpi sge, %[[K5]], %[[LD5]] : i32
// CHECK-NEXT: %[[A5_1:[0-9]+]] = arith.andi %[[V5]], %[[GE5]] : i1
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[A5_1]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK6:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC6:[0-9]+]] = arith.addi %[[FCOL]], %[[CK6]] : i32
// CHECK-NEXT: %[[K6:[0-9]+]] = arith.addi %[[KEY]], %[[KC6]] : i32
// CHECK-NEXT: %[[V6:[0-9]+]] = arith.cmpi slt, %[[K6]], %[[SKV]] : i32
// CHECK-NEXT: %[[D6:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL6:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD6:[0-9]+]] = arith.subi %[[D6]], %[[CL6]] : i32
// CHECK-NEXT: %[[GE6:[0-9]+]] = arith.cmpi sge, %[[K6]], %[[LD6]] : i32
// CHECK-NEXT: %[[A6_1:[0-9]+]] = arith.andi %[[V6]], %[[GE6]] : i1
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[A6_1]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK7:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC7:[0-9]+]] = arith.addi %[[FCOL]], %[[CK7]] : i32
// CHECK-NEXT: %[[K7:[0-9]+]] = arith.addi %[[KEY]], %[[KC7]] : i32
// CHECK-NEXT: %[[V7:[0-9]+]] = arith.cmpi slt, %[[K7]], %[[SKV]] : i32
// CHECK-NEXT: %[[D7:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CL7:.+]] = arith.constant 40 : i32
// CHECK-NEXT: %[[LD7:[0-9]+]] = arith.subi %[[D7]], %[[CL7]] : i32
// CHECK-NEXT: %[[GE7:[0-9]+]] = arith.cmpi sge, %[[K7]], %[[LD7]] : i32
// CHECK-NEXT: %[[A7_1:[0-9]+]] = arith.andi %[[V7]], %[[GE7]] : i1
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[A7_1]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[RES]]#0, %[[RES]]#1, %[[RES]]#2, %[[RES]]#3, %[[RES]]#4, %[[RES]]#5, %[[RES]]#6, %[[RES]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
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

// -----

// No mask: only keys at or past skv are hidden (the last K/V tile), with the
// same warp-uniform skip for tiles that stay below skv.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: %[[TC:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TC4:[0-9]+]] = arith.remui %[[TC]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[TC4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TR:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LANE:[0-9]+]] = arith.remui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LQ:[0-9]+]] = arith.divui %[[LANE]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[WARP:[0-9]+]] = arith.divui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[W16:[0-9]+]] = arith.muli %[[WARP]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %[[W16]], %[[LQ]] : i32
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S7:[a-z0-9]+]] = %{{[a-z0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[CLK:.+]] = arith.constant 15 : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.addi %[[KEY]], %[[CLK]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CLD:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[LASTDIAG:[0-9]+]] = arith.addi %[[DIAG]], %[[CLD]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[LASTKEY]], %[[SKV]] : i32
// CHECK-NEXT: %[[RES:[0-9]+]]:8 = scf.if %[[PAST]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[G0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[FROW]], %[[G0]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK: %[[TR1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[QR1:[0-9]+]] = arith.divui %[[TR1]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[CK0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC0:[0-9]+]] = arith.addi %[[FCOL]], %[[CK0]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %[[KC0]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi slt, %[[K0]], %[[SKV]] : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[V0]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC1:[0-9]+]] = arith.addi %[[FCOL]], %[[CK1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = arith.addi %[[KEY]], %[[KC1]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[SKV]] : i32
// CHECK-NEXT: %[[D1:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[V1]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC2:[0-9]+]] = arith.addi %[[FCOL]], %[[CK2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = arith.addi %[[KEY]], %[[KC2]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = arith.cmpi slt, %[[K2]], %[[SKV]] : i32
// CHECK-NEXT: %[[D2:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[V2]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC3:[0-9]+]] = arith.addi %[[FCOL]], %[[CK3]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = arith.addi %[[KEY]], %[[KC3]] : i32
// CHECK-NEXT: %[[V3:[0-9]+]] = arith.cmpi slt, %[[K3]], %[[SKV]] : i32
// CHECK-NEXT: %[[D3:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[V3]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK4:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC4:[0-9]+]] = arith.addi %[[FCOL]], %[[CK4]] : i32
// CHECK-NEXT: %[[K4:[0-9]+]] = arith.addi %[[KEY]], %[[KC4]] : i32
// CHECK-NEXT: %[[V4:[0-9]+]] = arith.cmpi slt, %[[K4]], %[[SKV]] : i32
// CHECK-NEXT: %[[D4:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[V4]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK5:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC5:[0-9]+]] = arith.addi %[[FCOL]], %[[CK5]] : i32
// CHECK-NEXT: %[[K5:[0-9]+]] = arith.addi %[[KEY]], %[[KC5]] : i32
// CHECK-NEXT: %[[V5:[0-9]+]] = arith.cmpi slt, %[[K5]], %[[SKV]] : i32
// CHECK-NEXT: %[[D5:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[V5]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK6:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC6:[0-9]+]] = arith.addi %[[FCOL]], %[[CK6]] : i32
// CHECK-NEXT: %[[K6:[0-9]+]] = arith.addi %[[KEY]], %[[KC6]] : i32
// CHECK-NEXT: %[[V6:[0-9]+]] = arith.cmpi slt, %[[K6]], %[[SKV]] : i32
// CHECK-NEXT: %[[D6:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[V6]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK7:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC7:[0-9]+]] = arith.addi %[[FCOL]], %[[CK7]] : i32
// CHECK-NEXT: %[[K7:[0-9]+]] = arith.addi %[[KEY]], %[[KC7]] : i32
// CHECK-NEXT: %[[V7:[0-9]+]] = arith.cmpi slt, %[[K7]], %[[SKV]] : i32
// CHECK-NEXT: %[[D7:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[V7]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[RES]]#0, %[[RES]]#1, %[[RES]]#2, %[[RES]]#3, %[[RES]]#4, %[[RES]]#5, %[[RES]]#6, %[[RES]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !fa4.frag<64x16xf32> {
        %m = fa4.mask %s mask #attn.mask<none> keys %key rows %row sq %sq skv %skv : <64x16xf32>
        scf.yield %m : !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// Fused GQA, group = 2: tile row r is query row first_row + r / 2 (the two
// q-heads of a kv-head share the tile), so the 64-row tile spans 32 query
// rows: the last diagonal is first diagonal + 31, and each register's
// diagonal comes from first row + FROW / 2 or first row + (FROW + 8) / 2.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK: %[[TC:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TC4:[0-9]+]] = arith.remui %[[TC]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[TC4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[TR:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LANE:[0-9]+]] = arith.remui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[LQ:[0-9]+]] = arith.divui %[[LANE]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[WARP:[0-9]+]] = arith.divui %[[TR]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[W16:[0-9]+]] = arith.muli %[[WARP]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW:[0-9]+]] = arith.addi %[[W16]], %[[LQ]] : i32
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S7:[a-z0-9]+]] = %{{[a-z0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[CLK:.+]] = arith.constant 15 : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.addi %[[KEY]], %[[CLK]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CLD:.+]] = arith.constant 31 : i32
// CHECK-NEXT: %[[LASTDIAG:[0-9]+]] = arith.addi %[[DIAG]], %[[CLD]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[LASTKEY]], %[[SKV]] : i32
// CHECK-NEXT: %[[CR:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD:[0-9]+]] = arith.addi %[[DIAG]], %[[CR]] : i32
// CHECK-NEXT: %[[ABOVE:[0-9]+]] = arith.cmpi sgt, %[[LASTKEY]], %[[RD]] : i32
// CHECK-NEXT: %[[NEEDS1:[0-9]+]] = arith.ori %[[PAST]], %[[ABOVE]] : i1
// CHECK-NEXT: %[[CL:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD:[0-9]+]] = arith.subi %[[LASTDIAG]], %[[CL]] : i32
// CHECK-NEXT: %[[BELOW:[0-9]+]] = arith.cmpi slt, %[[KEY]], %[[LD]] : i32
// CHECK-NEXT: %[[NEEDS2:[0-9]+]] = arith.ori %[[NEEDS1]], %[[BELOW]] : i1
// CHECK-NEXT: %[[RES:[0-9]+]]:8 = scf.if %[[NEEDS2]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[G0:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[FROW]], %[[G0]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK: %[[TR1:[0-9]+]] = arith.addi %[[FROW]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[QR1:[0-9]+]] = arith.divui %[[TR1]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[CK0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC0:[0-9]+]] = arith.addi %[[FCOL]], %[[CK0]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = arith.addi %[[KEY]], %[[KC0]] : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.cmpi slt, %[[K0]], %[[SKV]] : i32
// CHECK-NEXT: %[[D0:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR0:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD0:[0-9]+]] = arith.addi %[[D0]], %[[CR0]] : i32
// CHECK-NEXT: %[[LE0:[0-9]+]] = arith.cmpi sle, %[[K0]], %[[RD0]] : i32
// CHECK-NEXT: %[[A0_1:[0-9]+]] = arith.andi %[[V0]], %[[LE0]] : i1
// CHECK-NEXT: %[[CL0:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD0:[0-9]+]] = arith.subi %[[D0]], %[[CL0]] : i32
// CHECK-NEXT: %[[GE0:[0-9]+]] = arith.cmpi sge, %[[K0]], %[[LD0]] : i32
// CHECK-NEXT: %[[A0_2:[0-9]+]] = arith.andi %[[A0_1]], %[[GE0]] : i1
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[A0_2]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC1:[0-9]+]] = arith.addi %[[FCOL]], %[[CK1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = arith.addi %[[KEY]], %[[KC1]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = arith.cmpi slt, %[[K1]], %[[SKV]] : i32
// CHECK-NEXT: %[[D1:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR1:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD1:[0-9]+]] = arith.addi %[[D1]], %[[CR1]] : i32
// CHECK-NEXT: %[[LE1:[0-9]+]] = arith.cmpi sle, %[[K1]], %[[RD1]] : i32
// CHECK-NEXT: %[[A1_1:[0-9]+]] = arith.andi %[[V1]], %[[LE1]] : i1
// CHECK-NEXT: %[[CL1:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD1:[0-9]+]] = arith.subi %[[D1]], %[[CL1]] : i32
// CHECK-NEXT: %[[GE1:[0-9]+]] = arith.cmpi sge, %[[K1]], %[[LD1]] : i32
// CHECK-NEXT: %[[A1_2:[0-9]+]] = arith.andi %[[A1_1]], %[[GE1]] : i1
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[A1_2]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KC2:[0-9]+]] = arith.addi %[[FCOL]], %[[CK2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = arith.addi %[[KEY]], %[[KC2]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = arith.cmpi slt, %[[K2]], %[[SKV]] : i32
// CHECK-NEXT: %[[D2:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR2:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD2:[0-9]+]] = arith.addi %[[D2]], %[[CR2]] : i32
// CHECK-NEXT: %[[LE2:[0-9]+]] = arith.cmpi sle, %[[K2]], %[[RD2]] : i32
// CHECK-NEXT: %[[A2_1:[0-9]+]] = arith.andi %[[V2]], %[[LE2]] : i1
// CHECK-NEXT: %[[CL2:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD2:[0-9]+]] = arith.subi %[[D2]], %[[CL2]] : i32
// CHECK-NEXT: %[[GE2:[0-9]+]] = arith.cmpi sge, %[[K2]], %[[LD2]] : i32
// CHECK-NEXT: %[[A2_2:[0-9]+]] = arith.andi %[[A2_1]], %[[GE2]] : i1
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[A2_2]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[KC3:[0-9]+]] = arith.addi %[[FCOL]], %[[CK3]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = arith.addi %[[KEY]], %[[KC3]] : i32
// CHECK-NEXT: %[[V3:[0-9]+]] = arith.cmpi slt, %[[K3]], %[[SKV]] : i32
// CHECK-NEXT: %[[D3:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR3:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD3:[0-9]+]] = arith.addi %[[D3]], %[[CR3]] : i32
// CHECK-NEXT: %[[LE3:[0-9]+]] = arith.cmpi sle, %[[K3]], %[[RD3]] : i32
// CHECK-NEXT: %[[A3_1:[0-9]+]] = arith.andi %[[V3]], %[[LE3]] : i1
// CHECK-NEXT: %[[CL3:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD3:[0-9]+]] = arith.subi %[[D3]], %[[CL3]] : i32
// CHECK-NEXT: %[[GE3:[0-9]+]] = arith.cmpi sge, %[[K3]], %[[LD3]] : i32
// CHECK-NEXT: %[[A3_2:[0-9]+]] = arith.andi %[[A3_1]], %[[GE3]] : i1
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[A3_2]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK4:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC4:[0-9]+]] = arith.addi %[[FCOL]], %[[CK4]] : i32
// CHECK-NEXT: %[[K4:[0-9]+]] = arith.addi %[[KEY]], %[[KC4]] : i32
// CHECK-NEXT: %[[V4:[0-9]+]] = arith.cmpi slt, %[[K4]], %[[SKV]] : i32
// CHECK-NEXT: %[[D4:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR4:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD4:[0-9]+]] = arith.addi %[[D4]], %[[CR4]] : i32
// CHECK-NEXT: %[[LE4:[0-9]+]] = arith.cmpi sle, %[[K4]], %[[RD4]] : i32
// CHECK-NEXT: %[[A4_1:[0-9]+]] = arith.andi %[[V4]], %[[LE4]] : i1
// CHECK-NEXT: %[[CL4:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD4:[0-9]+]] = arith.subi %[[D4]], %[[CL4]] : i32
// CHECK-NEXT: %[[GE4:[0-9]+]] = arith.cmpi sge, %[[K4]], %[[LD4]] : i32
// CHECK-NEXT: %[[A4_2:[0-9]+]] = arith.andi %[[A4_1]], %[[GE4]] : i1
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[A4_2]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK5:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC5:[0-9]+]] = arith.addi %[[FCOL]], %[[CK5]] : i32
// CHECK-NEXT: %[[K5:[0-9]+]] = arith.addi %[[KEY]], %[[KC5]] : i32
// CHECK-NEXT: %[[V5:[0-9]+]] = arith.cmpi slt, %[[K5]], %[[SKV]] : i32
// CHECK-NEXT: %[[D5:[0-9]+]] = arith.addi %[[ROW0]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR5:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD5:[0-9]+]] = arith.addi %[[D5]], %[[CR5]] : i32
// CHECK-NEXT: %[[LE5:[0-9]+]] = arith.cmpi sle, %[[K5]], %[[RD5]] : i32
// CHECK-NEXT: %[[A5_1:[0-9]+]] = arith.andi %[[V5]], %[[LE5]] : i1
// CHECK-NEXT: %[[CL5:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD5:[0-9]+]] = arith.subi %[[D5]], %[[CL5]] : i32
// CHECK-NEXT: %[[GE5:[0-9]+]] = arith.cmpi sge, %[[K5]], %[[LD5]] : i32
// CHECK-NEXT: %[[A5_2:[0-9]+]] = arith.andi %[[A5_1]], %[[GE5]] : i1
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[A5_2]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK6:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KC6:[0-9]+]] = arith.addi %[[FCOL]], %[[CK6]] : i32
// CHECK-NEXT: %[[K6:[0-9]+]] = arith.addi %[[KEY]], %[[KC6]] : i32
// CHECK-NEXT: %[[V6:[0-9]+]] = arith.cmpi slt, %[[K6]], %[[SKV]] : i32
// CHECK-NEXT: %[[D6:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR6:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD6:[0-9]+]] = arith.addi %[[D6]], %[[CR6]] : i32
// CHECK-NEXT: %[[LE6:[0-9]+]] = arith.cmpi sle, %[[K6]], %[[RD6]] : i32
// CHECK-NEXT: %[[A6_1:[0-9]+]] = arith.andi %[[V6]], %[[LE6]] : i1
// CHECK-NEXT: %[[CL6:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD6:[0-9]+]] = arith.subi %[[D6]], %[[CL6]] : i32
// CHECK-NEXT: %[[GE6:[0-9]+]] = arith.cmpi sge, %[[K6]], %[[LD6]] : i32
// CHECK-NEXT: %[[A6_2:[0-9]+]] = arith.andi %[[A6_1]], %[[GE6]] : i1
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[A6_2]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[CK7:.+]] = arith.constant 9 : i32
// CHECK-NEXT: %[[KC7:[0-9]+]] = arith.addi %[[FCOL]], %[[CK7]] : i32
// CHECK-NEXT: %[[K7:[0-9]+]] = arith.addi %[[KEY]], %[[KC7]] : i32
// CHECK-NEXT: %[[V7:[0-9]+]] = arith.cmpi slt, %[[K7]], %[[SKV]] : i32
// CHECK-NEXT: %[[D7:[0-9]+]] = arith.addi %[[ROW1]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[CR7:.+]] = arith.constant 33 : i32
// CHECK-NEXT: %[[RD7:[0-9]+]] = arith.addi %[[D7]], %[[CR7]] : i32
// CHECK-NEXT: %[[LE7:[0-9]+]] = arith.cmpi sle, %[[K7]], %[[RD7]] : i32
// CHECK-NEXT: %[[A7_1:[0-9]+]] = arith.andi %[[V7]], %[[LE7]] : i1
// CHECK-NEXT: %[[CL7:.+]] = arith.constant 17 : i32
// CHECK-NEXT: %[[LD7:[0-9]+]] = arith.subi %[[D7]], %[[CL7]] : i32
// CHECK-NEXT: %[[GE7:[0-9]+]] = arith.cmpi sge, %[[K7]], %[[LD7]] : i32
// CHECK-NEXT: %[[A7_2:[0-9]+]] = arith.andi %[[A7_1]], %[[GE7]] : i1
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[A7_2]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]] : f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[RES]]#0, %[[RES]]#1, %[[RES]]#2, %[[RES]]#3, %[[RES]]#4, %[[RES]]#5, %[[RES]]#6, %[[RES]]#7 : f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !fa4.frag<64x16xf32> {
        %m = fa4.mask %s mask #attn.mask<window(17, 33)> keys %key rows %row sq %sq skv %skv {group = 2 : i64} : <64x16xf32>
        scf.yield %m : !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// One online-softmax step, then the two ops that consume it in the K/V
// loop. fa4.softmax: each row's maximum over the thread's registers, then
// across the 4 lanes that share the row (shuffle xor 1, then xor 2, width
// 32), scaled by scale_log2 (max(s) * scale = max(s * scale) for
// scale > 0) and merged with the running max; a max still at -inf is
// replaced by 0 before it is subtracted (no NaN from -inf - -inf). The
// correction is exp2(old max - safe max) and rescales the running sum; each
// probability is one FMA (s * scale - safe max) and one MUFU ex2, added to
// its row's per-thread sum (no shuffle: only the epilogue reduces the sum).
// fa4.scale_rows multiplies each O register by its row's correction;
// fa4.truncf packs probability registers (2i, 2i + 1) into one i32 of two
// bf16, 2i in the low half: wgmma's register-A fragment. fa4.splat copies
// its value into every register (the loop's initial values).
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[X:[a-z0-9]+]]: f32, %[[Y:[a-z0-9]+]]: f32, %{{[a-z0-9]+}}: i32, %[[SCALE:[a-z0-9]+]]: f32)
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %[[X]], %[[S1:[a-z0-9]+]] = %[[X]], %[[S2:[a-z0-9]+]] = %[[X]], %[[S3:[a-z0-9]+]] = %[[X]], %[[S4:[a-z0-9]+]] = %[[X]], %[[S5:[a-z0-9]+]] = %[[X]], %[[S6:[a-z0-9]+]] = %[[X]], %[[S7:[a-z0-9]+]] = %[[X]], %[[M0:[a-z0-9]+]] = %[[Y]], %[[M1:[a-z0-9]+]] = %[[Y]], %[[L0:[a-z0-9]+]] = %[[Y]], %[[L1:[a-z0-9]+]] = %[[Y]], %[[O0:[a-z0-9]+]] = %[[X]], %[[O1:[a-z0-9]+]] = %[[X]], %[[O2:[a-z0-9]+]] = %[[X]], %[[O3:[a-z0-9]+]] = %[[X]], %[[O4:[a-z0-9]+]] = %[[X]], %[[O5:[a-z0-9]+]] = %[[X]], %[[O6:[a-z0-9]+]] = %[[X]], %[[O7:[a-z0-9]+]] = %[[X]]) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[FZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[TM0:[0-9]+]] = arith.maximumf %[[NEGINF]], %[[S0]] : f32
// CHECK-NEXT: %[[TM1:[0-9]+]] = arith.maximumf %[[TM0]], %[[S1]] : f32
// CHECK-NEXT: %[[TM2:[0-9]+]] = arith.maximumf %[[NEGINF]], %[[S2]] : f32
// CHECK-NEXT: %[[TM3:[0-9]+]] = arith.maximumf %[[TM2]], %[[S3]] : f32
// CHECK-NEXT: %[[TM4:[0-9]+]] = arith.maximumf %[[TM1]], %[[S4]] : f32
// CHECK-NEXT: %[[TM5:[0-9]+]] = arith.maximumf %[[TM4]], %[[S5]] : f32
// CHECK-NEXT: %[[TM6:[0-9]+]] = arith.maximumf %[[TM3]], %[[S6]] : f32
// CHECK-NEXT: %[[TM7:[0-9]+]] = arith.maximumf %[[TM6]], %[[S7]] : f32
// CHECK-NEXT: %[[X1C0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[W1C0:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH1_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[TM5]], %[[X1C0]], %[[W1C0]] : f32
// CHECK-NEXT: %[[MX1_0:[0-9]+]] = arith.maximumf %[[TM5]], %[[SH1_0]] : f32
// CHECK-NEXT: %[[X2C0:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[W2C0:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH2_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[MX1_0]], %[[X2C0]], %[[W2C0]] : f32
// CHECK-NEXT: %[[MX2_0:[0-9]+]] = arith.maximumf %[[MX1_0]], %[[SH2_0]] : f32
// CHECK-NEXT: %[[SC0:[0-9]+]] = arith.mulf %[[MX2_0]], %[[SCALE]] : f32
// CHECK-NEXT: %[[NM0:[0-9]+]] = arith.maximumf %[[M0]], %[[SC0]] : f32
// CHECK-NEXT: %[[ISINF0:[0-9]+]] = arith.cmpf oeq, %[[NM0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[SAFE0:[0-9]+]] = arith.select %[[ISINF0]], %[[FZERO]], %[[NM0]] : f32
// CHECK-NEXT: %[[NEG0:[0-9]+]] = arith.negf %[[SAFE0]] : f32
// CHECK-NEXT: %[[DM0:[0-9]+]] = arith.subf %[[M0]], %[[SAFE0]] : f32
// CHECK-NEXT: %[[CORR0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[DM0]]) : (f32) -> f32
// CHECK-NEXT: %[[LS0:[0-9]+]] = arith.mulf %[[L0]], %[[CORR0]] : f32
// CHECK-NEXT: %[[X1C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[W1C1:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH1_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[TM7]], %[[X1C1]], %[[W1C1]] : f32
// CHECK-NEXT: %[[MX1_1:[0-9]+]] = arith.maximumf %[[TM7]], %[[SH1_1]] : f32
// CHECK-NEXT: %[[X2C1:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[W2C1:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[SH2_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[MX1_1]], %[[X2C1]], %[[W2C1]] : f32
// CHECK-NEXT: %[[MX2_1:[0-9]+]] = arith.maximumf %[[MX1_1]], %[[SH2_1]] : f32
// CHECK-NEXT: %[[SC1:[0-9]+]] = arith.mulf %[[MX2_1]], %[[SCALE]] : f32
// CHECK-NEXT: %[[NM1:[0-9]+]] = arith.maximumf %[[M1]], %[[SC1]] : f32
// CHECK-NEXT: %[[ISINF1:[0-9]+]] = arith.cmpf oeq, %[[NM1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[SAFE1:[0-9]+]] = arith.select %[[ISINF1]], %[[FZERO]], %[[NM1]] : f32
// CHECK-NEXT: %[[NEG1:[0-9]+]] = arith.negf %[[SAFE1]] : f32
// CHECK-NEXT: %[[DM1:[0-9]+]] = arith.subf %[[M1]], %[[SAFE1]] : f32
// CHECK-NEXT: %[[CORR1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[DM1]]) : (f32) -> f32
// CHECK-NEXT: %[[LS1:[0-9]+]] = arith.mulf %[[L1]], %[[CORR1]] : f32
// CHECK-NEXT: %[[FMA0:[0-9]+]] = llvm.intr.fma(%[[S0]], %[[SCALE]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA0]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM0:[0-9]+]] = arith.addf %[[LS0]], %[[P0]] : f32
// CHECK-NEXT: %[[FMA1:[0-9]+]] = llvm.intr.fma(%[[S1]], %[[SCALE]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA1]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM1:[0-9]+]] = arith.addf %[[SUM0]], %[[P1]] : f32
// CHECK-NEXT: %[[FMA2:[0-9]+]] = llvm.intr.fma(%[[S2]], %[[SCALE]], %[[NEG1]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P2:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA2]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM2:[0-9]+]] = arith.addf %[[LS1]], %[[P2]] : f32
// CHECK-NEXT: %[[FMA3:[0-9]+]] = llvm.intr.fma(%[[S3]], %[[SCALE]], %[[NEG1]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P3:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA3]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM3:[0-9]+]] = arith.addf %[[SUM2]], %[[P3]] : f32
// CHECK-NEXT: %[[FMA4:[0-9]+]] = llvm.intr.fma(%[[S4]], %[[SCALE]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P4:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA4]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM4:[0-9]+]] = arith.addf %[[SUM1]], %[[P4]] : f32
// CHECK-NEXT: %[[FMA5:[0-9]+]] = llvm.intr.fma(%[[S5]], %[[SCALE]], %[[NEG0]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P5:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA5]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM5:[0-9]+]] = arith.addf %[[SUM4]], %[[P5]] : f32
// CHECK-NEXT: %[[FMA6:[0-9]+]] = llvm.intr.fma(%[[S6]], %[[SCALE]], %[[NEG1]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P6:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA6]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM6:[0-9]+]] = arith.addf %[[SUM3]], %[[P6]] : f32
// CHECK-NEXT: %[[FMA7:[0-9]+]] = llvm.intr.fma(%[[S7]], %[[SCALE]], %[[NEG1]]) : (f32, f32, f32) -> f32
// CHECK-NEXT: %[[P7:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[FMA7]]) : (f32) -> f32
// CHECK-NEXT: %[[SUM7:[0-9]+]] = arith.addf %[[SUM6]], %[[P7]] : f32
// CHECK-NEXT: %[[OS0:[0-9]+]] = arith.mulf %[[O0]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS1:[0-9]+]] = arith.mulf %[[O1]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS2:[0-9]+]] = arith.mulf %[[O2]], %[[CORR1]] : f32
// CHECK-NEXT: %[[OS3:[0-9]+]] = arith.mulf %[[O3]], %[[CORR1]] : f32
// CHECK-NEXT: %[[OS4:[0-9]+]] = arith.mulf %[[O4]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS5:[0-9]+]] = arith.mulf %[[O5]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS6:[0-9]+]] = arith.mulf %[[O6]], %[[CORR1]] : f32
// CHECK-NEXT: %[[OS7:[0-9]+]] = arith.mulf %[[O7]], %[[CORR1]] : f32
// CHECK-NEXT: %[[U0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[V0A:[0-9]+]] = llvm.insertelement %[[P0]], %[[U0]][%[[I0C0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1C0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[V0B:[0-9]+]] = llvm.insertelement %[[P1]], %[[V0A]][%[[I1C0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[T0:[0-9]+]] = arith.truncf %[[V0B]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PK0:[0-9]+]] = llvm.bitcast %[[T0]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[U1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0C1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[V1A:[0-9]+]] = llvm.insertelement %[[P2]], %[[U1]][%[[I0C1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[V1B:[0-9]+]] = llvm.insertelement %[[P3]], %[[V1A]][%[[I1C1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[T1:[0-9]+]] = arith.truncf %[[V1B]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PK1:[0-9]+]] = llvm.bitcast %[[T1]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[U2:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0C2:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[V2A:[0-9]+]] = llvm.insertelement %[[P4]], %[[U2]][%[[I0C2]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1C2:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[V2B:[0-9]+]] = llvm.insertelement %[[P5]], %[[V2A]][%[[I1C2]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[T2:[0-9]+]] = arith.truncf %[[V2B]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PK2:[0-9]+]] = llvm.bitcast %[[T2]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[U3:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0C3:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[V3A:[0-9]+]] = llvm.insertelement %[[P6]], %[[U3]][%[[I0C3]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1C3:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[V3B:[0-9]+]] = llvm.insertelement %[[P7]], %[[V3A]][%[[I1C3]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[T3:[0-9]+]] = arith.truncf %[[V3B]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PK3:[0-9]+]] = llvm.bitcast %[[T3]] : vector<2xbf16> to i32
// CHECK-NEXT: scf.yield %[[P0]], %[[P1]], %[[P2]], %[[P3]], %[[P4]], %[[P5]], %[[P6]], %[[P7]], %[[NM0]], %[[NM1]], %[[SUM5]], %[[SUM7]], %[[OS0]], %[[OS1]], %[[OS2]], %[[OS3]], %[[OS4]], %[[OS5]], %[[OS6]], %[[OS7]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %y: f32, %n32: i32, %scale: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %y : !fa4.rows<64xf32>
      %l0 = fa4.splat %y : !fa4.rows<64xf32>
      %o0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %m = %m0, %l = %l0, %o = %o0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x16xf32>) {
        %p, %nm, %ns, %c = fa4.softmax %s max %m sum %l scale %scale : <64x16xf32>, <64xf32>
        %o2 = fa4.scale_rows %o by %c : <64x16xf32>, <64xf32>
        %pb = fa4.truncf %p : <64x16xf32> to <64x16xbf16>
        scf.yield %p, %nm, %ns, %o2 : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// fa4.epilogue with LSE, bf16 output of depth 16. Per row half: the
// per-thread sum is reduced across the row's 4 lanes (shuffle xor 1, 2),
// inverted (0 for a row that saw no key), and each register pair
// (4j + 2h, 4j + 2h + 1), scaled by it, is packed low-first into an i32 and
// stored at out + batch * s0 + row * s1 + head * s2 + column (bf16
// elements, 4-byte aligned) when the row is below sq and the column below
// the depth. LSE = (max + log2(sum)) * ln 2 (the max is in the exp2
// domain; -inf for a row that saw no key) is stored by the first lane of
// each row (lane % 4 == 0) at lse + batch * l0 + head * l1 + row. Tile row
// r is query row first_row + r / group of head head + r % group (group 1
// here).
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[OUT:[a-z0-9]+]]: !llvm.ptr<1>, %[[LSE:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[H:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[S0:[a-z0-9]+]]: i64, %[[S1:[a-z0-9]+]]: i64, %[[S2:[a-z0-9]+]]: i64, %[[L0:[a-z0-9]+]]: i64, %[[L1:[a-z0-9]+]]: i64)
// CHECK: %[[LANE1T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[LANE1:[0-9]+]] = arith.remui %[[LANE1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW1T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1L:[0-9]+]] = arith.remui %[[FROW1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1Q:[0-9]+]] = arith.divui %[[FROW1L]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1W:[0-9]+]] = arith.divui %[[FROW1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1W16:[0-9]+]] = arith.muli %[[FROW1W]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW1:[0-9]+]] = arith.addi %[[FROW1W16]], %[[FROW1Q]] : i32
// CHECK: %[[LANE0T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[LANE0:[0-9]+]] = arith.remui %[[LANE0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW0T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0L:[0-9]+]] = arith.remui %[[FROW0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0Q:[0-9]+]] = arith.divui %[[FROW0L]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0W:[0-9]+]] = arith.divui %[[FROW0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0W16:[0-9]+]] = arith.muli %[[FROW0W]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW0:[0-9]+]] = arith.addi %[[FROW0W16]], %[[FROW0Q]] : i32
// CHECK: %[[FCOLT:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FCOL4:[0-9]+]] = arith.remui %[[FCOLT]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[FCOL4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[R:[0-9]+]]:12 = scf.for
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SH1_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[R]]#10, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUMA0:[0-9]+]] = arith.addf %[[R]]#10, %[[SH1_0]] : f32
// CHECK: %[[SH2_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[SUMA0]], %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUM0:[0-9]+]] = arith.addf %[[SUMA0]], %[[SH2_0]] : f32
// CHECK-NEXT: %[[SEES0:[0-9]+]] = arith.cmpf ogt, %[[SUM0]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ONE0:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP0:[0-9]+]] = arith.divf %[[ONE0]], %[[SUM0]] : f32
// CHECK-NEXT: %[[INV0:[0-9]+]] = arith.select %[[SEES0]], %[[RCP0]], %[[ZERO]] : f32
// CHECK-NEXT: %[[C8H0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[TROW0:[0-9]+]] = arith.addi %[[FROW0]], %[[C8H0]] : i32
// CHECK-NEXT: %[[GA0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[TROW0]], %[[GA0]] : i32
// CHECK-NEXT: %[[QROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK-NEXT: %[[GB0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[HR0:[0-9]+]] = arith.remui %[[TROW0]], %[[GB0]] : i32
// CHECK-NEXT: %[[HEAD0:[0-9]+]] = arith.addi %[[H]], %[[HR0]] : i32
// CHECK-NEXT: %[[INR0:[0-9]+]] = arith.cmpi slt, %[[QROW0]], %[[SQ]] : i32
// CHECK-DAG: %[[BX0:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS0:[0-9]+]] = arith.muli %[[BX0]], %[[S0]] : i64
// CHECK-DAG: %[[RX0:[0-9]+]] = arith.extsi %[[QROW0]] : i32 to i64
// CHECK-DAG: %[[RS0:[0-9]+]] = arith.muli %[[RX0]], %[[S1]] : i64
// CHECK-DAG: %[[HX0:[0-9]+]] = arith.extsi %[[HEAD0]] : i32 to i64
// CHECK-DAG: %[[HS0:[0-9]+]] = arith.muli %[[HX0]], %[[S2]] : i64
// CHECK-DAG: %[[RH0:[0-9]+]] = arith.addi %[[RS0]], %[[HS0]] : i64
// CHECK: %[[BASE0:[0-9]+]] = arith.addi %[[BS0]], %[[RH0]] : i64
// CHECK: %[[COL0_0:[0-9]+]] = arith.addi %[[FCOL]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH0_0:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC0_0:[0-9]+]] = arith.cmpi slt, %[[COL0_0]], %[[DEPTH0_0]] : i32
// CHECK-NEXT: %[[INB0_0:[0-9]+]] = arith.andi %[[INR0]], %[[INC0_0]] : i1
// CHECK-NEXT: scf.if %[[INB0_0]] {
// CHECK-DAG: %[[LO0_0:[0-9]+]] = arith.mulf %[[R]]#0, %[[INV0]] : f32
// CHECK-DAG: %[[HI0_0:[0-9]+]] = arith.mulf %[[R]]#1, %[[INV0]] : f32
// CHECK: %[[U0_0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_0_0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA0_0:[0-9]+]] = llvm.insertelement %[[LO0_0]], %[[U0_0]][%[[I0_0_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_0_0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB0_0:[0-9]+]] = llvm.insertelement %[[HI0_0]], %[[VA0_0]][%[[I1_0_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR0_0:[0-9]+]] = arith.truncf %[[VB0_0]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR0_0:[0-9]+]] = llvm.bitcast %[[TR0_0]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX0_0:[0-9]+]] = arith.extsi %[[COL0_0]] : i32 to i64
// CHECK-NEXT: %[[IDX0_0:[0-9]+]] = arith.addi %[[BASE0]], %[[COLX0_0]] : i64
// CHECK-NEXT: %[[ADDR0_0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX0_0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR0_0]], %[[ADDR0_0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[COL0_1:[0-9]+]] = arith.addi %[[FCOL]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH0_1:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC0_1:[0-9]+]] = arith.cmpi slt, %[[COL0_1]], %[[DEPTH0_1]] : i32
// CHECK-NEXT: %[[INB0_1:[0-9]+]] = arith.andi %[[INR0]], %[[INC0_1]] : i1
// CHECK-NEXT: scf.if %[[INB0_1]] {
// CHECK-DAG: %[[LO0_1:[0-9]+]] = arith.mulf %[[R]]#4, %[[INV0]] : f32
// CHECK-DAG: %[[HI0_1:[0-9]+]] = arith.mulf %[[R]]#5, %[[INV0]] : f32
// CHECK: %[[U0_1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_0_1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA0_1:[0-9]+]] = llvm.insertelement %[[LO0_1]], %[[U0_1]][%[[I0_0_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_0_1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB0_1:[0-9]+]] = llvm.insertelement %[[HI0_1]], %[[VA0_1]][%[[I1_0_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR0_1:[0-9]+]] = arith.truncf %[[VB0_1]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR0_1:[0-9]+]] = llvm.bitcast %[[TR0_1]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX0_1:[0-9]+]] = arith.extsi %[[COL0_1]] : i32 to i64
// CHECK-NEXT: %[[IDX0_1:[0-9]+]] = arith.addi %[[BASE0]], %[[COLX0_1]] : i64
// CHECK-NEXT: %[[ADDR0_1:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX0_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR0_1]], %[[ADDR0_1]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[LQ0:[0-9]+]] = arith.remui %[[LANE0]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[W0:[0-9]+]] = arith.cmpi eq, %[[LQ0]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[WR0:[0-9]+]] = arith.andi %[[INR0]], %[[W0]] : i1
// CHECK-NEXT: scf.if %[[WR0]] {
// CHECK-DAG: %[[NINF0:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[LN2_0:.+]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[LG0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[SUM0]]) : (f32) -> f32
// CHECK-DAG: %[[ML0:[0-9]+]] = arith.addf %[[R]]#8, %[[LG0]] : f32
// CHECK-DAG: %[[LN0:[0-9]+]] = arith.mulf %[[ML0]], %[[LN2_0]] : f32
// CHECK: %[[LSEV0:[0-9]+]] = arith.select %[[SEES0]], %[[LN0]], %[[NINF0]] : f32
// CHECK-DAG: %[[LRX0:[0-9]+]] = arith.extsi %[[QROW0]] : i32 to i64
// CHECK-DAG: %[[LHX0:[0-9]+]] = arith.extsi %[[HEAD0]] : i32 to i64
// CHECK-DAG: %[[LHS0:[0-9]+]] = arith.muli %[[LHX0]], %[[L1]] : i64
// CHECK-DAG: %[[LHR0:[0-9]+]] = arith.addi %[[LHS0]], %[[LRX0]] : i64
// CHECK-DAG: %[[LBX0:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[LBS0:[0-9]+]] = arith.muli %[[LBX0]], %[[L0]] : i64
// CHECK: %[[LIDX0:[0-9]+]] = arith.addi %[[LBS0]], %[[LHR0]] : i64
// CHECK-NEXT: %[[LADDR0:[0-9]+]] = llvm.getelementptr %[[LSE]][%[[LIDX0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[LSEV0]], %[[LADDR0]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[SH1_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[R]]#11, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUMA1:[0-9]+]] = arith.addf %[[R]]#11, %[[SH1_1]] : f32
// CHECK: %[[SH2_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[SUMA1]], %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUM1:[0-9]+]] = arith.addf %[[SUMA1]], %[[SH2_1]] : f32
// CHECK-NEXT: %[[SEES1:[0-9]+]] = arith.cmpf ogt, %[[SUM1]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ONE1:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP1:[0-9]+]] = arith.divf %[[ONE1]], %[[SUM1]] : f32
// CHECK-NEXT: %[[INV1:[0-9]+]] = arith.select %[[SEES1]], %[[RCP1]], %[[ZERO]] : f32
// CHECK-NEXT: %[[C8H1:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[TROW1:[0-9]+]] = arith.addi %[[FROW1]], %[[C8H1]] : i32
// CHECK-NEXT: %[[GA1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR1:[0-9]+]] = arith.divui %[[TROW1]], %[[GA1]] : i32
// CHECK-NEXT: %[[QROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[GB1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[HR1:[0-9]+]] = arith.remui %[[TROW1]], %[[GB1]] : i32
// CHECK-NEXT: %[[HEAD1:[0-9]+]] = arith.addi %[[H]], %[[HR1]] : i32
// CHECK-NEXT: %[[INR1:[0-9]+]] = arith.cmpi slt, %[[QROW1]], %[[SQ]] : i32
// CHECK-DAG: %[[BX1:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS1:[0-9]+]] = arith.muli %[[BX1]], %[[S0]] : i64
// CHECK-DAG: %[[RX1:[0-9]+]] = arith.extsi %[[QROW1]] : i32 to i64
// CHECK-DAG: %[[RS1:[0-9]+]] = arith.muli %[[RX1]], %[[S1]] : i64
// CHECK-DAG: %[[HX1:[0-9]+]] = arith.extsi %[[HEAD1]] : i32 to i64
// CHECK-DAG: %[[HS1:[0-9]+]] = arith.muli %[[HX1]], %[[S2]] : i64
// CHECK-DAG: %[[RH1:[0-9]+]] = arith.addi %[[RS1]], %[[HS1]] : i64
// CHECK: %[[BASE1:[0-9]+]] = arith.addi %[[BS1]], %[[RH1]] : i64
// CHECK: %[[COL1_0:[0-9]+]] = arith.addi %[[FCOL]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH1_0:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC1_0:[0-9]+]] = arith.cmpi slt, %[[COL1_0]], %[[DEPTH1_0]] : i32
// CHECK-NEXT: %[[INB1_0:[0-9]+]] = arith.andi %[[INR1]], %[[INC1_0]] : i1
// CHECK-NEXT: scf.if %[[INB1_0]] {
// CHECK-DAG: %[[LO1_0:[0-9]+]] = arith.mulf %[[R]]#2, %[[INV1]] : f32
// CHECK-DAG: %[[HI1_0:[0-9]+]] = arith.mulf %[[R]]#3, %[[INV1]] : f32
// CHECK: %[[U1_0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_1_0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA1_0:[0-9]+]] = llvm.insertelement %[[LO1_0]], %[[U1_0]][%[[I0_1_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_1_0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB1_0:[0-9]+]] = llvm.insertelement %[[HI1_0]], %[[VA1_0]][%[[I1_1_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR1_0:[0-9]+]] = arith.truncf %[[VB1_0]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR1_0:[0-9]+]] = llvm.bitcast %[[TR1_0]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX1_0:[0-9]+]] = arith.extsi %[[COL1_0]] : i32 to i64
// CHECK-NEXT: %[[IDX1_0:[0-9]+]] = arith.addi %[[BASE1]], %[[COLX1_0]] : i64
// CHECK-NEXT: %[[ADDR1_0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX1_0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR1_0]], %[[ADDR1_0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[COL1_1:[0-9]+]] = arith.addi %[[FCOL]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH1_1:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC1_1:[0-9]+]] = arith.cmpi slt, %[[COL1_1]], %[[DEPTH1_1]] : i32
// CHECK-NEXT: %[[INB1_1:[0-9]+]] = arith.andi %[[INR1]], %[[INC1_1]] : i1
// CHECK-NEXT: scf.if %[[INB1_1]] {
// CHECK-DAG: %[[LO1_1:[0-9]+]] = arith.mulf %[[R]]#6, %[[INV1]] : f32
// CHECK-DAG: %[[HI1_1:[0-9]+]] = arith.mulf %[[R]]#7, %[[INV1]] : f32
// CHECK: %[[U1_1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_1_1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA1_1:[0-9]+]] = llvm.insertelement %[[LO1_1]], %[[U1_1]][%[[I0_1_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_1_1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB1_1:[0-9]+]] = llvm.insertelement %[[HI1_1]], %[[VA1_1]][%[[I1_1_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR1_1:[0-9]+]] = arith.truncf %[[VB1_1]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR1_1:[0-9]+]] = llvm.bitcast %[[TR1_1]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX1_1:[0-9]+]] = arith.extsi %[[COL1_1]] : i32 to i64
// CHECK-NEXT: %[[IDX1_1:[0-9]+]] = arith.addi %[[BASE1]], %[[COLX1_1]] : i64
// CHECK-NEXT: %[[ADDR1_1:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX1_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR1_1]], %[[ADDR1_1]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[LQ1:[0-9]+]] = arith.remui %[[LANE1]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[W1:[0-9]+]] = arith.cmpi eq, %[[LQ1]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[WR1:[0-9]+]] = arith.andi %[[INR1]], %[[W1]] : i1
// CHECK-NEXT: scf.if %[[WR1]] {
// CHECK-DAG: %[[NINF1:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[LN2_1:.+]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[LG1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[SUM1]]) : (f32) -> f32
// CHECK-DAG: %[[ML1:[0-9]+]] = arith.addf %[[R]]#9, %[[LG1]] : f32
// CHECK-DAG: %[[LN1:[0-9]+]] = arith.mulf %[[ML1]], %[[LN2_1]] : f32
// CHECK: %[[LSEV1:[0-9]+]] = arith.select %[[SEES1]], %[[LN1]], %[[NINF1]] : f32
// CHECK-DAG: %[[LRX1:[0-9]+]] = arith.extsi %[[QROW1]] : i32 to i64
// CHECK-DAG: %[[LHX1:[0-9]+]] = arith.extsi %[[HEAD1]] : i32 to i64
// CHECK-DAG: %[[LHS1:[0-9]+]] = arith.muli %[[LHX1]], %[[L1]] : i64
// CHECK-DAG: %[[LHR1:[0-9]+]] = arith.addi %[[LHS1]], %[[LRX1]] : i64
// CHECK-DAG: %[[LBX1:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[LBS1:[0-9]+]] = arith.muli %[[LBX1]], %[[L0]] : i64
// CHECK: %[[LIDX1:[0-9]+]] = arith.addi %[[LBS1]], %[[LHR1]] : i64
// CHECK-NEXT: %[[LADDR1:[0-9]+]] = llvm.getelementptr %[[LSE]][%[[LIDX1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[LSEV1]], %[[LADDR1]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NOT: llvm.store
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %o: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %b: i32, %row: i32, %h: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %l0: i64, %l1: i64) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %a0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %x : !fa4.rows<64xf32>
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %m = %m0, %l = %m0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>) {
        scf.yield %a, %m, %l : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>
      }
      fa4.epilogue %r#0, %r#1, %r#2 to %o[%b, %row, %h] strides[%s0, %s1, %s2] sq %sq depth 16 of bf16 lse %lse strides[%l0, %l1] : !fa4.frag<64x16xf32>, <64xf32>, !llvm.ptr<1>, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// Without LSE nothing but O is stored and no log2 is taken; f16 output packs
// to vector<2xf16> and indexes f16 elements. Depth 8 of a 16-column tile:
// every column is still tested against 8, so the second 8-column chunk
// (FCOL + 8) is never stored.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[OUT:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[H:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[S0:[a-z0-9]+]]: i64, %[[S1:[a-z0-9]+]]: i64, %[[S2:[a-z0-9]+]]: i64)
// CHECK: %[[FROW1T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1L:[0-9]+]] = arith.remui %[[FROW1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1Q:[0-9]+]] = arith.divui %[[FROW1L]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1W:[0-9]+]] = arith.divui %[[FROW1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1W16:[0-9]+]] = arith.muli %[[FROW1W]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW1:[0-9]+]] = arith.addi %[[FROW1W16]], %[[FROW1Q]] : i32
// CHECK: %[[FROW0T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0L:[0-9]+]] = arith.remui %[[FROW0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0Q:[0-9]+]] = arith.divui %[[FROW0L]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0W:[0-9]+]] = arith.divui %[[FROW0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0W16:[0-9]+]] = arith.muli %[[FROW0W]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW0:[0-9]+]] = arith.addi %[[FROW0W16]], %[[FROW0Q]] : i32
// CHECK: %[[FCOLT:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FCOL4:[0-9]+]] = arith.remui %[[FCOLT]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[FCOL4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[R:[0-9]+]]:12 = scf.for
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SH1_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[R]]#10, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUMA0:[0-9]+]] = arith.addf %[[R]]#10, %[[SH1_0]] : f32
// CHECK: %[[SH2_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[SUMA0]], %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUM0:[0-9]+]] = arith.addf %[[SUMA0]], %[[SH2_0]] : f32
// CHECK-NEXT: %[[SEES0:[0-9]+]] = arith.cmpf ogt, %[[SUM0]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ONE0:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP0:[0-9]+]] = arith.divf %[[ONE0]], %[[SUM0]] : f32
// CHECK-NEXT: %[[INV0:[0-9]+]] = arith.select %[[SEES0]], %[[RCP0]], %[[ZERO]] : f32
// CHECK-NEXT: %[[C8H0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[TROW0:[0-9]+]] = arith.addi %[[FROW0]], %[[C8H0]] : i32
// CHECK-NEXT: %[[GA0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[TROW0]], %[[GA0]] : i32
// CHECK-NEXT: %[[QROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK-NEXT: %[[GB0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[HR0:[0-9]+]] = arith.remui %[[TROW0]], %[[GB0]] : i32
// CHECK-NEXT: %[[HEAD0:[0-9]+]] = arith.addi %[[H]], %[[HR0]] : i32
// CHECK-NEXT: %[[INR0:[0-9]+]] = arith.cmpi slt, %[[QROW0]], %[[SQ]] : i32
// CHECK-DAG: %[[BX0:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS0:[0-9]+]] = arith.muli %[[BX0]], %[[S0]] : i64
// CHECK-DAG: %[[RX0:[0-9]+]] = arith.extsi %[[QROW0]] : i32 to i64
// CHECK-DAG: %[[RS0:[0-9]+]] = arith.muli %[[RX0]], %[[S1]] : i64
// CHECK-DAG: %[[HX0:[0-9]+]] = arith.extsi %[[HEAD0]] : i32 to i64
// CHECK-DAG: %[[HS0:[0-9]+]] = arith.muli %[[HX0]], %[[S2]] : i64
// CHECK-DAG: %[[RH0:[0-9]+]] = arith.addi %[[RS0]], %[[HS0]] : i64
// CHECK: %[[BASE0:[0-9]+]] = arith.addi %[[BS0]], %[[RH0]] : i64
// CHECK: %[[COL0_0:[0-9]+]] = arith.addi %[[FCOL]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH0_0:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[INC0_0:[0-9]+]] = arith.cmpi slt, %[[COL0_0]], %[[DEPTH0_0]] : i32
// CHECK-NEXT: %[[INB0_0:[0-9]+]] = arith.andi %[[INR0]], %[[INC0_0]] : i1
// CHECK-NEXT: scf.if %[[INB0_0]] {
// CHECK-DAG: %[[LO0_0:[0-9]+]] = arith.mulf %[[R]]#0, %[[INV0]] : f32
// CHECK-DAG: %[[HI0_0:[0-9]+]] = arith.mulf %[[R]]#1, %[[INV0]] : f32
// CHECK: %[[U0_0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_0_0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA0_0:[0-9]+]] = llvm.insertelement %[[LO0_0]], %[[U0_0]][%[[I0_0_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_0_0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB0_0:[0-9]+]] = llvm.insertelement %[[HI0_0]], %[[VA0_0]][%[[I1_0_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR0_0:[0-9]+]] = arith.truncf %[[VB0_0]] : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: %[[PAIR0_0:[0-9]+]] = llvm.bitcast %[[TR0_0]] : vector<2xf16> to i32
// CHECK-NEXT: %[[COLX0_0:[0-9]+]] = arith.extsi %[[COL0_0]] : i32 to i64
// CHECK-NEXT: %[[IDX0_0:[0-9]+]] = arith.addi %[[BASE0]], %[[COLX0_0]] : i64
// CHECK-NEXT: %[[ADDR0_0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX0_0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT: llvm.store %[[PAIR0_0]], %[[ADDR0_0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[COL0_1:[0-9]+]] = arith.addi %[[FCOL]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH0_1:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[INC0_1:[0-9]+]] = arith.cmpi slt, %[[COL0_1]], %[[DEPTH0_1]] : i32
// CHECK-NEXT: %[[INB0_1:[0-9]+]] = arith.andi %[[INR0]], %[[INC0_1]] : i1
// CHECK-NEXT: scf.if %[[INB0_1]] {
// CHECK-DAG: %[[LO0_1:[0-9]+]] = arith.mulf %[[R]]#4, %[[INV0]] : f32
// CHECK-DAG: %[[HI0_1:[0-9]+]] = arith.mulf %[[R]]#5, %[[INV0]] : f32
// CHECK: %[[U0_1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_0_1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA0_1:[0-9]+]] = llvm.insertelement %[[LO0_1]], %[[U0_1]][%[[I0_0_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_0_1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB0_1:[0-9]+]] = llvm.insertelement %[[HI0_1]], %[[VA0_1]][%[[I1_0_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR0_1:[0-9]+]] = arith.truncf %[[VB0_1]] : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: %[[PAIR0_1:[0-9]+]] = llvm.bitcast %[[TR0_1]] : vector<2xf16> to i32
// CHECK-NEXT: %[[COLX0_1:[0-9]+]] = arith.extsi %[[COL0_1]] : i32 to i64
// CHECK-NEXT: %[[IDX0_1:[0-9]+]] = arith.addi %[[BASE0]], %[[COLX0_1]] : i64
// CHECK-NEXT: %[[ADDR0_1:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX0_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT: llvm.store %[[PAIR0_1]], %[[ADDR0_1]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NOT: lg2.approx
// CHECK: %[[SH1_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[R]]#11, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUMA1:[0-9]+]] = arith.addf %[[R]]#11, %[[SH1_1]] : f32
// CHECK: %[[SH2_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[SUMA1]], %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUM1:[0-9]+]] = arith.addf %[[SUMA1]], %[[SH2_1]] : f32
// CHECK-NEXT: %[[SEES1:[0-9]+]] = arith.cmpf ogt, %[[SUM1]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ONE1:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP1:[0-9]+]] = arith.divf %[[ONE1]], %[[SUM1]] : f32
// CHECK-NEXT: %[[INV1:[0-9]+]] = arith.select %[[SEES1]], %[[RCP1]], %[[ZERO]] : f32
// CHECK-NEXT: %[[C8H1:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[TROW1:[0-9]+]] = arith.addi %[[FROW1]], %[[C8H1]] : i32
// CHECK-NEXT: %[[GA1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[QR1:[0-9]+]] = arith.divui %[[TROW1]], %[[GA1]] : i32
// CHECK-NEXT: %[[QROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[GB1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[HR1:[0-9]+]] = arith.remui %[[TROW1]], %[[GB1]] : i32
// CHECK-NEXT: %[[HEAD1:[0-9]+]] = arith.addi %[[H]], %[[HR1]] : i32
// CHECK-NEXT: %[[INR1:[0-9]+]] = arith.cmpi slt, %[[QROW1]], %[[SQ]] : i32
// CHECK-DAG: %[[BX1:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS1:[0-9]+]] = arith.muli %[[BX1]], %[[S0]] : i64
// CHECK-DAG: %[[RX1:[0-9]+]] = arith.extsi %[[QROW1]] : i32 to i64
// CHECK-DAG: %[[RS1:[0-9]+]] = arith.muli %[[RX1]], %[[S1]] : i64
// CHECK-DAG: %[[HX1:[0-9]+]] = arith.extsi %[[HEAD1]] : i32 to i64
// CHECK-DAG: %[[HS1:[0-9]+]] = arith.muli %[[HX1]], %[[S2]] : i64
// CHECK-DAG: %[[RH1:[0-9]+]] = arith.addi %[[RS1]], %[[HS1]] : i64
// CHECK: %[[BASE1:[0-9]+]] = arith.addi %[[BS1]], %[[RH1]] : i64
// CHECK: %[[COL1_0:[0-9]+]] = arith.addi %[[FCOL]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH1_0:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[INC1_0:[0-9]+]] = arith.cmpi slt, %[[COL1_0]], %[[DEPTH1_0]] : i32
// CHECK-NEXT: %[[INB1_0:[0-9]+]] = arith.andi %[[INR1]], %[[INC1_0]] : i1
// CHECK-NEXT: scf.if %[[INB1_0]] {
// CHECK-DAG: %[[LO1_0:[0-9]+]] = arith.mulf %[[R]]#2, %[[INV1]] : f32
// CHECK-DAG: %[[HI1_0:[0-9]+]] = arith.mulf %[[R]]#3, %[[INV1]] : f32
// CHECK: %[[U1_0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_1_0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA1_0:[0-9]+]] = llvm.insertelement %[[LO1_0]], %[[U1_0]][%[[I0_1_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_1_0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB1_0:[0-9]+]] = llvm.insertelement %[[HI1_0]], %[[VA1_0]][%[[I1_1_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR1_0:[0-9]+]] = arith.truncf %[[VB1_0]] : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: %[[PAIR1_0:[0-9]+]] = llvm.bitcast %[[TR1_0]] : vector<2xf16> to i32
// CHECK-NEXT: %[[COLX1_0:[0-9]+]] = arith.extsi %[[COL1_0]] : i32 to i64
// CHECK-NEXT: %[[IDX1_0:[0-9]+]] = arith.addi %[[BASE1]], %[[COLX1_0]] : i64
// CHECK-NEXT: %[[ADDR1_0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX1_0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT: llvm.store %[[PAIR1_0]], %[[ADDR1_0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[COL1_1:[0-9]+]] = arith.addi %[[FCOL]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH1_1:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[INC1_1:[0-9]+]] = arith.cmpi slt, %[[COL1_1]], %[[DEPTH1_1]] : i32
// CHECK-NEXT: %[[INB1_1:[0-9]+]] = arith.andi %[[INR1]], %[[INC1_1]] : i1
// CHECK-NEXT: scf.if %[[INB1_1]] {
// CHECK-DAG: %[[LO1_1:[0-9]+]] = arith.mulf %[[R]]#6, %[[INV1]] : f32
// CHECK-DAG: %[[HI1_1:[0-9]+]] = arith.mulf %[[R]]#7, %[[INV1]] : f32
// CHECK: %[[U1_1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_1_1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA1_1:[0-9]+]] = llvm.insertelement %[[LO1_1]], %[[U1_1]][%[[I0_1_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_1_1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB1_1:[0-9]+]] = llvm.insertelement %[[HI1_1]], %[[VA1_1]][%[[I1_1_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR1_1:[0-9]+]] = arith.truncf %[[VB1_1]] : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: %[[PAIR1_1:[0-9]+]] = llvm.bitcast %[[TR1_1]] : vector<2xf16> to i32
// CHECK-NEXT: %[[COLX1_1:[0-9]+]] = arith.extsi %[[COL1_1]] : i32 to i64
// CHECK-NEXT: %[[IDX1_1:[0-9]+]] = arith.addi %[[BASE1]], %[[COLX1_1]] : i64
// CHECK-NEXT: %[[ADDR1_1:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX1_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT: llvm.store %[[PAIR1_1]], %[[ADDR1_1]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NOT: lg2.approx
// CHECK-NOT: llvm.store
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %o: !llvm.ptr<1>, %b: i32, %row: i32, %h: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %a0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %x : !fa4.rows<64xf32>
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %m = %m0, %l = %m0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>) {
        scf.yield %a, %m, %l : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>
      }
      fa4.epilogue %r#0, %r#1, %r#2 to %o[%b, %row, %h] strides[%s0, %s1, %s2] sq %sq depth 8 of f16 : !fa4.frag<64x16xf32>, <64xf32>, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// Fused GQA, group = 3: tile row r stores query row first_row + r / 3 of
// head head + r % 3, in O and in LSE. 64 is not a multiple of 3, so tile
// row 63 (an incomplete group) is never stored: the row guard also needs
// tile row < 63.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i32, %[[OUT:[a-z0-9]+]]: !llvm.ptr<1>, %[[LSE:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[H:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[S0:[a-z0-9]+]]: i64, %[[S1:[a-z0-9]+]]: i64, %[[S2:[a-z0-9]+]]: i64, %[[L0:[a-z0-9]+]]: i64, %[[L1:[a-z0-9]+]]: i64)
// CHECK: %[[LANE1T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[LANE1:[0-9]+]] = arith.remui %[[LANE1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW1T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1L:[0-9]+]] = arith.remui %[[FROW1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1Q:[0-9]+]] = arith.divui %[[FROW1L]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1W:[0-9]+]] = arith.divui %[[FROW1T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW1W16:[0-9]+]] = arith.muli %[[FROW1W]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW1:[0-9]+]] = arith.addi %[[FROW1W16]], %[[FROW1Q]] : i32
// CHECK: %[[LANE0T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[LANE0:[0-9]+]] = arith.remui %[[LANE0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW0T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0L:[0-9]+]] = arith.remui %[[FROW0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0Q:[0-9]+]] = arith.divui %[[FROW0L]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0W:[0-9]+]] = arith.divui %[[FROW0T]], %c32_i32{{(_[0-9]+)?}} : i32
// CHECK-DAG: %[[FROW0W16:[0-9]+]] = arith.muli %[[FROW0W]], %c16_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FROW0:[0-9]+]] = arith.addi %[[FROW0W16]], %[[FROW0Q]] : i32
// CHECK: %[[FCOLT:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[FCOL4:[0-9]+]] = arith.remui %[[FCOLT]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[FCOL:[0-9]+]] = arith.muli %[[FCOL4]], %c2_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[R:[0-9]+]]:12 = scf.for
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SH1_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[R]]#10, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUMA0:[0-9]+]] = arith.addf %[[R]]#10, %[[SH1_0]] : f32
// CHECK: %[[SH2_0:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[SUMA0]], %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUM0:[0-9]+]] = arith.addf %[[SUMA0]], %[[SH2_0]] : f32
// CHECK-NEXT: %[[SEES0:[0-9]+]] = arith.cmpf ogt, %[[SUM0]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ONE0:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP0:[0-9]+]] = arith.divf %[[ONE0]], %[[SUM0]] : f32
// CHECK-NEXT: %[[INV0:[0-9]+]] = arith.select %[[SEES0]], %[[RCP0]], %[[ZERO]] : f32
// CHECK-NEXT: %[[C8H0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[TROW0:[0-9]+]] = arith.addi %[[FROW0]], %[[C8H0]] : i32
// CHECK-NEXT: %[[GA0:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[QR0:[0-9]+]] = arith.divui %[[TROW0]], %[[GA0]] : i32
// CHECK-NEXT: %[[QROW0:[0-9]+]] = arith.addi %[[ROW]], %[[QR0]] : i32
// CHECK-NEXT: %[[GB0:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[HR0:[0-9]+]] = arith.remui %[[TROW0]], %[[GB0]] : i32
// CHECK-NEXT: %[[HEAD0:[0-9]+]] = arith.addi %[[H]], %[[HR0]] : i32
// CHECK-NEXT: %[[INQ0:[0-9]+]] = arith.cmpi slt, %[[QROW0]], %[[SQ]] : i32
// CHECK-NEXT: %[[FULL0:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[INT0:[0-9]+]] = arith.cmpi slt, %[[TROW0]], %[[FULL0]] : i32
// CHECK-NEXT: %[[INR0:[0-9]+]] = arith.andi %[[INQ0]], %[[INT0]] : i1
// CHECK-DAG: %[[BX0:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS0:[0-9]+]] = arith.muli %[[BX0]], %[[S0]] : i64
// CHECK-DAG: %[[RX0:[0-9]+]] = arith.extsi %[[QROW0]] : i32 to i64
// CHECK-DAG: %[[RS0:[0-9]+]] = arith.muli %[[RX0]], %[[S1]] : i64
// CHECK-DAG: %[[HX0:[0-9]+]] = arith.extsi %[[HEAD0]] : i32 to i64
// CHECK-DAG: %[[HS0:[0-9]+]] = arith.muli %[[HX0]], %[[S2]] : i64
// CHECK-DAG: %[[RH0:[0-9]+]] = arith.addi %[[RS0]], %[[HS0]] : i64
// CHECK: %[[BASE0:[0-9]+]] = arith.addi %[[BS0]], %[[RH0]] : i64
// CHECK: %[[COL0_0:[0-9]+]] = arith.addi %[[FCOL]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH0_0:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC0_0:[0-9]+]] = arith.cmpi slt, %[[COL0_0]], %[[DEPTH0_0]] : i32
// CHECK-NEXT: %[[INB0_0:[0-9]+]] = arith.andi %[[INR0]], %[[INC0_0]] : i1
// CHECK-NEXT: scf.if %[[INB0_0]] {
// CHECK-DAG: %[[LO0_0:[0-9]+]] = arith.mulf %[[R]]#0, %[[INV0]] : f32
// CHECK-DAG: %[[HI0_0:[0-9]+]] = arith.mulf %[[R]]#1, %[[INV0]] : f32
// CHECK: %[[U0_0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_0_0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA0_0:[0-9]+]] = llvm.insertelement %[[LO0_0]], %[[U0_0]][%[[I0_0_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_0_0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB0_0:[0-9]+]] = llvm.insertelement %[[HI0_0]], %[[VA0_0]][%[[I1_0_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR0_0:[0-9]+]] = arith.truncf %[[VB0_0]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR0_0:[0-9]+]] = llvm.bitcast %[[TR0_0]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX0_0:[0-9]+]] = arith.extsi %[[COL0_0]] : i32 to i64
// CHECK-NEXT: %[[IDX0_0:[0-9]+]] = arith.addi %[[BASE0]], %[[COLX0_0]] : i64
// CHECK-NEXT: %[[ADDR0_0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX0_0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR0_0]], %[[ADDR0_0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[COL0_1:[0-9]+]] = arith.addi %[[FCOL]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH0_1:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC0_1:[0-9]+]] = arith.cmpi slt, %[[COL0_1]], %[[DEPTH0_1]] : i32
// CHECK-NEXT: %[[INB0_1:[0-9]+]] = arith.andi %[[INR0]], %[[INC0_1]] : i1
// CHECK-NEXT: scf.if %[[INB0_1]] {
// CHECK-DAG: %[[LO0_1:[0-9]+]] = arith.mulf %[[R]]#4, %[[INV0]] : f32
// CHECK-DAG: %[[HI0_1:[0-9]+]] = arith.mulf %[[R]]#5, %[[INV0]] : f32
// CHECK: %[[U0_1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_0_1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA0_1:[0-9]+]] = llvm.insertelement %[[LO0_1]], %[[U0_1]][%[[I0_0_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_0_1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB0_1:[0-9]+]] = llvm.insertelement %[[HI0_1]], %[[VA0_1]][%[[I1_0_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR0_1:[0-9]+]] = arith.truncf %[[VB0_1]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR0_1:[0-9]+]] = llvm.bitcast %[[TR0_1]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX0_1:[0-9]+]] = arith.extsi %[[COL0_1]] : i32 to i64
// CHECK-NEXT: %[[IDX0_1:[0-9]+]] = arith.addi %[[BASE0]], %[[COLX0_1]] : i64
// CHECK-NEXT: %[[ADDR0_1:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX0_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR0_1]], %[[ADDR0_1]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[LQ0:[0-9]+]] = arith.remui %[[LANE0]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[W0:[0-9]+]] = arith.cmpi eq, %[[LQ0]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[WR0:[0-9]+]] = arith.andi %[[INR0]], %[[W0]] : i1
// CHECK-NEXT: scf.if %[[WR0]] {
// CHECK-DAG: %[[NINF0:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[LN2_0:.+]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[LG0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[SUM0]]) : (f32) -> f32
// CHECK-DAG: %[[ML0:[0-9]+]] = arith.addf %[[R]]#8, %[[LG0]] : f32
// CHECK-DAG: %[[LN0:[0-9]+]] = arith.mulf %[[ML0]], %[[LN2_0]] : f32
// CHECK: %[[LSEV0:[0-9]+]] = arith.select %[[SEES0]], %[[LN0]], %[[NINF0]] : f32
// CHECK-DAG: %[[LRX0:[0-9]+]] = arith.extsi %[[QROW0]] : i32 to i64
// CHECK-DAG: %[[LHX0:[0-9]+]] = arith.extsi %[[HEAD0]] : i32 to i64
// CHECK-DAG: %[[LHS0:[0-9]+]] = arith.muli %[[LHX0]], %[[L1]] : i64
// CHECK-DAG: %[[LHR0:[0-9]+]] = arith.addi %[[LHS0]], %[[LRX0]] : i64
// CHECK-DAG: %[[LBX0:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[LBS0:[0-9]+]] = arith.muli %[[LBX0]], %[[L0]] : i64
// CHECK: %[[LIDX0:[0-9]+]] = arith.addi %[[LBS0]], %[[LHR0]] : i64
// CHECK-NEXT: %[[LADDR0:[0-9]+]] = llvm.getelementptr %[[LSE]][%[[LIDX0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[LSEV0]], %[[LADDR0]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[SH1_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[R]]#11, %c1_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUMA1:[0-9]+]] = arith.addf %[[R]]#11, %[[SH1_1]] : f32
// CHECK: %[[SH2_1:[a-zA-Z0-9_]+]], %{{.+}} = gpu.shuffle  xor %[[SUMA1]], %c2_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : f32
// CHECK-NEXT: %[[SUM1:[0-9]+]] = arith.addf %[[SUMA1]], %[[SH2_1]] : f32
// CHECK-NEXT: %[[SEES1:[0-9]+]] = arith.cmpf ogt, %[[SUM1]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ONE1:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP1:[0-9]+]] = arith.divf %[[ONE1]], %[[SUM1]] : f32
// CHECK-NEXT: %[[INV1:[0-9]+]] = arith.select %[[SEES1]], %[[RCP1]], %[[ZERO]] : f32
// CHECK-NEXT: %[[C8H1:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[TROW1:[0-9]+]] = arith.addi %[[FROW1]], %[[C8H1]] : i32
// CHECK-NEXT: %[[GA1:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[QR1:[0-9]+]] = arith.divui %[[TROW1]], %[[GA1]] : i32
// CHECK-NEXT: %[[QROW1:[0-9]+]] = arith.addi %[[ROW]], %[[QR1]] : i32
// CHECK-NEXT: %[[GB1:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[HR1:[0-9]+]] = arith.remui %[[TROW1]], %[[GB1]] : i32
// CHECK-NEXT: %[[HEAD1:[0-9]+]] = arith.addi %[[H]], %[[HR1]] : i32
// CHECK-NEXT: %[[INQ1:[0-9]+]] = arith.cmpi slt, %[[QROW1]], %[[SQ]] : i32
// CHECK-NEXT: %[[FULL1:.+]] = arith.constant 63 : i32
// CHECK-NEXT: %[[INT1:[0-9]+]] = arith.cmpi slt, %[[TROW1]], %[[FULL1]] : i32
// CHECK-NEXT: %[[INR1:[0-9]+]] = arith.andi %[[INQ1]], %[[INT1]] : i1
// CHECK-DAG: %[[BX1:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS1:[0-9]+]] = arith.muli %[[BX1]], %[[S0]] : i64
// CHECK-DAG: %[[RX1:[0-9]+]] = arith.extsi %[[QROW1]] : i32 to i64
// CHECK-DAG: %[[RS1:[0-9]+]] = arith.muli %[[RX1]], %[[S1]] : i64
// CHECK-DAG: %[[HX1:[0-9]+]] = arith.extsi %[[HEAD1]] : i32 to i64
// CHECK-DAG: %[[HS1:[0-9]+]] = arith.muli %[[HX1]], %[[S2]] : i64
// CHECK-DAG: %[[RH1:[0-9]+]] = arith.addi %[[RS1]], %[[HS1]] : i64
// CHECK: %[[BASE1:[0-9]+]] = arith.addi %[[BS1]], %[[RH1]] : i64
// CHECK: %[[COL1_0:[0-9]+]] = arith.addi %[[FCOL]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH1_0:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC1_0:[0-9]+]] = arith.cmpi slt, %[[COL1_0]], %[[DEPTH1_0]] : i32
// CHECK-NEXT: %[[INB1_0:[0-9]+]] = arith.andi %[[INR1]], %[[INC1_0]] : i1
// CHECK-NEXT: scf.if %[[INB1_0]] {
// CHECK-DAG: %[[LO1_0:[0-9]+]] = arith.mulf %[[R]]#2, %[[INV1]] : f32
// CHECK-DAG: %[[HI1_0:[0-9]+]] = arith.mulf %[[R]]#3, %[[INV1]] : f32
// CHECK: %[[U1_0:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_1_0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA1_0:[0-9]+]] = llvm.insertelement %[[LO1_0]], %[[U1_0]][%[[I0_1_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_1_0:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB1_0:[0-9]+]] = llvm.insertelement %[[HI1_0]], %[[VA1_0]][%[[I1_1_0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR1_0:[0-9]+]] = arith.truncf %[[VB1_0]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR1_0:[0-9]+]] = llvm.bitcast %[[TR1_0]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX1_0:[0-9]+]] = arith.extsi %[[COL1_0]] : i32 to i64
// CHECK-NEXT: %[[IDX1_0:[0-9]+]] = arith.addi %[[BASE1]], %[[COLX1_0]] : i64
// CHECK-NEXT: %[[ADDR1_0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX1_0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR1_0]], %[[ADDR1_0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[COL1_1:[0-9]+]] = arith.addi %[[FCOL]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[DEPTH1_1:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[INC1_1:[0-9]+]] = arith.cmpi slt, %[[COL1_1]], %[[DEPTH1_1]] : i32
// CHECK-NEXT: %[[INB1_1:[0-9]+]] = arith.andi %[[INR1]], %[[INC1_1]] : i1
// CHECK-NEXT: scf.if %[[INB1_1]] {
// CHECK-DAG: %[[LO1_1:[0-9]+]] = arith.mulf %[[R]]#6, %[[INV1]] : f32
// CHECK-DAG: %[[HI1_1:[0-9]+]] = arith.mulf %[[R]]#7, %[[INV1]] : f32
// CHECK: %[[U1_1:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT: %[[I0_1_1:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[VA1_1:[0-9]+]] = llvm.insertelement %[[LO1_1]], %[[U1_1]][%[[I0_1_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[I1_1_1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[VB1_1:[0-9]+]] = llvm.insertelement %[[HI1_1]], %[[VA1_1]][%[[I1_1_1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[TR1_1:[0-9]+]] = arith.truncf %[[VB1_1]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR1_1:[0-9]+]] = llvm.bitcast %[[TR1_1]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[COLX1_1:[0-9]+]] = arith.extsi %[[COL1_1]] : i32 to i64
// CHECK-NEXT: %[[IDX1_1:[0-9]+]] = arith.addi %[[BASE1]], %[[COLX1_1]] : i64
// CHECK-NEXT: %[[ADDR1_1:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[IDX1_1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR1_1]], %[[ADDR1_1]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK: %[[LQ1:[0-9]+]] = arith.remui %[[LANE1]], %c4_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[W1:[0-9]+]] = arith.cmpi eq, %[[LQ1]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[WR1:[0-9]+]] = arith.andi %[[INR1]], %[[W1]] : i1
// CHECK-NEXT: scf.if %[[WR1]] {
// CHECK-DAG: %[[NINF1:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[LN2_1:.+]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[LG1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[SUM1]]) : (f32) -> f32
// CHECK-DAG: %[[ML1:[0-9]+]] = arith.addf %[[R]]#9, %[[LG1]] : f32
// CHECK-DAG: %[[LN1:[0-9]+]] = arith.mulf %[[ML1]], %[[LN2_1]] : f32
// CHECK: %[[LSEV1:[0-9]+]] = arith.select %[[SEES1]], %[[LN1]], %[[NINF1]] : f32
// CHECK-DAG: %[[LRX1:[0-9]+]] = arith.extsi %[[QROW1]] : i32 to i64
// CHECK-DAG: %[[LHX1:[0-9]+]] = arith.extsi %[[HEAD1]] : i32 to i64
// CHECK-DAG: %[[LHS1:[0-9]+]] = arith.muli %[[LHX1]], %[[L1]] : i64
// CHECK-DAG: %[[LHR1:[0-9]+]] = arith.addi %[[LHS1]], %[[LRX1]] : i64
// CHECK-DAG: %[[LBX1:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[LBS1:[0-9]+]] = arith.muli %[[LBX1]], %[[L0]] : i64
// CHECK: %[[LIDX1:[0-9]+]] = arith.addi %[[LBS1]], %[[LHR1]] : i64
// CHECK-NEXT: %[[LADDR1:[0-9]+]] = llvm.getelementptr %[[LSE]][%[[LIDX1]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[LSEV1]], %[[LADDR1]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NOT: llvm.store
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %o: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %b: i32, %row: i32, %h: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %l0: i64, %l1: i64) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %a0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %x : !fa4.rows<64xf32>
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %m = %m0, %l = %m0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>) {
        scf.yield %a, %m, %l : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>
      }
      fa4.epilogue %r#0, %r#1, %r#2 to %o[%b, %row, %h] strides[%s0, %s1, %s2] sq %sq depth 16 of bf16 lse %lse strides[%l0, %l1] {group = 3 : i64} : !fa4.frag<64x16xf32>, <64xf32>, !llvm.ptr<1>, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// The structural conversion of loop- and branch-carried frags: scf.for and
// scf.if carry one value per register. A 64 x 16 f32 frag is 8 f32, a
// 64 x 32 bf16 frag 8 i32 (packed pairs), a rows value 2 f32; results and
// yields are split the same way, in order, and no cast is left behind.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[X:[a-z0-9]+]]: f32, %{{[a-z0-9]+}}: i32, %[[C:[a-z0-9]+]]: i1)
// CHECK: %[[PK:[0-9]+]] = llvm.bitcast %{{[0-9]+}} : vector<2xbf16> to i32
// CHECK: %[[L:[0-9]+]]:18 = scf.for %{{.+}} iter_args(%[[A0:[a-z0-9]+]] = %[[X]], %{{[a-z0-9]+}} = %[[X]], %{{[a-z0-9]+}} = %[[X]], %{{[a-z0-9]+}} = %[[X]], %{{[a-z0-9]+}} = %[[X]], %{{[a-z0-9]+}} = %[[X]], %{{[a-z0-9]+}} = %[[X]], %[[A7:[a-z0-9]+]] = %[[X]], %[[M0:[a-z0-9]+]] = %[[X]], %[[M1:[a-z0-9]+]] = %[[X]], %[[P0:[a-z0-9]+]] = %[[PK]], %{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}, %[[P7:[a-z0-9]+]] = %{{[0-9]+}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT: %[[IF:[0-9]+]]:10 = scf.if %[[C]] -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: scf.yield %[[A0]], {{.*}}, %[[A7]], %[[M0]], %[[M1]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: scf.yield %[[IF]]#0, %[[IF]]#1, %[[IF]]#2, %[[IF]]#3, %[[IF]]#4, %[[IF]]#5, %[[IF]]#6, %[[IF]]#7, %[[IF]]#8, %[[IF]]#9, %[[P0]], {{.*}}, %[[P7]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32, i32, i32, i32, i32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NOT: unrealized_conversion_cast
// CHECK-NOT: fa4.
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %n32: i32, %c: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %a0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %x : !fa4.rows<64xf32>
      %s = fa4.splat %x : !fa4.frag<64x32xf32>
      %p0 = fa4.truncf %s : <64x32xf32> to <64x32xbf16>
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %m = %m0, %p = %p0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.frag<64x32xbf16>) {
        %t:2 = scf.if %c -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>) {
          scf.yield %a, %m : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>
        } else {
          scf.yield %a0, %m0 : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>
        }
        scf.yield %t#0, %t#1, %p : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.frag<64x32xbf16>
      }
      gpu.return
    }
  }
}

// -----

// FA4's lazy rescale on sm_90a registers. fa4.softmax with
// rescaleThreshold keeps a row's old max while the new one exceeds it by
// at most 8 (its correction is then exp2(0) = 1); fa4.scale_rows lazy asks
// whether any of the thread's two factors differs from 1, votes across the
// warp (vote.sync any, all 32 lanes), and multiplies only under that
// warp-uniform branch; a warp whose rows all kept their max passes O
// through.
// CHECK-LABEL: llvm.func @f(
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %[[M0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[M1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %[[O0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O3:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O6:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[O7:[a-z0-9]+]] = %{{[a-z0-9]+}})
// CHECK: %[[NM0:[0-9]+]] = arith.maximumf %[[M0]], %{{[0-9]+}} : f32
// CHECK-NEXT: %[[GREW0:[0-9]+]] = arith.subf %[[NM0]], %[[M0]] : f32
// CHECK-NEXT: %[[T0:.+]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT: %[[KEEP0:[0-9]+]] = arith.cmpf ole, %[[GREW0]], %[[T0]] : f32
// CHECK-NEXT: %[[MAX0:[0-9]+]] = arith.select %[[KEEP0]], %[[M0]], %[[NM0]] : f32
// CHECK: %[[DM0:[0-9]+]] = arith.subf %[[M0]], %{{[0-9]+}} : f32
// CHECK-NEXT: %[[CORR0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[DM0]])
// CHECK: arith.cmpf ole
// CHECK: %[[DM1:[0-9]+]] = arith.subf %[[M1]], %{{[0-9]+}} : f32
// CHECK-NEXT: %[[CORR1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[DM1]])
// CHECK: %[[ONE0:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NE0:[0-9]+]] = arith.cmpf one, %[[CORR0]], %[[ONE0]] : f32
// CHECK-NEXT: %[[ONE1:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NE1:[0-9]+]] = arith.cmpf one, %[[CORR1]], %[[ONE1]] : f32
// CHECK-NEXT: %[[NE:[0-9]+]] = arith.ori %[[NE0]], %[[NE1]] : i1
// CHECK-NEXT: %[[ALL:.+]] = arith.constant -1 : i32
// CHECK-NEXT: %[[ANY:[0-9]+]] = nvvm.vote.sync any %[[ALL]], %[[NE]] -> i1
// CHECK-NEXT: %[[OS:[0-9]+]]:8 = scf.if %[[ANY]] -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[OS0:[0-9]+]] = arith.mulf %[[O0]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS1:[0-9]+]] = arith.mulf %[[O1]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS2:[0-9]+]] = arith.mulf %[[O2]], %[[CORR1]] : f32
// CHECK-NEXT: %[[OS3:[0-9]+]] = arith.mulf %[[O3]], %[[CORR1]] : f32
// CHECK-NEXT: %[[OS4:[0-9]+]] = arith.mulf %[[O4]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS5:[0-9]+]] = arith.mulf %[[O5]], %[[CORR0]] : f32
// CHECK-NEXT: %[[OS6:[0-9]+]] = arith.mulf %[[O6]], %[[CORR1]] : f32
// CHECK-NEXT: %[[OS7:[0-9]+]] = arith.mulf %[[O7]], %[[CORR1]] : f32
// CHECK-NEXT: scf.yield %[[OS0]], %[[OS1]], %[[OS2]], %[[OS3]], %[[OS4]], %[[OS5]], %[[OS6]], %[[OS7]] :
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[O0]], %[[O1]], %[[O2]], %[[O3]], %[[O4]], %[[O5]], %[[O6]], %[[O7]] :
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %{{.+}}, %[[MAX0]], %{{.+}}, %[[OS]]#0, %[[OS]]#1, %[[OS]]#2, %[[OS]]#3, %[[OS]]#4, %[[OS]]#5, %[[OS]]#6, %[[OS]]#7 :
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %y: f32, %n32: i32, %scale: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %y : !fa4.rows<64xf32>
      %l0 = fa4.splat %y : !fa4.rows<64xf32>
      %o0 = fa4.splat %x : !fa4.frag<64x16xf32>
      %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %m = %m0, %l = %l0, %o = %o0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x16xf32>) {
        %p, %nm, %ns, %c = fa4.softmax %s max %m sum %l scale %scale {rescaleThreshold = 8.0 : f64} : <64x16xf32>, <64xf32>
        %o2 = fa4.scale_rows lazy %o by %c : <64x16xf32>, <64xf32>
        scf.yield %p, %nm, %ns, %o2 : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x16xf32>
      }
      gpu.return
    }
  }
}

// -----

// reduction_chains = 4: each row's max and sum fold in four interleaved
// chains, then pairwise. Row 0 of a 64 x 32 frag is registers 0, 1, 4, 5,
// 8, 9, 12, 13; its max folds -inf and them as chains (-inf, 5, 13), (0, 8),
// (1, 9), (4, 12), then (chain 0, chain 1) and (chain 2, chain 3): a
// dependent path of 4 maximumf, not 8, before the lanes' shuffles. Its sum
// folds the corrected running sum and the 8 probabilities the same way.
// CHECK-LABEL: llvm.func @f(
// CHECK: scf.for %{{.+}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %[[S4:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S5:[a-z0-9]+]] = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %[[S8:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S9:[a-z0-9]+]] = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %[[S12:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S13:[a-z0-9]+]] = %{{[a-z0-9]+}}, %{{.+}}
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[C0A:[0-9]+]] = arith.maximumf %[[NEGINF]], %[[S5]] : f32
// CHECK: %[[C1:[0-9]+]] = arith.maximumf %[[S0]], %[[S8]] : f32
// CHECK-NEXT: %[[C2:[0-9]+]] = arith.maximumf %[[S1]], %[[S9]] : f32
// CHECK: %[[C3:[0-9]+]] = arith.maximumf %[[S4]], %[[S12]] : f32
// CHECK-NEXT: %[[C0:[0-9]+]] = arith.maximumf %[[C0A]], %[[S13]] : f32
// CHECK: %[[F01:[0-9]+]] = arith.maximumf %[[C0]], %[[C1]] : f32
// CHECK-NEXT: %[[F23:[0-9]+]] = arith.maximumf %[[C2]], %[[C3]] : f32
// CHECK-NEXT: %[[ROWMAX:[0-9]+]] = arith.maximumf %[[F01]], %[[F23]] : f32
// CHECK: gpu.shuffle xor %[[ROWMAX]]
// The sum of row 0: chains (sum, p5, p13), (p0, p8), (p1, p9), (p4, p12).
// CHECK: %[[SUM:[0-9]+]] = arith.mulf %{{.+}}, %[[CORR:[0-9]+]] : f32
// CHECK: %[[Q0A:[0-9]+]] = arith.addf %[[SUM]], %{{[0-9]+}} : f32
// CHECK: %[[Q0:[0-9]+]] = arith.addf %[[Q0A]], %{{[0-9]+}} : f32
// CHECK: %[[G01:[0-9]+]] = arith.addf %[[Q0]], %{{[0-9]+}} : f32
// CHECK-NEXT: %[[G23:[0-9]+]] = arith.addf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT: %[[ROWSUM:[0-9]+]] = arith.addf %[[G01]], %[[G23]] : f32
// CHECK: scf.yield {{.*}}%[[ROWSUM]]
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%x: f32, %y: f32, %n32: i32, %scale: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %s0 = fa4.splat %x : !fa4.frag<64x32xf32>
      %m0 = fa4.splat %y : !fa4.rows<64xf32>
      %l0 = fa4.splat %y : !fa4.rows<64xf32>
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %m = %m0, %l = %l0) -> (!fa4.frag<64x32xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>) {
        %p, %nm, %ns, %c = fa4.softmax %s max %m sum %l scale %scale {reductionChains = 4 : i64} : <64x32xf32>, <64xf32>
        scf.yield %p, %nm, %ns : !fa4.frag<64x32xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>
      }
      gpu.return
    }
  }
}
