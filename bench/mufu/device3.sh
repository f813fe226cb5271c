#!/usr/bin/env bash
# The third run on the H100/H200 (bench/mufu/README.md): lg2.cu's
# per-exponent comparison of lg2.approx.ftz with e + L rounded toward zero,
# its candidate roundings, and the mismatching inputs (sorted, delta-coded,
# xz-compressed, split into files under 15 MB) into $OUT.
set -uo pipefail
OUT=${OUT:-/tmp/mufu-out}
mkdir -p "$OUT" /tmp/mufu
nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/mufu/lg2 bench/mufu/lg2.cu || exit 1
/tmp/mufu/lg2 /tmp/mufu | tee "$OUT/checks3.txt"
python3 - <<'PY'
import lzma, os, numpy as np
out = os.environ.get("OUT", "/tmp/mufu-out")
words = np.fromfile("/tmp/mufu/lg2-mismatch.u32", dtype="<u4").astype(np.int64)
delta = np.diff(words & 0x7fffffff, prepend=0).astype("<u4") | (words.astype("<u4") & 0x80000000)
planes = delta.view(np.uint8).reshape(-1, 4).T.copy().tobytes()
data = lzma.compress(planes, preset=9)
part = 15 << 20
for i in range(0, len(data), part):
    open(f"{out}/lg2-mismatch.xz.{i // part}", "wb").write(data[i:i + part])
print("mismatch list", len(words), "entries,", len(data), "bytes compressed")
PY
ls -la "$OUT"
