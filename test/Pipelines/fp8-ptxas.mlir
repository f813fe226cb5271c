// An FP8 kernel (issue 62) through fa4-compile on sm_100a: e4m3 Q, K and V
// with a descale for the tensor (Q) and per batch and kv-head (K, V), O
// bf16, and its decode variant (a workspace split-K). ptxas assembles every
// kernel without a spill. The manifest is version 15: problem.dtype e4m3,
// output_dtype bf16, the descales' forms and tensors; Q/K/V's tensor maps
// have 64-byte swizzles, O's 128 bytes. The PTX rounds P to e4m3 pairs and
// issues kind::f8f6f4 MMAs.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_100a --ptxas=%ptxas -o %t --quiet > %t.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/fa4_blackwell_fp8_sm_100a/manifest.json
// RUN: FileCheck %s --check-prefix=PTX < %t/fa4_blackwell_fp8_sm_100a/fa4_blackwell_fp8_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/fa4_blackwell_fp8_sm_100a/fa4_blackwell_fp8_decode_sm_100a.ptx

// PTXAS: Compiling entry function 'fa4_blackwell_fp8_sm_100a' for 'sm_100a'
// PTXAS-NEXT: Function properties for fa4_blackwell_fp8_sm_100a
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS: Compiling entry function 'fa4_blackwell_fp8_decode_sm_100a' for 'sm_100a'
// PTXAS-NEXT: Function properties for fa4_blackwell_fp8_decode_sm_100a
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// The decode variant, nested first, then the kernel's own entries.
// MANIFEST: "decode": {
// MANIFEST: "swizzle": "64B",
// MANIFEST-NEXT: "tensor": "q"
// MANIFEST: "tensor": "q_descale"
// MANIFEST: "output_dtype": "bf16"
// MANIFEST: "fa4_abi_version": 15
// MANIFEST: "swizzle": "64B",
// MANIFEST-NEXT: "tensor": "q"
// MANIFEST: "swizzle": "64B",
// MANIFEST-NEXT: "tensor": "k"
// MANIFEST: "swizzle": "64B",
// MANIFEST-NEXT: "tensor": "v"
// MANIFEST: "swizzle": "128B",
// MANIFEST-NEXT: "tensor": "o"
// MANIFEST: "tensor": "q_descale"
// MANIFEST: "tensor": "k_descale"
// MANIFEST: "value": "k_descale.stride.0"
// MANIFEST: "tensor": "v_descale"
// MANIFEST: "value": "v_descale.stride.0"
// MANIFEST: "dtype": "e4m3",
// MANIFEST-NEXT: "has_lse": false,
// MANIFEST-NEXT: "k_descale": "batch_head",
// MANIFEST: "output_dtype": "bf16",
// MANIFEST-NEXT: "ov_depth": 128,
// MANIFEST-NEXT: "q_descale": "tensor",
// MANIFEST: "v_descale": "batch_head"
// MANIFEST: "dtype": "e4m3",
// MANIFEST-NEXT: "name": "q"
// MANIFEST: "dtype": "bf16",
// MANIFEST-NEXT: "name": "o"
// MANIFEST: "dtype": "f32",
// MANIFEST-NEXT: "name": "q_descale",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": []
// MANIFEST: "dtype": "f32",
// MANIFEST-NEXT: "name": "k_descale",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: "b",
// MANIFEST-NEXT: 8
// MANIFEST-NEXT: ]

// PTX-COUNT-2: cvt.rn.satfinite.e4m3x2.f32
// PTX: tcgen05.mma.cta_group::1.kind::f8f6f4
func.func @fp8(%q: tensor<?x?x8x128xf8E4M3FN>, %k: tensor<?x?x8x128xf8E4M3FN>, %v: tensor<?x?x8x128xf8E4M3FN>, %qd: tensor<f32>, %kd: tensor<?x8xf32>, %vd: tensor<?x8xf32>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v q_descale(%qd : tensor<f32>) k_descale(%kd : tensor<?x8xf32>) v_descale(%vd : tensor<?x8xf32>) {mask = #attn.mask<causal>} : tensor<?x?x8x128xf8E4M3FN>, tensor<?x?x8x128xf8E4M3FN>, tensor<?x?x8x128xf8E4M3FN> -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
