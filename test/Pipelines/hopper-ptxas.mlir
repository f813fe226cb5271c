// The two compiles of hopper-ptx.mlir (its kernel, plain and persistent),
// assembled by ptxas; the PTX itself is checked there, without ptxas.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/hopper-ptx.mlir --chip=sm_90a --causal-block-n=0 --persistent-max-seq-kv=0 --ptxas=%ptxas -o %t --quiet | FileCheck %s --check-prefix=PTXAS
// RUN: rm -rf %t.persistent && fa4-compile %S/hopper-ptx.mlir --chip=sm_90a --causal-block-n=0 --persistent --ptxas=%ptxas -o %t.persistent --quiet | FileCheck %s --check-prefix=PERSIST-PTXAS

// PTXAS: Compiling entry function 'fa4_hopper_attention_sm_90a' for 'sm_90a'
// PTXAS-NEXT: Function properties for fa4_hopper_attention_sm_90a
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NEXT: Used 168 registers

// Persistent: the same kernel as one CTA per SM looping over work tiles
// (blockIdx.x, +gridDim.x) assembles too. It may spill a little in the
// producer's work loop, so only the register budgets are checked, not the
// stack frame.
// PERSIST-PTXAS: Compiling entry function 'fa4_hopper_attention_sm_90a' for 'sm_90a'
// PERSIST-PTXAS-NEXT: Function properties for fa4_hopper_attention_sm_90a
// PERSIST-PTXAS-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]+}} bytes spill stores, {{[0-9]+}} bytes spill loads
// PERSIST-PTXAS-NEXT: Used 168 registers
