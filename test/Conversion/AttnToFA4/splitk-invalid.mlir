// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" --convert-attn-to-fa4 -verify-diagnostics

// MQA decode at B = 1: one work item would want 64 partitions, more than a
// cluster holds, so the planner picks the workspace split-K. The sm_90a
// kernel lowers it (splitk-workspace.mlir); the sm_100a kernel does not yet
// and says so instead of running an unsplit kernel.
func.func @mqa_decode_b1(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>) -> tensor<?x?x8x128xbf16> {
  // expected-error @+1 {{'attn.attention' op has a workspace split-K plan (64 partitions, beyond one cluster); the sm_100a kernel lowers only the cluster reduce-scatter (cluster_dsmem)}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x8x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
