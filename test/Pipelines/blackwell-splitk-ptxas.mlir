// The sm_100a split-K decode kernels of blackwell-splitk-clusters.mlir
// assemble with ptxas for sm_100a with no stack and no spills: 32/8 heads at
// B = 1 (16 partitions) and B = 3 (6 partitions), 16/16 heads at d = 64 (9
// partitions: the ninth owns no band), and causal f16 with Sq = 4.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/blackwell-splitk-clusters.mlir --chip=sm_100a --kernel=blackwell --batch-hint=1 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=%ptxas -o %t/b1 --quiet | FileCheck %s --check-prefix=B1 --implicit-check-not=C75
// RUN: fa4-compile %S/blackwell-splitk-clusters.mlir --chip=sm_100a --kernel=blackwell --batch-hint=3 --seq-q-hint=1 --seq-kv-hint=32768 --ptxas=%ptxas -o %t/b3 --quiet | FileCheck %s --check-prefix=B3 --implicit-check-not=C75

// B1: Compiling entry function 'fa4_blackwell_gqa_sm_100a' for 'sm_100a'
// B1-NEXT: Function properties for fa4_blackwell_gqa_sm_100a
// B1-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// B1: Compiling entry function 'fa4_blackwell_mha_d64_sm_100a' for 'sm_100a'
// B1-NEXT: Function properties for fa4_blackwell_mha_d64_sm_100a
// B1-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// B1: Compiling entry function 'fa4_blackwell_causal_sq4_sm_100a' for 'sm_100a'
// B1-NEXT: Function properties for fa4_blackwell_causal_sq4_sm_100a
// B1-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// B3: Compiling entry function 'fa4_blackwell_gqa_sm_100a' for 'sm_100a'
// B3-NEXT: Function properties for fa4_blackwell_gqa_sm_100a
// B3-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// B3: Compiling entry function 'fa4_blackwell_mha_d64_sm_100a' for 'sm_100a'
// B3-NEXT: Function properties for fa4_blackwell_mha_d64_sm_100a
// B3-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
