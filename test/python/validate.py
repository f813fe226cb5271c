# Kernel.validate on TensorSpecs (fake device pointers: validation needs no
# GPU) and on torch-like objects: well-formed tensors pass; each broken one is
# refused with the runtime's message, which names the tensor, dim and rule.
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && fa4-compile %S/Inputs/attention.mlir --chip=sm_90a --ptxas=none -o %t --quiet
# RUN: %python %s %t | FileCheck %s

import sys

import fa4
from fa4 import TensorSpec, runtime

kernel = fa4.Kernel.load(sys.argv[1])
B, SQ, SKV, HQ, HKV, D = 2, 113, 203, 32, 8, 128


def good():
    return dict(
        q=TensorSpec(0x100000, "bf16", (B, SQ, HQ, D)),
        k=TensorSpec(0x200000, "bf16", (B, SKV, HKV, D)),
        v=TensorSpec(0x300000, "bf16", (B, SKV, HKV, D)),
        o=TensorSpec(0x400000, "bf16", (B, SQ, HQ, D)),
        lse=TensorSpec(0x600000, "f32", (B, HQ, SQ)),  # sq odd: 4-byte rows are fine
    )


def refused(case, **changes):
    tensors = good()
    tensors.update(changes)
    try:
        kernel.validate(**tensors)
    except fa4.Fa4Error as error:
        print("%s: %s: %s" % (case, error.status_name, error))
    else:
        print("%s: accepted" % case)


# CHECK: good: accepted
refused("good")
# CHECK-NEXT: contiguous strides (462848, 4096, 128, 1)
print("contiguous strides", good()["q"].strides)

# CHECK-NEXT: misaligned q: FA4_ERROR_VALIDATION: tensor 'q': base address 0x100008 is not 16-byte aligned (TMA requires 16-byte alignment)
refused("misaligned q", q=TensorSpec(0x100008, "bf16", (B, SQ, HQ, D)))
# The plain prefill kernel stores O by TMA: 0x400010 passes, 0x400004 does
# not.
# CHECK-NEXT: o at +16: accepted
refused("o at +16", o=TensorSpec(0x400010, "bf16", (B, SQ, HQ, D)))
# CHECK-NEXT: misaligned o: FA4_ERROR_VALIDATION: tensor 'o': base address 0x400004 is not 16-byte aligned (TMA requires 16-byte alignment)
refused("misaligned o", o=TensorSpec(0x400004, "bf16", (B, SQ, HQ, D)))

# CHECK-NEXT: wrong dtype: FA4_ERROR_VALIDATION: tensor 'q': dtype is f16 but the kernel expects bf16
refused("wrong dtype", q=TensorSpec(0x100000, "float16", (B, SQ, HQ, D)))
# CHECK-NEXT: f32 lse as bf16: FA4_ERROR_VALIDATION: tensor 'lse': dtype is bf16 but the kernel expects f32
refused("f32 lse as bf16", lse=TensorSpec(0x600000, "bf16", (B, HQ, SQ)))

# CHECK-NEXT: wrong rank: FA4_ERROR_VALIDATION: tensor 'k': rank is 3 but the kernel expects rank 4 (shape [b, skv, 8, 128])
refused("wrong rank", k=TensorSpec(0x200000, "bf16", (B * SKV, HKV, D)))
# Rank 5 does not fit fa4_tensor: refused in Python, in the same words.
# CHECK-NEXT: rank 5: FA4_ERROR_VALIDATION: tensor 'v': rank is 5 but fa4 tensors have at most 4 dims
refused("rank 5", v=TensorSpec(0x300000, "bf16", (1, B, SKV, HKV, D)))

# CHECK-NEXT: mismatched batch: FA4_ERROR_VALIDATION: tensor 'k': dim 0 (b) is 3 but tensor 'q' bound b = 2
refused("mismatched batch", k=TensorSpec(0x200000, "bf16", (3, SKV, HKV, D)))
# CHECK-NEXT: mismatched skv: FA4_ERROR_VALIDATION: tensor 'v': dim 1 (skv) is 204 but tensor 'k' bound skv = 203
refused("mismatched skv", v=TensorSpec(0x300000, "bf16", (B, SKV + 1, HKV, D)))
# CHECK-NEXT: wrong heads: FA4_ERROR_VALIDATION: tensor 'q': dim 2 is 16 but the kernel expects 32
refused("wrong heads", q=TensorSpec(0x100000, "bf16", (B, SQ, 16, D)))

# One element of padding on k's head stride: 258 bytes, not a multiple of 16.
# CHECK-NEXT: bad stride: FA4_ERROR_VALIDATION: tensor 'k': dim 2 stride is 129 elements = 258 bytes, not a multiple of 16 bytes (TMA requires 16-byte-aligned strides)
refused("bad stride", k=TensorSpec(0x200000, "bf16", (B, SKV, HKV, D),
                                   (SKV * HKV * 129, HKV * 129, 129, 1)))
# Padding to 136 elements (272 bytes) is a legal TMA layout.
# CHECK-NEXT: padded k: accepted
refused("padded k", k=TensorSpec(0x200000, "bf16", (B, SKV, HKV, D),
                                 (SKV * HKV * 136, HKV * 136, 136, 1)))
# CHECK-NEXT: last stride: FA4_ERROR_VALIDATION: tensor 'v': dim 3 stride is 2 but the last dim must have unit stride (stride 1)
refused("last stride", v=TensorSpec(0x300000, "bf16", (B, SKV, HKV, D),
                                    (SKV * HKV * D * 2, HKV * D * 2, D * 2, 2)))
# CHECK-NEXT: overlapping o: FA4_ERROR_VALIDATION: tensor 'o': dim 2 stride 64 overlaps dim 3 (128 x stride 1 = 128 elements); output tensors must not overlap themselves
refused("overlapping o", o=TensorSpec(0x400000, "bf16", (B, SQ, HQ, D),
                                      (SQ * HQ * 64, HQ * 64, 64, 1)))
# An output may share no byte with another tensor (o spans 0x1c4000 bytes);
# inputs may share one buffer.
# CHECK-NEXT: o on q: FA4_ERROR_VALIDATION: tensor 'o' overlaps tensor 'q': bytes [0x100000, 0x2c4000) and [0x100000, 0x2c4000); an output may share no byte with another tensor
refused("o on q", o=TensorSpec(0x100000, "bf16", (B, SQ, HQ, D)))
# CHECK-NEXT: q, k, v on one buffer: accepted
refused("q, k, v on one buffer", k=TensorSpec(0x100000, "bf16", (B, SKV, HKV, D)),
        v=TensorSpec(0x100000, "bf16", (B, SKV, HKV, D)))
# Inputs may broadcast (stride 0).
# CHECK-NEXT: broadcast k: accepted
refused("broadcast k", k=TensorSpec(0x200000, "bf16", (B, SKV, HKV, D),
                                    (0, HKV * D, D, 1)))

# CHECK-NEXT: missing lse: FA4_ERROR_VALIDATION: tensor 'lse': missing (data is NULL) but the kernel requires it
refused("missing lse", lse=None)
# CHECK-NEXT: null q: FA4_ERROR_VALIDATION: tensor 'q': data pointer is NULL (0)
refused("null q", q=TensorSpec(0, "bf16", (B, SQ, HQ, D)))
# CHECK-NEXT: not a tensor: None: tensor 'q': expected a torch tensor or fa4.TensorSpec, got list
refused("not a tensor", q=[1, 2, 3])

# CHECK-NEXT: int8: dtype int8 is not supported by fa4 (bf16, f16, f32, or e4m3 for an FP8 kernel)
try:
    TensorSpec(0x100000, "int8", (1,))
except fa4.Fa4Error as error:
    print("int8:", error)

# A dtype named once is remembered (each launch names five); the same name
# gives the same code, and one that cannot be remembered (unhashable) is
# still parsed, and refused here.
# CHECK-NEXT: dtype codes: bf16 bf16 f32
print("dtype codes:", *(runtime.dtype_name(runtime.dtype_code(d))
                        for d in ("torch.bfloat16", "torch.bfloat16", "torch.float32")))
# CHECK-NEXT: unhashable: dtype ['bf16'] is not supported by fa4 (bf16, f16, f32, or e4m3 for an FP8 kernel)
try:
    runtime.dtype_code(["bf16"])
except fa4.Fa4Error as error:
    print("unhashable:", error)


# Anything shaped like a torch tensor (data_ptr(), shape, stride(), dtype)
# goes through the same path as torch.Tensor.
class FakeTorchTensor(object):
    def __init__(self, ptr, dtype, shape, strides=None):
        self._ptr, self.dtype, self.shape = ptr, dtype, tuple(shape)
        self._strides = tuple(strides or fa4.contiguous_strides(shape))

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides


fakes = dict(
    q=FakeTorchTensor(0x100000, "torch.bfloat16", (B, SQ, HQ, D)),
    k=FakeTorchTensor(0x200000, "torch.bfloat16", (B, SKV, HKV, D)),
    v=FakeTorchTensor(0x300000, "torch.bfloat16", (B, SKV, HKV, D)),
    o=FakeTorchTensor(0x400000, "torch.bfloat16", (B, SQ, HQ, D)),
    lse=FakeTorchTensor(0x600000, "torch.float32", (B, HQ, SQ)),
)
kernel.validate(**fakes)
# CHECK-NEXT: torch-like: accepted
print("torch-like: accepted")
fakes["v"] = FakeTorchTensor(0x300008, "torch.bfloat16", (B, SKV, HKV, D))
# CHECK-NEXT: torch-like misaligned v: tensor 'v': base address 0x300008 is not 16-byte aligned (TMA requires 16-byte alignment)
try:
    kernel.validate(**fakes)
except fa4.Fa4Error as error:
    print("torch-like misaligned v:", error)
