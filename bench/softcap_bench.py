#!/usr/bin/env python3
"""What logit softcapping and attention sinks cost fa4 on the H100/H200
(issue 61): the same prefill through fa4.flash_attn_func with and without
softcap = 15, and with sinks (one f32 logit per head), in one run, beside
torch SDPA's cuDNN backend (which has neither) for scale.

    softcap_bench.py --configs     the kernel pack's configurations
    softcap_bench.py               on the GPU, $FA4_CACHE_DIR the pack

Rows: bf16, 16 heads, d = 128, B x S = 16k tokens (S = 1k, 4k, 16k),
causal and not. Each time is the median of 30 calls (CUDA events); every
side of every row is timed in turn, in FA4_BENCH_ROUNDS rounds (default
3, the first after a second of load), and the cost is the median over the
rounds of softcapped time / plain time within the round. Prints a table
and the costs; exits non-zero only if a side fails to run.
"""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench", "serving"))

HEADS, D, TOKENS, SOFTCAP = 16, 128, 16384, 15.0
LENGTHS = (1024, 4096, 16384)


FEATURES = {"fa4 softcap": ":softcap=%r" % SOFTCAP, "fa4 sinks": ":sinks"}


def configs():
    return ["bf16:%d:%d:%d:%d:%s%s" % (HEADS, HEADS, D, D, mask, feature)
            for mask in ("none", "causal")
            for feature in [""] + list(FEATURES.values())]


def row_sides(torch, fa4, s, causal):
    b = TOKENS // s
    gen = torch.Generator(device="cuda").manual_seed(s + causal)
    q, k, v = (torch.randn(b, s, HEADS, D, device="cuda", dtype=torch.bfloat16,
                           generator=gen) for _ in range(3))
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    pairs = s * (s + 1) // 2 if causal else s * s
    flops = 4 * b * HEADS * D * pairs
    from torch.nn.attention import SDPBackend, sdpa_kernel
    F = torch.nn.functional

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(qt, kt, vt, is_causal=causal)

    sinks = 1.0 + 1.5 * torch.randn(HEADS, device="cuda", generator=gen)
    sides = {
        "fa4": lambda: fa4.flash_attn_func(q, k, v, causal=causal),
        "fa4 softcap": lambda: fa4.flash_attn_func(q, k, v, causal=causal,
                                                   softcap=SOFTCAP),
        "fa4 sinks": lambda: fa4.flash_attn_func(q, k, v, causal=causal,
                                                 sinks=sinks),
        "cudnn": cudnn,
    }
    label = "b=%d s=%d %s" % (b, s, "causal" if causal else "none")
    return label, flops, sides


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--configs":
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    from varlen_bench import median, time_round
    rounds = int(os.environ.get("FA4_BENCH_ROUNDS", "3"))
    print("device:", torch.cuda.get_device_name())
    row_list = [row_sides(torch, fa4, s, causal)
                for causal in (False, True) for s in LENGTHS]
    per_round = [time_round(torch, row_list, 1000 if r == 0 else 200)
                 for r in range(rounds)]
    ok = all(all(side in sides for side in ["fa4"] + list(FEATURES))
             for _, _, sides in row_list)
    print("%-22s %-12s %9s %9s %12s" % ("row", "side", "ms", "TFLOP/s",
                                        "side/fa4"))
    for label, flops, sides in row_list:
        for name in sides:
            ms = median([t[(label, name)] for t in per_round])
            ratio = (median([t[(label, name)] / t[(label, "fa4")]
                             for t in per_round])
                     if "fa4" in sides else float("nan"))
            print("%-22s %-12s %9.3f %9.1f %12.3f" % (
                label, name, ms, flops / ms / 1e9, ratio))
    for label, _, sides in row_list:
        for feature in FEATURES:
            if "fa4" not in sides or feature not in sides:
                continue
            costs = sorted(t[(label, feature)] / t[(label, "fa4")]
                           for t in per_round)
            print("cost %-22s %s / none, time: median %.3f of %d rounds "
                  "(%.3f-%.3f)" % (label, FEATURES[feature].lstrip(":"),
                                   median(costs), len(costs), costs[0],
                                   costs[-1]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
