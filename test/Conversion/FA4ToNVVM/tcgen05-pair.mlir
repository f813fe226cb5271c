// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The CTA-pair (pair_cta) forms of the sm_100a lowering, as the FA4 kernel
// issues them. Every tcgen05 instruction of a pair kernel is cta_group::2
// (one kernel, one cta_group).
//
// tcgen05.alloc / relinquish_alloc_permit / dealloc: cta_group::2, run by
// the warp of the same index in both CTAs at the same slot.
// CHECK-LABEL: llvm.func @pair(
// CHECK-DAG: %[[MASK:[0-9]+]] = llvm.mlir.constant(3 : i16) : i16
// CHECK: nvvm.tcgen05.alloc %[[SLOT:[0-9]+]], %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// TMA whose bytes count on CTA %rank's barrier: the barrier's shared::cluster
// address (mapa), bits unchanged into the intrinsic's shared pointer, and
// .cta_group::2, which lets the barrier live in the peer CTA.
// CHECK: %[[BAR:[0-9]+]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[DST:[0-9]+]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: %[[REMOTE:[0-9]+]] = nvvm.mapa %[[BAR]], %[[RANK:arg6]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: %[[BITS:[0-9]+]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i64
// CHECK-NEXT: %[[AS3:[0-9]+]] = llvm.inttoptr %[[BITS]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %{{.*}}, %[[AS3]], box[{{.*}}] {group = #nvvm.cta_group<cta_2>}
// S = Q K^T over M = 256: instruction descriptor 0x10200490 = 270533776
// (M >> 4 = 16 at bit 24, N >> 3 = 16 at bit 17, bf16 A and B, f32 D, B
// K-major) with this CTA's K half of 64 rows: the k16 steps move the K
// descriptor by 32 bytes (2 in units of 16) inside its 64-row box.
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c270533776_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK-COUNT-3: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c270533776_i32, %true {ctaGroup = #nvvm.cta_group<cta_2>
// The commit reaches the barrier in both CTAs of the pair.
// CHECK: nvvm.tcgen05.commit %[[BAR]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// A remote arrival, released at cluster scope on CTA %rank's barrier.
// CHECK-NEXT: %[[PEER:[0-9]+]] = nvvm.mapa %[[BAR]], %[[RANK]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[PEER]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// The cluster-scope wait: try_wait.parity.acquire.cluster until done.
// CHECK-NEXT: scf.while : () -> () {
// CHECK-NEXT: %[[DONE:[0-9]+]] = nvvm.mbarrier.try_wait %[[BAR]], %arg7, %{{.*}} {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32, i32 -> i1
// CHECK-NEXT: %[[PENDING:[0-9]+]] = arith.xori %[[DONE]], %true : i1
// CHECK-NEXT: scf.condition(%[[PENDING]])
// O += P V over M = 256, V MN-major (descriptor 0x10210490 = 270599312, the
// B transpose bit 16 set): this CTA's V half is 64 columns of 128 keys.
// CHECK: nvvm.tcgen05.mma %{{.*}}, %{{.*}}, %{{.*}}, %c270599312_i32, %{{.*}} {ctaGroup = #nvvm.cta_group<cta_2>
// CHECK: nvvm.tcgen05.dealloc %{{.*}}, %{{.*}} {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @pair(%map: !fa4.tensor_map, %qo: i32, %ko: i32, %vo: i32, %acc: i1, %i: i32, %rank: i32, %parity: i32) kernel {
      fa4.tmem.alloc 512 columns to 1024 pair
      %bar = fa4.mbarrier.get %i offset 2048
      fa4.tma.load %map[%i, %i, %i, %i] to %ko, %bar in_cta %rank
      %q = fa4.smem.tile %qo : !fa4.smem_tile<128x64xbf16, k_major>
      %k = fa4.smem.tile %ko : !fa4.smem_tile<64x64xbf16, k_major>
      %s = fa4.tmem.tile column 0 of 1024 : !fa4.tmem_tile<128x128xf32>
      fa4.tmem.mma %q, %k into %s accumulate %acc pair : !fa4.smem_tile<128x64xbf16, k_major>, !fa4.smem_tile<64x64xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
      fa4.tmem.commit %bar pair
      fa4.mbarrier.arrive %bar in_cta %rank
      fa4.mbarrier.wait %bar parity %parity cluster
      %v = fa4.smem.tile %vo : !fa4.smem_tile<128x64xbf16, mn_major>
      %p = fa4.tmem.tile column 64 of 1024 : !fa4.tmem_tile<128x128xbf16>
      %o = fa4.tmem.tile column 256 of 1024 : !fa4.tmem_tile<128x128xf32>
      fa4.tmem.mma %p, %v into %o accumulate %acc pair : !fa4.tmem_tile<128x128xbf16>, !fa4.smem_tile<128x64xbf16, mn_major>, !fa4.tmem_tile<128x128xf32>
      fa4.tmem.dealloc 512 columns at 1024 pair
      gpu.return
    }
  }
}
