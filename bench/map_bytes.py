#!/usr/bin/env python3
"""The tensor maps a --device-tensor-maps kernel built, against the driver's.

Launches ARTIFACT (a kernel compiled with --device-tensor-maps) once through
a launch record with a zeroed workspace of its own, reads the maps the last
CTA left in the scratch (the workspace's tail, 128 bytes per map: the
kernel's maps, or its looped twin's where the twin runs), encodes the same
maps with cuTensorMapEncodeTiled and prints the 16 64-bit words of each
three ways: the device's, the driver's with the manifest's L2 promotion,
the driver's without (which tensormap.replace cannot set: D-48). Exits 1
when a device word differs from the driver's without L2 promotion other
than where D-48 expects it: the element type (word 1, bits 7-10: the
device writes the unsigned type of the element's width) and words 8 and 9
(the driver also stores the box's bytes and the swizzle span there;
tensormap.replace has no such fields, and filling them in changed no
time).

  map_bytes.py ARTIFACT B:SQ:SKV
"""
import ctypes
import json
import os
import sys

import torch

from compare_sdpa import fa4_outputs, import_fa4, input_sets, load_problem

DTYPES = {"bf16": 9, "f16": 6, "f32": 7}
SWIZZLE = {"none": 0, "32B": 1, "64B": 2, "128B": 3}
L2 = {"none": 0, "64B": 1, "128B": 2, "256B": 3}


def driver_map(cuda, dtype, tensor, spec, l2):
    """cuTensorMapEncodeTiled of `tensor` (BSHD) with the manifest's box."""
    rank = tensor.dim()
    U64 = ctypes.c_uint64 * rank
    U32 = ctypes.c_uint32 * rank
    dims = U64(*reversed(tensor.shape))
    strides = U64(*[s * tensor.element_size()
                    for s in reversed(tensor.stride()[:-1])])
    box = U32(*reversed(spec["box"]))
    ones = U32(*([1] * rank))
    out = (ctypes.c_uint8 * 128)()
    oob = 1 if spec.get("oob_fill") == "nan_request_zero_fma" else 0
    status = cuda.cuTensorMapEncodeTiled(
        out, DTYPES[dtype], rank, ctypes.c_void_p(tensor.data_ptr()), dims,
        strides, box, ones, 0, SWIZZLE[spec.get("swizzle", "none")], l2, oob)
    if status:
        raise RuntimeError("cuTensorMapEncodeTiled: %d" % status)
    return bytes(out)


# Where D-48 expects the device's map to differ from the driver's.
EXPECTED = {1: 0xF << 7, 8: ~0, 9: ~0}


def words(raw):
    return [int.from_bytes(raw[i:i + 8], "little") for i in range(0, 128, 8)]


def main():
    artifact, row = sys.argv[1], sys.argv[2]
    b, sq, skv = (int(x) for x in row.split(":"))
    fa4 = import_fa4()
    from fa4.flash import _Record
    with open(os.path.join(artifact, "manifest.json")) as f:
        manifest = json.load(f)
    problem = load_problem(artifact)
    persistent = manifest["launch"].get("persistent")
    twin = ("twin" in manifest and persistent
            and skv <= persistent.get("max_seq_kv", -1))
    scratch = (manifest["twin"] if twin else manifest)["params"][-1]
    if scratch.get("kind") != "tensor_map_scratch":
        sys.exit("%s: not a --device-tensor-maps kernel" % artifact)
    kernel = fa4.Kernel.load(artifact)
    q, k, v = input_sets(problem, b, sq, skv)[0]
    o, lse = fa4_outputs(problem, b, sq, q.dtype)
    tensors = dict(q=q, k=k, v=v, o=o)
    record = _Record(torch, kernel, (q, k, v, o, lse))
    workspace = torch.zeros(record.workspace_bytes, dtype=torch.uint8,
                            device="cuda")
    pointers = record._Pointers(*(t.data_ptr() if t is not None else 0
                                  for t in (q, k, v, o, lse)))
    stream = torch.cuda.current_stream().cuda_stream
    fa4.runtime._check(kernel._lib.fa4_launch_record_run(
        record.handle, pointers, ctypes.c_void_p(workspace.data_ptr()),
        ctypes.c_void_p(stream)))
    torch.cuda.synchronize()
    maps = scratch["maps"]
    built = workspace[-128 * len(maps):].cpu().numpy().tobytes()
    cuda = ctypes.CDLL("libcuda.so.1")
    names = {t["name"]: t for t in manifest["tensors"]}
    differ = 0
    for index, spec in enumerate(maps):
        name = spec["tensor"]
        dtype = names[name]["dtype"]
        device = words(built[128 * index:128 * (index + 1)])
        host = words(driver_map(cuda, dtype, tensors[name], spec,
                                L2[spec.get("l2_promotion", "none")]))
        plain = words(driver_map(cuda, dtype, tensors[name], spec, 0))
        print("map %d (%s, box %s, swizzle %s, l2 %s)" % (
            index, name, spec["box"], spec.get("swizzle"),
            spec.get("l2_promotion")))
        print("  word  %-18s %-18s %-18s" % ("device", "driver", "driver l2=none"))
        for w in range(16):
            diff = device[w] ^ plain[w]
            mark = ("" if not diff else "  (D-48)"
                    if not diff & ~EXPECTED.get(w, 0) else "  <- differs")
            differ += mark == "  <- differs"
            print("  %4d  %016x   %016x   %016x%s" % (w, device[w], host[w],
                                                       plain[w], mark))
    print("%d word(s) differ from the driver's map without L2 promotion "
          "beyond D-48's" % differ)
    kernel.close()
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
