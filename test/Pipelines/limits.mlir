// Sizes and hints past what a kernel represents give a diagnostic, never a
// crash: these once divided by a product that wrapped to 0 (SIGFPE in
// fa4::planSplitK) or compiled a window as another one.
// RUN: not fa4-compile %s --chip=sm_90a --batch-hint=4611686018427387904 --seq-q-hint=1 --seq-kv-hint=128 -o %t --quiet --ptxas=none 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: not fa4-compile %s --chip=sm_100a --batch-hint=4611686018427387904 --seq-q-hint=1 --seq-kv-hint=128 -o %t --quiet --ptxas=none 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: not fa4-compile %s --chip=sm_90a --seq-kv-hint=1073741824 -o %t --quiet --ptxas=none 2>&1 | FileCheck %s --check-prefix=SEQHINT
// RUN: not fa4-opt %s --split-input-file --attn-plan-pipeline=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=GRID

// HINT: error: 'attn.attention' op expected batch hint to be -1 (none) or 1 to 1073741823, but got 4611686018427387904
// SEQHINT: error: 'attn.attention' op expected seqKV hint to be -1 (none) or 1 to 1073741823, but got 1073741824
// GRID: error: 'attn.attention' op the problem needs more than 2147483647 CTAs (batch 1073741823 x 8 heads x 32 row blocks x 1), more than one launch's grid holds

func.func @dynamic(%q: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %q, %q : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}

// -----

// Every size within the limits, but more CTAs than a grid holds.
func.func @static_grid_overflow(%q: tensor<1073741823x4096x8x128xbf16>) -> tensor<1073741823x4096x8x128xbf16> {
  %o = attn.attention %q, %q, %q : tensor<1073741823x4096x8x128xbf16>, tensor<1073741823x4096x8x128xbf16>, tensor<1073741823x4096x8x128xbf16> -> tensor<1073741823x4096x8x128xbf16>
  return %o : tensor<1073741823x4096x8x128xbf16>
}
