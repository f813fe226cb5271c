// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize -cse | fa4-opt -split-input-file '--pass-pipeline=builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm),convert-nvvm-to-llvm,reconcile-unrealized-casts,gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

// fa4.tmem.mma of 8-bit operands (issue 62) is tcgen05.mma.kind::f8f6f4:
// an MMA takes 32 bytes of K, 32 elements, so a K of 128 is 4 steps (not
// 8). 8-bit tiles sit in boxes of 64 columns, 64-byte rows with the 64-byte
// swizzle (the planner's rule for 1-byte types): a K-major step is 32
// bytes on within a row, two steps a box, and the next box is rows * 64
// bytes on (Q's 128 rows: 8192 bytes, 512 in the address field; K's 64:
// 256). The descriptors' high word: SWIZZLE_64B (4 at bit 61), version 1
// (bit 46), SBO 8 rows x 64 bytes (32 at bit 32): 0x80004020; K-major LBO
// is 1 (16 bytes, unused under a swizzle).
// S = Q K^T, Q e4m3 and K e5m2: the instruction descriptor has D f32
// (bit 4), A e4m3 (0 at bit 7), B e5m2 (1 at bit 10), N = 64 (8 at bit 17),
// M = 128 (8 at bit 24): 135267344 (0x08100410).
// CHECK-LABEL: llvm.func @mma_ss_f8(
// CHECK-DAG: %[[IDESC:.+]] = arith.constant 135267344 : i32
// CHECK-DAG: %[[HIGH:.+]] = arith.constant -9223301530671644672 : i64
// CHECK-DAG: %[[LBO:.+]] = arith.constant 65536 : i32
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : i32
// CHECK-DAG: %[[C514:.+]] = arith.constant 514 : i32
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : i32
// CHECK-DAG: %[[C258:.+]] = arith.constant 258 : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: arith.addi %{{[0-9]+}}, %[[C2]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C2]] : i32
// CHECK: nvvm.tcgen05.mma
// CHECK: arith.addi %{{[0-9]+}}, %[[C512]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C256]] : i32
// CHECK: nvvm.tcgen05.mma
// CHECK: arith.addi %{{[0-9]+}}, %[[C514]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C258]] : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK-NOT: nvvm.tcgen05.mma
// CHECK: llvm.return
// PTX-LABEL: .entry mma_ss_f8(
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mma_ss_f8(%qo: i32, %ko: i32, %acc: i1) kernel {
      %q = fa4.smem.tile %qo : !fa4.smem_tile<128x128xf8E4M3FN, k_major>
      %k = fa4.smem.tile %ko : !fa4.smem_tile<64x128xf8E5M2, k_major>
      %s = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x64xf32>
      fa4.tmem.mma %q, %k into %s accumulate %acc : !fa4.smem_tile<128x128xf8E4M3FN, k_major>, !fa4.smem_tile<64x128xf8E5M2, k_major>, !fa4.tmem_tile<128x64xf32>
      gpu.return
    }
  }
}

// -----

// O += P V with P e4m3 in tensor memory (128 elements a row, four to a
// column: 32 columns at column 64) and V e4m3 MN-major: 4 steps, A 8
// columns on per step (32 8-bit elements), V 32 K-rows of 64 bytes on
// (2048 bytes, 128 in the descriptor's address field). V's LBO is the
// distance between its 64-column boxes, 128 rows x 64 bytes (8192: 512 at
// bit 16). The instruction descriptor: A and B e4m3, B transposed (bit
// 16), N = 128 (16 at bit 17), M = 128: 136380432.
// CHECK-LABEL: llvm.func @mma_ts_f8(
// CHECK-DAG: %[[IDESC:.+]] = arith.constant 136380432 : i32
// CHECK-DAG: %[[LBO:.+]] = arith.constant 33554432 : i32
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i32
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : i32
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : i32
// CHECK-DAG: %[[C384:.+]] = arith.constant 384 : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: arith.addi %{{[0-9]+}}, %[[C8]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C128]] : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: arith.addi %{{[0-9]+}}, %[[C24]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C384]] : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK-NOT: nvvm.tcgen05.mma
// CHECK: llvm.return
// PTX-LABEL: .entry mma_ts_f8(
// PTX-COUNT-4: tcgen05.mma.cta_group::1.kind::f8f6f4
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @mma_ts_f8(%vo: i32, %acc: i1) kernel {
      %v = fa4.smem.tile %vo : !fa4.smem_tile<128x128xf8E4M3FN, mn_major>
      %p = fa4.tmem.tile column 64 of 1024 : !fa4.tmem_tile<128x128xf8E4M3FN>
      %o = fa4.tmem.tile column 256 of 1024 : !fa4.tmem_tile<128x128xf32>
      fa4.tmem.mma %p, %v into %o accumulate %acc : !fa4.tmem_tile<128x128xf8E4M3FN>, !fa4.smem_tile<128x128xf8E4M3FN, mn_major>, !fa4.tmem_tile<128x128xf32>
      gpu.return
    }
  }
}

// -----

// P rounded to e4m3 for the P V MMA and stored into tensor memory: a row of
// 64 f32 columns is 16 words of four e4m3 (column c in byte c % 4; the
// cvt puts its first operand in the high byte, so each pair is converted
// (c + 1, c)), stored as 16 TMEM columns.
// CHECK-LABEL: llvm.func @p_to_e4m3(
// CHECK-COUNT-32: nvvm.convert.f32x2.to.f8x2 {{.*}}rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK-NOT: nvvm.convert.f32x2.to.f8x2
// CHECK: nvvm.tcgen05.st
// CHECK-NOT: nvvm.tcgen05.st
// CHECK: llvm.return
// PTX-LABEL: .entry p_to_e4m3(
// PTX-COUNT-32: cvt.rn.satfinite.e4m3x2.f32
// PTX: tcgen05.st.sync.aligned.32x32b.x16.b32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @p_to_e4m3() kernel {
      %s = fa4.tmem.tile column 0 of 512 : !fa4.tmem_tile<128x64xf32>
      %p = fa4.tmem.tile column 0 of 512 : !fa4.tmem_tile<128x64xf8E4M3FN>
      %scores = fa4.tmem.load %s : !fa4.tmem_tile<128x64xf32> -> !fa4.frag<128x64xf32>
      %probs = fa4.truncf %scores : !fa4.frag<128x64xf32> to !fa4.frag<128x64xf8E4M3FN>
      fa4.tmem.store %probs, %p : !fa4.frag<128x64xf8E4M3FN>, !fa4.tmem_tile<128x64xf8E4M3FN>
      gpu.return
    }
  }
}
