#!/usr/bin/env python3
"""Times fa4 kernels against torch SDPA (cuDNN and flash backends) in one run.

Each row: an artifact directory (manifest.json + binary) and runtime sizes.
fa4 is timed by `fa4-run --bench` (CUDA events, median, inputs rotated past
L2); torch by CUDA events around the same shapes in bf16/f16, BSHD inputs
transposed to the BHSD views SDPA takes (a view, no copy). Prints TFLOP/s
(visible (i, j) pairs only, like fa4-run) or K+V TB/s for decode, and the
ratios, as a table; writes the rows as JSON to --json.

--warmup-ms N launches each side for N ms before its timed calls. An H200
keeps its boost clock for the first ~100 ms of full load and then its power
limit pulls the SM clock down by 10-30% (bench/clock_probe.py): without a
warm-up, 30 calls of a short problem run at boost and those of a long one
straddle the drop, so the side that follows an idle gap looks faster. With
it every side is timed at the board's sustained clock.

--interleave N times prefill rows in this process instead (fa4 through the
Python package on the same input tensors as torch): after the warm-up the
three sides take turns, N rounds of (fa4, cuDNN, flash), each turn a short
warm-up and 30 timed calls, and each side reports the median of its
rounds. A side timed minutes apart from another reads the board at
another temperature (the sustained clock drifts 4-5% over a call), so
interleaving is what makes a ratio at the sustained clock mean something.
Each interleaved row also gives the ratio to cuDNN round by round (each
round's fa4 and cuDNN turns seconds apart): its median and range, and
every turn's time in the JSON.
With --clocks (interleaved rows) nvidia-smi samples the board meanwhile and
each row also reports every side's median SM clock and mean power over its
turns: at the power limit the side with the lower clock spends more energy
per second.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


def visible_pairs(sq, skv, mask, left, right):
    """(i, j) pairs the mask keeps, bottom-right aligned."""
    total = 0
    for i in range(sq):
        diag = i + skv - sq
        lo, hi = 0, skv - 1
        if mask == "causal":
            hi = min(hi, diag)
        if mask == "window":
            if right >= 0:
                hi = min(hi, diag + right)
            if left >= 0:
                lo = max(lo, diag - left)
        total += max(0, hi - lo + 1)
    return total


def warm_up(fn, warmup_ms):
    """Calls `fn` for `warmup_ms` of wall time, as fa4-run --warmup-ms does:
    synchronising every 8 calls, so the clock reads GPU time."""
    end = time.monotonic() + warmup_ms / 1e3
    calls = 0
    while time.monotonic() < end:
        fn()
        calls += 1
        if calls % 8 == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()


def call_times(fn, iters=30, warmup=5, warmup_ms=0):
    """Every call's ms, sorted, measured as fa4-run measures its kernel: every
    call and its events queued back to back, one synchronisation at the end,
    so the GPU never idles on the host between calls (a per-call sync would
    add the host's launch latency to torch's times)."""
    for _ in range(warmup):
        fn()
    warm_up(fn, warmup_ms)
    events = [(torch.cuda.Event(True), torch.cuda.Event(True)) for _ in range(iters)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return sorted(start.elapsed_time(end) for start, end in events)


def time_ms(fn, iters=30, warmup=5, warmup_ms=0):
    """Median per-call time (call_times)."""
    times = call_times(fn, iters, warmup, warmup_ms)
    return times[len(times) // 2]


def time_ms_graph(fn, iters=30, replays=5, warmup_ms=0):
    """Median per-call time of `iters` calls captured in one CUDA graph: no
    host launch cost between kernels (fa4-run --graph measures its side the
    same way). None when the backend cannot be captured."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            for _ in range(iters):
                fn()
    except RuntimeError as error:
        print(f"  graph capture failed: {str(error).splitlines()[0][:100]}", file=sys.stderr)
        return None
    graph.replay()
    warm_up(graph.replay, warmup_ms)
    events = [torch.cuda.Event(True) for _ in range(replays + 1)]
    events[0].record()
    for event in events[1:]:
        graph.replay()
        event.record()
    torch.cuda.synchronize()
    times = sorted(events[i].elapsed_time(events[i + 1]) / iters for i in range(replays))
    return times[len(times) // 2]


def sdpa_mask(mask, sq, skv):
    """(attn_mask, is_causal) for SDPA: its is_causal is top-left aligned,
    ours bottom-right, so Sq != Skv takes an explicit mask."""
    if mask != "causal":
        return None, False
    if sq == skv:
        return None, True
    i = torch.arange(sq, device="cuda")[:, None]
    j = torch.arange(skv, device="cuda")[None, :]
    return j <= i + skv - sq, False


def input_sets(problem, b, sq, skv):
    """Random q, k, v in BSHD storage, enough sets that they cannot all sit
    in L2 (as torch_ms and fa4-run rotate them)."""
    dtype = torch.bfloat16 if problem["dtype"] == "bf16" else torch.float16
    hq, hkv = problem["num_q_heads"], problem["num_kv_heads"]
    dqk, dv = problem["qk_depth"], problem["ov_depth"]
    count = max(1, min(8, math.ceil(3 * 60e6 / (2 * b * (sq * hq * dqk + skv * hkv * (dqk + dv))))))
    return [(torch.randn(b, sq, hq, dqk, device="cuda", dtype=dtype),
             torch.randn(b, skv, hkv, dqk, device="cuda", dtype=dtype),
             torch.randn(b, skv, hkv, dv, device="cuda", dtype=dtype))
            for _ in range(count)]


def import_fa4():
    """The fa4 package of this checkout (it finds libfa4rt by
    FA4_RUNTIME_LIB or its own search)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import fa4
    return fa4


def load_problem(artifact):
    """The problem an artifact's manifest describes."""
    with open(os.path.join(artifact, "manifest.json")) as f:
        return json.load(f)["problem"]


def fa4_outputs(problem, b, sq, dtype):
    """fa4's o, and its lse where the kernel has one (else None)."""
    hq, dv = problem["num_q_heads"], problem["ov_depth"]
    o = torch.empty(b, sq, hq, dv, device="cuda", dtype=dtype)
    lse = (torch.empty(b, hq, sq, device="cuda", dtype=torch.float32)
           if problem["has_lse"] else None)
    return o, lse


def sdpa_call(backend, problem, qkv, sq, skv):
    """One SDPA call with `backend` on BSHD q, k, v, as a function."""
    attn_mask, is_causal = sdpa_mask(problem["mask"]["kind"], sq, skv)
    views = bhsd(qkv)

    def call():
        with sdpa_kernel([backend]):
            sdpa(views, problem, attn_mask, is_causal)
    return call


def bhsd(qkv):
    """The BHSD views SDPA takes of BSHD q, k, v (no copy)."""
    return tuple(t.transpose(1, 2) for t in qkv)


def sdpa(qkv, problem, attn_mask, is_causal):
    """One SDPA call on BHSD q, k, v with the problem's scale and GQA."""
    q, k, v = qkv
    torch.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=attn_mask, is_causal=is_causal, scale=problem["scale"],
        enable_gqa=problem["num_q_heads"] != problem["num_kv_heads"])


def torch_ms(backend, problem, b, sq, skv, graph=False, warmup_ms=0):
    mask = problem["mask"]["kind"]
    if mask == "window":
        return None
    inputs = [bhsd(qkv) for qkv in input_sets(problem, b, sq, skv)]
    attn_mask, is_causal = sdpa_mask(mask, sq, skv)
    counter = [0]

    def run():
        qkv = inputs[counter[0] % len(inputs)]
        counter[0] += 1
        sdpa(qkv, problem, attn_mask, is_causal)

    try:
        with sdpa_kernel([backend]):
            return (time_ms_graph(run, warmup_ms=warmup_ms) if graph
                    else time_ms(run, warmup_ms=warmup_ms))
    except RuntimeError as error:
        print(f"  torch {backend.name}: {str(error).splitlines()[0][:100]}", file=sys.stderr)
        return None


def interleaved_ms(artifact, problem, b, sq, skv, rounds, warmup_ms):
    """({side: median ms over `rounds` turns}, {side: [(start, end) of each
    turn]}, {side: [ms of each turn]}) for fa4, cudnn and flash timed in turn
    on the same inputs after
    `warmup_ms` of all three in turn (a side that cannot run the problem is
    left out)."""
    kernel = import_fa4().Kernel.load(artifact)
    sets = input_sets(problem, b, sq, skv)
    views = [bhsd(qkv) for qkv in sets]
    outputs = [fa4_outputs(problem, b, sq, q.dtype) for q, _, _ in sets]
    mask = problem["mask"]["kind"]
    attn_mask, is_causal = sdpa_mask(mask, sq, skv)
    counter = [0]

    def next_set():
        counter[0] += 1
        return counter[0] % len(sets)

    def fa4_call():
        index = next_set()
        q, k, v = sets[index]
        o, lse = outputs[index]
        kernel.launch(q, k, v, o, lse, stream=torch.cuda.current_stream())

    def rotating_sdpa_call(backend):
        def call():
            with sdpa_kernel([backend]):
                sdpa(views[next_set()], problem, attn_mask, is_causal)
        return call

    sides = {"fa4": fa4_call}
    if mask != "window":
        sides["cudnn"] = rotating_sdpa_call(SDPBackend.CUDNN_ATTENTION)
        sides["flash"] = rotating_sdpa_call(SDPBackend.FLASH_ATTENTION)
    for name in list(sides):
        try:
            sides[name]()
            torch.cuda.synchronize()
        except RuntimeError as error:
            print(f"  {name}: {str(error).splitlines()[0][:100]}", file=sys.stderr)
            del sides[name]
    end = time.monotonic() + warmup_ms / 1e3
    while time.monotonic() < end:
        for fn in sides.values():
            warm_up(fn, 50)
    turns = {name: [] for name in sides}
    windows = {name: [] for name in sides}
    for _ in range(rounds):
        for name, fn in sides.items():
            start = time.monotonic()
            turns[name].append(time_ms(fn, warmup_ms=100))
            windows[name].append((start, time.monotonic()))
    kernel.close()
    return ({name: sorted(times)[len(times) // 2] for name, times in turns.items()},
            windows, turns)


def fa4_ms(fa4_run, artifact, b, sq, skv, graph=False, pdl=False, warmup_ms=0):
    out = subprocess.run([fa4_run, f"{artifact}/manifest.json", "--b", str(b), "--sq", str(sq),
                          "--skv", str(skv), "--bench", "--iters", "30",
                          "--warmup-ms", str(warmup_ms)] +
                         (["--graph"] if graph else []) + (["--pdl"] if pdl else []),
                         capture_output=True, text=True, timeout=600)
    match = re.search(r"ms=([0-9.eE+-]+)", out.stdout)
    if out.returncode != 0 or not match:
        print(f"  fa4-run failed: {out.stdout[-300:]} {out.stderr[-300:]}", file=sys.stderr)
        return None
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fa4-run", required=True)
    parser.add_argument("--json")
    parser.add_argument("--graph", action="store_true",
                        help="time every side in CUDA graphs of 30 calls (kernel "
                             "time without host launch cost)")
    parser.add_argument("--graph-decode", action="store_true",
                        help="time the decode rows (Sq <= 16) in CUDA graphs: a "
                             "decode kernel runs about as long as torch's host "
                             "dispatch, which a per-call stream timing includes "
                             "(D-42)")
    parser.add_argument("--pdl-column", action="store_true",
                        help="also time fa4 with programmatic dependent launches "
                             "(fa4-run --pdl) and print their ratio to plain ones")
    parser.add_argument("--warmup-ms", type=int, default=0,
                        help="launch each side for this long before timing it "
                             "(the board's sustained clock; 0: boost, as before)")
    parser.add_argument("--interleave", type=int, default=0, metavar="ROUNDS",
                        help="time prefill rows in this process, the three sides in "
                             "turn for ROUNDS rounds after --warmup-ms (0: fa4-run, "
                             "then torch's times shared by a problem's variants)")
    parser.add_argument("--clocks", action="store_true",
                        help="with --interleave: sample nvidia-smi and report each "
                             "side's median SM clock and mean power over its turns")
    parser.add_argument("rows", nargs="+", help="ARTIFACT_DIR:B:SQ:SKV")
    args = parser.parse_args()
    rows = []
    torch_times = {}
    fmt = lambda x: f"{x:9.2f}" if x else "      n/a"
    extra = f" {'pdl':>9} {'pdl/fa4':>7}" if args.pdl_column else ""
    sampler = None
    if args.clocks and args.interleave and not args.graph:
        from gpu_clocks import ClockSampler
        sampler = ClockSampler()
        sampler.start()
        extra += f" {'MHz fa4/cudnn/flash':>20} {'W fa4/cudnn/flash':>18}"
    if args.interleave:
        extra += f" {'/cudnn paired (range)':>21}"
    # Each row is printed as soon as it is measured, so a run cut short by
    # its time limit still reports what it measured.
    print(f"{'artifact':52} {'b':>3} {'sq':>6} {'skv':>6} {'unit':>7} {'fa4':>9} {'cudnn':>9} {'flash':>9} {'/cudnn':>7} {'/flash':>7}{extra}",
          flush=True)

    def print_row(r):
        ratio = lambda other: f"{r['fa4'] / r[other]:7.3f}" if r["fa4"] and r.get(other) else "    n/a"
        pdl_ratio = f"{r['fa4_pdl'] / r['fa4']:7.3f}" if r["fa4"] and r.get("fa4_pdl") else "    n/a"
        extra = f" {fmt(r.get('fa4_pdl'))} {pdl_ratio}" if args.pdl_column else ""
        if sampler:
            sides = ("fa4", "cudnn", "flash")
            mhz = "/".join(f"{r[s + '_mhz']:.0f}" if r.get(s + "_mhz") else "-" for s in sides)
            watts = "/".join(f"{r[s + '_w']:.0f}" if r.get(s + "_w") else "-" for s in sides)
            extra += f" {mhz:>20} {watts:>18}"
        if args.interleave:
            paired = r.get("cudnn_paired")
            span = (f"{paired['median']:.3f} ({paired['min']:.3f}-{paired['max']:.3f})"
                    if paired else "-")
            extra += f" {span:>21}"
        print(f"{r['artifact'][:52]:52} {r['b']:3} {r['sq']:6} {r['skv']:6} {r['unit']:>7} "
              f"{fmt(r['fa4'])} {fmt(r['cudnn'])} {fmt(r['flash'])} {ratio('cudnn')} {ratio('flash')}{extra}",
              flush=True)

    for spec in args.rows:
        artifact, b, sq, skv = spec.rsplit(":", 3)
        b, sq, skv = int(b), int(sq), int(skv)
        problem = load_problem(artifact)
        m = problem["mask"]
        pairs = visible_pairs(sq, skv, m["kind"], m["window_left"], m["window_right"])
        hq, hkv = problem["num_q_heads"], problem["num_kv_heads"]
        flops = 2 * b * hq * pairs * (problem["qk_depth"] + problem["ov_depth"])
        kv_bytes = 2 * b * skv * hkv * (problem["qk_depth"] + problem["ov_depth"])
        decode = sq <= 16
        unit = "TB/s" if decode else "TFLOP/s"
        rate = (lambda ms: kv_bytes / ms / 1e9) if decode else (lambda ms: flops / ms / 1e9)
        graph = args.graph or (decode and args.graph_decode)
        row = {"artifact": artifact.rstrip("/").split("/")[-1], "b": b, "sq": sq, "skv": skv,
               "unit": unit}
        if graph and not args.graph:  # this row alone timed in CUDA graphs
            row["unit"] += "(g)"
            row["protocol"] = "CUDA graph"
        if args.interleave and not decode and not graph:
            times, windows, turns = interleaved_ms(artifact, problem, b, sq, skv,
                                                   args.interleave, args.warmup_ms)
            for name in ("fa4", "cudnn", "flash"):
                ms = times.get(name)
                row[name + "_ms"] = ms
                row[name] = rate(ms) if ms else None
                seen = sampler.summary(windows[name]) if sampler and name in windows else None
                if seen:
                    row[name + "_mhz"], row[name + "_w"] = seen
            for name, times in turns.items():
                row[name + "_rounds_ms"] = times
            # The ratio to cuDNN round by round: each pair of turns ran
            # seconds apart, so the board's drift over the row cancels, and
            # the pairs' range says how far one row's median can be trusted.
            if "cudnn" in turns:
                paired = sorted(c / f for f, c in zip(turns["fa4"], turns["cudnn"]))
                row["cudnn_paired"] = {"median": paired[len(paired) // 2],
                                       "min": paired[0], "max": paired[-1]}
            row["protocol"] = f"interleaved x{args.interleave}, warm-up {args.warmup_ms} ms"
            rows.append(row)
            print_row(row)
            continue
        # Variants of one problem share torch's times, so their ratios
        # compare the variants, not run-to-run noise in torch.
        key = (json.dumps(problem, sort_keys=True), b, sq, skv, graph)
        if key not in torch_times:
            torch_times[key] = [
                torch_ms(SDPBackend.CUDNN_ATTENTION, problem, b, sq, skv, graph,
                         args.warmup_ms),
                torch_ms(SDPBackend.FLASH_ATTENTION, problem, b, sq, skv, graph,
                         args.warmup_ms)]
        cudnn_ms, flash_ms = torch_times[key]
        sides = [("fa4", fa4_ms(args.fa4_run, artifact, b, sq, skv, graph,
                                warmup_ms=args.warmup_ms)),
                 ("cudnn", cudnn_ms), ("flash", flash_ms)]
        if args.pdl_column:
            sides.append(("fa4_pdl",
                          fa4_ms(args.fa4_run, artifact, b, sq, skv, graph, pdl=True,
                                 warmup_ms=args.warmup_ms)))
        for name, ms in sides:
            row[name + "_ms"] = ms
            row[name] = rate(ms) if ms else None
        rows.append(row)
        print_row(row)
    if sampler:
        sampler.stop()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
