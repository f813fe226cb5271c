#!/usr/bin/env python3
"""Torch SDPA on an fa4 artifact's problem, for Nsight Compute to profile.

    ncu -k regex:'sdpa|fmha|flash' --launch-skip 3 --launch-count 1 \\
        python3 bench/ncu_sdpa.py ARTIFACT B S cudnn|flash

runs SDPA with one backend on the artifact's problem (heads, depths, mask,
scale, dtype from manifest.json) at batch B and Sq = Skv = S, five times, so
that the profiler's counters for cuDNN's or FA2's kernel sit beside those of
fa4-run on the same row (gpu-check's FA4_NCU_SDPA).
"""
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

from compare_sdpa import bhsd, input_sets, load_problem, sdpa, sdpa_mask


def main():
    if len(sys.argv) != 5 or sys.argv[4] not in ("cudnn", "flash"):
        sys.exit(__doc__)
    artifact, b, s, backend = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    problem = load_problem(artifact)
    qkv = bhsd(input_sets(problem, b, s, s)[0])
    attn_mask, is_causal = sdpa_mask(problem["mask"]["kind"], s, s)
    which = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}
    with sdpa_kernel([which[backend]]):
        for _ in range(5):
            sdpa(qkv, problem, attn_mask, is_causal)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
