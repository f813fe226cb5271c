#!/usr/bin/env python3
"""What one launch costs the host, through the Python package.

A decode kernel at B = 1 runs 10-35 us, about what a host launch costs, so
in eager use (no CUDA graph) the host path can bound it. For each artifact
given this times, on the host, N launches queued without synchronising
(the GPU keeps up, so each launch's wall time is its host cost):

  args     fa4's argument struct from the torch tensors (Python only);
  c        fa4_launch alone on a struct built once (validation, tensor
           maps, the driver's launch);
  launch   Kernel.launch: both;
  sdpa     torch SDPA's cuDNN call on the same problem, for scale.

  launch_cost.py [--launches N] ARTIFACT_DIR:B:SQ:SKV [...]
"""
import argparse
import ctypes
import os
import time

import torch
from torch.nn.attention import SDPBackend

from compare_sdpa import fa4_outputs, import_fa4, input_sets, load_problem, sdpa_call


def per_call_us(fn, launches):
    """Host wall time per call of `launches` calls, after a warm-up, with
    one synchronisation after them (not counted)."""
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(launches):
        fn()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / launches * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launches", type=int, default=2000)
    parser.add_argument("rows", nargs="+", help="ARTIFACT_DIR:B:SQ:SKV")
    args = parser.parse_args()
    fa4 = import_fa4()
    runtime = fa4.runtime

    print(f"{'artifact':48} {'b':>3} {'sq':>6} {'skv':>6} {'args us':>8} {'c us':>6} "
          f"{'launch us':>9} {'sdpa us':>8}")
    for spec in args.rows:
        artifact, b, sq, skv = spec.rsplit(":", 3)
        b, sq, skv = int(b), int(sq), int(skv)
        kernel = fa4.Kernel.load(artifact)
        problem = load_problem(artifact)
        q, k, v = input_sets(problem, b, sq, skv)[0]
        o, lse = fa4_outputs(problem, b, sq, q.dtype)
        stream = torch.cuda.current_stream()
        cudnn_call = sdpa_call(SDPBackend.CUDNN_ATTENTION, problem, (q, k, v), sq, skv)

        args_us = per_call_us(lambda: runtime._args(q, k, v, o, lse), args.launches)
        built = runtime._args(q, k, v, o, lse)
        handle = runtime._stream_handle(stream)

        def c_launch():
            runtime._check(kernel._lib.fa4_launch(kernel._live(), ctypes.byref(built), handle))

        c_us = per_call_us(c_launch, args.launches)
        launch_us = per_call_us(lambda: kernel.launch(q, k, v, o, lse, stream=stream),
                                args.launches)
        sdpa_us = per_call_us(cudnn_call, args.launches)
        name = os.path.basename(artifact.rstrip("/"))[:48]
        print(f"{name:48} {b:3} {sq:6} {skv:6} {args_us:8.1f} {c_us:6.1f} {launch_us:9.1f} "
              f"{sdpa_us:8.1f}",
              flush=True)
        kernel.close()


if __name__ == "__main__":
    main()
