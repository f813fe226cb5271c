// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefix=FADD
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=tensor-core-row-sum | FileCheck %s --check-prefix=MMA

// convert-attn-to-fa4{tensor-core-row-sum}: the row sums of P by MMA. At
// d = 64 the plain kernel (three consumers, 112-key tiles) and its looped
// twin (two, 176-key tiles) both have room past their regions for the
// operand: 8 rows of 128 / 192 columns (two / three 1 KB boxes) at the
// next 1024-byte boundary, which the launch's shared memory grows by.
// FADD: dynamic_smem_bytes = 196848 : i64
// FADD-SAME: dynamic_smem_bytes = 214016 : i64
// FADD-NOT: row_sum
// MMA: dynamic_smem_bytes = 199680 : i64
// MMA-SAME: dynamic_smem_bytes = 217088 : i64

// Every thread writes the operand before the CTA barrier that follows the
// mbarriers' initialisation.
// MMA-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// MMA: %[[OFF:.*]] = arith.constant 197632 : i32
// MMA-NEXT: %[[ONES:.*]] = fa4.smem.tile %[[OFF]] : <8x128xbf16, k_major>
// MMA-NEXT: fa4.smem.row_sum_operand %[[ONES]] : <8x128xbf16, k_major>
// MMA-NEXT: gpu.barrier

// The loop's GEMM turn: Q K^T, then the previous tile's P V and its row
// sums, a commit group each; the wait leaves both in flight under the
// softmax, which starts its own sum from 0 each tile (dead, for DCE).
// MMA: scf.for
// MMA: fa4.mma %{{.*}} : !fa4.smem_tile<64x64xbf16, k_major>, <112x64xbf16, k_major>, <64x112xf32>
// MMA: %[[O:.*]] = fa4.mma %[[P:[^,]*]], %{{.*}}, %{{.*}} : !fa4.frag<64x112xbf16>, <112x64xbf16, mn_major>, <64x64xf32>
// MMA-NEXT: arith.constant 197632
// MMA-NEXT: %[[B:.*]] = fa4.smem.tile
// MMA-NEXT: %[[L:.*]] = fa4.mma %[[P]], %[[B]], %{{.*}} : !fa4.frag<64x112xbf16>, <8x128xbf16, k_major>, <64x8xf32>
// MMA-NEXT: nvvm.barrier.arrive
// MMA-NEXT: fa4.mma.wait {pending = 2 : i64}
// MMA: %[[ZERO:.*]] = fa4.splat %{{.*}} : !fa4.rows<64xf32>
// MMA: fa4.softmax %{{.*}} sum %[[ZERO]]
// MMA-NEXT: fa4.mma.wait{{$}}
// L is rescaled as O is, without the vote of a lazy rescale.
// MMA: fa4.scale_rows %[[O]] by %[[CORR:.*]] : <64x64xf32>, <64xf32>
// MMA: %[[LSCALED:.*]] = fa4.scale_rows %[[L]] by %[[CORR]] : <64x8xf32>, <64xf32>
// MMA: scf.yield %{{.*}}, %{{.*}}, %[[LSCALED]], %{{.*}} : !fa4.frag<64x64xf32>, !fa4.rows<64xf32>, !fa4.frag<64x8xf32>, !fa4.frag<64x112xbf16>
// The last P V and its row sums, then the sums the epilogue divides by.
// MMA: %[[LAST:.*]]:2 = scf.if %{{.*}} -> (!fa4.frag<64x64xf32>, !fa4.frag<64x8xf32>)
// MMA: fa4.mma %{{.*}} : !fa4.frag<64x112xbf16>, <8x128xbf16, k_major>, <64x8xf32>
// MMA-NEXT: fa4.mma.wait{{$}}
// MMA: %[[SUMS:.*]] = fa4.row_sum %[[LAST]]#1 : <64x8xf32> to <64xf32>
// MMA: fa4.epilogue.stage %[[LAST]]#0, %[[SUMS]] to 0 of bf16

// The twin: 176-key tiles, three boxes, past its O staging.
// MMA-LABEL: gpu.func @fa4_fa3_prefill_sm_90a_persistent(
// MMA: fa4.smem.row_sum_operand %{{.*}} : <8x192xbf16, k_major>
// MMA: fa4.mma %{{.*}} : !fa4.frag<64x176xbf16>, <8x192xbf16, k_major>, <64x8xf32>
// MMA-NEXT: nvvm.barrier.arrive
// MMA-NEXT: fa4.mma.wait {pending = 2 : i64}
// MMA: fa4.row_sum %{{.*}} : <64x8xf32> to <64xf32>
func.func @prefill(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
