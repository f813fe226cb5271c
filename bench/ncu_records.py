#!/usr/bin/env python3
"""An fa4 artifact's kernel launched through a launch record, for Nsight
Compute to profile (as ab_rounds.py --records launches it).

    ncu --clock-control none -k regex:fa4_hopper_attention --launch-skip 10 \\
        --launch-count 1 python3 bench/ncu_records.py ARTIFACT ROW

ROW is B:S or B:SQ:SKV as in ab_rounds.py. Runs 20 calls on one input set,
synchronising after each, so that the profiled launch is one like the
others; host-encoded and device-built tensor maps' kernels of one
configuration then read side by side (bench/log/2026-12-03.md).
"""
import sys

import torch

from compare_sdpa import fa4_outputs, import_fa4, input_sets, load_problem


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    artifact, row = sys.argv[1], sys.argv[2]
    sizes = [int(x) for x in row.split(":")]
    b, sq, skv = sizes if len(sizes) == 3 else (sizes[0], sizes[1], sizes[1])
    fa4 = import_fa4()
    from fa4.flash import _Record
    kernel = fa4.Kernel.load(artifact)
    problem = load_problem(artifact)
    q, k, v = input_sets(problem, b, sq, skv)[0]
    o, lse = fa4_outputs(problem, b, sq, q.dtype)
    tensors = (q, k, v, o, lse)
    record = _Record(torch, kernel, tensors)
    for _ in range(20):
        record.run(torch, tensors)
        torch.cuda.synchronize()
    kernel.close()


if __name__ == "__main__":
    main()
