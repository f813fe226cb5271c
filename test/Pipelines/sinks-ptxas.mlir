// Kernels with attention sinks (issue 61) through fa4-compile on both
// chips: a dense GQA causal prefill with LSE (and its decode variant) and
// softcapped packed sequences. The manifests are version 14, carry
// problem.sinks and list the f32 [hq] sinks tensor after O and LSE; the
// PTX loads each row's sink once and takes it to the exp2 domain; ptxas
// assembles every kernel without a spill.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=%ptxas -o %t/h --quiet > %t.h.log
// RUN: FileCheck %s --check-prefix=HOPPER < %t.h.log
// RUN: fa4-compile %s --chip=sm_100a --ptxas=%ptxas -o %t/b --quiet > %t.b.log
// RUN: FileCheck %s --check-prefix=BLACKWELL < %t.b.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/h/fa4_hopper_sunk_sm_90a/manifest.json
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/b/fa4_blackwell_sunk_sm_100a/manifest.json
// RUN: FileCheck %s --check-prefix=VARLEN < %t/b/fa4_blackwell_sunk_varlen_sm_100a/manifest.json
// RUN: FileCheck %s --check-prefix=PTX < %t/h/fa4_hopper_sunk_sm_90a/fa4_hopper_sunk_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/h/fa4_hopper_sunk_sm_90a/fa4_hopper_sunk_decode_sm_90a.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/b/fa4_blackwell_sunk_sm_100a/fa4_blackwell_sunk_sm_100a.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/b/fa4_blackwell_sunk_varlen_sm_100a/fa4_blackwell_sunk_varlen_sm_100a.ptx

// HOPPER: Compiling entry function 'fa4_hopper_sunk_sm_90a_persistent' for 'sm_90a'
// HOPPER-NEXT: Function properties for fa4_hopper_sunk_sm_90a_persistent
// HOPPER-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// HOPPER: Compiling entry function 'fa4_hopper_sunk_sm_90a' for 'sm_90a'
// HOPPER-NEXT: Function properties for fa4_hopper_sunk_sm_90a
// HOPPER-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// HOPPER: Compiling entry function 'fa4_hopper_sunk_decode_sm_90a' for 'sm_90a'
// HOPPER-NEXT: Function properties for fa4_hopper_sunk_decode_sm_90a
// HOPPER-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// HOPPER: Compiling entry function 'fa4_hopper_sunk_varlen_sm_90a' for 'sm_90a'
// HOPPER-NEXT: Function properties for fa4_hopper_sunk_varlen_sm_90a
// HOPPER-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// BLACKWELL: Compiling entry function 'fa4_blackwell_sunk_sm_100a' for 'sm_100a'
// BLACKWELL-NEXT: Function properties for fa4_blackwell_sunk_sm_100a
// BLACKWELL-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// BLACKWELL: Compiling entry function 'fa4_blackwell_sunk_decode_sm_100a' for 'sm_100a'
// BLACKWELL-NEXT: Function properties for fa4_blackwell_sunk_decode_sm_100a
// BLACKWELL-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// BLACKWELL: Compiling entry function 'fa4_blackwell_sunk_varlen_sm_100a' for 'sm_100a'
// BLACKWELL-NEXT: Function properties for fa4_blackwell_sunk_varlen_sm_100a
// BLACKWELL-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// The kernel's manifest and its decode variant's, nested in it.
// MANIFEST: "fa4_abi_version": 14
// MANIFEST: "sinks": true
// MANIFEST: "name": "lse"
// MANIFEST-NEXT: "role": "output"
// MANIFEST: "dtype": "f32"
// MANIFEST-NEXT: "name": "sinks"
// MANIFEST-NEXT: "role": "input"
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 16
// MANIFEST-NEXT: ]
// MANIFEST: "fa4_abi_version": 14
// MANIFEST: "sinks": true
// VARLEN: "fa4_abi_version": 14
// VARLEN: "sequences": "packed"
// VARLEN: "sinks": true
// VARLEN: "softcap": 50
// VARLEN: "name": "sinks"

// PTX: ld.global.b32 %r[[SINK:[0-9]+]], [%rd{{[0-9]+}}];{{[[:space:]]+}}mul.rn.f32 %r{{[0-9]+}}, %r[[SINK]], 0f3FB8AA3B;

func.func @sunk(%q: tensor<?x?x16x128xbf16>, %k: tensor<?x?x4x128xbf16>, %v: tensor<?x?x4x128xbf16>, %s: tensor<16xf32>) -> (tensor<?x?x16x128xbf16>, tensor<?x16x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v sinks(%s : tensor<16xf32>) {mask = #attn.mask<causal>} : tensor<?x?x16x128xbf16>, tensor<?x?x4x128xbf16>, tensor<?x?x4x128xbf16> -> tensor<?x?x16x128xbf16>, tensor<?x16x?xf32>
  return %o, %lse : tensor<?x?x16x128xbf16>, tensor<?x16x?xf32>
}

func.func @sunk_varlen(%q: tensor<?x8x64xf16>, %k: tensor<?x2x64xf16>, %v: tensor<?x2x64xf16>, %cq: tensor<?xi32>, %ck: tensor<?xi32>, %s: tensor<8xf32>) -> tensor<?x8x64xf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<?xi32>, tensor<?xi32>) sinks(%s : tensor<8xf32>) {softcap = 50.0 : f32} : tensor<?x8x64xf16>, tensor<?x2x64xf16>, tensor<?x2x64xf16> -> tensor<?x8x64xf16>
  return %o : tensor<?x8x64xf16>
}
