#!/usr/bin/env python3
"""Compiles the sm_90a correctness matrix into artifacts/ for scripts/gpu-check.sh.

One kernel per (depths, heads, mask, dtype); each artifact's cases.txt lists
the (Sq, Skv) sizes fa4-run checks it on (fresh seeded inputs per case).
The matrix is the one the sm_90a issue asks for: depths (64,64) (96,96)
(128,128) (128,64) (192,128) (256,256); MHA 6/6, GQA 6/3, MQA 6/1; no mask,
causal and two windows; bf16 and f16; all with LSE.
"""
import argparse
import glob
import itertools
import os
import subprocess
import sys
import tempfile

DEPTHS = [(64, 64), (96, 96), (128, 128), (128, 64), (192, 128), (256, 256)]
HEADS = [(6, 6), (6, 3), (6, 1)]
MASKS = {"none": "none", "causal": "causal", "win128_0": "window(128, 0)",
         "win17_33": "window(17, 33)"}
DTYPES = ["bf16", "f16"]
# Benchmark shapes (bench/compare_sdpa.py): prefill at 16k tokens per batch
# with Hq * d = 2048, and the 32/8-head decode of the split-K issue.
BENCH = [("bench_prefill_d128_none", 128, 128, 16, 16, "none", "bf16",
          [(8, 2048, 2048)]),
         ("bench_prefill_d128_causal", 128, 128, 16, 16, "causal", "bf16",
          [(8, 2048, 2048)]),
         ("bench_decode_d128_gqa", 128, 128, 32, 8, "none", "bf16",
          [(1, 1, 32768), (64, 1, 8192)])]
SIZES = [(1, 1), (3, 3), (64, 128), (113, 203), (128, 217), (239, 1),
         (799, 3), (1023, 1024), (1024, 1023), (4096, 4096)]


def function(name, dqk, dv, hq, hkv, mask, dtype):
    q = f"tensor<?x?x{hq}x{dqk}x{dtype}>"
    k = f"tensor<?x?x{hkv}x{dqk}x{dtype}>"
    v = f"tensor<?x?x{hkv}x{dv}x{dtype}>"
    o = f"tensor<?x?x{hq}x{dv}x{dtype}>"
    lse = f"tensor<?x{hq}x?xf32>"
    return (f"func.func @{name}(%q: {q}, %k: {k}, %v: {v}) -> ({o}, {lse}) {{\n"
            f"  %o, %lse = attn.attention %q, %k, %v {{mask = #attn.mask<{mask}>}}"
            f" : {q}, {k}, {v} -> {o}, {lse}\n"
            f"  return %o, %lse : {o}, {lse}\n}}\n")


def artifact_dir(out, function_name, chip):
    """fa4-compile names a kernel <prefix>_<function>_<chip>."""
    [directory] = glob.glob(os.path.join(out, f"fa4_*_{function_name}_{chip}"))
    return directory


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--compiler", default="build/bin/fa4-compile")
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--kernel", default="auto",
                        help="fa4-compile --kernel: auto, fa3 or reference")
    parser.add_argument("--out", default="artifacts")
    args = parser.parse_args()

    functions = []
    for (dqk, dv), (hq, hkv), mask, dtype in itertools.product(
            DEPTHS, HEADS, MASKS, DTYPES):
        name = f"d{dqk}x{dv}_h{hq}x{hkv}_{mask}_{dtype}"
        functions.append((name, function(name, dqk, dv, hq, hkv, MASKS[mask],
                                         dtype)))
    for name, dqk, dv, hq, hkv, mask, dtype, _ in BENCH:
        functions.append((name, function(name, dqk, dv, hq, hkv,
                                         MASKS.get(mask, mask), dtype)))
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("".join(text for _, text in functions))
        source = f.name
    subprocess.run([args.compiler, source, f"--chip={args.chip}",
                    f"--kernel={args.kernel}", "-o", args.out, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    os.unlink(source)

    bench_rows = []
    for name, *_, shapes in BENCH:
        directory = artifact_dir(args.out, name, args.chip)
        bench_rows += [f"{directory}:{b}:{sq}:{skv}" for b, sq, skv in shapes]
        with open(os.path.join(directory, "cases.txt"), "w") as cases:
            cases.write("--b 1 --sq 77 --skv 301 --seed 9\n")
    with open(os.path.join(args.out, "bench.txt"), "w") as bench:
        bench.write("\n".join(bench_rows) + "\n")

    for index, (name, _) in enumerate(functions[:len(functions) - len(BENCH)]):
        directory = artifact_dir(args.out, name, args.chip)
        with open(os.path.join(directory, "cases.txt"), "w") as cases:
            for case, (sq, skv) in enumerate(SIZES):
                batch = 1 if sq * skv > 1 << 20 else 2
                seed = index * len(SIZES) + case
                cases.write(f"--b {batch} --sq {sq} --skv {skv} --seed {seed}\n")
    print(f"{len(functions)} kernels in {args.out}/: {len(functions) - len(BENCH)} "
          f"x {len(SIZES)} sizes, {len(BENCH)} for benchmarks")


if __name__ == "__main__":
    sys.exit(main())
