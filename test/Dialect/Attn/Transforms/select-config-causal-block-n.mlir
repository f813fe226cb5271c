// attn-select-config's causal-block-n (128 by default, D-15): on sm_90a, a
// causal mask caps the planner's KV tile at the given keys, so that tiles
// line up with the 128-row blocks. 0 lifts the cap; past 8192 known keys it
// does not apply. Other masks, sm_100a
// (BN <= 128 already) and plans already narrower keep their tile; a cap
// that is not a multiple of 16 is refused by name.
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a" | FileCheck %s --check-prefix=CAP
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a causal-block-n=0" | FileCheck %s --check-prefix=NOCAP
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a causal-block-n=96" | FileCheck %s --check-prefix=CAP96
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a causal-block-n=100" 2>&1 | FileCheck %s --check-prefix=ODD

// CAP-LABEL: func @causal_d128
// CAP: bn = 128,
// NOCAP-LABEL: func @causal_d128
// NOCAP: bn = 176,
// CAP96-LABEL: func @causal_d128
// CAP96: bn = 96,
// ODD: error: 'attn.attention' op expected causal-block-n to be 0 (no cap) or a positive multiple of 16, but got 100
func.func @causal_d128(%q: tensor<2x1024x16x128xbf16>, %k: tensor<2x1024x16x128xbf16>, %v: tensor<2x1024x16x128xbf16>) -> tensor<2x1024x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>
      -> tensor<2x1024x16x128xbf16>
  return %o : tensor<2x1024x16x128xbf16>
}

// -----

// CAP-LABEL: func @no_mask_d128
// CAP: bn = 176,
// CAP96-LABEL: func @no_mask_d128
// CAP96: bn = 176,
func.func @no_mask_d128(%q: tensor<2x1024x16x128xbf16>, %k: tensor<2x1024x16x128xbf16>, %v: tensor<2x1024x16x128xbf16>) -> tensor<2x1024x16x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>
      -> tensor<2x1024x16x128xbf16>
  return %o : tensor<2x1024x16x128xbf16>
}

// -----

// CAP-LABEL: func @causal_d256
// CAP: bn = 80,
func.func @causal_d256(%q: tensor<2x1024x8x256xbf16>, %k: tensor<2x1024x8x256xbf16>, %v: tensor<2x1024x8x256xbf16>) -> tensor<2x1024x8x256xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<2x1024x8x256xbf16>, tensor<2x1024x8x256xbf16>, tensor<2x1024x8x256xbf16>
      -> tensor<2x1024x8x256xbf16>
  return %o : tensor<2x1024x8x256xbf16>
}

// -----

// Past 8192 keys the cap does not apply: the wider tile is faster there.
// CAP-LABEL: func @causal_d128_long
// CAP: bn = 176,
func.func @causal_d128_long(%q: tensor<1x16384x16x128xbf16>, %k: tensor<1x16384x16x128xbf16>, %v: tensor<1x16384x16x128xbf16>) -> tensor<1x16384x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x16384x16x128xbf16>, tensor<1x16384x16x128xbf16>, tensor<1x16384x16x128xbf16>
      -> tensor<1x16384x16x128xbf16>
  return %o : tensor<1x16384x16x128xbf16>
}
