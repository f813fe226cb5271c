#!/usr/bin/env python3
"""Times fa4.flash_attn_varlen_func on the H100/H200 against the same
attention in one run: fa4's dense kernel (flash_attn_func) where every
sequence has one length, torch SDPA (cuDNN, flash) on the dense batch, and
torch's own varlen attention where this torch has one.

    varlen_bench.py --configs     the kernel pack's configurations
    varlen_bench.py               on the GPU, $FA4_CACHE_DIR the pack

Rows: bf16, Hq 32 / Hkv 8, d = 128, causal and no mask; a uniform batch
(16 x 2048: the varlen kernel against the dense one on the same tokens) and
a ragged one (lengths drawn log-uniformly from 64 to 8192 until 32768
tokens, the issue's mix), whose TFLOP/s the summary compares with the
uniform batch's dense kernel: the same tokens as equal-length batches.
TFLOP/s count the visible (query, key) pairs of each sequence; each time is
the median of 30 calls (CUDA events); every side is timed in turn, in
FA4_BENCH_ROUNDS rounds (default 3), the first after a second of load, and
each ratio is the median of its per-round ratios. Prints a table, the
ratios and the summary; exits non-zero only if a side fails to run.
"""
import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

HQ, HKV, D = 32, 8, 128


def configs():
    out = []
    for mask in ("none", "causal"):
        out.append("bf16:%d:%d:%d:%d:%s@varlen" % (HQ, HKV, D, D, mask))
        out.append("bf16:%d:%d:%d:%d:%s" % (HQ, HKV, D, D, mask))
    return out


def log_uniform_lengths(rng, low, high, tokens):
    """Lengths drawn log-uniformly from [low, high] until `tokens` in all
    (the last one cut to fit)."""
    import math
    lengths = []
    while sum(lengths) < tokens:
        n = int(round(math.exp(rng.uniform(math.log(low), math.log(high)))))
        lengths.append(min(n, tokens - sum(lengths)))
    return lengths


def pairs(sq, skv, causal):
    if not causal:
        return sq * skv
    return sum(min(skv, max(0, row + skv - sq + 1)) for row in range(sq))


def median_ms(torch, fn, iters=30, warmup_ms=200):
    import time
    fn()
    torch.cuda.synchronize()
    end = time.time() + warmup_ms / 1000
    while time.time() < end:
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def torch_varlen(torch):
    """torch's varlen attention (torch.nn.attention.varlen), or None."""
    try:
        from torch.nn.attention.varlen import varlen_attn
        return varlen_attn
    except Exception:
        return None


def row_sides(torch, fa4, lengths, causal):
    """The row's label, FLOP count and sides (name -> call)."""
    rng = torch.Generator(device="cuda").manual_seed(7)
    total = sum(lengths)
    q = torch.randn(total, HQ, D, device="cuda", dtype=torch.bfloat16,
                    generator=rng)
    k = torch.randn(total, HKV, D, device="cuda", dtype=torch.bfloat16,
                    generator=rng)
    v = torch.randn_like(k)
    cu = [0]
    for n in lengths:
        cu.append(cu[-1] + n)
    cu = torch.tensor(cu, device="cuda", dtype=torch.int32)
    longest = max(lengths)
    flops = 4 * D * HQ * sum(pairs(n, n, causal) for n in lengths)
    sides = {}

    def side(name, fn):
        sides[name] = fn

    side("fa4 varlen", lambda: fa4.flash_attn_varlen_func(
        q, k, v, cu, cu, longest, longest, causal=causal))
    uniform = len(set(lengths)) == 1
    if uniform:
        b, s = len(lengths), lengths[0]
        qd, kd, vd = (t.view(b, s, t.shape[1], D) for t in (q, k, v))
        side("fa4 dense", lambda: fa4.flash_attn_func(qd, kd, vd, causal=causal))
        from torch.nn.attention import SDPBackend, sdpa_kernel
        qt, kt, vt = (t.transpose(1, 2) for t in (qd, kd, vd))
        for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION),
                              ("flash", SDPBackend.FLASH_ATTENTION)):
            def call(backend=backend):
                with sdpa_kernel(backend):
                    torch.nn.functional.scaled_dot_product_attention(
                        qt, kt, vt, is_causal=causal, enable_gqa=True)
            side("sdpa " + name, call)
    varlen_attn = torch_varlen(torch)
    if varlen_attn is not None:
        group = HQ // HKV
        kr = k.repeat_interleave(group, dim=1)
        vr = v.repeat_interleave(group, dim=1)
        # The keyword for a causal mask differs between torch releases.
        import inspect
        names = inspect.signature(varlen_attn).parameters
        mask = {"is_causal": causal} if "is_causal" in names else (
            {"causal": causal} if "causal" in names else None)
        if mask is None:
            print("  torch varlen skipped: no causal keyword in %s"
                  % list(names))
        else:
            side("torch varlen", lambda: varlen_attn(
                q, kr, vr, cu, cu, longest, longest, **mask))
    label = "%s %s" % ("uniform %dx%d" % (len(lengths), lengths[0]) if uniform
                       else "ragged %d seqs, %d tokens" % (len(lengths), total),
                       "causal" if causal else "none")
    return label, flops, sides


def time_round(torch, row_list, warmup_ms):
    """One round: every side of every row, in turn; {(label, side): ms}."""
    times = {}
    for label, _, sides in row_list:
        for name, fn in list(sides.items()):
            try:
                times[(label, name)] = median_ms(torch, fn, warmup_ms=warmup_ms)
            except Exception as error:  # a side that cannot run is dropped
                print("  %s %s failed: %s" % (label, name,
                                              str(error).splitlines()[0][:120]))
                del sides[name]
    return times


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--configs":
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    rounds = int(os.environ.get("FA4_BENCH_ROUNDS", "3"))
    print("device:", torch.cuda.get_device_name())
    ragged = log_uniform_lengths(random.Random(20261207), 64, 8192, 32768)
    print("ragged lengths:", ragged)
    row_list = [row_sides(torch, fa4, lengths, causal)
                for causal in (False, True) for lengths in ([2048] * 16, ragged)]
    # Rounds of every side in turn (the first after a second of load, at
    # the sustained clock, bench/RESULTS.md "How measured"): the issue's
    # ratio is taken within each round, its median reported, so the clock's
    # drift between passes cancels.
    per_round = [time_round(torch, row_list, 1000 if r == 0 else 200)
                 for r in range(rounds)]
    ok = all(("fa4 varlen" in sides) for _, _, sides in row_list)
    print("%-34s %-13s %9s %9s %14s" % ("row", "side", "ms", "TFLOP/s",
                                        "fa4varlen/side"))
    for label, flops, sides in row_list:
        for name in sides:
            ms = median([t[(label, name)] for t in per_round])
            # Ratio of times, per round: above 1, fa4 varlen is slower.
            ratio = (median([t[(label, "fa4 varlen")] / t[(label, name)]
                             for t in per_round])
                     if "fa4 varlen" in sides else float("nan"))
            print("%-34s %-13s %9.3f %9.1f %14.3f" % (
                label, name, ms, flops / ms / 1e9, ratio))
    # The measure: the ragged batch's TFLOP/s through the varlen
    # kernel against the same tokens as one equal-length batch (dense),
    # within each round.
    for mask in ("none", "causal"):
        ragged_row = [r for r in row_list if r[0].startswith("ragged")
                      and r[0].endswith(mask)][0]
        uniform_row = [r for r in row_list if r[0].startswith("uniform")
                       and r[0].endswith(mask)][0]
        if "fa4 dense" not in uniform_row[2] or "fa4 varlen" not in ragged_row[2]:
            continue
        ratios = sorted(
            (ragged_row[1] / t[(ragged_row[0], "fa4 varlen")]) /
            (uniform_row[1] / t[(uniform_row[0], "fa4 dense")])
            for t in per_round)
        print("summary %-6s ragged varlen / equal-length dense, TFLOP/s: "
              "median %.3f of %d rounds (%.3f-%.3f)" % (
                  mask, median(ratios), len(ratios), ratios[0], ratios[-1]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
