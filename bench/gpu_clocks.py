"""The board's SM clock and power, sampled by nvidia-smi while kernels run.

An H200 under full load settles where it draws 700 W, 1365-1800 MHz (D-42),
so what a kernel sustains depends on the clock its energy per unit of work
allows. `ClockSampler` records nvidia-smi samples every 20 ms in a thread;
`between(start, end)` returns those of a time window (time.monotonic()),
`summary` their median clock and mean power.
"""
import statistics
import subprocess
import threading
import time


def _query():
    """The fields to sample; older drivers name the reasons "throttle"."""
    for reasons in ("clocks_event_reasons.active", "clocks_throttle_reasons.active"):
        fields = f"clocks.sm,power.draw,{reasons}"
        if subprocess.run(["nvidia-smi", "-i", "0", f"--query-gpu={fields}", "--format=csv"],
                          capture_output=True).returncode == 0:
            return fields
    return "clocks.sm,power.draw"


class ClockSampler(threading.Thread):
    """(time, MHz, W, clock-limit reasons) samples of GPU 0 until stopped."""

    def __init__(self, interval_ms=20):
        super().__init__(daemon=True)
        self.samples = []
        self.process = subprocess.Popen(
            ["nvidia-smi", "-i", "0", f"--query-gpu={_query()}",
             "--format=csv,noheader,nounits", "-lms", str(interval_ms)],
            stdout=subprocess.PIPE, text=True)

    def run(self):
        for line in self.process.stdout:
            fields = [f.strip() for f in line.split(",")]
            try:
                reasons = int(fields[2], 16) if len(fields) > 2 else 0
                self.samples.append((time.monotonic(), float(fields[0]), float(fields[1]),
                                     reasons))
            except (ValueError, IndexError):
                continue

    def stop(self):
        self.process.terminate()

    def between(self, start, end):
        return [s for s in self.samples if start <= s[0] <= end]

    def summary(self, windows):
        """(median MHz, mean W) over the samples in `windows`, a list of
        (start, end); None where no sample fell in them."""
        samples = [s for start, end in windows for s in self.between(start, end)]
        if not samples:
            return None
        return (statistics.median(s[1] for s in samples),
                statistics.fmean(s[2] for s in samples))
