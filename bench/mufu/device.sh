#!/usr/bin/env bash
# One run on the H100/H200 (repo root as cwd, $OUT set): the special-function
# tables and their checks (tables.cu), the SASS the PTX forms become, and
# the sm_90a sample (emu-compare.py's cases, artifacts in $1) run on the
# GPU with its O and LSE dumps, for a bitwise comparison with fa4-emu.
set -uo pipefail
ARTIFACTS=${1:?usage: device.sh ARTIFACTS}
OUT=${OUT:-/tmp/mufu-out}
mkdir -p "$OUT" /tmp/mufu
nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/mufu/tables bench/mufu/tables.cu || exit 1
cuobjdump -sass /tmp/mufu/tables | grep -B3 -A3 -E "MUFU" | head -400 >"$OUT/sass.txt"
/tmp/mufu/tables /tmp/mufu | tee "$OUT/checks.txt"
python3 - <<'PY'
import lzma, os, numpy as np
out = os.environ.get("OUT", "/tmp/mufu-out")
for name in ("ex2", "lg2_e0", "lg2_em1", "rcp", "tanh"):
    bits = np.fromfile(f"/tmp/mufu/{name}.u32", dtype="<u4").astype(np.int64)
    delta = np.diff(bits, prepend=0).astype("<i4")
    planes = delta.view(np.uint8).reshape(-1, 4).T.copy().tobytes()
    with open(f"{out}/{name}.delta.xz", "wb") as f:
        f.write(lzma.compress(planes, preset=6))
    print(name, len(bits), os.path.getsize(f"{out}/{name}.delta.xz"))
PY
cmake -S runtime -B /tmp/build-rt -G Ninja -DCMAKE_BUILD_TYPE=Release >/tmp/rt.log 2>&1 &&
  cmake --build /tmp/build-rt -j16 >>/tmp/rt.log 2>&1 || { tail -20 /tmp/rt.log; exit 1; }
python3 emu/scripts/emu-compare.py run --artifacts "$ARTIFACTS" --out /tmp/gpu \
  --fa4-run /tmp/build-rt/fa4-run/fa4-run --jobs 1 | tail -5
tar -C /tmp/gpu -cJf "$OUT/gpu-sample.tar.xz" results.txt dumps
ls -la "$OUT"
