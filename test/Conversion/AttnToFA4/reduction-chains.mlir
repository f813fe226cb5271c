// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefix=ONE
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=softmax-reduction-chains=4 | FileCheck %s --check-prefix=FOUR

// convert-attn-to-fa4{softmax-reduction-chains}: every softmax step of the
// fa3 kernels (the peeled step 0 and the loop's, in the plain kernel at
// 176-key tiles and its looped twin at 128) folds a row's max and sum in
// that many chains. One chain, the default, leaves the attribute out.
// ONE-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// ONE-NOT: reductionChains
// FOUR-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// FOUR-COUNT-2: fa4.softmax {{.*}} {reductionChains = 4 : i64, rescaleThreshold = 8.000000e+00 : f64} : <64x176xf32>, <64xf32>
// FOUR-NOT: fa4.softmax
// FOUR-LABEL: gpu.func @fa4_fa3_prefill_sm_90a_persistent(
// FOUR-COUNT-2: fa4.softmax {{.*}} {reductionChains = 4 : i64, rescaleThreshold = 8.000000e+00 : f64} : <64x128xf32>, <64xf32>
// FOUR-NOT: fa4.softmax
func.func @prefill(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x16x128xbf16>, %v: tensor<?x?x16x128xbf16>) -> tensor<?x?x16x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16>, tensor<?x?x16x128xbf16> -> tensor<?x?x16x128xbf16>
  return %o : tensor<?x?x16x128xbf16>
}
