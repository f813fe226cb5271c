#!/usr/bin/env python3
"""The backward pass's speed (issue 63): fa4's forward + backward through
autograd against torch SDPA's cuDNN and FlashAttention-2 backends doing the
same, in one process, as time ratios (above 1: fa4 is faster).

Each row (B x S tokens, 16 heads, d = 64 or 128, bf16, causal or not)
times a step: the forward, then backward of sum(o * dO), q, k and v
requiring grad. The contenders' rounds are interleaved (A B C, C B A,
...); a round is 3 warm steps and STEPS timed ones between CUDA events;
medians over the rounds. The backward's FLOPs (2.5x the forward's,
FlashAttention's count; halved when causal) over the step time less the
forward's give its TFLOP/s.

  backward.py --configs       the kernel pack's configurations
  backward.py [--rounds N] [--steps N]
"""
import argparse
import os
import statistics
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

HEADS = 16
# (b, s, d, causal)
ROWS = [(1, 2048, 64, False), (1, 2048, 128, False), (1, 2048, 128, True),
        (2, 4096, 128, True)]


def configs():
    lines = []
    for d in sorted({row[2] for row in ROWS}):
        for mask in ("none", "causal"):
            line = "bf16:%d:%d:%d:%d:%s" % (HEADS, HEADS, d, d, mask)
            lines += [line, line + ":backward"]
    return lines


def contenders(torch, fa4, causal):
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def fa4_step(q, k, v):
        return fa4.flash_attn_func(q, k, v, causal=causal)

    def sdpa(backend):
        def step(q, k, v):
            with sdpa_kernel(backend):
                return torch.nn.functional.scaled_dot_product_attention(
                    q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                    is_causal=causal).transpose(1, 2)
        return step

    return [("fa4", fa4_step),
            ("cudnn", sdpa(SDPBackend.CUDNN_ATTENTION)),
            ("flash2", sdpa(SDPBackend.FLASH_ATTENTION))]


def time_round(torch, step, q, k, v, dout, steps, backward=True):
    def once():
        out = step(q, k, v)
        if backward:
            out.backward(dout)
    for _ in range(3):
        once()
    start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    start.record()
    for _ in range(steps):
        once()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--configs", action="store_true")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=5)
    args, _ = parser.parse_known_args()
    if args.configs:
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    print("device:", torch.cuda.get_device_name())
    for b, s, d, causal in ROWS:
        gen = torch.Generator(device="cuda").manual_seed(s + d)
        q, k, v, dout = (torch.randn(b, s, HEADS, d, device="cuda",
                                     dtype=torch.bfloat16, generator=gen)
                         for _ in range(4))
        for t in (q, k, v):
            t.requires_grad_(True)
        times = {}
        forward = {}
        people = contenders(torch, fa4, causal)
        for r in range(args.rounds):
            order = people if r % 2 == 0 else people[::-1]
            for name, step in order:
                times.setdefault(name, []).append(
                    time_round(torch, step, q, k, v, dout, args.steps))
                with torch.no_grad():
                    forward.setdefault(name, []).append(time_round(
                        torch, step, q, k, v, dout, args.steps, False))
        med = {n: statistics.median(t) for n, t in times.items()}
        fwd = {n: statistics.median(t) for n, t in forward.items()}
        flops = 4 * b * s * s * HEADS * d * 2.5 / (2 if causal else 1)
        print("b=%d s=%d d=%d %s: step ms fa4 %.3f cudnn %.3f flash2 %.3f; "
              "backward TFLOP/s fa4 %.1f cudnn %.1f flash2 %.1f; fa4 / "
              "cudnn %.3fx, fa4 / flash2 %.3fx (step time ratio)"
              % (b, s, d, "causal" if causal else "none", med["fa4"],
                 med["cudnn"], med["flash2"],
                 *(flops / max(med[n] - fwd[n], 1e-6) / 1e9
                   for n in ("fa4", "cudnn", "flash2")),
                 med["cudnn"] / med["fa4"], med["flash2"] / med["fa4"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
