# Kernel.load on what fa4-compile writes: the manifest file, its directory, or
# the -o directory holding one kernel; .info mirrors fa4_kernel_info and
# tensor_alignment each tensor's own rule (docs/KernelABI.md).
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && fa4-compile %S/Inputs/attention.mlir --chip=sm_90a --ptxas=none -o %t --quiet
# RUN: %python %s %t | FileCheck %s

import os
import re
import sys

import fa4

out = sys.argv[1]
kernel_dir = os.path.join(out, "fa4_hopper_attention_sm_90a")

kernel = fa4.Kernel.load(out)
info = kernel.info
# CHECK: loaded {{.*}}/fa4_hopper_attention_sm_90a/manifest.json
print("loaded", kernel.manifest_path)
# CHECK-NEXT: <fa4.Kernel fa4_hopper_attention_sm_90a sm_90a bf16 hq=32 hkv=8 d=128/128 mask=causal lse=True>
print(repr(kernel))
# CHECK-NEXT: name fa4_hopper_attention_sm_90a chip sm_90a dtype bf16
print("name", info.name, "chip", info.chip, "dtype", info.dtype)
# CHECK-NEXT: heads (32, 8) depths (128, 128)
print("heads", info.heads, "depths", info.depths)
# CHECK-NEXT: mask causal window -1 -1 scale 0.088388 has_lse True
print("mask", info.mask, "window", info.window_left, info.window_right,
      "scale %.6f" % info.scale, "has_lse", info.has_lse)
# CHECK-NEXT: sizes -1 -1 -1
print("sizes", info.batch, info.seq_q, info.seq_kv)
# CHECK-NEXT: block (384, 1, 1) cluster (2, 1, 1) smem 197664
print("block", info.block, "cluster", info.cluster, "smem", info.smem)
# CHECK-NEXT: strictest 16 16
print("strictest", info.base_align_bytes, info.stride_align_bytes)
# Compiled with no sizes: a decode variant for up to 16 query rows (4
# fused q-heads a kv-head: 64 / 4).
# CHECK-NEXT: decode fa4_hopper_attention_decode_sm_90a 16
print("decode", info.decode_kernel_name, info.decode_max_seq_q)
# The manifest allows a programmatic dependent launch; launches use it only
# once asked.
# CHECK-NEXT: programmatic launch False
print("programmatic launch", info.programmatic_launch)
kernel.set_programmatic_launch(True)
# CHECK-NEXT: after set_programmatic_launch(True): True
print("after set_programmatic_launch(True):", kernel.info.programmatic_launch)
kernel.set_programmatic_launch(False)
# A cap on the persistent grid; a negative one is refused by name.
kernel.set_persistent_ctas(5)
kernel.set_persistent_ctas(0)
try:
    kernel.set_persistent_ctas(-1)
except fa4.Fa4Error as error:
    # CHECK-NEXT: refused: max_ctas is -1; expected 0 (one CTA per SM) or a positive cap
    print("refused:", error)
info = kernel.info
# CHECK-NEXT: binary fa4_hopper_attention_sm_90a.ptx
print("binary", os.path.basename(info.binary_path))
assert abs(info.scale - 128 ** -0.5) < 1e-12
assert info.binary_path.startswith(kernel_dir)

# TMA reads Q, K, V and (the plain prefill kernel) stores O: 16 bytes; LSE
# is stored 4 bytes at a time.
# CHECK-NEXT: q Alignment(base_bytes=16, stride_bytes=16)
# CHECK-NEXT: k Alignment(base_bytes=16, stride_bytes=16)
# CHECK-NEXT: v Alignment(base_bytes=16, stride_bytes=16)
# CHECK-NEXT: o Alignment(base_bytes=16, stride_bytes=16)
# CHECK-NEXT: lse Alignment(base_bytes=4, stride_bytes=4)
for name in ("q", "k", "v", "o", "lse"):
    print(name, kernel.tensor_alignment(name))

# CHECK-NEXT: FA4_ERROR_INVALID_ARGUMENT: the kernel has no tensor 'x'
try:
    kernel.tensor_alignment("x")
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))

# The same kernel through the manifest's directory and the file itself.
for path in (kernel_dir, os.path.join(kernel_dir, "manifest.json")):
    other = fa4.Kernel.load(path)
    assert vars(other.info) == vars(info), path
    other.close()
# CHECK-NEXT: same info through the directory and the file
print("same info through the directory and the file")

# From text, binary.file resolved against the given directory.
with open(os.path.join(kernel_dir, "manifest.json")) as f:
    text = f.read()
from_text = fa4.Kernel.from_string(text, kernel_dir)
assert from_text.info.binary_path == info.binary_path
# CHECK-NEXT: from_string fa4_hopper_attention_sm_90a
print("from_string", from_text.info.name)

# Errors: a missing file, a manifest the runtime refuses.
# CHECK-NEXT: FA4_ERROR_MANIFEST: cannot open manifest {{.*}}nowhere/manifest.json
try:
    fa4.Kernel.load(os.path.join(out, "nowhere", "manifest.json"))
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))
# CHECK-NEXT: FA4_ERROR_MANIFEST: {{.*}}fa4_abi_version: unsupported version 17; this runtime reads versions 1 to 16
try:
    fa4.Kernel.from_string(re.sub(r'"fa4_abi_version": [0-9]+', '"fa4_abi_version": 17', text), kernel_dir)
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))
# CHECK-NEXT: FA4_ERROR_IO: {{.*}}empty: no manifest.json in the directory or its subdirectories
os.makedirs(os.path.join(out, "empty"), exist_ok=True)
try:
    fa4.Kernel.load(os.path.join(out, "empty"))
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))

# A closed kernel refuses politely.
kernel.close()
# CHECK-NEXT: FA4_ERROR_INVALID_ARGUMENT: the kernel was closed
try:
    kernel.tensor_alignment("q")
except fa4.Fa4Error as error:
    print("%s: %s" % (error.status_name, error))
