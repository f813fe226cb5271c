// The split-K tuning overrides of attn-plan-splitk (also on
// attn-plan-pipeline and fa4-compile): split-k-partitions replaces the
// planner's count, split-k-workspace combines through the workspace even
// when the partitions fit a cluster. GQA decode 32/8, d = 128, B = 1,
// Skv = 32k on sm_90a, where the planner's own rule picks 8-CTA clusters
// (BN = 96: 342 KV tiles per work item).
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768" | FileCheck %s --check-prefix=RULE
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=16 split-k-workspace=1" | FileCheck %s --check-prefix=WS16
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=4" | FileCheck %s --check-prefix=C4
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-workspace=1" | FileCheck %s --check-prefix=WS
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=16 split-k-workspace=1" --attn-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: not fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=343" 2>&1 | FileCheck %s --check-prefix=TOO-MANY
// One partition turns the split off; 0 and negative counts are refused.
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=1" | FileCheck %s --check-prefix=ONE
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=1" --attn-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE-EXPLAIN
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=1" | FileCheck %s --check-prefix=ONE
// RUN: not fa4-opt %s --attn-plan-pipeline="chip=sm_90a batch-hint=1 seq-q-hint=1 seq-kv-hint=32768 split-k-partitions=-3" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// RULE: #attn.splitk<mode = cluster_dsmem, reason = split, partitions = 8, cluster_size = 8,
// 16 partitions of 2112 keys (a multiple of BN = 96) through the workspace.
// WS16: #attn.splitk<mode = workspace, reason = override, partitions = 16, cluster_size = 1, kv_per_partition = 2112,
// Four partitions fit a cluster: the cluster reduce-scatter, bands of 32.
// C4: #attn.splitk<mode = cluster_dsmem, reason = override, partitions = 4, cluster_size = 4, kv_per_partition = 8256,
// C4-SAME: band_columns = 32
// The rule's count through the workspace: floor(132 / 8) = 16, without the
// cap at 8 that only the cluster combine measured better with.
// WS: #attn.splitk<mode = workspace, reason = override, partitions = 16, cluster_size = 1,
// EXPLAIN: split-K: workspace, P = 16: asked for with split-k-partitions / split-k-workspace (a tuning override): 16 partitions of 2112 of 32768 keys give 128 CTAs
// EXPLAIN-NEXT: split-k-workspace asked for the workspace: f32 partials and LSE go to a workspace, a combine kernel reduces them
// TOO-MANY: error: 'attn.attention' op split-k-partitions must be 1 (no split) or 2 to 342 (a KV tile of 96 keys each, over the 32768 keys a work item visits), but got 343
// ONE: #attn.splitk<mode = none, reason = override, partitions = 1,
// ONE-EXPLAIN: split-K: none, P = 1: split-k-partitions = 1 asked for no split
// NEGATIVE: error: {{.*}}split-k-partitions{{.*}}-3
func.func @gqa_decode(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x32x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>
  return %o : tensor<?x?x32x128xbf16>
}
