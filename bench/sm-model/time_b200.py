#!/usr/bin/env python3
"""The first B200's timings of fa4's Blackwell kernel and FlashAttention-4's
CuTe kernel on the prefill rows, against what the timing model predicted
(compare_b200.py's table, b200-compare.txt): scripts/b200-ready.sh's third
step.

    time_b200.py --configs               the kernel pack's configurations
    time_b200.py --predicted [TABLE]     the predictions alone (no GPU)
    time_b200.py [--rows REGEX] [TABLE]  on the B200, $FA4_CACHE_DIR the pack

The rows are compare_b200.py's: bf16, Hq = Hkv = 2048 / d, d in {64, 128},
no mask and causal, S = Sq = Skv in 1k..16k, B = 16384 / S. The prediction
of a row is the makespan compare_b200.py computes from the step periods in
TABLE (its "# d=.. step periods" lines), in cycles at tcgen05.ld latencies
0, 64 and 128, turned into milliseconds at the SM clock the row ran at
(bench/gpu_clocks.py, as time_rows.py does on the H100). Each kernel is
timed as time_rows.py times them (a second of launches, then the median of
100). FlashAttention-4's side needs its CuTe package
(`flash_attn.cute.interface`); without it that column reads "-". Prints one
line per row and the ranges over all rows; the model claims no more than
these ratios (bench/sm-model/README.md).
"""
import argparse
import ast
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))
import compare_b200  # noqa: E402

DEFAULT_TABLE = os.path.join(HERE, "b200-compare.txt")
DEPTHS = (64, 128)
MASKS = ("none", "causal")
PERIODS = re.compile(r"^# d=(\d+) (\w+) step periods \(unmasked, masked\): "
                     r"fa4 (\{.*\}), FA4 (\{.*\})$")


def configs():
    return ["bf16:%d:%d:%d:%d:%s" % (2048 // d, 2048 // d, d, d, mask)
            for d in DEPTHS for mask in MASKS]


def rows():
    return [(d, mask, s, 16384 // s) for d in DEPTHS for mask in MASKS
            for s in compare_b200.SEQS]


def read_periods(table):
    """{(d, mask): (fa4's, FA4's {latency: (unmasked, masked)})} of TABLE."""
    out = {}
    for line in open(table):
        match = PERIODS.match(line.strip())
        if match:
            mine, theirs = (ast.literal_eval(match.group(i)) for i in (3, 4))
            out[(int(match.group(1)), match.group(2))] = (mine, theirs)
    if not out:
        raise SystemExit("time_b200.py: no step periods in %s" % table)
    return out


def predicted_cycles(periods, d, mask, s, b):
    """{latency: (fa4 cycles, FA4 cycles)} of a row's makespan."""
    mine, theirs = periods[(d, mask)]
    steps = compare_b200.ctas(s, b, 2048 // d, mask == "causal")
    return {latency: (compare_b200.total(steps, mine[latency]),
                      compare_b200.total(steps, theirs[latency]))
            for latency in compare_b200.LATENCIES}


def tflops(d, mask, s, b, ms):
    flops = 4 * b * (2048 // d) * s * s * d / (2 if mask == "causal" else 1)
    return flops / (ms * 1e-3) / 1e12


def span(values):
    return "%.3f-%.3f" % (min(values), max(values))


def print_predicted(periods):
    """The predictions alone: cycles, and FA4 / fa4, per row."""
    for d, mask, s, b in rows():
        cycles = predicted_cycles(periods, d, mask, s, b)
        print("PREDICTED d=%d mask=%s s=%d b=%d fa4_cycles=%s FA4/fa4=%s" % (
            d, mask, s, b,
            "/".join("%.0f" % cycles[l][0] for l in compare_b200.LATENCIES),
            "/".join("%.3f" % (cycles[l][1] / cycles[l][0])
                     for l in compare_b200.LATENCIES)))


def flash_attn_cute():
    """FlashAttention-4's CuTe forward, or None where it is not installed."""
    try:
        from flash_attn.cute.interface import flash_attn_func
    except ImportError:
        return None
    return flash_attn_func


def measure(periods, pattern):
    import torch
    import fa4
    import time_rows
    from gpu_clocks import ClockSampler
    theirs = flash_attn_cute()
    sampler = ClockSampler()
    sampler.start()
    print("device:", torch.cuda.get_device_name(),
          "| FlashAttention-4 CuTe:", "yes" if theirs else "not installed")
    off_model, ratios, predicted_ratios = [], [], []
    for d, mask, s, b in rows():
        name = "d=%d mask=%s s=%d b=%d" % (d, mask, s, b)
        if pattern and not re.search(pattern, name):
            continue
        h = 2048 // d
        q, k, v = (torch.randn(b, s, h, d, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        causal = mask == "causal"
        ours_ms, mhz = time_rows.timed(torch, sampler, lambda: fa4.flash_attn_func(
            q, k, v, causal=causal), 1000)
        cycles = predicted_cycles(periods, d, mask, s, b)
        # Predicted ms at the clock fa4's window ran at, per latency.
        expected = [cycles[l][0] / (mhz * 1e3) for l in compare_b200.LATENCIES]
        off_model += [ours_ms / e for e in expected]
        line = ("ROW %s fa4_ms=%.4f mhz=%.0f tflops=%.0f predicted_ms=%s "
                "measured/predicted=%s" % (
                    name, ours_ms, mhz, tflops(d, mask, s, b, ours_ms),
                    "/".join("%.4f" % e for e in expected),
                    "/".join("%.3f" % (ours_ms / e) for e in expected)))
        predicted = [cycles[l][1] / cycles[l][0] for l in compare_b200.LATENCIES]
        predicted_ratios += predicted
        if theirs:
            their_ms, _ = time_rows.timed(torch, sampler, lambda: theirs(
                q, k, v, causal=causal), 1000)
            ratios.append(their_ms / ours_ms)
            line += " FA4_ms=%.4f FA4/fa4=%.3f" % (their_ms, ratios[-1])
        else:
            line += " FA4_ms=- FA4/fa4=-"
        print(line + " predicted_FA4/fa4=%s" % "/".join(
            "%.3f" % r for r in predicted), flush=True)
    sampler.stop()
    if off_model:
        print("fa4 measured / predicted over the rows and latencies: %s"
              % span(off_model))
        print("FA4/fa4 predicted: %s; measured: %s" % (
            span(predicted_ratios), span(ratios) if ratios else "-"))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", nargs="?", default=DEFAULT_TABLE)
    parser.add_argument("--configs", action="store_true")
    parser.add_argument("--predicted", action="store_true")
    parser.add_argument("--rows", default="", help="regex over 'd=.. mask=.. s=..'")
    args = parser.parse_args()
    if args.configs:
        print("\n".join(configs()))
        return 0
    periods = read_periods(args.table)
    if args.predicted:
        print_predicted(periods)
        return 0
    return measure(periods, args.rows)


if __name__ == "__main__":
    sys.exit(main())
