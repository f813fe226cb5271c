// RUN: fa4-opt %s -split-input-file --convert-fa4-to-nvvm -canonicalize -cse | FileCheck %s

// fa4.epilogue.stage of a wgmma fragment (sm_90a): thread t of the
// warpgroup holds rows r = 16 (t / 32) + (t % 32) / 4 and r + 8, columns
// 8 j + 2 (t % 4) and the next. Its rows' sums are summed over the quad
// (shuffles by 1 and 2), then each n8 block j of row r is one 16-byte
// chunk of the row's 128 bytes, at (j ^ (r % 8)) * 16 in the 128B swizzle,
// the thread's pair at byte 4 (t % 4) in it: row base 8192 + 128 r.
// CHECK-LABEL: llvm.func @stage(
// CHECK: %[[T:.*]] = arith.remui %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[T]], %c32_i32 : i32
// CHECK-NEXT: %[[QUADROW:.*]] = arith.divui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[T]], %c32_i32 : i32
// CHECK-NEXT: %[[WARPROW:.*]] = arith.muli %[[WARP]], %c16_i32 : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[WARPROW]], %[[QUADROW]] : i32
// CHECK-NEXT: %[[QUAD:.*]] = arith.remui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[PAIRBYTE:.*]] = arith.muli %[[QUAD]], %c4_i32 : i32
// CHECK-NEXT: gpu.shuffle xor %arg0, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: %[[ROWOFF:.*]] = arith.muli %[[ROW]], %c128_i32 : i32
// CHECK-NEXT: %[[ROWBASE:.*]] = arith.addi %[[ROWOFF]], %c8192_i32 : i32
// CHECK-NEXT: %[[BASE:.*]] = arith.addi %[[ROWBASE]], %[[PAIRBYTE]] : i32
// CHECK-NEXT: %[[SWZ:.*]] = arith.remui %[[ROW]], %c8_i32 : i32
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK: %[[C0:.*]] = arith.muli %[[SWZ]], %c16_i32 : i32
// CHECK-NEXT: %[[A0:.*]] = arith.addi %[[BASE]], %[[C0]] : i32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[A0]]]
// CHECK-NEXT: llvm.store %{{.*}}, %[[P0]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NEXT: %[[X1:.*]] = arith.xori %[[SWZ]], %c1_i32 : i32
// CHECK-NEXT: arith.muli %[[X1]], %c16_i32 : i32
// CHECK-COUNT-6: llvm.store
// The second row (r + 8): the same chunks, 1024 bytes on, same swizzle.
// CHECK: %[[ROW8:.*]] = arith.addi %[[ROW]], %c8_i32 : i32
// CHECK-COUNT-8: llvm.store
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @stage(%x: f32) kernel {
      %o = fa4.splat %x : !fa4.frag<64x64xf32>
      %sum = fa4.splat %x : !fa4.rows<64xf32>
      fa4.epilogue.stage %o, %sum to 8192 of bf16 : !fa4.frag<64x64xf32>, !fa4.rows<64xf32>
      gpu.return
    }
  }
}

// -----

// With `box`, one 64-column box of a wider frag: box 1 of a 64 x 128 tile
// stages its columns 64-127 (registers 32-63) at the offset as if they were
// columns 0-63 (chunk j - 8 at ((j - 8) ^ (r % 8)) * 16): 8 stores per row.
// CHECK-LABEL: llvm.func @stage_box(
// CHECK: %[[BROWOFF:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[BROWBASE:.*]] = arith.addi %[[BROWOFF]], %c16384_i32 : i32
// CHECK-NEXT: %[[BBASE:.*]] = arith.addi %[[BROWBASE]], %{{.*}} : i32
// CHECK-NEXT: %[[BSWZ:.*]] = arith.remui %{{.*}}, %c8_i32 : i32
// CHECK: %[[BC0:.*]] = arith.muli %[[BSWZ]], %c16_i32 : i32
// CHECK-NEXT: arith.addi %[[BBASE]], %[[BC0]] : i32
// CHECK-COUNT-8: llvm.store
// CHECK: arith.addi %{{.*}}, %c8_i32 : i32
// CHECK-COUNT-8: llvm.store
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NOT: llvm.store
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @stage_box(%x: f32) kernel {
      %o = fa4.splat %x : !fa4.frag<64x128xf32>
      %sum = fa4.splat %x : !fa4.rows<64xf32>
      fa4.epilogue.stage %o, %sum to 16384 of bf16 {box = 1 : i64} : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
      gpu.return
    }
  }
}

// -----

// With a run-time `base` (the looped kernel's Q buffer of the work tile),
// every row starts at offset + base: the constant offset, then the base,
// then the row's 128 bytes.
// CHECK-LABEL: llvm.func @stage_base(
// CHECK: %[[TILE:.*]] = arith.addi %{{.*}}, %c4096_i32 : i32
// CHECK: %[[ROWOFF:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[ROWBASE:.*]] = arith.addi %[[TILE]], %[[ROWOFF]] : i32
// CHECK-NEXT: arith.addi %[[ROWBASE]], %{{.*}} : i32
// CHECK-COUNT-8: llvm.store
// CHECK: %[[ROW8:.*]] = arith.addi %{{.*}}, %c8_i32 : i32
// CHECK-NEXT: %[[ROWOFF8:.*]] = arith.muli %[[ROW8]], %c128_i32 : i32
// CHECK-NEXT: arith.addi %[[TILE]], %[[ROWOFF8]] : i32
// CHECK-COUNT-8: llvm.store
// CHECK-NEXT: nvvm.fence.proxy
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @stage_base(%x: f32, %base: i32) kernel {
      %o = fa4.splat %x : !fa4.frag<64x64xf32>
      %sum = fa4.splat %x : !fa4.rows<64xf32>
      fa4.epilogue.stage %o, %sum to 4096 plus %base of bf16 : !fa4.frag<64x64xf32>, !fa4.rows<64xf32>
      gpu.return
    }
  }
}
