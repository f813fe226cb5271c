#!/usr/bin/env python3
"""Mutation check: each named one-line mutation of lib/, tools/ or python/
must make at least one test fail. Applies one mutation at a time, rebuilds
what it touches (nothing for python/), runs the tests that cover it,
restores the file, and prints a table (KILLED or SURVIVED). docs/Testing.md
records the last run.

  scripts/mutate.py                 # every mutation
  scripts/mutate.py combine-weight  # some, by name
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("FA4_BUILD_DIR", os.path.join(ROOT, "build"))
LIT = ["lit-22", os.path.join(BUILD, "test")]
PLANNING = [os.path.join(BUILD, "bin", "FA4PlanningTests")]
RUNTIME = [os.path.join(BUILD, "bin", "fa4rt-unittests")]
COMBINE = "lib/Conversion/FA4ToNVVM/SplitKPatterns.cpp"
FLASH = "python/fa4/flash.py"
FLASH_MASK = ["lit-22", os.path.join(BUILD, "test", "python", "flash-mask.py")]

# name -> (file, original, mutant, ninja targets, test commands)
MUTATIONS = {
    "combine-weight": (
        COMBINE, "e.exp2(e.fsub(maxes[p], safeMax))",
        "e.exp2(e.fsub(safeMax, maxes[p]))", ["fa4-opt"],
        [LIT + ["--filter", "FA4ToNVVM/splitk"]]),
    "combine-lse-ln2": (
        COMBINE,
        "e.fmul(e.fadd(weights.globalMax, e.log2(weights.total)), "
        "e.f32(M_LN2))",
        "e.fadd(weights.globalMax, e.log2(weights.total))", ["fa4-opt"],
        [LIT + ["--filter", "FA4ToNVVM/splitk"]]),
    "combine-lse-head": (
        COMBINE,
        "e.add(e.mul(e.sext(rowHead), lseStride[1]), e.sext(row))",
        "e.add(e.mul(e.sext(head), lseStride[1]), e.sext(row))", ["fa4-opt"],
        [LIT + ["--filter", "FA4ToNVVM/splitk"]]),
    "reference-top-left-causal": (
        "tools/fa4-run/Reference.cpp",
        "int64_t diagonal = query + shape.seqKV - shape.seqQ;",
        "int64_t diagonal = query;", ["fa4rt-unittests"], [RUNTIME]),
    "tmem-o1-by-bn": (
        "lib/Planning/TmemPlan.cpp",
        "plan.tmemO1 = config.singleO ? -1 : plan.tmemO0 + plan.oColumns;",
        "plan.tmemO1 = config.singleO ? -1 : plan.tmemO0 + plan.sColumns;",
        ["FA4PlanningTests"], [PLANNING]),
    "tmem-p-as-bf16": (
        "lib/Planning/TmemPlan.cpp",
        "plan.pColumns = config.bn * int(elementBits(config.elementType)) / "
        "packedBits;",
        "plan.pColumns = config.bn * 16 / packedBits;",
        ["FA4PlanningTests"], [PLANNING]),
    "hopper-decode-v-copy-as-k": (
        "lib/Conversion/AttnToFA4/HopperKernel.cpp",
        "inBytes(args.vStride[1]), plan.ovBoxes, plan.ovDepth,",
        "inBytes(args.vStride[1]), plan.qkBoxes, plan.qkDepth,",
        ["fa4-compile"], [LIT + ["--filter", "Emulator/dqk-ne-dv"]]),
    # flash_attn_func's (causal, window_size, softmax_scale) as the problem.
    "flash-window-swapped": (
        FLASH, 'return "window", (left, right)',
        'return "window", (right, left)', [], [FLASH_MASK]),
    "flash-causal-keeps-right": (
        FLASH, '("window", (left, 0))', '("window", (left, right))', [],
        [FLASH_MASK]),
    "flash-causal-drops-left": (
        FLASH,
        'return ("causal", (-1, -1)) if left < 0 else ("window", (left, 0))',
        'return ("causal", (-1, -1))', [], [FLASH_MASK]),
    "flash-one-sided-none": (
        FLASH, "if left < 0 and right < 0:", "if left < 0 or right < 0:", [],
        [FLASH_MASK]),
    "flash-op-window-swapped": (
        FLASH, "return (causal, (window_left, window_right),",
        "return (causal, (window_right, window_left),", [], [FLASH_MASK]),
    "flash-op-negative-scale": (
        FLASH, "\n    scale = _scale(softmax_scale)",
        "\n    scale = softmax_scale", [], [FLASH_MASK]),
    "problem-scale-by-dv": (
        "python/fa4/cache.py", "self.scale = _scale_of(scale, qk_depth)",
        "self.scale = _scale_of(scale, ov_depth)", [], [FLASH_MASK]),
    "problem-window-reversed": (
        "python/fa4/cache.py",
        'mask = "#attn.mask<window(%d, %d)>" % self.window',
        'mask = "#attn.mask<window(%d, %d)>" % self.window[::-1]', [],
        [FLASH_MASK]),
}


def run(command):
    return subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode


def check(name):
    path, original, mutant, targets, tests = MUTATIONS[name]
    full = os.path.join(ROOT, path)
    with open(full) as f:
        text = f.read()
    if text.count(original) != 1:
        return "STALE (the original line is not in the file once)"
    try:
        with open(full, "w") as f:
            f.write(text.replace(original, mutant))
        # Without targets (python/) there is nothing to build: a bare
        # `ninja` would build everything.
        if targets and run(["ninja", "-C", BUILD, *targets]) != 0:
            return "KILLED (does not build)"
        failed = [t for t in tests if run(t) != 0]
        return "KILLED" if failed else "SURVIVED"
    finally:
        with open(full, "w") as f:
            f.write(text)
        if targets:
            run(["ninja", "-C", BUILD, *targets])


def main():
    names = sys.argv[1:] or list(MUTATIONS)
    results = {name: check(name) for name in names}
    for name, verdict in results.items():
        print(f"{name:28} {verdict}")
    return 0 if all(v.startswith("KILLED") for v in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
