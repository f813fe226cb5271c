#!/usr/bin/env python3
"""The planted-bug corpus (emu/planted/bugs.json): realistic one-line edits
of fa4's PTX (removed or moved waits, wrong mbarrier parities, wrong
expect-tx byte counts, removed fences and barriers, wrong cluster ranks,
TMA coordinates, TMEM columns and mask bounds), each run on fa4-emu under
the exploring scheduler (emu/scripts/explore.py) and classified:

  named     the emulator reported an error (a rule it enforces)
  caught    fa4-run's check against its CPU reference failed
  survived  every schedule of the budget passed

Compiles the four kernels with fa4-compile (--ptxas=none), checks that each
unedited one passes, applies every edit (its regex must match exactly once)
and prints a table and the kill rate (named or caught). docs/Emulator.md,
"Planted bugs", records the last run and why each survivor is harmless.

  emu/scripts/planted-bugs.py                      # the whole corpus
  emu/scripts/planted-bugs.py --only h-no-wait-k,b-tmem-col
  emu/scripts/planted-bugs.py --strategies random --seeds 8   # compare
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location(
    "explore", os.path.join(ROOT, "emu", "scripts", "explore.py"))
explore = importlib.util.module_from_spec(spec)
spec.loader.exec_module(explore)

INPUTS = os.path.join(ROOT, "test", "Emulator", "Inputs")
LONG_PREFILL = ["--batch-hint=2", "--seq-q-hint=4096", "--seq-kv-hint=4096"]
DECODE = ["--kernel=blackwell", "--batch-hint=1", "--seq-q-hint=1",
          "--seq-kv-hint=32768"]
# kernel -> (input, fa4-compile flags, artifact, fa4-run arguments): small
# shapes with several key tiles, so that stages are reused.
KERNELS = {
    "hopper": ("attention.mlir", ["--chip=sm_90a"], "fa4_hopper_gqa_sm_90a",
               ["--b", "1", "--sq", "77", "--skv", "600"]),
    "blackwell": ("attention.mlir", ["--chip=sm_100a", "--kernel=blackwell"],
                  "fa4_blackwell_gqa_sm_100a",
                  ["--b", "1", "--sq", "77", "--skv", "300"]),
    "pair": ("pair.mlir", ["--chip=sm_100a", *LONG_PREFILL],
             "fa4_blackwell_pair_causal_sm_100a",
             ["--b", "1", "--sq", "260", "--skv", "300"]),
    "decode": ("decode.mlir", ["--chip=sm_100a", *DECODE],
               "fa4_blackwell_decode_sm_100a",
               # 3 key tiles in each of the 16 partitions: phases repeat
               ["--b", "1", "--sq", "1", "--skv", "6000"]),
}


def compile_kernels(compiler, work, kernels):
    """{kernel: artifact folder} of the unedited kernels."""
    artifacts = {}
    for kernel in kernels:
        source, flags, artifact, _ = KERNELS[kernel]
        out = os.path.join(work, "base", kernel)
        subprocess.run([compiler, os.path.join(INPUTS, source), *flags,
                        "--ptxas=none", "-o", out, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        artifacts[kernel] = os.path.join(out, artifact)
    return artifacts


def planted(bug, base, work):
    """A copy of `base` with `bug`'s edit applied: its manifest."""
    folder = os.path.join(work, bug["name"])
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(base, folder)
    manifest = os.path.join(folder, "manifest.json")
    with open(manifest) as f:
        ptx = os.path.join(folder, json.load(f)["binary"]["file"])
    with open(ptx) as f:
        text = f.read()
    edited, count = re.subn(bug["find"], lambda _: bug["replace"], text,
                            flags=re.M)
    if count != 1:
        raise SystemExit(f"planted-bugs: {bug['name']}: its regex matches "
                         f"{count} times in {os.path.basename(ptx)} "
                         f"(must be once; the kernel changed?)")
    with open(ptx, "w") as f:
        f.write(edited)
    return manifest


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--bugs", default=os.path.join(
        ROOT, "emu", "planted", "bugs.json"))
    parser.add_argument("--only", help="comma-separated bug names")
    parser.add_argument("--strategies", default=explore.DEFAULT_STRATEGIES)
    parser.add_argument("--seeds", type=int, default=4,
                        help="seeds per seeded strategy (default 4)")
    parser.add_argument("--budget", type=int, default=40,
                        help="most schedules per bug (default 40)")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per run (default 120)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compiler", default=os.path.join(
        ROOT, "build", "bin", "fa4-compile"))
    parser.add_argument("--emu", default=explore.default_path(
        os.path.join(ROOT, "build-emu", "emu", "libfa4emu.so"),
        os.path.join(ROOT, "build", "emu", "libfa4emu.so")))
    parser.add_argument("--fa4-run", default=explore.default_path(
        os.path.join(ROOT, "build-emu", "runtime", "fa4-run", "fa4-run"),
        os.path.join(ROOT, "build", "bin", "fa4-run")))
    parser.add_argument("--work", help="folder for the kernels (default: a "
                        "temporary one, removed at the end)")
    parser.add_argument("--min-kill-rate", type=float, default=0.0,
                        help="exit 1 below this share named or caught")
    args = parser.parse_args()

    with open(args.bugs) as f:
        bugs = json.load(f)["bugs"]
    if args.only:
        wanted = args.only.split(",")
        unknown = set(wanted) - {b["name"] for b in bugs}
        if unknown:
            raise SystemExit(f"planted-bugs: no bug {sorted(unknown)}")
        bugs = [b for b in bugs if b["name"] in wanted]
    strategies = args.strategies.split(",")
    work = args.work or tempfile.mkdtemp(prefix="fa4-planted-")
    try:
        start = time.time()
        artifacts = compile_kernels(args.compiler, work,
                                    sorted({b["kernel"] for b in bugs}))
        for kernel, artifact in artifacts.items():
            verdict, _, _, detail, _ = explore.explore(
                args.fa4_run, args.emu, explore.manifest_path(artifact),
                KERNELS[kernel][3], ["pct:1", "random"], 1, 2, args.timeout)
            if verdict != "pass":
                raise SystemExit(f"planted-bugs: the unedited {kernel} "
                                 f"kernel fails: {detail}")
        manifests = {b["name"]: planted(b, artifacts[b["kernel"]], work)
                     for b in bugs}
        # Edited kernels are no coverage of fa4's (docs/Emulator.md,
        # "Coverage"): only the unedited runs above count.
        os.environ.pop("FA4_EMU_COVERAGE", None)

        def run(bug):
            return explore.explore(
                args.fa4_run, args.emu, manifests[bug["name"]],
                KERNELS[bug["kernel"]][3], strategies, args.seeds,
                args.budget, args.timeout)

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(run, bugs))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)

    print(f"{'bug':26} {'kind':20} {'verdict':9} {'schedule':24} runs  "
          "detail")
    counts = {}
    for bug, (verdict, schedule, seed, detail, runs) in zip(bugs, results):
        verdict = {"pass": "survived", "timeout": "caught"}.get(verdict,
                                                                 verdict)
        counts[verdict] = counts.get(verdict, 0) + 1
        where = f"{schedule} seed {seed}" if schedule else "-"
        detail = re.sub(r"^fa4-emu: \w+: ", "", detail)[:90]
        print(f"{bug['name']:26} {bug['kind']:20} {verdict:9} {where:24} "
              f"{runs:4}  {detail}")
    killed = counts.get("named", 0) + counts.get("caught", 0)
    rate = killed / len(bugs) if bugs else 1.0
    print(f"planted-bugs: {killed} of {len(bugs)} killed ({100 * rate:.1f}%):"
          f" {counts.get('named', 0)} named by the emulator, "
          f"{counts.get('caught', 0)} caught by the result check, "
          f"{counts.get('survived', 0)} survived, {counts.get('error', 0)} "
          f"other errors; strategies {args.strategies}, "
          f"{time.time() - start:.0f} s")
    return 0 if rate >= args.min_kill_rate else 1


if __name__ == "__main__":
    sys.exit(main())
