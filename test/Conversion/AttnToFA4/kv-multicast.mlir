// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast=false | FileCheck %s --check-prefix=OFF
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast-twin=false | FileCheck %s --check-prefix=NOTWIN
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast-causal=false | FileCheck %s --check-prefix=NOCAUSAL
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast-causal-min-seq-kv=0 | FileCheck %s --check-prefix=CAUSAL
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=kv-multicast-causal-min-seq-kv=8192 | FileCheck %s --check-prefix=MIN8K

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
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]]
// CHECK-SAME: cluster = [2, 1, 1]
// CHECK-SAME: persistent = <
// CHECK-SAME: launch = <{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [2, 1, 1]
// CHECK-LABEL: gpu.func @fa4_hopper_prefill_sm_90a(
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
// CHECK-LABEL: gpu.func @fa4_hopper_prefill_sm_90a_persistent(
// CHECK: fa4.cluster.sync
// CHECK: multicast 3
// CHECK: gpu.return
// With kv-multicast-twin=false the kernel pairs and the twin keeps one CTA
// per work list entry, its own launch without the cluster.
// NOTWIN: attn.attention
// NOTWIN-SAME: cluster = [2, 1, 1]
// NOTWIN-SAME: persistent = <
// NOTWIN-SAME: launch = <{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [1, 1, 1]
// NOTWIN-LABEL: gpu.func @fa4_hopper_prefill_sm_90a(
// NOTWIN: multicast 3
// NOTWIN-LABEL: gpu.func @fa4_hopper_prefill_sm_90a_persistent(
// NOTWIN-NOT: multicast
// NOTWIN-NOT: in_cta
// NOTWIN-NOT: fa4.cluster.sync
// NOTWIN: gpu.return
// With kv-multicast=false: one CTA a work tile, no cluster.
// OFF: attn.attention
// OFF-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"]
// OFF-SAME: cluster = [1, 1, 1]
// OFF-LABEL: gpu.func @fa4_hopper_prefill_sm_90a(
// OFF-NOT: multicast
// OFF-NOT: fa4.cluster.sync
// OFF: gpu.return
func.func @prefill(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Under a causal mask (kv-multicast-causal, on) the kernel without a work
// loop pairs where every launch it serves has at least
// kv-multicast-causal-min-seq-kv (2048) keys: the pair loads the tiles its
// last row sees (WorkTiles::prefill over 256 rows), and each consumer runs
// its GEMMs to its own diagonal, then keeps its turns and releases (the
// peer's slot too) for the pair's rest. Here the kernel runs above its
// looped twin's 4096 keys: it pairs. The looped twin, whose consumers do
// not trim, stays alone; so does Dv = 64 (one box a tile, FA3's rule).
// CHECK-LABEL: func.func @causal(
// CHECK: attn.attention
// CHECK-SAME: grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]]
// CHECK-SAME: cluster = [2, 1, 1]
// CHECK-SAME: persistent = <
// CHECK-SAME: launch = <{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 128>, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [1, 1, 1]
// CHECK-LABEL: func.func @shallow(
// CHECK: attn.attention
// CHECK-SAME: cluster = [1, 1, 1]
// CHECK-LABEL: gpu.func @fa4_hopper_causal_sm_90a(
// CHECK: fa4.cluster.sync
// CHECK: fa4.tma.load {{.*}} multicast 3
// CHECK: fa4.mbarrier.arrive %{{.*}} in_cta %{{.*}} count 32 cta_scope
// CHECK-LABEL: gpu.func @fa4_hopper_causal_sm_90a_persistent(
// CHECK-NOT: multicast
// CHECK-NOT: fa4.cluster.sync
// CHECK-LABEL: gpu.func @fa4_hopper_shallow_sm_90a(
// CHECK-NOT: multicast
// CHECK-LABEL: gpu.func @fa4_hopper_shallow_sm_90a_persistent(
// kv-multicast-causal=false, or a bound past the kernel's 4097 keys: one
// CTA per work tile.
// NOCAUSAL-LABEL: func.func @causal(
// NOCAUSAL: attn.attention
// NOCAUSAL-SAME: cluster = [1, 1, 1]
// NOCAUSAL-LABEL: gpu.func @fa4_hopper_causal_sm_90a(
// NOCAUSAL-NOT: multicast
// NOCAUSAL-NOT: fa4.cluster.sync
// NOCAUSAL-LABEL: gpu.func @fa4_hopper_causal_sm_90a_persistent(
// MIN8K-LABEL: func.func @causal(
// MIN8K: attn.attention
// MIN8K-SAME: cluster = [1, 1, 1]
// MIN8K-LABEL: gpu.func @fa4_hopper_causal_sm_90a(
// MIN8K-NOT: multicast
// MIN8K-LABEL: gpu.func @fa4_hopper_causal_sm_90a_persistent(
// CAUSAL-LABEL: func.func @causal(
// CAUSAL: attn.attention
// CAUSAL-SAME: cluster = [2, 1, 1]
func.func @causal(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
func.func @shallow(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x6x64xbf16>, %v: tensor<?x?x6x64xbf16>) -> tensor<?x?x6x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16> -> tensor<?x?x6x64xbf16>
  return %o : tensor<?x?x6x64xbf16>
}

// -----

// At d = 256 the looped twin stops at 512 keys, so the causal kernel beside
// it serves launches from 513: under the bound, one CTA per work tile (it
// ran 2.0-3.8% slower in pairs at 1024 keys, D-11). A bound of 0 pairs
// it.
// CHECK-LABEL: func.func @causal_d256(
// CHECK: attn.attention
// CHECK-SAME: cluster = [1, 1, 1]
// CHECK-SAME: max_seq_kv = 512
// CHECK-LABEL: gpu.func @fa4_hopper_causal_d256_sm_90a(
// CHECK-NOT: multicast
// CHECK-LABEL: gpu.func @fa4_hopper_causal_d256_sm_90a_persistent(
// CAUSAL-LABEL: func.func @causal_d256(
// CAUSAL: attn.attention
// CAUSAL-SAME: cluster = [2, 1, 1]
// CAUSAL-LABEL: gpu.func @fa4_hopper_causal_d256_sm_90a(
// CAUSAL: multicast 3
// CAUSAL-LABEL: gpu.func @fa4_hopper_causal_d256_sm_90a_persistent(
func.func @causal_d256(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>, %v: tensor<?x?x8x256xbf16>) -> tensor<?x?x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16> -> tensor<?x?x8x256xbf16>
  return %o : tensor<?x?x8x256xbf16>
}

// -----

// A static Skv decides alone: past the twin's 512 keys one kernel without
// a loop, in pairs at 4096 keys, alone at 1024 (under the bound).
// CHECK-LABEL: func.func @causal_d256_4096(
// CHECK: attn.attention
// CHECK-SAME: cluster = [2, 1, 1]
// CHECK-NOT: persistent =
// CHECK-LABEL: func.func @causal_d256_1024(
// CHECK: attn.attention
// CHECK-SAME: cluster = [1, 1, 1]
// CHECK-NOT: persistent =
// CHECK-LABEL: gpu.func @fa4_hopper_causal_d256_4096_sm_90a(
// CHECK: multicast 3
// CHECK-LABEL: gpu.func @fa4_hopper_causal_d256_1024_sm_90a(
// CHECK-NOT: multicast
// CHECK: gpu.return
// MIN8K-LABEL: func.func @causal_d256_4096(
// MIN8K: attn.attention
// MIN8K-SAME: cluster = [1, 1, 1]
func.func @causal_d256_4096(%q: tensor<2x4096x8x256xbf16>, %k: tensor<2x4096x8x256xbf16>, %v: tensor<2x4096x8x256xbf16>) -> tensor<2x4096x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<2x4096x8x256xbf16>, tensor<2x4096x8x256xbf16>, tensor<2x4096x8x256xbf16> -> tensor<2x4096x8x256xbf16>
  return %o : tensor<2x4096x8x256xbf16>
}
func.func @causal_d256_1024(%q: tensor<2x1024x8x256xbf16>, %k: tensor<2x1024x8x256xbf16>, %v: tensor<2x1024x8x256xbf16>) -> tensor<2x1024x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<2x1024x8x256xbf16>, tensor<2x1024x8x256xbf16>, tensor<2x1024x8x256xbf16> -> tensor<2x1024x8x256xbf16>
  return %o : tensor<2x1024x8x256xbf16>
}

// -----

// Persistent at every Skv: no kernel with one work tile per CTA, no pair.
// CHECK-LABEL: gpu.func @fa4_hopper_decode_sm_90a(
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
// CHECK-SAME: persistent = <
// CHECK-SAME: launch = <{{.*}}grid = {{\[}}[#fa4.ceil_div<"sq", 256>, 2, "hq", "b"], [1], [1]], block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem_bytes = {{[0-9]+}}>
// CHECK-LABEL: gpu.func @fa4_hopper_twin_sm_90a_persistent(
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
