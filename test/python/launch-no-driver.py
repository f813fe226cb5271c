# Calling a kernel: tensors are checked before the driver is touched, and a
# machine without the CUDA driver gets the runtime's "CUDA driver ... not
# found" as an Fa4Error (FA4_CUDA_DRIVER_PATH points at a missing library so
# that this test never launches on fake pointers, GPU or not).
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && fa4-compile %S/Inputs/attention.mlir --chip=sm_90a --ptxas=none -o %t --quiet
# RUN: env FA4_CUDA_DRIVER_PATH=%t/no-libcuda.so.1 %python %s %t | FileCheck %s

import sys

import fa4
from fa4 import TensorSpec

out = sys.argv[1]
kernel = fa4.Kernel.load(out)
B, SQ, SKV = 1, 64, 64
q = TensorSpec(0x100000, "bf16", (B, SQ, 32, 128))
k = TensorSpec(0x200000, "bf16", (B, SKV, 8, 128))
v = TensorSpec(0x300000, "bf16", (B, SKV, 8, 128))
o = TensorSpec(0x400000, "bf16", (B, SQ, 32, 128))
lse = TensorSpec(0x500000, "f32", (B, 32, SQ))


def attempt(case, call):
    try:
        call()
    except fa4.Fa4Error as error:
        print("%s: %s: %s" % (case, error.status_name, error))
    else:
        print("%s: launched" % case)


# A bad tensor is refused first, by the same checks as validate.
# CHECK: bad o: FA4_ERROR_VALIDATION: tensor 'o': dim 1 (sq) is 65 but tensor 'q' bound sq = 64
attempt("bad o", lambda: kernel(q, k, v, TensorSpec(0x400000, "bf16", (B, SQ + 1, 32, 128)), lse))

# Good tensors reach the driver, which is not there.
# CHECK-NEXT: call: FA4_ERROR_DRIVER_NOT_FOUND: CUDA driver ({{.*}}no-libcuda.so.1) not found: {{.*}}
attempt("call", lambda: kernel(q, k, v, o, lse))
# CHECK-NEXT: launch on a stream: FA4_ERROR_DRIVER_NOT_FOUND: CUDA driver ({{.*}}) not found
attempt("launch on a stream", lambda: kernel.launch(q, k, v, o, lse, stream=0x1234))
# CHECK-NEXT: fa4.attention: FA4_ERROR_DRIVER_NOT_FOUND: CUDA driver ({{.*}}) not found
attempt("fa4.attention", lambda: fa4.attention(q, k, v, out, o=o, lse=lse))

# Outputs are allocated only with torch.
# CHECK-NEXT: no outputs: FA4_ERROR_INVALID_ARGUMENT: without torch tensors, pass every output (o and lse): fa4 allocates outputs only with torch
attempt("no outputs", lambda: kernel(q, k, v))
# CHECK-NEXT: no lse: FA4_ERROR_INVALID_ARGUMENT: without torch tensors, pass every output (o and lse)
attempt("no lse", lambda: kernel(q, k, v, o))
