# The backward pass's kernel from Python (issue 63): a kernel pack's
# configuration with :backward, its Problem compiled through the cache to
# the reference backward kernel (manifest version 16), loaded and validated
# without a GPU; a forward problem does not take a backward entry, and the
# backward problem refuses what its kernel cannot do.
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && %python %s %t fa4-compile | FileCheck %s

import json
import os
import sys

import fa4
from fa4 import TensorSpec, cache, pack
from fa4.flash import _compile_into

out, tool = sys.argv[1], sys.argv[2]

problem = pack.parse_config("bf16:8:2:64:32:window(5,3):softcap=15:backward",
                            "sm_90a")
# CHECK: backward True softcap 15.0 window (5, 3)
print("backward", problem.backward, "softcap", problem.softcap, "window",
      problem.window)
for text in ("bf16:8:2:64:64:causal:sinks:backward",
             "bf16:8:2:64:64:causal:backward@varlen"):
    try:
        pack.parse_config(text, "sm_90a")
    except fa4.Fa4Error as error:
        # CHECK-NEXT: refused: configuration 'bf16:8:2:64:64:causal:sinks:backward': backward: the backward pass is of the dense form with LSE and without sinks
        # CHECK-NEXT: refused: configuration 'bf16:8:2:64:64:causal:backward@varlen': backward: the backward pass is of the dense form with LSE and without sinks
        print("refused:", error)

manifest = cache.entry(problem, tool, directory=out,
                       compile_fn=_compile_into(tool))
with open(manifest) as f:
    record = json.load(f)
# CHECK-NEXT: fa4_ref_bwd_attention_sm_90a version 16 pass backward
print(record["kernel"], "version", record["fa4_abi_version"], "pass",
      record["problem"]["pass"])

kernel = fa4.Kernel.load(manifest)
# CHECK-NEXT: is_backward True lse 1 softcap 15.0
print("is_backward", kernel.info.is_backward, "lse", int(kernel.info.has_lse),
      "softcap", kernel.info.softcap)

b, sq, skv = 2, 5, 7
q = TensorSpec(0x10000, "bf16", (b, sq, 8, 64))
k = TensorSpec(0x20000, "bf16", (b, skv, 2, 64))
v = TensorSpec(0x30000, "bf16", (b, skv, 2, 32))
o = TensorSpec(0x40000, "bf16", (b, sq, 8, 32))
lse = TensorSpec(0x50000, "f32", (b, 8, sq))
dout = TensorSpec(0x60000, "bf16", (b, sq, 8, 32))
dq = TensorSpec(0x70000, "bf16", (b, sq, 8, 64))
dk = TensorSpec(0x80000, "bf16", (b, skv, 2, 64))
dv = TensorSpec(0x90000, "bf16", (b, skv, 2, 32))
kernel.validate_backward(q, k, v, o, lse, dout, dq, dk, dv)
# CHECK-NEXT: valid
print("valid")
# dk of v's depth is refused, by its name.
# CHECK-NEXT: FA4_ERROR_VALIDATION: tensor 'dk': dim 3 is 32 but the kernel expects 64
try:
    kernel.validate_backward(q, k, v, o, lse, dout, dq,
                             TensorSpec(0x80000, "bf16", (b, skv, 2, 32)), dv)
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))
# The forward's arguments cannot name dout and the gradients.
# CHECK-NEXT: FA4_ERROR_VALIDATION: the kernel is a backward pass (problem.pass "backward"), whose dout, dq, dk and dv fa4_attention_args cannot name{{.*}}fa4_validate_serving
try:
    kernel.validate(q, k, v, o, lse)
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))

# The forward problem of the same attention is another entry: the backward
# entry's manifest does not serve it.
forward = pack.parse_config("bf16:8:2:64:32:window(5,3):softcap=15", "sm_90a")
# CHECK-NEXT: forward uses another entry: True
print("forward uses another entry:",
      cache.problem_key(forward) != cache.problem_key(problem))
try:
    cache._check_manifest(record, forward)
except cache._Unusable as error:
    # CHECK-NEXT: unusable: its manifest has kernel "fa4_ref_bwd_attention_sm_90a"; asked for kernel=auto on sm_90a (fa4_hopper_*)
    print("unusable:", error)
