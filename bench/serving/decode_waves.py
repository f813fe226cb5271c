#!/usr/bin/env python3
"""How fa4's contiguous decode fills the GPU as the batch grows, against
cuDNN in the same run (H100/H200; the pack of decode_bench.py --configs in
$FA4_CACHE_DIR). The runtime splits a decode's keys into
floor(SMs / work items) partitions (at least one; runtime/lib/LaunchPlan.cpp,
bindSplits), and the Hopper decode kernel fits one CTA per SM, so some
batches leave SMs idle or end in a partial wave: at 32 / 8 heads, B = 10
gives 80 work items and one partition, 80 CTAs on 132 SMs; B = 64 gives 512
CTAs, 3.9 waves. Prints, per batch, each side's time in a CUDA graph, the
K/V bytes per second, and fa4's time over cuDNN's.

    decode_waves.py
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decode_bench import HKV, decode_inputs, graph_ms  # noqa: E402

ROWS = [(b, 32768) for b in (4, 8, 9, 10, 12, 16)] + \
       [(b, 8192) for b in (32, 33, 48, 60, 64, 66, 72)]


def main():
    import torch
    import fa4
    from torch.nn.attention import SDPBackend, sdpa_kernel
    print("device:", torch.cuda.get_device_name())
    print("%-12s %6s %10s %10s %8s %8s %10s" % (
        "row", "items", "fa4 ms", "cudnn ms", "fa4 GB/s", "cuDNN", "fa4/cudnn"))
    for b, skv in ROWS:
        q, k, v = decode_inputs(torch, b, skv, seed=3)
        qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                torch.nn.functional.scaled_dot_product_attention(
                    qt, kt, vt, enable_gqa=True)

        ours = graph_ms(torch, lambda: fa4.flash_attn_func(q, k, v))
        theirs = graph_ms(torch, cudnn)
        gb = 2 * k.numel() * k.element_size() / 1e6
        print("b%-3d skv%-5d %6d %10.4f %10.4f %8.0f %8.0f %10.3f" % (
            b, skv, b * HKV, ours, theirs, gb / ours, gb / theirs,
            ours / theirs))
        del q, k, v, qt, kt, vt
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
