// A decode compiled without size hints (Sq = 1, batch and Skv dynamic): the
// split-K is left to the launch. The manifest is version 9: the grid's x,
// the workspace and the combine's last parameter are the size symbol
// "splits", and workspace.split_at_launch records the rule the runtime
// picks it by (docs/KernelABI.md). The attention kernel reads the count
// from %nctaid.x. Without ptxas; splitk-at-launch-ptxas.mlir assembles
// both kernels.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=none -o %t | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/fa4_hopper_gqa_sm_90a/manifest.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_sm_90a.ptx

// PLAN: split-K: workspace, P = 132: batch or seqKV is dynamic with no hint, and each head is one work item (a decode): the runtime picks P per launch, min(floor(#SMs / W), 132, max(floor(seqKV / 384), min(floor(seqKV / 96), 48))) for W work items: at least 4 KV tiles of 96 keys per partition, or one where that leaves fewer than 48 partitions

// MANIFEST: "combine": {
// MANIFEST: "params": [
// MANIFEST: "value": "lse.stride.1"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "scalar",
// MANIFEST-NEXT: "type": "i32",
// MANIFEST-NEXT: "value": "splits"
// MANIFEST: "fa4_abi_version": 9,
// MANIFEST: "launch": {
// MANIFEST: "grid": [
// MANIFEST-NEXT: [
// MANIFEST-NEXT: "splits"
// MANIFEST-NEXT: ],
// MANIFEST: "workspace": {
// MANIFEST-NEXT: "bytes": [
// MANIFEST-NEXT: 1032,
// MANIFEST-NEXT: "splits",
// MANIFEST-NEXT: "b",
// MANIFEST-NEXT: "sq",
// MANIFEST-NEXT: "hq"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "split_at_launch": {
// MANIFEST-NEXT: "key_tile": 96,
// MANIFEST-NEXT: "max_partitions": 132,
// MANIFEST-NEXT: "min_keys_per_partition": 384,
// MANIFEST-NEXT: "min_partitions": 48
// MANIFEST-NEXT: }

// PTX: .visible .entry fa4_hopper_gqa_sm_90a(
// PTX: mov.u32 %r{{[0-9]+}}, %nctaid.x;
// PTX-NOT: barrier.cluster
// PTX: .visible .entry fa4_hopper_gqa_sm_90a_combine(

func.func @gqa(%q: tensor<?x1x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x1x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>
  return %o, %lse : tensor<?x1x32x128xbf16>, tensor<?x32x1xf32>
}
