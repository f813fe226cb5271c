// The serving forms plan (plan-serving.mlir) but no kernel builder takes
// them yet: both conversions refuse them by name, on both chips and with
// the reference kernel, instead of writing no kernel for them.
// RUN: not fa4-compile %s --chip=sm_90a -o %t --quiet 2>&1 | FileCheck %s --check-prefix=VARLEN
// RUN: not fa4-compile %s --chip=sm_100a -o %t --quiet 2>&1 | FileCheck %s --check-prefix=VARLEN
// RUN: not fa4-compile %s --chip=sm_100a --kernel=reference -o %t --quiet 2>&1 | FileCheck %s --check-prefix=REF
// RUN: not fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 2>&1 | FileCheck %s --check-prefix=VARLEN
// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_90a -o /dev/null
// VARLEN: error: 'attn.varlen_attention' op is planned, but no kernel takes it yet: convert-attn-to-fa4 lowers the dense attn.attention (one Sq and Skv per launch)
// REF: error: 'attn.varlen_attention' op is planned, but no kernel takes it yet: convert-attn-to-reference-kernel lowers the dense attn.attention (one Sq and Skv per launch)

func.func @varlen(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<9xi32>, %ck: tensor<9xi32>) -> tensor<?x32x128xbf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>
  return %o : tensor<?x32x128xbf16>
}

func.func @paged(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x64x8x128xbf16>, %vc: tensor<?x64x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>, tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}
