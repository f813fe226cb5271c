// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast=false | FileCheck %s --check-prefix=OFF
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast-twin=false | FileCheck %s --check-prefix=NOTWIN
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast-causal=true | FileCheck %s --check-prefix=CAUSAL
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a "--convert-attn-to-fa4=kv-multicast-causal=true twin-own-tiles=true" | FileCheck %s --check-prefix=CAUSALTWIN

// kv-multicast (on by default) at d = 128 without a mask: the kernel with one work tile per
// CTA runs in clusters of two on adjacent row blocks of a head (work item
// blockIdx / 2, two 128-row blocks, the CTA's by its rank). Each CTA loads
// box `rank` of every K and V tile into both (multicast 3) and expects the
// whole tile's bytes; a slot is empty once both CTAs' 256 consumer threads
// released it (512: every thread here, and lane 0 of each peer warp for its
// 32). The pair meets after its barriers are initialised and before either
// exits. The looped twin (kv-multicast-twin, on) runs in pairs too.
// The op's ABI: two CTAs per work item of two row blocks, in clusters of
// two; the twin's launch is its own, in clusters of two as well.
// CHECK: attn.attention
// CHECK-SAME: cluster = array<i64: 2, 1, 1>
// CHECK-SAME: grid = {{\[}}["ceil_div:sq:256", "2", "hq", "b"], ["1"], ["1"]]
// CHECK-SAME: persistent = {
// CHECK-SAME: launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 2, 1, 1>
// CHECK-SAME: grid = {{\[}}["ceil_div:sq:256", "2", "hq", "b"], ["1"], ["1"]]
// CHECK-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: !fa4.tensor_map, %[[K:[a-z0-9]+]]: !fa4.tensor_map, %[[V:[a-z0-9]+]]: !fa4.tensor_map
// CHECK: %[[BLOCK:.*]] = gpu.block_id x
// CHECK: %[[BLOCKI:.*]] = arith.index_cast %[[BLOCK]]
// CHECK: %[[ITEM:.*]] = arith.divui %[[BLOCKI]], %c2_i32
// CHECK: %[[RANKX:.*]] = gpu.cluster_block_id x
// CHECK: %[[RANK:.*]] = arith.index_cast %[[RANKX]]
// CHECK: %[[PEER:.*]] = arith.xori %[[RANK]], %c1_i32
// CHECK-COUNT-4: fa4.mbarrier.init %{{.*}} count 512
// CHECK: fa4.fence.mbarrier_init cluster
// CHECK-NEXT: }
// CHECK-NEXT: fa4.cluster.sync
// CHECK: fa4.warp_specialize
// The first K tile: 45056 bytes (176 keys x 2 boxes of 128 B) expected,
// box 0 from rank 0 and box 1 from rank 1.
// CHECK: fa4.mbarrier.expect_tx %[[FULL:.*]] bytes 45056
// CHECK-NEXT: %[[R0:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32
// CHECK-NEXT: scf.if %[[R0]] {
// CHECK-NEXT: fa4.tma.load %[[K]][%c0_i32, {{.*}}] to %{{.*}}, %[[FULL]] multicast 3{{$}}
// CHECK: %[[R1:.*]] = arith.cmpi eq, %[[RANK]], %c1_i32
// CHECK-NEXT: scf.if %[[R1]] {
// CHECK-NEXT: fa4.tma.load %[[K]][%c64_i32, {{.*}}] to %{{.*}}, %[[FULL]] multicast 3{{$}}
// Q is this CTA's own.
// CHECK: fa4.tma.load %[[Q]][{{.*}}] to %{{.*}}, %{{[0-9]+}}{{$}}
// CHECK: fa4.tma.load %[[V]][%c0_i32, {{.*}} multicast 3{{$}}
// CHECK: fa4.cluster.sync
// A consumer's release: its own arrival, then lane 0 for its warp on the
// peer's barrier.
// CHECK: fa4.mbarrier.arrive %[[EMPTY:[0-9]+]]{{$}}
// CHECK-NEXT: %[[LEAD:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT: fa4.mbarrier.arrive %[[EMPTY]] in_cta %[[PEER]] count 32 cta_scope{{$}}
// CHECK: fa4.cluster.sync
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
// The looped twin (up to 4096 keys) in pairs (the fourth case shows how).
// CHECK-LABEL: gpu.func @fa4_fa3_prefill_sm_90a_persistent(
// CHECK: fa4.cluster.sync
// CHECK: multicast 3
// CHECK: gpu.return
// With kv-multicast-twin=false the kernel pairs and the twin keeps one CTA
// per work list entry, its own launch without the cluster.
// NOTWIN: attn.attention
// NOTWIN-SAME: cluster = array<i64: 2, 1, 1>
// NOTWIN-SAME: persistent = {
// NOTWIN-SAME: launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 1, 1, 1>
// NOTWIN-SAME: grid = {{\[}}["ceil_div:sq:128", "hq", "b"], ["1"], ["1"]]
// NOTWIN-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// NOTWIN: multicast 3
// NOTWIN-LABEL: gpu.func @fa4_fa3_prefill_sm_90a_persistent(
// NOTWIN-NOT: multicast
// NOTWIN-NOT: in_cta
// NOTWIN-NOT: fa4.cluster.sync
// NOTWIN: gpu.return
// With kv-multicast=false: one CTA a work tile, no cluster.
// OFF: attn.attention
// OFF-SAME: cluster = array<i64: 1, 1, 1>
// OFF-SAME: grid = {{\[}}["ceil_div:sq:128", "hq", "b"]
// OFF-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// OFF-NOT: multicast
// OFF-NOT: fa4.cluster.sync
// OFF: gpu.return
func.func @prefill(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Under a causal mask two adjacent row blocks see different K/V tiles: no
// pair. At Dv = 64 (one box a tile, FA3's rule) none either.
// With kv-multicast-causal the causal kernel without a work loop pairs:
// the pair loads the tiles its last row sees (WorkTiles::prefill over 256
// rows), and each consumer runs its GEMMs to its own diagonal, then keeps
// its turns and releases (the peer's slot too) for the pair's rest. The
// looped twin, whose consumers do not trim, stays alone; so does Dv = 64.
// CAUSAL-LABEL: func.func @causal(
// CAUSAL: attn.attention
// CAUSAL-SAME: cluster = array<i64: 2, 1, 1>
// CAUSAL-SAME: grid = {{\[}}["ceil_div:sq:256", "2", "hq", "b"], ["1"], ["1"]]
// CAUSAL-SAME: persistent = {
// CAUSAL-SAME: launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 1, 1, 1>
// CAUSAL-SAME: grid = {{\[}}["ceil_div:sq:128", "hq", "b"], ["1"], ["1"]]
// CAUSAL-LABEL: func.func @shallow(
// CAUSAL: attn.attention
// CAUSAL-SAME: cluster = array<i64: 1, 1, 1>
// CAUSAL-LABEL: gpu.func @fa4_fa3_causal_sm_90a(
// CAUSAL: fa4.cluster.sync
// CAUSAL: fa4.tma.load {{.*}} multicast 3
// CAUSAL: fa4.mbarrier.arrive %{{.*}} in_cta %{{.*}} count 32 cta_scope
// CAUSAL-LABEL: gpu.func @fa4_fa3_causal_sm_90a_persistent(
// CAUSAL-NOT: multicast
// CAUSAL-NOT: fa4.cluster.sync
// CAUSAL-LABEL: gpu.func @fa4_fa3_shallow_sm_90a(
// CAUSAL-NOT: multicast
// CAUSAL-LABEL: gpu.func @fa4_fa3_shallow_sm_90a_persistent(
// With twin-own-tiles the causal twin's consumers stop at their own
// diagonals too, and it pairs as well, on its own launch.
// CAUSALTWIN-LABEL: func.func @causal(
// CAUSALTWIN: attn.attention
// CAUSALTWIN-SAME: cluster = array<i64: 2, 1, 1>
// CAUSALTWIN-SAME: persistent = {
// CAUSALTWIN-SAME: launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 2, 1, 1>
// CAUSALTWIN-SAME: grid = {{\[}}["ceil_div:sq:256", "2", "hq", "b"], ["1"], ["1"]]
// CAUSALTWIN-LABEL: gpu.func @fa4_fa3_causal_sm_90a_persistent(
// CAUSALTWIN: fa4.tma.load {{.*}} multicast 3
// CAUSALTWIN-LABEL: gpu.func @fa4_fa3_shallow_sm_90a(
// CHECK: attn.attention
// CHECK-SAME: cluster = array<i64: 1, 1, 1>
// CHECK: attn.attention
// CHECK-SAME: cluster = array<i64: 1, 1, 1>
// CHECK-LABEL: gpu.func @fa4_fa3_causal_sm_90a(
// CHECK-NOT: multicast
// CHECK-NOT: fa4.cluster.sync
// CHECK-LABEL: gpu.func @fa4_fa3_shallow_sm_90a(
// CHECK-NOT: multicast
// CHECK-NOT: fa4.cluster.sync
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
func.func @shallow(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x6x64xbf16>, %v: tensor<?x?x6x64xbf16>) -> tensor<?x?x6x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16> -> tensor<?x?x6x64xbf16>
  return %o : tensor<?x?x6x64xbf16>
}

// -----

// Persistent at every Skv: no kernel with one work tile per CTA, no pair.
// CHECK-LABEL: gpu.func @fa4_fa3_decode_sm_90a(
// CHECK-NOT: multicast
// CHECK: gpu.return
func.func @decode(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16> -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// The looped twin in pairs (kv-multicast-twin, on): the pair
// (blockIdx / 2) walks one work list with stride gridDim / 2, its slots
// count both CTAs' releases (an elected lane's on the peer's, no lane index
// held across the work loop), and its own launch has the cluster.
// CHECK: attn.attention
// CHECK-SAME: persistent = {
// CHECK-SAME: launch = {block = array<i64: 384, 1, 1>, cluster = array<i64: 2, 1, 1>, dynamic_smem_bytes = {{[0-9]+}} : i64, grid = {{\[}}["ceil_div:sq:256", "2", "hq", "b"], ["1"], ["1"]]
// CHECK-LABEL: gpu.func @fa4_fa3_twin_sm_90a_persistent(
// CHECK: %[[BLOCK:.*]] = arith.index_cast %block_id_x
// CHECK: %[[GRID:.*]] = arith.index_cast %grid_dim_x
// CHECK-NEXT: %{{.*}} = arith.divui %[[BLOCK]], %c2_i32
// CHECK-NEXT: %{{.*}} = arith.divui %[[GRID]], %c2_i32
// CHECK: fa4.mbarrier.init %{{.*}} count 512
// CHECK: fa4.cluster.sync
// CHECK: fa4.tma.load {{.*}} multicast 3
// CHECK: %[[LEAD:.*]] = nvvm.elect.sync -> i1
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT: fa4.mbarrier.arrive %{{.*}} in_cta %{{.*}} count 32 cta_scope
func.func @twin(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
