// The reference kernels of reference-matrix.mlir assemble with ptxas for
// both chips over the configuration matrix of the sm_90a issue, with no
// spills.
// REQUIRES: ptxas
// RUN: rm -rf %t && fa4-compile %S/reference-matrix.mlir --chip=sm_90a --kernel=reference --ptxas=%ptxas -o %t/sm90 --quiet | FileCheck %s --check-prefix=SM90
// RUN: fa4-compile %S/reference-matrix.mlir --chip=sm_100a --kernel=reference --ptxas=%ptxas -o %t/sm100 --quiet | FileCheck %s --check-prefix=SM100

// SM90: Compiling entry function 'fa4_ref_d64_64_h6_6_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d64_64_h6_6_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d64_64_h6_3_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d64_64_h6_3_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d64_64_h6_1_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d64_64_h6_1_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d96_96_h6_6_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d96_96_h6_6_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d96_96_h6_3_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d96_96_h6_3_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d96_96_h6_1_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d96_96_h6_1_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d128_128_h6_6_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d128_128_h6_6_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d128_128_h6_3_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d128_128_h6_3_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d128_128_h6_1_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d128_128_h6_1_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d128_64_h6_6_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d128_64_h6_6_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d128_64_h6_3_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d128_64_h6_3_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d128_64_h6_1_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d128_64_h6_1_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d192_128_h6_6_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d192_128_h6_6_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d192_128_h6_3_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d192_128_h6_3_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d192_128_h6_1_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d192_128_h6_1_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d256_256_h6_6_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d256_256_h6_6_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d256_256_h6_3_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d256_256_h6_3_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM90: Compiling entry function 'fa4_ref_d256_256_h6_1_sm_90a' for 'sm_90a'
// SM90-NEXT: Function properties for fa4_ref_d256_256_h6_1_sm_90a
// SM90-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d64_64_h6_6_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d64_64_h6_6_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d64_64_h6_3_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d64_64_h6_3_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d64_64_h6_1_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d64_64_h6_1_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d96_96_h6_6_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d96_96_h6_6_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d96_96_h6_3_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d96_96_h6_3_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d96_96_h6_1_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d96_96_h6_1_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d128_128_h6_6_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d128_128_h6_6_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d128_128_h6_3_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d128_128_h6_3_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d128_128_h6_1_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d128_128_h6_1_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d128_64_h6_6_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d128_64_h6_6_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d128_64_h6_3_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d128_64_h6_3_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d128_64_h6_1_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d128_64_h6_1_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d192_128_h6_6_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d192_128_h6_6_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d192_128_h6_3_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d192_128_h6_3_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d192_128_h6_1_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d192_128_h6_1_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d256_256_h6_6_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d256_256_h6_6_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d256_256_h6_3_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d256_256_h6_3_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SM100: Compiling entry function 'fa4_ref_d256_256_h6_1_sm_100a' for 'sm_100a'
// SM100-NEXT: Function properties for fa4_ref_d256_256_h6_1_sm_100a
// SM100-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
