// attn-select-config's consumer-warpgroups on sm_90a: 2 (BM = 128, 384
// threads) or 3 (BM = 192, 512 threads, 160 registers a consumer); 0, the
// default, takes three at depths up to 64 without a window mask where the
// kernel runs only past the looped twin's 2048 keys (a static Skv past it,
// or a dynamic one, whose twin then gets its own plan of two) and Sq is
// past 2048 or unknown; else two.

// RUN: fa4-opt %s -split-input-file --attn-select-config=chip=sm_90a | FileCheck %s --check-prefix=RULE
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a consumer-warpgroups=3" | FileCheck %s --check-prefix=THREE
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a consumer-warpgroups=2" | FileCheck %s --check-prefix=TWO
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a seq-q-hint=8192 seq-kv-hint=8192" | FileCheck %s --check-prefix=HINTED
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_90a consumer-warpgroups=3" --attn-explain 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --attn-explain 2>&1 | FileCheck %s --check-prefix=TWINPLAN

// Out of range, or on sm_100a: refused by name, with what is accepted.
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a consumer-warpgroups=4" 2>&1 | FileCheck %s --check-prefix=FOUR
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_100a consumer-warpgroups=3" 2>&1 | FileCheck %s --check-prefix=SM100
// FOUR: error: 'attn.attention' op expected consumer-warpgroups to be 0 (the planner's), or 2 or 3 on sm_90a, but got 4 on sm_90a
// SM100: error: 'attn.attention' op expected consumer-warpgroups to be 0 (the planner's), or 2 or 3 on sm_90a, but got 3 on sm_100a

// RULE-LABEL: func @d64_long
// RULE: bm = 192, bn = 128, {{.*}}num_q = 3, {{.*}}num_threads = 512>
// TWO-LABEL: func @d64_long
// TWO: bm = 128, bn = 176, {{.*}}num_q = 2, {{.*}}num_threads = 384>
// EXPLAIN: MMA_M = 64 (wgmma), numQ = 3, BM = 192: three consumer warpgroups (consumer-warpgroups=3, 512 threads) own one 64-row tile each and ping-pong
// EXPLAIN-NEXT: BN = 128 (S + P + O: 128 registers of 128 of the consumer's 160)
func.func @d64_long(%q: tensor<2x8192x16x64xbf16>, %k: tensor<2x8192x16x64xbf16>, %v: tensor<2x8192x16x64xbf16>) -> tensor<2x8192x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x8192x16x64xbf16>, tensor<2x8192x16x64xbf16>, tensor<2x8192x16x64xbf16>
      -> tensor<2x8192x16x64xbf16>
  return %o : tensor<2x8192x16x64xbf16>
}

// -----

// A dynamic Skv: the kernel runs only past the looped twin's 2048 keys, so
// it takes three; the twin gets its own plan of two (twin_config; at 160
// registers it would spill, and 192-row tiles lose at short lengths). Asked
// for three or two, both kernels share the one plan.
// RULE-LABEL: func @d64_dynamic
// RULE: config = #attn.config<{{.*}}bm = 192, bn = 128, {{.*}}num_q = 3,
// RULE-SAME: twin_config = #attn.config<{{.*}}bm = 128, bn = 128, {{.*}}num_q = 2, {{.*}}num_threads = 384>
// HINTED-LABEL: func @d64_dynamic
// HINTED: config = #attn.config<{{.*}}bm = 192, bn = 128, {{.*}}num_q = 3,
// HINTED-SAME: twin_config = #attn.config<{{.*}}num_q = 2,
// THREE-LABEL: func @d64_dynamic
// THREE: bm = 192, bn = 128, {{.*}}num_q = 3,
// THREE-NOT: twin_config
// TWO-LABEL: func @d64_dynamic
// TWO: bm = 128, bn = 128, {{.*}}num_q = 2,
// TWO-NOT: twin_config
// attn-explain prints the twin's plan after the kernel's.
// TWINPLAN: numQ = 3, BM = 192
// TWINPLAN: looped twin (Skv up to the persistent bound): its own plan
// TWINPLAN-NEXT: config: sm_90a, bf16 in, bf16 out, 384 threads
// TWINPLAN: MMA_M = 64 (wgmma), numQ = 2, BM = 128
// TWINPLAN: smem: {{[0-9]+}} of 232448 bytes
func.func @d64_dynamic(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>
      -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}

// -----

// Without a mask the d = 64 twin takes 128-key tiles, as the d = 128 one
// does, not the 176 two consumers would allow (D-17); asked for two,
// the kernel keeps 176 and the twin still its own 128.
// RULE-LABEL: func @d64_dynamic_none
// RULE: config = #attn.config<{{[^>]*}}bm = 192, bn = 128, {{[^>]*}}num_q = 3,
// RULE-SAME: twin_config = #attn.config<{{[^>]*}}bm = 128, bn = 128, {{[^>]*}}num_q = 2, {{[^>]*}}num_threads = 384>
// TWO-LABEL: func @d64_dynamic_none
// TWO: config = #attn.config<{{[^>]*}}bm = 128, bn = 176, {{[^>]*}}num_q = 2,
// TWO-SAME: twin_config = #attn.config<{{[^>]*}}bn = 128,
// THREE-LABEL: func @d64_dynamic_none
// THREE-NOT: twin_config
func.func @d64_dynamic_none(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>
      -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}

// -----

// d = 128 keeps two by default; asked for three, BN = 80 (O takes 64 of the
// 128 registers for S, P and O).
// RULE-LABEL: func @d128_long
// RULE: bm = 128, bn = 176, {{.*}}num_q = 2,
// THREE-LABEL: func @d128_long
// THREE: bm = 192, bn = 80, {{.*}}num_q = 3, {{.*}}num_threads = 512>
func.func @d128_long(%q: tensor<2x8192x16x128xbf16>, %k: tensor<2x8192x16x128xbf16>, %v: tensor<2x8192x16x128xbf16>) -> tensor<2x8192x16x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x8192x16x128xbf16>, tensor<2x8192x16x128xbf16>, tensor<2x8192x16x128xbf16>
      -> tensor<2x8192x16x128xbf16>
  return %o : tensor<2x8192x16x128xbf16>
}

// -----

// d = 128 without a mask, dynamic Skv: two consumers, and the twin its own
// 128-key tiles (the kernel keeps 176 past 2048 keys).
// RULE-LABEL: func @d128_dynamic
// RULE: config = #attn.config<{{[^>]*}}bm = 128, bn = 176, {{[^>]*}}num_q = 2,
// RULE-SAME: twin_config = #attn.config<{{[^>]*}}bm = 128, bn = 128, {{[^>]*}}num_q = 2,
// TWO-LABEL: func @d128_dynamic
// TWO: twin_config = #attn.config<{{[^>]*}}bn = 128,
func.func @d128_dynamic(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>
      -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}

// -----

// A window mask keeps two (three were not measured under it); so does a
// decode tile, even when three are asked for.
// RULE-LABEL: func @d64_window
// RULE: num_q = 2,
// HINTED-LABEL: func @d64_window
// HINTED: num_q = 2,
func.func @d64_window(%q: tensor<2x8192x16x64xbf16>, %k: tensor<2x8192x16x64xbf16>, %v: tensor<2x8192x16x64xbf16>) -> tensor<2x8192x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(256, 0)>}
      : tensor<2x8192x16x64xbf16>, tensor<2x8192x16x64xbf16>, tensor<2x8192x16x64xbf16>
      -> tensor<2x8192x16x64xbf16>
  return %o : tensor<2x8192x16x64xbf16>
}

// -----

// THREE-LABEL: func @d64_decode
// THREE-NOT: num_q = 3
// THREE: return
func.func @d64_decode(%q: tensor<1x1x16x64xbf16>, %k: tensor<1x32768x16x64xbf16>, %v: tensor<1x32768x16x64xbf16>) -> tensor<1x1x16x64xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<1x1x16x64xbf16>, tensor<1x32768x16x64xbf16>, tensor<1x32768x16x64xbf16>
      -> tensor<1x1x16x64xbf16>
  return %o : tensor<1x1x16x64xbf16>
}

