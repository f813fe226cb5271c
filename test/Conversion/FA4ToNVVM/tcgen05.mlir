// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm | FileCheck %s --check-prefix=LEFT

// LEFT (before canonicalize, which could fold a cast round trip away): no
// case leaves an unrealized_conversion_cast, an fa4 op or a gpu.func.
// LEFT-NOT: unrealized_conversion_cast
// LEFT-NOT: fa4.
// LEFT-NOT: gpu.func

// The sm_100a (tcgen05) lowering of the fa4 kernel dialect. A 128 x N frag
// is one row per thread of a warpgroup (thread t = tid % 128 holds row t: N
// f32, or N / 2 packed i32 for 16-bit), a rows value is the thread's own row,
// and TMEM is reached through !llvm.ptr<6> addresses lane << 16 | column.
// Warp w of a warpgroup may only touch TMEM lanes 32w..32w+31 (PTX ISA,
// "Tensor Memory" access restrictions), so every tcgen05.ld/st address
// carries the lane base ((t / 32) * 32) << 16. One case per lowering
// decision; the constants are the PTX ISA encodings, worked out in the
// comments.

// fa4.tmem.alloc: one tcgen05.alloc writing the allocation's base address
// into the shared-memory slot at the op's offset (a GEP of
// @fa4_dynamic_smem), with the column count, then relinquish_alloc_permit so
// a co-resident CTA is not blocked. fa4.tmem.dealloc reads the base back
// from the same slot, turns it into a TMEM pointer and frees the same count.
// CHECK-LABEL: llvm.func @alloc()
// CHECK-DAG: %[[SMEM:[0-9]+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK-DAG: %[[COLS:[a-z0-9_]+]] = arith.constant 256 : i32
// CHECK: %[[SLOT:[0-9]+]] = llvm.getelementptr %[[SMEM]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.tcgen05.alloc %[[SLOT]], %[[COLS]] : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[TMEM:[0-9]+]] = llvm.inttoptr %[[BASE]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.dealloc %[[TMEM]], %[[COLS]] : !llvm.ptr<6>, i32
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @alloc() kernel {
      fa4.tmem.alloc 256 columns to 1024
      fa4.tmem.dealloc 256 columns at 1024
      gpu.return
    }
  }
}

// -----

// fa4.tmem.tile: the allocation's i32 base, loaded from its shared-memory
// slot (byte 2048 here), plus the tile's first column (96), as a TMEM
// pointer. The tmem.load (128 x 32 bf16: 16 TMEM columns, one ld) is only
// its user: the ld's address is this pointer plus the warp's lane base.
// CHECK-LABEL: llvm.func @tile()
// CHECK-DAG: %[[SMEM:[0-9]+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK-DAG: %[[C96:[a-z0-9_]+]] = arith.constant 96 : i32
// CHECK: %[[SLOT:[0-9]+]] = llvm.getelementptr %[[SMEM]][2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[COL:[0-9]+]] = arith.addi %[[BASE]], %[[C96]] : i32
// CHECK-NEXT: %[[TILE:[0-9]+]] = llvm.inttoptr %[[COL]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: llvm.ptrtoint %[[TILE]] : !llvm.ptr<6> to i32
// CHECK: nvvm.tcgen05.ld %{{[0-9]+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @tile() kernel {
      %t = fa4.tmem.tile column 96 of 2048 : !fa4.tmem_tile<128x32xbf16>
      %s = fa4.tmem.load %t : <128x32xbf16> -> <128x32xbf16>
      gpu.return
    }
  }
}

// -----

// fa4.tmem.mma, S = Q K^T: A = Q (128 x 128) and B = K (64 x 128), both
// K-major bf16 in shared memory, D = a 128 x 64 f32 TMEM tile, K = 128:
// exactly K / 16 = 8 tcgen05.mma.cta_group::1.kind::f16, the first with the
// op's accumulate flag (false overwrites D), the other 7 with true.
// The instruction descriptor (PTX ISA "Instruction descriptor", .kind::f16):
// dtype F32 = 1 << 4 = 16, atype BF16 = 1 << 7 = 128, btype BF16 = 1 << 10 =
// 1024, no transposes (K-major), N >> 3 = 8 at bit 17 = 1048576, M >> 4 = 8
// at bit 24 = 134217728: 135267472.
// The shared-memory descriptor (PTX ISA "Shared memory descriptor layout"):
// the low word is ((address >> 4) & 0x3FFF) OR-ed into LBO 16 >> 4 = 1 at
// bit 16 (65536); the high word is constant: SBO 1024 >> 4 = 64 at bit 32
// (274877906944), the fixed 0b001 at bits 46-48 (2^46) and 128B swizzle = 2
// at bits 61-63 (2^62): 4611756662049472512. Each tile's low word is built
// once; step s adds (byte offset >> 4) to it, a 32-bit add, and joins the
// high word: 32 bytes (16 bf16) per step within a 64-column box (>> 4 = 2),
// and the next box is rows * 128 bytes on: Q's 128 rows make 16384 bytes
// (1024), K's 64 rows 8192 (512). Steps 0-7 add 0, 2, 4, 6, 1024, 1026,
// 1028, 1030 to Q's low word and 0, 2, 4, 6, 512, 514, 516, 518 to K's.
// CHECK-LABEL: llvm.func @mma_ss(
// CHECK-SAME: %[[QO:[a-z0-9]+]]: i32, %[[KO:[a-z0-9]+]]: i32, %[[ACC:[a-z0-9]+]]: i1)
// CHECK-DAG: %[[IDESC:[a-z0-9_]+]] = arith.constant 135267472 : i32
// CHECK-DAG: %[[HIGH:[a-z0-9_]+]] = arith.constant 4611756662049472512 : i64
// CHECK-DAG: %[[LBO:[a-z0-9_]+]] = arith.constant 65536 : i32
// CHECK-DAG: %[[TRUE:[a-z0-9_]+]] = arith.constant true
// CHECK-DAG: %[[C4:[a-z0-9_]+]] = arith.constant 4 : i32
// CHECK-DAG: %[[MASK:[a-z0-9_]+]] = arith.constant 16383 : i32
// CHECK-DAG: %[[S2:[a-z0-9_]+]] = arith.constant 2 : i32
// CHECK-DAG: %[[S6:[a-z0-9_]+]] = arith.constant 6 : i32
// CHECK-DAG: %[[S512:[a-z0-9_]+]] = arith.constant 512 : i32
// CHECK-DAG: %[[S514:[a-z0-9_]+]] = arith.constant 514 : i32
// CHECK-DAG: %[[S516:[a-z0-9_]+]] = arith.constant 516 : i32
// CHECK-DAG: %[[S518:[a-z0-9_]+]] = arith.constant 518 : i32
// CHECK-DAG: %[[S1024:[a-z0-9_]+]] = arith.constant 1024 : i32
// CHECK-DAG: %[[S1026:[a-z0-9_]+]] = arith.constant 1026 : i32
// CHECK-DAG: %[[S1028:[a-z0-9_]+]] = arith.constant 1028 : i32
// CHECK-DAG: %[[S1030:[a-z0-9_]+]] = arith.constant 1030 : i32
// CHECK: %[[SMEM:[0-9]+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK-NEXT: %[[SMEM64:[0-9]+]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[SMEM32:[0-9]+]] = arith.trunci %[[SMEM64]] : i64 to i32
// CHECK-NEXT: %[[QA:[0-9]+]] = arith.addi %[[SMEM32]], %[[QO]] : i32
// CHECK-NEXT: %[[KA:[0-9]+]] = arith.addi %[[SMEM32]], %[[KO]] : i32
// CHECK-NEXT: %[[SLOT:[0-9]+]] = llvm.getelementptr %[[SMEM]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[D:[0-9]+]] = llvm.inttoptr %[[BASE]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[QSH:[0-9]+]] = arith.shrui %[[QA]], %[[C4]] : i32
// CHECK-NEXT: %[[QM:[0-9]+]] = arith.andi %[[QSH]], %[[MASK]] : i32
// CHECK-NEXT: %[[QL:[0-9]+]] = arith.ori %[[QM]], %[[LBO]] : i32
// CHECK-NEXT: %[[KSH:[0-9]+]] = arith.shrui %[[KA]], %[[C4]] : i32
// CHECK-NEXT: %[[KM:[0-9]+]] = arith.andi %[[KSH]], %[[MASK]] : i32
// CHECK-NEXT: %[[KL:[0-9]+]] = arith.ori %[[KM]], %[[LBO]] : i32
// CHECK-NEXT: %[[QX0:[0-9]+]] = arith.extui %[[QL]] : i32 to i64
// CHECK-NEXT: %[[QD0:[0-9]+]] = arith.ori %[[QX0]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KX0:[0-9]+]] = arith.extui %[[KL]] : i32 to i64
// CHECK-NEXT: %[[KD0:[0-9]+]] = arith.ori %[[KX0]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD0]], %[[KD0]], %[[IDESC]], %[[ACC]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL1:[0-9]+]] = arith.addi %[[QL]], %[[S2]] : i32
// CHECK-NEXT: %[[QX1:[0-9]+]] = arith.extui %[[QL1]] : i32 to i64
// CHECK-NEXT: %[[QD1:[0-9]+]] = arith.ori %[[QX1]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL1:[0-9]+]] = arith.addi %[[KL]], %[[S2]] : i32
// CHECK-NEXT: %[[KX1:[0-9]+]] = arith.extui %[[KL1]] : i32 to i64
// CHECK-NEXT: %[[KD1:[0-9]+]] = arith.ori %[[KX1]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD1]], %[[KD1]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL2:[0-9]+]] = arith.addi %[[QL]], %[[C4]] : i32
// CHECK-NEXT: %[[QX2:[0-9]+]] = arith.extui %[[QL2]] : i32 to i64
// CHECK-NEXT: %[[QD2:[0-9]+]] = arith.ori %[[QX2]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL2:[0-9]+]] = arith.addi %[[KL]], %[[C4]] : i32
// CHECK-NEXT: %[[KX2:[0-9]+]] = arith.extui %[[KL2]] : i32 to i64
// CHECK-NEXT: %[[KD2:[0-9]+]] = arith.ori %[[KX2]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD2]], %[[KD2]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL3:[0-9]+]] = arith.addi %[[QL]], %[[S6]] : i32
// CHECK-NEXT: %[[QX3:[0-9]+]] = arith.extui %[[QL3]] : i32 to i64
// CHECK-NEXT: %[[QD3:[0-9]+]] = arith.ori %[[QX3]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL3:[0-9]+]] = arith.addi %[[KL]], %[[S6]] : i32
// CHECK-NEXT: %[[KX3:[0-9]+]] = arith.extui %[[KL3]] : i32 to i64
// CHECK-NEXT: %[[KD3:[0-9]+]] = arith.ori %[[KX3]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD3]], %[[KD3]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL4:[0-9]+]] = arith.addi %[[QL]], %[[S1024]] : i32
// CHECK-NEXT: %[[QX4:[0-9]+]] = arith.extui %[[QL4]] : i32 to i64
// CHECK-NEXT: %[[QD4:[0-9]+]] = arith.ori %[[QX4]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL4:[0-9]+]] = arith.addi %[[KL]], %[[S512]] : i32
// CHECK-NEXT: %[[KX4:[0-9]+]] = arith.extui %[[KL4]] : i32 to i64
// CHECK-NEXT: %[[KD4:[0-9]+]] = arith.ori %[[KX4]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD4]], %[[KD4]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL5:[0-9]+]] = arith.addi %[[QL]], %[[S1026]] : i32
// CHECK-NEXT: %[[QX5:[0-9]+]] = arith.extui %[[QL5]] : i32 to i64
// CHECK-NEXT: %[[QD5:[0-9]+]] = arith.ori %[[QX5]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL5:[0-9]+]] = arith.addi %[[KL]], %[[S514]] : i32
// CHECK-NEXT: %[[KX5:[0-9]+]] = arith.extui %[[KL5]] : i32 to i64
// CHECK-NEXT: %[[KD5:[0-9]+]] = arith.ori %[[KX5]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD5]], %[[KD5]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL6:[0-9]+]] = arith.addi %[[QL]], %[[S1028]] : i32
// CHECK-NEXT: %[[QX6:[0-9]+]] = arith.extui %[[QL6]] : i32 to i64
// CHECK-NEXT: %[[QD6:[0-9]+]] = arith.ori %[[QX6]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL6:[0-9]+]] = arith.addi %[[KL]], %[[S516]] : i32
// CHECK-NEXT: %[[KX6:[0-9]+]] = arith.extui %[[KL6]] : i32 to i64
// CHECK-NEXT: %[[KD6:[0-9]+]] = arith.ori %[[KX6]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD6]], %[[KD6]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: %[[QL7:[0-9]+]] = arith.addi %[[QL]], %[[S1030]] : i32
// CHECK-NEXT: %[[QX7:[0-9]+]] = arith.extui %[[QL7]] : i32 to i64
// CHECK-NEXT: %[[QD7:[0-9]+]] = arith.ori %[[QX7]], %[[HIGH]] : i64
// CHECK-NEXT: %[[KL7:[0-9]+]] = arith.addi %[[KL]], %[[S518]] : i32
// CHECK-NEXT: %[[KX7:[0-9]+]] = arith.extui %[[KL7]] : i32 to i64
// CHECK-NEXT: %[[KD7:[0-9]+]] = arith.ori %[[KX7]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[QD7]], %[[KD7]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, i64, i64, i32, i1)
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mma_ss(%qo: i32, %ko: i32, %acc: i1) kernel {
      %q = fa4.smem.tile %qo : !fa4.smem_tile<128x128xbf16, k_major>
      %k = fa4.smem.tile %ko : !fa4.smem_tile<64x128xbf16, k_major>
      %s = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x64xf32>
      fa4.tmem.mma %q, %k into %s accumulate %acc : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<64x128xbf16, k_major>, !fa4.tmem_tile<128x64xf32>
      gpu.return
    }
  }
}

// -----

// fa4.tmem.mma, O += P V: A = P, a 128 x 128 bf16 TMEM tile (64 columns at
// column 64), B = V, 128 x 128 bf16 MN-major in shared memory, D = O at
// column 256. Still 8 steps (K = P's 128 elements). A's address moves 8 TMEM
// columns per step (16 bf16 packed two per column): +0, +8, ..., +56.
// The instruction descriptor: as above with N = 128 (N >> 3 = 16 at bit
// 17 = 2097152), 136316048, plus transpose B (MN-major V), bit 16 = 65536:
// 136381584.
// V's descriptor has the same high word (4611756662049472512) and, in its
// low word, LBO = the distance to the next 64-column box of N, 128 rows *
// 128 bytes = 16384 (>> 4 = 1024 at bit 16 = 67108864). An MN-major step
// is 16 rows of 128 bytes = 2048 bytes (>> 4 = 128): +128, +256, ..., +896
// on the low word.
// CHECK-LABEL: llvm.func @mma_ts(
// CHECK-SAME: %[[VO:[a-z0-9]+]]: i32, %[[ACC:[a-z0-9]+]]: i1)
// CHECK-DAG: %[[IDESC:[a-z0-9_]+]] = arith.constant 136381584 : i32
// CHECK-DAG: %[[HIGH:[a-z0-9_]+]] = arith.constant 4611756662049472512 : i64
// CHECK-DAG: %[[LBO:[a-z0-9_]+]] = arith.constant 67108864 : i32
// CHECK-DAG: %[[TRUE:[a-z0-9_]+]] = arith.constant true
// CHECK-DAG: %[[C4:[a-z0-9_]+]] = arith.constant 4 : i32
// CHECK-DAG: %[[MASK:[a-z0-9_]+]] = arith.constant 16383 : i32
// CHECK-DAG: %[[C64:[a-z0-9_]+]] = arith.constant 64 : i32
// CHECK-DAG: %[[C256:[a-z0-9_]+]] = arith.constant 256 : i32
// CHECK-DAG: %[[A1:[a-z0-9_]+]] = arith.constant 8 : i32
// CHECK-DAG: %[[B1:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK-DAG: %[[A2:[a-z0-9_]+]] = arith.constant 16 : i32
// CHECK-DAG: %[[A3:[a-z0-9_]+]] = arith.constant 24 : i32
// CHECK-DAG: %[[B3:[a-z0-9_]+]] = arith.constant 384 : i32
// CHECK-DAG: %[[A4:[a-z0-9_]+]] = arith.constant 32 : i32
// CHECK-DAG: %[[B4:[a-z0-9_]+]] = arith.constant 512 : i32
// CHECK-DAG: %[[A5:[a-z0-9_]+]] = arith.constant 40 : i32
// CHECK-DAG: %[[B5:[a-z0-9_]+]] = arith.constant 640 : i32
// CHECK-DAG: %[[A6:[a-z0-9_]+]] = arith.constant 48 : i32
// CHECK-DAG: %[[B6:[a-z0-9_]+]] = arith.constant 768 : i32
// CHECK-DAG: %[[A7:[a-z0-9_]+]] = arith.constant 56 : i32
// CHECK-DAG: %[[B7:[a-z0-9_]+]] = arith.constant 896 : i32
// CHECK: %[[SMEM:[0-9]+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK-NEXT: %[[SMEM64:[0-9]+]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[SMEM32:[0-9]+]] = arith.trunci %[[SMEM64]] : i64 to i32
// CHECK-NEXT: %[[VA:[0-9]+]] = arith.addi %[[SMEM32]], %[[VO]] : i32
// CHECK-NEXT: %[[SLOT:[0-9]+]] = llvm.getelementptr %[[SMEM]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[PCOL:[0-9]+]] = arith.addi %[[BASE]], %[[C64]] : i32
// CHECK-NEXT: %[[P:[0-9]+]] = llvm.inttoptr %[[PCOL]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[OCOL:[0-9]+]] = arith.addi %[[BASE]], %[[C256]] : i32
// CHECK-NEXT: %[[O:[0-9]+]] = llvm.inttoptr %[[OCOL]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VSH:[0-9]+]] = arith.shrui %[[VA]], %[[C4]] : i32
// CHECK-NEXT: %[[VM:[0-9]+]] = arith.andi %[[VSH]], %[[MASK]] : i32
// CHECK-NEXT: %[[VL:[0-9]+]] = arith.ori %[[VM]], %[[LBO]] : i32
// CHECK-NEXT: %[[PI:[0-9]+]] = llvm.ptrtoint %[[P]] : !llvm.ptr<6> to i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.inttoptr %[[PI]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VX0:[0-9]+]] = arith.extui %[[VL]] : i32 to i64
// CHECK-NEXT: %[[VD0:[0-9]+]] = arith.ori %[[VX0]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P0]], %[[VD0]], %[[IDESC]], %[[ACC]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC1:[0-9]+]] = arith.addi %[[PI]], %[[A1]] : i32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.inttoptr %[[PC1]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL1:[0-9]+]] = arith.addi %[[VL]], %[[B1]] : i32
// CHECK-NEXT: %[[VX1:[0-9]+]] = arith.extui %[[VL1]] : i32 to i64
// CHECK-NEXT: %[[VD1:[0-9]+]] = arith.ori %[[VX1]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P1]], %[[VD1]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC2:[0-9]+]] = arith.addi %[[PI]], %[[A2]] : i32
// CHECK-NEXT: %[[P2:[0-9]+]] = llvm.inttoptr %[[PC2]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL2:[0-9]+]] = arith.addi %[[VL]], %[[C256]] : i32
// CHECK-NEXT: %[[VX2:[0-9]+]] = arith.extui %[[VL2]] : i32 to i64
// CHECK-NEXT: %[[VD2:[0-9]+]] = arith.ori %[[VX2]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P2]], %[[VD2]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC3:[0-9]+]] = arith.addi %[[PI]], %[[A3]] : i32
// CHECK-NEXT: %[[P3:[0-9]+]] = llvm.inttoptr %[[PC3]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL3:[0-9]+]] = arith.addi %[[VL]], %[[B3]] : i32
// CHECK-NEXT: %[[VX3:[0-9]+]] = arith.extui %[[VL3]] : i32 to i64
// CHECK-NEXT: %[[VD3:[0-9]+]] = arith.ori %[[VX3]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P3]], %[[VD3]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC4:[0-9]+]] = arith.addi %[[PI]], %[[A4]] : i32
// CHECK-NEXT: %[[P4:[0-9]+]] = llvm.inttoptr %[[PC4]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL4:[0-9]+]] = arith.addi %[[VL]], %[[B4]] : i32
// CHECK-NEXT: %[[VX4:[0-9]+]] = arith.extui %[[VL4]] : i32 to i64
// CHECK-NEXT: %[[VD4:[0-9]+]] = arith.ori %[[VX4]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P4]], %[[VD4]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC5:[0-9]+]] = arith.addi %[[PI]], %[[A5]] : i32
// CHECK-NEXT: %[[P5:[0-9]+]] = llvm.inttoptr %[[PC5]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL5:[0-9]+]] = arith.addi %[[VL]], %[[B5]] : i32
// CHECK-NEXT: %[[VX5:[0-9]+]] = arith.extui %[[VL5]] : i32 to i64
// CHECK-NEXT: %[[VD5:[0-9]+]] = arith.ori %[[VX5]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P5]], %[[VD5]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC6:[0-9]+]] = arith.addi %[[PI]], %[[A6]] : i32
// CHECK-NEXT: %[[P6:[0-9]+]] = llvm.inttoptr %[[PC6]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL6:[0-9]+]] = arith.addi %[[VL]], %[[B6]] : i32
// CHECK-NEXT: %[[VX6:[0-9]+]] = arith.extui %[[VL6]] : i32 to i64
// CHECK-NEXT: %[[VD6:[0-9]+]] = arith.ori %[[VX6]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P6]], %[[VD6]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: %[[PC7:[0-9]+]] = arith.addi %[[PI]], %[[A7]] : i32
// CHECK-NEXT: %[[P7:[0-9]+]] = llvm.inttoptr %[[PC7]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[VL7:[0-9]+]] = arith.addi %[[VL]], %[[B7]] : i32
// CHECK-NEXT: %[[VX7:[0-9]+]] = arith.extui %[[VL7]] : i32 to i64
// CHECK-NEXT: %[[VD7:[0-9]+]] = arith.ori %[[VX7]], %[[HIGH]] : i64
// CHECK-NEXT: nvvm.tcgen05.mma %[[O]], %[[P7]], %[[VD7]], %[[IDESC]], %[[TRUE]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>} : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mma_ts(%vo: i32, %acc: i1) kernel {
      %v = fa4.smem.tile %vo : !fa4.smem_tile<128x128xbf16, mn_major>
      %p = fa4.tmem.tile column 64 of 1024 : !fa4.tmem_tile<128x128xbf16>
      %o = fa4.tmem.tile column 256 of 1024 : !fa4.tmem_tile<128x128xf32>
      fa4.tmem.mma %p, %v into %o accumulate %acc : !fa4.tmem_tile<128x128xbf16>, !fa4.smem_tile<128x128xbf16, mn_major>, !fa4.tmem_tile<128x128xf32>
      gpu.return
    }
  }
}

// -----

// fa4.tmem.commit: tcgen05.commit arrives on the mbarrier's shared-memory
// address (barrier %i of the region at byte 4096: 4096 + 8 * %i) once the
// MMAs this thread issued are done. fa4.tmem.fence {after = true} is
// tcgen05.fence::after_thread_sync, {after = false} before_thread_sync, in
// program order.
// CHECK-LABEL: llvm.func @commit_fence(
// CHECK-SAME: %[[I:[a-z0-9]+]]: i32)
// CHECK-DAG: %[[C4096:[a-z0-9_]+]] = arith.constant 4096 : i32
// CHECK-DAG: %[[C8:[a-z0-9_]+]] = arith.constant 8 : i32
// CHECK-DAG: %[[SMEM:[0-9]+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK: %[[OFF:[0-9]+]] = arith.muli %[[I]], %[[C8]] : i32
// CHECK-NEXT: %[[BYTE:[0-9]+]] = arith.addi %[[OFF]], %[[C4096]] : i32
// CHECK-NEXT: %[[BAR:[0-9]+]] = llvm.getelementptr %[[SMEM]][%[[BYTE]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: nvvm.tcgen05.commit %[[BAR]] : !llvm.ptr<3>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @commit_fence(%i: i32) kernel {
      %b = fa4.mbarrier.get %i offset 4096
      fa4.tmem.fence {after = true}
      fa4.tmem.commit %b
      fa4.tmem.fence {after = false}
      gpu.return
    }
  }
}

// -----

// fa4.tmem.load of a 128 x 32 f32 tile (at column 32): first
// tcgen05.fence::after_thread_sync (order after the barrier that published
// the tile), then 2 tcgen05.ld.32x32b.x16 (16 columns = 16 i32 each) at the
// tile's address plus the warp's lane base ((t / 32) * 32) << 16, plus 16
// columns for the second, a single tcgen05.wait::ld after both, and only
// then the 32 words as f32 (bitcasts in column order). The truncf and
// store only consume them.
// CHECK-LABEL: llvm.func @load()
// CHECK-DAG: %[[C0:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C15:[a-z0-9_]+]] = arith.constant 15 : i32
// CHECK-DAG: %[[C16:[a-z0-9_]+]] = arith.constant 16 : i32
// CHECK-DAG: %[[C32:[a-z0-9_]+]] = arith.constant 32 : i32
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK-NEXT: %[[TID32:[0-9]+]] = arith.index_cast %[[TID]] : index to i32
// CHECK-NEXT: %[[T:[0-9]+]] = arith.remui %[[TID32]], %[[C128]] : i32
// CHECK: %[[BASE:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[COL:[0-9]+]] = arith.addi %[[BASE]], %[[C32]] : i32
// CHECK-NEXT: %[[TILE:[0-9]+]] = llvm.inttoptr %[[COL]] : i32 to !llvm.ptr<6>
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[TA:[0-9]+]] = llvm.ptrtoint %[[TILE]] : !llvm.ptr<6> to i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = arith.divui %[[T]], %[[C32]] : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = arith.muli %[[WARP]], %[[C32]] : i32
// CHECK-NEXT: %[[LANE16:[0-9]+]] = arith.shli %[[LANE]], %[[C16]] : i32
// CHECK-NEXT: %[[AD0:[0-9]+]] = arith.addi %[[TA]], %[[LANE16]] : i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.inttoptr %[[AD0]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V0:[0-9]+]] = nvvm.tcgen05.ld %[[P0]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.extractelement %[[V0]][%[[C0]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.extractelement %[[V0]][%[[C1]] : i32] : vector<16xi32>
// CHECK-COUNT-13: llvm.extractelement %[[V0]][
// CHECK-NEXT: llvm.extractelement %[[V0]][%[[C15]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[COL16:[0-9]+]] = arith.addi %[[LANE16]], %[[C16]] : i32
// CHECK-NEXT: %[[AD1:[0-9]+]] = arith.addi %[[TA]], %[[COL16]] : i32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.inttoptr %[[AD1]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V1:[0-9]+]] = nvvm.tcgen05.ld %[[P1]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[W16:[0-9]+]] = llvm.extractelement %[[V1]][%[[C0]] : i32] : vector<16xi32>
// CHECK-COUNT-14: llvm.extractelement %[[V1]][
// CHECK-NEXT: %[[W31:[0-9]+]] = llvm.extractelement %[[V1]][%[[C15]] : i32] : vector<16xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %{{[0-9]+}} = arith.bitcast %[[W0]] : i32 to f32
// CHECK-NEXT: %{{[0-9]+}} = arith.bitcast %[[W1]] : i32 to f32
// CHECK-COUNT-14: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %{{[0-9]+}} = arith.bitcast %[[W16]] : i32 to f32
// CHECK-COUNT-14: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %{{[0-9]+}} = arith.bitcast %[[W31]] : i32 to f32
// CHECK-NOT: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NOT: nvvm.tcgen05.ld
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @load() kernel {
      %t = fa4.tmem.tile column 32 of 1024 : !fa4.tmem_tile<128x32xf32>
      %s = fa4.tmem.load %t : <128x32xf32> -> <128x32xf32>
      %p = fa4.truncf %s : <128x32xf32> to <128x32xbf16>
      %u = fa4.tmem.tile column 64 of 1024 : !fa4.tmem_tile<128x32xbf16>
      fa4.tmem.store %p, %u : <128x32xbf16>, <128x32xbf16>
      gpu.return
    }
  }
}

// -----

// fa4.tmem.store of a 16-bit frag: a 128 x 64 bf16 frag is 32 packed i32
// per thread and a 128 x 64 bf16 tile 32 TMEM columns. The frag comes from
// a tmem.load of a bf16 tile, which moves the packed words as they are (no
// bitcast to f32). The store writes them in two tcgen05.st.32x32b.x16,
// words 0-15 at the tile (column 128) plus the lane base, words 16-31 16
// columns on, then tcgen05.wait::st and tcgen05.fence::before_thread_sync
// (so the next mbarrier arrival publishes the tile to the MMA thread).
// CHECK-LABEL: llvm.func @store()
// CHECK-DAG: %[[C0:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C15:[a-z0-9_]+]] = arith.constant 15 : i32
// CHECK-DAG: %[[C16:[a-z0-9_]+]] = arith.constant 16 : i32
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK-DAG: %[[UNDEF:[0-9]+]] = llvm.mlir.undef : vector<16xi32>
// CHECK: %[[LANE16:[0-9]+]] = arith.shli %{{[0-9]+}}, %[[C16]] : i32
// CHECK: %[[V0:[0-9]+]] = nvvm.tcgen05.ld %{{[0-9]+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.extractelement %[[V0]][%[[C0]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.extractelement %[[V0]][%[[C1]] : i32] : vector<16xi32>
// CHECK-COUNT-13: llvm.extractelement %[[V0]][
// CHECK-NEXT: %[[W15:[0-9]+]] = llvm.extractelement %[[V0]][%[[C15]] : i32] : vector<16xi32>
// CHECK: %[[COL16:[0-9]+]] = arith.addi %[[LANE16]], %[[C16]] : i32
// CHECK: %[[V1:[0-9]+]] = nvvm.tcgen05.ld %{{[0-9]+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[W16:[0-9]+]] = llvm.extractelement %[[V1]][%[[C0]] : i32] : vector<16xi32>
// CHECK-COUNT-14: llvm.extractelement %[[V1]][
// CHECK-NEXT: %[[W31:[0-9]+]] = llvm.extractelement %[[V1]][%[[C15]] : i32] : vector<16xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[COL:[0-9]+]] = arith.addi %[[BASE]], %[[C128]] : i32
// CHECK-NEXT: %[[TILE:[0-9]+]] = llvm.inttoptr %[[COL]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[I0:[0-9]+]] = llvm.insertelement %[[W0]], %[[UNDEF]][%[[C0]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[I1:[0-9]+]] = llvm.insertelement %[[W1]], %[[I0]][%[[C1]] : i32] : vector<16xi32>
// CHECK-COUNT-13: llvm.insertelement
// CHECK-NEXT: %[[S0:[0-9]+]] = llvm.insertelement %[[W15]], %{{[0-9]+}}[%[[C15]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[TA:[0-9]+]] = llvm.ptrtoint %[[TILE]] : !llvm.ptr<6> to i32
// CHECK-NEXT: %[[AD0:[0-9]+]] = arith.addi %[[TA]], %[[LANE16]] : i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.inttoptr %[[AD0]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.st %[[P0]], %[[S0]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %{{[0-9]+}} = llvm.insertelement %[[W16]], %[[UNDEF]][%[[C0]] : i32] : vector<16xi32>
// CHECK-COUNT-14: llvm.insertelement
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.insertelement %[[W31]], %{{[0-9]+}}[%[[C15]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[AD1:[0-9]+]] = arith.addi %[[TA]], %[[COL16]] : i32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.inttoptr %[[AD1]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.st %[[P1]], %[[S1]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @store() kernel {
      %t = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x64xbf16>
      %s = fa4.tmem.load %t : <128x64xbf16> -> <128x64xbf16>
      %u = fa4.tmem.tile column 128 of 1024 : !fa4.tmem_tile<128x64xbf16>
      fa4.tmem.store %s, %u : <128x64xbf16>, <128x64xbf16>
      gpu.return
    }
  }
}

// -----

// fa4.tmem.scale_rows (the lazy rescale's payoff): thread t's factor is
// row t's. A warp whose 32 factors are all 1 skips its rows: the branch is
// on vote.sync.any (full mask -1) of factor != 1 (cmpf one), uniform over
// the warp, so the warp-collective tcgen05.ld/st inside it are safe. Inside,
// after fence::after_thread_sync, each 16-column chunk (2 for 32 columns)
// is loaded, waited for (wait::ld), multiplied by the factor as f32 and
// stored back at the same address; one wait::st and
// fence::before_thread_sync end it.
// CHECK-LABEL: llvm.func @scale_rows()
// CHECK-DAG: %[[UNDEF:[0-9]+]] = llvm.mlir.undef : vector<16xi32>
// CHECK-DAG: %[[C0:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C15:[a-z0-9_]+]] = arith.constant 15 : i32
// CHECK-DAG: %[[C16:[a-z0-9_]+]] = arith.constant 16 : i32
// CHECK-DAG: %[[C32:[a-z0-9_]+]] = arith.constant 32 : i32
// CHECK-DAG: %[[FULL:[a-z0-9_-]+]] = arith.constant -1 : i32
// CHECK-DAG: %[[ONE:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[C256:[a-z0-9_]+]] = arith.constant 256 : i32
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK: %[[TID32:[0-9]+]] = arith.index_cast %{{.+}} : index to i32
// CHECK-NEXT: %[[T:[0-9]+]] = arith.remui %[[TID32]], %[[C128]] : i32
// CHECK: %[[F:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: %[[BASE:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[COL:[0-9]+]] = arith.addi %[[BASE]], %[[C256]] : i32
// CHECK-NEXT: %[[TILE:[0-9]+]] = llvm.inttoptr %[[COL]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[NEEDS:[0-9]+]] = arith.cmpf one, %[[F]], %[[ONE]] : f32
// CHECK-NEXT: %[[ANY:[0-9]+]] = nvvm.vote.sync any %[[FULL]], %[[NEEDS]] -> i1
// CHECK-NEXT: scf.if %[[ANY]] {
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[TA:[0-9]+]] = llvm.ptrtoint %[[TILE]] : !llvm.ptr<6> to i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = arith.divui %[[T]], %[[C32]] : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = arith.muli %[[WARP]], %[[C32]] : i32
// CHECK-NEXT: %[[LANE16:[0-9]+]] = arith.shli %[[LANE]], %[[C16]] : i32
// CHECK-NEXT: %[[AD0:[0-9]+]] = arith.addi %[[TA]], %[[LANE16]] : i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.inttoptr %[[AD0]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V0:[0-9]+]] = nvvm.tcgen05.ld %[[P0]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.extractelement %[[V0]][%[[C0]] : i32] : vector<16xi32>
// CHECK-COUNT-15: llvm.extractelement %[[V0]][
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[X0:[0-9]+]] = arith.bitcast %[[W0]] : i32 to f32
// CHECK-NEXT: %[[Y0:[0-9]+]] = arith.mulf %[[X0]], %[[F]] : f32
// CHECK-NEXT: %[[Z0:[0-9]+]] = arith.bitcast %[[Y0]] : f32 to i32
// CHECK-COUNT-15: arith.mulf %{{[0-9]+}}, %[[F]] : f32
// CHECK-NEXT: %[[Z15:[0-9]+]] = arith.bitcast %{{[0-9]+}} : f32 to i32
// CHECK-NEXT: %{{[0-9]+}} = llvm.insertelement %[[Z0]], %[[UNDEF]][%[[C0]] : i32] : vector<16xi32>
// CHECK-COUNT-14: llvm.insertelement
// CHECK-NEXT: %[[S0:[0-9]+]] = llvm.insertelement %[[Z15]], %{{[0-9]+}}[%[[C15]] : i32] : vector<16xi32>
// CHECK-NEXT: nvvm.tcgen05.st %[[P0]], %[[S0]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[COL16:[0-9]+]] = arith.addi %[[LANE16]], %[[C16]] : i32
// CHECK-NEXT: %[[AD1:[0-9]+]] = arith.addi %[[TA]], %[[COL16]] : i32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.inttoptr %[[AD1]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V1:[0-9]+]] = nvvm.tcgen05.ld %[[P1]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-COUNT-16: llvm.extractelement %[[V1]][
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-COUNT-16: arith.mulf %{{[0-9]+}}, %[[F]] : f32
// CHECK-COUNT-16: llvm.insertelement
// CHECK-NEXT: nvvm.tcgen05.st %[[P1]], %{{[0-9]+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @scale_rows() kernel {
      %f = fa4.rows.load 512 : <128xf32>
      %o = fa4.tmem.tile column 256 of 1024 : !fa4.tmem_tile<128x32xf32>
      fa4.tmem.scale_rows %o by %f : <128x32xf32>, <128xf32>
      gpu.return
    }
  }
}

// -----

// fa4.rows.load / fa4.rows.store: row t of a rows value is thread t's one
// f32, at byte offset + 4 * t of dynamic shared memory (t = tid % 128).
// Here the value loaded from byte 512 + 4t goes back to byte 2048 + 4t.
// CHECK-LABEL: llvm.func @rows()
// CHECK-DAG: %[[C512:[a-z0-9_]+]] = arith.constant 512 : i32
// CHECK-DAG: %[[C2048:[a-z0-9_]+]] = arith.constant 2048 : i32
// CHECK-DAG: %[[C4:[a-z0-9_]+]] = arith.constant 4 : i32
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK-DAG: %[[SMEM:[0-9]+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK: %[[TID:.+]] = gpu.thread_id x
// CHECK-NEXT: %[[TID32:[0-9]+]] = arith.index_cast %[[TID]] : index to i32
// CHECK-NEXT: %[[T:[0-9]+]] = arith.remui %[[TID32]], %[[C128]] : i32
// CHECK-NEXT: %[[T4:[0-9]+]] = arith.muli %[[T]], %[[C4]] : i32
// CHECK-NEXT: %[[LB:[0-9]+]] = arith.addi %[[T4]], %[[C512]] : i32
// CHECK-NEXT: %[[LP:[0-9]+]] = llvm.getelementptr %[[SMEM]][%[[LB]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[V:[0-9]+]] = llvm.load %[[LP]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[SB:[0-9]+]] = arith.addi %[[T4]], %[[C2048]] : i32
// CHECK-NEXT: %[[SP:[0-9]+]] = llvm.getelementptr %[[SMEM]][%[[SB]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: llvm.store %[[V]], %[[SP]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @rows() kernel {
      %f = fa4.rows.load 512 : <128xf32>
      fa4.rows.store %f at 2048 : <128xf32>
      gpu.return
    }
  }
}

// -----

// fa4.softmax on a 128 x 16 f32 frag with rescale_threshold 8 and
// poly_exp2_period 4. The row is the thread's own, so its maximum is a
// chain of 15 maximumf with no shuffle. The new max (in the exp2 domain,
// max(old, rowmax * scale)) replaces the old one only if it grew by more
// than 8: cmpf ole (grew, 8.0) selects the old max. A max still at -inf
// subtracts 0 instead (no NaN). The correction is exp2(old - max) on the
// MUFU (1 ex2.approx) and the sum starts as sum * correction. On sm_100a
// the scores go in pairs (vector<2xf32>, f32x2 instructions): each pair is
// fma(s, scale, -max) at once; every 4th pair (columns 6-7 and 14-15: a
// quarter of the scores) is 2^x on the FMA and ALU pipes, with no
// conversion (floor or fptosi would use MUFU's XU pipe): x clamped to -127,
// rounded to the integer j by adding and subtracting 1.5 * 2^23
// (0x4B400000), the degree-3 polynomial 1 + f (0.6932829 + f (0.2422110 +
// f 0.0550091)) on the fraction f = x - j, and the sum's bits shifted left
// 23 (j << 23) added to the polynomial's bits, every step on the pair. The
// other pairs take two ex2.approx, lane 0 first. The row sum adds pairs,
// starting from (sum * correction, 0), and its two lanes meet at the end.
// Exactly 12 + 1 = 13 ex2.approx and no floor or fptosi: the whole step is
// checked line by line (CHECK-NEXT) from the scores to the sum, with
// CHECK-NOTs for ex2 and fptosi before and after it.
// The probabilities go to TMEM as bf16 pairs in column order, and max, sum
// and correction to shared memory.
// CHECK-LABEL: llvm.func @softmax(
// CHECK-SAME: %[[SCALE:[a-z0-9]+]]: f32)
// CHECK-DAG: %[[C23:[a-z0-9_]+]] = arith.constant dense<23> : vector<2xi32>
// CHECK-DAG: %[[MIN:[a-z0-9_]+]] = arith.constant dense<-1.270000e+02> : vector<2xf32>
// CHECK-DAG: %[[ROUNDING:[a-z0-9_]+]] = arith.constant dense<0x4B400000> : vector<2xf32>
// CHECK-DAG: %[[ONE:[a-z0-9_]+]] = arith.constant dense<1.000000e+00> : vector<2xf32>
// CHECK-DAG: %[[K1:[a-z0-9_]+]] = arith.constant dense<0.693282902> : vector<2xf32>
// CHECK-DAG: %[[K2:[a-z0-9_]+]] = arith.constant dense<0.242210969> : vector<2xf32>
// CHECK-DAG: %[[K3:[a-z0-9_]+]] = arith.constant dense<0.0550090596> : vector<2xf32>
// CHECK-DAG: %[[THRESHOLD:[a-z0-9_]+]] = arith.constant 8.000000e+00 : f32
// CHECK-DAG: %[[ZERO:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NEGINF:[a-z0-9_]+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[I0:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[I1:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-DAG: %[[UNDEF:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NOT: shuffle
// CHECK-NOT: shfl
// CHECK-NOT: "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: arith.fptosi
// CHECK: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[S0:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S1:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S2:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S3:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S4:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S5:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S6:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S7:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S8:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S9:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S10:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S11:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S12:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S13:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S14:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S15:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NOT: "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: shuffle
// CHECK: %[[OLDMAX:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: shuffle
// CHECK: %[[OLDSUM:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.maximumf %[[S0]], %[[S1]] : f32
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.maximumf %[[M1]], %[[S2]] : f32
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.maximumf %[[M2]], %[[S3]] : f32
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.maximumf %[[M3]], %[[S4]] : f32
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.maximumf %[[M4]], %[[S5]] : f32
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.maximumf %[[M5]], %[[S6]] : f32
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.maximumf %[[M6]], %[[S7]] : f32
// CHECK-NEXT: %[[M8:[0-9]+]] = arith.maximumf %[[M7]], %[[S8]] : f32
// CHECK-NEXT: %[[M9:[0-9]+]] = arith.maximumf %[[M8]], %[[S9]] : f32
// CHECK-NEXT: %[[M10:[0-9]+]] = arith.maximumf %[[M9]], %[[S10]] : f32
// CHECK-NEXT: %[[M11:[0-9]+]] = arith.maximumf %[[M10]], %[[S11]] : f32
// CHECK-NEXT: %[[M12:[0-9]+]] = arith.maximumf %[[M11]], %[[S12]] : f32
// CHECK-NEXT: %[[M13:[0-9]+]] = arith.maximumf %[[M12]], %[[S13]] : f32
// CHECK-NEXT: %[[M14:[0-9]+]] = arith.maximumf %[[M13]], %[[S14]] : f32
// CHECK-NEXT: %[[TILEMAX:[0-9]+]] = arith.maximumf %[[M14]], %[[S15]] : f32
// CHECK-NEXT: %[[SCALED:[0-9]+]] = arith.mulf %[[TILEMAX]], %[[SCALE]] : f32
// CHECK-NEXT: %[[NEWMAX:[0-9]+]] = arith.maximumf %[[OLDMAX]], %[[SCALED]] : f32
// CHECK-NEXT: %[[GREW:[0-9]+]] = arith.subf %[[NEWMAX]], %[[OLDMAX]] : f32
// CHECK-NEXT: %[[KEEP:[0-9]+]] = arith.cmpf ole, %[[GREW]], %[[THRESHOLD]] : f32
// CHECK-NEXT: %[[MAX:[0-9]+]] = arith.select %[[KEEP]], %[[OLDMAX]], %[[NEWMAX]] : f32
// CHECK-NEXT: %[[EMPTY:[0-9]+]] = arith.cmpf oeq, %[[MAX]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[SAFE:[0-9]+]] = arith.select %[[EMPTY]], %[[ZERO]], %[[MAX]] : f32
// CHECK-NEXT: %[[NEG:[0-9]+]] = arith.negf %[[SAFE]] : f32
// CHECK-NEXT: %[[CX:[0-9]+]] = arith.subf %[[OLDMAX]], %[[SAFE]] : f32
// CHECK-NEXT: %[[CORR:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[CX]]) : (f32) -> f32
// CHECK-NEXT: %[[L0:[0-9]+]] = arith.mulf %[[OLDSUM]], %[[CORR]] : f32
// CHECK-NEXT: %[[SC0:[0-9]+]] = llvm.insertelement %[[SCALE]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[SC:[0-9]+]] = llvm.insertelement %[[SCALE]], %[[SC0]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[NG0:[0-9]+]] = llvm.insertelement %[[NEG]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[NG:[0-9]+]] = llvm.insertelement %[[NEG]], %[[NG0]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[LA:[0-9]+]] = llvm.insertelement %[[L0]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L1:[0-9]+]] = llvm.insertelement %[[ZERO]], %[[LA]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA0:[0-9]+]] = llvm.insertelement %[[S0]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS0:[0-9]+]] = llvm.insertelement %[[S1]], %[[PA0]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X0:[0-9]+]] = llvm.intr.fma(%[[PS0]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[XL0:[0-9]+]] = llvm.extractelement %[[X0]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EL0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XL0]]) : (f32) -> f32
// CHECK-NEXT: %[[XH0:[0-9]+]] = llvm.extractelement %[[X0]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EH0:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XH0]]) : (f32) -> f32
// CHECK-NEXT: %[[PE0:[0-9]+]] = llvm.insertelement %[[EL0]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.insertelement %[[EH0]], %[[PE0]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L2:[0-9]+]] = arith.addf %[[L1]], %[[P0]] : vector<2xf32>
// CHECK-NEXT: %[[E0:[0-9]+]] = llvm.extractelement %[[P0]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E1:[0-9]+]] = llvm.extractelement %[[P0]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA1:[0-9]+]] = llvm.insertelement %[[S2]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS1:[0-9]+]] = llvm.insertelement %[[S3]], %[[PA1]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X1:[0-9]+]] = llvm.intr.fma(%[[PS1]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[XL1:[0-9]+]] = llvm.extractelement %[[X1]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EL1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XL1]]) : (f32) -> f32
// CHECK-NEXT: %[[XH1:[0-9]+]] = llvm.extractelement %[[X1]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EH1:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XH1]]) : (f32) -> f32
// CHECK-NEXT: %[[PE1:[0-9]+]] = llvm.insertelement %[[EL1]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.insertelement %[[EH1]], %[[PE1]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L3:[0-9]+]] = arith.addf %[[L2]], %[[P1]] : vector<2xf32>
// CHECK-NEXT: %[[E2:[0-9]+]] = llvm.extractelement %[[P1]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E3:[0-9]+]] = llvm.extractelement %[[P1]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA2:[0-9]+]] = llvm.insertelement %[[S4]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS2:[0-9]+]] = llvm.insertelement %[[S5]], %[[PA2]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X2:[0-9]+]] = llvm.intr.fma(%[[PS2]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[XL2:[0-9]+]] = llvm.extractelement %[[X2]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EL2:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XL2]]) : (f32) -> f32
// CHECK-NEXT: %[[XH2:[0-9]+]] = llvm.extractelement %[[X2]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EH2:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XH2]]) : (f32) -> f32
// CHECK-NEXT: %[[PE2:[0-9]+]] = llvm.insertelement %[[EL2]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[P2:[0-9]+]] = llvm.insertelement %[[EH2]], %[[PE2]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L4:[0-9]+]] = arith.addf %[[L3]], %[[P2]] : vector<2xf32>
// CHECK-NEXT: %[[E4:[0-9]+]] = llvm.extractelement %[[P2]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E5:[0-9]+]] = llvm.extractelement %[[P2]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA3:[0-9]+]] = llvm.insertelement %[[S6]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS3:[0-9]+]] = llvm.insertelement %[[S7]], %[[PA3]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X3:[0-9]+]] = llvm.intr.fma(%[[PS3]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[CL3:[0-9]+]] = arith.maximumf %[[X3]], %[[MIN]] : vector<2xf32>
// CHECK-NEXT: %[[SH3:[0-9]+]] = arith.addf %[[CL3]], %[[ROUNDING]] : vector<2xf32>
// CHECK-NEXT: %[[WH3:[0-9]+]] = arith.subf %[[SH3]], %[[ROUNDING]] : vector<2xf32>
// CHECK-NEXT: %[[FR3:[0-9]+]] = arith.subf %[[CL3]], %[[WH3]] : vector<2xf32>
// CHECK-NEXT: %[[QA3:[0-9]+]] = llvm.intr.fma(%[[FR3]], %[[K3]], %[[K2]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[QB3:[0-9]+]] = llvm.intr.fma(%[[FR3]], %[[QA3]], %[[K1]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[QC3:[0-9]+]] = llvm.intr.fma(%[[FR3]], %[[QB3]], %[[ONE]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[SB3:[0-9]+]] = arith.bitcast %[[SH3]] : vector<2xf32> to vector<2xi32>
// CHECK-NEXT: %[[EX3:[0-9]+]] = arith.shli %[[SB3]], %[[C23]] : vector<2xi32>
// CHECK-NEXT: %[[MB3:[0-9]+]] = arith.bitcast %[[QC3]] : vector<2xf32> to vector<2xi32>
// CHECK-NEXT: %[[BI3:[0-9]+]] = arith.addi %[[MB3]], %[[EX3]] : vector<2xi32>
// CHECK-NEXT: %[[P3:[0-9]+]] = arith.bitcast %[[BI3]] : vector<2xi32> to vector<2xf32>
// CHECK-NEXT: %[[L5:[0-9]+]] = arith.addf %[[L4]], %[[P3]] : vector<2xf32>
// CHECK-NEXT: %[[E6:[0-9]+]] = llvm.extractelement %[[P3]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E7:[0-9]+]] = llvm.extractelement %[[P3]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA4:[0-9]+]] = llvm.insertelement %[[S8]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS4:[0-9]+]] = llvm.insertelement %[[S9]], %[[PA4]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X4:[0-9]+]] = llvm.intr.fma(%[[PS4]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[XL4:[0-9]+]] = llvm.extractelement %[[X4]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EL4:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XL4]]) : (f32) -> f32
// CHECK-NEXT: %[[XH4:[0-9]+]] = llvm.extractelement %[[X4]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EH4:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XH4]]) : (f32) -> f32
// CHECK-NEXT: %[[PE4:[0-9]+]] = llvm.insertelement %[[EL4]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[P4:[0-9]+]] = llvm.insertelement %[[EH4]], %[[PE4]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L6:[0-9]+]] = arith.addf %[[L5]], %[[P4]] : vector<2xf32>
// CHECK-NEXT: %[[E8:[0-9]+]] = llvm.extractelement %[[P4]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E9:[0-9]+]] = llvm.extractelement %[[P4]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA5:[0-9]+]] = llvm.insertelement %[[S10]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS5:[0-9]+]] = llvm.insertelement %[[S11]], %[[PA5]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X5:[0-9]+]] = llvm.intr.fma(%[[PS5]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[XL5:[0-9]+]] = llvm.extractelement %[[X5]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EL5:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XL5]]) : (f32) -> f32
// CHECK-NEXT: %[[XH5:[0-9]+]] = llvm.extractelement %[[X5]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EH5:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XH5]]) : (f32) -> f32
// CHECK-NEXT: %[[PE5:[0-9]+]] = llvm.insertelement %[[EL5]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[P5:[0-9]+]] = llvm.insertelement %[[EH5]], %[[PE5]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L7:[0-9]+]] = arith.addf %[[L6]], %[[P5]] : vector<2xf32>
// CHECK-NEXT: %[[E10:[0-9]+]] = llvm.extractelement %[[P5]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E11:[0-9]+]] = llvm.extractelement %[[P5]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA6:[0-9]+]] = llvm.insertelement %[[S12]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS6:[0-9]+]] = llvm.insertelement %[[S13]], %[[PA6]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X6:[0-9]+]] = llvm.intr.fma(%[[PS6]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[XL6:[0-9]+]] = llvm.extractelement %[[X6]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EL6:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XL6]]) : (f32) -> f32
// CHECK-NEXT: %[[XH6:[0-9]+]] = llvm.extractelement %[[X6]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[EH6:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[XH6]]) : (f32) -> f32
// CHECK-NEXT: %[[PE6:[0-9]+]] = llvm.insertelement %[[EL6]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[P6:[0-9]+]] = llvm.insertelement %[[EH6]], %[[PE6]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[L8:[0-9]+]] = arith.addf %[[L7]], %[[P6]] : vector<2xf32>
// CHECK-NEXT: %[[E12:[0-9]+]] = llvm.extractelement %[[P6]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E13:[0-9]+]] = llvm.extractelement %[[P6]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PA7:[0-9]+]] = llvm.insertelement %[[S14]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PS7:[0-9]+]] = llvm.insertelement %[[S15]], %[[PA7]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[X7:[0-9]+]] = llvm.intr.fma(%[[PS7]], %[[SC]], %[[NG]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[CL7:[0-9]+]] = arith.maximumf %[[X7]], %[[MIN]] : vector<2xf32>
// CHECK-NEXT: %[[SH7:[0-9]+]] = arith.addf %[[CL7]], %[[ROUNDING]] : vector<2xf32>
// CHECK-NEXT: %[[WH7:[0-9]+]] = arith.subf %[[SH7]], %[[ROUNDING]] : vector<2xf32>
// CHECK-NEXT: %[[FR7:[0-9]+]] = arith.subf %[[CL7]], %[[WH7]] : vector<2xf32>
// CHECK-NEXT: %[[QA7:[0-9]+]] = llvm.intr.fma(%[[FR7]], %[[K3]], %[[K2]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[QB7:[0-9]+]] = llvm.intr.fma(%[[FR7]], %[[QA7]], %[[K1]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[QC7:[0-9]+]] = llvm.intr.fma(%[[FR7]], %[[QB7]], %[[ONE]]) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[SB7:[0-9]+]] = arith.bitcast %[[SH7]] : vector<2xf32> to vector<2xi32>
// CHECK-NEXT: %[[EX7:[0-9]+]] = arith.shli %[[SB7]], %[[C23]] : vector<2xi32>
// CHECK-NEXT: %[[MB7:[0-9]+]] = arith.bitcast %[[QC7]] : vector<2xf32> to vector<2xi32>
// CHECK-NEXT: %[[BI7:[0-9]+]] = arith.addi %[[MB7]], %[[EX7]] : vector<2xi32>
// CHECK-NEXT: %[[P7:[0-9]+]] = arith.bitcast %[[BI7]] : vector<2xi32> to vector<2xf32>
// CHECK-NEXT: %[[L9:[0-9]+]] = arith.addf %[[L8]], %[[P7]] : vector<2xf32>
// CHECK-NEXT: %[[E14:[0-9]+]] = llvm.extractelement %[[P7]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[E15:[0-9]+]] = llvm.extractelement %[[P7]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[SUMLO:[0-9]+]] = llvm.extractelement %[[L9]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[SUMHI:[0-9]+]] = llvm.extractelement %[[L9]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[SUM:[0-9]+]] = arith.addf %[[SUMLO]], %[[SUMHI]] : f32
// CHECK-NEXT: %[[PA:[0-9]+]] = llvm.insertelement %[[E0]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %{{[0-9]+}} = llvm.insertelement %[[E1]], %[[PA]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NEXT: arith.truncf %{{[0-9]+}} : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: llvm.bitcast %{{[0-9]+}} : vector<2xbf16> to i32
// CHECK-NEXT: %[[PB:[0-9]+]] = llvm.insertelement %[[E2]], %[[UNDEF]][%[[I0]] : i32] : vector<2xf32>
// CHECK-NEXT: %{{[0-9]+}} = llvm.insertelement %[[E3]], %[[PB]][%[[I1]] : i32] : vector<2xf32>
// CHECK-NOT: "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT: arith.fptosi
// CHECK: nvvm.tcgen05.st %{{[0-9]+}}, %{{[0-9]+}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<8xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: llvm.store %[[MAX]], %{{[0-9]+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.store %[[SUM]], %{{[0-9]+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.store %[[CORR]], %{{[0-9]+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @softmax(%scale: f32) kernel {
      %t = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x16xf32>
      %s = fa4.tmem.load %t : <128x16xf32> -> <128x16xf32>
      %m = fa4.rows.load 512 : <128xf32>
      %l = fa4.rows.load 1024 : <128xf32>
      %p, %nm, %nl, %c = fa4.softmax %s max %m sum %l scale %scale {packedPairs, polyExp2Period = 4 : i64, rescaleThreshold = 8.000000e+00 : f64} : <128x16xf32>, <128xf32>
      %pb = fa4.truncf %p : <128x16xf32> to <128x16xbf16>
      %u = fa4.tmem.tile column 64 of 1024 : !fa4.tmem_tile<128x16xbf16>
      fa4.tmem.store %pb, %u : <128x16xbf16>, <128x16xbf16>
      fa4.rows.store %nm at 512 : <128xf32>
      fa4.rows.store %nl at 1024 : <128xf32>
      fa4.rows.store %c at 1536 : <128xf32>
      gpu.return
    }
  }
}

// -----

// fa4.mask, causal, on a 128 x 16 f32 frag with group 2 (two q-heads per
// query row): first one test, uniform over the warpgroup, of whether the
// tile reaches Skv (last key = first key + 15 >= skv) or crosses the first
// row's diagonal (last key > first row + skv - sq); interior tiles pass the
// scores through (else branch). Edge tiles put thread t on query row
// first row + t / 2 (the group), shift it by skv - sq to its diagonal, and
// take the row's last visible key, min(diagonal, skv - 1), as a column of
// the tile (minus the first key) once; from it one word whose low
// min(max(last column + 1, 0), 32) bits are set (the shift in 64 bits), and
// each of its 16 scores tests its constant bit 1 << c of that word,
// selecting -inf where the key is hidden: 16 bit tests, checked in order,
// and no per-register key, row or column offset: the whole row is the
// thread's (D-62), its columns' tests one word (D-65).
// CHECK-LABEL: llvm.func @mask(
// CHECK-SAME: %[[KEY:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32)
// CHECK-DAG: %[[NEGINF:[a-z0-9_]+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[C0:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK-DAG: %[[C1:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C2:[a-z0-9_]+]] = arith.constant 2 : i32
// CHECK-DAG: %[[C3:[a-z0-9_]+]] = arith.constant 3 : i32
// CHECK-DAG: %[[C4:[a-z0-9_]+]] = arith.constant 4 : i32
// CHECK-DAG: %[[C5:[a-z0-9_]+]] = arith.constant 5 : i32
// CHECK-DAG: %[[C6:[a-z0-9_]+]] = arith.constant 6 : i32
// CHECK-DAG: %[[C7:[a-z0-9_]+]] = arith.constant 7 : i32
// CHECK-DAG: %[[C8:[a-z0-9_]+]] = arith.constant 8 : i32
// CHECK-DAG: %[[C9:[a-z0-9_]+]] = arith.constant 9 : i32
// CHECK-DAG: %[[C10:[a-z0-9_]+]] = arith.constant 10 : i32
// CHECK-DAG: %[[C11:[a-z0-9_]+]] = arith.constant 11 : i32
// CHECK-DAG: %[[C12:[a-z0-9_]+]] = arith.constant 12 : i32
// CHECK-DAG: %[[C13:[a-z0-9_]+]] = arith.constant 13 : i32
// CHECK-DAG: %[[C14:[a-z0-9_]+]] = arith.constant 14 : i32
// CHECK-DAG: %[[C15:[a-z0-9_]+]] = arith.constant 15 : i32
// CHECK-DAG: %[[C16:[a-z0-9_]+]] = arith.constant 16 : i32
// CHECK-DAG: %[[C32:[a-z0-9_]+]] = arith.constant 32 : i32
// CHECK-DAG: %[[C64:[a-z0-9_]+]] = arith.constant 64 : i32
// CHECK-DAG: %[[C256:[a-z0-9_]+]] = arith.constant 256 : i32
// CHECK-DAG: %[[C512:[a-z0-9_]+]] = arith.constant 512 : i32
// CHECK-DAG: %[[C1024:[a-z0-9_]+]] = arith.constant 1024 : i32
// CHECK-DAG: %[[C2048:[a-z0-9_]+]] = arith.constant 2048 : i32
// CHECK-DAG: %[[C4096:[a-z0-9_]+]] = arith.constant 4096 : i32
// CHECK-DAG: %[[C8192:[a-z0-9_]+]] = arith.constant 8192 : i32
// CHECK-DAG: %[[C16384:[a-z0-9_]+]] = arith.constant 16384 : i32
// CHECK-DAG: %[[C32768:[a-z0-9_]+]] = arith.constant 32768 : i32
// CHECK-DAG: %[[ONE64:[a-z0-9_]+]] = arith.constant 1 : i64
// CHECK: %[[T:[0-9]+]] = arith.remui %{{[0-9]+}}, %[[C128]] : i32
// CHECK: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[S0:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S1:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S2:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S3:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S4:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S5:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S6:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S7:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S8:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S9:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S10:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S11:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S12:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S13:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S14:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[S15:[0-9]+]] = arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: %[[SHIFT:[0-9]+]] = arith.subi %[[SKV]], %[[SQ]] : i32
// CHECK-NEXT: %[[K15:[0-9]+]] = arith.addi %[[KEY]], %[[C15]] : i32
// CHECK-NEXT: %[[FIRSTDIAG:[0-9]+]] = arith.addi %[[ROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[PAST:[0-9]+]] = arith.cmpi sge, %[[K15]], %[[SKV]] : i32
// CHECK-NEXT: %[[ABOVE:[0-9]+]] = arith.cmpi sgt, %[[K15]], %[[FIRSTDIAG]] : i32
// CHECK-NEXT: %[[NEEDS:[0-9]+]] = arith.ori %[[PAST]], %[[ABOVE]] : i1
// CHECK-NEXT: %[[RES:[0-9]+]]:16 = scf.if %[[NEEDS]] -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NEXT: %[[QR:[0-9]+]] = arith.divui %[[T]], %[[C2]] : i32
// CHECK-NEXT: %[[QROW:[0-9]+]] = arith.addi %[[ROW]], %[[QR]] : i32
// CHECK-NEXT: %[[DIAG:[0-9]+]] = arith.addi %[[QROW]], %[[SHIFT]] : i32
// CHECK-NEXT: %[[LASTKEY:[0-9]+]] = arith.subi %[[SKV]], %[[C1]] : i32
// CHECK-NEXT: %[[LAST:[0-9]+]] = arith.minsi %[[LASTKEY]], %[[DIAG]] : i32
// CHECK-NEXT: %[[LASTCOL:[0-9]+]] = arith.subi %[[LAST]], %[[KEY]] : i32
// CHECK-NEXT: %[[END:[0-9]+]] = arith.addi %[[LASTCOL]], %[[C1]] : i32
// CHECK-NEXT: %[[UPTO32:[0-9]+]] = arith.minsi %[[END]], %[[C32]] : i32
// CHECK-NEXT: %[[COUNT:[0-9]+]] = arith.maxsi %[[UPTO32]], %[[C0]] : i32
// CHECK-NEXT: %[[WIDE:[0-9]+]] = arith.extui %[[COUNT]] : i32 to i64
// CHECK-NEXT: %[[POW:[0-9]+]] = arith.shli %[[ONE64]], %[[WIDE]] : i64
// CHECK-NEXT: %[[LOW:[0-9]+]] = arith.subi %[[POW]], %[[ONE64]] : i64
// CHECK-NEXT: %[[BITS:[0-9]+]] = arith.trunci %[[LOW]] : i64 to i32
// CHECK-NEXT: %[[T0:[0-9]+]] = arith.andi %[[BITS]], %[[C1]] : i32
// CHECK-NEXT: %[[VIS0:[0-9]+]] = arith.cmpi ne, %[[T0]], %[[C0]] : i32
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.select %[[VIS0]], %[[S0]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T1:[0-9]+]] = arith.andi %[[BITS]], %[[C2]] : i32
// CHECK-NEXT: %[[VIS1:[0-9]+]] = arith.cmpi ne, %[[T1]], %[[C0]] : i32
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.select %[[VIS1]], %[[S1]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T2:[0-9]+]] = arith.andi %[[BITS]], %[[C4]] : i32
// CHECK-NEXT: %[[VIS2:[0-9]+]] = arith.cmpi ne, %[[T2]], %[[C0]] : i32
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.select %[[VIS2]], %[[S2]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T3:[0-9]+]] = arith.andi %[[BITS]], %[[C8]] : i32
// CHECK-NEXT: %[[VIS3:[0-9]+]] = arith.cmpi ne, %[[T3]], %[[C0]] : i32
// CHECK-NEXT: %[[M3:[0-9]+]] = arith.select %[[VIS3]], %[[S3]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T4:[0-9]+]] = arith.andi %[[BITS]], %[[C16]] : i32
// CHECK-NEXT: %[[VIS4:[0-9]+]] = arith.cmpi ne, %[[T4]], %[[C0]] : i32
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.select %[[VIS4]], %[[S4]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T5:[0-9]+]] = arith.andi %[[BITS]], %[[C32]] : i32
// CHECK-NEXT: %[[VIS5:[0-9]+]] = arith.cmpi ne, %[[T5]], %[[C0]] : i32
// CHECK-NEXT: %[[M5:[0-9]+]] = arith.select %[[VIS5]], %[[S5]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T6:[0-9]+]] = arith.andi %[[BITS]], %[[C64]] : i32
// CHECK-NEXT: %[[VIS6:[0-9]+]] = arith.cmpi ne, %[[T6]], %[[C0]] : i32
// CHECK-NEXT: %[[M6:[0-9]+]] = arith.select %[[VIS6]], %[[S6]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T7:[0-9]+]] = arith.andi %[[BITS]], %[[C128]] : i32
// CHECK-NEXT: %[[VIS7:[0-9]+]] = arith.cmpi ne, %[[T7]], %[[C0]] : i32
// CHECK-NEXT: %[[M7:[0-9]+]] = arith.select %[[VIS7]], %[[S7]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T8:[0-9]+]] = arith.andi %[[BITS]], %[[C256]] : i32
// CHECK-NEXT: %[[VIS8:[0-9]+]] = arith.cmpi ne, %[[T8]], %[[C0]] : i32
// CHECK-NEXT: %[[M8:[0-9]+]] = arith.select %[[VIS8]], %[[S8]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T9:[0-9]+]] = arith.andi %[[BITS]], %[[C512]] : i32
// CHECK-NEXT: %[[VIS9:[0-9]+]] = arith.cmpi ne, %[[T9]], %[[C0]] : i32
// CHECK-NEXT: %[[M9:[0-9]+]] = arith.select %[[VIS9]], %[[S9]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T10:[0-9]+]] = arith.andi %[[BITS]], %[[C1024]] : i32
// CHECK-NEXT: %[[VIS10:[0-9]+]] = arith.cmpi ne, %[[T10]], %[[C0]] : i32
// CHECK-NEXT: %[[M10:[0-9]+]] = arith.select %[[VIS10]], %[[S10]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T11:[0-9]+]] = arith.andi %[[BITS]], %[[C2048]] : i32
// CHECK-NEXT: %[[VIS11:[0-9]+]] = arith.cmpi ne, %[[T11]], %[[C0]] : i32
// CHECK-NEXT: %[[M11:[0-9]+]] = arith.select %[[VIS11]], %[[S11]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T12:[0-9]+]] = arith.andi %[[BITS]], %[[C4096]] : i32
// CHECK-NEXT: %[[VIS12:[0-9]+]] = arith.cmpi ne, %[[T12]], %[[C0]] : i32
// CHECK-NEXT: %[[M12:[0-9]+]] = arith.select %[[VIS12]], %[[S12]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T13:[0-9]+]] = arith.andi %[[BITS]], %[[C8192]] : i32
// CHECK-NEXT: %[[VIS13:[0-9]+]] = arith.cmpi ne, %[[T13]], %[[C0]] : i32
// CHECK-NEXT: %[[M13:[0-9]+]] = arith.select %[[VIS13]], %[[S13]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T14:[0-9]+]] = arith.andi %[[BITS]], %[[C16384]] : i32
// CHECK-NEXT: %[[VIS14:[0-9]+]] = arith.cmpi ne, %[[T14]], %[[C0]] : i32
// CHECK-NEXT: %[[M14:[0-9]+]] = arith.select %[[VIS14]], %[[S14]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[T15:[0-9]+]] = arith.andi %[[BITS]], %[[C32768]] : i32
// CHECK-NEXT: %[[VIS15:[0-9]+]] = arith.cmpi ne, %[[T15]], %[[C0]] : i32
// CHECK-NEXT: %[[M15:[0-9]+]] = arith.select %[[VIS15]], %[[S15]], %[[NEGINF]] : f32
// CHECK-NEXT: scf.yield %[[M0]], %[[M1]], %[[M2]], %[[M3]], %[[M4]], %[[M5]], %[[M6]], %[[M7]], %[[M8]], %[[M9]], %[[M10]], %[[M11]], %[[M12]], %[[M13]], %[[M14]], %[[M15]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[S4]], %[[S5]], %[[S6]], %[[S7]], %[[S8]], %[[S9]], %[[S10]], %[[S11]], %[[S12]], %[[S13]], %[[S14]], %[[S15]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: %{{[0-9]+}} = arith.bitcast %[[RES]]#0 : f32 to i32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mask(%key: i32, %row: i32, %sq: i32, %skv: i32) kernel {
      %t = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x16xf32>
      %s = fa4.tmem.load %t : <128x16xf32> -> <128x16xf32>
      %m = fa4.mask %s mask #attn.mask<causal> keys %key rows %row sq %sq skv %skv {group = 2 : i64} : <128x16xf32>
      fa4.tmem.store %m, %t : <128x16xf32>, <128x16xf32>
      gpu.return
    }
  }
}

// -----

// fa4.epilogue from a TMEM tile (O, 128 x 64 f32 at column 256), depth 64
// of bf16, with LSE. Thread t stores query row first row + t (group 1) of
// (batch, head), O / sum with 1 / sum selected to 0 for a row that saw no
// key. After one fence::after_thread_sync, each 16-column chunk is one
// warp-collective tcgen05.ld (every lane loads, outside any branch) and a
// wait::ld, then the f32 words are stored as bf16 pairs (column 2i in the
// low half) at out + batch * s0 + row * s1 + head * s2 + column, in an
// scf.if on row < sq: 4 chunks of 8 pair stores, columns 0, 2, ..., 62.
// LSE = (max + log2 sum) * ln 2, -inf for an empty row, goes to
// lse + batch * l0 + head * l1 + row under the same guard (canonicalize
// merges its scf.if with the last chunk's). The pair's two multiplies and
// the offset arithmetic are matched in any order (DAG): the pattern builds
// them as call arguments, so their order follows the host compiler's
// argument evaluation order.
// CHECK-LABEL: llvm.func @epilogue(
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: !llvm.ptr<1>, %[[LSE:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: i32, %[[ROW:[a-z0-9]+]]: i32, %[[H:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[S0:[a-z0-9]+]]: i64, %[[S1:[a-z0-9]+]]: i64, %[[S2:[a-z0-9]+]]: i64, %[[L0:[a-z0-9]+]]: i64, %[[L1:[a-z0-9]+]]: i64)
// CHECK-DAG: %[[LN2:[a-z0-9_]+]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[NEGINF:[a-z0-9_]+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ONE:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[ZERO:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[UNDEF:[0-9]+]] = llvm.mlir.undef : vector<2xf32>
// CHECK-DAG: %[[C0:[a-z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:[a-z0-9_]+]] = arith.constant 1 : i32
// CHECK-DAG: %[[C16:[a-z0-9_]+]] = arith.constant 16 : i32
// CHECK-DAG: %[[C32:[a-z0-9_]+]] = arith.constant 32 : i32
// CHECK-DAG: %[[C48:[a-z0-9_]+]] = arith.constant 48 : i32
// CHECK-DAG: %[[C128:[a-z0-9_]+]] = arith.constant 128 : i32
// CHECK-DAG: %[[C256:[a-z0-9_]+]] = arith.constant 256 : i32
// CHECK: %[[T:[0-9]+]] = arith.remui %{{[0-9]+}}, %[[C128]] : i32
// CHECK: %[[BASE:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[COL:[0-9]+]] = arith.addi %[[BASE]], %[[C256]] : i32
// CHECK-NEXT: %[[TILE:[0-9]+]] = llvm.inttoptr %[[COL]] : i32 to !llvm.ptr<6>
// CHECK: %[[MAX:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: %[[SUM:[0-9]+]] = llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[SEES:[0-9]+]] = arith.cmpf ogt, %[[SUM]], %[[ZERO]] : f32
// CHECK-NEXT: %[[RCP:[0-9]+]] = arith.divf %[[ONE]], %[[SUM]] : f32
// CHECK-NEXT: %[[INV:[0-9]+]] = arith.select %[[SEES]], %[[RCP]], %[[ZERO]] : f32
// CHECK-NEXT: %[[QROW:[0-9]+]] = arith.addi %[[ROW]], %[[T]] : i32
// CHECK-NEXT: %[[IN:[0-9]+]] = arith.cmpi slt, %[[QROW]], %[[SQ]] : i32
// CHECK-DAG: %[[HX:[0-9]+]] = arith.extsi %[[H]] : i32 to i64
// CHECK-DAG: %[[HS:[0-9]+]] = arith.muli %[[HX]], %[[S2]] : i64
// CHECK-DAG: %[[RX:[0-9]+]] = arith.extsi %[[QROW]] : i32 to i64
// CHECK-DAG: %[[RS:[0-9]+]] = arith.muli %[[RX]], %[[S1]] : i64
// CHECK-DAG: %[[RH:[0-9]+]] = arith.addi %[[RS]], %[[HS]] : i64
// CHECK-DAG: %[[BX:[0-9]+]] = arith.extsi %[[B]] : i32 to i64
// CHECK-DAG: %[[BS:[0-9]+]] = arith.muli %[[BX]], %[[S0]] : i64
// CHECK: %[[RB:[0-9]+]] = arith.addi %[[BS]], %[[RH]] : i64
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[TA:[0-9]+]] = llvm.ptrtoint %[[TILE]] : !llvm.ptr<6> to i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = arith.divui %[[T]], %[[C32]] : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = arith.muli %[[WARP]], %[[C32]] : i32
// CHECK-NEXT: %[[LANE16:[0-9]+]] = arith.shli %[[LANE]], %[[C16]] : i32
// CHECK-NEXT: %[[AD0:[0-9]+]] = arith.addi %[[TA]], %[[LANE16]] : i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.inttoptr %[[AD0]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V0:[0-9]+]] = nvvm.tcgen05.ld %[[P0]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.extractelement %[[V0]][%[[C0]] : i32] : vector<16xi32>
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.extractelement %[[V0]][%[[C1]] : i32] : vector<16xi32>
// CHECK-COUNT-14: llvm.extractelement %[[V0]][
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[F0:[0-9]+]] = arith.bitcast %[[W0]] : i32 to f32
// CHECK-NEXT: %[[F1:[0-9]+]] = arith.bitcast %[[W1]] : i32 to f32
// CHECK-COUNT-14: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-DAG: %[[HI0:[0-9]+]] = arith.mulf %[[F1]], %[[INV]] : f32
// CHECK-DAG: %[[LO0:[0-9]+]] = arith.mulf %[[F0]], %[[INV]] : f32
// CHECK: %[[PK0:[0-9]+]] = llvm.insertelement %[[LO0]], %[[UNDEF]][%[[C0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[PK1:[0-9]+]] = llvm.insertelement %[[HI0]], %[[PK0]][%[[C1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[BF:[0-9]+]] = arith.truncf %[[PK1]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: %[[PAIR:[0-9]+]] = llvm.bitcast %[[BF]] : vector<2xbf16> to i32
// CHECK-NEXT: %[[G0:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[RB]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %[[PAIR]], %[[G0]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O2:[0-9]+]] = arith.addi %[[RB]], %c2_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G2:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O2]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G2]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O4:[0-9]+]] = arith.addi %[[RB]], %c4_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G4:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O4]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G4]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O6:[0-9]+]] = arith.addi %[[RB]], %c6_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G6:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O6]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G6]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O8:[0-9]+]] = arith.addi %[[RB]], %c8_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G8:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O8]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G8]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O10:[0-9]+]] = arith.addi %[[RB]], %c10_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G10:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O10]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G10]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O12:[0-9]+]] = arith.addi %[[RB]], %c12_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G12:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O12]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G12]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O14:[0-9]+]] = arith.addi %[[RB]], %c14_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G14:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O14]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G14]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: %[[CC1:[0-9]+]] = arith.addi %[[LANE16]], %[[C16]] : i32
// CHECK-NEXT: %[[AD1:[0-9]+]] = arith.addi %[[TA]], %[[CC1]] : i32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.inttoptr %[[AD1]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V1:[0-9]+]] = nvvm.tcgen05.ld %[[P1]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-COUNT-16: llvm.extractelement %[[V1]][
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-COUNT-16: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NOT: llvm.store
// CHECK: %[[O16:[0-9]+]] = arith.addi %[[RB]], %c16_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G16:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O16]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G16]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O18:[0-9]+]] = arith.addi %[[RB]], %c18_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G18:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O18]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G18]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O20:[0-9]+]] = arith.addi %[[RB]], %c20_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G20:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O20]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G20]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O22:[0-9]+]] = arith.addi %[[RB]], %c22_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G22:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O22]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G22]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O24:[0-9]+]] = arith.addi %[[RB]], %c24_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G24:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O24]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G24]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O26:[0-9]+]] = arith.addi %[[RB]], %c26_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G26:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O26]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G26]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O28:[0-9]+]] = arith.addi %[[RB]], %c28_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G28:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O28]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G28]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O30:[0-9]+]] = arith.addi %[[RB]], %c30_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G30:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O30]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G30]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: %[[CC2:[0-9]+]] = arith.addi %[[LANE16]], %[[C32]] : i32
// CHECK-NEXT: %[[AD2:[0-9]+]] = arith.addi %[[TA]], %[[CC2]] : i32
// CHECK-NEXT: %[[P2:[0-9]+]] = llvm.inttoptr %[[AD2]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V2:[0-9]+]] = nvvm.tcgen05.ld %[[P2]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-COUNT-16: llvm.extractelement %[[V2]][
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-COUNT-16: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NOT: llvm.store
// CHECK: %[[O32:[0-9]+]] = arith.addi %[[RB]], %c32_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G32:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O32]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G32]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O34:[0-9]+]] = arith.addi %[[RB]], %c34_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G34:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O34]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G34]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O36:[0-9]+]] = arith.addi %[[RB]], %c36_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G36:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O36]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G36]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O38:[0-9]+]] = arith.addi %[[RB]], %c38_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G38:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O38]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G38]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O40:[0-9]+]] = arith.addi %[[RB]], %c40_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G40:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O40]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G40]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O42:[0-9]+]] = arith.addi %[[RB]], %c42_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G42:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O42]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G42]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O44:[0-9]+]] = arith.addi %[[RB]], %c44_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G44:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O44]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G44]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O46:[0-9]+]] = arith.addi %[[RB]], %c46_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G46:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O46]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G46]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: %[[CC3:[0-9]+]] = arith.addi %[[LANE16]], %[[C48]] : i32
// CHECK-NEXT: %[[AD3:[0-9]+]] = arith.addi %[[TA]], %[[CC3]] : i32
// CHECK-NEXT: %[[P3:[0-9]+]] = llvm.inttoptr %[[AD3]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[V3:[0-9]+]] = nvvm.tcgen05.ld %[[P3]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<16xi32>
// CHECK-COUNT-16: llvm.extractelement %[[V3]][
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-COUNT-16: arith.bitcast %{{[0-9]+}} : i32 to f32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NOT: llvm.store
// CHECK: %[[O48:[0-9]+]] = arith.addi %[[RB]], %c48_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G48:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O48]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G48]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O50:[0-9]+]] = arith.addi %[[RB]], %c50_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G50:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O50]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G50]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O52:[0-9]+]] = arith.addi %[[RB]], %c52_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G52:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O52]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G52]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O54:[0-9]+]] = arith.addi %[[RB]], %c54_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G54:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O54]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G54]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O56:[0-9]+]] = arith.addi %[[RB]], %c56_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G56:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O56]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G56]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O58:[0-9]+]] = arith.addi %[[RB]], %c58_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G58:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O58]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G58]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O60:[0-9]+]] = arith.addi %[[RB]], %c60_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G60:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O60]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G60]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: %[[O62:[0-9]+]] = arith.addi %[[RB]], %c62_i64{{(_[0-9]+)?}} : i64
// CHECK-NEXT: %[[G62:[0-9]+]] = llvm.getelementptr %[[OUT]][%[[O62]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[G62]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-NEXT: %[[LG:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[SUM]]) : (f32) -> f32
// CHECK-NEXT: %[[ML:[0-9]+]] = arith.addf %[[MAX]], %[[LG]] : f32
// CHECK-NEXT: %[[LN:[0-9]+]] = arith.mulf %[[ML]], %[[LN2]] : f32
// CHECK-NEXT: %[[LSEV:[0-9]+]] = arith.select %[[SEES]], %[[LN]], %[[NEGINF]] : f32
// CHECK-DAG: %[[LH:[0-9]+]] = arith.muli %[[HX]], %[[L1]] : i64
// CHECK-DAG: %[[LHR:[0-9]+]] = arith.addi %[[LH]], %[[RX]] : i64
// CHECK-DAG: %[[LB:[0-9]+]] = arith.muli %[[BX]], %[[L0]] : i64
// CHECK: %[[LI:[0-9]+]] = arith.addi %[[LB]], %[[LHR]] : i64
// CHECK-NEXT: %[[LA:[0-9]+]] = llvm.getelementptr %[[LSE]][%[[LI]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.store %[[LSEV]], %[[LA]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT: {{^ *}$}}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @epilogue(%o: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %b: i32, %row: i32, %h: i32, %sq: i32, %s0: i64, %s1: i64, %s2: i64, %l0: i64, %l1: i64) kernel {
      %t = fa4.tmem.tile column 256 of 1024 : !fa4.tmem_tile<128x64xf32>
      %m = fa4.rows.load 512 : <128xf32>
      %l = fa4.rows.load 1024 : <128xf32>
      fa4.epilogue %t, %m, %l to %o[%b, %row, %h] strides[%s0, %s1, %s2] sq %sq depth 64 of bf16 lse %lse strides[%l0, %l1] : !fa4.tmem_tile<128x64xf32>, <128xf32>, !llvm.ptr<1>, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// `issued_by %e`: the whole warp reaches the MMA and the commit; the tiles'
// descriptor low words are built by every lane, before the branch, and the
// steps, the MMAs and the commit only where %e holds (one elected lane), so
// ptxas keeps the descriptors in uniform registers instead of proving them
// uniform around every MMA.
// CHECK-LABEL: llvm.func @mma_issued_by(
// CHECK-SAME: %[[QO:[a-z0-9]+]]: i32, %[[KO:[a-z0-9]+]]: i32, %[[ACC:[a-z0-9]+]]: i1, %[[E:[a-z0-9]+]]: i1)
// CHECK: %[[QL:[0-9]+]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK: %[[KL:[0-9]+]] = arith.ori %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[E]] {
// CHECK-NEXT: arith.extui %[[QL]] : i32 to i64
// CHECK-COUNT-8: nvvm.tcgen05.mma
// CHECK-NOT: nvvm.tcgen05.
// CHECK: {{^ *}}}{{$}}
// CHECK: %[[BAR:[0-9]+]] = llvm.getelementptr
// CHECK-NEXT: scf.if %[[E]] {
// CHECK-NEXT: nvvm.tcgen05.commit %[[BAR]] : !llvm.ptr<3>
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mma_issued_by(%qo: i32, %ko: i32, %acc: i1, %e: i1) kernel {
      %q = fa4.smem.tile %qo : !fa4.smem_tile<128x128xbf16, k_major>
      %k = fa4.smem.tile %ko : !fa4.smem_tile<64x128xbf16, k_major>
      %s = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x64xf32>
      fa4.tmem.mma %q, %k into %s accumulate %acc issued_by %e : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<64x128xbf16, k_major>, !fa4.tmem_tile<128x64xf32>
      %b = fa4.mbarrier.get %ko offset 4096
      fa4.tmem.commit %b issued_by %e
      gpu.return
    }
  }
}
