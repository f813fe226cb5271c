// RUN: fa4-opt %s | fa4-opt | FileCheck %s
// RUN: fa4-opt %s --mlir-print-op-generic | fa4-opt | FileCheck %s

// Round trip of every op and every type of the fa4 kernel dialect, in the
// shapes the kernels use (a 64-row Q tile, 176-key K/V tiles, depth 128).

// Every type, as a function argument.
// CHECK-LABEL: func.func @types
// CHECK-SAME: %{{.*}}: !fa4.tensor_map
// CHECK-SAME: %{{.*}}: !fa4.mbarrier
// CHECK-SAME: %{{.*}}: !fa4.smem_tile<64x128xbf16, k_major>
// CHECK-SAME: %{{.*}}: !fa4.smem_tile<176x128xf16, mn_major>
// CHECK-SAME: %{{.*}}: !fa4.frag<128x64xf32>
// CHECK-SAME: %{{.*}}: !fa4.frag<64x176xbf16>
// CHECK-SAME: %{{.*}}: !fa4.frag<128x16xf16>
// CHECK-SAME: %{{.*}}: !fa4.rows<128xf32>
// CHECK-SAME: -> !fa4.rows<64xf32>
// CHECK: %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:[a-zA-Z0-9_]+]] = fa4.splat %[[ZERO]] : !fa4.rows<64xf32>{{$}}
// CHECK-NEXT: return %[[R]] : !fa4.rows<64xf32>
func.func @types(%map: !fa4.tensor_map, %bar: !fa4.mbarrier,
                 %q: !fa4.smem_tile<64x128xbf16, k_major>,
                 %v: !fa4.smem_tile<176x128xf16, mn_major>,
                 %acc: !fa4.frag<128x64xf32>, %p: !fa4.frag<64x176xbf16>,
                 %p16: !fa4.frag<128x16xf16>, %rows: !fa4.rows<128xf32>)
    -> !fa4.rows<64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = fa4.splat %zero : !fa4.rows<64xf32>
  return %r : !fa4.rows<64xf32>
}

gpu.module @kernels {

// Warp roles, mbarriers and TMA: the producer loads a Q box, the consumers
// wait on it.
// CHECK-LABEL: gpu.func @roles_barriers_tma
// CHECK-SAME: (%[[MAP:[a-zA-Z0-9_]+]]: !fa4.tensor_map) kernel
// CHECK-DAG: %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[DST:[a-zA-Z0-9_]+]] = arith.constant 2048 : i32
// CHECK: fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
// CHECK-NEXT: ^bb0(%[[IDX:[a-zA-Z0-9_]+]]: i32, %[[THR:[a-zA-Z0-9_]+]]: i32):
// CHECK-NEXT: %[[BAR:[a-zA-Z0-9_]+]] = fa4.mbarrier.get %[[IDX]] offset 1024{{$}}
// CHECK-NEXT: fa4.mbarrier.init %[[BAR]] count 1{{$}}
// CHECK-NEXT: fa4.fence.mbarrier_init{{$}}
// CHECK-NEXT: fa4.mbarrier.expect_tx %[[BAR]] bytes 16384{{$}}
// CHECK-NEXT: fa4.tma.load %[[MAP]][%[[C0]], %[[THR]], %[[C0]], %[[IDX]]] to %[[DST]], %[[BAR]]{{$}}
// CHECK-NEXT: fa4.mbarrier.arrive %[[BAR]]{{$}}
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[CIDX:[a-zA-Z0-9_]+]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[CBAR:[a-zA-Z0-9_]+]] = fa4.mbarrier.get %[[CIDX]] offset 1032{{$}}
// CHECK-NEXT: fa4.mbarrier.wait %[[CBAR]] parity %[[C0]]{{$}}
// CHECK-NEXT: }
// CHECK: gpu.return
gpu.func @roles_barriers_tma(%map: !fa4.tensor_map) kernel {
  %c0 = arith.constant 0 : i32
  %dst = arith.constant 2048 : i32
  fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
  ^bb0(%index: i32, %thread: i32):
    %bar = fa4.mbarrier.get %index offset 1024
    fa4.mbarrier.init %bar count 1
    fa4.fence.mbarrier_init
    fa4.mbarrier.expect_tx %bar bytes 16384
    fa4.tma.load %map[%c0, %thread, %c0, %index] to %dst, %bar
    fa4.mbarrier.arrive %bar
  }, {
  ^bb0(%consumer: i32, %thread: i32):
    %bar = fa4.mbarrier.get %consumer offset 1032
    fa4.mbarrier.wait %bar parity %c0
  }
  gpu.return
}

// S = Q K^T from shared memory, then O += P V with P in registers.
// CHECK-LABEL: gpu.func @tiles_and_mmas
// The declarative formats print types of a known class without their
// dialect prefix (`<64x128xbf16, k_major>`); mma's A (a tile or a frag) and
// splat's result (a frag or rows) keep it.
// CHECK-DAG: %[[QOFF:[a-zA-Z0-9_]+]] = arith.constant 2048 : i32
// CHECK-DAG: %[[KOFF:[a-zA-Z0-9_]+]] = arith.constant 18432 : i32
// CHECK-DAG: %[[VOFF:[a-zA-Z0-9_]+]] = arith.constant 63488 : i32
// CHECK-DAG: %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[Q:[a-zA-Z0-9_]+]] = fa4.smem.tile %[[QOFF]] : <64x128xbf16, k_major>{{$}}
// CHECK-NEXT: %[[K:[a-zA-Z0-9_]+]] = fa4.smem.tile %[[KOFF]] : <176x128xbf16, k_major>{{$}}
// CHECK-NEXT: %[[V:[a-zA-Z0-9_]+]] = fa4.smem.tile %[[VOFF]] : <176x128xbf16, mn_major>{{$}}
// CHECK-NEXT: %[[SACC:[a-zA-Z0-9_]+]] = fa4.splat %[[ZERO]] : !fa4.frag<64x176xf32>{{$}}
// CHECK-NEXT: %[[OACC:[a-zA-Z0-9_]+]] = fa4.splat %[[ZERO]] : !fa4.frag<64x128xf32>{{$}}
// CHECK-NEXT: %[[S:[a-zA-Z0-9_]+]] = fa4.mma %[[Q]], %[[K]], %[[SACC]] : !fa4.smem_tile<64x128xbf16, k_major>, <176x128xbf16, k_major>, <64x176xf32>{{$}}
// CHECK-NEXT: fa4.mma.wait{{$}}
// CHECK-NEXT: %[[P:[a-zA-Z0-9_]+]] = fa4.truncf %[[S]] : <64x176xf32> to <64x176xbf16>{{$}}
// CHECK-NEXT: %{{.*}} = fa4.mma %[[P]], %[[V]], %[[OACC]] : !fa4.frag<64x176xbf16>, <176x128xbf16, mn_major>, <64x128xf32>{{$}}
// CHECK-NEXT: fa4.mma.wait {pending = 1 : i64}{{$}}
// A P V over the first 112 keys only (the last tile's visible ones).
// CHECK-NEXT: %{{.*}} = fa4.mma %[[P]], %[[V]], %[[OACC]] {k_extent = 112 : i64} : !fa4.frag<64x176xbf16>, <176x128xbf16, mn_major>, <64x128xf32>{{$}}
// CHECK: gpu.return
gpu.func @tiles_and_mmas() kernel {
  %q_offset = arith.constant 2048 : i32
  %k_offset = arith.constant 18432 : i32
  %v_offset = arith.constant 63488 : i32
  %zero = arith.constant 0.0 : f32
  %q = fa4.smem.tile %q_offset : !fa4.smem_tile<64x128xbf16, k_major>
  %k = fa4.smem.tile %k_offset : !fa4.smem_tile<176x128xbf16, k_major>
  %v = fa4.smem.tile %v_offset : !fa4.smem_tile<176x128xbf16, mn_major>
  %s_acc = fa4.splat %zero : !fa4.frag<64x176xf32>
  %o_acc = fa4.splat %zero : !fa4.frag<64x128xf32>
  %s = fa4.mma %q, %k, %s_acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<176x128xbf16, k_major>, !fa4.frag<64x176xf32>
  fa4.mma.wait
  %p = fa4.truncf %s : !fa4.frag<64x176xf32> to !fa4.frag<64x176xbf16>
  %o = fa4.mma %p, %v, %o_acc : !fa4.frag<64x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  fa4.mma.wait {pending = 1 : i64}
  %o_narrow = fa4.mma %p, %v, %o_acc {k_extent = 112 : i64} : !fa4.frag<64x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  gpu.return
}

// One online-softmax step: mask, softmax, rescale O. In the custom form the
// mask is written without its `#attn.mask` prefix (as printed): a full
// `#attn.mask<...>` right before `:` would take the type after the colon as
// its own. The generic form takes the full attribute.
// CHECK-LABEL: gpu.func @softmax_step
// CHECK-SAME: (%[[S:[a-zA-Z0-9_]+]]: !fa4.frag<64x176xf32>, %[[O:[a-zA-Z0-9_]+]]: !fa4.frag<64x128xf32>, %[[KEY:[a-zA-Z0-9_]+]]: i32, %[[ROW:[a-zA-Z0-9_]+]]: i32, %[[SQ:[a-zA-Z0-9_]+]]: i32, %[[SKV:[a-zA-Z0-9_]+]]: i32, %[[SCALE:[a-zA-Z0-9_]+]]: f32)
// CHECK-DAG: %[[NEGINF:[a-zA-Z0-9_]+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[M0:[a-zA-Z0-9_]+]] = fa4.splat %[[NEGINF]] : !fa4.rows<64xf32>{{$}}
// CHECK-NEXT: %[[L0:[a-zA-Z0-9_]+]] = fa4.splat %[[ZERO]] : !fa4.rows<64xf32>{{$}}
// CHECK-NEXT: %[[C:[a-zA-Z0-9_]+]] = fa4.mask %[[S]] mask #attn.mask<causal> keys %[[KEY]] rows %[[ROW]] sq %[[SQ]] skv %[[SKV]] : <64x176xf32>{{$}}
// CHECK-NEXT: %[[W:[a-zA-Z0-9_]+]] = fa4.mask %[[C]] mask #attn.mask<window(128, 0)> keys %[[KEY]] rows %[[ROW]] sq %[[SQ]] skv %[[SKV]] : <64x176xf32>{{$}}
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %[[CORR:[a-zA-Z0-9_]+]] = fa4.softmax %[[W]] max %[[M0]] sum %[[L0]] scale %[[SCALE]] : <64x176xf32>, <64xf32>{{$}}
// CHECK-NEXT: %{{.*}} = fa4.scale_rows %[[O]] by %[[CORR]] : <64x128xf32>, <64xf32>{{$}}
// The lazy rescale: a threshold on the softmax, `lazy` on the rescale.
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %[[LCORR:[a-zA-Z0-9_]+]] = fa4.softmax %[[W]] max %[[M0]] sum %[[L0]] scale %[[SCALE]] {rescaleThreshold = 8.000000e+00 : f64} : <64x176xf32>, <64xf32>{{$}}
// CHECK-NEXT: %{{.*}} = fa4.scale_rows lazy %[[O]] by %[[LCORR]] : <64x128xf32>, <64xf32>{{$}}
// Row max and sum in four chains; one chain, the default, prints nothing.
// CHECK-NEXT: fa4.softmax %[[W]] max %[[M0]] sum %[[L0]] scale %[[SCALE]] {reductionChains = 4 : i64} : <64x176xf32>, <64xf32>{{$}}
// CHECK-NEXT: fa4.softmax %[[W]] max %[[M0]] sum %[[L0]] scale %[[SCALE]] : <64x176xf32>, <64xf32>{{$}}
// CHECK: gpu.return
gpu.func @softmax_step(%s: !fa4.frag<64x176xf32>, %o: !fa4.frag<64x128xf32>,
                       %key: i32, %row: i32, %sq: i32, %skv: i32,
                       %scale_log2: f32) kernel {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = fa4.splat %neg_inf : !fa4.rows<64xf32>
  %l0 = fa4.splat %zero : !fa4.rows<64xf32>
  %causal = fa4.mask %s mask #attn.mask<causal> keys %key rows %row sq %sq skv %skv : !fa4.frag<64x176xf32>
  %window = fa4.mask %causal mask #attn.mask<window(128, 0)> keys %key rows %row sq %sq skv %skv : !fa4.frag<64x176xf32>
  %p, %m, %l, %corr = fa4.softmax %window max %m0 sum %l0 scale %scale_log2 : !fa4.frag<64x176xf32>, !fa4.rows<64xf32>
  %o2 = fa4.scale_rows %o by %corr : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
  %lp, %lm, %ll, %lcorr = fa4.softmax %window max %m0 sum %l0 scale %scale_log2 {rescaleThreshold = 8.0 : f64} : !fa4.frag<64x176xf32>, !fa4.rows<64xf32>
  %o3 = fa4.scale_rows lazy %o by %lcorr : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
  %cp:4 = fa4.softmax %window max %m0 sum %l0 scale %scale_log2 {reductionChains = 4 : i64} : !fa4.frag<64x176xf32>, !fa4.rows<64xf32>
  %dp:4 = fa4.softmax %window max %m0 sum %l0 scale %scale_log2 {reductionChains = 1 : i64} : !fa4.frag<64x176xf32>, !fa4.rows<64xf32>
  gpu.return
}

// Logit softcapping's tanh on a frag of scores, before the mask.
// CHECK-LABEL: gpu.func @softcap
// CHECK-SAME: (%[[S:[a-zA-Z0-9_]+]]: !fa4.frag<64x176xf32>, %[[K:[a-zA-Z0-9_]+]]: f32)
// CHECK-NEXT: %{{.*}} = fa4.softcap %[[S]] scale %[[K]] : <64x176xf32>{{$}}
// CHECK-NEXT: %{{.*}} = fa4.softcap %[[S]] scale %[[K]] : <64x176xf32>{{$}}
gpu.func @softcap(%s: !fa4.frag<64x176xf32>, %k: f32) kernel {
  %t = fa4.softcap %s scale %k : !fa4.frag<64x176xf32>
  %g = "fa4.softcap"(%s, %k) : (!fa4.frag<64x176xf32>, f32) -> !fa4.frag<64x176xf32>
  gpu.return
}

// Attention sinks: each row's softmax state starting from its sink.
// CHECK-LABEL: gpu.func @sink_rows
// CHECK-SAME: (%[[P:[a-zA-Z0-9_]+]]: !llvm.ptr<1>, %[[H:[a-zA-Z0-9_]+]]: i32, %[[C:[a-zA-Z0-9_]+]]: i1)
// CHECK-NEXT: %{{.*}}, %{{.*}} = fa4.sink.rows %[[P]][%[[H]]] if %[[C]] : <64xf32>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: %{{.*}}, %{{.*}} = fa4.sink.rows %[[P]][%[[H]]] if %[[C]] {group = 4 : i64} : <128xf32>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: %{{.*}}, %{{.*}} = fa4.sink.rows %[[P]][%[[H]]] if %[[C]] : <64xf32>, !llvm.ptr<1>{{$}}
gpu.func @sink_rows(%p: !llvm.ptr<1>, %h: i32, %c: i1) kernel {
  %m, %s = fa4.sink.rows %p[%h] if %c : !fa4.rows<64xf32>, !llvm.ptr<1>
  %m4, %s4 = fa4.sink.rows %p[%h] if %c {group = 4 : i64} : !fa4.rows<128xf32>, !llvm.ptr<1>
  %gm, %gs = "fa4.sink.rows"(%p, %h, %c) : (!llvm.ptr<1>, i32, i1) -> (!fa4.rows<64xf32>, !fa4.rows<64xf32>)
  gpu.return
}

// The epilogue, storing O only and O with LSE.
// CHECK-LABEL: gpu.func @epilogues
// CHECK-SAME: (%[[O:[a-zA-Z0-9_]+]]: !fa4.frag<64x128xf32>, %[[M:[a-zA-Z0-9_]+]]: !fa4.rows<64xf32>, %[[L:[a-zA-Z0-9_]+]]: !fa4.rows<64xf32>, %[[OUT:[a-zA-Z0-9_]+]]: !llvm.ptr<1>, %[[LSE:[a-zA-Z0-9_]+]]: !llvm.ptr<1>, %[[B:[a-zA-Z0-9_]+]]: i32, %[[ROW:[a-zA-Z0-9_]+]]: i32, %[[H:[a-zA-Z0-9_]+]]: i32, %[[SQ:[a-zA-Z0-9_]+]]: i32, %[[S0:[a-zA-Z0-9_]+]]: i64, %[[S1:[a-zA-Z0-9_]+]]: i64, %[[S2:[a-zA-Z0-9_]+]]: i64)
// CHECK: fa4.epilogue %[[O]], %[[M]], %[[L]] to %[[OUT]][%[[B]], %[[ROW]], %[[H]]] strides[%[[S0]], %[[S1]], %[[S2]]] sq %[[SQ]] depth 128 of bf16 : !fa4.frag<64x128xf32>, <64xf32>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.epilogue %[[O]], %[[M]], %[[L]] to %[[OUT]][%[[B]], %[[ROW]], %[[H]]] strides[%[[S0]], %[[S1]], %[[S2]]] sq %[[SQ]] depth 96 of f16 lse %[[LSE]] strides[%[[S2]], %[[S1]]] : !fa4.frag<64x128xf32>, <64xf32>, !llvm.ptr<1>, !llvm.ptr<1>{{$}}
// CHECK: gpu.return
gpu.func @epilogues(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>,
                    %l: !fa4.rows<64xf32>, %out: !llvm.ptr<1>,
                    %lse: !llvm.ptr<1>, %batch: i32, %row: i32, %head: i32,
                    %sq: i32, %s0: i64, %s1: i64, %s2: i64) kernel {
  fa4.epilogue %o, %m, %l to %out[%batch, %row, %head] strides [%s0, %s1, %s2] sq %sq depth 128 of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>
  fa4.epilogue %o, %m, %l to %out[%batch, %row, %head] strides [%s0, %s1, %s2] sq %sq depth 96 of f16 lse %lse strides [%s2, %s1] : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>, !llvm.ptr<1>
  gpu.return
}

}

// The split-K ops: stage the partial, meet the cluster, combine a band.
// CHECK-LABEL: func @splitk
// CHECK: fa4.splitk.stage %{{.*}}, %{{.*}}, %{{.*}} at 0 : !fa4.frag<64x128xf32>, <64xf32>{{$}}
// CHECK-NEXT: fa4.cluster.sync{{$}}
// CHECK-NEXT: fa4.splitk.combine rank %{{.*}} of 16 band 8 from 0 rows 64 columns 128 to %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] strides[%{{.*}}, %{{.*}}, %{{.*}}] sq %{{.*}} depth 128 of bf16 lse %{{.*}} strides[%{{.*}}, %{{.*}}] {group = 4 : i64} : !llvm.ptr<1>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.splitk.combine rank %{{.*}} of 5 band 32 from 1024 rows 64 columns 128 to %{{.*}} sq %{{.*}} depth 96 of f16 : !llvm.ptr<1>{{$}}
// An sm_100a partial, staged from its TMEM tile; a combine of two partials
// per CTA (both consumers of an sm_90a decode CTA staged one).
// CHECK-NEXT: fa4.splitk.stage %{{.*}}, %{{.*}}, %{{.*}} at 1024 : !fa4.tmem_tile<128x64xf32>, <128xf32>{{$}}
// CHECK-NEXT: fa4.splitk.combine rank %{{.*}} of 8 band 16 from 0 rows 64 columns 128 to %{{.*}} sq %{{.*}} depth 128 of bf16 {partials = 2 : i64} : !llvm.ptr<1>{{$}}
func.func @splitk(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %rank: i32, %out: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %i: i32, %s: i64, %t: !fa4.tmem_tile<128x64xf32>, %m128: !fa4.rows<128xf32>) {
  fa4.splitk.stage %o, %m, %m at 0 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
  fa4.cluster.sync
  fa4.splitk.combine rank %rank of 16 band 8 from 0 rows 64 columns 128 to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of bf16 lse %lse strides [%s, %s] {group = 4} : !llvm.ptr<1>, !llvm.ptr<1>
  fa4.splitk.combine rank %rank of 5 band 32 from 1024 rows 64 columns 128 to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 96 of f16 : !llvm.ptr<1>
  fa4.splitk.stage %t, %m128, %m128 at 1024 : !fa4.tmem_tile<128x64xf32>, !fa4.rows<128xf32>
  fa4.splitk.combine rank %rank of 8 band 16 from 0 rows 64 columns 128 to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of bf16 {partials = 2} : !llvm.ptr<1>
  return
}

// The workspace split-K: a partial written in f32 by the epilogue, and the
// combine kernel's per-row reduction, with and without LSE.
// CHECK-LABEL: func @splitk_workspace
// CHECK: fa4.epilogue %{{.*}}, %{{.*}}, %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] strides[%{{.*}}, %{{.*}}, %{{.*}}] sq %{{.*}} depth 128 of f32 lse %{{.*}} strides[%{{.*}}, %{{.*}}] {group = 8 : i64} : !fa4.frag<64x128xf32>, <64xf32>, !llvm.ptr<1>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.splitk.workspace_combine %{{.*}} partials from %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] column %{{.*}} strides[%{{.*}}, %{{.*}}, %{{.*}}] b %{{.*}} sq %{{.*}} heads 8 depth 128 of bf16 lse %{{.*}} strides[%{{.*}}, %{{.*}}] : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.splitk.workspace_combine %{{.*}} partials from %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] column %{{.*}} strides[%{{.*}}, %{{.*}}, %{{.*}}] b %{{.*}} sq %{{.*}} heads 16 depth 64 of f16 : !llvm.ptr<1>, !llvm.ptr<1>{{$}}
func.func @splitk_workspace(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %i: i32, %s: i64) {
  fa4.epilogue %o, %m, %m to %ws[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of f32 lse %ws strides [%s, %s] {group = 8} : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>, !llvm.ptr<1>
  fa4.splitk.workspace_combine %i partials from %ws to %out[%i, %i, %i] column %i strides [%s, %s, %s] b %i sq %i heads 8 depth 128 of bf16 lse %lse strides [%s, %s] : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>
  fa4.splitk.workspace_combine %i partials from %ws to %out[%i, %i, %i] column %i strides [%s, %s, %s] b %i sq %i heads 16 depth 64 of f16 : !llvm.ptr<1>, !llvm.ptr<1>
  return
}

// The CTA-pair forms (pair_cta on sm_100a): a TMA load counted on a peer's
// barrier, remote arrival and cluster-scope wait, and the cta_group::2
// tensor-memory instructions.
// CHECK-LABEL: func @pair
// CHECK: fa4.tmem.alloc 512 columns to 1024 pair{{$}}
// CHECK-NEXT: %[[BAR:.*]] = fa4.mbarrier.get
// CHECK-NEXT: fa4.tma.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] to %{{.*}}, %[[BAR]] in_cta %[[RANK:.*]]{{$}}
// CHECK-NEXT: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} pair : !fa4.smem_tile<128x64xbf16, k_major>, <64x64xbf16, k_major>, <128x128xf32>{{$}}
// CHECK-NEXT: fa4.tmem.commit %[[BAR]] pair{{$}}
// CHECK-NEXT: fa4.mbarrier.arrive %[[BAR]] in_cta %[[RANK]]{{$}}
// CHECK-NEXT: fa4.mbarrier.wait %[[BAR]] parity %{{.*}} cluster{{$}}
// CHECK-NEXT: fa4.tmem.dealloc 512 columns at 1024 pair{{$}}
func.func @pair(%map: !fa4.tensor_map, %i: i32, %rank: i32, %q: !fa4.smem_tile<128x64xbf16, k_major>, %k: !fa4.smem_tile<64x64xbf16, k_major>, %s: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  fa4.tmem.alloc 512 columns to 1024 pair
  %bar = fa4.mbarrier.get %i offset 2048
  fa4.tma.load %map[%i, %i, %i, %i] to %i, %bar in_cta %rank
  fa4.tmem.mma %q, %k into %s accumulate %acc pair : !fa4.smem_tile<128x64xbf16, k_major>, !fa4.smem_tile<64x64xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
  fa4.tmem.commit %bar pair
  fa4.mbarrier.arrive %bar in_cta %rank
  fa4.mbarrier.wait %bar parity %i cluster
  fa4.tmem.dealloc 512 columns at 1024 pair
  return
}

// The sm_100a TMA-store epilogue: O / sum staged in shared memory, LSE on
// its own, the epilogue warp's TMA stores and their wait.
// CHECK-LABEL: func @tma_store_epilogue
// CHECK: fa4.epilogue.stage %{{.*}}, %{{.*}} to 32768 of bf16 : !fa4.tmem_tile<128x128xf32>, <128xf32>{{$}}
// CHECK-NEXT: fa4.lse.store %{{.*}}, %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] strides[%{{.*}}, %{{.*}}] sq %{{.*}} : <128xf32>, !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.tma.store %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] from %{{.*}}{{$}}
// CHECK-NEXT: fa4.tma.store.wait{{$}}
// CHECK-NEXT: fa4.epilogue.stage %{{.*}}, %{{.*}} to 8192 of bf16 {box = 1 : i64} : !fa4.frag<64x128xf32>, <64xf32>{{$}}
// CHECK-NEXT: fa4.epilogue.stage %{{.*}}, %{{.*}} to 0 plus %{{.*}} of bf16 : !fa4.frag<64x128xf32>, <64xf32>{{$}}
func.func @tma_store_epilogue(%o: !fa4.tmem_tile<128x128xf32>, %m: !fa4.rows<128xf32>, %lse: !llvm.ptr<1>, %map: !fa4.tensor_map, %i: i32, %s: i64, %frag: !fa4.frag<64x128xf32>, %sum: !fa4.rows<64xf32>) {
  fa4.epilogue.stage %o, %m to 32768 of bf16 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
  fa4.lse.store %m, %m to %lse[%i, %i, %i] strides [%s, %s] sq %i : !fa4.rows<128xf32>, !llvm.ptr<1>
  fa4.tma.store %map[%i, %i, %i, %i] from %i
  fa4.tma.store.wait
  fa4.epilogue.stage %frag, %sum to 8192 of bf16 {box = 1 : i64} : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
  fa4.epilogue.stage %frag, %sum to 0 plus %i of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
  return
}

// L2 eviction priorities on TMA copies: evict_last for
// what is read again, evict_first for what is touched once.
// CHECK-LABEL: func @tma_l2_eviction
// CHECK-NEXT: fa4.tma.load %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}} l2 evict_last{{$}}
// CHECK-NEXT: fa4.tma.load %{{.*}}[%{{.*}}] to %{{.*}}, %{{.*}} in_cta %{{.*}} l2 evict_first{{$}}
// CHECK-NEXT: fa4.tma.store %{{.*}}[%{{.*}}, %{{.*}}] from %{{.*}} l2 evict_first{{$}}
func.func @tma_l2_eviction(%map: !fa4.tensor_map, %i: i32, %bar: !fa4.mbarrier) {
  fa4.tma.load %map[%i, %i] to %i, %bar l2 evict_last
  fa4.tma.load %map[%i] to %i, %bar in_cta %i l2 evict_first
  fa4.tma.store %map[%i, %i] from %i l2 evict_first
  return
}

// kv-multicast's forms: a TMA load into both CTAs of a pair, a warp's 32
// arrivals at once on a peer's barrier, and the cluster-wide init fence.
// CHECK-LABEL: func @pair_multicast
// CHECK-NEXT: fa4.fence.mbarrier_init cluster{{$}}
// CHECK-NEXT: fa4.tma.load %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}} multicast 3 l2 evict_last{{$}}
// CHECK-NEXT: fa4.mbarrier.arrive %{{.*}} in_cta %{{.*}} count 32 cta_scope{{$}}
// CHECK-NEXT: fa4.mbarrier.arrive %{{.*}} count 32{{$}}
func.func @pair_multicast(%map: !fa4.tensor_map, %i: i32, %bar: !fa4.mbarrier) {
  fa4.fence.mbarrier_init cluster
  fa4.tma.load %map[%i, %i] to %i, %bar multicast 3 l2 evict_last
  fa4.mbarrier.arrive %bar in_cta %i count 32 cta_scope
  fa4.mbarrier.arrive %bar count 32
  return
}

// device-tensor-maps: a warp stages a map (rank 4, BSHD innermost first) and
// publishes it to global memory; a thread acquires it and loads through it.
// CHECK-LABEL: func @device_tensor_map
// CHECK-NEXT: fa4.tensor_map.stage %[[BASE:.*]] dims[%[[D:.*]], %[[D]], %[[D]], %[[D]]] strides[%[[S:.*]], %[[S]], %[[S]]] box [64, 1, 64, 1] element_bytes 2 swizzle 128 to 256 : !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.tensor_map.publish %[[SLOT:.*]] from 256 : !llvm.ptr<1>{{$}}
// CHECK-NEXT: %[[MAP:.*]] = fa4.tensor_map.acquire %[[SLOT]] : !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.tma.load %[[MAP]]
func.func @device_tensor_map(%base: !llvm.ptr<1>, %slot: !llvm.ptr<1>, %d: i32, %s: i64, %bar: !fa4.mbarrier) {
  fa4.tensor_map.stage %base dims [%d, %d, %d, %d] strides [%s, %s, %s] box [64, 1, 64, 1] element_bytes 2 swizzle 128 to 256 : !llvm.ptr<1>
  fa4.tensor_map.publish %slot from 256 : !llvm.ptr<1>
  %map = fa4.tensor_map.acquire %slot : !llvm.ptr<1>
  fa4.tma.load %map[%d, %d, %d, %d] to %d, %bar
  return
}

// A box copied by threads (cp.async) as a 128B-swizzled TMA load lays it,
// and an mbarrier phase held open until the thread's copies land.
// CHECK-LABEL: func @copy_async
// CHECK-NEXT: fa4.copy_async.box %[[BASE:.*]] rows %[[N:.*]] stride %[[S:.*]] group 4 stride %[[S]] lines 64 chunks 6 to %[[N]] thread %[[N]] of 256 : !llvm.ptr<1>{{$}}
// CHECK-NEXT: fa4.copy_async.arrive %{{.*}}{{$}}
func.func @copy_async(%base: !llvm.ptr<1>, %n: i32, %s: i64, %bar: !fa4.mbarrier) {
  fa4.copy_async.box %base rows %n stride %s group 4 stride %s lines 64 chunks 6 to %n thread %n of 256 : !llvm.ptr<1>
  fa4.copy_async.arrive %bar
  return
}

// `issued_by`: a converged warp's MMA and commit, issued where the predicate
// holds (the MMA warp's elected lane).
// CHECK-LABEL: func @issued_by
// CHECK-SAME: %[[E:[a-z0-9]+]]: i1)
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} issued_by %[[E]] : !fa4.smem_tile<128x64xbf16, k_major>, <64x64xbf16, k_major>, <128x64xf32>{{$}}
// CHECK-NEXT: fa4.tmem.commit %{{.*}} issued_by %[[E]]{{$}}
// CHECK-NEXT: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} issued_by %[[E]] pair : !fa4.smem_tile<128x64xbf16, k_major>, <64x64xbf16, k_major>, <128x128xf32>{{$}}
// CHECK-NEXT: fa4.tmem.commit %{{.*}} issued_by %[[E]] pair{{$}}
func.func @issued_by(%i: i32, %q: !fa4.smem_tile<128x64xbf16, k_major>, %kh: !fa4.smem_tile<64x64xbf16, k_major>, %s: !fa4.tmem_tile<128x64xf32>, %s2: !fa4.tmem_tile<128x128xf32>, %acc: i1, %e: i1) {
  %bar = fa4.mbarrier.get %i offset 2048
  fa4.tmem.mma %q, %kh into %s accumulate %acc issued_by %e : !fa4.smem_tile<128x64xbf16, k_major>, !fa4.smem_tile<64x64xbf16, k_major>, !fa4.tmem_tile<128x64xf32>
  fa4.tmem.commit %bar issued_by %e
  fa4.tmem.mma %q, %kh into %s2 accumulate %acc issued_by %e pair : !fa4.smem_tile<128x64xbf16, k_major>, !fa4.smem_tile<64x64xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
  fa4.tmem.commit %bar issued_by %e pair
  return
}

// `packedPairs`: sm_100a's softmax, a row per thread, its scores in f32x2
// pairs.
// CHECK-LABEL: func @softmax_packed
// CHECK: fa4.softmax %{{.*}} max %{{.*}} sum %{{.*}} scale %{{.*}} {packedPairs, polyExp2Period = 4 : i64} : <128x128xf32>, <128xf32>{{$}}
func.func @softmax_packed(%s: !fa4.frag<128x128xf32>, %m: !fa4.rows<128xf32>, %scale: f32) {
  %p, %m1, %l1, %c = fa4.softmax %s max %m sum %m scale %scale {packedPairs, polyExp2Period = 4 : i64} : !fa4.frag<128x128xf32>, !fa4.rows<128xf32>
  return
}

// 8-bit MMA operands (kind::f8f6f4): e4m3 and e5m2 tiles in shared and
// tensor memory (four elements a TMEM column).
// CHECK-LABEL: func @tmem_mma_f8
// CHECK: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} : !fa4.smem_tile<128x128xf8E4M3FN, k_major>, <64x128xf8E5M2, k_major>, <128x64xf32>{{$}}
// CHECK-NEXT: fa4.tmem.mma %{{.*}}, %{{.*}} into %{{.*}} accumulate %{{.*}} : !fa4.tmem_tile<128x128xf8E4M3FN>, <128x128xf8E4M3FN, mn_major>, <128x128xf32>{{$}}
func.func @tmem_mma_f8(%q: !fa4.smem_tile<128x128xf8E4M3FN, k_major>, %k: !fa4.smem_tile<64x128xf8E5M2, k_major>, %s: !fa4.tmem_tile<128x64xf32>, %p: !fa4.tmem_tile<128x128xf8E4M3FN>, %v: !fa4.smem_tile<128x128xf8E4M3FN, mn_major>, %o: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  fa4.tmem.mma %q, %k into %s accumulate %acc : !fa4.smem_tile<128x128xf8E4M3FN, k_major>, !fa4.smem_tile<64x128xf8E5M2, k_major>, !fa4.tmem_tile<128x64xf32>
  fa4.tmem.mma %p, %v into %o accumulate %acc : !fa4.tmem_tile<128x128xf8E4M3FN>, !fa4.smem_tile<128x128xf8E4M3FN, mn_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// P rounded to e4m3 (sm_100a): an 8-bit frag of 128 rows, stored into the
// TMEM tile the P V MMA reads.
// CHECK-LABEL: func @truncf_f8
// CHECK: fa4.truncf %{{.*}} : <128x64xf32> to <128x64xf8E4M3FN>{{$}}
// CHECK-NEXT: fa4.tmem.store %{{.*}}, %{{.*}} : <128x64xf8E4M3FN>, <128x64xf8E4M3FN>{{$}}
func.func @truncf_f8(%s: !fa4.frag<128x64xf32>, %p: !fa4.tmem_tile<128x64xf8E4M3FN>) {
  %q = fa4.truncf %s : !fa4.frag<128x64xf32> to !fa4.frag<128x64xf8E4M3FN>
  fa4.tmem.store %q, %p : !fa4.frag<128x64xf8E4M3FN>, !fa4.tmem_tile<128x64xf8E4M3FN>
  return
}
