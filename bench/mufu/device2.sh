#!/usr/bin/env bash
# The second run on the H100/H200 (bench/mufu/README.md): signs.cu's
# negative ex2 table, delta-coded and xz-compressed into $OUT, and its checks.
set -uo pipefail
OUT=${OUT:-/tmp/mufu-out}
mkdir -p "$OUT" /tmp/mufu
nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/mufu/signs bench/mufu/signs.cu || exit 1
/tmp/mufu/signs /tmp/mufu | tee "$OUT/checks2.txt"
python3 - <<'PY'
import lzma, os, numpy as np
out = os.environ.get("OUT", "/tmp/mufu-out")
bits = np.fromfile("/tmp/mufu/ex2neg.u32", dtype="<u4").astype(np.int64)
delta = np.diff(bits, prepend=0).astype("<i4")
planes = delta.view(np.uint8).reshape(-1, 4).T.copy().tobytes()
open(f"{out}/ex2neg.delta.xz", "wb").write(lzma.compress(planes, preset=6))
PY
ls -la "$OUT"
