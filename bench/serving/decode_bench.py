#!/usr/bin/env python3
"""Times decode through fa4.flash_attn_with_kvcache on the H100/H200 against
the same attention in one run: fa4's contiguous decode (flash_attn_func,
one query row, dense BSHD cache), torch SDPA (cuDNN, flash) on the dense
cache, and fa4's kvcache call over a contiguous cache and paged caches of
16, 64 and 256 keys a page (shuffled block tables).

    decode_bench.py --configs     the kernel pack's configurations
    decode_bench.py [--quick]     on the GPU, $FA4_CACHE_DIR the pack

Rows: bf16, Hq 32 / Hkv 8, d = 128, one query row, no mask (a decode row
sees every key); B in {1, 8, 64} and Skv in {8k, 32k} (B = 64 at 8k only:
32k would hold 8.6 GB of cache per side). GB/s count the K and V bytes each
call must read. Each side is timed twice: eager, the median of 30 calls
(CUDA events) after a 200 ms warm-up, which counts the host's per-call
cost where it exceeds the kernel's; and replayed from a CUDA graph of 20
calls (as engines run decode), the median of 10 replays, which GB/s and the
ratio use. Prints a table with each side's graphed time over fa4's
contiguous decode's (above 1: slower than fa4 dense); exits non-zero only
if a side fails to run.
"""
import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from varlen_bench import median_ms  # noqa: E402

HQ, HKV, D = 32, 8, 128
PAGES = (16, 64, 256)
ROWS = [(1, 8192), (1, 32768), (8, 8192), (8, 32768), (64, 8192)]


def configs():
    out = ["bf16:%d:%d:%d:%d:none" % (HQ, HKV, D, D),
           "bf16:%d:%d:%d:%d:none@varlen_seqused" % (HQ, HKV, D, D)]
    out += ["bf16:%d:%d:%d:%d:none@paged%d" % (HQ, HKV, D, D, page)
            for page in PAGES]
    return out


def paged_copy(torch, cache, page, rng):
    """cache [b, s, h, d] as pages of `page` keys in shuffled order, and
    the block table that reads them back in order."""
    b, s = int(cache.shape[0]), int(cache.shape[1])
    per_seq = s // page
    order = list(range(b * per_seq))
    rng.shuffle(order)
    table = torch.tensor(order, dtype=torch.int32,
                         device="cuda").view(b, per_seq)
    pages = torch.empty(b * per_seq, page, *cache.shape[2:],
                        dtype=cache.dtype, device="cuda")
    pages[table.flatten().long()] = cache.reshape(b * per_seq, page,
                                                  *cache.shape[2:])
    return pages, table


def graph_ms(torch, fn, calls=20, replays=10):
    """Milliseconds per call of `fn` replayed from a CUDA graph of `calls`
    calls (what an engine's decode step does): the GPU's time without the
    host's per-call cost."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / calls)
    times.sort()
    return times[len(times) // 2]


def decode_inputs(torch, b, skv, seed):
    """One decode step's q [b, 1, HQ, D] and its dense cache k, v
    [b, skv, HKV, D], bf16, random from `seed`."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, 1, HQ, D, device="cuda", dtype=torch.bfloat16,
                    generator=gen)
    k = torch.randn(b, skv, HKV, D, device="cuda", dtype=torch.bfloat16,
                    generator=gen)
    return q, k, torch.randn_like(k)


def run_row(torch, fa4, b, skv, rows):
    q, k, v = decode_inputs(torch, b, skv, seed=11)
    seqlens = torch.full((b,), skv, dtype=torch.int32, device="cuda")
    bytes_read = 2 * k.numel() * k.element_size()
    sides = {}

    def side(name, fn):
        try:
            sides[name] = (median_ms(torch, fn), graph_ms(torch, fn))
        except Exception as error:  # a side that cannot run is reported
            print("  %s failed: %s" % (name, str(error).splitlines()[0][:120]))

    side("fa4 dense", lambda: fa4.flash_attn_func(q, k, v))
    from torch.nn.attention import SDPBackend, sdpa_kernel
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    for name, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION),
                          ("flash", SDPBackend.FLASH_ATTENTION)):
        def call(backend=backend):
            with sdpa_kernel(backend):
                torch.nn.functional.scaled_dot_product_attention(
                    qt, kt, vt, enable_gqa=True)
        side("sdpa " + name, call)
    side("fa4 kvcache", lambda: fa4.flash_attn_with_kvcache(
        q, k, v, cache_seqlens=seqlens))
    rng = random.Random(b * 100003 + skv)
    for page in PAGES:
        kp, table = paged_copy(torch, k, page, rng)
        vp, _ = paged_copy(torch, v, page, random.Random(b * 100003 + skv))
        side("fa4 paged%d" % page, lambda kp=kp, vp=vp, table=table:
             fa4.flash_attn_with_kvcache(q, kp, vp, cache_seqlens=seqlens,
                                         block_table=table))
        del kp, vp
    label = "b%d skv%d" % (b, skv)
    base = sides.get("fa4 dense", (float("nan"),) * 2)[1]
    for name, (eager, graphed) in sides.items():
        rows.append((label, name, eager, graphed, bytes_read / graphed / 1e6,
                     graphed / base))
    return all(name in sides for name in ("fa4 dense", "fa4 kvcache"))


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--configs":
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    print("device:", torch.cuda.get_device_name())
    rows = []
    ok = True
    selected = ROWS[:3] if "--quick" in sys.argv else ROWS
    for b, skv in selected:
        ok &= run_row(torch, fa4, b, skv, rows)
        torch.cuda.empty_cache()
    print("%-14s %-12s %9s %9s %9s %12s" % ("row", "side", "eager ms",
                                              "graph ms", "GB/s",
                                              "side/dense"))
    for label, name, eager, graphed, gbs, ratio in rows:
        print("%-14s %-12s %9.4f %9.4f %9.0f %12.3f"
              % (label, name, eager, graphed, gbs, ratio))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
