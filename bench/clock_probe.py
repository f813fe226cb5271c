#!/usr/bin/env python3
"""Does a kernel slow down the longer it runs back to back?

Times one artifact with `fa4-run --bench` at increasing iteration counts
(the median of each) while nvidia-smi samples the SM clock, the power draw
and the active clock-limit reasons every 20 ms. A median that grows with
the count while the SM clock falls is the board's power or thermal limit,
not the kernel: the reading that tells a row's drop at long S (more work
per launch, so more time at full power within one timing) from a slower
loop. Prints one line per count: median ms, TFLOP/s as fa4-run reports
it, and the clock / power / reasons sampled while it ran.

With --warmup-ms 0,1000 each count is timed twice: from a cool board and
after a second of launches (fa4-run --warmup-ms), where the median should
no longer depend on the count.

  clock_probe.py --fa4-run BUILD/fa4-run [--warmup-ms 0,1000] ARTIFACT_DIR:B:S [...]
"""
import argparse
import re
import subprocess
import time

from gpu_clocks import ClockSampler


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fa4-run", required=True)
    parser.add_argument("--iters", default="3,10,30,100,300")
    parser.add_argument("--warmup-ms", default="0",
                        help="comma-separated fa4-run --warmup-ms values")
    parser.add_argument("rows", nargs="+", help="ARTIFACT_DIR:B:S")
    args = parser.parse_args()
    sampler = ClockSampler()
    sampler.start()
    time.sleep(0.5)
    print(f"{'artifact':48} {'b':>3} {'s':>6} {'warm':>5} {'iters':>5} {'ms':>8} {'TFLOP/s':>8} "
          f"{'MHz min/med':>12} {'W max':>6} reasons")
    for row in args.rows:
        artifact, b, s = row.rsplit(":", 2)
        for warmup, iters in ((int(w), int(n)) for w in args.warmup_ms.split(",")
                              for n in args.iters.split(",")):
            if warmup == 0:
                time.sleep(2)  # Let the board cool to its boost state.
            start = time.monotonic()
            out = subprocess.run([args.fa4_run, f"{artifact}/manifest.json", "--b", b,
                                  "--sq", s, "--skv", s, "--bench", "--iters", str(iters),
                                  "--warmup-ms", str(warmup)],
                                 capture_output=True, text=True, timeout=300)
            end = time.monotonic()
            ms = re.search(r"ms=([0-9.]+)", out.stdout)
            tflops = re.search(r"tflops=([0-9.]+)", out.stdout)
            window = sampler.between(start, end)
            # The busy samples: the launch's own setup runs at idle clocks.
            busy = [w for w in window if w[2] > 200] or window
            clocks = sorted(w[1] for w in busy)
            reasons = 0
            for w in busy:
                reasons |= w[3]
            name = artifact.rstrip("/").split("/")[-1][:48]
            print(f"{name:48} {b:>3} {s:>6} {warmup:5} {iters:5} "
                  f"{float(ms.group(1)) if ms else float('nan'):8.3f} "
                  f"{float(tflops.group(1)) if tflops else float('nan'):8.1f} "
                  f"{(f'{clocks[0]:.0f}/{clocks[len(clocks) // 2]:.0f}' if clocks else 'n/a'):>12} "
                  f"{max((w[2] for w in busy), default=float('nan')):6.0f} {reasons:#x}",
                  flush=True)
    sampler.stop()


if __name__ == "__main__":
    main()
