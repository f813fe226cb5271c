// Bad compiler options give a diagnostic, not a crash or a silent default.
// RUN: not fa4-compile %s --kernel=fast -o %t 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not fa4-opt %s --fa4-compile="kernel=fast" 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not fa4-compile %s --chip=sm_80 -o %t --quiet 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fa4-compile %s --chip=sm_100a --kernel=hopper -o %t --quiet 2>&1 | FileCheck %s --check-prefix=HOPPER-ON-SM100
// RUN: not fa4-compile %s --chip=sm_90a --persistent-max-seq-kv=-2 -o %t --quiet 2>&1 | FileCheck %s --check-prefix=PERSIST
// Retired options (docs/Decisions.md) are unknown, not silently ignored.
// RUN: not fa4-compile %s --chip=sm_90a --fuse-work-tiles -o %t --quiet 2>&1 | FileCheck %s --check-prefix=RETIRED
// RUN: not fa4-compile %s --chip=sm_90a --l2-section-bytes=-1 -o %t --quiet 2>&1 | FileCheck %s --check-prefix=SECTION
// RUN: not fa4-compile %s --chip=sm_90a --loop-producer-registers=28 -o %t --quiet 2>&1 | FileCheck %s --check-prefix=PRODUCER
// RUN: not fa4-compile %s --chip=sm_90a --loop-producer-registers=72 -o %t --quiet 2>&1 | FileCheck %s --check-prefix=PRODUCER72
// RUN: not fa4-compile %s --chip=sm_90a --kv-multicast-causal-min-seq-kv=-1 -o %t --quiet 2>&1 | FileCheck %s --check-prefix=CAUSALPAIRS

// KIND: for the --kernel option: Cannot find option named 'fast'!
// CHIP: error: unknown chip 'sm_80'; expected sm_100a or sm_90a
// HOPPER-ON-SM100: fa4-compile: kernel=hopper builds sm_90a kernels, and chip is sm_100a
// PERSIST: error: 'attn.attention' op convert-attn-to-fa4: persistent-max-seq-kv is -2; expected -1 (the planner's rule), 0 (never) or a bound up to 2147483647
// SECTION: error: 'attn.attention' op convert-attn-to-fa4: l2-section-bytes is -1; expected 0 (heaviest first over every head) or an L2 budget in bytes
// RETIRED: fuse-work-tiles
// PRODUCER: error: 'attn.attention' op convert-attn-to-fa4: loop-producer-registers is 28; expected a multiple of 8 from 24 (FA3's split) to 64
// PRODUCER72: error: 'attn.attention' op convert-attn-to-fa4: loop-producer-registers is 72; expected a multiple of 8 from 24 (FA3's split) to 64
// CAUSALPAIRS: error: 'attn.attention' op convert-attn-to-fa4: kv-multicast-causal-min-seq-kv is -1; expected 0 (every causal kernel) or a key count

func.func @attention(%q: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %q, %q : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
// RUN: not fa4-compile %s --chip=sm_90a --kernel=blackwell -o %t --quiet 2>&1 | FileCheck %s --check-prefix=BLACKWELL-ON-SM90
// BLACKWELL-ON-SM90: fa4-compile: kernel=blackwell builds sm_100a kernels, and chip is sm_90a
// The same check under fa4-opt's pipeline.
// RUN: not fa4-opt %s "--fa4-compile=chip=sm_90a kernel=blackwell" 2>&1 | FileCheck %s --check-prefix=BLACKWELL-ON-SM90
// The lowering has no chip or structure option: the plan's chip picks the
// kernel (option groups: test/Conversion/AttnToFA4/blackwell-hopper-options.mlir).
// RUN: not fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=structure=hopper 2>&1 | FileCheck %s --check-prefix=STRUCTURE
// STRUCTURE: no such option structure
