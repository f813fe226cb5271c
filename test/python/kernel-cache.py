# The kernel cache (fa4.cache) and kernel packs (python -m fa4.pack), no GPU:
# an entry is compiled once and reused by a later process, also one without
# any compiler (a kernel pack); two processes filling the same entry both
# succeed with one compile; an entry another compiler wrote is compiled
# again; a bad configuration is refused; a device's chip comes from one table.
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && mkdir -p %t && %python %s %t fa4-compile | FileCheck %s

import json
import os
import shutil
import stat
import subprocess
import sys

from fa4 import cache
from fa4.flash import _compile_into

root, tool = sys.argv[1], shutil.which(sys.argv[2]) or sys.argv[2]

# A compiler that counts its runs, then runs the real one.
log = os.path.join(root, "compiles.log")
counting = os.path.join(root, "fa4-compile-counting")
with open(counting, "w") as f:
    f.write("#!/bin/sh\necho run >> %s\nexec %s \"$@\"\n" % (log, tool))
os.chmod(counting, os.stat(counting).st_mode | stat.S_IEXEC)


def compiles():
    return len(open(log).read().split()) if os.path.exists(log) else 0


problem = cache.Problem("sm_90a", "bf16", 8, 2, 128, 128, "causal")
store = os.path.join(root, "cache")
manifest = cache.entry(problem, counting, directory=store,
                       compile_fn=_compile_into(counting))
# CHECK: first: 1 compile, fa4_hopper_attention_sm_90a
print("first: %d compile, %s" % (compiles(), json.load(open(manifest))["kernel"]))
again = cache.entry(problem, counting, directory=store,
                    compile_fn=_compile_into(counting))
# CHECK-NEXT: same process: 1 compile, same entry True
print("same process: %d compile, same entry %s" % (compiles(), again == manifest))

# Another process, no compiler at all: the entry as it is (a kernel pack).
child = """
import sys
from fa4 import cache
problem = cache.Problem("sm_90a", "bf16", 8, 2, 128, 128, "causal")
print(cache.entry(problem, None, directory=sys.argv[1]))
"""
done = subprocess.run([sys.executable, "-c", child, store],
                      stdout=subprocess.PIPE, universal_newlines=True, check=True)
# CHECK-NEXT: second process, no compiler: 1 compile, same entry True
print("second process, no compiler: %d compile, same entry %s"
      % (compiles(), done.stdout.strip() == manifest))

# Two processes racing to fill one new entry.
racer = """
import sys
from fa4 import cache
from fa4.flash import _compile_into
problem = cache.Problem("sm_90a", "f16", 4, 4, 64, 64, "window", (17, 33))
print(cache.entry(problem, sys.argv[2], directory=sys.argv[1],
                  compile_fn=_compile_into(sys.argv[2])))
"""
before = compiles()
racers = [subprocess.Popen([sys.executable, "-c", racer, store, counting],
                           stdout=subprocess.PIPE, universal_newlines=True)
          for _ in range(2)]
outputs = [r.communicate()[0].strip() for r in racers]
codes = [r.returncode for r in racers]
# CHECK-NEXT: race: exit codes [0, 0], 1 compile, one entry True
print("race: exit codes %s, %d compile, one entry %s"
      % (codes, compiles() - before, outputs[0] == outputs[1] != ""))
leftovers = [n for n in os.listdir(store) if n.endswith(".tmp") or ".stale." in n]
# CHECK-NEXT: no temporary directories left: True
print("no temporary directories left: %s" % (leftovers == []))

# A different compiler (another binary) makes the entry stale.
other = os.path.join(root, "fa4-compile-other")
with open(other, "w") as f:
    f.write("#!/bin/sh\n# another build\necho run >> %s\nexec %s \"$@\"\n" % (log, tool))
os.chmod(other, os.stat(other).st_mode | stat.S_IEXEC)
before = compiles()
cache.entry(problem, other, directory=store, compile_fn=_compile_into(other))
# CHECK-NEXT: another compiler: 1 compile
print("another compiler: %d compile" % (compiles() - before))

# No entry and no compiler: a clear error.
try:
    cache.entry(cache.Problem("sm_90a", "bf16", 2, 2, 64, 64), None,
                directory=store)
except Exception as error:
    # CHECK-NEXT: missing: no kernel for {{.*}} and no fa4-compile to build one
    print("missing: %s" % error)

# The pack command.
pack = os.path.join(root, "pack")
done = subprocess.run(
    [sys.executable, "-m", "fa4.pack", "--chip", "sm_90a", "--out", pack,
     "--fa4-compile", tool, "bf16:32:8:128:128:causal",
     "f16:8:1:64:64:window(128,0)", "bf16:4:4:192:128:none:0.125"],
    stdout=subprocess.PIPE, universal_newlines=True, check=True)
entries = sorted(n for n in os.listdir(pack) if not n.endswith(".lock"))
# CHECK-NEXT: pack: 3 lines, 3 entries
print("pack: %d lines, %d entries" % (len(done.stdout.splitlines()), len(entries)))
bad = subprocess.run([sys.executable, "-m", "fa4.pack", "--chip", "sm_90a",
                      "--out", pack, "--fa4-compile", tool, "bf16:32:8:128"],
                     stderr=subprocess.PIPE, universal_newlines=True)
# CHECK-NEXT: bad configuration: exit 1, fa4.pack: configuration 'bf16:32:8:128': expected DTYPE:HQ:HKV:DQK:DV:MASK[:SCALE]
print("bad configuration: exit %d, %s" % (bad.returncode, bad.stderr.strip().split(" (e.g.")[0]))

# The chip of a device's compute capability (flash_attn_func's and fa4.jax's
# one table): Hopper and Blackwell; anything else a clear error.
# CHECK-NEXT: chips: sm_90a sm_100a
print("chips: %s %s" % (cache.chip_for((9, 0), "cuda:0"),
                        cache.chip_for((10, 0), "cuda:1")))
for capability in [(8, 0), ("None",)]:
    try:
        cache.chip_for(capability, "cuda:0")
    except Exception as error:
        # CHECK-NEXT: chip: cuda:0 (compute capability 8.0): fa4 compiles for sm_90a and sm_100a
        # CHECK-NEXT: chip: cuda:0 (compute capability None): fa4 compiles for sm_90a and sm_100a
        print("chip: %s" % error)
