// Every kernel module carries its ABI record (fa4-embed-abi-records): the
// manifest less its binary entries, as the global fa4_abi_record, which
// libfa4rt reads back and compares with the manifest it is given
// (runtime/lib/BinaryAbi.h). tools/abi-record.py makes the runtime's
// comparison on the PTX: for a kernel with a decode variant (each binary its
// own record, the kernel's holding the variant's), a workspace split-K (the
// combine kernel in the same module), a looped twin with its own plan, the
// Blackwell kernel and the reference kernel.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --ptxas=none -o %t --quiet
// RUN: FileCheck %s --input-file=%t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_sm_90a.ptx
// RUN: %python %S/../../tools/abi-record.py %t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_sm_90a.ptx --manifest %t/fa4_hopper_gqa_sm_90a/manifest.json
// RUN: %python %S/../../tools/abi-record.py %t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_decode_sm_90a.ptx --manifest %t/fa4_hopper_gqa_sm_90a/manifest.json --decode
// RUN: %python %S/../../tools/abi-record.py %t/fa4_hopper_gqa_sm_90a/fa4_hopper_gqa_sm_90a.ptx | FileCheck %s --check-prefix=RECORD
// RUN: fa4-compile %S/splitk-workspace-ptx.mlir --chip=sm_90a --ptxas=none --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 -o %t/split --quiet
// RUN: %python %S/../../tools/abi-record.py %t/split/fa4_hopper_mqa_sm_90a/fa4_hopper_mqa_sm_90a.ptx --manifest %t/split/fa4_hopper_mqa_sm_90a/manifest.json
// RUN: %python %S/../../tools/abi-record.py %t/split/fa4_hopper_mqa_sm_90a/fa4_hopper_mqa_sm_90a.ptx | FileCheck %s --check-prefix=COMBINE
// RUN: fa4-compile %S/manifest-twin-plan.mlir --chip=sm_90a --ptxas=none --decode-variants=false -o %t/twin --quiet
// RUN: %python %S/../../tools/abi-record.py %t/twin/fa4_hopper_d64_sm_90a/fa4_hopper_d64_sm_90a.ptx --manifest %t/twin/fa4_hopper_d64_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t/sm100 --quiet
// RUN: %python %S/../../tools/abi-record.py %t/sm100/fa4_blackwell_gqa_sm_100a/fa4_blackwell_gqa_sm_100a.ptx --manifest %t/sm100/fa4_blackwell_gqa_sm_100a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --kernel=reference --ptxas=none -o %t/ref --quiet
// RUN: %python %S/../../tools/abi-record.py %t/ref/fa4_ref_gqa_sm_90a/fa4_ref_gqa_sm_90a.ptx --manifest %t/ref/fa4_ref_gqa_sm_90a/manifest.json
// A manifest edited after compilation no longer matches.
// RUN: sed 's/"dynamic_smem_bytes": \([0-9]*\)/"dynamic_smem_bytes": 1\1/' %t/ref/fa4_ref_gqa_sm_90a/manifest.json > %t/ref/tampered.json
// RUN: not %python %S/../../tools/abi-record.py %t/ref/fa4_ref_gqa_sm_90a/fa4_ref_gqa_sm_90a.ptx --manifest %t/ref/tampered.json 2>&1 | FileCheck %s --check-prefix=TAMPERED

// CHECK: .visible .global .align 1 .b8 fa4_abi_record[{{[0-9]+}}] = {123, 34,

// RECORD: "decode": {
// RECORD: "manifest": {
// RECORD-NOT: "binary"
// RECORD: "kernel": "fa4_hopper_gqa_decode_sm_90a"
// RECORD-NOT: "binary"
// RECORD: "kernel": "fa4_hopper_gqa_sm_90a"

// COMBINE: "combine": {
// COMBINE: "kernel": "fa4_hopper_mqa_sm_90a_combine"
// COMBINE: "workspace": {

// TAMPERED: differ at launch.dynamic_smem_bytes

func.func @gqa(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>, %v: tensor<?x?x8x128xbf16>) -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16> -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}
