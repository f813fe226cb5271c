// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" --convert-attn-to-fa4 -verify-diagnostics

// MQA decode at B = 1 on sm_100a: the one work item would want more
// partitions than a 16-CTA cluster holds, so the planner picks the
// workspace combine, which is not lowered: the lowering says so instead of
// running an unsplit kernel.
func.func @mqa_decode_b1(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> tensor<?x?x8x128xbf16> {
  // expected-error @+1 {{has a workspace split-K plan}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
