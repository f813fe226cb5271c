#!/usr/bin/env python3
"""Where does one side's round-to-round spread come from?

compare_sdpa.py --interleave times fa4, cuDNN and flash in turn, a round
each, and reports each side's median round. fa4's rounds spread over 11%
at d = 128, 2048 keys, where cuDNN's spread over 3% (measured 2026-12-01,
D-42). This probe times the same kind of round (30 calls queued back to back
after a warm-up, each call between CUDA events) for each artifact given, in
two schedules on the same inputs:

  alone        the artifact's rounds back to back, nothing in between;
  interleaved  each of its rounds followed by a cuDNN round, as in
               compare_sdpa.py.

and prints, per schedule and round, the median call and the fastest and
slowest of its 30 calls, with the board's median SM clock over the round
(nvidia-smi every 20 ms). Rounds uniformly slow (every call slower, the
clock lower) point at the board; rounds with a few slow calls at the
launches; a spread only when interleaved at the turns between kernels.

  round_spread.py [--rounds N] ARTIFACT_DIR:B:S [...]
"""
import argparse
import os
import time

import torch
from torch.nn.attention import SDPBackend

from compare_sdpa import (call_times, fa4_outputs, import_fa4, input_sets, load_problem,
                          sdpa_call, warm_up)
from gpu_clocks import ClockSampler


def timed_calls(fn):
    """A round much as compare_sdpa.py's interleaved turns time one: every
    call's ms, 30 calls queued back to back after 100 ms of calls."""
    return call_times(fn, warmup=0, warmup_ms=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("rows", nargs="+", help="ARTIFACT_DIR:B:S")
    args = parser.parse_args()
    fa4 = import_fa4()

    sampler = ClockSampler()
    sampler.start()
    time.sleep(0.5)
    print(f"{'artifact':48} {'b':>3} {'s':>6} {'schedule':>11} {'round':>5} "
          f"{'median':>7} {'min':>7} {'max':>7} {'MHz':>5}")
    for spec in args.rows:
        artifact, b, s = spec.rsplit(":", 2)
        b, s = int(b), int(s)
        kernel = fa4.Kernel.load(artifact)
        problem = load_problem(artifact)
        q, k, v = input_sets(problem, b, s, s)[0]
        o, lse = fa4_outputs(problem, b, s, q.dtype)
        stream = torch.cuda.current_stream()

        def fa4_call():
            kernel.launch(q, k, v, o, lse, stream=stream)

        cudnn_call = sdpa_call(SDPBackend.CUDNN_ATTENTION, problem, (q, k, v), s, s)

        warm_up(fa4_call, 1000)
        name = os.path.basename(artifact.rstrip("/"))[:48]
        for schedule in ("alone", "interleaved"):
            for r in range(args.rounds):
                start = time.monotonic()
                times = timed_calls(fa4_call)
                window = (start, time.monotonic())
                if schedule == "interleaved":
                    timed_calls(cudnn_call)
                seen = sampler.summary([window])
                mhz = f"{seen[0]:5.0f}" if seen else "    -"
                print(f"{name:48} {b:3} {s:6} {schedule:>11} {r:5} "
                      f"{times[len(times) // 2]:7.3f} {times[0]:7.3f} {times[-1]:7.3f} {mhz}",
                      flush=True)
        kernel.close()
    sampler.stop()


if __name__ == "__main__":
    main()
