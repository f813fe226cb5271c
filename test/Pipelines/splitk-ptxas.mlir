// The split-K decode kernels assemble for sm_90a with no stack and no
// spills: 32/8 heads at B = 1 (8 partitions), at B = 3 (5 partitions, one
// without a band), and 16/16 heads at d = 64 (8 partitions, no fusion).
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=%ptxas -o %t/b1 --quiet | FileCheck %s --check-prefix=B1 --implicit-check-not=C75
// RUN: fa4-compile %s --chip=sm_90a --batch-hint=3 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=%ptxas -o %t/b3 --quiet | FileCheck %s --check-prefix=B3 --implicit-check-not=C75

// B1: Compiling entry function 'fa4_hopper_gqa_sm_90a' for 'sm_90a'
// B1-NEXT: Function properties for fa4_hopper_gqa_sm_90a
// B1-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// B1: Compiling entry function 'fa4_hopper_mha_d64_sm_90a' for 'sm_90a'
// B1-NEXT: Function properties for fa4_hopper_mha_d64_sm_90a
// B1-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// B3: Compiling entry function 'fa4_hopper_gqa_sm_90a' for 'sm_90a'
// B3-NEXT: Function properties for fa4_hopper_gqa_sm_90a
// B3-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @gqa(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}

func.func @mha_d64(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
