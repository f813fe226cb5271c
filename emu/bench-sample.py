#!/usr/bin/env python3
"""Times fa4-emu on the CI sample: the RUN lines of test/Emulator/*.test.

Each test's RUN lines run in order, as lit runs them (bash, pipefail, the
same substitutions), with kernels compiled by an existing fa4-compile
(--ptxas=none, as the tests ask) and fa4-run on the emulator library given.
The lines that run fa4-run on the emulator are timed (wall clock, and the
CPU time of their processes); compiling, sed edits and the Python tests
(which compile inside the timed command) are run but not counted. A line
that fails (its FileCheck included) is reported and makes the exit status 1.

  emu/bench-sample.py --emu build-emu/emu/libfa4emu.so \
      --fa4-run build-emu/runtime/fa4-run/fa4-run --compiler-bin build/bin

The numbers in docs/Emulator.md ("Speed") were taken with it.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--emu", default="build-emu/emu/libfa4emu.so")
    parser.add_argument("--fa4-run", default="build-emu/runtime/fa4-run/fa4-run")
    parser.add_argument("--runtime-lib", default="build-emu/runtime/libfa4rt.so")
    parser.add_argument("--compiler-bin", default="build/bin",
                        help="where fa4-compile and fa4-opt are")
    parser.add_argument("--llvm-root", default="/usr/lib/llvm-22")
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the sample N times, report each and the best")
    parser.add_argument("--tests", nargs="*",
                        help="test names (default: every test/Emulator/*.test)")
    parser.add_argument("--env", action="append", default=[],
                        help="VAR=VALUE for every RUN line (FA4_EMU_SEED=3)")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args()


def run_lines(path):
    """The RUN lines and REQUIRES features of a lit test."""
    lines, requires = [], []
    with open(path) as f:
        for line in f:
            m = re.search(r"RUN:\s?(.*)$", line)
            if m:
                lines.append(m.group(1).rstrip())
            m = re.search(r"REQUIRES:\s*(.*)$", line)
            if m:
                requires += [r.strip() for r in m.group(1).split(",")]
    return lines, requires


def tool_dir(args, work):
    """A directory of the tools RUN lines name, put first on PATH."""
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    tools = {"fa4-compile": os.path.join(args.compiler_bin, "fa4-compile"),
             "fa4-opt": os.path.join(args.compiler_bin, "fa4-opt"),
             "fa4-run": args.fa4_run}
    for name in ["FileCheck", "not", "count", "split-file"]:
        tools[name] = os.path.join(args.llvm_root, "bin", name)
    for name, target in tools.items():
        os.symlink(os.path.abspath(target), os.path.join(bin_dir, name))
    return bin_dir


def substitute(line, args, test, tmp):
    subs = {"%fa4emu": os.path.abspath(args.emu),
            "%python": sys.executable,
            "%llvm_root": args.llvm_root,
            "%fa4_src_root": ROOT,
            "%ptxas": args.ptxas,
            "%S": os.path.join(ROOT, "test", "Emulator"),
            "%s": os.path.join(ROOT, "test", "Emulator", test + ".test"),
            "%t": os.path.join(tmp, test)}
    for key in sorted(subs, key=len, reverse=True):
        line = line.replace(key, subs[key])
    return line


def run_sample(args, tests, work, env):
    """Runs every test once: (emulator seconds, emulator CPU seconds,
    other seconds, failures)."""
    tmp = tempfile.mkdtemp(dir=work)
    emu_wall = emu_cpu = other = 0.0
    failures = []
    for test in tests:
        lines, _ = run_lines(os.path.join(ROOT, "test", "Emulator", test))
        for number, raw in enumerate(lines, 1):
            line = substitute(raw, args, test[:-5], tmp)
            timed = "fa4-run" in raw and "%fa4emu" in raw
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            result = subprocess.run(["bash", "-o", "pipefail", "-c", line],
                                    env=env, cwd=ROOT, capture_output=True,
                                    text=True)
            seconds = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + \
                (after.ru_stime - before.ru_stime)
            if timed:
                emu_wall += seconds
                emu_cpu += cpu
            else:
                other += seconds
            if args.verbose:
                print("%7.2fs %s %s:%d" % (seconds, "emu" if timed else "   ",
                                           test, number), flush=True)
            if result.returncode != 0:
                failures.append("%s RUN %d: %s\n%s" % (
                    test, number, raw, (result.stdout + result.stderr)[-2000:]))
    shutil.rmtree(tmp, ignore_errors=True)
    return emu_wall, emu_cpu, other, failures


def main():
    args = parse_args()
    os.chdir(ROOT)
    features = {"fa4-emu"}
    if os.path.exists(args.runtime_lib):
        features.add("fa4-runtime")
    if os.access(args.ptxas, os.X_OK):
        features.add("ptxas")
    names = args.tests or sorted(
        f for f in os.listdir(os.path.join(ROOT, "test", "Emulator"))
        if f.endswith(".test"))
    tests = []
    for name in names:
        _, requires = run_lines(os.path.join(ROOT, "test", "Emulator", name))
        missing = [r for r in requires if r not in features]
        if missing:
            print("skipped %s (needs %s)" % (name, ", ".join(missing)))
        else:
            tests.append(name)
    work = tempfile.mkdtemp(prefix="fa4-bench-sample.")
    env = dict(os.environ)
    env["PATH"] = tool_dir(args, work) + os.pathsep + env["PATH"]
    env["FA4_RUNTIME_LIB"] = os.path.abspath(args.runtime_lib)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + \
        env.get("PYTHONPATH", "")
    for assignment in args.env:
        key, _, value = assignment.partition("=")
        env[key] = value
    best = None
    failed = False
    for round_ in range(args.repeat):
        wall, cpu, other, failures = run_sample(args, tests, work, env)
        print("round %d: fa4-run on the emulator %.2f s wall (%.2f s CPU), "
              "other RUN lines %.2f s, %d failing" %
              (round_ + 1, wall, cpu, other, len(failures)), flush=True)
        for failure in failures:
            print("FAILED " + failure)
        failed |= bool(failures)
        best = wall if best is None else min(best, wall)
    shutil.rmtree(work, ignore_errors=True)
    print("best: %.2f s wall (%s; %s)" % (best, ", ".join(tests),
                                         os.path.abspath(args.emu)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
