// The sm_100a FA4 kernel through the whole pipeline, checked on its PTX:
// the warp-role dispatch with setmaxnreg, tensor memory allocated, used and
// freed, tcgen05.mma kind::f16 committed onto mbarriers, TMEM loads and
// stores with their waits and fences, and the exp2 split between MUFU and
// the FMA pipe.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_blackwell_attention_sm_100a/fa4_blackwell_attention_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=COUNT --input-file=%t/fa4_blackwell_attention_sm_100a/fa4_blackwell_attention_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=INSN --implicit-check-not=cvt.rmi --input-file=%t/fa4_blackwell_attention_sm_100a/fa4_blackwell_attention_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=POLY --input-file=%t/fa4_blackwell_attention_sm_100a/fa4_blackwell_attention_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=EPI --input-file=%t/fa4_blackwell_attention_sm_100a/fa4_blackwell_attention_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=STAGE --input-file=%t/fa4_blackwell_attention_sm_100a/fa4_blackwell_attention_sm_100a.ptx

// EPI, the TMA-store epilogue: the correction warpgroup stages O / sum as
// 16-byte swizzled chunks in shared memory and fences the async proxy; the
// epilogue warp stores each Q tile's two 64-column boxes (16 KB apart; the
// second tile 32 KB on) by TMA, one bulk group each, and waits until they
// have read shared memory before the CTA may exit.
// STAGE: st.shared.v4.b32 [%rd{{[0-9]+}}+49152]
// STAGE: fence.proxy.async.shared::cta;
// EPI: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem];
// EPI-NEXT: cp.async.bulk.commit_group;
// EPI: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem+16384];
// EPI: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem+32768];
// EPI: cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [fa4_dynamic_smem+49152];
// EPI-NEXT: cp.async.bulk.commit_group;
// EPI-NEXT: cp.async.bulk.wait_group.read 0;

// CHECK: .target sm_100a
// CHECK: .visible .entry fa4_blackwell_attention_sm_100a(
// CHECK: .maxntid 512, 1, 1
// Warp 0 allocates the tensor memory and gives up the allocation permit.
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [fa4_dynamic_smem+{{[0-9]+}}]
// CHECK: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// Programmatic dependent launch, once the barriers are initialised.
// CHECK: bar.sync 0;
// CHECK-NEXT: griddepcontrol.wait;
// CHECK-NEXT: griddepcontrol.launch_dependents;
// The roles: softmax up to 184 registers, the others down to 72.
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 184;
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 72;
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32

// 16 MMAs of S (2 Q tiles x 8 k16 steps of Dqk = 128) in the prologue and
// 16 in the loop, 16 of P V (2 x 8 steps of BN = 128): 48 tcgen05.mma; each
// tile's MMAs committed onto an mbarrier.
// COUNT-COUNT-48: tcgen05.mma.cta_group::1.kind::f16
// COUNT-NOT: tcgen05.mma.cta_group::1.kind::f16
// COUNT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64

// INSN-DAG: tcgen05.ld.sync.aligned.32x32b.x16.b32
// INSN-DAG: tcgen05.wait::ld.sync.aligned;
// INSN-DAG: tcgen05.st.sync.aligned.32x32b.x16.b32
// INSN-DAG: tcgen05.wait::st.sync.aligned;
// INSN-DAG: tcgen05.fence::before_thread_sync;
// INSN-DAG: tcgen05.fence::after_thread_sync;
// INSN-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// INSN-DAG: vote.sync.any.pred
// INSN-DAG: ex2.approx.ftz.f32
// The softmax in f32x2 pairs (D-61): each pair's scale-subtract one fma, the
// row sum's chain one add per pair. Every 4th pair's exponentials on the FMA
// and ALU pipes: rounded by adding 1.5 * 2^23 to both lanes (no cvt.rmi,
// which would take an XU slot as MUFU's ex2 does), the polynomial on the
// pair, the rounded sum's lanes shifted into the exponent field.
// POLY: fma.rn.f32x2 [[X:%rd[0-9]+]], {{%rd[0-9]+}}, [[SCALE:%rd[0-9]+]], [[BIAS:%rd[0-9]+]];
// POLY: add.rn.f32x2 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}};
// POLY: mov.b32 [[ROUND:%r[0-9]+]], 0f4B400000;
// POLY-NEXT: mov.b64 [[ROUND2:%rd[0-9]+]], {[[ROUND]], [[ROUND]]};
// POLY-NEXT: add.rn.f32x2 [[SHIFTED:%rd[0-9]+]], {{%rd[0-9]+}}, [[ROUND2]];
// POLY-COUNT-3: fma.rn.f32x2
// POLY: mov.b64 {[[LOW:%r[0-9]+]], [[HIGH:%r[0-9]+]]}, [[SHIFTED]];
// POLY-NEXT: shl.b32 {{%r[0-9]+}}, [[LOW]], 23;
// POLY-NEXT: shl.b32 {{%r[0-9]+}}, [[HIGH]], 23;

func.func @attention(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}
