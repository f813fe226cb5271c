// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=tma-store-o=0 -canonicalize -cse | FileCheck %s --check-prefix=OFF
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=persistent-max-seq-kv=0 -canonicalize -cse | FileCheck %s --check-prefix=PLAINONLY

// The plain sm_90a prefill kernel stores O through shared memory and TMA
// (tma-store-o, default on; measured +2-14% at S <= 2048 and +0-4% above
// for Dv >= 128, D-4). O's tensor map is the last
// parameter (64-row boxes of 64 columns, 128B swizzle) and O needs 16-byte
// alignment; its pointer stays, for the looped twin in the same module.
// (The twin, at d = 128 without a mask, has its own plan and launch: the
// kernel's shared memory no longer holds the twin's O staging.)
// CHECK-LABEL: func @plain
// CHECK: launch = <params = [#fa4.tensor_map<"q", [1, 64, 1, 64], swizzle = 128>, {{.*}}, #fa4.pointer<"o">, #fa4.pointer<"lse">, {{.*}}, #fa4.scalar<f32, "scale_log2">, #fa4.tensor_map<"o", [1, 64, 1, 64], swizzle = 128>], grid = {{.*}}, dynamic_smem_bytes = 213120>, alignment = {k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, lse = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, o = #fa4.alignment<base_bytes = 16, stride_bytes = 16>,
// CHECK: gpu.func @fa4_hopper_plain_sm_90a({{.*}}%[[OMAP:arg14]]: !fa4.tensor_map)
// Consumer c stages its 64 x 128 tile over its own Q tile (plan: oStaging
// aliases q at 0; 16 KB per consumer), writes LSE directly, meets its own
// warpgroup at named barrier 4 + c (128 threads), and its first thread
// stores two 64-column boxes (8 KB apart) at (column, head, tile row,
// batch), then waits for their reads.
// CHECK: fa4.epilogue.stage %[[O:.*]], %[[SUM:.*]] to 0 of bf16 : !fa4.frag<64x128xf32>, <64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: fa4.epilogue.stage %[[O]], %[[SUM]] to 16384 of bf16 : !fa4.frag<64x128xf32>, <64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: fa4.lse.store %{{.*}}, %[[SUM]] to %arg4[%[[B:.*]], %[[ROW:.*]], %[[H:.*]]] strides[%arg11, %arg12] sq %arg6
// CHECK-NEXT: %[[BAR:.*]] = arith.addi %{{.*}}, %c4_i32 : i32
// CHECK-NEXT: nvvm.barrier id = %[[BAR]] number_of_threads = %c128_i32
// CHECK: scf.if
// CHECK-NEXT: fa4.tma.store %[[OMAP]][%c0_i32, %[[H]], %[[ROW]], %[[B]]] from %[[STAGE:.*]]
// CHECK-NEXT: %[[STAGE1:.*]] = arith.addi %[[STAGE]], %c8192_i32 : i32
// CHECK-NEXT: fa4.tma.store %[[OMAP]][%c64_i32, %[[H]], %[[ROW]], %[[B]]] from %[[STAGE1]]
// CHECK-NEXT: fa4.tma.store.wait
// CHECK-NOT: fa4.epilogue {{.*}}
// The looped twin has two Q buffers (double-q.mlir has the protocol): its
// plan's (163968 bytes at its 128-key tiles) and a second past it, from
// the swizzle atom at 164864 (32 KB, then four barriers: its launch's
// shared memory is 197664). Each consumer stages all of O over its own Q
// tile of the work tile's buffer (a run-time base), meets its warpgroup,
// and its first thread issues both boxes' stores without waiting for them;
// the CTA waits for the last ones before it exits. (A causal mask at this
// Dv gets no twin: the plain kernel measured faster; hopper-isa.mlir.)
// CHECK: gpu.func @fa4_hopper_plain_sm_90a_persistent(
// CHECK-NOT: fa4.epilogue {{.*}} to %arg3[
// CHECK: fa4.lse.store
// CHECK-NEXT: fa4.epilogue.stage %{{.*}}, %{{.*}} to 0 plus %[[TSTAGE:.*]] of bf16 : !fa4.frag<64x128xf32>, <64xf32>
// CHECK-NEXT: %[[TBAR:.*]] = arith.addi %{{.*}}, %c4_i32 : i32
// CHECK-NEXT: nvvm.barrier id = %[[TBAR]] number_of_threads = %c128_i32
// CHECK: scf.if
// CHECK-NEXT: fa4.tma.store %arg14[%c0_i32, %{{.*}}] from %[[TSTAGE]]
// CHECK-NEXT: %[[TSTAGE1:.*]] = arith.addi %[[TSTAGE]], %c8192_i32 : i32
// CHECK-NEXT: fa4.tma.store %arg14[%c64_i32, %{{.*}}] from %[[TSTAGE1]]
// CHECK-NEXT: }
// CHECK-NOT: fa4.tma.store.wait
// CHECK: scf.yield
// CHECK: fa4.tma.store.wait
// CHECK: gpu.return
// Without a looped kernel the launch keeps the plan's shared memory.
// PLAINONLY-LABEL: func @plain
// PLAINONLY: dynamic_smem_bytes = 213120
// PLAINONLY-NOT: _persistent
// PLAINONLY: gpu.return
// OFF-LABEL: func @plain
// OFF: #fa4.scalar<f32, "scale_log2">], grid = {{.*}}, dynamic_smem_bytes = 213120>, alignment = {k = #fa4.alignment<base_bytes = 16, stride_bytes = 16>, lse = #fa4.alignment<base_bytes = 4, stride_bytes = 4>, o = #fa4.alignment<base_bytes = 4, stride_bytes = 4>,
// OFF-NOT: fa4.tma.store
// OFF-NOT: fa4.epilogue.stage
func.func @plain(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// -----

// Dv > Dqk: a consumer's O tile (64 x 128) does not fit in its Q tile
// (64 x 64); the planner gives O a region of its own after Q (from 16384),
// so both consumers stage there at any time.
// CHECK-LABEL: func @wide_v
// CHECK: oStaging = array<i64: 16384, 32768, 1024>
// CHECK-SAME: q = array<i64: 0, 16384, 1024>
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 16384 of bf16
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 32768 of bf16
// CHECK: fa4.tma.store
func.func @wide_v(%q: tensor<?x?x6x64xbf16>, %k: tensor<?x?x6x64xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x6x64xbf16>, tensor<?x?x6x64xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Decode (fused GQA rows, here a cluster split-K) keeps its own epilogue.
// CHECK-LABEL: func @decode
// CHECK-NOT: fa4.tma.store
// CHECK: fa4.splitk.combine
// CHECK-NOT: fa4.tma.store
func.func @decode(%q: tensor<4x1x32x128xbf16>, %k: tensor<4x8192x8x128xbf16>, %v: tensor<4x8192x8x128xbf16>) -> tensor<4x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<4x1x32x128xbf16>, tensor<4x8192x8x128xbf16>, tensor<4x8192x8x128xbf16> -> tensor<4x1x32x128xbf16>
  return %o : tensor<4x1x32x128xbf16>
}

// -----

// The planner's twin rule at Dv = 128 under a causal mask: the plan keeps
// two K/V stages, not the three that fit, so that the looped twin stores O
// by TMA as well (+6-11% at S <= 2048 against the plain kernel, D-4),
// here over a second Q buffer past the plan: both kernels,
// launched with 163968 bytes, then 32 KB from the swizzle atom at 164864
// and four barriers (twin-rule.mlir: a plan without room for a box of
// staging keeps the plain kernel alone). Storing O from registers
// (tma-store-o=0), the twin is built all the same.
// CHECK-LABEL: func @causal_d128
// CHECK: dynamic_smem_bytes = 197664
// CHECK-SAME: persistent = <ctas_per_sm = 1, max_seq_kv = 4096, kernel = @fa4_hopper_causal_d128_sm_90a_module::@fa4_hopper_causal_d128_sm_90a_persistent, launch = {{.*}}>
// CHECK: gpu.func @fa4_hopper_causal_d128_sm_90a(
// CHECK: gpu.func @fa4_hopper_causal_d128_sm_90a_persistent(
// CHECK: fa4.epilogue.stage {{.*}} to 0 plus %{{.*}} of bf16 :
// OFF-LABEL: func @causal_d128
// OFF: persistent = <ctas_per_sm = 1, max_seq_kv = 4096, kernel = @fa4_hopper_causal_d128_sm_90a_module::@fa4_hopper_causal_d128_sm_90a_persistent, launch = {{.*}}>
// OFF: gpu.func @fa4_hopper_causal_d128_sm_90a_persistent(
func.func @causal_d128(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Where two Q buffers do not fit (d = 256: the twin's own plan at 64-key
// tiles takes 196800 bytes and a Q buffer is 64 KB), the twin's O leaves
// one 64-column box at a time through a region past its plan (from the
// swizzle atom at 197632, 8 KB per consumer; its launch's shared memory is
// 214016), because its single Q region holds the next work tile's Q by
// its epilogue. Per box the storing thread waits for its last store to
// have read the box, the warpgroup meets, stages the box, meets again, and
// the first thread stores it; the CTA waits for the last one before it
// exits.
// CHECK-LABEL: func @deep
// CHECK: persistent = <{{.*}}launch = <{{.*}}block = [384, 1, 1], cluster = [2, 1, 1], dynamic_smem_bytes = 214016
// CHECK: gpu.func @fa4_hopper_deep_sm_90a_persistent(
// CHECK-NOT: fa4.epilogue {{.*}} to %arg3[
// CHECK: fa4.lse.store
// CHECK: scf.if
// CHECK-NEXT: fa4.tma.store.wait
// CHECK: %[[DBAR:.*]] = arith.addi %{{.*}}, %c4_i32 : i32
// CHECK-NEXT: nvvm.barrier id = %[[DBAR]] number_of_threads = %c128_i32
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 197632 of bf16 {box = 0 : i64}
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 205824 of bf16 {box = 0 : i64}
// CHECK: nvvm.barrier id = %[[DBAR]] number_of_threads = %c128_i32
// CHECK: fa4.tma.store %arg14[%c0_i32, %{{.*}}] from %[[DSTAGE:.*]]
// CHECK: fa4.tma.store.wait
// CHECK: nvvm.barrier id = %[[DBAR]] number_of_threads = %c128_i32
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 197632 of bf16 {box = 1 : i64}
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 205824 of bf16 {box = 1 : i64}
// CHECK: nvvm.barrier id = %[[DBAR]] number_of_threads = %c128_i32
// CHECK: fa4.tma.store %arg14[%c64_i32, %{{.*}}] from %[[DSTAGE]]
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 197632 of bf16 {box = 3 : i64}
// CHECK: fa4.tma.store %arg14[%c192_i32, %{{.*}}] from %[[DSTAGE]]
// CHECK-NOT: fa4.tma.store.wait
// CHECK: scf.yield
// CHECK: fa4.tma.store.wait
// CHECK: gpu.return
func.func @deep(%q: tensor<?x?x6x256xbf16>, %k: tensor<?x?x6x256xbf16>, %v: tensor<?x?x6x256xbf16>) -> (tensor<?x?x6x256xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x256xbf16>, tensor<?x?x6x256xbf16>, tensor<?x?x6x256xbf16> -> tensor<?x?x6x256xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x256xbf16>, tensor<?x6x?xf32>
}
