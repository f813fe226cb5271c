#!/usr/bin/env python3
"""fa4-emu against the H200: the same PTX artifacts, the same cases, on both.

  emu-compare.py build --out DIR
      compiles scripts/make-sample.py's kernels to PTX into DIR and writes
      DIR/emu-cases.txt: per kernel, small odd shapes (empty causal rows,
      one query row, split-K decode) with random inputs, and the
      exactness probe (fa4-run --inputs uniform) on some of them.
  emu-compare.py run --artifacts DIR --out OUT [--emu LIB] [--fa4-run PATH]
                     [--seed N] [--jobs N] [--only REGEX]
      runs every case (fa4-run --dump) on the emulator (--emu) or on the
      GPU (no --emu), writing OUT/results.txt and OUT/dumps/.
  emu-compare.py compare EMU_OUT GPU_OUT
      every case must pass on both; probes must give the same O bits on
      both; random inputs must agree within the reference rule
      (max |O_emu - O_gpu| <= 2 * max(ref_err) + 1e-5). Prints a table and
      a summary; exits 1 on any disagreement.
  emu-compare.py fuzz --artifacts DIR --seeds N [--emu LIB]
      schedule fuzzing: every case on the emulator under N scheduler seeds;
      any error (race, early read, deadlock) or failure is reported.
"""
import argparse
import concurrent.futures
import importlib.util
import os
import re
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_sample():
    spec = importlib.util.spec_from_file_location(
        "make_sample", os.path.join(ROOT, "scripts", "make-sample.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Small odd shapes (b, sq, skv): an empty causal row block (sq > skv), one
# query row (the decode variant), a partial tile at both ends.
SHAPES = [(1, 1, 1), (1, 3, 5), (2, 77, 130), (1, 130, 77), (1, 1, 1000),
          (1, 1, 1024), (1, 129, 257)]
# The exactness probe on these. A split-K combine weighs its partitions by
# ex2.approx / lg2.approx of their row sums, exact only when those are
# powers of two: 1024 keys in tiles of 128 (or 64) split evenly.
PROBES = [(2, 77, 130), (1, 1, 1024)]
# The emulator's budget: keys beyond this take it tens of seconds a case.
MAX_EMU_SKV = 8193


def build(args):
    sample = load_sample()
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts",
                                                 "make-sample.py"),
                    "--ptx", "--out", args.out, "--compiler", args.compiler,
                    "--chip", args.chip],
                   check=True)
    lines = []
    for name, dqk, dv, hq, hkv, mask, dtype, sq, flags, runs, lse, *_ in \
            sample.families(args.chip):
        shapes = list(SHAPES) + [r for r in runs if r[2] <= MAX_EMU_SKV]
        if sq != "?":
            shapes = [(b, int(sq), kv) for b, _, kv in shapes]
        seen = set()
        for b, q, kv in shapes:
            for inputs in ("random", "uniform"):
                if inputs == "uniform" and (b, q, kv) not in PROBES:
                    continue
                key = (b, q, kv, inputs)
                if key in seen:
                    continue
                seen.add(key)
                lines.append(f"{name} {b} {q} {kv} {inputs}")
    with open(os.path.join(args.out, "emu-cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} cases in {args.out}/emu-cases.txt")


def read_cases(directory, only=None):
    cases = []
    with open(os.path.join(directory, "emu-cases.txt")) as f:
        for line in f:
            name, b, q, kv, inputs = line.split()
            case_id = f"{name}-{b}-{q}-{kv}-{inputs}"
            if only and not re.search(only, case_id):
                continue
            cases.append((case_id, name, int(b), int(q), int(kv), inputs))
    return cases


def artifact_dir(directory, name):
    for entry in os.listdir(directory):
        if any(entry.startswith(f"fa4_{kind}_{name}_sm_")
               for kind in ("hopper", "blackwell", "ref")):
            return os.path.join(directory, entry)
    raise SystemExit(f"no artifact for {name} in {directory}")


def run_kernel(args, name, cases, dumps, seed):
    """All cases of one kernel in one fa4-run process (--cases)."""
    directory = artifact_dir(args.artifacts, name)
    case_file = os.path.join(dumps, f"{name}.cases")
    with open(case_file, "w") as f:
        for case_id, _, b, q, kv, inputs in cases:
            f.write(f"--b {b} --sq {q} --skv {kv} --inputs {inputs} "
                    f"--dump {os.path.join(dumps, case_id)}\n")
    env = dict(os.environ)
    if args.emu:
        env["FA4_CUDA_DRIVER_PATH"] = args.emu
        env["FA4_EMU_SEED"] = str(seed)
        if "_sm_100a" in directory:
            env["FA4_EMU_ARCH"] = "sm_100a"
    start = time.time()
    done = subprocess.run(
        [args.fa4_run, os.path.join(directory, "manifest.json"), "--cases",
         case_file], capture_output=True, text=True, env=env)
    elapsed = time.time() - start
    results = {}
    current = None
    for line in done.stdout.splitlines():
        if line.startswith("CASE "):
            current = line.split("--dump ")[-1].split("/")[-1].strip()
        elif line.startswith("RESULT ") and current:
            results[current] = line[len("RESULT "):]
    errors = [l for l in done.stderr.splitlines() if "fa4-emu" in l]
    return results, elapsed, errors


def run(args):
    dumps = os.path.join(args.out, "dumps")
    os.makedirs(dumps, exist_ok=True)
    cases = read_cases(args.artifacts, args.only)
    by_kernel = {}
    for case in cases:
        by_kernel.setdefault(case[1], []).append(case)
    lines, failures = [], 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_kernel, args, name, kernel_cases, dumps,
                               args.seed): name
                   for name, kernel_cases in by_kernel.items()}
        for future in concurrent.futures.as_completed(futures):
            name = futures[future]
            results, elapsed, errors = future.result()
            for case_id, *_ in by_kernel[name]:
                result = results.get(case_id, "missing")
                failures += not result.startswith("pass")
                lines.append(f"{case_id} {result}")
            lines.append(f"# {name}: {len(by_kernel[name])} cases in "
                         f"{elapsed:.1f} s")
            for error in errors[:3]:
                lines.append(f"# {name}: {error}")
    lines.sort()
    with open(os.path.join(args.out, "results.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(l for l in lines if l.startswith("#") or
                    not l.split(" ", 1)[1].startswith("pass")))
    print(f"{len(cases) - failures} of {len(cases)} cases pass")
    return 1 if failures else 0


def read_results(out):
    results = {}
    with open(os.path.join(out, "results.txt")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            case_id, result = line.rstrip("\n").split(" ", 1)
            results[case_id] = result
    return results


def floats(path):
    with open(path, "rb") as f:
        data = f.read()
    return struct.unpack(f"<{len(data) // 4}f", data), data


def field(result, name):
    match = re.search(rf"{name}=([^ ]+)", result)
    return float(match.group(1)) if match else float("nan")


def compare(args):
    emu, gpu = read_results(args.emu_out), read_results(args.gpu_out)
    bad, rows = 0, []
    probes_equal = probes = 0
    for case_id in sorted(emu):
        e, g = emu[case_id], gpu.get(case_id, "missing")
        both_pass = e.startswith("pass") and g.startswith("pass")
        o_e, bits_e = floats(os.path.join(args.emu_out, "dumps",
                                          case_id + ".o"))
        o_g, bits_g = floats(os.path.join(args.gpu_out, "dumps",
                                          case_id + ".o"))
        diff = max((abs(a - b) for a, b in zip(o_e, o_g)), default=0.0)
        same_bits = bits_e == bits_g
        lse_same = (floats(os.path.join(args.emu_out, "dumps",
                                        case_id + ".lse"))[1] ==
                    floats(os.path.join(args.gpu_out, "dumps",
                                        case_id + ".lse"))[1])
        bound = 2 * max(field(e, "ref_err"), field(g, "ref_err")) + 1e-5
        if case_id.endswith("-uniform"):
            probes += 1
            probes_equal += same_bits
            ok = both_pass and same_bits
        else:
            ok = both_pass and diff <= bound
        bad += not ok
        rows.append(f"{case_id:60} {'ok ' if ok else 'BAD'} "
                    f"bits={'same' if same_bits else 'differ'} "
                    f"lse={'same' if lse_same else 'differ'} "
                    f"max|emu-gpu|={diff:.2e} bound={bound:.2e}")
    print("\n".join(rows))
    print(f"{len(emu) - bad} of {len(emu)} cases agree; exactness probes "
          f"bit-identical: {probes_equal} of {probes}; bit-identical O "
          f"overall: {sum('bits=same' in r for r in rows)} of {len(rows)}, "
          f"LSE: {sum('lse=same' in r for r in rows)} of {len(rows)}")
    return 1 if bad else 0


def fuzz(args):
    failures = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        args.seed = seed
        args.out = os.path.join(args.scratch, f"seed{seed}")
        failures += run(args)
    print(f"schedule fuzzing: {args.seeds} seeds, {failures} with failures")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", required=True)
    b.add_argument("--chip", default="sm_90a",
                   help="sm_100a: the Blackwell kernel, for the emulator only")
    b.add_argument("--compiler",
                   default=os.path.join(ROOT, "build", "bin", "fa4-compile"))
    for name in ("run", "fuzz"):
        r = sub.add_parser(name)
        r.add_argument("--artifacts", required=True)
        r.add_argument("--emu",
                       default=os.path.join(ROOT, "build", "emu",
                                            "libfa4emu.so")
                       if name == "fuzz" else None)
        r.add_argument("--fa4-run",
                       default=os.path.join(ROOT, "build", "bin", "fa4-run"))
        r.add_argument("--seed", type=int, default=1)
        r.add_argument("--jobs", type=int, default=2)
        r.add_argument("--only")
        if name == "run":
            r.add_argument("--out", required=True)
        else:
            r.add_argument("--seeds", type=int, default=4)
            r.add_argument("--first-seed", type=int, default=2)
            r.add_argument("--scratch", default="/tmp/fa4-emu-fuzz")
    c = sub.add_parser("compare")
    c.add_argument("emu_out")
    c.add_argument("gpu_out")
    args = parser.parse_args()
    return {"build": build, "run": run, "compare": compare,
            "fuzz": fuzz}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
