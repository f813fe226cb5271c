// attn-plan-smem's max-kv-stages: at most that many K/V ring slots, so that
// a lowering can stage past the plan (the looped sm_90a kernel's O, one box
// at a time). 0, the default, and a cap above what fits leave the planner's
// count; a cap below the kernel's fewest slots or a negative one is refused
// by name.
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=FIT
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a max-kv-stages=2" | FileCheck %s --check-prefix=TWO
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a max-kv-stages=6" | FileCheck %s --check-prefix=FIT
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a max-kv-stages=-1" 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_100a max-kv-stages=1" 2>&1 | FileCheck %s --check-prefix=SHARED

// d = 128 under a causal mask (BN = 128): Q (32 KB) and three 64 KB K+V
// stages fill 229552 of 232448 bytes; two stages leave 68 KB free.
// FIT-LABEL: func @causal_d128
// FIT: smem = #attn.smem<kv_stages = 3, {{.*}} smem_used = 229552,
// TWO-LABEL: func @causal_d128
// TWO: smem = #attn.smem<kv_stages = 2, {{.*}} smem_used = 163968,
// NEG: error: 'attn.attention' op expected max-kv-stages to be 0 (as many as fit) or at least 1 (the fewest ring slots this kernel streams through), but got -1
func.func @causal_d128(%q: tensor<2x1024x16x128xbf16>, %k: tensor<2x1024x16x128xbf16>, %v: tensor<2x1024x16x128xbf16>) -> tensor<2x1024x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>
      -> tensor<2x1024x16x128xbf16>
  return %o : tensor<2x1024x16x128xbf16>
}

// -----

// On sm_100a, d = 256 streams K and V through one shared ring, which needs a
// K and a V slot: a cap of 1 is refused.
// SHARED: error: 'attn.attention' op expected max-kv-stages to be 0 (as many as fit) or at least 2 (the fewest ring slots this kernel streams through), but got 1
func.func @shared_ring_d256(%q: tensor<1x4096x8x256xbf16>, %k: tensor<1x4096x8x256xbf16>, %v: tensor<1x4096x8x256xbf16>) -> tensor<1x4096x8x256xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x4096x8x256xbf16>, tensor<1x4096x8x256xbf16>, tensor<1x4096x8x256xbf16>
      -> tensor<1x4096x8x256xbf16>
  return %o : tensor<1x4096x8x256xbf16>
}
