//===- Passes.td - fa4 conversion passes -------------------*- tablegen -*-===//

#ifndef FA4_CONVERSION_PASSES_TD
#define FA4_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertAttnToReferenceKernel
    : Pass<"convert-attn-to-reference-kernel", "mlir::ModuleOp"> {
  let summary = "Lower attn.attention to the SIMT reference kernel";
  let description = [{
    Builds one kernel per attn.attention, each in its own gpu.module for the
    chip (so that each serializes to its own PTX): a warp per (batch, query head, query row), online softmax
    in f32 (exp2, scale folded with log2(e)), every mask, GQA, Dqk != Dv and
    LSE. No tensor cores: this is the correctness baseline and the first
    client of the kernel ABI. The op records its kernel and ABI (symbol,
    parameters, grid, block, cluster, shared memory, alignment) in `fa4.abi`
    for the manifest writer. The chip comes from #attn.config when present.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_100a\"",
           "Target chip when the op has no #attn.config">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect", "mlir::math::MathDialect",
    "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect"
  ];
}

def ConvertAttnToHopperKernel
    : Pass<"convert-attn-to-hopper-kernel", "mlir::ModuleOp"> {
  let summary = "Lower planned attn.attention to a TMA + wgmma kernel (sm_90a)";
  let description = [{
    The FA3 structure, read from #attn.config, #attn.swizzle and #attn.smem:
    a producer warpgroup issuing TMA loads of Q and of K/V tiles into a ring
    of mbarrier-guarded slots (setmaxnreg down), and `num_q` consumer
    warpgroups (setmaxnreg up), each with a 64-row Q tile, computing
    S = Q K^T with wgmma, the online softmax in registers, and O += P V with
    wgmma taking P from registers. Every mask, GQA/MQA, Dqk != Dv, any Sq and
    Skv, bf16/f16, LSE. Records the kernel ABI in `fa4.abi`.
  }];
  let options = [
    Option<"pingPong", "ping-pong", "bool", /*default=*/"true",
           "Order the two consumers' GEMM turns with named barriers (FA3 "
           "ping-pong), so one's softmax runs under the other's GEMMs">,
    Option<"persistent", "persistent", "bool", /*default=*/"false",
           "One CTA per SM looping over work tiles (causal: heaviest "
           "first), so the next tile's Q load overlaps this one's epilogue">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
    "mlir::scf::SCFDialect"
  ];
}

#endif // FA4_CONVERSION_PASSES_TD
