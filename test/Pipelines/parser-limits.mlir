// fa4-compile refuses a reference to result 2^31 of a value before parsing:
// MLIR 22's parser allocates that many placeholders and aborts out of
// memory (upstream mlir-opt too; found by scripts/fuzz-compiler.py).
// RUN: not fa4-compile %s --chip=sm_90a -o %t --quiet --ptxas=none 2>&1 | FileCheck %s
// CHECK: fa4-compile: {{.*}}parser-limits.mlir:13: result number 2147483647 of %t is past the 65536 this tool accepts

func.func @f(%c: i1, %x: i32) {
  %t:2 = scf.if %c -> (i32, i32) {
    scf.yield %x, %x : i32, i32
  } else {
    scf.yield %x, %x : i32, i32
  }
  %y = arith.addi %t#0, %t#2147483647 : i32
  return
}
