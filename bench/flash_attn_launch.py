#!/usr/bin/env python3
"""fa4.flash_attn_func launched from Python, against torch SDPA launched the
same way, in one process: host cost per call and decode bandwidth.

For each row (B = 1, one query row, GQA 32/8 heads, d = 128, bf16, SKV keys)
each contender runs in rounds, the contenders' rounds interleaved (A B C, C
B A, ...): a round (inside the contender's SDPA backend choice, entered once)
is 20 warm calls, then CALLS calls queued with no
synchronisation between them, timed on the host (perf_counter: the host
cost per call) and on the GPU (CUDA events around the calls: the time per
call the stream saw, which is the host's when the host is the bottleneck).
Bandwidth is K and V's bytes over that time. Medians over the rounds.

  flash_attn_launch.py --configs          the kernel pack's configurations
  flash_attn_launch.py [--rounds N] [--calls N] [--skv N ...]
"""
import argparse
import os
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

HQ, HKV, D = 32, 8, 128
CONFIGS = ["bf16:%d:%d:%d:%d:none" % (HQ, HKV, D, D)]


def contenders(torch, fa4, q, k, v):
    """(name, call, context): each round runs inside its context once, so a
    backend choice costs nothing per call."""
    import contextlib
    from torch.nn.attention import SDPBackend, sdpa_kernel
    out = torch.empty_like(q)
    qh, kh, vh = (t.transpose(1, 2) for t in (q, k, v))

    def sdpa():
        return torch.nn.functional.scaled_dot_product_attention(
            qh, kh, vh, enable_gqa=True)

    rows = [("fa4.flash_attn_func", lambda: fa4.flash_attn_func(q, k, v),
             contextlib.nullcontext),
            ("fa4.flash_attn_func(out=)",
             lambda: fa4.flash_attn_func(q, k, v, out=out),
             contextlib.nullcontext),
            ("torch SDPA (default)", sdpa, contextlib.nullcontext),
            ("torch SDPA cuDNN", sdpa,
             lambda: sdpa_kernel(SDPBackend.CUDNN_ATTENTION)),
            ("torch SDPA flash", sdpa,
             lambda: sdpa_kernel(SDPBackend.FLASH_ATTENTION))]
    usable = []
    for row in rows:
        name, call, context = row
        try:
            with context():
                call()
            torch.cuda.synchronize()
            usable.append(row)
        except RuntimeError as error:
            print("info %s unavailable here: %s" % (name, str(error)[:120]))
    return usable


def one_round(torch, call, context, calls):
    with context():
        for _ in range(20):
            call()
        torch.cuda.synchronize()
        start, end = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        start.record()
        host = time.perf_counter()
        for _ in range(calls):
            call()
        host = (time.perf_counter() - host) / calls * 1e6
        end.record()
        end.synchronize()
    return host, start.elapsed_time(end) * 1e3 / calls


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", action="store_true")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--skv", type=int, nargs="+", default=[8192, 32768])
    args = parser.parse_args()
    if args.configs:
        print("\n".join(CONFIGS))
        return 0
    import torch
    import fa4
    print("%-26s %6s %9s %9s %8s %9s" % ("contender", "skv", "host us",
                                         "gpu us", "TB/s", "vs cuDNN"))
    for skv in args.skv:
        gen = torch.Generator(device="cuda").manual_seed(skv)
        q = torch.randn(1, 1, HQ, D, device="cuda", dtype=torch.bfloat16,
                        generator=gen)
        k, v = (torch.randn(1, skv, HKV, D, device="cuda",
                            dtype=torch.bfloat16, generator=gen)
                for _ in range(2))
        kv_bytes = 2 * skv * HKV * D * 2
        rows = contenders(torch, fa4, q, k, v)
        samples = {name: [] for name, _, _ in rows}
        for r in range(args.rounds):
            order = rows if r % 2 == 0 else rows[::-1]
            for name, call, context in order:
                samples[name].append(one_round(torch, call, context,
                                               args.calls))
        medians = {name: (statistics.median(h for h, _ in s),
                          statistics.median(g for _, g in s))
                   for name, s in samples.items()}
        cudnn = medians.get("torch SDPA cuDNN")
        for name, (host, gpu) in medians.items():
            tbps = kv_bytes / (gpu * 1e-6) / 1e12
            ratio = "%.2fx" % (cudnn[1] / gpu) if cudnn else "-"
            print("%-26s %6d %9.1f %9.1f %8.2f %9s" % (name, skv, host, gpu,
                                                        tbps, ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
