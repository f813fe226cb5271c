// A static prefill of few work items (B = 1, 2 heads, Sq = 256, Skv = 16k)
// leaves SMs idle, but on sm_100a its work items are two 128-row Q tiles
// (BM = 256), which the Blackwell kernel does not split: the planner plans
// no split (reason two_q_tiles) instead of one the kernel refuses, and the
// kernel compiles; a split asked for is refused with that reason. sm_90a
// splits the same problem.
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a" | FileCheck %s
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_100a" --attn-explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: not fa4-opt %s --attn-plan-pipeline="chip=sm_100a split-k-partitions=4" 2>&1 | FileCheck %s --check-prefix=ASKED
// RUN: fa4-opt %s --attn-plan-pipeline="chip=sm_90a" | FileCheck %s --check-prefix=HOPPER
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t --quiet

// CHECK: #attn.splitk<mode = none, reason = two_q_tiles, partitions = 1,
// EXPLAIN: split-K: none, P = 1: 2 work item(s) leave SMs idle, but each is 2 Q tiles (BM = 256) and the Blackwell kernel splits only work items of one 128-row tile
// ASKED: error: 'attn.attention' op split-k-partitions 4 needs work items of one 128-row Q tile on sm_100a (the Blackwell kernel's split), but this plan's work items have 2 (BM = 256)
// HOPPER: #attn.splitk<mode = {{cluster_dsmem|workspace}}, reason = split,
func.func @few(%q: tensor<1x256x2x128xbf16>, %k: tensor<1x16384x2x128xbf16>, %v: tensor<1x16384x2x128xbf16>) -> tensor<1x256x2x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<1x256x2x128xbf16>, tensor<1x16384x2x128xbf16>, tensor<1x16384x2x128xbf16> -> tensor<1x256x2x128xbf16>
  return %o : tensor<1x256x2x128xbf16>
}
