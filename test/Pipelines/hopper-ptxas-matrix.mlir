// The TMA + wgmma kernels of hopper-matrix.mlir assemble with ptxas for sm_90a
// over 18 points of the sm_90a issue's configuration matrix: every (Dqk, Dv)
// with every head layout (6/6 MHA, 6/3 GQA, 6/1 MQA), each (Dqk, Dv) in both
// bf16 and f16 and under three of the four masks (none, causal, window(128, 0),
// window(17, 33)), with and without LSE. No stack, no spills (the four window
// kernels at Dv = 96 and 128 spilled one register from the lane-0 broadcast of
// the warpgroup index, D-40, until fold-key-bound's one compare per score
// became the default, D-14), and the 168 registers of 384 threads at one CTA
// per SM (setmaxnreg then moves them from the producer to the consumers; the
// d = 64 kernels without a window mask take three consumers, 128 registers of
// 512 threads at launch, setmaxnreg giving each consumer 160, while their
// looped twins keep two). ptxas must not have had to fence or serialise the
// wgmma pipeline itself (its C75xx advisories, e.g. C7519).
// Where Dv <= 128 (or Dv = 256, its own plan) without a window mask the
// module also holds the kernel's looped twin (persistent-max-seq-kv's default, 2048; under a causal mask
// at Dv > 64 because its plan keeps room to stage O past it), which runs
// only up to Skv = 2048: the TWIN checks hold it to the same registers and
// no C75xx advisory, and record their spills: none at a Dv up to 128 (the
// producer's 40 registers hold a looped kernel's work list, and a pair's
// peer), 4 B in the (192, 128) twins and 84 B in the d = 256 one, whose
// consumers fill their 240 registers.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/hopper-matrix.mlir --chip=sm_90a --ptxas=%ptxas -o %t --quiet > %t.log
// RUN: FileCheck %s --implicit-check-not=C75 < %t.log
// RUN: FileCheck %s --check-prefix=TWIN < %t.log

// CHECK: Compiling entry function 'fa4_hopper_d64_64_h6_6_none_bf16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d64_64_h6_6_none_bf16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_hopper_d64_64_h6_3_causal_f16_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d64_64_h6_3_causal_f16_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 128 registers
// CHECK: Compiling entry function 'fa4_hopper_d64_64_h6_1_w128_0_bf16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d64_64_h6_1_w128_0_bf16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d96_96_h6_6_causal_f16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d96_96_h6_6_causal_f16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d96_96_h6_3_w128_0_bf16_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d96_96_h6_3_w128_0_bf16_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d96_96_h6_1_w17_33_f16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d96_96_h6_1_w17_33_f16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d128_128_h6_6_w128_0_bf16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_128_h6_6_w128_0_bf16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d128_128_h6_3_w17_33_f16_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_128_h6_3_w17_33_f16_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d128_128_h6_1_none_bf16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_128_h6_1_none_bf16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d128_64_h6_6_w17_33_f16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_64_h6_6_w17_33_f16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d128_64_h6_3_none_bf16_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_64_h6_3_none_bf16_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d128_64_h6_1_causal_f16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d128_64_h6_1_causal_f16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d192_128_h6_6_none_bf16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d192_128_h6_6_none_bf16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d192_128_h6_3_causal_f16_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d192_128_h6_3_causal_f16_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d192_128_h6_1_w128_0_bf16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d192_128_h6_1_w128_0_bf16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d256_256_h6_6_causal_f16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d256_256_h6_6_causal_f16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d256_256_h6_3_w128_0_bf16_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d256_256_h6_3_w128_0_bf16_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers
// CHECK: Compiling entry function 'fa4_hopper_d256_256_h6_1_w17_33_f16_lse_sm_90a' for 'sm_90a'
// CHECK-NEXT: Function properties for fa4_hopper_d256_256_h6_1_w17_33_f16_lse_sm_90a
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used 168 registers

// The twins, in the order of the functions above.
// TWIN: Compiling entry function 'fa4_hopper_d64_64_h6_6_none_bf16_lse_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d64_64_h6_6_none_bf16_lse_sm_90a_persistent
// TWIN-NEXT: 0 bytes stack frame, 0 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN: Compiling entry function 'fa4_hopper_d64_64_h6_3_causal_f16_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d64_64_h6_3_causal_f16_sm_90a_persistent
// TWIN-NEXT: 0 bytes stack frame, 0 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN: Compiling entry function 'fa4_hopper_d96_96_h6_6_causal_f16_lse_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d96_96_h6_6_causal_f16_lse_sm_90a_persistent
// TWIN-NEXT: 0 bytes stack frame, 0 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// The twins without a mask at a padded Dv of 128 run in pairs
// (kv-multicast-twin): the pair's work list and the peer's barriers fit
// the producer's 40 registers (loop-producer-registers; 8 B of spills at
// 32, 24 B at FA3's 24).
// TWIN: Compiling entry function 'fa4_hopper_d128_128_h6_1_none_bf16_lse_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d128_128_h6_1_none_bf16_lse_sm_90a_persistent
// TWIN-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN: Compiling entry function 'fa4_hopper_d128_64_h6_3_none_bf16_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d128_64_h6_3_none_bf16_sm_90a_persistent
// TWIN-NEXT: 0 bytes stack frame, 0 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN: Compiling entry function 'fa4_hopper_d128_64_h6_1_causal_f16_lse_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d128_64_h6_1_causal_f16_lse_sm_90a_persistent
// TWIN-NEXT: 0 bytes stack frame, 0 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN: Compiling entry function 'fa4_hopper_d192_128_h6_6_none_bf16_lse_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d192_128_h6_6_none_bf16_lse_sm_90a_persistent
// TWIN-NEXT: 8 bytes stack frame, 4 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN: Compiling entry function 'fa4_hopper_d192_128_h6_3_causal_f16_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d192_128_h6_3_causal_f16_sm_90a_persistent
// TWIN-NEXT: 8 bytes stack frame, 4 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// The d = 256 twin (its own plan at 64-key tiles, up to 512 keys) spills
// its work loop's state next to a 64 x 256 O.
// TWIN: Compiling entry function 'fa4_hopper_d256_256_h6_6_causal_f16_lse_sm_90a_persistent' for 'sm_90a'
// TWIN-NEXT: Function properties for fa4_hopper_d256_256_h6_6_causal_f16_lse_sm_90a_persistent
// TWIN-NEXT: 64 bytes stack frame, 84 bytes spill stores, {{[0-9]+}} bytes spill loads
// TWIN-NEXT: Used 168 registers
// TWIN-NOT: _persistent'
