// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-hopper-kernel | FileCheck %s
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-hopper-kernel=ping-pong=false | FileCheck %s --check-prefix=NOPP

// FA3 ping-pong: consumer c (warpgroup c + 1) takes its GEMM turn on named
// barrier c + 1 and hands the next turn to the other consumer on barrier
// 2 - c, both of 256 threads (the two consumer warpgroups). Consumer 1 grants
// consumer 0 the first turn; consumer 0 takes one more turn after the loop,
// so every arrive is matched by a sync before exit.
// CHECK-LABEL: llvm.func @fa4_fa3_turns_sm_90a(
// CHECK: nvvm.setmaxregister increase 240
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[CONSUMER:.*]] = arith.subi %{{.*}}, %[[ONE]] : i32
// CHECK: %[[OWN:.*]] = arith.addi %[[CONSUMER]], %c1_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %[[TWO]], %[[CONSUMER]] : i32
// CHECK-NEXT: %[[PAIR:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[SECOND:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IS_SECOND:.*]] = arith.cmpi eq, %[[CONSUMER]], %[[SECOND]] : i32
// CHECK-NEXT: scf.if %[[IS_SECOND]] {
// CHECK-NEXT: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %[[PAIR]]
// CHECK-NEXT: }
// CHECK: scf.for
// The turn starts once K is in shared memory...
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %[[PAIR]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n176k16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// ...and ends, handing over, once both GEMMs are issued, before waiting.
// CHECK: nvvm.barrier.arrive id = %[[OTHER]] number_of_threads = %[[PAIR]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.barrier
// CHECK: scf.yield
// CHECK: %[[IS_FIRST:.*]] = arith.cmpi eq, %[[CONSUMER]], %c0_i32{{(_[0-9]+)?}} : i32
// CHECK-NEXT: scf.if %[[IS_FIRST]] {
// CHECK-NEXT: nvvm.barrier id = %[[OWN]] number_of_threads = %[[PAIR]]
// CHECK-NEXT: }
// CHECK-NOT: nvvm.barrier
// CHECK: llvm.return

// Without ping-pong the consumers never wait on each other: the only CTA
// barrier is the one after mbarrier initialisation.
// NOPP-LABEL: llvm.func @fa4_fa3_turns_sm_90a(
// NOPP: nvvm.barrier0
// NOPP-NOT: nvvm.barrier
// NOPP: wgmma.mma_async.sync.aligned.m64n176k16
// NOPP-NOT: nvvm.barrier
// NOPP: llvm.return
func.func @turns(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
