// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm | FileCheck %s --enable-var-scope
// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize | FileCheck %s --enable-var-scope --check-prefix=FOLD

// mbarriers and TMA: barrier handles are pointers into the kernel's dynamic
// shared memory (@fa4_dynamic_smem, address space 3), 8 bytes each from the
// barrier region's offset; the other ops are their NVVM counterparts.

// mbarrier.get %i offset 212992 is byte 212992 + 8 * %i of the shared
// memory: an i8 GEP on the global's address, taken once at the kernel entry.
// init counts 256 arrivals; fence.mbarrier_init makes the initialised
// barriers visible to the async (TMA) proxy: fence.proxy.async.shared::cta;
// expect_tx arrives and expects 45056 bytes; the wait is a try_wait.parity
// on the given parity with CUTLASS's 10^7 ns suspend hint; arrive is a plain
// arrive. All of them use the same barrier pointer.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[I:[^:]+]]: i32, %[[PAR:[^:]+]]: i32)
// CHECK-NEXT: %[[BASE:.+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK: %[[SCALED:.+]] = arith.muli %[[I]], %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: %[[OFF:.+]] = arith.addi %c212992_i32{{(_[0-9]+)?}}, %[[SCALED]] : i32
// CHECK-NEXT: %[[BAR:.+]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[COUNT:.+]] = arith.constant 256 : i32
// CHECK-NEXT: nvvm.mbarrier.init %[[BAR]], %[[COUNT]] : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: %[[BYTES:.+]] = arith.constant 45056 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK-NEXT: %[[HINT:.+]] = arith.constant 10000000 : i32
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[BAR]], %[[PAR]], %[[HINT]] : !llvm.ptr<3>, i32, i32
// CHECK-NEXT: nvvm.mbarrier.arrive %[[BAR]] : !llvm.ptr<3>
// CHECK-NEXT: llvm.return
// CHECK-NOT: fa4.
// FOLD-LABEL: llvm.func @f(
// FOLD: %[[SCALED:.+]] = arith.muli %arg0, %c8_i32 : i32
// FOLD-NEXT: %[[OFF:.+]] = arith.addi %[[SCALED]], %c212992_i32 : i32
// FOLD-NEXT: llvm.getelementptr %{{.+}}[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%i: i32, %parity: i32) kernel {
      %b = fa4.mbarrier.get %i offset 212992
      fa4.mbarrier.init %b count 256
      fa4.fence.mbarrier_init
      fa4.mbarrier.expect_tx %b bytes 45056
      fa4.mbarrier.wait %b parity %parity
      fa4.mbarrier.arrive %b
      gpu.return
    }
  }
}

// -----

// Barriers at different indices of one region are different pointers,
// offset + 8 * index bytes into shared memory: with constant indices the GEPs
// fold to bytes 1024 + 8 * 0 and 1024 + 8 * 3 = 1048 of the one
// @fa4_dynamic_smem address.
// CHECK-LABEL: llvm.func @f(
// CHECK: arith.muli %c0_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.addi %c1024_i32{{(_[0-9]+)?}}, %{{.+}} : i32
// CHECK: arith.muli %c3_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
// CHECK: arith.addi %c1024_i32{{(_[0-9]+)?}}, %{{.+}} : i32
// FOLD-LABEL: llvm.func @f(
// FOLD: %[[BASE:.+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// FOLD-NOT: llvm.mlir.addressof
// FOLD: %[[B0:.+]] = llvm.getelementptr %[[BASE]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// FOLD-NEXT: %[[B3:.+]] = llvm.getelementptr %[[BASE]][1048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// FOLD-NEXT: nvvm.mbarrier.init %[[B0]], %c1_i32 : !llvm.ptr<3>, i32
// FOLD-NEXT: nvvm.mbarrier.init %[[B3]], %c2_i32 : !llvm.ptr<3>, i32
// FOLD-NEXT: nvvm.mbarrier.arrive %[[B3]] : !llvm.ptr<3>
// FOLD-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f() kernel {
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %b0 = fa4.mbarrier.get %c0 offset 1024
      %b3 = fa4.mbarrier.get %c3 offset 1024
      fa4.mbarrier.init %b0 count 1
      fa4.mbarrier.init %b3 count 2
      fa4.mbarrier.arrive %b3
      gpu.return
    }
  }
}

// -----

// tma.load: the destination byte offset becomes a pointer into the dynamic
// shared memory (an i8 GEP), cast to the shared::cluster window (address
// space 7) that cp.async.bulk.tensor writes; the tensor map is the byval
// kernel parameter itself, the barrier the mbarrier pointer, and the box
// coordinates are passed through in order (innermost first). The rank comes
// from the number of coordinates: 4 for the Q/K/V maps, 2 here for the
// second load.
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %[[Z:[^:]+]]: i32, %[[W:[^:]+]]: i32, %[[DST:[^:]+]]: i32, %[[DST2:[^:]+]]: i32)
// CHECK-DAG: %[[BASE:.+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// CHECK-DAG: %[[BAR:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR]]
// CHECK-NEXT: %[[D:.+]] = llvm.getelementptr %{{.+}}[%[[DST]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[D7:.+]] = llvm.addrspacecast %[[D]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D7]], %[[MAP]], %[[BAR]], box[%[[X]], %[[Y]], %[[Z]], %[[W]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: %[[E:.+]] = llvm.getelementptr %{{.+}}[%[[DST2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[E7:.+]] = llvm.addrspacecast %[[E]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[E7]], %[[MAP]], %[[BAR]], box[%[[W]], %[[X]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: llvm.return
// FOLD-LABEL: llvm.func @f(
// FOLD: %[[BASE:.+]] = llvm.mlir.addressof @fa4_dynamic_smem : !llvm.ptr<3>
// FOLD-NOT: llvm.mlir.addressof
// FOLD: llvm.getelementptr %[[BASE]][%arg5]
// FOLD: llvm.getelementptr %[[BASE]][%arg6]
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%map: !fa4.tensor_map, %x: i32, %y: i32, %z: i32, %w: i32, %dst: i32, %dst2: i32) kernel {
      %c0 = arith.constant 0 : i32
      %b = fa4.mbarrier.get %c0 offset 212992
      fa4.mbarrier.expect_tx %b bytes 32768
      fa4.tma.load %map[%x, %y, %z, %w] to %dst, %b
      fa4.tma.load %map[%w, %x] to %dst2, %b
      gpu.return
    }
  }
}

// -----

// An L2 eviction priority becomes the copy's 64-bit cache policy operand
// (`.L2::cache_hint`): createpolicy.fractional's evict_last / evict_first
// at a fraction of 1.0; no operand without one.
// CHECK-LABEL: llvm.func @hinted(
// CHECK: %[[LAST:.+]] = llvm.mlir.constant(1508705875169116160 : i64) : i64
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}] l2_cache_hint = %[[LAST]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[FIRST:.+]] = llvm.mlir.constant(1364590687093260288 : i64) : i64
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.+}}, %{{.+}}, box[%{{.+}}] l2_cache_hint = %[[FIRST]] : !llvm.ptr, <3>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @hinted(%map: !fa4.tensor_map, %x: i32, %dst: i32) kernel {
      %c0 = arith.constant 0 : i32
      %b = fa4.mbarrier.get %c0 offset 212992
      fa4.tma.load %map[%x] to %dst, %b l2 evict_last
      fa4.tma.load %map[%x] to %dst, %b
      fa4.tma.store %map[%x] from %dst l2 evict_first
      gpu.return
    }
  }
}

// -----

// kv-multicast's pieces. `multicast 3` is the copy's 16-bit cta mask
// (.multicast::cluster: the box and its bytes land at the same offsets in
// CTAs 0 and 1); `count 32` arrives 32 times at once on the peer's barrier
// (mapa, cluster scope; with cta_scope a release at CTA scope, CUTLASS's
// slot release); `cluster` adds fence.mbarrier_init.release.cluster before
// the async-proxy fence.
// CHECK-LABEL: llvm.func @pair(
// CHECK-SAME: %{{[^:]+}}: !llvm.ptr {{{.*}}}, %[[X:[^:]+]]: i32, %[[DST:[^:]+]]: i32, %[[PEER:[^:]+]]: i32)
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: %[[MASK:.+]] = arith.constant 3 : i16
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %[[BAR:.+]], box[%[[X]]] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: %[[N:.+]] = arith.constant 32 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive %[[BAR]], %[[N]] : !llvm.ptr<3>{{$}}
// CHECK-NEXT: %[[M:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[REMOTE:.+]] = nvvm.mapa %[[BAR]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]], %[[M]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>{{$}}
// CHECK-NEXT: %[[L:.+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[NEAR:.+]] = nvvm.mapa %[[BAR]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[NEAR]], %[[L]] : !llvm.ptr<7>{{$}}
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @pair(%map: !fa4.tensor_map, %x: i32, %dst: i32, %peer: i32) kernel {
      %c0 = arith.constant 0 : i32
      %b = fa4.mbarrier.get %c0 offset 212992
      fa4.fence.mbarrier_init cluster
      fa4.tma.load %map[%x] to %dst, %b multicast 3
      fa4.mbarrier.arrive %b count 32
      fa4.mbarrier.arrive %b in_cta %peer count 32
      fa4.mbarrier.arrive %b in_cta %peer count 32 cta_scope
      gpu.return
    }
  }
}
