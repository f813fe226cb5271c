// fa4-embed-abi-records puts each kernel's ABI record (its manifest less
// the binary entries) into its gpu.module as an external constant, which
// LLVM keeps though no kernel reads it; a module that already has one, or
// an op whose kernel module is gone, is an error.
// RUN: fa4-opt %s --split-input-file --convert-attn-to-reference-kernel="chip=sm_90a" --fa4-embed-abi-records | FileCheck %s
// RUN: fa4-opt %s --split-input-file --convert-attn-to-reference-kernel="chip=sm_90a" --fa4-embed-abi-records --fa4-embed-abi-records -verify-diagnostics

// CHECK-LABEL: gpu.module @fa4_ref_mha_sm_90a_module
// CHECK-NEXT: llvm.mlir.global external constant @fa4_abi_record("{\22alignment\22:{\22unit_stride_last_dim\22:true},\22chip\22:\22sm_90a\22,\22fa4_abi_version\22:2,\22kernel\22:\22fa4_ref_mha_sm_90a\22,\22launch\22:{\22block\22:[128,1,1],\22cluster\22:[1,1,1],\22dynamic_smem_bytes\22:0,
// CHECK-SAME: \22problem\22:{\22batch\22:2,
// CHECK-SAME: \22tensors\22:[{\22alignment\22:{{.*}},\22dtype\22:\22bf16\22,\22name\22:\22q\22,\22role\22:\22input\22,\22shape\22:[2,\22sq\22,4,64]}
// CHECK-SAME: addr_space = 1
// CHECK-NOT: binary
func.func @mha(%q: tensor<2x?x4x64xbf16>, %k: tensor<2x?x4x64xbf16>, %v: tensor<2x?x4x64xbf16>) -> tensor<2x?x4x64xbf16> {
  // expected-error @below {{kernel module fa4_ref_mha_sm_90a_module already holds fa4_abi_record}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<2x?x4x64xbf16>, tensor<2x?x4x64xbf16>, tensor<2x?x4x64xbf16> -> tensor<2x?x4x64xbf16>
  return %o : tensor<2x?x4x64xbf16>
}
