# Run by test/Emulator/raised-named-form.test: attention as IREE writes it
# (batch_matmul of flattened [B*H, S, D] operands reading K transposed by
# its indexing maps, a scale, linalg.softmax on the flattened scores,
# batch_matmul with V), raised by attn-raise, its attn.attention compiled
# for a chip and launched through the Python package on fa4-emu on the
# original module's own inputs (BHSD, passed as strided BSHD views), and
# compared with the original module run on the CPU by mlir-runner
# (tools/raise-oracle.py).
import ctypes
import importlib.util
import math
import os
import re
import struct
import subprocess
import sys

import fa4
from fa4 import TensorSpec

out, fa4_compile, fa4_opt, llvm_root, source_root, chip, mask = sys.argv[1:8]
spec = importlib.util.spec_from_file_location(
    "raise_oracle", os.path.join(source_root, "tools", "raise-oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

B, H, SQ, SKV, D = 2, 2, 5, 9, 64
form = dict(layout="bhsd", flat_scores=True, softmax="op",
            qk_product="transposed", mask=mask, batch=B, heads=H, kv_heads=H,
            sq=SQ, skv=SKV, depth=D, vdepth=D, scale_value=0.125)
module = oracle.render(form)
assert "linalg.softmax" in module and "indexing_maps" in module

raised = subprocess.run([fa4_opt, "--attn-raise"], input=module, text=True,
                        capture_output=True, check=True).stdout
ops = [line.strip() for line in raised.splitlines() if "attn.attention" in line]
print("raised: %d attn.attention" % len(ops))
assert len(ops) == 1, raised
# The raised op alone, as a kernel's function on BSHD operands.
match = re.match(r"%\S+ = attn\.attention %\S+, %\S+, %\S+ (\{.*\} )?: "
                 r"(tensor<[^>]*>), (tensor<[^>]*>), (tensor<[^>]*>) -> "
                 r"(tensor<[^>]*>)", ops[0])
attrs, qt, kt, vt, ot = match.groups()
print("op: %s%s" % (attrs or "", qt))
kernel_mlir = """func.func @named(%%q: %s, %%k: %s, %%v: %s) -> %s {
  %%o = attn.attention %%q, %%k, %%v %s: %s, %s, %s -> %s
  return %%o : %s
}
""" % (qt, kt, vt, ot, attrs or "", qt, kt, vt, ot, ot)
kernel = fa4.compile(kernel_mlir, chip=chip, out_dir=out,
                     fa4_compile=fa4_compile, ptxas="none",
                     extra_args=["--decode-variants=false"])

runner = oracle.Runner(fa4_opt, llvm_root)
q, k, v, expected = runner.run(module, decompose=False, print_inputs=True)
runner.close()

lib = fa4.runtime.library()
lib.fa4_device_alloc.argtypes = [ctypes.c_size_t,
                                 ctypes.POINTER(ctypes.c_void_p)]
lib.fa4_copy_to_device.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.c_size_t]
lib.fa4_copy_to_host.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                 ctypes.c_size_t]


def device(values):
    # The printed f32 values are f16 values: packing rounds them back.
    data = struct.pack("<%de" % len(values), *values)
    pointer = ctypes.c_void_p()
    assert lib.fa4_device_alloc(len(data), ctypes.byref(pointer)) == 0
    assert lib.fa4_copy_to_device(pointer, data, len(data)) == 0
    return pointer.value


def bshd_view(pointer, seq):
    # A contiguous [B, H, S, D] tensor seen as [B, S, H, D].
    return TensorSpec(pointer, "f16", (B, seq, H, D),
                      (H * seq * D, D, seq * D, 1))


o_ptr = device([float("nan")] * (B * SQ * H * D))
kernel.launch(bshd_view(device(q), SQ), bshd_view(device(k), SKV),
              bshd_view(device(v), SKV), TensorSpec(o_ptr, "f16", (B, SQ, H, D)))
fa4.synchronize()
raw = ctypes.create_string_buffer(B * SQ * H * D * 2)
assert lib.fa4_copy_to_host(raw, o_ptr, len(raw)) == 0
o = struct.unpack("<%de" % (B * SQ * H * D), raw.raw)

worst = 0.0
for b in range(B):
    for h in range(H):
        for s in range(SQ):
            for d in range(D):
                got = o[((b * SQ + s) * H + h) * D + d]
                want = expected[((b * H + h) * SQ + s) * D + d]
                worst = max(worst, abs(got - want)) if not math.isnan(got) \
                    else float("inf")
# The original rounds its scores and probabilities to f16; the kernel keeps
# them in f32 (tools/raise-oracle.py's tolerance).
print("%s on the emulator against the original module: max |o - o_orig| "
      "%.2e, within %.4f: %s" % (kernel.info.name, worst,
                                 oracle.tolerance(module),
                                 worst <= oracle.tolerance(module)))
