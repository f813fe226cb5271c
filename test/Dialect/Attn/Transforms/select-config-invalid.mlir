// Diagnostics of attn-select-config reachable from valid attn.attention IR.
//
// Only reachable in the gtests (unittests/Planning/ConfigTest.cpp), because
// the op or mask verifier rejects the IR first:
//  - non-16-bit outputs (the op requires O to be bf16 or f16; "f8E4M3FN on
//    sm_90a needs V transposed" is reached from FP8 IR:
//    test/Conversion/AttnToFA4/fp8-refused-sm90.mlir);
//  - head counts < 1 or q-heads not a multiple of kv-heads, static sizes < 1;
//  - window half-widths < -1 (#attn.mask verifier);
//  - a negative page size (the op has no paged K/V yet).
// The depth checks run before any chip-specific rule, so one chip covers them.

// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-select-config=chip=sm_90a
// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-plan-pipeline=chip=sm_90a

// Unknown chips are reported on the module before any op is planned.
// RUN: not fa4-opt %s -split-input-file --attn-select-config=chip=sm_80 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100 2>&1 | FileCheck %s --check-prefix=PIPELINE-CHIP
// CHIP: error: unknown chip 'sm_80'; expected sm_100a or sm_90a
// PIPELINE-CHIP: error: unknown chip 'sm_100'; expected sm_100a or sm_90a

// Hints must be sizes (>= 1) or -1 (none); they are checked before the shapes.
// RUN: not fa4-opt %s -split-input-file --attn-select-config="batch-hint=0" 2>&1 | FileCheck %s --check-prefix=BATCH-HINT
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a seq-q-hint=-2" 2>&1 | FileCheck %s --check-prefix=SEQQ-HINT
// RUN: not fa4-opt %s -split-input-file --attn-plan-pipeline="chip=sm_100a seq-kv-hint=0" 2>&1 | FileCheck %s --check-prefix=SEQKV-HINT
// BATCH-HINT: error: 'attn.attention' op expected batch hint to be -1 (none) or 1 to 1073741823, but got 0
// SEQQ-HINT: error: 'attn.attention' op expected seqQ hint to be -1 (none) or 1 to 1073741823, but got -2
// SEQKV-HINT: error: 'attn.attention' op expected seqKV hint to be -1 (none) or 1 to 1073741823, but got 0

// TMA rows are whole 16-byte units: a depth of 100 bf16 elements is 200 bytes.
func.func @qk_depth_not_multiple_of_8(%q: tensor<1x128x8x100xbf16>, %k: tensor<1x1024x8x100xbf16>, %v: tensor<1x1024x8x100xbf16>) -> tensor<1x128x8x100xbf16> {
  // expected-error @+1 {{'attn.attention' op expected qkDepth to be a positive multiple of 8 bf16 elements (TMA rows are whole 16-byte units), but got 100}}
  %o = attn.attention %q, %k, %v
      : tensor<1x128x8x100xbf16>, tensor<1x1024x8x100xbf16>, tensor<1x1024x8x100xbf16>
      -> tensor<1x128x8x100xbf16>
  return %o : tensor<1x128x8x100xbf16>
}

// -----

func.func @ov_depth_not_multiple_of_8(%q: tensor<1x128x8x64xf16>, %k: tensor<1x1024x8x64xf16>, %v: tensor<1x1024x8x60xf16>) -> tensor<1x128x8x60xf16> {
  // expected-error @+1 {{'attn.attention' op expected ovDepth to be a positive multiple of 8 f16 elements (TMA rows are whole 16-byte units), but got 60}}
  %o = attn.attention %q, %k, %v
      : tensor<1x128x8x64xf16>, tensor<1x1024x8x64xf16>, tensor<1x1024x8x60xf16>
      -> tensor<1x128x8x60xf16>
  return %o : tensor<1x128x8x60xf16>
}

// -----

// Depths past 256 are planned only for MLA (576/512).
func.func @depth_320_not_planned(%q: tensor<1x128x8x320xbf16>, %k: tensor<1x1024x8x320xbf16>, %v: tensor<1x1024x8x320xbf16>) -> tensor<1x128x8x320xbf16> {
  // expected-error @+1 {{'attn.attention' op expected head depths of at most 256 (or MLA 576/512), but got qkDepth 320 and ovDepth 320}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<1x128x8x320xbf16>, tensor<1x1024x8x320xbf16>, tensor<1x1024x8x320xbf16>
      -> tensor<1x128x8x320xbf16>
  return %o : tensor<1x128x8x320xbf16>
}

// -----

func.func @depth_576_576_is_not_mla(%q: tensor<1x1x16x576xbf16>, %k: tensor<1x1024x1x576xbf16>, %v: tensor<1x1024x1x576xbf16>) -> tensor<1x1x16x576xbf16> {
  // expected-error @+1 {{'attn.attention' op expected head depths of at most 256 (or MLA 576/512), but got qkDepth 576 and ovDepth 576}}
  %o = attn.attention %q, %k, %v
      : tensor<1x1x16x576xbf16>, tensor<1x1024x1x576xbf16>, tensor<1x1024x1x576xbf16>
      -> tensor<1x1x16x576xbf16>
  return %o : tensor<1x1x16x576xbf16>
}

// -----

// Only Dv above 256 is enough.
func.func @ov_depth_512_not_planned(%q: tensor<1x1x8x128xbf16>, %k: tensor<1x1024x8x128xbf16>, %v: tensor<1x1024x8x512xbf16>) -> tensor<1x1x8x512xbf16> {
  // expected-error @+1 {{'attn.attention' op expected head depths of at most 256 (or MLA 576/512), but got qkDepth 128 and ovDepth 512}}
  %o = attn.attention %q, %k, %v
      : tensor<1x1x8x128xbf16>, tensor<1x1024x8x128xbf16>, tensor<1x1024x8x512xbf16>
      -> tensor<1x1x8x512xbf16>
  return %o : tensor<1x1x8x512xbf16>
}

// -----

// MLA on sm_90a is rejected (sm_100a plans it: plan-pipeline-mla.mlir).
func.func @mla_on_sm90a(%q: tensor<1x1x128x576xbf16>, %k: tensor<1x8192x1x576xbf16>, %v: tensor<1x8192x1x512xbf16>) -> tensor<1x1x128x512xbf16> {
  // expected-error @+1 {{'attn.attention' op MLA 576/512 on sm_90a needs O (64 x 512 f32 = 256 registers per thread) split across warpgroups with P staged in shared memory, which is not planned; expected head depths of at most 256}}
  %o = attn.attention %q, %k, %v
      : tensor<1x1x128x576xbf16>, tensor<1x8192x1x576xbf16>, tensor<1x8192x1x512xbf16>
      -> tensor<1x1x128x512xbf16>
  return %o : tensor<1x1x128x512xbf16>
}

// -----

// The mask attribute admits window(-1, -1); the planner asks for one bound.
func.func @window_unbounded_both_sides(%q: tensor<1x128x8x128xbf16>, %k: tensor<1x1024x8x128xbf16>, %v: tensor<1x1024x8x128xbf16>) -> tensor<1x128x8x128xbf16> {
  // expected-error @+1 {{'attn.attention' op expected a window mask to bound at least one side, but got (-1, -1)}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(-1,-1)>}
      : tensor<1x128x8x128xbf16>, tensor<1x1024x8x128xbf16>, tensor<1x1024x8x128xbf16>
      -> tensor<1x128x8x128xbf16>
  return %o : tensor<1x128x8x128xbf16>
}
