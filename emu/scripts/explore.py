#!/usr/bin/env python3
"""Runs one fa4-run case on fa4-emu under a budget of schedules and stops at
the first that fails, printing the variables that replay it
(docs/Emulator.md, "Exploring schedules"). Random seeds miss orderings a
kernel's missing synchronisation needs (a producer far ahead of a reader);
PCT and delayed warps make them on purpose.

  emu/scripts/explore.py out/KERNEL --b 1 --sq 77 --skv 130
  emu/scripts/explore.py --seeds 8 --strategies pct:1,pct:3 out/KERNEL ...

Strategies: random, pct:D, pct:D:H (each over seeds 1 to --seeds);
delay:each (each warp of the block delayed in turn, one seed), delay:async
(asynchronous completions as late as possible, over the seeds), or any
FA4_EMU_SCHEDULE value. Runs go round-robin over the strategies, seed by
seed, so a small budget still tries every strategy. Exits 1 at the first
failure, 0 when every schedule passed.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DEFAULT_STRATEGIES = "pct:1,pct:3,delay:each,delay:async,random"
# A kernel that hangs stops as an emulator error, long before the default
# 10^9 (the corpus's largest clean run is about 6e5 warp instructions).
STEP_LIMIT = "50000000"


def default_path(*candidates):
    for path in candidates:
        if os.path.exists(path):
            return path
    return candidates[0]


def manifest_path(artifact):
    if os.path.isdir(artifact):
        return os.path.join(artifact, "manifest.json")
    return artifact


def block_warps(manifest):
    """The warps of a CTA of the manifest's largest launch."""
    with open(manifest) as f:
        launch = json.load(f)["launch"]
    launches = launch if isinstance(launch, list) else [launch]
    threads = max(l["block"][0] * l["block"][1] * l["block"][2]
                  for l in launches)
    return (threads + 31) // 32


def schedules(strategies, seeds, warps):
    """(FA4_EMU_SCHEDULE, FA4_EMU_SEED), round-robin over the strategies."""
    lanes = []
    for strategy in strategies:
        if strategy == "delay:each":
            lanes.append([(f"delay:{w}", 1) for w in range(warps)])
        else:
            lanes.append([(strategy, s) for s in range(1, seeds + 1)])
    for i in range(max(len(l) for l in lanes)):
        for lane in lanes:
            if i < len(lane):
                yield lane[i]


def run_once(fa4_run, emu, manifest, run_args, schedule, seed, timeout,
             chip=None):
    """One run: (verdict, detail). verdict: "pass", "named" (the emulator
    reported an error), "caught" (fa4-run's check failed), "error" (fa4-run
    failed otherwise) or "timeout"."""
    if chip is None:
        with open(manifest) as f:
            chip = json.load(f)["chip"]
    env = dict(os.environ, FA4_CUDA_DRIVER_PATH=emu, FA4_EMU_ARCH=chip,
               FA4_EMU_SCHEDULE=schedule, FA4_EMU_SEED=str(seed))
    env.setdefault("FA4_EMU_STEP_LIMIT", STEP_LIMIT)
    try:
        done = subprocess.run([fa4_run, manifest, *run_args], env=env,
                              capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"no result in {timeout} s"
    lines = (done.stdout + done.stderr).splitlines()
    result = next((l for l in lines if l.startswith("RESULT")), "")
    if done.returncode == 0 and result.startswith("RESULT pass"):
        return "pass", result
    emulator = [l for l in done.stderr.splitlines()
                if l.startswith("fa4-emu:") and "replay:" not in l]
    if emulator:
        return "named", emulator[0]
    if result.startswith("RESULT fail"):
        return "caught", result
    return "error", result or f"exit {done.returncode}"


def explore(fa4_run, emu, manifest, run_args, strategies, seeds, budget,
            timeout, log=None):
    """Runs schedules until one fails or the budget is spent: (verdict,
    schedule, seed, detail, runs)."""
    runs = 0
    for schedule, seed in schedules(strategies, seeds,
                                    block_warps(manifest)):
        if runs >= budget:
            break
        runs += 1
        verdict, detail = run_once(fa4_run, emu, manifest, run_args,
                                   schedule, seed, timeout)
        if log:
            log(f"  {schedule} seed {seed}: {verdict}")
        if verdict != "pass":
            return verdict, schedule, seed, detail, runs
    return "pass", None, None, "", runs


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter,
        allow_abbrev=False)  # --b is fa4-run's, not --budget
    parser.add_argument("artifact", help="artifact folder or manifest.json")
    parser.add_argument("--strategies", default=DEFAULT_STRATEGIES,
                        help=f"comma-separated (default {DEFAULT_STRATEGIES})")
    parser.add_argument("--seeds", type=int, default=4,
                        help="seeds per seeded strategy (default 4)")
    parser.add_argument("--budget", type=int, default=64,
                        help="most runs in all (default 64)")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per run (default 120)")
    parser.add_argument("--emu", default=default_path(
        os.path.join(ROOT, "build-emu", "emu", "libfa4emu.so"),
        os.path.join(ROOT, "build", "emu", "libfa4emu.so")))
    parser.add_argument("--fa4-run", default=default_path(
        os.path.join(ROOT, "build-emu", "runtime", "fa4-run", "fa4-run"),
        os.path.join(ROOT, "build", "bin", "fa4-run")))
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every run")
    args, run_args = parser.parse_known_args()
    manifest = manifest_path(args.artifact)
    start = time.time()
    verdict, schedule, seed, detail, runs = explore(
        args.fa4_run, args.emu, manifest, run_args,
        args.strategies.split(","), args.seeds, args.budget, args.timeout,
        print if args.verbose else None)
    elapsed = time.time() - start
    if verdict == "pass":
        print(f"explore: {runs} schedules passed in {elapsed:.1f} s")
        return 0
    print(f"explore: FAIL ({verdict}) after {runs} schedules "
          f"({elapsed:.1f} s): {detail}")
    print(f"replay: FA4_EMU_SCHEDULE={schedule} FA4_EMU_SEED={seed} "
          f"FA4_CUDA_DRIVER_PATH={args.emu} {args.fa4_run} {manifest} "
          + " ".join(run_args))
    return 1


if __name__ == "__main__":
    sys.exit(main())
