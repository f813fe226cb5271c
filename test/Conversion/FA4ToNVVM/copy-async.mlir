// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s --enable-var-scope

// fa4.copy_async.box: thread %t of 128 takes chunk %t % 8 of lines %t / 8,
// + 16, + 32 (40 lines: the third round only below line 40). Its source
// advances 16 rows a round, its destination 2048 bytes, the 128B swizzle
// (chunk xor line % 8) fixed; a chunk is in bounds below row %rows and
// chunk 4 (a box past the depth), else it reads nothing (source size 0,
// zero-filled) from the base. fa4.copy_async.arrive is cp.async.mbarrier.arrive
// without .noinc on the barrier's shared address.
// CHECK-LABEL: llvm.func @boxes(
// CHECK-SAME: %[[BASE:[^:]+]]: !llvm.ptr<1>, %[[ROWS:[^:]+]]: i32, %[[STRIDE:[^:]+]]: i64, %[[DST:[^:]+]]: i32, %[[T:[^:]+]]: i32)
// CHECK: %[[CHUNK:.+]] = arith.remui %[[T]], %c8_i32 : i32
// CHECK-NEXT: %[[LINE:.+]] = arith.divui %[[T]], %c8_i32 : i32
// CHECK-NEXT: %[[CHUNK_IN:.+]] = arith.cmpi ult, %[[CHUNK]], %c4_i32 : i32
// CHECK: %[[FIRST:.+]] = llvm.getelementptr %[[BASE]][%{{.+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT: %[[STEP:.+]] = arith.muli %[[STRIDE]], %c16_i64 : i64
// CHECK: %[[LINE_AT:.+]] = arith.addi %[[DST]], %{{.+}} : i32
// CHECK-NEXT: %[[BLOCK:.+]] = arith.divui %[[LINE_AT]], %c128_i32 : i32
// CHECK-NEXT: %[[SWIZZLE:.+]] = arith.andi %[[BLOCK]], %c7_i32 : i32
// CHECK-NEXT: %[[XOR:.+]] = arith.xori %[[CHUNK]], %[[SWIZZLE]] : i32
// CHECK-NEXT: %[[CHUNK_AT:.+]] = arith.muli %[[XOR]], %c16_i32 : i32
// CHECK-NEXT: %[[ROW_IN:.+]] = arith.cmpi ult, %[[LINE]], %[[ROWS]] : i32
// CHECK-NEXT: %[[IN:.+]] = arith.andi %[[ROW_IN]], %[[CHUNK_IN]] : i1
// CHECK-NEXT: %[[SRC:.+]] = arith.select %[[IN]], %[[FIRST]], %[[BASE]] : !llvm.ptr<1>
// CHECK-NEXT: %[[AT:.+]] = arith.addi %[[LINE_AT]], %[[CHUNK_AT]] : i32
// CHECK-NEXT: %[[BYTES:.+]] = arith.select %[[IN]], %c16_i32, %c0_i32 : i32
// CHECK-NEXT: %[[SMEM:.+]] = arith.addi %{{.+}}, %[[AT]] : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r,~{memory}" %[[SMEM]], %[[SRC]], %[[BYTES]]
// CHECK-NEXT: %[[LINE1:.+]] = arith.addi %[[LINE]], %c16_i32 : i32
// CHECK-NEXT: %[[SRC1:.+]] = llvm.getelementptr %[[FIRST]][%[[STEP]]]
// CHECK-NEXT: %[[ROW1_IN:.+]] = arith.cmpi ult, %[[LINE1]], %[[ROWS]] : i32
// CHECK: %[[AT1:.+]] = arith.addi %[[LINE_AT]], %c2048_i32 : i32
// CHECK-NEXT: arith.addi %[[AT1]], %[[CHUNK_AT]] : i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global
// CHECK-NEXT: %[[LINE2:.+]] = arith.addi %[[LINE]], %c32_i32 : i32
// CHECK-NEXT: %[[IN_BOX:.+]] = arith.cmpi ult, %[[LINE2]], %c40_i32 : i32
// CHECK-NEXT: scf.if %[[IN_BOX]] {
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global
// CHECK-NEXT: {{^ *}}}
// CHECK-NOT: cp.async.cg
// CHECK: %[[BAR:.+]] = llvm.getelementptr %{{.+}}[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BAR_AT:.+]] = llvm.ptrtoint %[[BAR]] : !llvm.ptr<3> to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.mbarrier.arrive.shared::cta.b64 [$0];", "r,~{memory}" %[[BAR_AT]]
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @boxes(%base: !llvm.ptr<1>, %rows: i32, %stride: i64, %dst: i32, %t: i32) kernel {
      %c0 = arith.constant 0 : i64
      fa4.copy_async.box %base rows %rows stride %stride group 1 stride %c0 lines 40 chunks 4 to %dst thread %t of 128 : !llvm.ptr<1>
      %c0_i32 = arith.constant 0 : i32
      %b = fa4.mbarrier.get %c0_i32 offset 1024
      fa4.copy_async.arrive %b
      gpu.return
    }
  }
}
