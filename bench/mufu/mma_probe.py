#!/usr/bin/env python3
"""What the H100's tensor cores make of one bf16 MMA step with an f32
accumulator (the Hopper kernel's wgmma m64nNk16): D = C + A B over K = 16,
run by a Triton dot (wgmma on sm_90a) on random bf16 A, B and f32 C, saved
with the inputs for bench/mufu/README.md's comparison with fa4-emu's model
(emu/lib/Async.cpp: the 16 products summed exactly, then C + sum rounded
once). Writes OUT/mma.npz; needs torch and triton (the device machine)."""
import os
import sys

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def step(a_ptr, b_ptr, c_ptr, d_ptr):
    m = tl.arange(0, 64)
    n = tl.arange(0, 64)
    k = tl.arange(0, 16)
    a = tl.load(a_ptr + m[:, None] * 16 + k[None, :])
    b = tl.load(b_ptr + k[:, None] * 64 + n[None, :])
    c = tl.load(c_ptr + m[:, None] * 64 + n[None, :])
    d = tl.dot(a, b, acc=c)
    tl.store(d_ptr + m[:, None] * 64 + n[None, :], d)


def main():
    out = sys.argv[1]
    torch.manual_seed(7)
    trials = 64
    a = torch.randn(trials, 64, 16, device="cuda").to(torch.bfloat16)
    b = torch.randn(trials, 16, 64, device="cuda").to(torch.bfloat16)
    # Accumulators of a few magnitudes, so alignment shows.
    scale = torch.logspace(-3, 3, trials, device="cuda").view(trials, 1, 1)
    c = (torch.randn(trials, 64, 64, device="cuda") * scale).float()
    d = torch.empty_like(c)
    for t in range(trials):
        step[(1,)](a[t], b[t], c[t], d[t])
    torch.cuda.synchronize()
    # fa4-emu's model: exact products, exact sum, one rounding of C + sum.
    exact = (a.double() @ b.double())
    model = (c.double() + exact).float()
    same = (model.view(torch.int32) == d.view(torch.int32)).double().mean()
    print("mma k16: fa4-emu's model bit-identical on %.4f%% of %d outputs"
          % (100 * same.item(), d.numel()))
    np.savez_compressed(os.path.join(out, "mma.npz"),
                        a=a.view(torch.int16).cpu().numpy(),
                        b=b.view(torch.int16).cpu().numpy(),
                        c=c.cpu().numpy(), d=d.cpu().numpy())


if __name__ == "__main__":
    main()
