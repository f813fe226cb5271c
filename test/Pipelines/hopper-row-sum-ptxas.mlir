// fa4-compile --tensor-core-row-sum: the d = 64 prefill kernel (three
// consumers, 112-key tiles) sums P's rows by wgmma m64n8k16 against the
// ones operand: seven steps of n8 beside each P V, 14 in the kernel (the
// loop's P V and the last one; the peeled step 0 has none). Every thread
// writes its 16-byte chunks of the operand (a loop over the CTA's threads)
// and fences them for the async proxy before the CTA barrier. The kernel
// assembles without spills. (Its looped twin, at 176-key tiles, spills 4
// bytes: not checked.)
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --tensor-core-row-sum --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_fa3_p64_sm_90a/fa4_fa3_p64_sm_90a.ptx

// CHECK: Compiling entry function 'fa4_fa3_p64_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_fa3_p64_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// PTX-LABEL: .entry fa4_fa3_p64_sm_90a(
// PTX: selp.b32 %[[CHUNK:r[0-9]+]], 1065369472, 0, %p{{[0-9]+}};
// PTX-NEXT: st.shared.v4.b32 [%rd{{[0-9]+}}], {%[[CHUNK]], %[[CHUNK]], %[[CHUNK]], %[[CHUNK]]};
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync 0;
// PTX-COUNT-14: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16
// PTX-NOT: wgmma.mma_async.sync.aligned.m64n8k16
// PTX-LABEL: .entry fa4_fa3_p64_sm_90a_persistent(

func.func @p64(%q: tensor<?x?x32x64xbf16>, %k: tensor<?x?x32x64xbf16>, %v: tensor<?x?x32x64xbf16>) -> tensor<?x?x32x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x64xbf16>, tensor<?x?x32x64xbf16>, tensor<?x?x32x64xbf16> -> tensor<?x?x32x64xbf16>
  return %o : tensor<?x?x32x64xbf16>
}
