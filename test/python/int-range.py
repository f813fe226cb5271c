# Integers bound for libfa4rt's C structs are checked against their C types
# in Python: ctypes keeps only the low bits (2^64 + 113 would reach the
# runtime as 113, which it would accept). A TensorSpec refuses them when it
# is made, with a ValueError that is also an fa4.Fa4Error. Needs neither
# libfa4rt, torch nor a GPU.
# RUN: %python %s | FileCheck %s

import fa4
from fa4 import TensorSpec


def attempt(case, make):
    try:
        make()
    except ValueError as error:
        print("%s: %s %s %s: %s" % (case, type(error).__name__,
                                    isinstance(error, fa4.Fa4Error),
                                    error.status_name, error))
    else:
        print("%s: accepted" % case)


# CHECK: sq of 2^64 + 113: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: TensorSpec: shape[1] is 18446744073709551729, which does not fit int64 (-9223372036854775808 to 9223372036854775807)
attempt("sq of 2^64 + 113",
        lambda: TensorSpec(0x100000, "bf16", (2, 2**64 + 113, 32, 128)))
# CHECK-NEXT: stride of 2^63: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: TensorSpec: strides[0] is 9223372036854775808, which does not fit int64 (-9223372036854775808 to 9223372036854775807)
attempt("stride of 2^63",
        lambda: TensorSpec(0x100000, "bf16", (2, 113), (2**63, 1)))
# Row-major strides computed from the shape are checked too.
# CHECK-NEXT: computed stride: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: TensorSpec: strides[0] is 18446744073709551616, which does not fit int64 (-9223372036854775808 to 9223372036854775807)
attempt("computed stride", lambda: TensorSpec(0x100000, "bf16", (2, 2**62, 4)))
# CHECK-NEXT: negative pointer: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: TensorSpec: data_ptr is -16, which does not fit a 64-bit address (0 to 18446744073709551615)
attempt("negative pointer", lambda: TensorSpec(-16, "bf16", (1, 8)))
# CHECK-NEXT: pointer of 2^64: Fa4ValueError True FA4_ERROR_INVALID_ARGUMENT: TensorSpec: data_ptr is 18446744073709551616, which does not fit a 64-bit address (0 to 18446744073709551615)
attempt("pointer of 2^64", lambda: TensorSpec(2**64, "bf16", (1, 8)))

# The largest values of each type pass here; the runtime judges them.
# CHECK-NEXT: largest: accepted
attempt("largest", lambda: TensorSpec(2**64 - 16, "bf16", (2**63 - 1, 1), (1, 1)))
# CHECK-NEXT: negative stride: accepted
attempt("negative stride", lambda: TensorSpec(0x100000, "bf16", (4, 8), (-(2**63), 1)))
