// The serving forms' reference kernels on both chips (kernel=reference, and
// kernel=auto for the plans no fast kernel takes, such as this paged op's
// pages of 16 keys, which its plan gathers row by row, with a remark
// naming the reason). A fast kernel
// named explicitly refuses a form it does not serve by name instead of
// writing no kernel. Their manifests (ABI version 12) list the serving
// tensors and sizes; numerics on fa4-emu: test/Emulator/serving-reference.test.
// The fast kernels of the serving forms: test/Pipelines/hopper-serving.mlir,
// blackwell-serving.mlir.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --kernel=reference --ptxas=none -o %t/h --quiet
// RUN: FileCheck %s --check-prefix=VARLEN < %t/h/fa4_ref_varlen_sm_90a/manifest.json
// RUN: FileCheck %s --check-prefix=PAGED < %t/h/fa4_ref_paged_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none -o %t/a --quiet 2>&1 | FileCheck %s --check-prefix=HOPPER-AUTO
// RUN: fa4-compile %s --chip=sm_100a --ptxas=none -o %t/b --quiet 2>&1 | FileCheck %s --check-prefix=BLACKWELL-AUTO
// RUN: fa4-compile %s --chip=sm_100a --kernel=reference --ptxas=none -o %t/r --quiet
// RUN: not fa4-compile %s --chip=sm_90a --kernel=hopper -o %t/x --quiet 2>&1 | FileCheck %s --check-prefix=HOPPER-REFUSED
// RUN: not fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 2>&1 | FileCheck %s --check-prefix=BLACKWELL-REFUSED
// RUN: fa4-compile %s --chip=sm_90a --ptxas=none -o %t/c 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// CHOICE: kernel: the Hopper kernel (FA3's structure
// CHOICE-NEXT: kernel: none: this decode variant is dropped, the kernel of the op it was made from serves every Sq
// CHOICE-NEXT: kernel: the reference kernel (SIMT): the Hopper kernel does not implement this plan: 'attn.paged_attention' op has pages of 16 keys
// HOPPER-AUTO-NOT: remark: {{.*}}varlen
// HOPPER-AUTO: remark: left for the reference kernel: the Hopper kernel does not implement this plan: 'attn.paged_attention' op has pages of 16 keys, which its plan gathers row by row (kv_path gather_cp_async); the Hopper kernel loads K and V by TMA boxes within a page only
// BLACKWELL-AUTO-NOT: remark: {{.*}}varlen
// BLACKWELL-AUTO: remark: left for the reference kernel: the Blackwell kernel does not implement this plan: 'attn.paged_attention' op has pages of 16 keys, which its plan gathers row by row (kv_path gather4); the FA4 kernel loads K and V by TMA boxes within a page only
// HOPPER-REFUSED: error: 'attn.paged_attention' op has pages of 16 keys, which its plan gathers row by row (kv_path gather_cp_async)
// BLACKWELL-REFUSED: error: 'attn.paged_attention' op has pages of 16 keys, which its plan gathers row by row (kv_path gather4)

// VARLEN: "fa4_abi_version": 12
// VARLEN: "grid": [
// VARLEN-NEXT: [
// VARLEN-NEXT: {
// VARLEN-NEXT: "ceil_div": [
// VARLEN-NEXT: "max_sq",
// VARLEN: "value": "tq"
// VARLEN: "value": "tk"
// VARLEN: "value": "q.stride.1"
// VARLEN-NOT: "q.stride.2"
// VARLEN: "value": "scale_log2"
// VARLEN: "sequences": "packed"
// VARLEN: "name": "q",
// VARLEN: "shape": [
// VARLEN-NEXT: "tq",
// VARLEN: "name": "cu_seqlens_q",
// VARLEN: "shape": [
// VARLEN-NEXT: 9
// VARLEN: "name": "cu_seqlens_k",

// PAGED: "fa4_abi_version": 12
// PAGED: "value": "max_pages"
// PAGED: "value": "k_cache.stride.2"
// PAGED: "value": "block_table.stride.0"
// PAGED: "page_size": 16,
// PAGED: "sequences": "paged"
// PAGED: "name": "k_cache",
// PAGED: "shape": [
// PAGED-NEXT: "pages",
// PAGED-NEXT: 16,
// PAGED: "name": "block_table",
// PAGED: "shape": [
// PAGED-NEXT: 8,
// PAGED-NEXT: "max_pages"
// PAGED: "name": "seqlens_k",

func.func @varlen(%q: tensor<?x32x128xbf16>, %k: tensor<?x8x128xbf16>, %v: tensor<?x8x128xbf16>, %cq: tensor<9xi32>, %ck: tensor<9xi32>) -> tensor<?x32x128xbf16> {
  %o = attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>) {mask = #attn.mask<causal>} : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16> -> tensor<?x32x128xbf16>
  return %o : tensor<?x32x128xbf16>
}

func.func @paged(%q: tensor<8x1x32x128xbf16>, %kc: tensor<?x16x8x128xbf16>, %vc: tensor<?x16x8x128xbf16>, %bt: tensor<8x512xi32>, %sk: tensor<8xi32>) -> tensor<8x1x32x128xbf16> {
  %o = attn.paged_attention %q, %kc, %vc block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>) : tensor<8x1x32x128xbf16>, tensor<?x16x8x128xbf16>, tensor<?x16x8x128xbf16> -> tensor<8x1x32x128xbf16>
  return %o : tensor<8x1x32x128xbf16>
}
