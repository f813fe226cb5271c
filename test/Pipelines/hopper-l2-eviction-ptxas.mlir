// fa4-compile --l2-eviction-hints: every TMA copy of the sm_90a prefill
// kernel and its looped twin carries a cache policy (`.L2::cache_hint`),
// evict_last (0x14F0000000000000) for K and V and evict_first
// (0x12F0000000000000) for Q and the O stores, the K/V multicasts of the
// causal kernel's pairs too, and the kernels still assemble without
// spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --l2-eviction-hints --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not="complete_tx::bytes [" --implicit-check-not="multicast::cluster [" --implicit-check-not="bulk_group [" --input-file=%t/fa4_fa3_p128c_sm_90a/fa4_fa3_p128c_sm_90a.ptx

// CHECK: Compiling entry function 'fa4_fa3_p128c_sm_90a_persistent' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p128c_sm_90a_persistent
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_fa3_p128c_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p128c_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// PTX-DAG: mov.b64 %[[LAST:rd[0-9]+]], 1508705875169116160;
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [{{.*}}], [{{.*}}], [{{.*}}], %rs{{[0-9]+}}, %[[LAST]];
// PTX-DAG: mov.b64 %[[OFIRST:rd[0-9]+]], 1364590687093260288;
// PTX-DAG: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group.L2::cache_hint [{{.*}}], [{{.*}}], %[[OFIRST]];
// PTX-DAG: mov.b64 %[[QFIRST:rd[0-9]+]], 1364590687093260288;
// PTX-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [{{.*}}], [{{.*}}], [{{.*}}], %[[QFIRST]];

func.func @p128c(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
