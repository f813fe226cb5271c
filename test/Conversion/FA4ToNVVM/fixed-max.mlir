// RUN: fa4-opt %s --convert-fa4-to-nvvm -cse | FileCheck %s

// The fixed max under a softcap on sm_90a (D-68); chip.mlir has sm_100a's
// refusal of fa4.row_sums.
//
// fa4.smem.ones_row: the warpgroup's 128 threads write the 8 x 176 K-major
// tile (3 boxes of 64 columns, 192 chunks of 16 bytes) in two passes, the
// second for threads 0-63 only; chunk c is in row (c / 8) % 8 of its box,
// and row 0's chunks are bf16 ones (0x3F80 pairs, 1065369472), the rest
// zeros. Then the tile is fenced for the async proxy that wgmma reads.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[OFFSET:arg0]]: i32, %[[SCALE:arg1]]: f32
// CHECK: %[[T:[0-9]+]] = arith.remui %{{[0-9]+}}, %c128_i32 : i32
// CHECK: %[[ONES:[0-9]+]] = llvm.mlir.constant(dense<1065369472> : vector<4xi32>) : vector<4xi32>
// CHECK-NEXT: %[[ZEROS:[0-9]+]] = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
// CHECK: %[[C0:[0-9]+]] = arith.addi %[[T]], %c0_i32 : i32
// CHECK: %[[IN0:[0-9]+]] = arith.cmpi slt, %[[C0]], %c192_i32 : i32
// CHECK-NEXT: scf.if %[[IN0]] {
// CHECK: %[[ROWS0:[0-9]+]] = arith.divui %[[C0]], %c8_i32 : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.remui %[[ROWS0]], %c8_i32 : i32
// CHECK-NEXT: %[[IS0:[0-9]+]] = arith.cmpi eq, %[[ROW0]], %c0_i32 : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = arith.select %[[IS0]], %[[ONES]], %[[ZEROS]] : vector<4xi32>
// CHECK: %[[B0:[0-9]+]] = arith.muli %[[C0]], %c16_i32 : i32
// CHECK-NEXT: %[[A0:[0-9]+]] = arith.addi %[[OFFSET]], %[[B0]] : i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%[[A0]]]
// CHECK-NEXT: llvm.store %[[V0]], %[[P0]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: %[[C1:[0-9]+]] = arith.addi %[[T]], %c128_i32 : i32
// CHECK: arith.cmpi slt, %[[C1]], %c192_i32 : i32
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//
// fa4.softmax {fixedMax}: each probability is one FMA against the row's
// kept max and one ex2, the row sums add them; no row maxima (no shuffle,
// no max), no correction (no second exp2 per row).
// CHECK: scf.for {{.*}} iter_args(%[[S0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[S1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %{{[a-z0-9]+}} = %{{[a-z0-9]+}}, %[[M0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[M1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A0:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A1:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A2:[a-z0-9]+]] = %{{[a-z0-9]+}}, %[[A3:[a-z0-9]+]] = %{{[a-z0-9]+}})
// CHECK-NEXT: %[[NEG0:[0-9]+]] = arith.negf %[[M0]] : f32
// CHECK-NEXT: %[[NEG1:[0-9]+]] = arith.negf %[[M1]] : f32
// CHECK-NEXT: %[[X0:[0-9]+]] = llvm.intr.fma(%[[S0]], %[[SCALE]], %[[NEG0]])
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X0]])
// CHECK-NEXT: %[[SUM0:[0-9]+]] = arith.addf %[[M0]], %[[P0]] : f32
// CHECK-NEXT: %[[X1:[0-9]+]] = llvm.intr.fma(%[[S1]], %[[SCALE]], %[[NEG0]])
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: arith.maximumf
// CHECK-NOT: llvm.intr.maxnum
//
// fa4.row_sums: a 64 x 8 frag's registers 0, 1 (row FROW) and 2, 3 (row
// FROW + 8) added to the rows' shares.
// CHECK: %[[R0:[0-9]+]] = arith.addf %{{[0-9]+}}, %[[A0]] : f32
// CHECK-NEXT: arith.addf %[[R0]], %[[A1]] : f32
// CHECK-NEXT: %[[R1:[0-9]+]] = arith.addf %{{[0-9]+}}, %[[A2]] : f32
// CHECK-NEXT: arith.addf %[[R1]], %[[A3]] : f32
// CHECK-NEXT: scf.yield
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%offset: i32, %scale: f32, %n32: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %n = arith.index_cast %n32 : i32 to index
      %ones = fa4.smem.ones_row %offset : !fa4.smem_tile<8x176xbf16, k_major>
      %s0 = fa4.splat %zero : !fa4.frag<64x16xf32>
      %m0 = fa4.splat %zero : !fa4.rows<64xf32>
      %a0 = fa4.splat %zero : !fa4.frag<64x8xf32>
      %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %m = %m0, %a = %a0) -> (!fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.frag<64x8xf32>) {
        %p, %m1, %l1, %c = fa4.softmax %s max %m sum %m scale %scale {fixedMax} : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>
        %t = fa4.row_sums %a plus %l1 : !fa4.frag<64x8xf32>, !fa4.rows<64xf32>
        scf.yield %p, %t, %a : !fa4.frag<64x16xf32>, !fa4.rows<64xf32>, !fa4.frag<64x8xf32>
      }
      gpu.return
    }
  }
}

