// attn-plan-smem's K/V stage count on sm_90a: as many slots as fit, except
// that a prefill plan with a looped twin (Dv <= 128, no window mask, Skv
// dynamic or within the twin's bound: 2048 at Dv <= 64, 4096 at Dv <= 128)
// gives up slots, down to two, until the twin's O
// staging (2 x 8 KB, 1024-aligned) fits past the plan. max-kv-stages caps
// the ring: 0, the default, and a cap above what fits leave the planner's
// count (which masks and sizes get a twin: SmemPlanTest); a cap below the kernel's fewest slots or a negative one is refused
// by name.
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=FIT
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a max-kv-stages=2" | FileCheck %s --check-prefix=TWO
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a max-kv-stages=6" | FileCheck %s --check-prefix=FIT
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a max-kv-stages=-1" 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_100a max-kv-stages=1" 2>&1 | FileCheck %s --check-prefix=SHARED

// d = 128 under a causal mask (BN = 128) at 8192 keys, no twin: Q (32 KB)
// and three 64 KB K+V stages fill 229552 of 232448 bytes; two leave 68 KB.
// FIT-LABEL: func @causal_d128_long
// FIT: smem = #attn.smem<kv_stages = 3, {{.*}} smem_used = 229552,
// TWO-LABEL: func @causal_d128_long
// TWO: smem = #attn.smem<kv_stages = 2, {{.*}} smem_used = 163968,
// NEG: error: 'attn.attention' op expected max-kv-stages to be 0 (as many as fit) or at least 1 (the fewest ring slots this kernel streams through), but got -1
func.func @causal_d128_long(%q: tensor<2x8192x16x128xbf16>, %k: tensor<2x8192x16x128xbf16>, %v: tensor<2x8192x16x128xbf16>) -> tensor<2x8192x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x8192x16x128xbf16>, tensor<2x8192x16x128xbf16>, tensor<2x8192x16x128xbf16>
      -> tensor<2x8192x16x128xbf16>
  return %o : tensor<2x8192x16x128xbf16>
}

// -----

// The same at 1024 keys and at a dynamic Skv: the twin runs them, and three
// stages leave 2896 bytes, too few for its 16 KB; two stages leave room.
// FIT-LABEL: func @causal_d128_short
// FIT: smem = #attn.smem<kv_stages = 2, {{.*}} smem_used = 163968,
// FIT-LABEL: func @causal_d128_dynamic
// FIT: smem = #attn.smem<kv_stages = 2, {{.*}} smem_used = 163968,
func.func @causal_d128_short(%q: tensor<2x1024x16x128xbf16>, %k: tensor<2x1024x16x128xbf16>, %v: tensor<2x1024x16x128xbf16>) -> tensor<2x1024x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>
      -> tensor<2x1024x16x128xbf16>
  return %o : tensor<2x1024x16x128xbf16>
}
func.func @causal_d128_dynamic(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>
      -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}

// -----

// (Dqk, Dv) = (128, 64) under a causal mask: Q 32 KB, 48 KB K+V stages;
// four fit (229568 bytes) but three leave room for the twin's staging.
// FIT-LABEL: func @causal_d128x64_short
// FIT: smem = #attn.smem<kv_stages = 3, {{.*}} smem_used = 180376,
func.func @causal_d128x64_short(%q: tensor<2x1024x16x128xbf16>, %k: tensor<2x1024x16x128xbf16>, %v: tensor<2x1024x16x64xbf16>) -> tensor<2x1024x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>, tensor<2x1024x16x64xbf16>
      -> tensor<2x1024x16x64xbf16>
  return %o : tensor<2x1024x16x64xbf16>
}

// -----

// d = 64 under a causal mask: six 32 KB stages (the cap) next to 16 KB Q
// leave room for the twin's staging; no slot is given up.
// FIT-LABEL: func @causal_d64_short
// FIT: smem = #attn.smem<kv_stages = 6, {{.*}} smem_used = 213216,
func.func @causal_d64_short(%q: tensor<2x1024x32x64xbf16>, %k: tensor<2x1024x32x64xbf16>, %v: tensor<2x1024x32x64xbf16>) -> tensor<2x1024x32x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x1024x32x64xbf16>, tensor<2x1024x32x64xbf16>, tensor<2x1024x32x64xbf16>
      -> tensor<2x1024x32x64xbf16>
  return %o : tensor<2x1024x32x64xbf16>
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
