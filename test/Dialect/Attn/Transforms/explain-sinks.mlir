// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --attn-explain 2>&1 | FileCheck %s

// attn-explain prints an op's sinks under its problem line, and how the
// kernels take them; the plan itself is made as without them.
// CHECK: problem: bf16, Hq 4 / Hkv 2 (group 2), Dqk 64, Dv 64, mask #attn.mask<causal>, scale
// CHECK-NEXT: sinks: one logit per query head joins each row's max and sum, with no value row; each row's softmax starts from its sink (fa4.sink.rows), in the first partition of a split-K only
// CHECK: config: sm_100a
func.func @sinks(%q: tensor<2x7x4x64xbf16>, %k: tensor<2x5x2x64xbf16>, %v: tensor<2x5x2x64xbf16>, %s: tensor<4xf32>) -> tensor<2x7x4x64xbf16> {
  %o = attn.attention %q, %k, %v sinks(%s : tensor<4xf32>) {mask = #attn.mask<causal>} : tensor<2x7x4x64xbf16>, tensor<2x5x2x64xbf16>, tensor<2x5x2x64xbf16> -> tensor<2x7x4x64xbf16>
  return %o : tensor<2x7x4x64xbf16>
}
