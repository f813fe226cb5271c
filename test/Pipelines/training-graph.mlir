// A training graph's attention through fa4 (issue 63): the autodiff link
// (AttentionOp::buildBackward, run by -test-attention-backward) gives the
// forward op its backward op, and the fa4-compile pipeline with
// kernel=auto lowers both on each chip: the forward to the chip's kernel,
// the backward to the reference backward kernel (D-70), each to PTX.
// RUN: fa4-opt %s --test-attention-backward --fa4-compile="chip=sm_90a" 2>/dev/null | FileCheck %s --check-prefixes=CHECK,SM90
// RUN: fa4-opt %s --test-attention-backward --fa4-compile="chip=sm_100a" 2>/dev/null | FileCheck %s --check-prefixes=CHECK,SM100

// CHECK: attn.attention
// SM90-SAME: fa4.abi = #fa4.abi<kernel = @fa4_hopper_train_sm_90a_module::@fa4_hopper_train_sm_90a
// SM100-SAME: fa4.abi = #fa4.abi<kernel = @fa4_blackwell_train_sm_100a_module::@fa4_blackwell_train_sm_100a
// CHECK: attn.attention_backward
// CHECK-SAME: fa4.abi = #fa4.abi<kernel = @fa4_ref_bwd_train_[[CHIP:sm_[0-9a]+]]_module::@fa4_ref_bwd_train_[[CHIP]]
// CHECK-DAG: gpu.binary @fa4_ref_bwd_train_[[CHIP]]_module
// SM90-DAG: gpu.binary @fa4_hopper_train_sm_90a_module
// SM100-DAG: gpu.binary @fa4_blackwell_train_sm_100a_module
func.func @train(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x2x64xbf16>, %v: tensor<?x?x2x64xbf16>) -> tensor<?x?x8x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16> -> tensor<?x?x8x64xbf16>
  return %o : tensor<?x?x8x64xbf16>
}
