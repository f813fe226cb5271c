// The serving forms' reference kernels on both chips (kernel=reference, and
// kernel=auto for the plans no fast kernel takes: with one-row queries
// hinted, the varlen op's decode plan of packed queries, with a remark
// naming the reason; the paged op's dense queries decode on the chip's
// kernel, its pages of 16 keys copied). A fast kernel named explicitly
// refuses a form it does not serve by name instead of writing no kernel.
// Their manifests (ABI version 12) list the serving tensors and sizes;
// numerics on fa4-emu: test/Emulator/serving-reference.test. The fast
// kernels of the serving forms: test/Pipelines/hopper-serving.mlir,
// blackwell-serving.mlir.
// RUN: rm -rf %t && fa4-compile %s --chip=sm_90a --kernel=reference --ptxas=none -o %t/h --quiet
// RUN: FileCheck %s --check-prefix=VARLEN < %t/h/fa4_ref_varlen_sm_90a/manifest.json
// RUN: FileCheck %s --check-prefix=PAGED < %t/h/fa4_ref_paged_sm_90a/manifest.json
// RUN: fa4-compile %s --chip=sm_90a --seq-q-hint=1 --ptxas=none -o %t/a --quiet 2>&1 | FileCheck %s --check-prefix=HOPPER-AUTO
// RUN: fa4-compile %s --chip=sm_100a --seq-q-hint=1 --ptxas=none -o %t/b --quiet 2>&1 | FileCheck %s --check-prefix=BLACKWELL-AUTO
// RUN: fa4-compile %s --chip=sm_100a --kernel=reference --ptxas=none -o %t/r --quiet
// RUN: not fa4-compile %s --chip=sm_90a --seq-q-hint=1 --kernel=hopper -o %t/x --quiet 2>&1 | FileCheck %s --check-prefix=HOPPER-REFUSED
// RUN: not fa4-opt %s --attn-plan-pipeline="chip=sm_100a seq-q-hint=1" --convert-attn-to-fa4 2>&1 | FileCheck %s --check-prefix=BLACKWELL-REFUSED
// RUN: fa4-compile %s --chip=sm_90a --seq-q-hint=1 --ptxas=none -o %t/c 2>/dev/null | FileCheck %s --check-prefix=CHOICE
// CHOICE: kernel: the reference kernel (SIMT): the Hopper kernel does not implement this plan: a decode or split-K plan of packed queries
// CHOICE-NEXT: kernel: the Hopper kernel (FA3's structure
// HOPPER-AUTO-NOT: remark: {{.*}}paged
// HOPPER-AUTO: remark: left for the reference kernel: the Hopper kernel does not implement this plan: a decode or split-K plan of packed queries: the decode grid, the workspace and its combine address queries by (batch, row)
// BLACKWELL-AUTO-NOT: remark: {{.*}}paged
// BLACKWELL-AUTO: remark: left for the reference kernel: the Blackwell kernel does not implement this plan: a decode or split-K plan of packed queries: the decode grid, the workspace and its combine address queries by (batch, row)
// HOPPER-REFUSED: error: 'attn.varlen_attention' op has no Hopper kernel for a decode or split-K plan of packed queries
// BLACKWELL-REFUSED: error: 'attn.varlen_attention' op has no Blackwell kernel for a decode or split-K plan of packed queries

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
