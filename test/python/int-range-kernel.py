# Kernel methods check the integers they pass to libfa4rt against the C
# types, as TensorSpec does (int-range.py): a torch-like tensor whose sq is
# 2^64 + 113 would otherwise reach the runtime as 113 and be accepted, a
# persistent-CTA cap of 2^32 + 5 as 5. Each is refused in Python, before any
# C call, with a ValueError that is also an fa4.Fa4Error.
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && fa4-compile %S/Inputs/attention.mlir --chip=sm_90a --ptxas=none -o %t --quiet
# RUN: env FA4_CUDA_DRIVER_PATH=%t/no-libcuda.so.1 %python %s %t | FileCheck %s

import sys

import fa4

kernel = fa4.Kernel.load(sys.argv[1])
B, SQ, SKV, HQ, HKV, D = 2, 113, 203, 32, 8, 128


# Anything shaped like a torch tensor (data_ptr(), shape, stride(), dtype):
# its integers are whatever the object returns.
class FakeTorchTensor(object):
    def __init__(self, ptr, dtype, shape, strides=None):
        self._ptr, self.dtype, self.shape = ptr, dtype, tuple(shape)
        self._strides = tuple(strides or fa4.contiguous_strides(shape))

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides


def good():
    return dict(
        q=FakeTorchTensor(0x1000000000, "torch.bfloat16", (B, SQ, HQ, D)),
        k=FakeTorchTensor(0x2000000000, "torch.bfloat16", (B, SKV, HKV, D)),
        v=FakeTorchTensor(0x3000000000, "torch.bfloat16", (B, SKV, HKV, D)),
        o=FakeTorchTensor(0x4000000000, "torch.bfloat16", (B, SQ, HQ, D)),
        lse=FakeTorchTensor(0x5000000000, "torch.float32", (B, HQ, SQ)),
    )


def attempt(case, call):
    try:
        call()
    except ValueError as error:
        print("%s: %s %s %s: %s" % (case, type(error).__name__,
                                    isinstance(error, fa4.Fa4Error),
                                    error.status_name, error))
    except fa4.Fa4Error as error:
        print("%s: %s: %s" % (case, error.status_name, error))
    else:
        print("%s: accepted" % case)


def validate(**changes):
    tensors = good()
    tensors.update(changes)
    return lambda: kernel.validate(**tensors)


# CHECK: good: accepted
attempt("good", validate())
# CHECK-NEXT: sq of 2^64 + 113: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: tensor 'q': shape[1] is 18446744073709551729, which does not fit int64 (-9223372036854775808 to 9223372036854775807)
attempt("sq of 2^64 + 113", validate(
    q=FakeTorchTensor(0x1000000000, "torch.bfloat16", (B, 2**64 + SQ, HQ, D),
                      (SQ * HQ * D, HQ * D, D, 1))))
# CHECK-NEXT: stride of 2^64 + 4096: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: tensor 'o': strides[1] is 18446744073709555712, which does not fit int64 (-9223372036854775808 to 9223372036854775807)
attempt("stride of 2^64 + 4096", validate(
    o=FakeTorchTensor(0x4000000000, "torch.bfloat16", (B, SQ, HQ, D),
                      (SQ * HQ * D, 2**64 + HQ * D, D, 1))))
# CHECK-NEXT: pointer past 2^64: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: tensor 'v': data pointer is 18446744073709551632, which does not fit a 64-bit address (0 to 18446744073709551615)
attempt("pointer past 2^64", validate(
    v=FakeTorchTensor(2**64 + 16, "torch.bfloat16", (B, SKV, HKV, D))))
# A TensorSpec changed after it was made is checked at the call too.
spec = fa4.TensorSpec(0x1000000000, "bf16", (B, SQ, HQ, D))
spec.shape = (B, SQ, HQ, 2**64 + D)
# CHECK-NEXT: changed TensorSpec: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: tensor 'q': shape[3] is 18446744073709551744, which does not fit int64 (-9223372036854775808 to 9223372036854775807)
attempt("changed TensorSpec", validate(q=spec))

# fa4_module_set_persistent_ctas takes an int32.
# CHECK-NEXT: cap of 2^32 + 5: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: max_ctas is 4294967301, which does not fit int32 (-2147483648 to 2147483647)
attempt("cap of 2^32 + 5", lambda: kernel.set_persistent_ctas(2**32 + 5))
# CHECK-NEXT: cap of 2^31 - 1: accepted
attempt("cap of 2^31 - 1", lambda: kernel.set_persistent_ctas(2**31 - 1))
kernel.set_persistent_ctas(0)

# A stream is a pointer; the bad one is refused before the driver is looked
# for (FA4_CUDA_DRIVER_PATH names a missing library, so a good launch stops
# there).
launch = lambda stream: lambda: kernel.launch(stream=stream, **good())
# CHECK-NEXT: stream -1: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: stream is -1, which does not fit a 64-bit address (0 to 18446744073709551615)
attempt("stream -1", launch(-1))
# CHECK-NEXT: stream 2^64: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: stream is 18446744073709551616, which does not fit a 64-bit address (0 to 18446744073709551615)
attempt("stream 2^64", launch(2**64))
# CHECK-NEXT: synchronize 2^64: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: stream is 18446744073709551616, which does not fit a 64-bit address (0 to 18446744073709551615)
attempt("synchronize 2^64", lambda: fa4.synchronize(2**64))
# CHECK-NEXT: stream 0x1234: FA4_ERROR_DRIVER_NOT_FOUND: CUDA driver ({{.*}}) not found
attempt("stream 0x1234", launch(0x1234))
