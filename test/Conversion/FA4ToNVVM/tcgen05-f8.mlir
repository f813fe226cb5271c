// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize -cse | fa4-opt -split-input-file '--pass-pipeline=builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm),convert-nvvm-to-llvm,reconcile-unrealized-casts,gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

// fa4.tmem.mma of 8-bit operands (issue 62) is tcgen05.mma.kind::f8f6f4:
// an MMA takes 32 bytes of K, 32 elements, so a K of 128 is 4 steps (not
// 8), each 32 bytes on in a K-major tile's 128-byte box (as a bf16 step).
// S = Q K^T, Q e4m3 and K e5m2: the instruction descriptor has D f32
// (bit 4), A e4m3 (0 at bit 7), B e5m2 (1 at bit 10), N = 64 (8 at bit 17),
// M = 128 (8 at bit 24): 135267344 (0x08100410).
// CHECK-LABEL: llvm.func @mma_ss_f8(
// CHECK: %[[IDESC:.+]] = arith.constant 135267344 : i32
// CHECK-COUNT-4: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %[[IDESC]], %{{.*}} {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f8f6f4>} : (!llvm.ptr<6>, i64, i64, i32, i1)
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
// columns on per step (32 8-bit elements), V 32 K-rows of 128 bytes on
// (4096 bytes, 256 in the descriptor's address field). The descriptor: A
// and B e4m3, B transposed (bit 16), N = 128 (16 at bit 17), M = 128:
// 136380432.
// CHECK-LABEL: llvm.func @mma_ts_f8(
// CHECK-DAG: %[[IDESC:.+]] = arith.constant 136380432 : i32
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i32
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : i32
// CHECK-DAG: %[[C24:.+]] = arith.constant 24 : i32
// CHECK-DAG: %[[C768:.+]] = arith.constant 768 : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: arith.addi %{{[0-9]+}}, %[[C8]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C256]] : i32
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: nvvm.tcgen05.mma {{.*}}, %[[IDESC]], {{.*}}kind = #nvvm.tcgen05_mma_kind<f8f6f4>
// CHECK: arith.addi %{{[0-9]+}}, %[[C24]] : i32
// CHECK: arith.addi %{{[0-9]+}}, %[[C768]] : i32
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
