// A looped twin with its own plan: at d = 64 for a dynamic Skv the planner
// gives the kernel, which runs Skv > 1024 (2048 under a causal mask), three
// consumer warpgroups, and its twin, which runs the shorter ones, two
// (twin_config) at 128-key tiles. The manifest (version 6) gives the twin
// its own parameters (a 128-key K/V box, as the kernel's), threads, 128-row
// work tiles and shared memory.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=none --decode-variants=false -o %t --quiet
// RUN: FileCheck %s < %t/fa4_hopper_d64_sm_90a/manifest.json
// RUN: FileCheck %s --check-prefix=CAUSAL < %t/fa4_hopper_d64_causal_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none --decode-variants=false --consumer-warpgroups=2 -o %t/two --quiet
// RUN: FileCheck %s --check-prefix=TWO < %t/two/fa4_hopper_d64_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none --decode-variants=false --consumer-warpgroups=2 --block-n=176 -o %t/shared --quiet
// RUN: FileCheck %s --check-prefix=SHARED < %t/shared/fa4_hopper_d64_sm_90a/manifest.json

// CHECK:      "fa4_abi_version": 6,
// CHECK:      "launch": {
// CHECK-NEXT:   "block": [
// CHECK-NEXT:     512,
// CHECK:        "dynamic_smem_bytes": {{[0-9]+}},
// CHECK-NEXT:   "grid": [
// CHECK-NEXT:     [
// CHECK-NEXT:       {
// CHECK-NEXT:         "ceil_div": [
// CHECK-NEXT:           "sq",
// CHECK-NEXT:           192
// CHECK:        "persistent": {
// CHECK-NEXT:     "ctas_per_sm": 1,
// CHECK-NEXT:     "kernel": "fa4_hopper_d64_sm_90a_persistent",
// CHECK-NEXT:     "max_seq_kv": 1024
// CHECK:      "params": [
// CHECK:              128,
// CHECK:          "tensor": "k"
// CHECK:      "twin": {
// CHECK-NEXT:   "launch": {
// CHECK-NEXT:     "block": [
// CHECK-NEXT:       384,
// CHECK:          "dynamic_smem_bytes": {{[0-9]+}},
// CHECK-NEXT:     "grid": [
// CHECK-NEXT:       [
// CHECK-NEXT:         {
// CHECK-NEXT:           "ceil_div": [
// CHECK-NEXT:             "sq",
// CHECK-NEXT:             128
// CHECK:        "params": [
// CHECK:                128,
// CHECK:            "tensor": "k"

// Held to two consumers, the kernel takes 176-key tiles and the twin still
// its own 128 (as at d = 128).
// TWO:      "fa4_abi_version": 6,
// TWO:      "params": [
// TWO:              176,
// TWO:          "tensor": "k"
// TWO:      "twin": {
// TWO:        "params": [
// TWO:                128,
// TWO:            "tensor": "k"
// With a tile asked for too, the twin shares the kernel's plan (version 5).
// SHARED:      "fa4_abi_version": 5,
// SHARED-NOT:  "twin"
func.func @d64(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}

// CAUSAL:      "persistent": {
// CAUSAL-NEXT:     "ctas_per_sm": 1,
// CAUSAL-NEXT:     "kernel": "fa4_hopper_d64_causal_sm_90a_persistent",
// CAUSAL-NEXT:     "max_seq_kv": 2048
func.func @d64_causal(%q: tensor<?x?x16x64xbf16>, %k: tensor<?x?x16x64xbf16>, %v: tensor<?x?x16x64xbf16>) -> tensor<?x?x16x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16>, tensor<?x?x16x64xbf16> -> tensor<?x?x16x64xbf16>
  return %o : tensor<?x?x16x64xbf16>
}
