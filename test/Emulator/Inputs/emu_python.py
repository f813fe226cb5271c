# Run by test/Emulator/python.test: a causal GQA attention (f16, 4 query
# heads over 2 key/value heads, d = 64) compiled with fa4.compile, launched
# through the Python package on the emulator, checked in plain Python.
import ctypes
import math
import random
import struct
import sys

import fa4
from fa4 import TensorSpec

out, tool = sys.argv[1], sys.argv[2]
B, SQ, SKV, HQ, HKV, D = 1, 5, 9, 4, 2, 64
MLIR = f"""
func.func @gqa(%q: tensor<?x?x{HQ}x{D}xf16>, %k: tensor<?x?x{HKV}x{D}xf16>,
               %v: tensor<?x?x{HKV}x{D}xf16>) -> tensor<?x?x{HQ}x{D}xf16> {{
  %o = attn.attention %q, %k, %v {{mask = #attn.mask<causal>}}
      : tensor<?x?x{HQ}x{D}xf16>, tensor<?x?x{HKV}x{D}xf16>,
        tensor<?x?x{HKV}x{D}xf16> -> tensor<?x?x{HQ}x{D}xf16>
  return %o : tensor<?x?x{HQ}x{D}xf16>
}}
"""
kernel = fa4.compile(MLIR, chip="sm_90a", out_dir=out, fa4_compile=tool,
                     ptxas="none", extra_args=["--decode-variants=false"])
lib = fa4.runtime.library()
lib.fa4_device_alloc.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
lib.fa4_copy_to_device.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
lib.fa4_copy_to_host.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]


def half_values(count, rng):
    # Rounded to f16 here, so the reference sees what the kernel reads.
    return [struct.unpack("<e", struct.pack("<e", rng.gauss(0, 1)))[0]
            for _ in range(count)]


def device(values):
    data = struct.pack(f"<{len(values)}e", *values)
    pointer = ctypes.c_void_p()
    assert lib.fa4_device_alloc(len(data), ctypes.byref(pointer)) == 0
    assert lib.fa4_copy_to_device(pointer, data, len(data)) == 0
    return pointer.value


rng = random.Random(7)
q = half_values(B * SQ * HQ * D, rng)
k = half_values(B * SKV * HKV * D, rng)
v = half_values(B * SKV * HKV * D, rng)
o_ptr = device([float("nan")] * (B * SQ * HQ * D))
spec = lambda ptr, s, h: TensorSpec(ptr, "f16", (B, s, h, D))
kernel.launch(spec(device(q), SQ, HQ), spec(device(k), SKV, HKV),
              spec(device(v), SKV, HKV), spec(o_ptr, SQ, HQ))
fa4.synchronize()
raw = ctypes.create_string_buffer(B * SQ * HQ * D * 2)
assert lib.fa4_copy_to_host(raw, o_ptr, len(raw)) == 0
o = struct.unpack(f"<{B * SQ * HQ * D}e", raw.raw)

worst = 0.0
scale = 1 / math.sqrt(D)
for s in range(SQ):
    for h in range(HQ):
        g = h // (HQ // HKV)
        # Bottom-right causal: query s sees keys up to s + SKV - SQ.
        keys = range(0, s + SKV - SQ + 1)
        scores = [scale * sum(q[(s * HQ + h) * D + d] * k[(j * HKV + g) * D + d]
                              for d in range(D)) for j in keys]
        top = max(scores)
        weights = [math.exp(x - top) for x in scores]
        total = sum(weights)
        for d in range(D):
            ref = sum(w * v[(j * HKV + g) * D + d]
                      for w, j in zip(weights, keys)) / total
            worst = max(worst, abs(o[(s * HQ + h) * D + d] - ref))
print(f"{kernel.info.name} on the emulator: max |o - reference| {worst:.2e}, within 0.004: "
      f"{worst <= 0.004}")
