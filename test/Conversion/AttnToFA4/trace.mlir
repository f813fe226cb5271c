// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=trace=true -canonicalize -cse -verify-diagnostics | FileCheck %s

// trace=true (profiling only; bench/trace_phases.py): each consumer reads
// globaltimer at six points of a work tile (start, Q in, step 0 done, loop
// done, last P V done, O written) and once at its role's start, then meets
// its warpgroup (named barrier 4 + consumer) and its first thread writes
// the seven stamps, its SM and the number of epilogue stamps after them
// (none here) as 32-bit words over its first nine LSE rows, each row only
// below Sq.
// CHECK-LABEL: gpu.func @fa4_hopper_traced_sm_90a(
// CHECK: fa4.warp_specialize
// CHECK: }, {
// CHECK: %[[ROLE:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: %[[START:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: fa4.mbarrier.wait
// CHECK: %[[QIN:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: %[[STEP0:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: scf.for
// CHECK: %[[LOOP:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: fa4.mma.wait
// CHECK: %[[LASTPV:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: fa4.epilogue.stage
// CHECK: %[[OUT:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK: scf.if
// CHECK: %[[SM:.*]] = nvvm.read.ptx.sreg.smid : i32
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %c0_i32, %{{.*}} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: gpu.return
// The looped twin (O staged over its Q tile, two Q buffers) adds its
// epilogue's stamps after the count (3): after the LSE, after staging,
// and after the meeting and the stores' issue; 9 + 3 = 12 words.
// CHECK-LABEL: gpu.func @fa4_hopper_traced_sm_90a_persistent(
// CHECK: fa4.lse.store
// CHECK-NEXT: %[[LSE:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK-NEXT: arith.trunci
// CHECK-NEXT: fa4.epilogue.stage
// CHECK-NEXT: %[[STAGED:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: nvvm.barrier id
// CHECK: fa4.tma.store %{{.*}}[%c0_i32,
// CHECK: fa4.tma.store %{{.*}}[%c64_i32,
// CHECK: %[[ISSUED:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: nvvm.read.ptx.sreg.smid
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %c3_i32, %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: gpu.return
func.func @traced(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

// -----

func.func @no_lse(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  // expected-error @+1 {{'attn.attention' op convert-attn-to-fa4: trace writes its phase times over the LSE output, and this op has none}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}
