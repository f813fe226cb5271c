#!/usr/bin/env python3
"""Compiles the kernel sample that gpu-check.sh's compute-sanitizer and
determinism steps run (FA4_SANITIZE=sample, FA4_DETERMINISM=sample): one
kernel of every family (prefill plain and looped twin, three consumers,
every mask, GQA/MQA, Dqk != Dv, f16, split-K decode over a cluster and
through the workspace, split at launch, softcap, sinks), each with its cases.txt, and
artifacts/sample.txt: the same runs as "KERNEL:B:SQ:SKV", sizes small
enough for racecheck.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location(
    "make_matrix", os.path.join(ROOT, "scripts", "make-matrix.py"))
matrix = importlib.util.module_from_spec(spec)
spec.loader.exec_module(matrix)

# (name, dqk, dv, hq, hkv, mask, dtype, static sq or "?", compile flags,
#  runs as (b, sq, skv)).
# Imported by emu/scripts/emu-compare.py, which runs the same kernels on fa4-emu
# and the H200.
SAMPLE = [
    ("s_d128_h6x3_none", 128, 128, 6, 3, "none", "bf16", "?", [],
     # the looped twin (Skv <= 4096), then the kernel in pairs past it
     [(2, 239, 1023), (1, 333, 4500)]),
    ("s_d128_h6x6_causal", 128, 128, 6, 6, "causal", "bf16", "?", [],
     [(2, 300, 203), (1, 700, 600), (1, 300, 4500)]),
    ("s_d64_h6x1_none", 64, 64, 6, 1, "none", "f16", "?", [],
     # three consumers past the d = 64 twin's 1024 keys
     [(1, 113, 1000), (1, 777, 2047)]),
    ("s_d96_h6x3_win", 96, 96, 6, 3, "window(17, 33)", "bf16", "?", [],
     [(2, 239, 203)]),
    ("s_d128_h6x3_win", 128, 128, 6, 3, "window(128, 0)", "f16", "?", [],
     [(1, 333, 1000)]),
    ("s_d192_128_h6x6_causal", 192, 128, 6, 6, "causal", "bf16", "?", [],
     [(1, 239, 1023)]),
    ("s_d256_h6x6_none", 256, 256, 6, 6, "none", "bf16", "?", [],
     [(1, 128, 217), (1, 129, 700)]),
    # Whole query tiles that see no key (Sq > Skv under a causal mask, a
    # window that ends before the first key), at every depth: their O is
    # staged over a Q load nobody else waited for (fa4-emu, d = 256).
    ("s_d256_h2x2_causal", 256, 256, 2, 2, "causal", "bf16", "?", [],
     [(1, 300, 40)]),
    ("s_d64_h4x2_causal", 64, 64, 4, 2, "causal", "f16", "?", [],
     [(1, 400, 100)]),
    ("s_d256_h2x1_win", 256, 256, 2, 1, "window(64, 0)", "bf16", "?", [],
     [(1, 333, 60)]),
    ("s_decode_d128_h32x8", 128, 128, 32, 8, "none", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 32768), (1, 4, 4097)]),
    ("s_decode_d128_h8x1_ws", 128, 128, 8, 1, "none", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 32768)]),
    ("s_decode_d128_h32x8_launch", 128, 128, 32, 8, "none", "bf16", "1", [],
     [(1, 1, 8193), (3, 1, 385)]),
    ("s_decode_d64_h16x16_causal", 64, 64, 16, 16, "causal", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=4", "--seq-kv-hint=32768"],
     [(1, 4, 30001)]),
]

# The Blackwell kernel's further families (--chip sm_100a): CTA pairs
# (pair_cta, planned for a long prefill: the hints), and O without LSE.
# Each tuple as SAMPLE's, then whether the function returns the LSE.
PAIR_HINTS = ["--batch-hint=2", "--seq-q-hint=4096", "--seq-kv-hint=4096"]
BLACKWELL = [
    ("b_pair_d128_h6x3_none", 128, 128, 6, 3, "none", "bf16", "?",
     PAIR_HINTS, [(1, 600, 333), (2, 513, 1000)], True),
    # Sq - Skv >= 512: a whole pair sees no key (it deadlocked).
    ("b_pair_d128_h8x8_causal", 128, 128, 8, 8, "causal", "f16", "?",
     PAIR_HINTS, [(1, 1000, 1000), (1, 700, 300), (1, 800, 260)], True),
    ("b_pair_d96_h6x3_win", 96, 96, 6, 3, "window(17, 33)", "bf16", "?",
     PAIR_HINTS, [(1, 600, 700)], True),
    ("b_pair_d192_128_h6x6_causal", 192, 128, 6, 6, "causal", "bf16", "?",
     PAIR_HINTS, [(1, 513, 600), (1, 1100, 260)], True),
    ("b_pair_d128_h8x2_none_nolse", 128, 128, 8, 2, "none", "bf16", "?",
     PAIR_HINTS, [(1, 520, 260)], False),
    ("b_d128_h6x6_win_nolse", 128, 128, 6, 6, "window(64, 0)", "f16", "?",
     [], [(1, 333, 500)], False),
    ("b_decode_d128_h32x8_nolse", 128, 128, 32, 8, "none", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 32768)], False),
]


# Logit softcapping (issue 61), both chips: each tuple as SAMPLE's, then
# the softcap. fa4-run's inputs are standard normal, so scores are of
# order 1: a cap of 2 bends them (a kernel without it fails the check);
# 15 is FlashAttention's tests' value. Prefill with its decode variant,
# a split-K decode and a cap under a window.
SOFTCAP = [
    ("s_d128_h6x3_causal_cap2", 128, 128, 6, 3, "causal", "bf16", "?", [],
     [(2, 300, 203), (1, 300, 1500)], 2.0),
    ("s_d64_h6x1_none_cap15", 64, 64, 6, 1, "none", "f16", "?", [],
     [(1, 113, 1000)], 15.0),
    ("s_d128_h4x4_win_cap2", 128, 128, 4, 4, "window(64, 0)", "bf16", "?",
     [], [(1, 333, 500)], 2.0),
    ("s_decode_d128_h32x8_cap2", 128, 128, 32, 8, "none", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 8193)], 2.0),
]


# Attention sinks (issue 61), both chips: each tuple as SAMPLE's, then the
# softcap (None: none). fa4-run draws each head's sink around the rows'
# maxima (1 +- 1.5), so it takes a visible share of every row. Prefill
# whose rows past Skv see no key (O = 0, LSE = the sink) with its decode
# variant, a window under a softcap, and split-K decodes over a cluster
# and through the workspace, where only partition 0 holds the sink.
SINKS = [
    ("s_d128_h6x3_causal_sinks", 128, 128, 6, 3, "causal", "bf16", "?", [],
     [(2, 300, 203), (1, 300, 1500)], None),
    ("s_d64_h8x2_win_sinks_cap15", 64, 64, 8, 2, "window(64, 0)", "f16", "?",
     [], [(1, 333, 500)], 15.0),
    ("s_decode_d128_h32x8_sinks", 128, 128, 32, 8, "none", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 8193), (1, 4, 4097)], None),
    ("s_decode_d128_h8x1_ws_sinks", 128, 128, 8, 1, "none", "bf16", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 16384)], None),
]


# FP8 (issue 62), sm_100a: e4m3 Q, K and V with descales (one value, or
# per batch and kv-head; fa4-run draws them in [0.5, 2]), O bf16. Each
# tuple as SAMPLE's, then the (Q, K, V) descale forms. GQA causal prefill
# with LSE and its decode variant, a window with K's descale alone, and a
# split-K decode through the workspace.
FP8 = [
    ("s_fp8_d128_h4x2_causal", 128, 128, 4, 2, "causal", "f8E4M3FN", "?", [],
     [(2, 239, 300), (1, 300, 1500)], ("tensor", "batch_head", "batch_head")),
    ("s_fp8_d64_h4x4_win", 64, 64, 4, 4, "window(64, 0)", "f8E4M3FN", "?",
     [], [(1, 333, 500)], (None, "tensor", None)),
    ("s_fp8_decode_d128_h8x1_ws", 128, 128, 8, 1, "none", "f8E4M3FN", "?",
     ["--batch-hint=1", "--seq-q-hint=1", "--seq-kv-hint=32768"],
     [(1, 1, 8193)], ("batch_head", "tensor", "batch_head")),
]


def families(chip):
    """The kernels to compile for `chip`, as (name, dqk, dv, hq, hkv, mask,
    dtype, sq, flags, runs, lse, softcap, sinks, descales): SAMPLE (with LSE),
    SOFTCAP, SINKS, and on sm_100a the Blackwell kernel's own families and
    FP8 too; the last field is FP8's descale forms (None elsewhere)."""
    kernels = [(*entry, True, None, False, None) for entry in SAMPLE]
    kernels += [(*entry[:-1], True, entry[-1], False, None)
                for entry in SOFTCAP]
    kernels += [(*entry[:-1], True, entry[-1], True, None) for entry in SINKS]
    if chip == "sm_100a":
        kernels += [(*entry, None, False, None) for entry in BLACKWELL]
        kernels += [(*entry[:-1], True, None, False, entry[-1])
                    for entry in FP8]
    return kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--compiler", default="build/bin/fa4-compile")
    parser.add_argument("--out", default="artifacts")
    parser.add_argument("--keep-ptx", action="store_true")
    parser.add_argument("--ptx", action="store_true",
                        help="PTX only (--ptxas=none): for fa4-emu, and the "
                        "H200 JIT-compiles the same files")
    parser.add_argument("--chip", default="sm_90a",
                        help="sm_100a compiles the Blackwell kernel "
                        "(--kernel=blackwell), for fa4-emu")
    args = parser.parse_args()
    ptx_flags = ["--ptxas=none"] if args.ptx else []
    if args.chip != "sm_90a":
        ptx_flags.append("--kernel=blackwell")
    lines = []
    kernels = families(args.chip)
    for (name, dqk, dv, hq, hkv, mask, dtype, sq, flags, runs, lse, softcap,
         sinks, descales) in kernels:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                         delete=False) as f:
            f.write(matrix.function(name, dqk, dv, hq, hkv, mask, dtype, sq,
                                    lse=lse, softcap=softcap, sinks=sinks,
                                    descales=descales))
        subprocess.run([args.compiler, f.name, f"--chip={args.chip}", "-o",
                        args.out, "--quiet", *flags, *ptx_flags], check=True,
                       stdout=subprocess.DEVNULL)
        os.unlink(f.name)
        directory = matrix.artifact_dir(args.out, name, args.chip)
        if not args.keep_ptx and os.path.exists(
                os.path.join(directory, os.path.basename(directory) +
                             ".cubin")):
            for entry in os.listdir(directory):
                if entry.endswith(".ptx"):
                    os.unlink(os.path.join(directory, entry))
        with open(os.path.join(directory, "cases.txt"), "w") as cases:
            for index, (b, q, kv) in enumerate(runs):
                cases.write(f"--b {b} --sq {q} --skv {kv} --seed "
                            f"{90000 + index}\n")
        lines += [f"{name}:{b}:{q}:{kv}" for b, q, kv in runs]
    with open(os.path.join(args.out, "sample.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(kernels)} kernels in {args.out}/, {len(lines)} runs in "
          f"{args.out}/sample.txt")


if __name__ == "__main__":
    sys.exit(main())
