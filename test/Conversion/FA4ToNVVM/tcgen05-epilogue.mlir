// RUN: fa4-opt %s --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// The TMA-store epilogue on sm_100a. fa4.epilogue.stage: thread r (tid %
// 128) reads its row of O (one 64-column box here, staged at 4096) from
// TMEM 16 columns at a time, scales by 1 / sum (0 for a row that saw no
// key), rounds to bf16 pairs and stores 16-byte chunks at their 128B-swizzled
// place: row r at 4096 + 128 r, chunk c at (c ^ (r % 8)) * 16. Eight chunks
// per 64 columns, chunk 0 at (r % 8) * 16; then fence.proxy.async so the
// TMA store sees the tile. fa4.tma.store is one bulk tensor store from
// shared::cta, committed as its own group; the wait is wait_group.read 0.
// CHECK-LABEL: llvm.func @stage(
// CHECK: %[[ROW:.*]] = arith.remui %{{.*}}, %c128_i32 : i32
// CHECK: %[[SEES:.*]] = arith.cmpf ogt, %arg0, %[[ZERO:.*]] : f32
// CHECK-NEXT: %[[INV:.*]] = arith.divf %{{.*}}, %arg0 : f32
// CHECK-NEXT: %[[SCALE:.*]] = arith.select %[[SEES]], %[[INV]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ROWOFF:.*]] = arith.muli %[[ROW]], %c128_i32 : i32
// CHECK-NEXT: %[[ROWSTART:.*]] = arith.addi %[[ROWOFF]], %c4096_i32 : i32
// CHECK-NEXT: %[[SWZ:.*]] = arith.remui %[[ROW]], %c8_i32 : i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK: nvvm.tcgen05.ld
// CHECK: nvvm.tcgen05.wait <load>
// CHECK: arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: %[[C0:.*]] = arith.muli %[[SWZ]], %c16_i32 : i32
// CHECK-NEXT: %[[A0:.*]] = arith.addi %[[ROWSTART]], %[[C0]] : i32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[A0]]]
// CHECK-NEXT: llvm.store %{{.*}}, %[[P0]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: %[[X1:.*]] = arith.xori %[[SWZ]], %c1_i32 : i32
// CHECK-NEXT: arith.muli %[[X1]], %c16_i32 : i32
// CHECK: llvm.store
// CHECK: arith.xori %[[SWZ]], %c7_i32 : i32
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NOT: llvm.store
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %arg1, %{{.*}}, box[%arg2, %arg2, %arg2, %arg2]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_100a">] {
    gpu.func @stage(%sum: !fa4.rows<128xf32>, %map: !fa4.tensor_map, %i: i32) kernel {
      %o = fa4.tmem.tile column 256 of 1024 : !fa4.tmem_tile<128x64xf32>
      fa4.epilogue.stage %o, %sum to 4096 of bf16 : !fa4.tmem_tile<128x64xf32>, !fa4.rows<128xf32>
      %src = arith.constant 4096 : i32
      fa4.tma.store %map[%i, %i, %i, %i] from %src
      fa4.tma.store.wait
      gpu.return
    }
  }
}
