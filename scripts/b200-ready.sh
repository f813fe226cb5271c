#!/usr/bin/env bash
# The first hour on a Blackwell (sm_100a) GPU: confirms or refutes each
# tcgen05 rule fa4-emu models, then runs the sm_100a matrix that passed on
# the emulator, and prints both tables (docs/Emulator.md, "Blackwell").
#
#   scripts/b200-ready.sh [--emu] [--artifacts DIR] [--only REGEX] [--out DIR]
#                         [--pack DIR]
#
# 1. The micro kernels (emu/micro/tcgen05-*.ptx, one per rule, and
#    f32x2.ptx, the packed arithmetic of D-61): each compares its output
#    with what the host computes, exactly, and with what the emulator
#    printed (emu/micro/sm100-emu.txt).
# 2. The matrix: the sm_100a families of scripts/make-sample.py (CTA pairs,
#    no-LSE, split-K decode ...) on small odd shapes, every case checked
#    against the CPU reference by fa4-run; when DIR/emu/results.txt holds the
#    emulator's run of the same artifacts, the two are compared as on the
#    H200 (emu/scripts/emu-compare.py compare).
# 3. The timings: fa4's Blackwell kernel and FlashAttention-4's CuTe kernel
#    (where its package is installed) on the prefill rows, against the
#    timing model's prediction (bench/sm-model/time_b200.py, the table
#    bench/sm-model/b200-compare.txt). --pack DIR: the rows' kernel pack
#    (PYTHONPATH=python python3 -m fa4.pack --chip sm_100a --out DIR
#    $(bench/sm-model/time_b200.py --configs)), built here by default; the
#    timings need torch and fa4's runtime library (FA4_RUNTIME_LIB). --emu
#    prints the predictions alone.
# --artifacts DIR: kernels compiled elsewhere (emu/scripts/emu-compare.py build
# --chip sm_100a --out DIR), for a GPU machine without LLVM; by default they
# are compiled here. --emu runs both steps on fa4-emu instead of the GPU (a
# rehearsal, and the test of this script). FA4_RUN: fa4-run (default
# build/bin/fa4-run). Exits non-zero when anything fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FA4_BUILD_DIR:-$root/build}"
emu="" artifacts="" only="" pack="" out="${TMPDIR:-/tmp}/fa4-b200-ready"
while [ $# -gt 0 ]; do
  case "$1" in
    --emu) emu="$build/emu/libfa4emu.so" ;;
    --artifacts) artifacts="$2"; shift ;;
    --only) only="$2"; shift ;;
    --out) out="$2"; shift ;;
    --pack) pack="$2"; shift ;;
    *) echo "b200-ready.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
fa4_run="${FA4_RUN:-$build/bin/fa4-run}"
[ -x "$fa4_run" ] || { echo "b200-ready.sh: no fa4-run at $fa4_run (set FA4_RUN)" >&2; exit 2; }
mkdir -p "$out"

if [ -z "$emu" ]; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 || true)
  if [ "$cap" != "10.0" ]; then
    echo "b200-ready.sh: needs an sm_100 GPU (compute capability 10.0); found '${cap:-none}'." \
         "--emu rehearses on fa4-emu." >&2
    exit 2
  fi
fi

echo "== 1. tcgen05 rules (micro kernels)"
cuda="${CUDA_HOME:-/usr/local/cuda}"
[ -f "$cuda/include/cuda.h" ] || cuda="$root/.deps/cuda"
micro="$out/micro"
g++ -std=c++17 -O1 -I"$cuda/include" "$root/emu/micro/micro.cpp" -ldl -o "$micro"
driver=()
[ -n "$emu" ] && driver=(--driver "$emu")
status=0
FA4_EMU_ARCH=sm_100a "$micro" "${driver[@]}" --blackwell "$root/emu/micro" \
  > "$out/micro.txt" || status=1
python3 - "$out/micro.txt" "$root/emu/micro/sm100-emu.txt" <<'EOF' || status=1
import sys
rules = {
    "tcgen05-mma-ss": "kind::f16 M=128 N=64, A and B K-major in 128B-swizzled "
                      "smem; D in TMEM (layout D); tcgen05.ld 32x32b quadrants",
    "tcgen05-mma-ss-bmn": "B MN-major (the P V operand's major)",
    "tcgen05-mma-ts": "A from TMEM (tcgen05.st 32x32b.x32, bf16 pairs)",
    "tcgen05-pair": "cta_group::2: M=256 over a CTA pair, B split by rows, "
                    "commit multicast, TMA .cta_group::2 to the peer's mbarrier",
    "tcgen05-mma-f8-ss": "kind::f8f6f4 K=32: A e4m3, B e5m2, both K-major in "
                         "128B-swizzled smem",
    "tcgen05-mma-f8-ts": "kind::f8f6f4 A e4m3 from TMEM (four bytes a column, "
                         "the lowest first)",
    "tcgen05-mma-f8-ss-bmn": "kind::f8f6f4 B e4m3 MN-major (P V's major) in "
                             "64B-swizzled smem",
}
def lines(path):
    return {l.split()[1]: l.split() for l in open(path) if l.startswith("MICRO")}
got, emulator = lines(sys.argv[1]), lines(sys.argv[2])
bad = 0
print(f"| rule | case | product | same as fa4-emu |")
print(f"| --- | --- | --- | --- |")
for name, rule in rules.items():
    line = got.get(name)
    product = line[-1] if line and line[-1] in ("pass", "FAIL") else "no result"
    same = "yes" if line and line == emulator.get(name) else "NO"
    bad += product != "pass" or same != "yes"
    print(f"| {rule} | {name} | {product} | {same} |")
sys.exit(1 if bad else 0)
EOF

echo "== 2. the sm_100a matrix"
if [ -z "$artifacts" ]; then
  artifacts="$out/artifacts"
  rm -rf "$artifacts"
  python3 "$root/emu/scripts/emu-compare.py" build --chip sm_100a --out "$artifacts" \
    --compiler "$build/bin/fa4-compile" > "$out/build.log"
fi
run=(python3 "$root/emu/scripts/emu-compare.py" run --artifacts "$artifacts"
     --out "$out/run" --fa4-run "$fa4_run")
[ -n "$emu" ] && run+=(--emu "$emu")
[ -n "$only" ] && run+=(--only "$only")
"${run[@]}" > "$out/run.log" 2>&1 || status=1
tail -n 3 "$out/run.log"
python3 - "$out/run/results.txt" <<'EOF' || status=1
import collections, sys
kernels = collections.defaultdict(lambda: [0, 0])
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    case, verdict = line.split()[:2]
    kernel = case.split("-")[0]
    kernels[kernel][0] += verdict == "pass"
    kernels[kernel][1] += 1
print("| kernel | passed |")
print("| --- | --- |")
for kernel, (passed, total) in sorted(kernels.items()):
    print(f"| {kernel} | {passed} of {total} |")
passed = sum(p for p, _ in kernels.values())
total = sum(t for _, t in kernels.values())
print(f"total: {passed} of {total}")
sys.exit(0 if total and passed == total else 1)
EOF
if [ -z "$emu" ] && [ -f "$artifacts/emu/results.txt" ]; then
  python3 "$root/emu/scripts/emu-compare.py" compare "$artifacts/emu" "$out/run" || status=1
fi

echo "== 3. timings against the timing model"
timing="$root/bench/sm-model/time_b200.py"
if [ -n "$emu" ]; then
  python3 "$timing" --predicted | tee "$out/predicted.txt" | tail -n 2 || status=1
else
  if [ -z "$pack" ]; then
    pack="$out/pack"
    rm -rf "$pack"
    PYTHONPATH="$root/python" python3 -m fa4.pack --chip sm_100a --out "$pack" \
      $(python3 "$timing" --configs) > "$out/pack.log" || status=1
  fi
  FA4_CACHE_DIR="$pack" PYTHONPATH="$root/python" python3 "$timing" \
    ${only:+--rows "$only"} > "$out/timings.txt" 2>&1 || status=1
  cat "$out/timings.txt"
fi
exit $status
