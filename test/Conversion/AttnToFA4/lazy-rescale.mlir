// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefix=LAZY
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=lazy-rescale=0 | FileCheck %s --check-prefix=EAGER

// convert-attn-to-fa4{lazy-rescale}, on by default: FA4's lazy rescale in
// the FA3 structure. Every softmax step keeps a row's max until it grows
// by more than 2^8 (rescaleThreshold = 8, exp2 domain), and O is rescaled
// with `scale_rows lazy`, which a warp whose rows all kept their max skips.
// Prefill (the peeled step 0 and the loop) and decode alike; with
// lazy-rescale=0 the softmax moves its max every time and O is always
// rescaled.
// LAZY-LABEL: func @prefill
// LAZY-COUNT-2: fa4.softmax {{.*}} {rescaleThreshold = 8.000000e+00 : f64} : <64x176xf32>, <64xf32>
// LAZY-NOT: fa4.softmax
// LAZY: fa4.scale_rows lazy %{{.*}} by %{{.*}} : <64x128xf32>, <64xf32>
// LAZY-NOT: fa4.scale_rows
// LAZY: fa4.epilogue
// EAGER-LABEL: func @prefill
// EAGER-NOT: rescaleThreshold
// EAGER-NOT: scale_rows lazy
// EAGER: fa4.scale_rows %{{.*}} by %{{.*}} : <64x128xf32>, <64xf32>
// EAGER-NOT: rescaleThreshold
// EAGER-NOT: scale_rows lazy
// EAGER: fa4.epilogue
func.func @prefill(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}

// -----

// The split-K decode: its partials' (max, sum) pairs stay consistent with
// their O, so the combine needs nothing new.
// LAZY-LABEL: func @decode
// LAZY: fa4.softmax {{.*}} {rescaleThreshold = 8.000000e+00 : f64}
// LAZY: fa4.scale_rows lazy
// EAGER-LABEL: func @decode
// EAGER-NOT: rescaleThreshold
// EAGER-NOT: scale_rows lazy
// EAGER: fa4.scale_rows %
// EAGER-NOT: rescaleThreshold
// EAGER-NOT: scale_rows lazy
// EAGER: fa4.splitk.stage
func.func @decode(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16> -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}

// -----

// Dv = 64: O's 32 multiplies per thread cost less than the branch costs
// the schedule (bench/RESULTS.md), so the default keeps the eager rescale.
// LAZY-LABEL: func @depth64
// LAZY-NOT: rescaleThreshold
// LAZY-NOT: scale_rows lazy
// LAZY: fa4.scale_rows %{{.*}} by %{{.*}} : <64x64xf32>, <64xf32>
// LAZY-NOT: rescaleThreshold
// LAZY-NOT: scale_rows lazy
// LAZY: fa4.epilogue
// EAGER-LABEL: func @depth64
func.func @depth64(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
