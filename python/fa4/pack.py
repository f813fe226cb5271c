"""Kernel packs: compile a list of configurations into a directory that a
GPU machine without LLVM uses as its kernel cache ($FA4_CACHE_DIR).

    python -m fa4.pack --chip sm_90a --out DIR bf16:32:8:128:128:causal \\
        f16:16:16:64:64:none bf16:8:1:128:128:window(128,0)

Each configuration is
DTYPE:HQ:HKV:DQK:DV:MASK[:SCALE][:softcap=C][:sinks|:backward][@FORM],
MASK none, causal or window(LEFT,RIGHT) (-1 unbounded), SCALE the softmax
scale, a positive number f32 holds (default 1/sqrt(DQK); any spelling with
the default's f32 bits, such as DQK ** -0.5, is the default's kernel), C a
logit softcap (scores s become C * tanh(s / C); 0 or none: none), sinks a
kernel that takes attention sinks (f32 [HQ], gpt-oss's), backward the
backward pass's kernel of that attention (dense only), FORM a
serving form (fa4.flash_attn_varlen_func, fa4.flash_attn_with_kvcache):
varlen, varlen_seqused, or pagedN / paged_packedN for pages of N keys.
Prints one line per entry.
"""

import argparse
import re
import sys

from . import cache as _cache
from .compile import find_fa4_compile
from .flash import _compile_into
from .runtime import Fa4Error

__all__ = ["parse_config", "main"]

_CONFIG = re.compile(r"^(bf16|f16):(\d+):(\d+):(\d+):(\d+):"
                     r"(none|causal|window\((-?\d+),\s*(-?\d+)\))"
                     r"(?::(?!softcap=|sinks(?:$|@|:)|backward(?:$|@))([^:@]*))?"
                     r"(?::softcap=([^:@]*))?"
                     r"(:sinks)?"
                     r"(:backward)?"
                     r"(?:@(varlen_seqused|varlen|paged_packed|paged)(\d*))?$")


def parse_config(text, chip, kernel="auto"):
    """A Problem from
    DTYPE:HQ:HKV:DQK:DV:MASK[:SCALE][:softcap=C][:sinks|:backward][@FORM]."""
    match = _CONFIG.match(text.strip())
    if not match:
        raise Fa4Error("configuration %r: expected DTYPE:HQ:HKV:DQK:DV:MASK"
                       "[:SCALE][:softcap=C][:sinks][@FORM] (e.g. "
                       "bf16:32:8:128:128:causal, "
                       "bf16:32:8:128:128:causal:softcap=15, "
                       "bf16:64:8:64:64:window(127,0):sinks, "
                       "bf16:32:8:128:128:causal@paged64)" % text)
    (dtype, hq, hkv, dqk, dv, mask, left, right, scale, softcap, sinks,
     backward, form, page) = match.groups()
    window = (-1, -1)
    if mask.startswith("window"):
        mask, window = "window", (int(left), int(right))
    if scale is not None:
        try:
            scale = float(scale)
        except ValueError:
            raise Fa4Error("configuration %r: scale %r is not a number (e.g. "
                           "0.125)" % (text, scale))
    try:
        return _cache.Problem(chip, dtype, int(hq), int(hkv), int(dqk),
                              int(dv), mask, window, scale, lse=True,
                              kernel=kernel, form=form or "dense",
                              page_size=int(page) if page else 0,
                              softcap=softcap or 0.0, sinks=bool(sinks),
                              backward=bool(backward))
    except Fa4Error as error:
        raise Fa4Error("configuration %r: %s" % (text, error), error.status)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m fa4.pack", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chip", required=True, choices=("sm_90a", "sm_100a"))
    parser.add_argument("--out", required=True, help="the pack's directory")
    parser.add_argument("--kernel", default="auto",
                        choices=("auto", "hopper", "blackwell", "reference"))
    parser.add_argument("--fa4-compile", default=None)
    parser.add_argument("configs", nargs="+")
    args = parser.parse_args(argv)
    try:
        tool = find_fa4_compile(args.fa4_compile)
        problems = [parse_config(c, args.chip, args.kernel) for c in args.configs]
        for text, problem in zip(args.configs, problems):
            manifest = _cache.entry(problem, tool, directory=args.out,
                                    compile_fn=_compile_into(tool))
            print("%s %s %s" % (_cache.problem_key(problem), text, manifest))
    except Fa4Error as error:
        print("fa4.pack: %s" % error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
