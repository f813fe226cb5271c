#!/usr/bin/env python3
"""Where an sm_90a prefill kernel's time goes, from its own clock.

A kernel compiled with `fa4-compile --trace` (fa3 prefill, with LSE) writes,
for every work tile and consumer warpgroup, the globaltimer (ns, low 32
bits) at six points over the LSE of the consumer's first rows: the work
tile's start, Q in shared memory, step 0 done, the K/V loop done, the last
P V done, O written; then the consumer role's start, the SM and the
number of epilogue stamps that follow; then, in the looped twin, its
epilogue's stamps: after the LSE, then with two Q buffers (O staged over
the tile's Q) after staging and after the stores' issue, or with one box
of staging per 64-column box of O after the wait for its slot, after
staging, after the store's issue. This script
launches such a kernel on fresh random inputs (a warm-up, then the traced
launch), reads those words back and prints, in microseconds, the mean of
each phase per work tile and the gaps between work tiles on one SM.

    python3 bench/trace_phases.py KERNEL_DIR --b 8 --s 2048 [--s 4096 ...]

Needs torch with CUDA and libfa4rt (FA4_RUNTIME_LIB or python/fa4's search).
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import fa4  # noqa: E402

PHASES = ["q_wait", "step0", "loop", "last_pv", "epilogue"]
WORDS = 9  # six stamps, the role's start, the SM, the epilogue's count
MAX_WORDS = 64  # every row of a consumer's tile: any epilogue fits
BOX_PHASES = ["wait", "stage", "issue"]  # per box of O, the twin's epilogue
OVER_Q_PHASES = ["stage", "issue"]  # O staged over Q, the twin's epilogue


def launched_plan(kernel_dir, skv):
    """(BN, threads, twin) of the kernel that runs at this Skv: the looped
    twin's (manifest "twin") up to the persistent bound, else the kernel's.
    BN is the key rows of the K tensor map's box."""
    with open(os.path.join(kernel_dir, "manifest.json")) as f:
        manifest = json.load(f)
    launch, params = manifest["launch"], manifest["params"]
    persistent = launch.get("persistent")
    twin = bool("twin" in manifest and persistent
                and skv <= persistent.get("max_seq_kv", -1))
    if twin:
        launch, params = manifest["twin"]["launch"], manifest["twin"]["params"]
    for param in params:
        if param.get("kind") == "tensor_map" and param.get("tensor") == "k":
            return int(param["box"][1]), int(launch["block"][0]), twin
    raise SystemExit("no K tensor map in %s" % kernel_dir)


def trace(kernel, b, s, seed):
    info = kernel.info
    dtype = torch.bfloat16 if info.dtype == "bf16" else torch.float16
    hq, hkv = info.heads
    dqk, dv = info.depths
    gen = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, s, hq, dqk, device="cuda", dtype=dtype, generator=gen)
    k = torch.randn(b, s, hkv, dqk, device="cuda", dtype=dtype, generator=gen)
    v = torch.randn(b, s, hkv, dv, device="cuda", dtype=dtype, generator=gen)
    o = torch.empty(b, s, hq, dv, device="cuda", dtype=dtype)
    lse = torch.empty(b, hq, s, device="cuda", dtype=torch.float32)
    for _ in range(3):
        kernel(q, k, v, o, lse)
    torch.cuda.synchronize()
    lse.fill_(float("nan"))
    kernel(q, k, v, o, lse)
    torch.cuda.synchronize()
    words = lse.view(torch.int32).to(torch.int64) & 0xFFFFFFFF
    # [b, hq, row blocks of 128, consumer, 64 rows]: every row a consumer's
    # tile has (the epilogue's count says how many of them it wrote).
    blocks = s // 128
    words = words[:, :, : blocks * 128].reshape(b, hq, blocks, 2, MAX_WORDS)
    # [work tiles, consumer, word]; work tile (batch, head, row block) has
    # row block index % blocks.
    return words.reshape(-1, 2, MAX_WORDS).cpu(), blocks


def phase_us(words):
    """[work tile, consumer, phase]: each phase's time in us. The low 32
    bits of the ns clock wrap every 4.3 s, so the differences are taken
    signed, modulo 2^32."""
    stamps = words[..., :6].to(torch.int64)
    return ((stamps[..., 1:] - stamps[..., :-1] + (1 << 31)) % (1 << 32)
            - (1 << 31)).double() / 1000.0


def by_row_block(words, blocks, bn):
    """Under a causal mask (Sq = Skv) row block i sees ceil(128 (i + 1) /
    BN) K/V tiles: the phases of each row block, consumer 1 (the one whose
    last GEMM turn ends the tile)."""
    phases = phase_us(words)
    block = torch.arange(words.shape[0]) % blocks
    rows = []
    for i in range(blocks):
        mean = phases[block == i, 1].mean(0)
        tiles = -(-128 * (i + 1) // bn)
        rows.append("row block %d (%d K/V tiles): %.2f us =" %
                    (i, tiles, mean.sum().item()) +
                    ",".join(" %s %.2f" % (name, mean[j].item())
                             for j, name in enumerate(PHASES)))
    return rows


def epilogue(words):
    """The looped twin's epilogue, per consumer: the mean time from the last
    P V to the LSE stored, then the staging and issue of O (staged over Q),
    or per box of O its wait, staging and issue, in us."""
    count = int(words[0, 0, WORDS - 1])
    if count == 1 + len(OVER_Q_PHASES):
        names = ["lse"] + OVER_Q_PHASES
    elif count > 1 and (count - 1) % len(BOX_PHASES) == 0:
        names = ["lse"] + ["box%d %s" % (box, phase)
                           for box in range((count - 1) // len(BOX_PHASES))
                           for phase in BOX_PHASES]
    else:
        return ["epilogue: %d stamps, a layout this script does not know"
                % count] if count else []
    stamps = torch.cat([words[..., 4:5], words[..., WORDS:WORDS + count]], -1)
    steps = ((stamps[..., 1:] - stamps[..., :-1] + (1 << 31)) % (1 << 32)
             - (1 << 31)).double() / 1000.0
    rows = []
    for consumer in range(2):
        mean = steps[:, consumer].mean(0)
        rows.append("consumer %d epilogue: %s" % (consumer, ", ".join(
            "%s %.3f" % (name, mean[i].item()) for i, name in enumerate(names))))
    return rows


def summarize(words, tiles):
    stamps, role, sm = words[..., :6], words[..., 6], words[..., 7]

    # Low 32 bits of ns wrap every 4.3 s: offsets from one stamp, signed.
    def offset(x):
        return (x - role[0, 0] + (1 << 31)) % (1 << 32) - (1 << 31)

    stamps, role = offset(stamps), offset(role)
    phases = phase_us(words)
    span = (stamps[..., 5].max() - role.min()).item() / 1000.0
    rows = ["kernel span %.1f us; %d work tiles x 2 consumers; %d K/V tiles "
            "each" % (span, words.shape[0], tiles)]
    for consumer in range(2):
        mean = phases[:, consumer].mean(0)
        total = (stamps[:, consumer, 5] - stamps[:, consumer, 0]).double()
        row = "consumer %d: work tile %.2f us =" % (consumer,
                                                   total.mean() / 1000.0)
        row += ", ".join(" %s %.2f" % (name, mean[i].item())
                         for i, name in enumerate(PHASES))
        if tiles > 1:
            row += " (%.3f per K/V step)" % (mean[2].item() / (tiles - 1))
        rows.append(row)
    # Gaps between one consumer's work tiles on an SM: O written to the
    # next tile's start (a persistent CTA's loop, or a CTA's exit and the
    # next one's launch and setup, which starts at its role's start).
    gaps, setups = [], []
    for consumer in range(2):
        order = {}
        for index in range(words.shape[0]):
            order.setdefault(int(sm[index, consumer]), []).append(index)
        for indices in order.values():
            indices.sort(key=lambda i: int(stamps[i, consumer, 0]))
            for prev, nxt in zip(indices, indices[1:]):
                gaps.append(int(stamps[nxt, consumer, 0]) -
                            int(stamps[prev, consumer, 5]))
        setups += (stamps[:, consumer, 0] - role[:, consumer]).tolist()
    gaps = torch.tensor(gaps, dtype=torch.float64) / 1000.0
    setups = torch.tensor(setups, dtype=torch.float64) / 1000.0
    if len(gaps):
        rows.append("between work tiles on an SM: mean %.2f us, median %.2f"
                    % (gaps.mean(), gaps.median()))
    rows.append("role start to work tile start: mean %.2f us, median %.2f" %
                (setups.mean(), setups.median()))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kernel_dir")
    parser.add_argument("--b", type=int, action="append", required=True)
    parser.add_argument("--s", type=int, action="append", required=True)
    parser.add_argument("--by-row-block", action="store_true",
                        help="also the phases of each row block (causal: "
                             "row block i sees i + 1 diagonals' tiles)")
    args = parser.parse_args()
    if len(args.b) != len(args.s):
        raise SystemExit("give one --b per --s")
    kernel = fa4.Kernel.load(args.kernel_dir)
    print("# %s" % os.path.basename(args.kernel_dir.rstrip("/")))
    for seed, (b, s) in enumerate(zip(args.b, args.s)):
        if s % 128:
            raise SystemExit("S must be a multiple of 128, got %d" % s)
        bn, threads, twin = launched_plan(args.kernel_dir, s)
        # The stamps are read as two consumers of 64 rows per 128-row block.
        if threads != 384:
            raise SystemExit("S = %d runs a %d-thread kernel; the trace reads "
                             "two consumer warpgroups (384 threads) only"
                             % (s, threads))
        tiles = -(-s // bn)
        print("b = %d, S = %d (BN = %d):" % (b, s, bn))
        words, blocks = trace(kernel, b, s, seed)
        for row in summarize(words, tiles):
            print("  " + row)
        if twin:
            for row in epilogue(words):
                print("  " + row)
        if args.by_row_block:
            for row in by_row_block(words, blocks, bn):
                print("  " + row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
