// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm | FileCheck %s --enable-var-scope

// The row sums by MMA on sm_90a (convert-attn-to-fa4's tensor-core-row-sum).

// fa4.smem.row_sum_operand: 8 rows x 128 columns are two 1024-byte boxes,
// 128 chunks of 16 bytes. Thread t stores chunks t, t + blockDim.x, ...;
// chunk c is row 0 of its box (ones: bf16 1.0 = 0x3F80, two per word,
// 0x3F803F80 = 1065369472) when c % 64 < 8, else zeros. The stores are
// 16-byte vectors at the tile's shared-window address + 16 c, and a
// fence.proxy.async orders them before the MMAs' (async proxy) reads.
// CHECK-LABEL: llvm.func @operand()
// CHECK: %[[BASE:[0-9]+]] = arith.trunci
// CHECK: %[[TILE:[0-9]+]] = arith.addi %[[BASE]], %c197632_i32 : i32
// CHECK-DAG: %[[ONES:[0-9]+]] = llvm.mlir.constant(dense<1065369472> : vector<4xi32>) : vector<4xi32>
// CHECK-DAG: %[[ZEROS:[0-9]+]] = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
// CHECK: %[[TID:[0-9]+]] = arith.index_cast %thread_id_x : index to i32
// CHECK: %[[NTID:[0-9]+]] = arith.index_cast %block_dim_x : index to i32
// CHECK: scf.for %[[C:[a-z0-9]+]] = %[[TID]] to %c128_i32 step %[[NTID]]  : i32 {
// CHECK: %[[INBOX:[0-9]+]] = arith.remui %[[C]], %c64_i32 : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = arith.cmpi ult, %[[INBOX]], %c8_i32 : i32
// CHECK: %[[OFF:[0-9]+]] = arith.muli %[[C]], %c16_i32 : i32
// CHECK-NEXT: %[[ADDR:[0-9]+]] = arith.addi %[[TILE]], %[[OFF]] : i32
// CHECK-NEXT: %[[WIDE:[0-9]+]] = arith.extui %[[ADDR]] : i32 to i64
// CHECK-NEXT: %[[PTR:[0-9]+]] = llvm.inttoptr %[[WIDE]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[CHUNK:[0-9]+]] = arith.select %[[ROW0]], %[[ONES]], %[[ZEROS]] : vector<4xi32>
// CHECK-NEXT: llvm.store %[[CHUNK]], %[[PTR]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @operand() kernel {
      %offset = arith.constant 197632 : i32
      %ones = fa4.smem.tile %offset : !fa4.smem_tile<8x128xbf16, k_major>
      fa4.smem.row_sum_operand %ones : !fa4.smem_tile<8x128xbf16, k_major>
      gpu.return
    }
  }
}

// -----

// f16 ones: 0x3C00, 0x3C003C00 = 1006648320.
// CHECK-LABEL: llvm.func @operand_f16()
// CHECK: llvm.mlir.constant(dense<1006648320> : vector<4xi32>)
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @operand_f16() kernel {
      %offset = arith.constant 0 : i32
      %ones = fa4.smem.tile %offset : !fa4.smem_tile<8x64xf16, k_major>
      fa4.smem.row_sum_operand %ones : !fa4.smem_tile<8x64xf16, k_major>
      gpu.return
    }
  }
}

// -----

// fa4.row_sum of a 64 x 8 frag: registers 0, 1 are the thread's columns of
// its first row, 2, 3 of its second (8 rows down), so each of its two rows
// sums two registers. The result is a thread's part, as the softmax's sum
// is: the LSE store finishes it over the quad (shuffles xor 1 and 2).
// CHECK-LABEL: llvm.func @sums(
// CHECK: %[[L:[0-9]+]]:4 = scf.for
// CHECK: %[[ROW0:[0-9]+]] = arith.addf %[[L]]#0, %[[L]]#1 : f32
// CHECK-NEXT: %[[ROW1:[0-9]+]] = arith.addf %[[L]]#2, %[[L]]#3 : f32
// CHECK: gpu.shuffle  xor %[[ROW0]], %c1_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @sums(%x: f32, %n32: i32, %p: !llvm.ptr<1>, %s: i64) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %n32 : i32 to index
      %l0 = fa4.splat %x : !fa4.frag<64x8xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%l = %l0) -> !fa4.frag<64x8xf32> {
        scf.yield %l : !fa4.frag<64x8xf32>
      }
      %sums = fa4.row_sum %r : !fa4.frag<64x8xf32> to !fa4.rows<64xf32>
      %m = fa4.splat %x : !fa4.rows<64xf32>
      fa4.lse.store %m, %sums to %p[%n32, %n32, %n32] strides [%s, %s] sq %n32 : <64xf32>, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// The MMA against the operand: P (64 x 112) times the 8 x 128 K-major B,
// seven steps of m64n8k16 with P's registers as A. B's descriptors step 32
// bytes within a box and move to the next box (8 rows x 128 bytes = 1024
// on) after four steps; the box's last 16 columns are not read.
// CHECK-LABEL: llvm.func @sums_by_mma(
// CHECK: %[[B:[0-9]+]] = arith.addi %{{[0-9]+}}, %c197632_i32 : i32
// CHECK: arith.addi %[[B]], %c0_i32
// CHECK: arith.addi %[[B]], %c32_i32
// CHECK: arith.addi %[[B]], %c64_i32
// CHECK: arith.addi %[[B]], %c96_i32
// CHECK: arith.addi %[[B]], %c1024_i32
// CHECK: arith.addi %[[B]], %c1056_i32
// CHECK: arith.addi %[[B]], %c1088_i32
// CHECK-NOT: arith.addi %[[B]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-7: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, 1, 1, 1, 0;
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @sums_by_mma(%x: f32) kernel {
      %offset = arith.constant 197632 : i32
      %ones = fa4.smem.tile %offset : !fa4.smem_tile<8x128xbf16, k_major>
      %s = fa4.splat %x : !fa4.frag<64x112xf32>
      %p = fa4.truncf %s : !fa4.frag<64x112xf32> to !fa4.frag<64x112xbf16>
      %l0 = fa4.splat %x : !fa4.frag<64x8xf32>
      %l = fa4.mma %p, %ones, %l0 : !fa4.frag<64x112xbf16>, !fa4.smem_tile<8x128xbf16, k_major>, !fa4.frag<64x8xf32>
      fa4.mma.wait
      gpu.return
    }
  }
}
