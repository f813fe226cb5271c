#!/usr/bin/env python3
"""GPU check of the Python path: fa4.Kernel on torch CUDA tensors.

Run by scripts/gpu-check.sh when torch is present. For a few matrix kernels
(GQA, causal and window masks, LSE), at odd sizes, with fresh random inputs:
launches through the ctypes package on torch's current stream, and checks O
and LSE with FlashAttention's rule against an f64 reference, with the
low-precision error measured on torch SDPA's math backend in the input dtype.
Also checks that a contiguous LSE with Sq % 4 != 0 is accepted (kernel ABI
v2) and that a misaligned Q is refused with a message naming it.
Prints one line per case and exits non-zero on any failure.
"""
import glob
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import fa4  # noqa: E402
from attention_reference import reference  # noqa: E402


def check(kernel_dir, sq, skv, b=2, seed=0):
    kernel = fa4.Kernel.load(kernel_dir)
    info = kernel.info
    dtype = torch.bfloat16 if info.dtype == "bf16" else torch.float16
    gen = torch.Generator(device="cuda").manual_seed(seed)
    hq, hkv = info.heads
    dqk, dv = info.depths
    q = torch.randn(b, sq, hq, dqk, device="cuda", dtype=dtype, generator=gen)
    k = torch.randn(b, skv, hkv, dqk, device="cuda", dtype=dtype, generator=gen)
    v = torch.randn(b, skv, hkv, dv, device="cuda", dtype=dtype, generator=gen)
    o = torch.full((b, sq, hq, dv), float("nan"), device="cuda", dtype=dtype)
    lse = torch.full((b, hq, sq), float("nan"), device="cuda", dtype=torch.float32)
    mask, left, right = info.mask, info.window_left, info.window_right
    kernel(q, k, v, o, lse)
    torch.cuda.synchronize()
    o_ref, lse_ref = reference(q, k, v, mask, left, right, torch.float64)
    o_low, _ = reference(q, k, v, mask, left, right, dtype)
    err = (o.double() - o_ref).abs().max().item()
    ref_err = (o_low.double() - o_ref).abs().max().item()
    finite = torch.isfinite(lse_ref)
    lse_ok = torch.equal(torch.isinf(lse), ~finite) and (
        (lse[finite].double() - lse_ref[finite].double()).abs().max().item() < 1e-3
        if finite.any() else True)
    ok = not math.isnan(err) and err <= 2 * ref_err + 1e-5 and lse_ok
    print("%-4s %s sq=%d skv=%d max_err=%.3g ref_err=%.3g lse=%s" % (
        "pass" if ok else "FAIL", os.path.basename(kernel_dir), sq, skv, err,
        ref_err, "ok" if lse_ok else "BAD"))
    return ok


def check_refusal(kernel_dir):
    kernel = fa4.Kernel.load(kernel_dir)
    hq, hkv = kernel.info.heads
    dqk, dv = kernel.info.depths
    dtype = torch.bfloat16 if kernel.info.dtype == "bf16" else torch.float16
    storage = torch.randn(2 * 7 * hq * dqk + 1, device="cuda", dtype=dtype)
    q = storage[1:].view(2, 7, hq, dqk)  # 2-byte offset: not 16-byte aligned
    k = torch.randn(2, 9, hkv, dqk, device="cuda", dtype=dtype)
    v = torch.randn(2, 9, hkv, dv, device="cuda", dtype=dtype)
    try:
        kernel(q, k, v)
    except fa4.Fa4Error as error:
        ok = "'q'" in str(error)
        print("%-4s refused misaligned q: %s" % ("pass" if ok else "FAIL", error))
        return ok
    print("FAIL misaligned q was launched")
    return False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "artifacts"
    wanted = ["d128x128_h6x3_causal_bf16", "d64x64_h6x1_win17_33_f16",
              "d192x128_h6x6_none_bf16", "d256x256_h6x3_win128_0_bf16"]
    dirs = []
    for name in wanted:
        dirs += glob.glob(os.path.join(root, "*%s*" % name))
    if not dirs:
        print("no matrix artifacts under %s" % root)
        return 1
    ok = True

    def guarded(run, what):
        """An exception is one failed case, not the end of the run."""
        try:
            return run()
        except Exception as error:  # noqa: BLE001
            print("FAIL %s: %s: %s" % (what, type(error).__name__, error))
            return False

    for seed, kernel_dir in enumerate(sorted(dirs)):
        for sq, skv in ((113, 203), (1, 1), (239, 1), (1023, 1024)):
            ok &= guarded(lambda: check(kernel_dir, sq, skv, seed=seed),
                          "%s sq=%d skv=%d" % (os.path.basename(kernel_dir), sq, skv))
    ok &= guarded(lambda: check_refusal(sorted(dirs)[0]), "refusal")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
