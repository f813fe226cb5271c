// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=device-tensor-maps=1 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4=device-tensor-maps=1 -canonicalize -cse | FileCheck %s --check-prefix=SM100
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=HOST

// device-tensor-maps: Q, K, V and O come by pointer, Q's, K's and V's
// strides after the scalars, and the maps' scratch last; the kernel builds
// the maps it had as parameters (the same boxes: 64-row Q, 128-key K/V and
// the 64-row O of tma-store-o). Lane 0 of warp 11 - i stages map i (the
// warp that copies it; lanes of one warp would stage one after another)
// before the barrier after the mbarrier initialisation (BSHD innermost
// first: depth, heads, length, batch; byte strides of heads, length and
// batch); after griddepcontrol.wait warps 11, 10, 9 and 8 meet (their
// lane 0 staged the map) and copy one map each to the CTA's slot
// (128 * 4 bytes per CTA, x + gx (y + gy z)) and fence the staging area
// for TMA; after
// a second barrier the producer's leader acquires Q, K and V, the
// consumer thread that stores O by TMA acquires O.
// CHECK-LABEL: func @causal
// CHECK: params = [#fa4.pointer<"q">, #fa4.pointer<"k">, #fa4.pointer<"v">, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i32, "skv">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">, #fa4.scalar<f32, "scale_log2">, #fa4.scalar<i64, "q.stride.0">, #fa4.scalar<i64, "q.stride.1">, #fa4.scalar<i64, "q.stride.2">, #fa4.scalar<i64, "k.stride.0">, #fa4.scalar<i64, "k.stride.1">, #fa4.scalar<i64, "k.stride.2">, #fa4.scalar<i64, "v.stride.0">, #fa4.scalar<i64, "v.stride.1">, #fa4.scalar<i64, "v.stride.2">, #fa4.tensor_map_scratch<[<"q", [1, 64, 1, 64], swizzle = 128>, <"k", [1, 128, 1, 64], swizzle = 128>, <"v", [1, 128, 1, 64], swizzle = 128>, <"o", [1, 64, 1, 64], swizzle = 128>]>]
// CHECK: gpu.func @fa4_hopper_causal_sm_90a(%[[Q:arg0]]: !llvm.ptr<1>, %[[K:arg1]]: !llvm.ptr<1>, %{{.*}}, %[[B:arg5]]: i32, %[[SQ:arg6]]: i32, %[[SKV:arg7]]: i32, {{.*}}, %[[QS0:arg14]]: i64, %[[QS1:arg15]]: i64, %[[QS2:arg16]]: i64, %[[KS0:arg17]]: i64, {{.*}}, %[[SCRATCH:arg23]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = arith.index_cast %thread_id_x : index to i32
// CHECK-NEXT: %[[WARP11LANE0:.*]] = arith.cmpi eq, %[[TID]], %c352_i32 : i32
// CHECK-NEXT: scf.if %[[WARP11LANE0]] {
// CHECK-NEXT: %[[HS:.*]] = arith.muli %[[QS2]], %c2_i64 : i64
// CHECK-NEXT: %[[RS:.*]] = arith.muli %[[QS1]], %c2_i64 : i64
// CHECK-NEXT: %[[BS:.*]] = arith.muli %[[QS0]], %c2_i64 : i64
// CHECK-NEXT: fa4.tensor_map.stage %[[Q]] dims[%c128_i32, %c32_i32, %[[SQ]], %[[B]]] strides[%[[HS]], %[[RS]], %[[BS]]] box [64, 1, 64, 1] element_bytes 2 swizzle 128 to 0 : !llvm.ptr<1>
// CHECK: arith.cmpi eq, %[[TID]], %c320_i32 : i32
// CHECK: fa4.tensor_map.stage %[[K]] dims[%c128_i32, %c8_i32, %[[SKV]], %[[B]]] strides[{{.*}}] box [64, 1, 128, 1] element_bytes 2 swizzle 128 to 128 : !llvm.ptr<1>
// CHECK: arith.cmpi eq, %[[TID]], %c288_i32 : i32
// CHECK: fa4.tensor_map.stage %{{.*}} box [64, 1, 128, 1] element_bytes 2 swizzle 128 to 256
// CHECK: arith.cmpi eq, %[[TID]], %c256_i32 : i32
// CHECK: fa4.tensor_map.stage %{{.*}} box [64, 1, 64, 1] element_bytes 2 swizzle 128 to 384
// CHECK: fa4.fence.mbarrier_init
// CHECK: nvvm.griddepcontrol wait
// CHECK: %[[QSLOT_AT:.*]] = arith.muli %[[CTA:.*]], %c512_i64 : i64
// CHECK-NEXT: %[[QSLOT:.*]] = llvm.getelementptr %[[SCRATCH]][%[[QSLOT_AT]]]
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK-NEXT: %[[WARP11:.*]] = arith.cmpi eq, %[[WARP]], %c11_i32 : i32
// CHECK-NEXT: scf.if %[[WARP11]] {
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT: fa4.tensor_map.publish %[[QSLOT]] from 0 : !llvm.ptr<1>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: %[[WARP10:.*]] = arith.cmpi eq, %[[WARP]], %c10_i32 : i32
// CHECK-NEXT: scf.if %[[WARP10]] {
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT: fa4.tensor_map.publish %{{.*}} from 128 : !llvm.ptr<1>
// CHECK-NEXT: nvvm.fence.proxy {{.*}}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: %[[WARP9:.*]] = arith.cmpi eq, %[[WARP]], %c9_i32 : i32
// CHECK-NEXT: scf.if %[[WARP9]] {
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT: fa4.tensor_map.publish %{{.*}} from 256 : !llvm.ptr<1>
// CHECK-NEXT: nvvm.fence.proxy {{.*}}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: %[[WARP8:.*]] = arith.cmpi eq, %[[WARP]], %c8_i32 : i32
// CHECK-NEXT: scf.if %[[WARP8]] {
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT: fa4.tensor_map.publish %{{.*}} from 384 : !llvm.ptr<1>
// CHECK-NEXT: nvvm.fence.proxy {{.*}}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: fa4.warp_specialize
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %[[THREAD:.*]]: i32):
// CHECK-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %[[THREAD]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: %[[VMAP:.*]] = fa4.tensor_map.acquire
// CHECK-NEXT: %[[KMAP:.*]] = fa4.tensor_map.acquire
// CHECK-NEXT: %[[QMAP:.*]] = fa4.tensor_map.acquire %[[QSLOT]] : !llvm.ptr<1>
// CHECK: fa4.tma.load %[[QMAP]]
// CHECK: %[[OMAP:.*]] = fa4.tensor_map.acquire
// CHECK-NEXT: fa4.tma.store %[[OMAP]]
// CHECK-NOT: fa4.tensor_map.acquire
// CHECK: gpu.func @fa4_hopper_causal_sm_90a_persistent(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>) kernel attributes {fa4.device_tensor_maps = #fa4.tensor_map_scratch<[<"q", [1, 64, 1, 64], swizzle = 128>, <"k", [1, 128, 1, 64], swizzle = 128>, <"v", [1, 128, 1, 64], swizzle = 128>, <"o", [1, 64, 1, 64], swizzle = 128>]>

// The Blackwell kernel: its load warp (warp 12 of 384 threads with two
// softmax warpgroups) stages the maps, the Q box of 128 rows, K/V of 128.
// SM100-LABEL: func @causal
// SM100: params = [#fa4.pointer<"q">, #fa4.pointer<"k">, #fa4.pointer<"v">, #fa4.pointer<"o">, {{.*}}, #fa4.tensor_map_scratch<[<"q", [1, 128, 1, 64], swizzle = 128>, <"k", [1, 128, 1, 64], swizzle = 128>, <"v", [1, 128, 1, 64], swizzle = 128>, <"o", [1, 128, 1, 64], swizzle = 128>]>]
// SM100: arith.cmpi eq, %{{.*}}, %c384_i32 : i32
// SM100: fa4.tensor_map.stage %arg0 dims[%c128_i32, %c32_i32, %arg6, %arg5] strides[{{.*}}] box [64, 1, 128, 1] element_bytes 2 swizzle 128 to 0 : !llvm.ptr<1>
// SM100: nvvm.griddepcontrol wait
// SM100: arith.cmpi eq, %{{.*}}, %c12_i32 : i32
// SM100-NEXT: scf.if
// SM100-NEXT: nvvm.bar.warp.sync
// SM100-NEXT: fa4.tensor_map.publish %{{.*}} from 0
// SM100: arith.cmpi eq, %{{.*}}, %c9_i32 : i32
// SM100-NEXT: scf.if
// SM100-NEXT: nvvm.bar.warp.sync
// SM100-NEXT: fa4.tensor_map.publish %{{.*}} from 384
// SM100: gpu.barrier
// SM100-NEXT: fa4.warp_specialize
// SM100: fa4.tensor_map.acquire
func.func @causal(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

// -----

// A one-shot decode (one CTA per split, 4 K/V stages, consumers taking the
// tiles in turn) copies its first tiles itself while the maps are built
// (D-49): the maps are staged past the plan (230400: the launch grows from
// 229608 to 230784 bytes), after the barrier that follows the mbarrier
// initialisation, so that no consumer waits for the staging (D-50). After
// griddepcontrol.wait each consumer thread copies its chunks of Q (16
// query rows x 4 heads, two boxes) and consumer t those of ring tile t's
// K and V (its first tile: two in all), each tile's boxes then an arrival
// held open on its full barrier; Q's group is waited for and fenced; the
// consumers meet (named barrier 7, 256 threads) and their first thread
// arrives on Q's full barrier and each copied tile's K and V full
// barriers, where the producer would have. Only the producer's warpgroup
// meets once the maps are copied (named barrier 6); it loads ring tiles
// from 2 on, and a consumer fences a copied tile after its wait, its
// warpgroup meeting before the wgmma.
// Prefill kernels copy nothing (above); nor do host-encoded maps.
// CHECK-NOT: fa4.copy_async
// CHECK-LABEL: func @decode
// CHECK: dynamic_smem_bytes = 230784
// CHECK: fa4.fence.mbarrier_init
// CHECK: gpu.barrier
// CHECK: fa4.tensor_map.stage %{{.*}} box [64, 4, 16, 1] element_bytes 2 swizzle 128 to 230400
// CHECK: fa4.tensor_map.stage %{{.*}} box [64, 1, 96, 1] element_bytes 2 swizzle 128 to 230528
// CHECK: nvvm.griddepcontrol wait
// CHECK: fa4.tensor_map.publish %{{.*}} from 230656
// CHECK: %[[CONSUMER_THREAD:.*]] = arith.subi %{{.*}}, %c128_i32 : i32
// CHECK: fa4.copy_async.box %{{.*}} rows %[[QROWS:.*]] stride %{{.*}} group 4 stride %{{.*}} lines 64 chunks 8 to %c0_i32 thread %[[CONSUMER_THREAD]] of 256
// CHECK: fa4.copy_async.box %{{.*}} rows %[[QROWS]] stride %{{.*}} group 4 stride %{{.*}} lines 64 chunks 8 to %c8192_i32 thread %[[CONSUMER_THREAD]] of 256
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK: fa4.copy_async.box %{{.*}} group 1 stride %c0_i64 lines 96 chunks 8 to %c32768_i32 thread %[[GROUP_THREAD:.*]] of 128
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: fa4.copy_async.box %{{.*}} lines 96 chunks 8 to %c45056_i32 thread %[[GROUP_THREAD]] of 128
// CHECK: fa4.copy_async.arrive
// CHECK: fa4.copy_async.box %{{.*}} lines 96 chunks 8 to %c131072_i32
// CHECK: fa4.copy_async.arrive
// CHECK: fa4.copy_async.box %{{.*}} lines 96 chunks 8 to %c57344_i32
// CHECK: fa4.copy_async.box %{{.*}} lines 96 chunks 8 to %c167936_i32
// CHECK: fa4.copy_async.arrive
// CHECK-NOT: fa4.copy_async.box
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier id = %c7_i32 number_of_threads = %c256_i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[CONSUMER_THREAD]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[QFULL:.*]] = fa4.mbarrier.get %c0_i32 offset 229376
// CHECK-NEXT: fa4.mbarrier.arrive %[[QFULL]]
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[K0FULL:.*]] = fa4.mbarrier.get %c2_i32 offset 229376
// CHECK-NEXT: fa4.mbarrier.arrive %[[K0FULL]]
// CHECK-NEXT: %[[V0FULL:.*]] = fa4.mbarrier.get %c6_i32 offset 229376
// CHECK-NEXT: fa4.mbarrier.arrive %[[V0FULL]]
// CHECK: %[[V1FULL:.*]] = fa4.mbarrier.get %c7_i32 offset 229376
// CHECK-NEXT: fa4.mbarrier.arrive %[[V1FULL]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: %[[PRODUCER_THREAD:.*]] = arith.cmpi ult, %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: scf.if %[[PRODUCER_THREAD]] {
// CHECK-NEXT: nvvm.barrier id = %c6_i32 number_of_threads = %c128_i32
// CHECK-NEXT: }
// CHECK-NEXT: fa4.warp_specialize
// CHECK-NOT: fa4.mbarrier.arrive
// CHECK: %[[LOADED:.*]] = arith.cmpi uge, %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: scf.if %[[LOADED]] {
// CHECK: fa4.tma.load
// CHECK: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: fa4.mbarrier.wait
// CHECK-NOT: nvvm.fence.proxy
// CHECK: fa4.mbarrier.wait
// CHECK-NEXT: %[[COPIED_TILE:.*]] = arith.cmpi ult, %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: scf.if %[[COPIED_TILE]] {
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: %[[WARPGROUP_BARRIER:.*]] = arith.addi %[[CONSUMER]], %c4_i32 : i32
// CHECK-NEXT: nvvm.barrier id = %[[WARPGROUP_BARRIER]] number_of_threads = %c128_i32
// CHECK-NEXT: }
// CHECK: fa4.mma
// HOST-LABEL: func @decode
// HOST: dynamic_smem_bytes = 229608
// HOST-NOT: fa4.copy_async
// HOST-NOT: cp.async
// HOST: return
func.func @decode(%q: tensor<8x1x32x128xbf16>, %k: tensor<8x8192x8x128xbf16>, %v: tensor<8x8192x8x128xbf16>) -> (tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<8x1x32x128xbf16>, tensor<8x8192x8x128xbf16>, tensor<8x8192x8x128xbf16> -> tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>
  return %o, %lse : tensor<8x1x32x128xbf16>, tensor<8x32x1xf32>
}
