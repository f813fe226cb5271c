// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a consumer-warpgroups=3" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s

// Three consumer warpgroups (consumer-warpgroups=3): 512 threads on a
// 192-row work tile, setmaxnreg 32 for the producer and 160 for each
// consumer (the 128 x 512 the CTA launches with). The ping-pong turns go
// round the three: consumer c waits on named barrier 1 + c and passes to
// 1 + (c + 1) % 3; the last consumer lets consumer 0 go first. Each Q tile's
// empty barrier takes its one consumer's 128 threads; each K/V slot's all
// three consumers' 384.
// CHECK: fa4.abi = #fa4.abi<{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 192>, "hq", "b"], [1], [1]]
// CHECK-SAME: block = [512, 1, 1]
// CHECK-LABEL: gpu.func @fa4_hopper_three_sm_90a(
// CHECK-SAME: nvvm.maxntid = array<i32: 512, 1, 1>
// CHECK-COUNT-3: fa4.mbarrier.init %{{.*}} count 128
// CHECK: fa4.mbarrier.init %{{.*}} count 384
// CHECK: fa4.warp_specialize warpgroups [1, 3] registers [32, 160] {
// The producer's work tile: 192-row blocks.
// CHECK: arith.divui %{{.*}}, %c192_i32 : i32
// CHECK: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[OWN:.*]] = arith.addi %[[CONSUMER]], %c1_i32 : i32
// CHECK-NEXT: %[[NEXT0:.*]] = arith.remui %[[OWN]], %c3_i32 : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[NEXT0]], %c1_i32 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[CONSUMER]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: nvvm.barrier.arrive id = %[[NEXT]] number_of_threads = %c256_i32
// A consumer with no rows (the last row block of a head where 192 does not
// divide Sq: a third or two thirds of it) takes and passes its turns
// without a GEMM, so the others' GEMMs run back to back.
// CHECK: %[[IDLE:.*]] = arith.cmpi sge, %{{.*}}, %arg5 : i32
// CHECK-NEXT: scf.if %[[IDLE]] {
// CHECK: scf.for
// CHECK: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[NEXT]] number_of_threads = %c256_i32
// CHECK-NOT: fa4.mma
// CHECK: } else {
// CHECK: nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK-NEXT: fa4.smem.tile
// CHECK-NEXT: fa4.mma
// CHECK-NEXT: nvvm.barrier.arrive id = %[[NEXT]] number_of_threads = %c256_i32
func.func @three(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
