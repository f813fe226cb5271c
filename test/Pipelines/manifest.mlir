// The manifest the pipeline writes (docs/KernelABI.md): the problem, tensors
// with their alignment rules, parameters in kernel order, and the launch, for
// both kernels; version 4 for the fa3 kernel, which waits for prior grids
// itself and so allows a programmatic dependent launch, version 2 for the
// reference kernel, which does not. No ptxas: the binary is the PTX.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=none -o %t --quiet
// RUN: FileCheck %s --check-prefix=FA3 < %t/fa4_hopper_gqa_window_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --kernel=reference --ptxas=none -o %t/ref --quiet
// RUN: FileCheck %s --check-prefix=REF < %t/ref/fa4_ref_gqa_window_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --persistent-max-seq-kv=2048 --ptxas=none -o %t/persistent --quiet
// RUN: FileCheck %s --check-prefix=PERSIST < %t/persistent/fa4_hopper_gqa_window_sm_90a/manifest.json

// FA3:      "alignment": {
// FA3-NEXT:   "unit_stride_last_dim": true
// FA3:      "binary": {
// FA3-NEXT:   "file": "fa4_hopper_gqa_window_sm_90a.ptx",
// FA3-NEXT:   "format": "ptx"
// FA3:      "chip": "sm_90a",
// FA3-NEXT: "fa4_abi_version": 4,
// FA3-NEXT: "kernel": "fa4_hopper_gqa_window_sm_90a",
// FA3:      "block": [
// FA3-NEXT:   384,
// FA3:      "dynamic_smem_bytes": 213120,
// FA3-NEXT: "grid": [
// FA3-NEXT:   [
// FA3-NEXT:     {
// FA3-NEXT:       "ceil_div": [
// FA3-NEXT:         "sq",
// FA3-NEXT:         128
// FA3:          "hq",
// FA3-NEXT:     "b"
// FA3-NOT:    "persistent"
// FA3:        "programmatic_dependent_launch": true
// The tensor maps come first, with the plan's boxes; then O, LSE, sizes,
// strides and the scale.
// FA3:      "params": [
// FA3:        "box": [
// FA3-NEXT:     1,
// FA3-NEXT:     64,
// FA3-NEXT:     1,
// FA3-NEXT:     64
// FA3:        "kind": "tensor_map",
// FA3:        "swizzle": "128B",
// FA3-NEXT:   "tensor": "q"
// FA3:        "tensor": "k"
// FA3:        "tensor": "v"
// FA3:        "kind": "pointer",
// FA3-NEXT:   "tensor": "o"
// FA3:        "tensor": "lse"
// FA3:        "value": "b"
// FA3:        "value": "sq"
// FA3:        "value": "skv"
// FA3:        "value": "scale_log2"
// FA3:      "problem": {
// FA3-NEXT:   "batch": -1,
// FA3-NEXT:   "dtype": "bf16",
// FA3-NEXT:   "has_lse": true,
// FA3-NEXT:   "mask": {
// FA3-NEXT:     "kind": "window",
// FA3-NEXT:     "window_left": 64,
// FA3-NEXT:     "window_right": 0
// FA3:        "num_kv_heads": 2,
// FA3-NEXT:   "num_q_heads": 8,
// FA3-NEXT:   "ov_depth": 128,
// FA3-NEXT:   "qk_depth": 128,
// FA3-NEXT:   "scale": 0.088388347648
// Q, K, V are read by TMA, and O stored by TMA (16 bytes: the window kernel
// has no looped twin, so its one kernel is the plain one); LSE is stored 4
// bytes at a time.
// FA3:      "tensors": [
// FA3:          "base_bytes": 16,
// FA3-NEXT:     "stride_bytes": 16
// FA3:        "name": "q",
// FA3:          "base_bytes": 16,
// FA3:        "name": "k",
// FA3:          "base_bytes": 16,
// FA3:        "name": "v",
// FA3:          "base_bytes": 16,
// FA3-NEXT:     "stride_bytes": 16
// FA3:        "name": "o",
// FA3-NEXT:   "role": "output",
// FA3:          "base_bytes": 4,
// FA3:        "dtype": "f32",
// FA3-NEXT:   "name": "lse",
// FA3:          "b",
// FA3-NEXT:     8,
// FA3-NEXT:     "sq"

// persistent-max-seq-kv: the launch's persistent rule (version 5: with the
// looped twin kernel it launches), the grid unchanged.
// PERSIST:      "fa4_abi_version": 5,
// PERSIST:      "launch": {
// PERSIST:        "grid": [
// PERSIST-NEXT:     [
// PERSIST-NEXT:       {
// PERSIST-NEXT:         "ceil_div": [
// PERSIST:        "persistent": {
// PERSIST-NEXT:     "ctas_per_sm": 1,
// PERSIST-NEXT:     "kernel": "fa4_hopper_gqa_window_sm_90a_persistent",
// PERSIST-NEXT:     "max_seq_kv": 2048
// PERSIST-NEXT:   },

// The reference kernel loads elements one at a time: element alignment.
// REF-NOT:  programmatic_dependent_launch
// REF:      "fa4_abi_version": 2,
// REF:      "block": [
// REF-NEXT:   128,
// REF:      "dynamic_smem_bytes": 0,
// REF-NEXT: "grid": [
// REF-NOT:  programmatic_dependent_launch
// REF:      "params": [
// REF:      "kind": "pointer",
// REF-NEXT:   "tensor": "q"
// REF:      "tensors": [
// REF:          "base_bytes": 2,
// REF-NEXT:     "stride_bytes": 2
// REF:        "name": "q",
func.func @gqa_window(%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x2x128xbf16>, %v: tensor<?x?x2x128xbf16>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>}
      : tensor<?x?x8x128xbf16>, tensor<?x?x2x128xbf16>, tensor<?x?x2x128xbf16>
      -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}
