#!/usr/bin/env python3
"""Fuzzes the compiler: mutated lit-corpus files and generated attn.attention
ops, with random option values, through fa4-opt's planning and lowering
passes and the registered fa4-compile pipeline, for both chips; and
attn-raise on mutated frontend IR (the raise tests' linalg and tosa), where
turning input that verifies into IR that does not is a finding too.

A run is clean when the tool exits 0 or 1 with a diagnostic; it is a finding
when the tool dies of a signal, prints a crash banner (LLVM ERROR, an
assertion, a stack dump), or runs past the timeout. Findings are written to
--out (input, command, output); the summary (inputs, runs, clean errors,
successes, findings) is printed and, with --summary, written as JSON.

  scripts/fuzz-compiler.py --seconds 60            # the CI smoke
  scripts/fuzz-compiler.py --seconds 3600 --jobs 1 # a campaign
"""
import argparse
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRASH = re.compile(r"LLVM ERROR|Assertion .* failed|Stack dump|PLEASE submit "
                   r"a bug report|Segmentation fault|UNREACHABLE|terminate "
                   r"called")
BOUNDARY = [0, 1, -1, 2, 3, 7, 8, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255,
            256, 257, 511, 512, 576, 1023, 1024, 1025, 4096, 4097, 65535,
            65536, 2**30 - 1, 2**30, 2**31 - 1, 2**31, 2**32, 2**32 + 1,
            2**41, 2**62, 2**63 - 1, -2**63, -2, -2**31]
# MLIR 22's own parser runs out of memory on a reference to a huge result
# number (`%t#2147483647`; upstream mlir-opt does the same): counted apart,
# not a finding of fa4's code. fa4-compile refuses such input before parsing
# (tools/fa4-compile); fa4-opt is upstream's MlirOptMain.
UPSTREAM_PARSER_OOM = re.compile(r"LLVM ERROR: out of memory[\s\S]*MLIR Parser:")
CHIPS = ["sm_90a", "sm_100a"]
OPTIONS = {
    "batch-hint": [-1, 0, 1, 3, 64, 2**30, 2**62],
    "seq-q-hint": [-1, 0, 1, 4, 4096, 2**31],
    "seq-kv-hint": [-1, 0, 1, 128, 32768, 2**40],
    "block-n": [0, 16, 48, 64, 80, 96, 100, 128, 176, 192, 4096, -16],
    "causal-block-n": [0, 64, 128, 100, -1],
    "consumer-warpgroups": [0, 1, 2, 3, 4],
    "split-k-partitions": [0, 1, 2, 5, 16, 17, 200, -3],
    "split-k-workspace": ["true", "false"],
    "max-kv-stages": [0, 1, 2, 3, 9, -1],
    "persistent-max-seq-kv": [-2, -1, 0, 1, 2048, 2**31],
    "l2-section-bytes": [-1, 0, 1, 2**25, 2**62],
    "loop-producer-registers": [16, 24, 28, 40, 64, 72],
    "kv-multicast-causal-min-seq-kv": [-1, 0, 2048],
    "persistent": ["true", "false"],
    "kernel": ["auto", "hopper", "blackwell", "reference"],
}
MASKS = ["none", "causal", "window(128, 0)", "window(17, 33)",
         "window(-1, 5)", "window(0, 0)", "window(4294967297, 0)",
         "window(0, 2147483647)", "window(-1, -1)"]
TYPES = ["bf16", "f16", "f32", "f8E4M3FN", "i8"]


def generated_op(rng):
    """An attn.attention function of random (sometimes invalid) shapes."""
    def dim(static):
        return str(rng.choice(BOUNDARY[:20] + [2**30, 2**41])) if static \
            else "?"
    b = dim(rng.random() < 0.3)
    sq = dim(rng.random() < 0.4)
    skv = dim(rng.random() < 0.4)
    hkv = rng.choice([1, 2, 3, 8, 0, 4097])
    hq = hkv * rng.choice([1, 2, 4, 8]) + (1 if rng.random() < 0.05 else 0)
    dqk = rng.choice([64, 96, 128, 192, 256, 576, 100, 0, 1025, 8])
    dv = rng.choice([dqk, 64, 128, 512, 7])
    dtype = rng.choice(TYPES[:2] * 4 + TYPES)
    mask = rng.choice(MASKS)
    q = f"tensor<{b}x{sq}x{hq}x{dqk}x{dtype}>"
    k = f"tensor<{b}x{skv}x{hkv}x{dqk}x{dtype}>"
    v = f"tensor<{b}x{skv}x{hkv}x{dv}x{dtype}>"
    o = f"tensor<{b}x{sq}x{hq}x{dv}x{dtype}>"
    results, ret = o, "%o"
    lse = ""
    if rng.random() < 0.5:
        results = f"{o}, tensor<{b}x{hq}x{sq}xf32>"
        ret, lse = "%o, %lse", ", %lse"
    scale = ""
    if rng.random() < 0.2:
        scale = f", scale = {rng.choice(['0.125', '0.0', '-1.0', '1.0e39'])} : f32"
    return (f"func.func @f(%q: {q}, %k: {k}, %v: {v}) -> ({results}) {{\n"
            f"  %o{lse} = attn.attention %q, %k, %v {{mask = #attn.mask<{mask}>"
            f"{scale}}} : {q}, {k}, {v} -> {results}\n"
            f"  return {ret} : {results}\n}}\n")


def generated_serving_op(rng):
    """An attn.varlen_attention or attn.paged_attention function of random
    (sometimes invalid) shapes: index vectors of any rank, length and
    element type, caches with dynamic or zero page sizes."""
    def dim():
        return rng.choice(["?"] * 6 + ["1", "2", "3", "7", "64", "0",
                                        str(2**31), str(2**41)])
    hkv = rng.choice([1, 2, 8, 8, 2, 0])
    hq = hkv * rng.choice([1, 4]) + (1 if rng.random() < 0.05 else 0)
    dqk = rng.choice([64, 128, 192, 64, 128, 0, 1025])
    dv = rng.choice([dqk, dqk, 64, 128])
    dtype = rng.choice(TYPES[:2] * 8 + TYPES)
    index = lambda shape: (f"tensor<{shape}x"
                           f"{rng.choice(['i32'] * 12 + ['i64', 'f32'])}>")
    vector = lambda rank=1: index(
        "x".join(dim() for _ in range(rank if rng.random() < 0.9 else 3 - rank)))
    mask = rng.choice(MASKS)
    lse_wanted = rng.random() < 0.5
    if rng.random() < 0.5:
        tq, tk = dim(), dim()
        q = f"tensor<{tq}x{hq}x{dqk}x{dtype}>"
        k = f"tensor<{tk}x{hkv}x{dqk}x{dtype}>"
        v = f"tensor<{tk}x{hkv}x{dv}x{dtype}>"
        o = f"tensor<{tq}x{hq}x{dv}x{dtype}>"
        lse = f"tensor<{hq}x{tq}xf32>"
        cq, ck = vector(), vector()
        used = vector() if rng.random() < 0.3 else None
        args = f"%q: {q}, %k: {k}, %v: {v}, %cq: {cq}, %ck: {ck}" + \
            (f", %u: {used}" if used else "")
        op = (f"attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : {cq}, "
              f"{ck})" + (f" seqused_k(%u : {used})" if used else ""))
    else:
        packed = rng.random() < 0.4
        b, sq, pages, page = dim(), dim(), dim(), dim()
        q = (f"tensor<{sq}x{hq}x{dqk}x{dtype}>" if packed
             else f"tensor<{b}x{sq}x{hq}x{dqk}x{dtype}>")
        k = f"tensor<{pages}x{page}x{hkv}x{dqk}x{dtype}>"
        v = f"tensor<{pages}x{page}x{hkv}x{dv}x{dtype}>"
        o = q.replace(f"x{dqk}x{dtype}", f"x{dv}x{dtype}")
        lse = (f"tensor<{hq}x{sq}xf32>" if packed
               else f"tensor<{b}x{hq}x{sq}xf32>")
        bt, sk = vector(2), vector()
        cq = vector() if packed else None
        args = f"%q: {q}, %k: {k}, %v: {v}, %bt: {bt}, %sk: {sk}" + \
            (f", %cq: {cq}" if cq else "")
        op = (f"attn.paged_attention %q, %k, %v block_table(%bt : {bt}) "
              f"seqlens_k(%sk : {sk})" +
              (f" cu_seqlens_q(%cq : {cq})" if cq else ""))
    results, ret, names = o, "%o", "%o"
    if lse_wanted:
        results, ret, names = f"{o}, {lse}", "%o, %lse", "%o, %lse"
    return (f"func.func @f({args}) -> ({results}) {{\n"
            f"  {names} = {op} {{mask = #attn.mask<{mask}>}} : {q}, {k}, "
            f"{v} -> {results}\n  return {ret} : {results}\n}}\n")


def mutate(text, rng):
    """A few random edits: numbers to boundary values, lines dropped or
    duplicated, mask and type names swapped, bytes flipped."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        numbers = list(re.finditer(r"-?\b\d+\b", text))
        lines = text.split("\n")
        if kind < 0.45 and numbers:
            m = rng.choice(numbers)
            text = text[:m.start()] + str(rng.choice(BOUNDARY)) + text[m.end():]
        elif kind < 0.55 and len(lines) > 2:
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif kind < 0.62 and len(lines) > 2:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif kind < 0.75:
            text = re.sub(r"#attn\.mask<[^>]*>",
                          f"#attn.mask<{rng.choice(MASKS)}>", text, count=1)
        elif kind < 0.85:
            text = re.sub(r"\b(bf16|f16)\b", rng.choice(TYPES), text, count=1)
        elif text:
            i = rng.randrange(len(text))
            text = text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:]
    return text


def corpus():
    files = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                             recursive=True))
    texts = []
    for path in files:
        with open(path, errors="replace") as f:
            text = f.read()
        # One split at a time, without the lit and FileCheck lines.
        for part in text.split("// -----"):
            body = "\n".join(l for l in part.split("\n")
                             if not l.lstrip().startswith("//"))
            if "attn." in body or "fa4." in body or raisable(body):
                texts.append(body)
    return texts


def raisable(text):
    """Frontend IR attn-raise reads (raise tests' inputs): no attn ops."""
    return "attn." not in text and ("linalg." in text or "tosa." in text)


def command(tools, rng, path, outdir, text=""):
    chip = rng.choice(CHIPS)
    if raisable(text):
        # attn-raise, and what it raised planned for either chip.
        passes = ["--attn-raise"]
        if rng.random() < 0.5:
            passes.append(f"--attn-plan-pipeline=chip={chip}")
        return [tools["fa4-opt"], path, *passes]
    if rng.random() < 0.15:
        # The ops' meaning in linalg (every form, serving ones too).
        return [tools["fa4-opt"], path, "--attn-decompose"]
    opts = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.3}
    if rng.random() < 0.5:
        flags = [f"--{k}={v}" for k, v in opts.items()]
        return [tools["fa4-compile"], path, f"--chip={chip}", "-o", outdir,
                "--quiet", "--ptxas=none", *flags]
    plan = " ".join(f"{k}={v}" for k, v in opts.items()
                    if k in ("batch-hint", "seq-q-hint", "seq-kv-hint",
                             "block-n", "causal-block-n",
                             "consumer-warpgroups", "split-k-partitions",
                             "split-k-workspace", "max-kv-stages"))
    passes = [f"--attn-plan-pipeline=chip={chip} {plan}".strip()]
    stage = rng.random()
    if stage < 0.3:
        passes.append("--attn-explain")
    elif stage < 0.8:
        # The plan's chip picks the kernel.
        passes += ["--convert-attn-to-fa4", "--convert-fa4-to-nvvm"]
    else:
        passes.append(f"--convert-attn-to-reference-kernel=chip={chip}")
    return [tools["fa4-opt"], path, *passes]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--out", default="fuzz-findings")
    parser.add_argument("--summary")
    args = parser.parse_args()
    tools = {t: os.path.join(args.build, "bin", t)
             for t in ("fa4-opt", "fa4-compile")}
    for path in tools.values():
        if not os.access(path, os.X_OK):
            sys.exit(f"fuzz-compiler: {path} not built")
    rng = random.Random(args.seed)
    texts = corpus()
    stats = {"seed": args.seed, "inputs": 0, "runs": 0, "successes": 0,
             "clean_errors": 0, "upstream_parser_oom": 0, "findings": 0}
    deadline = time.time() + args.seconds
    work = tempfile.mkdtemp(prefix="fa4-fuzz-")
    while time.time() < deadline:
        draw = rng.random()
        text = generated_op(rng) if draw < 0.3 else \
            generated_serving_op(rng) if draw < 0.4 else \
            mutate(rng.choice(texts), rng)
        path = os.path.join(work, "input.mlir")
        with open(path, "w") as f:
            f.write(text)
        stats["inputs"] += 1
        for _ in range(2):
            cmd = command(tools, rng, path, os.path.join(work, "out"), text)
            stats["runs"] += 1
            try:
                run = subprocess.run(cmd, capture_output=True, text=True,
                                     errors="replace", timeout=args.timeout)
                output = run.stdout + run.stderr
                crashed = run.returncode < 0 or run.returncode > 1 or \
                    CRASH.search(output)
                what = f"exit {run.returncode}"
            except subprocess.TimeoutExpired:
                crashed, output, what = True, "", f"timeout {args.timeout}s"
            if not crashed and run.returncode != 0 and raisable(text):
                # attn-raise must not turn IR that verifies into IR that
                # does not: an error here is a finding unless the input
                # itself fails without the pass.
                plain = subprocess.run([tools["fa4-opt"], path],
                                       capture_output=True, text=True,
                                       errors="replace", timeout=args.timeout)
                if plain.returncode == 0 and "--attn-raise" in cmd and \
                        len(cmd) == 3:
                    crashed, what = True, "attn-raise broke valid IR"
            if not crashed:
                stats["successes" if run.returncode == 0 else
                      "clean_errors"] += 1
                continue
            if "fa4-opt" in cmd[0] and UPSTREAM_PARSER_OOM.search(output):
                stats["upstream_parser_oom"] += 1
                continue
            stats["findings"] += 1
            os.makedirs(args.out, exist_ok=True)
            stem = os.path.join(args.out, f"finding-{stats['findings']}")
            with open(stem + ".mlir", "w") as f:
                f.write(text)
            with open(stem + ".txt", "w") as f:
                f.write(what + "\n" + " ".join(cmd) + "\n" + output)
            print(f"finding {stats['findings']}: {what}: {' '.join(cmd)}",
                  flush=True)
    print(json.dumps(stats))
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(stats, f, indent=2)
    return 1 if stats["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
