// The backward pass through fa4-compile (issue 63): kernel=auto leaves it
// to the reference kernel on both chips. The manifest is version 16 with
// problem.pass "backward"; o and lse are inputs, dout one more, and dq, dk
// and dv the outputs. ptxas assembles the kernel without a spill.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=%ptxas -o %t/h --quiet > %t.h.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t.h.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/h/fa4_ref_bwd_train_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_100a --ptxas=%ptxas -o %t/b --quiet > %t.b.log
// RUN: FileCheck %s --check-prefix=PTXAS < %t.b.log
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/b/fa4_ref_bwd_train_sm_100a/manifest.json

// PTXAS: Compiling entry function 'fa4_ref_bwd_train_sm_{{90|100}}a'
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

// MANIFEST: "fa4_abi_version": 16,
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "ceil_div": [
// MANIFEST-NEXT: "sq",
// MANIFEST-NEXT: 4
// MANIFEST: "hq"
// MANIFEST: "b",
// MANIFEST-NEXT: 2
// MANIFEST: "problem": {
// MANIFEST: "mask": {
// MANIFEST-NEXT: "kind": "causal",
// MANIFEST: "pass": "backward",
// MANIFEST: "tensors": [
// MANIFEST: "name": "o",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "lse",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "dout",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "dq",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: "b",
// MANIFEST-NEXT: "sq",
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 128
// MANIFEST: "name": "dk",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "name": "dv",
// MANIFEST-NEXT: "role": "output",
func.func @train(%do: tensor<?x?x8x128xbf16>, %q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x2x128xbf16>, %v: tensor<?x?x2x128xbf16>, %o: tensor<?x?x8x128xbf16>, %lse: tensor<?x8x?xf32>) -> (tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x128xbf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<causal>} : tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x8x?xf32> -> tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x128xbf16>
  return %dq, %dk, %dv : tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x128xbf16>
}
