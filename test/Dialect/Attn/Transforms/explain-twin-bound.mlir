// The smem plan's explanation names the looped twin's bound: at Dv = 64 it
// depends on the mask (2048 keys under a causal one, 1024 without), at
// Dv = 128 it does not.
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --attn-explain -o /dev/null | FileCheck %s

// CHECK: problem: {{.*}}Dqk 64, Dv 64, mask #attn.mask<none>
// CHECK: smem: {{.*}}a dynamic Skv or one up to 2048, 1024 without a mask), or max-kv-stages
func.func @d64(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}

// CHECK: problem: {{.*}}Dqk 128, Dv 128, mask #attn.mask<none>
// CHECK: smem: {{.*}}a dynamic Skv or one up to 4096), or max-kv-stages
func.func @d128(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
