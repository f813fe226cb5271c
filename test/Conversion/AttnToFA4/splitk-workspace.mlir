// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=SM100

// MQA decode at B = 1 (8 q-heads on one kv-head, d = 128, Skv = 32k): one
// work item would want 69 partitions, more than a cluster holds, so the
// planner picks the workspace split-K. 69 CTAs on a 1D partition axis with
// no cluster; each consumer of a CTA writes its normalised partial and LSE
// in f32 to its own slice of the workspace (partial 2 * partition +
// consumer, 138 in all), and a second kernel of the same module combines
// them: one warp per (batch, query row, q-head).
// CHECK-LABEL: func @mqa_decode_b1
// CHECK: #fa4.scalar<f32, "scale_log2">, #fa4.workspace]
// CHECK-SAME: grid = {{\[}}[69], ["hkv"], ["b", #fa4.ceil_div<"sq", 8>]]
// CHECK-SAME: cluster = [1, 1, 1]
// 138 partials of 128 + 1 floats per (b, sq, hq) row.
// CHECK-SAME: combine = <kernel = @[[MODULE:.*]]::@[[KERNEL:.*]]_combine, workspace_bytes = [71208, "b", "sq", "hq"], launch = <params = [#fa4.workspace, #fa4.pointer<"o">, #fa4.pointer<"lse">, #fa4.scalar<i32, "b">, #fa4.scalar<i32, "sq">, #fa4.scalar<i64, "o.stride.0">, #fa4.scalar<i64, "o.stride.1">, #fa4.scalar<i64, "o.stride.2">, #fa4.scalar<i64, "lse.stride.0">, #fa4.scalar<i64, "lse.stride.1">], grid = {{\[}}["sq"], ["b"], [8]], block = [128, 1, 1]
// CHECK-SAME: splitk = #attn.splitk<mode = workspace, reason = split, partitions = 69, cluster_size = 1

// CHECK: gpu.func @[[KERNEL]](
// CHECK-SAME: %[[SQ:arg6]]: i32
// CHECK-SAME: %[[WS:arg14]]: !llvm.ptr<1>)
// No cluster: no cluster barrier, no staging, no in-kernel combine.
// CHECK-NOT: fa4.cluster.sync
// CHECK-NOT: fa4.splitk.stage
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240]
// The consumer: its partition is blockIdx.x.
// CHECK: ^bb0(%[[CONSUMER:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[BX:.*]] = gpu.block_id  x
// CHECK-NEXT: %[[PARTITION:.*]] = arith.index_cast %[[BX]] : index to i32
// Partial 2 * partition + consumer of P = 2 * gridDim.x, a row's partials
// side by side: O at partial * 128 floats with strides (Sq * 8 * P * 128,
// 8 * P * 128, P * 128) over (b, sq, head); its LSE after all partials' O,
// at P * (B * Sq * 8) * 128 + partial * Sq with strides (8 * P * Sq,
// P * Sq) over (b, head).
// CHECK: %[[TWICE:.*]] = arith.muli %[[PARTITION]], %c2_i32 : i32
// CHECK-NEXT: %[[INDEX:.*]] = arith.addi %[[TWICE]], %[[CONSUMER]] : i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %{{.*}}, %c2_i32 : i32
// CHECK-NEXT: %[[P64:.*]] = arith.extsi %[[P]] : i32 to i64
// CHECK-NEXT: %[[SQ64:.*]] = arith.extsi %[[SQ]] : i32 to i64
// CHECK-NEXT: %[[HSTRIDE:.*]] = arith.muli %[[P64]], %c128_i64 : i64
// CHECK-NEXT: %[[RSTRIDE:.*]] = arith.muli %[[P64]], %c1024_i64 : i64
// CHECK-NEXT: %[[BSTRIDE:.*]] = arith.muli %[[RSTRIDE]], %[[SQ64]] : i64
// CHECK-NEXT: %[[LHSTRIDE:.*]] = arith.muli %[[P64]], %[[SQ64]] : i64
// CHECK-NEXT: %[[LBSTRIDE:.*]] = arith.muli %[[LHSTRIDE]], %c8_i64 : i64
// CHECK-NEXT: %[[B64:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[ALLO:.*]] = arith.muli %[[BSTRIDE]], %[[B64]] : i64
// CHECK-NEXT: %[[INDEX64:.*]] = arith.extsi %[[INDEX]] : i32 to i64
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[INDEX64]], %c128_i64 : i64
// CHECK-NEXT: %[[OUT:.*]] = llvm.getelementptr %[[WS]][%[[OFFSET]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[LSEAT:.*]] = arith.muli %[[INDEX64]], %[[SQ64]] : i64
// CHECK-NEXT: %[[LSEOFFSET:.*]] = arith.addi %[[ALLO]], %[[LSEAT]] : i64
// CHECK-NEXT: %[[LSE:.*]] = llvm.getelementptr %[[WS]][%[[LSEOFFSET]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: fa4.epilogue %{{.*}}, %{{.*}}, %{{.*}} to %[[OUT]][%{{.*}}, %{{.*}}, %{{.*}}] strides[%[[BSTRIDE]], %[[RSTRIDE]], %[[HSTRIDE]]] sq %[[SQ]] depth 128 of f32 lse %[[LSE]] strides[%[[LBSTRIDE]], %[[LHSTRIDE]]] {group = 8 : i64}
// CHECK-NOT: fa4.splitk.combine

// The combine kernel: blockIdx = (query row, batch, head), a warp per 32
// of the head's 128 columns.
// CHECK: gpu.func @[[KERNEL]]_combine(%[[CWS:.*]]: !llvm.ptr<1>, %[[O:.*]]: !llvm.ptr<1>, %[[CLSE:.*]]: !llvm.ptr<1>, %[[B:.*]]: i32, %[[CSQ:.*]]: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) kernel attributes {nvvm.maxntid = array<i32: 128, 1, 1>
// The partials are the attention kernel's writes: wait for it first.
// CHECK: nvvm.griddepcontrol wait
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: gpu.block_id x
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[BAND:.*]] = arith.divui %[[WARP]], %c4_i32 : i32
// CHECK: %[[HEAD:.*]] = arith.addi %{{.*}}, %[[BAND]] : i32
// CHECK-NEXT: %[[WARPINROW:.*]] = arith.remui %[[WARP]], %c4_i32 : i32
// CHECK-NEXT: %[[COLUMN:.*]] = arith.muli %[[WARPINROW]], %c32_i32 : i32
// CHECK-NEXT: %[[LIVE:.*]] = arith.cmpi slt, %[[HEAD]], %c8_i32 : i32
// CHECK-NEXT: scf.if %[[LIVE]] {
// CHECK-NEXT: fa4.splitk.workspace_combine %c138_i32 partials from %[[CWS]] to %[[O]][%{{.*}}, %{{.*}}, %[[HEAD]]] column %[[COLUMN]] strides[{{.*}}] b %[[B]] sq %[[CSQ]] heads 8 depth 128 of bf16 lse %[[CLSE]] strides[{{.*}}]
// sm_100a: 64 partitions (148 SMs, 128-key tiles, a 128-row tile of 16
// query rows x 8 heads), one partial per CTA; the correction warpgroup
// writes it from TMEM through the same f32 epilogue, and the combine kernel
// is the same.
// SM100-LABEL: func @mqa_decode_b1
// SM100: #fa4.scalar<f32, "scale_log2">, #fa4.workspace]
// SM100-SAME: grid = {{\[}}[64], ["hkv"], ["b", #fa4.ceil_div<"sq", 16>]]
// SM100-SAME: cluster = [1, 1, 1]
// 64 partials of 128 + 1 floats per (b, sq, hq) row.
// SM100-SAME: combine = <{{.*}}workspace_bytes = [33024, "b", "sq", "hq"], launch = <{{.*}}grid = {{\[}}["sq"], ["b"], [8]], block = [128, 1, 1]
// SM100: gpu.func @[[KERNEL:.*]](
// SM100-SAME: %[[WS:arg14]]: !llvm.ptr<1>)
// SM100-NOT: fa4.cluster.sync
// SM100-NOT: fa4.splitk.stage
// The same side-by-side layout, one partial a CTA (P = gridDim.x): head
// stride P * 128, row stride 8 * P * 128.
// SM100: %[[HSTRIDE:.*]] = arith.muli %[[P64:.*]], %c128_i64 : i64
// SM100-NEXT: %[[RSTRIDE:.*]] = arith.muli %[[P64]], %c1024_i64 : i64
// SM100: %[[PART:.*]] = llvm.getelementptr %[[WS]]
// SM100: fa4.epilogue %{{.*}}, %{{.*}}, %{{.*}} to %[[PART]][{{.*}}] strides[%{{.*}}, %[[RSTRIDE]], %[[HSTRIDE]]] sq %{{.*}} depth 128 of f32 lse %{{.*}} strides[%{{.*}}, %{{.*}}] {group = 8 : i64} : !fa4.tmem_tile<128x128xf32>
// SM100-NOT: fa4.splitk.combine
// SM100: gpu.func @[[KERNEL]]_combine(
// SM100: fa4.splitk.workspace_combine %c64_i32 partials from %{{.*}} heads 8 depth 128 of bf16 lse
func.func @mqa_decode_b1(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}
