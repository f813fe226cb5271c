#!/usr/bin/env python3
"""fa4's Blackwell kernel against FlashAttention-4's CuTe sm_100a kernel on
the prefill rows, by the timing model's step (blackwell.py): what the model
predicts of their ratio, with its uncertainty.

    compare_b200.py --ours D:MASK:CUBIN ... --fa4 D:MASK:CUBIN ...

MASK is none or causal. Both kernels run 256 query rows per CTA (two
128-row Q tiles) over 128-key K/V tiles. Per row (bf16, Hq = Hkv =
2048 / d, S = Sq = Skv in 1k..16k, 16k tokens) a CTA runs ceil(keys / 128)
steps, the causal ones that cross either Q tile's diagonal masked; each
kernel's unmasked and masked step periods come from blackwell.py at
tcgen05.ld latencies 0, 64 and 128; CTAs go to 148 SMs, the SM free first.
Per-CTA parts outside the loop, CTA pairs and persistence are left out
(bench/sm-model/README.md). Prints, per row, the predicted ratio of
FlashAttention-4's time to fa4's (above 1: fa4 faster) at each latency.
"""
import argparse
import heapq
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import blackwell  # noqa: E402
import model  # noqa: E402

SMS = 148
ROWS_PER_CTA = 256
TILE_ROWS = 128
BN = 128
SEQS = (1024, 2048, 4096, 8192, 16384)
LATENCIES = (0, 64, 128)


def periods(cubin, depth):
    """{latency: (unmasked, masked) step cycles}."""
    functions = model.functions(cubin)
    function = max(functions.values(), key=lambda f: len(f[0]))
    out = {}
    for latency in LATENCIES:
        model.RESULT_LATENCY["LDTM"] = latency
        out[latency] = tuple(
            blackwell.step(function, BN, depth, 2, masked)["period"]
            for masked in (False, True))
    return out


def ctas(s, b, h, causal):
    """Each CTA's (unmasked, masked) steps."""
    out = []
    for block in range(math.ceil(s / ROWS_PER_CTA)):
        first = block * ROWS_PER_CTA
        keys = min(s, first + ROWS_PER_CTA) if causal else s
        steps = math.ceil(keys / BN)
        clean = (first + 1) // BN if causal else s // BN
        clean = min(clean, steps)
        out.append((clean, steps - clean))
    return out * (b * h)


def total(cta_steps, period):
    clean, masked = period
    heap = [0.0] * SMS
    for n, m in sorted(cta_steps, key=sum, reverse=True):
        heapq.heapreplace(heap, heap[0] + n * clean + m * masked)
    return max(heap)


def parse(items):
    out = {}
    for item in items:
        depth, mask, cubin = item.split(":", 2)
        out[(int(depth), mask)] = cubin
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ours", nargs="+", required=True)
    parser.add_argument("--fa4", nargs="+", required=True)
    args = parser.parse_args()
    ours, theirs = parse(args.ours), parse(args.fa4)
    print("%-22s %s" % ("row", "  ".join("FA4/fa4 @%d" % l for l in LATENCIES)))
    ratios = []
    for key in sorted(ours):
        if key not in theirs:
            continue
        depth, mask = key
        mine, fa4 = periods(ours[key], depth), periods(theirs[key], depth)
        print("# d=%d %s step periods (unmasked, masked): fa4 %s, FA4 %s" % (
            depth, mask, {l: tuple(round(x) for x in p) for l, p in mine.items()},
            {l: tuple(round(x) for x in p) for l, p in fa4.items()}))
        for s in SEQS:
            steps = ctas(s, 16384 // s, 2048 // depth, mask == "causal")
            row = [total(steps, fa4[l]) / total(steps, mine[l]) for l in LATENCIES]
            ratios += row
            print("%-22s %s" % ("d=%d %s s=%d" % (depth, mask, s),
                                "  ".join("%10.3f" % r for r in row)))
    if ratios:
        print("FA4/fa4 over every row and latency: %.3f-%.3f" % (min(ratios), max(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
