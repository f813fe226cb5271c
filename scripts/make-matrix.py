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
import json
import os
import shutil
import subprocess
import sys
import tempfile

DEPTHS = [(64, 64), (96, 96), (128, 128), (128, 64), (192, 128), (256, 256)]
HEADS = [(6, 6), (6, 3), (6, 1)]
MASKS = {"none": "none", "causal": "causal", "win128_0": "window(128, 0)",
         "win17_33": "window(17, 33)"}
DTYPES = ["bf16", "f16"]
# Benchmark shapes (bench/compare_sdpa.py): prefill at 16k tokens per batch
# with Hq * d = 2048 (the sweep of the prefill issue), and the 32/8-head
# decode of the split-K issue. Each kernel is also built in the VARIANTS
# below, so one run measures what a lowering option buys.
BENCH = []
PREFILL_SEQ = (512, 1024, 2048, 4096, 8192, 16384)
for d in (64, 128, 256):
    for mask in ("none", "causal"):
        shapes = [(16384 // s, s, s) for s in PREFILL_SEQ]
        BENCH.append((f"bench_prefill_d{d}_{mask}", d, d, 2048 // d,
                      2048 // d, mask, "bf16", shapes))
BENCH.append(("bench_decode_d128_gqa", 128, 128, 32, 8, "none", "bf16",
              [(1, 1, 8192), (1, 1, 32768), (1, 1, 131072), (8, 1, 8192),
               (64, 1, 8192)]))
# variant -> (fa4-compile flags, the bench kernels built with them). Each
# variant's note names the docs/Decisions.md entry that holds its numbers.
PREFILL_BENCH = [f"bench_prefill_d{d}_{m}" for d in (64, 128, 256)
                 for m in ("none", "causal")]
# "plain": no looped twin (`--persistent-max-seq-kv=0`), one CTA per work
# tile at every Skv, against the default's twin (D-12, D-27). Not built
# here, but still built by their flags: "no_overlap",
# `--intra-wg-overlap=false` (D-2); "eager", `--lazy-rescale=false` (D-3);
# "plain_directo", the plain kernel with `--tma-store-o=false` (D-4).
TWIN_BENCH = ["bench_prefill_d64_none", "bench_prefill_d64_causal",
              "bench_prefill_d128_none", "bench_prefill_d128_causal"]
# "nocap": no cap on BN under a causal mask (`--causal-block-n=0`: 176 at
# d = 64 and 128), against the default cap of 128 (+8-21% at S <= 2048;
# D-15, D-28).
CAUSAL_BENCH = [f"bench_prefill_d{d}_causal" for d in (64, 128)]
# "regepi": O from registers in the looped twin too (`--tma-store-o=false`;
# the plain kernel then too), against the twin's box-by-box TMA store of O,
# for which the planner gives up K/V stages down to two (D-4).
# "nofold": two compares per score in masked tiles (`--fold-key-bound=0`),
# against the default's one (d = 64 causal +1.4-5.9%, d = 128 causal
# +0.1-0.9%; D-14).
# "twinreg": d = 256 with a looped twin up to 1024 keys, O from registers
# (`--persistent-max-seq-kv=1024 --tma-store-o=false`; the plain kernel
# then too): at BN = 80 the plan leaves no room to stage O (D-12, D-19).
TWINREG_BENCH = ["bench_prefill_d256_none", "bench_prefill_d256_causal"]
# "bn128": d = 128 non-causal with the causal kernels' 128-key tiles
# (`--block-n=128`), to tell the narrower tile's cost from the mask's (D-17).
# "two176": d = 64 non-causal with two consumers at 176-key tiles for the
# kernel and its looped twin alike (`--consumer-warpgroups=2
# --block-n=176`): the old twin byte for byte, against the default twin's
# own 128-key tiles with six K/V stages (D-17).
# "bn96": the d = 128 non-causal twin at 96-key tiles, which leaves room for
# three K/V stages beside its two Q buffers (two at 128): 6-10% slower.
# "bn160": both kernels at 160-key tiles, the widest whose twin still fits
# its second Q buffer (13 steps at 2048 keys instead of 16, 1.6% of the
# keys past Skv): a tie. "twin176": the d = 128 non-causal twin at the
# kernel's 176-key tiles (`--block-n=176`: one plan for both), against its
# own plan at 128 (D-26 for the three).
# "tb2048": the d = 128 non-causal twin only up to 2048 keys
# (`--persistent-max-seq-kv=2048`), the plain kernel in pairs at 2049-4096:
# 3.5% slower at 4096 (D-27).
# "flat": under a mask, heaviest work tiles first over every (batch, head)
# pair (`--l2-section-bytes=0`), against the default's L2 sections of pairs
# (32 MiB of K and V; D-5). "section1m": 1 MiB sections, so that the
# variant's own sizes (1-32 q heads, up to 3001 keys) run many sections and
# a narrower last one: a correctness check of the order. "sec8m" /
# "sec16m": 8 and 16 MiB sections, more CTAs of a wave on each head (D-30).
# "sections": the causal twin in the L2 sections too (`--pair-row-blocks=0`),
# against the default, which takes row blocks R - 1 - k and k of a head in
# consecutive strides (+10-13% at d = 128, S <= 2048; D-6).
SECTION_BENCH = [f"bench_prefill_d{d}_causal" for d in (64, 128, 256)]
# "c3": three consumer warpgroups on a 192-row tile for the kernel and its
# looped twin alike (`--consumer-warpgroups=3`, FA3's tile at d = 64: one
# consumer's softmax under two others' GEMMs); d = 128 too, at BN = 64, for
# correctness at Dv = 128. "two": two consumers for both
# (`--consumer-warpgroups=2`), against the default, which gives the d = 64
# kernel three and its twin (Skv <= 1024 without a mask, 2048 under a causal
# one) its own plan of two (D-16, D-29).
C3_BENCH = ["bench_prefill_d64_none", "bench_prefill_d64_causal"]
# "tw1024": the d = 256 causal looped twin (64-key tiles) up to 1024 keys
# (`--persistent-max-seq-kv=1024`) instead of 512, where the plain kernel
# runs 80-key tiles, not aligned with the 128-row blocks' diagonals: a tie
# at 1024 (D-27). "cap64": the plain kernel at 64-key tiles too
# (`--causal-block-n=64`): 2% faster at 1024, a tie at 2048, 1.6-3.3%
# slower from 4096 (D-28).
CAUSAL_TWIN_BENCH = ["bench_prefill_d256_causal"]
# "t1024": the d = 64 looped twin (two consumers) only up to 1024 keys, so
# that the three-consumer kernel runs at 2048 (`--persistent-max-seq-kv=1024`:
# the default without a mask, +2.4-3% there; under a causal mask it loses
# 4-9%; D-12). "t2048": the twin up to 2048 keys: 6.1% behind the three
# consumers at 2048. "t512": the twin only up to 512 keys, the three
# consumers from 513: a tie at 1024 (D-27 for both).
# "t16k": d = 128 with the looped twin (its own plan, 128-key tiles) at
# every bench S (`--persistent-max-seq-kv=16384`), against the default's
# plain kernel (176-key tiles) past the twin's bound, whose new CTAs wait
# for their Q (2.2-2.4 us a CTA in a trace measured 2026-11-30; D-27).
# "c3p" / "c3p96": three consumers in persistent CTAs at every Skv
# (`--consumer-warpgroups=3 --persistent`, BN = 112 / 96; ptxas spills 64 /
# 16 B), against the default's three-consumer kernel, one CTA per work
# tile, whose new CTAs wait for their Q (D-29).
# "nomc": one CTA per work tile (`--kv-multicast=false`), against the
# default's pairs of CTAs (clusters of two) on adjacent row blocks of a
# head, each loading every other box of every K/V tile into both by TMA
# multicast (FA3's cluster at d >= 128 without a mask; a third fewer L2
# reads, +0.95% on average; D-8). The kernel without a work loop pairs past
# the twin's bound (d = 128: 4096 keys, d = 256: 512), the twins below it
# (D-9).
MULTICAST_BENCH = ["bench_prefill_d128_none", "bench_prefill_d256_none"]
# "mccausal": every causal kernel without a loop in pairs
# (`--kv-multicast-causal-min-seq-kv=0`), the d = 256 one too, which the
# default keeps alone: it serves launches from 513 keys, and ran 2.0-3.8%
# slower in pairs at 1024 (D-11). Its kernels also run the pairs' sizes
# past the twins' bounds (d = 128: 4096 keys, d = 256: 512), and Sq > Skv,
# where the first rows see no key and a pair's first block can see none
# while its second sees some; so do the default causal kernels.
# "nomccausal": the causal kernels alone (`--kv-multicast-causal=false`),
# against the default's d = 128 pairs (2.3-3.2% faster from 8192 keys;
# D-10).
MCCAUSAL_BENCH = ["bench_prefill_d128_causal", "bench_prefill_d256_causal"]
# "nomctwin": the looped twins with one CTA per work item
# (`--kv-multicast-twin=false`), against the default's pairs (1.6% faster at
# d = 128 and 5-6% at d = 256, 512 keys; D-9).
# "r24": the looped twins at Dv <= 128 with FA3's setmaxnreg split, 24
# registers a producer and 240 a consumer (`--loop-producer-registers=24`),
# against the default 40 / 232, whose producer does not spill.
# "r32": 32 / 232, the same consumers (the pool's 504 a thread of a
# warpgroup over two consumers rounds 236 down to 232 at 32), 8 B of
# producer spills in the d = 128 twin in pairs; 40 runs 0.2-1.1% faster
# (D-7).
# "pp0": no ping-pong (`--ping-pong=0`): the consumers issue their GEMMs
# without taking turns, against the default, whose named barriers order
# them (D-1: without them d = 64 runs 2-12% slower).
VARIANTS = {"plain": (["--persistent-max-seq-kv=0"], PREFILL_BENCH),
            "nofold": (["--fold-key-bound=0"], CAUSAL_BENCH),
            "regepi": (["--tma-store-o=false"], TWIN_BENCH),
            "nocap": (["--causal-block-n=0"], CAUSAL_BENCH),
            "twinreg": (["--persistent-max-seq-kv=1024", "--tma-store-o=false"],
                        TWINREG_BENCH),
            "bn128": (["--block-n=128"], ["bench_prefill_d128_none"]),
            "two176": (["--consumer-warpgroups=2", "--block-n=176"],
                       ["bench_prefill_d64_none"]),
            "bn96": (["--block-n=96"], ["bench_prefill_d128_none"]),
            "bn160": (["--block-n=160"], ["bench_prefill_d128_none"]),
            "tb2048": (["--persistent-max-seq-kv=2048"],
                       ["bench_prefill_d128_none"]),
            "flat": (["--l2-section-bytes=0"], SECTION_BENCH),
            "section1m": (["--l2-section-bytes=1048576"], SECTION_BENCH),
            "sec8m": (["--l2-section-bytes=8388608"], SECTION_BENCH),
            "sec16m": (["--l2-section-bytes=16777216"], SECTION_BENCH),
            "sections": (["--pair-row-blocks=0"], CAUSAL_BENCH),
            "c3": (["--consumer-warpgroups=3"],
                   C3_BENCH + ["bench_prefill_d128_none"]),
            "two": (["--consumer-warpgroups=2"], C3_BENCH),
            "twin176": (["--block-n=176"], ["bench_prefill_d128_none"]),
            "t1024": (["--persistent-max-seq-kv=1024"], C3_BENCH),
            "t2048": (["--persistent-max-seq-kv=2048"], C3_BENCH[:1]),
            "t512": (["--persistent-max-seq-kv=512"], C3_BENCH[:1]),
            "t16k": (["--persistent-max-seq-kv=16384"],
                      ["bench_prefill_d128_none", "bench_prefill_d128_causal"]),
            "c3p": (["--consumer-warpgroups=3", "--persistent"], C3_BENCH),
            "c3p96": (["--consumer-warpgroups=3", "--persistent",
                       "--block-n=96"], C3_BENCH),
            "pp0": (["--ping-pong=0"], C3_BENCH + ["bench_prefill_d128_none"]),
            "tw1024": (["--persistent-max-seq-kv=1024"], CAUSAL_TWIN_BENCH),
            "cap64": (["--causal-block-n=64"], CAUSAL_TWIN_BENCH),
            "nomc": (["--kv-multicast=false"], MULTICAST_BENCH),
            "nomctwin": (["--kv-multicast-twin=false"], MULTICAST_BENCH),
            "r24": (["--loop-producer-registers=24"], TWIN_BENCH),
            "r32": (["--loop-producer-registers=32"], TWIN_BENCH),
            "mccausal": (["--kv-multicast-causal-min-seq-kv=0"],
                         MCCAUSAL_BENCH),
            "nomccausal": (["--kv-multicast-causal=false"], MCCAUSAL_BENCH)}
# Kernels built with `--trace` (phase times over their LSE, for
# bench/trace_phases.py; gpu-check.sh's FA4_TRACE) as <bench>_trace: no
# cases (their LSE is the trace) and no benchmark rows.
TRACE_BENCH = ["bench_prefill_d64_none", "bench_prefill_d64_causal",
               "bench_prefill_d128_none", "bench_prefill_d256_causal"]
# A variant kernel also runs these (Sq, Skv) for correctness, at B = 1
# (Skv 2500 and 3001: past the twin's bound, one CTA per work tile).
VARIANT_SIZES = [(1, 1), (77, 301), (113, 203), (799, 3), (1023, 1024),
                 (300, 2500), (1000, 3001)]
# And these (B, Sq, Skv), with more work tiles than the H200 has SMs, so
# that persistent CTAs loop (Skv <= 2048: the twin); the default bench
# kernels run them too.
VARIANT_BATCHED_SIZES = [(3, 1023, 1024), (5, 777, 2047)]
# A bench kernel's own (B, Sq, Skv) on top, where its lowering runs only
# past the looped twin's bound: the pairs of CTAs with an odd row block
# count (the last pair's second block past Sq), one block, one row, and
# pairs over several heads' work items.
MULTICAST_SIZES = [(1, 300, 4097), (2, 129, 4500), (3, 77, 5001),
                   (1, 1, 8193), (1, 1023, 4100), (2, 256, 4352)]
EXTRA_SIZES = {name: MULTICAST_SIZES for name in MULTICAST_BENCH}
# The causal ones add Sq > Skv past the bounds.
EXTRA_SIZES.update({name: MULTICAST_SIZES + [(1, 4200, 4097), (2, 700, 600)]
                    for name in MCCAUSAL_BENCH})
# Split-K decode (the split-K issue): kernels compiled with size hints, so
# the planner fuses the q-heads of a kv-head into one tile and splits K/V
# over a cluster. Each runs every (B, Sq, Skv) below whatever its hints;
# (name, d, hq, hkv, mask, hints (b, sq, skv)).
# 8/1 heads are hinted at B = 8 for the cluster combine; at B = 1 (the _ws
# kernels below) the one work item wants 69 partitions, beyond a cluster,
# and the planner picks the workspace split-K (f32 partials and a combine
# kernel).
DECODE = []
for d in (64, 128):
    for hq, hkv in ((32, 8), (8, 1), (16, 16)):
        DECODE.append((f"decode_d{d}_h{hq}x{hkv}", d, hq, hkv, "none",
                       (8 if hkv == 1 else 1, 1, 32768)))
# 24 work items: 5 partitions, bands of 32 columns, the fifth owns none.
DECODE.append(("decode_d128_h32x8_p5", 128, 32, 8, "none", (3, 1, 32768)))
DECODE.append(("decode_d128_h32x8_causal", 128, 32, 8, "causal",
               (1, 4, 32768)))
for d in (64, 128):
    DECODE.append((f"decode_d{d}_h8x1_ws", d, 8, 1, "none", (1, 1, 32768)))
# B = 64: enough work items without a split; GQA still fused.
DECODE.append(("decode_d128_h32x8_b64", 128, 32, 8, "none", (64, 1, 8192)))
DECODE_SIZES = ([(b, sq, skv) for b in (1, 4) for sq in (1, 4)
                 for skv in (1, 17, 1000, 4096, 32768)] +
                [(1, 1, 131072), (1, 4, 131072)] +
                [(64, sq, skv) for sq in (1, 4) for skv in (1, 17, 1000, 4096)])
DECODE_VARIANT_SIZES = [(1, 1, 17), (4, 4, 4096), (1, 1, 32768)]
DECODE_BENCH = {"decode_d128_h32x8": [(1, 1, 8192), (1, 1, 32768),
                                      (1, 1, 131072), (8, 1, 8192),
                                      (64, 1, 8192)],
                "decode_d128_h32x8_b64": [(64, 1, 8192)],
                "decode_d128_h8x1_ws": [(1, 1, 8192), (1, 1, 32768),
                                        (1, 1, 131072)],
                "decode_d128_h8x1": [(1, 1, 32768)]}
# KV tile sizes the decode kernels are also built with (fa4-compile
# --block-n), so one run compares them with the planner's choice; each runs
# the decode cases too.
# variant -> (fa4-compile flags, the decode kernels built with them).
# (The block-n variants bn176/128/96/64 and 16-CTA clusters: D-31, D-32.)
# More CTAs for the B = 1 split: 16 partitions per work item (128 CTAs)
# through the workspace.
# (Persistent decode, now the B = 64 plan's default, was the "pdec"
# variant, D-13; `--persistent-decode=false` builds the old grid.)
DECODE_VARIANTS = {"ws16": (["--split-k-partitions=16", "--split-k-workspace"],
                            ["decode_d128_h32x8"])}
# Decode compiled without size hints but with a static Sq (as a serving
# compiler emits it: batch and Skv change per step): the planner leaves the
# split-K to the launch (reason at_launch, manifest version 7), and the
# runtime picks the partitions per launch; (name, d, hq, hkv, mask, sq).
LAUNCH_DECODE = [("decode_d128_h32x8_launch", 128, 32, 8, "none", 1),
                 ("decode_d128_h8x1_launch", 128, 8, 1, "none", 1),
                 ("decode_d64_h16x16_launch", 64, 16, 16, "none", 1),
                 ("decode_d128_h32x8_sq4_causal_launch", 128, 32, 8, "causal",
                  4)]
# Each runs these (B, Skv) at its Sq: one partition (too few keys, or work
# items that fill the SMs), a few, and many, with odd key counts.
LAUNCH_DECODE_SIZES = [(b, skv) for b in (1, 3) for skv in
                       (1, 17, 385, 1000, 4097, 32768)] + \
    [(1, 131072), (64, 1000), (64, 8193), (20, 30001)]
LAUNCH_DECODE_BENCH = {"decode_d128_h32x8_launch": [(1, 1, 8192),
                                                    (1, 1, 32768),
                                                    (1, 1, 131072),
                                                    (8, 1, 8192),
                                                    (64, 1, 8192)],
                       "decode_d128_h8x1_launch": [(1, 1, 8192),
                                                   (1, 1, 16384),
                                                   (1, 1, 32768),
                                                   (1, 1, 65536),
                                                   (1, 1, 131072)]}
# The runtime's split rule with other bounds than the planner's (at least 4
# key tiles a partition, or 48 partitions of one tile where those are fewer;
# at most #SMs partitions): copies of the
# LAUNCH_DECODE_BENCH kernels whose manifest asks for at least `tiles` key
# tiles a partition and, where given, at most `cap` partitions. The kernels
# are the same; only the partition count the runtime picks changes: 8 and
# 16 tiles were slower; one and two faster at 8/1 heads and 8k keys, slower
# at 32k, where 114 partitions took more combine steps; one tile under caps
# of 48 and 96 partitions (the partitions whose two partials each the
# combine merges in one and two steps) no faster than the planner's rule
# anywhere, whose floor of 48 came from them (D-18). Built with
# --rule-copies.
LAUNCH_RULE_VARIANTS = {"min1": (1, None), "min1_cap48": (1, 48),
                        "min1_cap96": (1, 96)}
# (333, 4500): past the d <= 128 twins' 4096 keys, the kernel without a
# loop, in pairs (kv-multicast, kv-multicast-causal), over an odd count of
# row blocks.
SIZES = [(1, 1), (3, 3), (64, 128), (113, 203), (128, 217), (239, 1),
         (799, 3), (1023, 1024), (1024, 1023), (4096, 4096), (333, 4500)]
# A matrix kernel with a looped twin also runs these (B, Sq, Skv) on three
# persistent CTAs (fa4-run --persistent-ctas 3), so that each CTA loops over
# dozens of work tiles: the hand-over from one work tile to the next,
# and, under a causal mask with Sq > Skv, work tiles that see no key next to
# ones that do. A twin in pairs (kv-multicast-twin) gets two: the runtime
# keeps whole clusters, and one pair walks every work item.
LOOP_SIZES = [(2, 1023, 1024), (3, 799, 203), (2, 239, 1)]
LOOP_CTAS = 3


def function(name, dqk, dv, hq, hkv, mask, dtype, sq="?", lse=True,
             softcap=None, sinks=False, descales=None):
    """An attn.attention function; `sq` a static query length, or "?";
    `lse` False returns O alone; `softcap` c adds the op's softcap; `sinks`
    an f32 [hq] sinks operand. An f8E4M3FN `dtype` returns bf16 O and takes
    `descales`, one form per Q, K, V: None, "tensor" (one f32) or
    "batch_head" ([B, Hkv] f32)."""
    out_dtype = "bf16" if dtype == "f8E4M3FN" else dtype
    q = f"tensor<?x{sq}x{hq}x{dqk}x{dtype}>"
    k = f"tensor<?x?x{hkv}x{dqk}x{dtype}>"
    v = f"tensor<?x?x{hkv}x{dv}x{dtype}>"
    o = f"tensor<?x{sq}x{hq}x{dv}x{out_dtype}>"
    cap_attr = f", softcap = {softcap!r} : f32" if softcap else ""
    mask_attr = f"{{mask = #attn.mask<{mask}>{cap_attr}}}"
    extra_args = f", %s: tensor<{hq}xf32>" if sinks else ""
    operands = f" sinks(%s : tensor<{hq}xf32>)" if sinks else ""
    for tensor, form in zip("qkv", descales or (None, None, None)):
        if form:
            shape = "tensor<f32>" if form == "tensor" else f"tensor<?x{hkv}xf32>"
            extra_args += f", %{tensor}d: {shape}"
            operands += f" {tensor}_descale(%{tensor}d : {shape})"
    if not lse:
        return (f"func.func @{name}(%q: {q}, %k: {k}, %v: {v}{extra_args})"
                f" -> {o} {{\n"
                f"  %o = attn.attention %q, %k, %v{operands} {mask_attr}"
                f" : {q}, {k}, {v} -> {o}\n"
                f"  return %o : {o}\n}}\n")
    lse = f"tensor<?x{hq}x{sq}xf32>"
    return (f"func.func @{name}(%q: {q}, %k: {k}, %v: {v}{extra_args})"
            f" -> ({o}, {lse}) {{\n"
            f"  %o, %lse = attn.attention %q, %k, %v{operands} {mask_attr}"
            f" : {q}, {k}, {v} -> {o}, {lse}\n"
            f"  return %o, %lse : {o}, {lse}\n}}\n")


def on_device(directory):
    """Where gpu-check.sh finds an artifact: artifacts/<kernel>, whatever
    --out was here."""
    return os.path.join("artifacts", os.path.basename(directory))


def artifact_dir(out, function_name, chip):
    """fa4-compile names a kernel <prefix>_<function>_<chip>."""
    [directory] = glob.glob(os.path.join(out, f"fa4_*_{function_name}_{chip}"))
    return directory


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--compiler", default="build/bin/fa4-compile")
    parser.add_argument("--chip", default="sm_90a")
    parser.add_argument("--kernel", default="auto",
                        help="fa4-compile --kernel: auto, hopper, blackwell or reference")
    parser.add_argument("--out", default="artifacts")
    parser.add_argument("--matrix-flag", action="append", default=[],
                        help="an fa4-compile flag for the matrix and bench "
                             "kernels (repeatable), e.g. "
                             "--matrix-flag=--persistent-max-seq-kv=2048 "
                             "to check an option over the whole matrix")
    parser.add_argument("--keep-ptx", action="store_true",
                        help="keep each kernel's PTX beside its cubin")
    parser.add_argument("--rule-copies", action="store_true",
                        help="also write the LAUNCH_RULE_VARIANTS copies of "
                             "the launch-split decode kernels")
    parser.add_argument("--decode-only", action="store_true",
                        help="only the split-K decode kernels and their "
                             "benchmark rows")
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
    if args.decode_only:
        functions = []
    else:
        # The prefill bench kernels never run at decode shapes: no decode
        # variants for them (the matrix kernels' run at sq = 1 and 3).
        prefill_bench = {name for name, *_ in BENCH if "prefill" in name}
        for texts, flags in (
                ([text for name, text in functions
                  if name not in prefill_bench], []),
                ([text for name, text in functions if name in prefill_bench],
                 ["--decode-variants=false"])):
            with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                             delete=False) as f:
                f.write("".join(texts))
                source = f.name
            subprocess.run([args.compiler, source, f"--chip={args.chip}",
                            f"--kernel={args.kernel}", "-o", args.out,
                            "--quiet", *args.matrix_flag, *flags],
                           check=True, stdout=subprocess.DEVNULL)
            os.unlink(source)
    def build_bench(suffix, flags, kernels):
        """Compiles the bench kernels named in `kernels` as <name>_<suffix>
        with the extra fa4-compile `flags`."""
        text = "".join(function(f"{name}_{suffix}", dqk, dv, hq, hkv,
                                MASKS.get(mask, mask), dtype)
                       for name, dqk, dv, hq, hkv, mask, dtype, _ in BENCH
                       if name in kernels)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                         delete=False) as f:
            f.write(text)
        subprocess.run([args.compiler, f.name, f"--chip={args.chip}",
                        f"--kernel={args.kernel}", "-o", args.out, "--quiet",
                        "--decode-variants=false", *flags],
                       check=True, stdout=subprocess.DEVNULL)
        os.unlink(f.name)

    if not args.decode_only:
        for variant, (flags, kernels) in VARIANTS.items():
            build_bench(variant, flags, kernels)
        build_bench("trace", ["--trace"], TRACE_BENCH)

    decode_builds = [(name, d, hq, hkv, mask, hints, [], DECODE_SIZES)
                     for name, d, hq, hkv, mask, hints in DECODE]
    decode_builds += [(f"{name}_{variant}", d, hq, hkv, mask, hints, flags,
                       DECODE_VARIANT_SIZES)
                      for name, d, hq, hkv, mask, hints in DECODE
                      for variant, (flags, kernels) in DECODE_VARIANTS.items()
                      if name in kernels]
    for name, d, hq, hkv, mask, (b, sq, skv), flags, sizes in decode_builds:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                         delete=False) as f:
            f.write(function(name, d, d, hq, hkv, MASKS.get(mask, mask),
                             "bf16"))
        subprocess.run([args.compiler, f.name, f"--chip={args.chip}",
                        f"--kernel={args.kernel}", "-o", args.out, "--quiet",
                        f"--batch-hint={b}", f"--seq-q-hint={sq}",
                        f"--seq-kv-hint={skv}", *flags],
                       check=True, stdout=subprocess.DEVNULL)
        os.unlink(f.name)
        directory = artifact_dir(args.out, name, args.chip)
        with open(os.path.join(directory, "cases.txt"), "w") as cases:
            for case, (cb, csq, cskv) in enumerate(sizes):
                cases.write(f"--b {cb} --sq {csq} --skv {cskv} "
                            f"--seed {7000 + case}\n")

    for name, d, hq, hkv, mask, sq in LAUNCH_DECODE:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                         delete=False) as f:
            f.write(function(name, d, d, hq, hkv, MASKS.get(mask, mask),
                             "bf16", sq))
        subprocess.run([args.compiler, f.name, f"--chip={args.chip}",
                        f"--kernel={args.kernel}", "-o", args.out, "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
        os.unlink(f.name)
        directory = artifact_dir(args.out, name, args.chip)
        with open(os.path.join(directory, "cases.txt"), "w") as cases:
            for case, (cb, cskv) in enumerate(LAUNCH_DECODE_SIZES):
                cases.write(f"--b {cb} --sq {sq} --skv {cskv} "
                            f"--seed {8000 + case}\n")

    bench_rows = []
    for name, shapes in LAUNCH_DECODE_BENCH.items():
        directory = artifact_dir(args.out, name, args.chip)
        bench_rows += [f"{on_device(directory)}:{b}:{sq}:{skv}"
                       for b, sq, skv in shapes]
        for variant, (tiles, cap) in (LAUNCH_RULE_VARIANTS.items()
                                      if args.rule_copies else []):
            copy = directory.replace(f"_{args.chip}",
                                     f"_{variant}_{args.chip}")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(directory, copy)
            manifest_path = os.path.join(copy, "manifest.json")
            with open(manifest_path) as f:
                manifest = json.load(f)
            rule = manifest["workspace"]["split_at_launch"]
            rule["min_keys_per_partition"] = tiles * rule["key_tile"]
            if cap is not None:
                rule["max_partitions"] = min(rule["max_partitions"], cap)
            with open(manifest_path, "w") as f:
                json.dump(manifest, f, indent=2)
            bench_rows += [f"{on_device(copy)}:{b}:{sq}:{skv}"
                           for b, sq, skv in shapes]
    for name, shapes in DECODE_BENCH.items():
        names = [name] + [f"{name}_{v}"
                          for v, (_, kernels) in DECODE_VARIANTS.items()
                          if name in kernels]
        for kernel_name in names:
            directory = artifact_dir(args.out, kernel_name, args.chip)
            bench_rows += [f"{on_device(directory)}:{b}:{sq}:{skv}"
                           for b, sq, skv in shapes]
    for name, *_, shapes in ([] if args.decode_only else BENCH):
        names = [name] + [f"{name}_{v}" for v, (_, kernels) in VARIANTS.items()
                          if name in kernels]
        for kernel_name in names:
            directory = artifact_dir(args.out, kernel_name, args.chip)
            bench_rows += [f"{on_device(directory)}:{b}:{sq}:{skv}"
                           for b, sq, skv in shapes]
            # The planner's kernel is covered by the matrix; a variant
            # (another lowering) gets a few odd sizes of its own.
            sizes = ([(1, sq, skv) for sq, skv in VARIANT_SIZES]
                     if kernel_name != name else [(1, 77, 301)])
            sizes += VARIANT_BATCHED_SIZES
            sizes += EXTRA_SIZES.get(name, [])
            with open(os.path.join(directory, "cases.txt"), "w") as cases:
                for case, (b, sq, skv) in enumerate(sizes):
                    cases.write(f"--b {b} --sq {sq} --skv {skv} "
                                f"--seed {9 + case}\n")
    with open(os.path.join(args.out, "bench.txt"), "w") as bench:
        bench.write("\n".join(bench_rows) + "\n")

    for index, (name, _) in enumerate(functions[:len(functions) - len(BENCH)]):
        directory = artifact_dir(args.out, name, args.chip)
        with open(os.path.join(directory, "cases.txt"), "w") as cases:
            for case, (sq, skv) in enumerate(SIZES):
                batch = 1 if sq * skv > 1 << 20 else 2
                seed = index * len(SIZES) + case
                cases.write(f"--b {batch} --sq {sq} --skv {skv} --seed {seed}\n")
            with open(os.path.join(directory, "manifest.json")) as manifest:
                persistent = json.load(manifest)["launch"].get("persistent", {})
            if persistent.get("kernel"):
                for case, (b, sq, skv) in enumerate(LOOP_SIZES):
                    cases.write(f"--b {b} --sq {sq} --skv {skv} "
                                f"--seed {50000 + index * 10 + case} "
                                f"--persistent-ctas {LOOP_CTAS}\n")
                # Either side of the twin's bound: the last Skv the twin
                # runs and the first the plain kernel does.
                bound = persistent["max_seq_kv"]
                for case, skv in enumerate((bound, bound + 1)):
                    cases.write(f"--b 1 --sq 300 --skv {skv} "
                                f"--seed {60000 + index * 10 + case}\n")
    # The device takes the cubins; without --keep-ptx the PTX beside a
    # cubin goes (it halves what goes to the GPU machine).
    if not args.keep_ptx:
        for ptx in glob.glob(os.path.join(args.out, "*", "*.ptx")):
            if os.path.exists(ptx[:-len(".ptx")] + ".cubin"):
                os.unlink(ptx)
    matrix = max(len(functions) - len(BENCH), 0)
    print(f"{len(functions)} kernels in {args.out}/: {matrix} "
          f"x {len(SIZES)} sizes, {len(functions) - matrix} for benchmarks; "
          f"{len(decode_builds)} split-K decode kernels x {len(DECODE_SIZES)} "
          f"sizes; {len(LAUNCH_DECODE)} decode kernels split at launch x "
          f"{len(LAUNCH_DECODE_SIZES)} sizes")


if __name__ == "__main__":
    sys.exit(main())
