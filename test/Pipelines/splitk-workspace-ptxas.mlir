// Both kernels of a workspace split-K assemble for sm_90a and for sm_100a
// with no stack and no spills: MQA (8/1 heads) at d = 128 with LSE, and at
// d = 64 without.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=%ptxas -o %t --quiet | FileCheck %s --implicit-check-not=C75
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=%ptxas -o %t/sm100 --quiet | FileCheck %s --check-prefix=SM100 --implicit-check-not=C75

// SM100: Compiling entry function 'fa4_blackwell_mqa_sm_100a_combine' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_blackwell_mqa_sm_100a_combine
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_blackwell_mqa_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_blackwell_mqa_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_blackwell_mqa_d64_sm_100a_combine' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_blackwell_mqa_d64_sm_100a_combine
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_blackwell_mqa_d64_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_blackwell_mqa_d64_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// CHECK: Compiling entry function 'fa4_hopper_mqa_sm_90a_combine' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_mqa_sm_90a_combine
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_mqa_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_mqa_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_mqa_d64_sm_90a_combine' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_mqa_d64_sm_90a_combine
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK: Compiling entry function 'fa4_hopper_mqa_d64_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_mqa_d64_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

func.func @mqa(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}

func.func @mqa_d64(%q: tensor<?x?x8x64xf16>, %k: tensor<?x?x1x64xf16>, %v: tensor<?x?x1x64xf16>) -> tensor<?x?x8x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x64xf16>, tensor<?x?x1x64xf16>, tensor<?x?x1x64xf16> -> tensor<?x?x8x64xf16>
  return %o : tensor<?x?x8x64xf16>
}
