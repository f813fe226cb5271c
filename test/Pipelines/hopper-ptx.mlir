// The sm_90a kernel's PTX, as fa4-compile writes it (--ptxas=none: no check
// here needs ptxas; hopper-ptxas.mlir assembles the same two compiles).
// Each prefix checks one part of the kernel in order; the parts themselves
// are checked separately because their place in the file is LLVM's block
// layout, not a decision of the lowering. The plain kernel alone
// (persistent-max-seq-kv=0): the default module also holds its looped twin
// (hopper-isa.mlir), whose loop the PERSIST runs below check. Every run
// keeps BN = 176 with --causal-block-n=0: the plan of non-causal and long
// causal kernels, whose 11-step P V and two-stage ring these checks pin
// (hopper-ptxas-matrix.mlir assembles the default causal plans).
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --causal-block-n=0 --persistent-max-seq-kv=0 --ptxas=none -o %t --quiet | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=ENTRY --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=PRODUCER --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=KRING --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=VRING --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=CONSUMER --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=LOOP --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=VRELEASE --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=GRID --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=LAZY --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=SOFTMAX --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=EPI --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=MUFU-ONLY --input-file=%t/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx
// RUN: rm -rf %t.persistent && fa4-compile %s --chip=sm_90a --causal-block-n=0 --persistent --ptxas=none -o %t.persistent --quiet
// RUN: FileCheck %s --check-prefix=PERSIST --input-file=%t.persistent/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx

// Causal d = 128 bf16 with LSE: BN = 176, two K/V stages.
func.func @attention(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// OUT: kernel fa4_hopper_attention_sm_90a
// OUT: ptx {{.*}}/fa4_hopper_attention_sm_90a/fa4_hopper_attention_sm_90a.ptx

// Dynamic shared memory at the 128B swizzle atom's 1024-byte alignment; the
// three tensor maps as 128-byte, 64-aligned parameters, then O, LSE and the
// scalars b, sq, skv, and last O's tensor map (the TMA store); 384 threads,
// one CTA per SM; 2 * 2 + 4 * 2 mbarriers (per Q tile Q full, then per Q
// tile Q empty of its 128 readers, 2 K full, 2 V full, 2 K empty, 2 V empty
// of all 256 consumer threads: 212992 + 8 * i) made visible to TMA before
// the CTA barrier.
// ENTRY: .target sm_90a
// ENTRY: .extern .shared .align 1024 .b8 fa4_dynamic_smem[];
// ENTRY: .visible .entry fa4_hopper_attention_sm_90a(
// ENTRY-NEXT: .param .align 64 .b8 fa4_hopper_attention_sm_90a_param_0[128],
// ENTRY-NEXT: .param .align 64 .b8 fa4_hopper_attention_sm_90a_param_1[128],
// ENTRY-NEXT: .param .align 64 .b8 fa4_hopper_attention_sm_90a_param_2[128],
// ENTRY-NEXT: .param .u64 .ptr .global .align 1 fa4_hopper_attention_sm_90a_param_3,
// ENTRY-NEXT: .param .u64 .ptr .global .align 1 fa4_hopper_attention_sm_90a_param_4,
// ENTRY-NEXT: .param .u32 fa4_hopper_attention_sm_90a_param_5,
// ENTRY-NEXT: .param .u32 fa4_hopper_attention_sm_90a_param_6,
// ENTRY-NEXT: .param .u32 fa4_hopper_attention_sm_90a_param_7,
// ENTRY-NEXT: .param .u64 fa4_hopper_attention_sm_90a_param_8,
// ENTRY: .param .f32 fa4_hopper_attention_sm_90a_param_13,
// ENTRY-NEXT: .param .align 64 .b8 fa4_hopper_attention_sm_90a_param_14[128]
// ENTRY-NEXT: )
// ENTRY-NEXT: .maxntid 384, 1, 1
// ENTRY-NEXT: .minnctapersm 1
// ENTRY: mov.b32 %r[[ONE:[0-9]+]], 1;
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+212992], %r[[ONE]];
// ENTRY-NEXT: mov.b32 %r[[WG:[0-9]+]], 128;
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213008], %r[[WG]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213000], %r[[ONE]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213016], %r[[WG]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213024], %r[[ONE]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213032], %r[[ONE]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213040], %r[[ONE]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213048], %r[[ONE]];
// ENTRY-NEXT: mov.b32 %r[[ALL:[0-9]+]], 256;
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213056], %r[[ALL]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213064], %r[[ALL]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213072], %r[[ALL]];
// ENTRY-NEXT: mbarrier.init.shared.b64 [fa4_dynamic_smem+213080], %r[[ALL]];
// ENTRY-NOT: mbarrier.init
// ENTRY: fence.proxy.async.shared::cta;
// ENTRY: bar.sync 0;
// Programmatic dependent launch: every thread waits for the grids before it
// on the stream before the roles touch global memory, then lets the next
// grid be scheduled.
// ENTRY-NEXT: griddepcontrol.wait;
// ENTRY-NEXT: griddepcontrol.launch_dependents;
// ENTRY: setmaxnreg

// A one-dimensional grid of work tiles, one per CTA: blockIdx.x is read once,
// and neither blockIdx.y/z nor gridDim.
// GRID-NOT: %ctaid.y
// GRID-NOT: %ctaid.z
// GRID-NOT: %nctaid
// GRID: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// GRID-NOT: %ctaid
// GRID-NOT: %nctaid

// One thread of the producer warpgroup (24 registers) loads K of the first
// tile, 2 boxes on K full 0 (213024), then each consumer's Q tile with 2
// boxes on its own Q full, without waiting (the ring is fresh), 4D tiles
// with complete_tx. K goes first so a persistent CTA's next work tile
// starts loading before its Q slots free.
// PRODUCER: setmaxnreg.dec.sync.aligned.u32 24;
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [fa4_dynamic_smem+213024], %r{{[0-9]+}};
// PRODUCER-COUNT-2: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem+213024];
// PRODUCER-NOT: mbarrier.try_wait
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [fa4_dynamic_smem+212992], %r{{[0-9]+}};
// PRODUCER-COUNT-2: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem+212992];
// PRODUCER-NOT: mbarrier.try_wait
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [fa4_dynamic_smem+213000], %r{{[0-9]+}};
// PRODUCER-COUNT-2: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem+213000];

// The later K and V loads (K(t) and V(t - 1) in the loop, V of the last
// tile after it) each wait on their own ring's empty barrier first: a K load
// on K empty (213056 + 8 * slot) and then K full (213024 + 8 * slot), a V
// load on V empty (213072 + 8 * slot) and then V full (213040 + 8 * slot).
// Checked one ring per prefix, since LLVM lays the loop's blocks out in its
// own order.
// KRING: setmaxnreg.dec.sync.aligned.u32 24;
// KRING: add.s32 %r[[KEMPTY:[0-9]+]], %r{{[0-9]+}}, 213056;
// KRING: mbarrier.try_wait.parity.shared.b64 P1, [%r[[KEMPTY]]], %r{{[0-9]+}}, 10000000;
// KRING: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%rd[[KFULL:[0-9]+]]+213024], %r{{[0-9]+}};
// KRING-COUNT-2: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd[[KFULL]]+213024];
// VRING: setmaxnreg.dec.sync.aligned.u32 24;
// VRING: add.s32 %r[[VEMPTY:[0-9]+]], %r{{[0-9]+}}, 213072;
// VRING: mbarrier.try_wait.parity.shared.b64 P1, [%r[[VEMPTY]]], %r{{[0-9]+}}, 10000000;
// VRING: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [%rd[[VFULL:[0-9]+]]+213040], %r{{[0-9]+}};
// VRING-COUNT-2: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd[[VFULL]]+213040];

// Consumers (240 registers), with FA3's intra-warpgroup overlap (the
// default for prefill): consumer 1 grants consumer 0 the first GEMM turn,
// both wait for Q, then step 0, peeled, issues S = Q K^T alone in 8 k16
// steps from shared-memory descriptors inside a GEMM turn (named barrier of
// 256 threads), hands the turn over, waits and releases K slot 0 (K empty
// at 213056).
// CONSUMER: setmaxnreg.inc.sync.aligned.u32 240;
// CONSUMER: bar.arrive %r{{[0-9]+}}, 256;
// CONSUMER: mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], 0, 10000000;
// CONSUMER: mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], 0, 10000000;
// CONSUMER: bar.sync %r{{[0-9]+}}, 256;
// CONSUMER-NOT: wgmma.mma_async
// CONSUMER: wgmma.fence.sync.aligned;
// CONSUMER-COUNT-8: wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 {{\{}}{{(%r[0-9]+, ){87}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1, 1, 1, 0, 0;
// CONSUMER-NOT: wgmma.mma_async
// CONSUMER: wgmma.commit_group.sync.aligned;
// CONSUMER: bar.arrive %r{{[0-9]+}}, 256;
// CONSUMER: wgmma.wait_group.sync.aligned 0;
// CONSUMER-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [fa4_dynamic_smem+213056];
// The loop: per tile wait for K, take the GEMM turn, S(t) = Q K^T(t) and
// O += P(t-1) V(t-1) in 11 k16 steps with P's four A registers and V
// transposed, hand the turn over, wait for S only (one group, the P V,
// still pending) and release this tile's K slot (213056 + 8 * slot); the
// softmax then runs under the P V.
// LOOP: mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], %r{{[0-9]+}}, 10000000;
// LOOP-NEXT: @P1 bra
// LOOP: bar.sync %r{{[0-9]+}}, 256;
// LOOP: wgmma.fence.sync.aligned;
// LOOP-COUNT-8: wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16
// LOOP-NOT: wgmma.mma_async
// LOOP: wgmma.commit_group.sync.aligned;
// LOOP: mbarrier.try_wait.parity.shared.b64
// LOOP: wgmma.fence.sync.aligned;
// LOOP-COUNT-11: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{\{}}{{(%r[0-9]+, ){63}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
// LOOP-NOT: wgmma.mma_async
// LOOP: wgmma.commit_group.sync.aligned;
// LOOP: bar.arrive %r{{[0-9]+}}, 256;
// LOOP: wgmma.wait_group.sync.aligned 1;
// LOOP-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}+213056];
// Before O is rescaled, the P V is waited for and its V slot released (V
// empty 213072 + 8 * slot): in the loop, and after the last P V, which is
// followed by the consumer's Q empty (213008 + 8 * consumer, an address
// LLVM computes ahead) and the epilogue.
// VRELEASE-COUNT-2: wgmma.wait_group.sync.aligned 0;
// VRELEASE-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}+213072];
// VRELEASE: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}+{{[0-9]+}}];
// VRELEASE: st.global.b32
// The epilogue of the plain kernel: each consumer stages O / sum over its
// Q tile as 4-byte pairs (128B-swizzled), fences the async proxy, meets its
// warpgroup at named barrier 4 + consumer (128 threads), and its first
// thread stores the two 64-column boxes (8 KB apart) from O's tensor map
// (parameter 14), then waits for their reads.
// EPI: st.shared.b32
// EPI: fence.proxy.async.shared::cta;
// EPI: add.s32 %r[[EPIBAR:[0-9]+]], %r{{[0-9]+}}, 3;
// EPI-NEXT: bar.sync %r[[EPIBAR]], 128;
// EPI: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%rd[[OMAP:[0-9]+]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd[[STAGE:[0-9]+]]];
// EPI-NEXT: cp.async.bulk.commit_group;
// EPI: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%rd[[OMAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd[[STAGE]]+8192];
// EPI-NEXT: cp.async.bulk.commit_group;
// EPI-NEXT: cp.async.bulk.wait_group.read 0;

// The lazy rescale in the loop: after the V release, the two row factors
// against 1.0, one warp vote, and a branch over O's 64 multiplies (to
// the loop's next step, where the multiplies also end).
// LAZY: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}+213072];
// LAZY-NEXT: setp.ne.f32 %[[P0:p[0-9]+]], %[[C0:r[0-9]+]], 0f3F800000;
// LAZY-NEXT: setp.ne.f32 %[[P1:p[0-9]+]], %[[C1:r[0-9]+]], 0f3F800000;
// LAZY-NEXT: or.pred %[[ANY:p[0-9]+]], %[[P0]], %[[P1]];
// LAZY-NEXT: vote.sync.any.pred %[[WARP:p[0-9]+]], %[[ANY]], -1;
// LAZY-NEXT: not.pred %[[SKIP:p[0-9]+]], %[[WARP]];
// LAZY-NEXT: @%[[SKIP]] bra $[[DONE:L__BB[0-9_]+]];
// LAZY-COUNT-64: mul.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %{{r[0-9]+}};
// LAZY-NEXT: bra.uni $[[DONE]];

// The softmax and epilogue: exp2 on the MUFU unit, flushing subnormal
// results (one MUFU.EX2 each; without .ftz ptxas wraps every ex2 in a
// subnormal guard), P and O rounded to bf16 pairs, LSE's log2.
// SOFTMAX-DAG: ex2.approx.ftz.f32
// Every exp2 is MUFU's: no polynomial's rounding constant (1.5 * 2^23).
// MUFU-ONLY-NOT: 0f4B400000
// SOFTMAX-NOT: ex2.approx.f32
// SOFTMAX-DAG: cvt.rn.bf16x2.f32
// SOFTMAX-DAG: lg2.approx.f32
// SOFTMAX-DAG: shfl.sync.bfly.b32

// Persistent: the same kernel as one CTA per SM looping over work tiles
// (blockIdx.x, +gridDim.x), with the register budgets of a looped kernel.
// PERSIST: .visible .entry fa4_hopper_attention_sm_90a(
// PERSIST-DAG: mov.u32 %r{{[0-9]+}}, %ctaid.x;
// PERSIST-DAG: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// PERSIST-DAG: mbarrier.init.shared.b64 [fa4_dynamic_smem+213008], %r{{[0-9]+}};
// PERSIST-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PERSIST-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PERSIST-DAG: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [fa4_dynamic_smem+212992], %r{{[0-9]+}};
