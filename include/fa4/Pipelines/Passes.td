//===- Passes.td - The compile pipeline's own passes -------*- tablegen -*-===//

#ifndef FA4_PIPELINES_PASSES
#define FA4_PIPELINES_PASSES

include "mlir/Pass/PassBase.td"

def EmbedAbiRecords : Pass<"fa4-embed-abi-records", "mlir::ModuleOp"> {
  let summary = "Put each kernel's ABI record into its gpu.module";
  let description = [{
    For every attn.attention with a kernel ABI (`fa4.abi`), builds the
    manifest the artifacts step will write, without its `binary` entries
    (the record; docs/KernelABI.md "ABI record"), and stores its JSON text in
    the kernel's gpu.module as the global `fa4_abi_record`. The runtime reads
    it back from the loaded binary and refuses a manifest that disagrees
    with it: a tampered or stale manifest cannot launch the kernel with
    another box, cluster, shared memory size, grid or tensor shape than it
    was compiled for. Runs after the lowering, before the gpu.module is
    serialized.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // FA4_PIPELINES_PASSES
