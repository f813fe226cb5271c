#!/usr/bin/env python3
"""Two fa4 kernels against each other, round by round, in one process.

compare_sdpa.py times each artifact in a process of its own and compares it
with cuDNN in the same process; two fa4 variants are then compared through
their ratios to cuDNN, which moved 1-5% between the two processes
(measured 2026-12-01: the twin pairs read +2.1% that way and -0.2% in raw
TFLOP/s; D-9, D-42).
This times kernel A and kernel B on the same inputs in alternating rounds
(A, B, B, A, ... so that neither always follows the other), each round 30
calls queued back to back after 100 ms of calls, and reports per row each
kernel's median round, the ratio of B's round time to A's for each
adjacent pair of rounds (below 1: B faster), their median and range, and
the board's median SM clock during each kernel's rounds (nvidia-smi every
20 ms).

A row is B:S (Sq = Skv = S) or B:SQ:SKV (decode: SQ = 1). With --records
each kernel launches through a launch record made once (as flash_attn_func
does) with its workspace from torch's allocator, instead of fa4_launch
per call: a short decode is then timed on the GPU, not on the host's
launch path.

  ab_rounds.py [--rounds N] [--records] [--no-programmatic] ARTIFACT_A
      ARTIFACT_B ROW [ROW ...]
"""
import argparse
import os
import statistics
import time

import torch

from compare_sdpa import fa4_outputs, import_fa4, input_sets, load_problem, warm_up
from gpu_clocks import ClockSampler
from round_spread import timed_calls


def median_round(fn):
    """The median call of a round of 30, timed as round_spread.py times one."""
    times = timed_calls(fn)
    return times[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8,
                        help="rounds of each kernel per row (an even count)")
    parser.add_argument("artifact_a")
    parser.add_argument("artifact_b")
    parser.add_argument("--records", action="store_true",
                        help="launch through launch records")
    parser.add_argument("--no-programmatic", action="store_true",
                        help="launch both without programmatic stream "
                             "serialization: no kernel starts before the "
                             "one before it ends")
    parser.add_argument("rows", nargs="+", help="B:S (Sq = Skv = S) or B:SQ:SKV")
    args = parser.parse_args()
    if args.rounds < 2 or args.rounds % 2:
        parser.error("--rounds takes an even count of at least 2")
    fa4 = import_fa4()
    kernels = [fa4.Kernel.load(a) for a in (args.artifact_a, args.artifact_b)]
    if args.no_programmatic:
        for kernel in kernels:
            kernel.set_programmatic_launch(False)
    problems = [load_problem(a) for a in (args.artifact_a, args.artifact_b)]
    if problems[0] != problems[1]:
        parser.error("the two artifacts compute different problems")
    names = [os.path.basename(a.rstrip("/")) for a in (args.artifact_a, args.artifact_b)]
    print(f"A = {names[0]}\nB = {names[1]}")
    print(f"{'b':>3} {'s':>12} {'A ms':>8} {'B ms':>8} {'B/A time':>10} "
          f"{'(range)':>15} {'MHz A/B':>10}")

    sampler = ClockSampler()
    sampler.start()
    time.sleep(0.5)
    for row in args.rows:
        sizes = [int(x) for x in row.split(":")]
        b, sq, skv = sizes if len(sizes) == 3 else (sizes[0], sizes[1], sizes[1])
        q, k, v = input_sets(problems[0], b, sq, skv)[0]
        o, lse = fa4_outputs(problems[0], b, sq, q.dtype)
        stream = torch.cuda.current_stream()
        if args.records:
            from fa4.flash import _Record
            tensors = (q, k, v, o, lse)
            records = [_Record(torch, kernel, tensors) for kernel in kernels]
            calls = [lambda record=record: record.run(torch, tensors)
                     for record in records]
        else:
            calls = [lambda kernel=kernel: kernel.launch(q, k, v, o, lse, stream=stream)
                     for kernel in kernels]
        for call in calls:
            warm_up(call, 500)
        rounds = ([], [])
        windows = ([], [])
        # A B, then B A, and so on: each kernel follows the other as often.
        for which in [0, 1, 1, 0] * (args.rounds // 2):
            start = time.monotonic()
            rounds[which].append(median_round(calls[which]))
            windows[which].append((start, time.monotonic()))
        ratios = sorted(bt / at for at, bt in zip(*rounds))
        clocks = [sampler.summary(w) for w in windows]
        mhz = "/".join(f"{c[0]:.0f}" if c else "-" for c in clocks)
        shape = f"{sq}x{skv}" if sq != skv else str(sq)
        print(f"{b:3} {shape:>12} {statistics.median(rounds[0]):8.3f} "
              f"{statistics.median(rounds[1]):8.3f} {statistics.median(ratios):10.3f} "
              f"({ratios[0]:.3f}-{ratios[-1]:.3f}) {mhz:>10}", flush=True)
    sampler.stop()
    for kernel in kernels:
        kernel.close()


if __name__ == "__main__":
    main()
