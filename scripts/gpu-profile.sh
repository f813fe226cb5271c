#!/usr/bin/env bash
# Profiles compiled kernels with Nsight Compute on the GPU machine (repo root
# as cwd, $OUT set): builds the runtime as gpu-check.sh does, then runs
# `fa4-run --bench` under ncu for each FA4_PROFILE entry
# ("artifact:b:sq:skv", space-separated; artifacts/ as from make-matrix.py)
# and writes, per entry, the speed-of-light, warp-state and launch sections
# as text. Prints a short table of the headline numbers last.
set -euo pipefail

OUT=${OUT:-/tmp/fa4-gpu-profile}
BUILD=${FA4_BUILD_DIR:-/tmp/build-rt}
mkdir -p "$OUT"
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
[ -x "$NCU" ] || { echo "gpu-profile: no ncu (looked for $NCU)" >&2; exit 2; }

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
{ cmake -S runtime -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$BUILD" -j "$(nproc)" --target fa4-run; } >"$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log" >&2; exit 2; }
FA4_RUN="$BUILD/fa4-run/fa4-run"

summary="$OUT/profile-summary.txt"
: >"$summary"
for entry in ${FA4_PROFILE:?set FA4_PROFILE to artifact:b:sq:skv entries}; do
  IFS=: read -r artifact b sq skv <<<"$entry"
  name="$(basename "$artifact")_b${b}_sq${sq}_skv${skv}"
  # The third launch of fa4-run --bench is a warm one (module loaded,
  # clocks up); the profiled kernel is the attention kernel itself.
  "$NCU" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    "$FA4_RUN" "artifacts/$artifact/manifest.json" --b "$b" --sq "$sq" --skv "$skv" \
    --bench --iters 3 >"$OUT/$name.txt" 2>&1 || echo "ncu failed for $entry" >&2
  {
    echo "== $name"
    grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Warp Cycles Per Issued Instruction|Issued Warp Per Scheduler|No Eligible|Stall" "$OUT/$name.txt" | head -24
  } >>"$summary"
done
cat "$summary"
