// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a causal-block-n=0" --convert-attn-to-fa4="narrow-last-pv=true kv-multicast-causal=0" -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a causal-block-n=0" --convert-attn-to-fa4=kv-multicast-causal=0 -canonicalize -cse | FileCheck %s --check-prefix=OFF

// narrow-last-pv (off by default: measured no faster, bench/RESULTS.md,
// session 9): a work tile's last P V issues only the MMA_K steps that hold
// keys the consumer's rows see (P is 0 past them): ceil((keyEnd - the
// tile's first key) / 16) steps, keyEnd = min(Skv, last row + Skv - Sq + 1)
// under the causal mask; one variant per step count (0 issues nothing,
// 11 or more the whole product), each waiting for its own MMA before the
// V slot's release. kv-multicast-causal=0: the kernel on one CTA per work
// tile, whose consumer schedule these lines pin.
// CHECK-LABEL: gpu.func @fa4_fa3_causal_sm_90a(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr<1>, %{{[a-z0-9]+}}: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32,
// keyEnd is the one the consumer's own tile count (own-tiles.mlir) took
// after its Q wait (past the idle consumer's branch).
// CHECK: } else {
// CHECK-NEXT: %[[QFULL:.*]] = fa4.mbarrier.get %arg{{[0-9]+}} offset 212992
// CHECK-NEXT: fa4.mbarrier.wait %[[QFULL]] parity %c0_i32
// CHECK-NEXT: arith.addi %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[KEYEND:.*]] = arith.minsi %[[SKV]], %{{.*}} : i32
// CHECK: %[[LOOP:.*]]:4 = scf.for
// CHECK: scf.if
// CHECK-NEXT: %[[LASTT:.*]] = arith.subi %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: %[[LASTKEY:.*]] = arith.muli %[[LASTT]], %c176_i32 : i32
// CHECK-NEXT: %[[SEEN:.*]] = arith.subi %[[KEYEND]], %[[LASTKEY]] : i32
// CHECK-NEXT: %[[SEENPOS:.*]] = arith.maxsi %[[SEEN]], %c0_i32 : i32
// CHECK-NEXT: %[[ROUNDUP:.*]] = arith.addi %[[SEENPOS]], %c15_i32 : i32
// CHECK-NEXT: %[[STEPS:.*]] = arith.divui %[[ROUNDUP]], %c16_i32 : i32
// CHECK: %[[LASTSLOT:.*]] = arith.remui %[[LASTT]], %c2_i32 : i32
// CHECK: %[[STEPSIDX:.*]] = arith.index_cast %[[STEPS]] : i32 to index
// CHECK-NEXT: scf.index_switch %[[STEPSIDX]] -> !fa4.frag<64x128xf32>
// CHECK-NEXT: case 0 {
// CHECK-NEXT: scf.yield %[[LOOP]]#0
// CHECK-NEXT: }
// CHECK-NEXT: case 1 {
// CHECK-NEXT: fa4.mma %[[LOOP]]#3, %{{.*}}, %[[LOOP]]#0 {k_extent = 16 : i64}
// CHECK-NEXT: fa4.mma.wait
// CHECK: case 10 {
// CHECK-NEXT: fa4.mma %[[LOOP]]#3, %{{.*}}, %[[LOOP]]#0 {k_extent = 160 : i64}
// CHECK-NEXT: fa4.mma.wait
// CHECK: default {
// CHECK-NEXT: fa4.mma %[[LOOP]]#3, %{{.*}}, %[[LOOP]]#0 :
// CHECK-NEXT: fa4.mma.wait
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[LVEI:.*]] = arith.addi %[[LASTSLOT]], %c10_i32 : i32
// CHECK-NEXT: %[[LVRELEASE:.*]] = fa4.mbarrier.get %[[LVEI]] offset 212992
// CHECK-NEXT: fa4.mbarrier.arrive %[[LVRELEASE]]
// By default the last P V is the whole product.
// OFF-LABEL: gpu.func @fa4_fa3_causal_sm_90a(
// OFF-NOT: scf.index_switch
// OFF-NOT: k_extent
// OFF: gpu.return
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
