#!/usr/bin/env python3
"""Times fa4's prefill bench rows on the H100/H200 with the SM clock they ran
at: the measurements the timing model (model.py) is checked against.

    time_rows.py --configs        the kernel pack's configurations
    time_rows.py [--rows REGEX]   on the GPU, $FA4_CACHE_DIR the pack

The rows are scripts/make-matrix.py's prefill sweep: bf16, Hq = Hkv =
2048 / d, d in {64, 128, 256}, no mask and causal, S = Sq = Skv in
512..16384, B = 16384 / S. Each row runs fa4 (flash_attn_func) and cuDNN
(torch SDPA) in turn: a second of launches first (the board's sustained
clock, bench/RESULTS.md "How measured"), then 100 timed calls (CUDA events,
the median), while bench/gpu_clocks.py's sampler reads the SM clock every
20 ms; the row's clock is the median sample of fa4's timed window. Prints
one line per row: `ROW d=.. mask=.. s=.. b=.. fa4_ms=.. fa4_mhz=..
cudnn_ms=.. cudnn_mhz=..`.
"""
import argparse
import os
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

DEPTHS = (64, 128, 256)
MASKS = ("none", "causal")
SEQS = (512, 1024, 2048, 4096, 8192, 16384)


def configs():
    return ["bf16:%d:%d:%d:%d:%s" % (2048 // d, 2048 // d, d, d, mask)
            for d in DEPTHS for mask in MASKS]


def rows():
    return [(d, mask, s, 16384 // s) for d in DEPTHS for mask in MASKS
            for s in SEQS]


def timed(torch, sampler, fn, warmup_ms, iters=100):
    """(median ms, median MHz) of `iters` calls after `warmup_ms` of calls."""
    end = time.time() + warmup_ms / 1000
    while time.time() < end:
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    start = time.monotonic()
    for begin, finish in events:
        begin.record()
        fn()
        finish.record()
    torch.cuda.synchronize()
    stop = time.monotonic()
    ms = statistics.median(b.elapsed_time(f) for b, f in events)
    clock = sampler.summary([(start, stop)])
    return ms, clock[0] if clock else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", action="store_true")
    parser.add_argument("--rows", default="", help="regex over 'd=.. mask=.. s=..'")
    parser.add_argument("--no-cudnn", action="store_true",
                        help="time fa4 alone (kernel variants against each other)")
    args = parser.parse_args()
    if args.configs:
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    from gpu_clocks import ClockSampler
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sampler = ClockSampler()
    sampler.start()
    print("device:", torch.cuda.get_device_name())
    for d, mask, s, b in rows():
        name = "d=%d mask=%s s=%d b=%d" % (d, mask, s, b)
        if args.rows and not re.search(args.rows, name):
            continue
        h = 2048 // d
        q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        causal = mask == "causal"
        qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                torch.nn.functional.scaled_dot_product_attention(
                    qt, kt, vt, is_causal=causal)

        fa4_ms, fa4_mhz = timed(torch, sampler, lambda: fa4.flash_attn_func(
            q, k, v, causal=causal), 1000)
        cudnn_ms, cudnn_mhz = ((float("nan"), float("nan")) if args.no_cudnn
                               else timed(torch, sampler, cudnn, 1000))
        print("ROW %s fa4_ms=%.4f fa4_mhz=%.0f cudnn_ms=%.4f cudnn_mhz=%.0f"
              % (name, fa4_ms, fa4_mhz, cudnn_ms, cudnn_mhz), flush=True)
    sampler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
