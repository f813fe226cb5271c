// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=ping-pong=false -canonicalize -cse | FileCheck %s --check-prefix=NOPP

// FA3 ping-pong: consumer c takes its GEMM turn on named barrier c + 1 and
// hands the next turn to the other consumer on barrier 2 - c, both of 256
// threads (the two consumer warpgroups). Consumer 1 grants consumer 0 the
// first turn; consumer 0 takes one more turn after the loop, so every
// arrive is matched by a sync before exit.
// CHECK-LABEL: gpu.func @fa4_hopper_turns_sm_90a(
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// CHECK: }, {
// CHECK-NEXT: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[OWN:.*]] = arith.addi %[[CONSUMER]], %c1_i32 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c2_i32, %[[CONSUMER]] : i32
// CHECK-NEXT: %[[IS_SECOND:.*]] = arith.cmpi eq, %[[CONSUMER]], %c1_i32 : i32
// CHECK-NEXT: scf.if %[[IS_SECOND]] {
// CHECK-NEXT: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %c256_i32
// CHECK-NEXT: }
// CHECK: scf.for
// The turn starts once K is in shared memory...
// CHECK: fa4.mbarrier.wait
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK: fa4.mma {{.*}}<64x128xf32>{{$}}
// CHECK: fa4.mma {{.*}}<64x128xf32>{{$}}
// ...and ends, handing over, once both GEMMs are issued, before the wait.
// CHECK: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %c256_i32
// CHECK-NEXT: fa4.mma.wait
// CHECK-NOT: nvvm.barrier
// CHECK: scf.yield
// The epilogue's barrier is the consumer's own warpgroup (128 threads,
// before its TMA store of O), not a turn.
// CHECK: fa4.epilogue.stage
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK: fa4.tma.store.wait
// CHECK: %[[IS_FIRST:.*]] = arith.cmpi eq, %[[CONSUMER]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[IS_FIRST]] {
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK-NEXT: }
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return

// Without ping-pong the consumers never wait on each other: the only CTA
// barrier is the one after mbarrier initialisation, and the only named
// barrier the one each consumer's own warpgroup (128 threads) meets at
// before its TMA store of O.
// NOPP-LABEL: gpu.func @fa4_hopper_turns_sm_90a(
// NOPP: gpu.barrier
// NOPP-NOT: nvvm.barrier
// NOPP: fa4.mma
// NOPP-NOT: nvvm.barrier
// NOPP: fa4.epilogue.stage
// NOPP: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// NOPP-NOT: nvvm.barrier
// NOPP: gpu.return
func.func @turns(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
