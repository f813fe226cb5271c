// A kernel compiled with no sizes at all gets a decode variant: its own
// kernel and binary beside the kernel's, its whole manifest (a split-K
// picked at launch, version 7) under "decode", launched for sq <= 16 (the
// query rows of a work item of 4 fused q-heads: 64 / 4). A query-length
// hint, or --decode-variants=false, leaves the kernel alone.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=none -o %t --quiet
// RUN: FileCheck %s < %t/fa4_hopper_gqa_sm_90a/manifest.json
// RUN: ls %t | FileCheck %s --check-prefix=DIRS
// RUN: ls %t/fa4_hopper_gqa_sm_90a | FileCheck %s --check-prefix=FILES
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none --seq-q-hint=1 -o %t/hinted --quiet
// RUN: FileCheck %s --check-prefix=NONE < %t/hinted/fa4_hopper_gqa_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none --decode-variants=false -o %t/off --quiet
// RUN: FileCheck %s --check-prefix=NONE < %t/off/fa4_hopper_gqa_sm_90a/manifest.json
// With a batch hint of 64 the variant is the unsplit persistent decode
// kernel (one wave of work items already), its grid flattened; the rows
// of a work item stay 16.
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none --batch-hint=64 --seq-kv-hint=8192 -o %t/b64 --quiet
// RUN: FileCheck %s --check-prefix=B64 < %t/b64/fa4_hopper_gqa_sm_90a/manifest.json
// The reference kernel has one plan for every shape.
// RUN: fa4-compile %s --chip=sm_90a --kernel=reference --ptxas=none -o %t/ref --quiet
// RUN: FileCheck %s --check-prefix=NONE < %t/ref/fa4_ref_gqa_sm_90a/manifest.json

// Keys in order: the kernel's binary, then its decode variant's whole
// manifest, then the kernel's version and name.
// CHECK: "binary": {
// CHECK-NEXT: "file": "fa4_hopper_gqa_sm_90a.ptx",
// CHECK: "decode": {
// CHECK-NEXT: "manifest": {
// CHECK: "binary": {
// CHECK-NEXT: "file": "fa4_hopper_gqa_decode_sm_90a.ptx",
// CHECK: "kernel": "fa4_hopper_gqa_decode_sm_90a_combine",
// CHECK: "fa4_abi_version": 9,
// CHECK-NEXT: "kernel": "fa4_hopper_gqa_decode_sm_90a",
// CHECK-NEXT: "launch": {
// CHECK: "grid": [
// CHECK-NEXT: [
// CHECK-NEXT: "splits"
// CHECK: "split_at_launch": {
// CHECK: "max_seq_q": 16
// CHECK-NEXT: },
// The kernel runs in pairs (kv-multicast) beside its looped twin: version
// 10, which its variant's 9 does not lower.
// CHECK-NEXT: "fa4_abi_version": 10,
// CHECK-NEXT: "kernel": "fa4_hopper_gqa_sm_90a",
// The kernel's own plan has no split.
// CHECK-NOT: "split_at_launch"

// The variant is not an artifact of its own.
// DIRS: fa4_hopper_gqa_sm_90a
// DIRS-NOT: decode
// FILES: fa4_hopper_gqa_decode_sm_90a.ptx
// FILES-NEXT: fa4_hopper_gqa_sm_90a.ptx
// FILES-NEXT: manifest.json

// B64: "decode": {
// B64: "kernel": "fa4_hopper_gqa_decode_sm_90a",
// B64-NEXT: "launch": {
// B64: "grid": [
// B64-NEXT: [
// B64-NEXT: {
// B64-NEXT: "ceil_div": [
// B64-NEXT: "sq",
// B64-NEXT: 16
// B64: "persistent": {
// B64-NOT: "workspace"
// B64: "max_seq_q": 16

// NONE-NOT: "decode"
// NONE-NOT: "fa4_abi_version": 8

func.func @gqa(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}
