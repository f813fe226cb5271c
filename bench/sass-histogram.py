#!/usr/bin/env python3
"""Counts the SASS opcodes of fa4 kernels, here, without a GPU.

    bench/sass-histogram.py KERNEL [KERNEL ...] [--top N] [--match REGEX]

KERNEL is an artifact directory (its .cubin) or a .cubin. With one kernel it
prints each opcode's count (the first field of the instruction, predicates
and modifiers dropped: FMNMX.NAN counts as FMNMX); with more, one column per
kernel, the first kernel's order, so a variant's extra FFMA, MUFU or F2I show
at a glance. Counts are static (instructions in the binary, both branches of
every if), not executed. This is how the polynomial exp2 was found to
spend XU-pipe FRND and F2I to save MUFU ops (D-24).

nvdisasm comes from PATH, from /usr/local/cuda/bin, or from PyPI's
nvidia-cuda-nvdisasm, installed on first use into ~/.cache/fa4/nvdisasm
(CUDA 13 here ships ptxas but no nvdisasm or cuobjdump).
"""
import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

CACHE = os.path.expanduser("~/.cache/fa4/nvdisasm")


def nvdisasm():
    found = shutil.which("nvdisasm") or next(
        iter(glob.glob("/usr/local/cuda*/bin/nvdisasm")), None)
    if found:
        return found
    cached = glob.glob(os.path.join(CACHE, "**", "bin", "nvdisasm"), recursive=True)
    if not cached:
        print("sass-histogram: installing nvidia-cuda-nvdisasm into " + CACHE,
              file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                        "--target", CACHE, "nvidia-cuda-nvdisasm"], check=True)
        cached = glob.glob(os.path.join(CACHE, "**", "bin", "nvdisasm"), recursive=True)
    if not cached:
        sys.exit("sass-histogram: no nvdisasm found or installable")
    os.chmod(cached[0], 0o755)
    return cached[0]


def cubin_of(path):
    if os.path.isdir(path):
        cubins = glob.glob(os.path.join(path, "*.cubin"))
        if len(cubins) != 1:
            sys.exit(f"sass-histogram: {path} holds {len(cubins)} cubins, expected 1")
        return cubins[0]
    return path


# An instruction line: /*0040*/  [@P0 | @!UPT ...] OPCODE.MODIFIERS operands ;
INSTRUCTION = re.compile(r"^\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P[0-9T]\s+)?([A-Z][A-Z0-9_]*)")


def histogram(tool, cubin):
    sass = subprocess.run([tool, "-c", cubin], check=True, capture_output=True,
                          text=True).stdout
    counts = collections.Counter()
    for line in sass.splitlines():
        if (match := INSTRUCTION.match(line)):
            counts[match.group(1)] += 1
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="+")
    parser.add_argument("--top", type=int, default=40, help="rows to print")
    parser.add_argument("--match", default="", help="only opcodes matching")
    args = parser.parse_args()
    tool = nvdisasm()
    columns = [(os.path.basename(os.path.normpath(k)), histogram(tool, cubin_of(k)))
               for k in args.kernels]
    opcodes = [op for op, _ in columns[0][1].most_common()]
    opcodes += sorted({op for _, c in columns[1:] for op in c} - set(opcodes))
    opcodes = [op for op in opcodes if re.search(args.match, op)][:args.top]
    width = max(8, *(len(name) for name, _ in columns)) if len(columns) > 1 else 8
    if len(columns) > 1:
        print(f"{'opcode':<14}" + "".join(f"{name[-width:]:>{width + 2}}" for name, _ in columns))
    for op in opcodes:
        print(f"{op:<14}" + "".join(f"{c[op]:>{width + 2}}" for _, c in columns))
    print(f"{'total':<14}" + "".join(f"{sum(c.values()):>{width + 2}}" for _, c in columns))


if __name__ == "__main__":
    main()
