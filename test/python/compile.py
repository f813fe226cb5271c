# fa4.compile: MLIR text through fa4-compile (a subprocess) to a loaded
# Kernel; here the reference kernel of an attention without LSE, whose
# tensors need only element alignment and which refuses an lse tensor.
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && %python %s %t fa4-compile | FileCheck %s

import os
import sys

import fa4
from fa4 import TensorSpec

out, tool = sys.argv[1], sys.argv[2]
MLIR = """
func.func @mha(%q: tensor<2x?x4x64xf16>, %k: tensor<2x?x4x64xf16>, %v: tensor<2x?x4x64xf16>)
    -> tensor<2x?x4x64xf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x?x4x64xf16>, tensor<2x?x4x64xf16>, tensor<2x?x4x64xf16> -> tensor<2x?x4x64xf16>
  return %o : tensor<2x?x4x64xf16>
}
"""

kernel = fa4.compile(MLIR, chip="sm_90a", out_dir=out, fa4_compile=tool,
                     kernel="reference", ptxas="none")
info = kernel.info
# CHECK: <fa4.Kernel fa4_ref_mha_sm_90a sm_90a f16 hq=4 hkv=4 d=64/64 mask=none lse=False>
print(repr(kernel))
# CHECK-NEXT: batch 2 seq -1 -1 align 2 2
print("batch", info.batch, "seq", info.seq_q, info.seq_kv,
      "align", info.base_align_bytes, info.stride_align_bytes)
# CHECK-NEXT: manifest {{.*}}/fa4_ref_mha_sm_90a/manifest.json
print("manifest", kernel.manifest_path)
assert os.path.isfile(os.path.join(out, "input.mlir"))

q = TensorSpec(0x1002, "f16", (2, 5, 4, 64))  # 2-byte aligned is enough
k = TensorSpec(0x2000, "f16", (2, 7, 4, 64))
v = TensorSpec(0x3000, "f16", (2, 7, 4, 64))
o = TensorSpec(0x8000, "f16", (2, 5, 4, 64))  # past v's 0x1c00 bytes
kernel.validate(q, k, v, o)
# CHECK-NEXT: valid without lse
print("valid without lse")
# CHECK-NEXT: FA4_ERROR_VALIDATION: tensor 'lse': given but the kernel was compiled without LSE (has_lse = false); pass lse.data = NULL
try:
    kernel.validate(q, k, v, o, lse=TensorSpec(0x5000, "f32", (2, 4, 5)))
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))
# The batch was static: 3 is refused.
# CHECK-NEXT: FA4_ERROR_VALIDATION: tensor 'q': dim 0 is 3 but the kernel expects 2
try:
    kernel.validate(TensorSpec(0x1000, "f16", (3, 5, 4, 64)), k, v, o)
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))

# A compile error comes back with fa4-compile's diagnostics.
# CHECK-NEXT: compile error: fa4-compile failed (exit {{[0-9]+}}): {{.*}}fa4-compile {{.*}}input.mlir --chip=sm_90a
# CHECK-NEXT: {{.*}}input.mlir:2:3: error: custom op 'nonsense' is unknown
try:
    fa4.compile("func.func @f() {\n  nonsense\n}\n", out_dir=os.path.join(out, "bad"),
                fa4_compile=tool)
except fa4.Fa4Error as error:
    print("compile error:", "\n".join(str(error).splitlines()[:2]))
