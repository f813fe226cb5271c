#!/usr/bin/env bash
# The one script run on the GPU machine (repo root as cwd, $OUT set):
#   1. builds the runtime standalone (CUDA headers only, no LLVM) in /tmp,
#   2. runs its unit tests,
#   3. builds the runtime self-test kernels (runtime/selftest, needs nvcc),
#   4. runs fa4-run on every case of every artifact: artifacts/<name>/ holds
#      manifest.json, the binary and cases.txt (one line of fa4-run
#      arguments per case; '#' starts a comment),
#   5. prints a summary table. Exits non-zero if anything failed.
# Logs go to $OUT: build.log, ctest.log, runs.log, summary.txt, python.txt,
# bench.txt. FA4_ARTIFACTS (globs under artifacts/, separated by spaces)
# picks the artifacts whose cases run (a glob that matches none, e.g.
# "none", runs no case); FA4_SKIP_BENCH=1 skips the SDPA comparison. The
# whole run (every case, then the default rows) took 596 s (measured
# 2026-12-01); FA4_SKIP_BENCH=1 and then FA4_ARTIFACTS=none split it in two.
# Every FA4_* variable, with its default: docs/Environment.md.
# FA4_BENCH_FILTER (an extended regex) picks the rows of artifacts/bench.txt
# (by default the default kernels' rows: the 36-row prefill sweep, the
# split-K decode kernels' table (compiled with size hints, and with Sq
# alone, split at launch) and the decode shapes on the bench kernel
# compiled with no sizes at all; '.' adds every variant's);
# FA4_BENCH_PDL=1 adds fa4 timed with programmatic dependent launches;
# decode rows are timed in CUDA graphs unless FA4_BENCH_GRAPH_DECODE=0.
# FA4_TRACE ("KERNEL:B:S ...", KERNEL an artifact built with --trace, e.g.
# make-matrix.py's <bench>_trace) runs bench/trace_phases.py --by-row-block
# on each at batch B and S = Sq = Skv, after the benchmark (trace.txt).
# FA4_NCU (the same form, any artifact) profiles one launch of each with
# Nsight Compute where the machine has it (ncu.txt); FA4_NCU_FLAGS adds ncu
# flags (e.g. "--clock-control none": the board's own clocks, not base).
# FA4_CLOCK_PROBE (the same form) times each at 10, 30 and 300 back-to-back
# launches, from a cool board and after a second of launches, while
# sampling the SM clock and power (bench/clock_probe.py, clocks.txt).
# FA4_ROUND_SPREAD (the same form) times rounds of 30 launches of each,
# back to back and interleaved with cuDNN's, every call's spread and the
# clock per round (bench/round_spread.py, rounds.txt).
# FA4_AB ("KERNEL_A,KERNEL_B:B:S ...") times two kernels of the same
# problem against each other, alternating rounds in one process, the ratio
# of B's round time to A's per adjacent pair (bench/ab_rounds.py, ab.txt);
# FA4_AB_ROUNDS (even, default 8) rounds of each.
# FA4_LAUNCH_COST ("KERNEL:B:SQ:SKV ...") times the host's cost of one
# launch of each through the Python package, beside torch SDPA's
# (bench/launch_cost.py, launch.txt).
# FA4_SANITIZE ("KERNEL:B:SQ:SKV ...", or "sample": artifacts/sample.txt,
# written by scripts/make-sample.py) runs each under compute-sanitizer's
# tools, FA4_SANITIZE_TOOLS (default: memcheck racecheck synccheck
# initcheck) (sanitize.txt; any error fails the check). FA4_DETERMINISM (the same form) runs each with fa4-run
# --repeat ${FA4_DETERMINISM_REPEATS:-5}: every launch's O and LSE must be
# bitwise the first one's (determinism.txt).
set -euo pipefail

OUT=${OUT:-/tmp/fa4-gpu-check}
BUILD=${FA4_BUILD_DIR:-/tmp/build-rt}
mkdir -p "$OUT"
failures=0

step() { echo "== $*" >&2; }
die() { echo "gpu-check: $*" >&2; exit 2; }

step "environment"
{ nvidia-smi || true; cmake --version | head -1; command -v nvcc && nvcc --version | tail -1; } \
  >"$OUT/build.log" 2>&1 || true

step "build runtime into $BUILD"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! { cmake -S runtime -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" -j "$(nproc)"; } >>"$OUT/build.log" 2>&1; then
  tail -30 "$OUT/build.log" >&2
  die "runtime build failed (see build.log)"
fi
FA4_RUN="$BUILD/fa4-run/fa4-run"
# The runtime library the Python launches load (test/gpu/, bench/).
runtime_lib="$(find "$BUILD" -name "libfa4rt.so*" -type f | head -1)"

# The artifact directory of kernel $1 (empty where none matches).
artifact_dir() {
  compgen -G "artifacts/fa4_*_${1}_sm_*" | head -1 || true
}

# FA4_TRACE / FA4_NCU entries, "KERNEL:B:S": sets kernel, batch, seq and
# dir, the artifact directory (empty where none matches).
parse_entry() {
  IFS=: read -r kernel batch seq <<<"$1"
  dir=$(artifact_dir "$kernel")
}

# rows: "DIR:B:S" for each "KERNEL:B:S" entry of $1 whose artifact exists
# (FA4_CLOCK_PROBE, FA4_ROUND_SPREAD).
artifact_rows() {
  local entries entry
  read -ra entries <<<"$1"
  rows=()
  for entry in "${entries[@]}"; do
    parse_entry "$entry"
    [ -n "$dir" ] && rows+=("$dir:$batch:$seq")
  done
  return 0
}

step "unit tests"
if ! ctest --test-dir "$BUILD" --output-on-failure >"$OUT/ctest.log" 2>&1; then
  failures=$((failures + 1))
  echo "unit tests FAILED (see ctest.log)" >&2
fi
tail -3 "$OUT/ctest.log" >&2

# The self-test kernels follow the kernel ABI without the compiler, so the
# runtime is checked end to end even before artifacts/ exists.
artifact_dirs=()
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
  step "self-test kernels"
  SELFTEST=/tmp/fa4-selftest
  rm -rf "$SELFTEST" && mkdir -p "$SELFTEST"
  src=runtime/selftest/NaiveAttention.cu
  # One build per manifest: each binary carries its own manifest's ABI record
  # (include/fa4/AbiRecord.h), which the runtime checks on load.
  selftest_ok=1
  for dir in runtime/selftest/*/; do
    name=selftest-$(basename "$dir")
    mkdir -p "$SELFTEST/$name"
    cp "$dir"/manifest.json "$dir"/cases.txt "$SELFTEST/$name/"
    python3 tools/abi-record.py --c-definition "$dir"/manifest.json \
      >"$SELFTEST/$name/record.h"
    for format in cubin ptx; do
      "$NVCC" -arch=sm_90a -O2 -std=c++17 -$format -include "$SELFTEST/$name/record.h" \
        -o "$SELFTEST/$name/NaiveAttention.$format" "$src" >>"$OUT/build.log" 2>&1 ||
        selftest_ok=0
    done
    artifact_dirs+=("$SELFTEST/$name")
  done
  if [ "$selftest_ok" != 1 ]; then
    failures=$((failures + 1))
    echo "self-test kernel build FAILED (see build.log)" >&2
  fi
else
  echo "nvcc not found: self-test kernels skipped" >&2
fi
if [ -d artifacts ]; then
  read -ra patterns <<<"${FA4_ARTIFACTS:-*}"
  for pattern in "${patterns[@]}"; do
    for dir in artifacts/$pattern/; do
      [ -f "$dir/manifest.json" ] && artifact_dirs+=("${dir%/}")
    done
  done
fi
[ ${#artifact_dirs[@]} -gt 0 ] || echo "no artifacts to run" >&2

step "fa4-run cases"
# Every artifact's cases run in one fa4-run process (--cases), $FA4_JOBS
# artifacts at a time; scripts/run-cases.sh prints a summary row per case.
# jobs.txt lists the cases, one per line (the count, and the smoke run's
# cases, each run alone).
jobs="$OUT/jobs.txt"
: >"$jobs"
for dir in "${artifact_dirs[@]}"; do
  cases="$dir/cases.txt"
  [ -f "$cases" ] || { echo "$(basename "$dir"): no cases.txt, skipped" >&2; continue; }
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    [ -n "${line// /}" ] && printf '%s\t%s\n' "$dir" "$line" >>"$jobs"
  done <"$cases"
done
mkdir -p "$OUT/runs"
export FA4_RUN OUT
# Smoke first: a kernel that hangs or fails on the first cases stops the
# check before the rest of the matrix runs.
grep '^artifacts/' "$jobs" | head -n "${FA4_SMOKE_CASES:-0}" >"$OUT/smoke.txt" || true
while IFS=$'\t' read -r dir line; do
  printf '%s\n' "$line" >"$OUT/smoke-case.txt"
  row=$(FA4_ARTIFACT_TIMEOUT=30 bash scripts/run-cases.sh "$dir" "$OUT/smoke-case.txt")
  echo "smoke: $row"
  if ! awk '$3 == "pass" || $3 == "refused" {ok=1} END {exit !ok}' <<<"$row"; then
    cat "$OUT"/runs/*.log | tail -40
    exit 1
  fi
done <"$OUT/smoke.txt"
# FA4_MATRIX_SECONDS bounds the whole matrix, so that a run under a time
# limit still prints its summary; cases it cut off are counted as not run
# (and fail the check).
set +e
cut -f1 "$jobs" | uniq | tr '\n' '\0' |
  timeout "${FA4_MATRIX_SECONDS:-0}" \
    xargs -0 -P "${FA4_JOBS:-12}" -I{} bash scripts/run-cases.sh "{}" >"$OUT/rows.txt"
set -e
not_run=$(( $(wc -l <"$jobs") - $(wc -l <"$OUT/rows.txt") ))
cat "$OUT"/runs/*.log >"$OUT/runs.log" 2>/dev/null || true
rm -rf "$OUT/runs"

summary="$OUT/summary.txt"
{
  printf '%-48s %-40s %-8s %-10s %-10s %s\n' artifact case status max_err ref_err tflops/note
  sort "$OUT/rows.txt"
} >"$summary"
failures=$((failures + not_run + $(awk '$3 != "pass" && $3 != "refused"' "$OUT/rows.txt" | wc -l)))
# The verdict as soon as it is known: a benchmark stopped by a time limit
# must not take it along.
correctness="cases: $(wc -l <"$jobs"), not run (FA4_MATRIX_SECONDS): $not_run, passed: $(awk '$3 == "pass"' "$OUT/rows.txt" | wc -l), refused as expected: $(awk '$3 == "refused"' "$OUT/rows.txt" | wc -l)"
echo "$correctness" >&2
awk '$3 != "pass" && $3 != "refused"' "$OUT/rows.txt" | head -20 >&2

# The Python check launches matrix kernels; a decode-only artifact set
# (make-matrix.py --decode-only) has none.
if [ -d artifacts ] && ! compgen -G "artifacts/*_d[0-9]*x[0-9]*_h*" >/dev/null; then
  echo "python package check skipped: no matrix kernels under artifacts/" >&2
elif [ -d artifacts ] && python3 -c "import torch" 2>/dev/null; then
  step "python package on torch tensors"
  if ! FA4_RUNTIME_LIB="$runtime_lib" python3 test/gpu/python-launch.py artifacts \
       >"$OUT/python.txt" 2>&1; then
    failures=$((failures + 1))
    echo "python launch FAILED (see python.txt)" >&2
  fi
  tail -20 "$OUT/python.txt" >&2
fi

if [ "${FA4_SKIP_BENCH:-0}" != 1 ] && [ -f artifacts/bench.txt ] && python3 -c "import torch" 2>/dev/null; then
  step "benchmark against torch SDPA"
  # The default kernels (the whole matrix and these rows: 596 s, 2026-12-01).
  # Decode: the split-K kernels make-matrix builds with size hints (their
  # DECODE_BENCH rows, no variants), and the same shapes on the unhinted
  # bench kernel, which cannot plan a split for a dynamic Skv.
  default_rows='_bench_prefill_d[0-9]+_(none|causal)_sm_90a:|_bench_decode_'
  default_rows+='|_fa3_decode_d128_(h32x8|h32x8_b64|h8x1|h8x1_ws)_sm_90a:'
  default_rows+='|_fa3_decode_d128_(h32x8|h8x1)_launch_sm_90a:'

  # Decode rows in CUDA graphs (FA4_BENCH_GRAPH_DECODE=0: per-call stream
  # timing): a B = 1 decode kernel runs about as long as torch's host
  # dispatch, which the stream timing adds to torch's side.
  graph_decode=()
  [ "${FA4_BENCH_GRAPH_DECODE:-1}" = 1 ] && graph_decode=(--graph-decode)
  # FA4_BENCH_PDL=1: also time fa4 with programmatic dependent launches.
  pdl_column=()
  [ "${FA4_BENCH_PDL:-0}" = 1 ] && pdl_column=(--pdl-column)
  # FA4_BENCH_SECONDS bounds each comparison (0: no bound).
  # FA4_BENCH_WARMUP_MS: each side runs this long before it is timed, so
  # every side is timed at the board's sustained clock (compare_sdpa.py);
  # 0 times from boost, as every run before 2026-11-30 (7de18b4) did (D-42).
  warmup=(--warmup-ms "${FA4_BENCH_WARMUP_MS:-1000}")
  # FA4_BENCH_INTERLEAVE: prefill rows timed in one process, fa4, cuDNN and
  # flash in turn for this many rounds (0: fa4-run, torch apart).
  interleave=(--interleave "${FA4_BENCH_INTERLEAVE:-3}")
  # Each interleaved row also reports every side's SM clock and power
  # (nvidia-smi sampled meanwhile; FA4_BENCH_CLOCKS=0 turns it off).
  if [ "${FA4_BENCH_CLOCKS:-1}" = 1 ] && command -v nvidia-smi >/dev/null; then
    interleave+=(--clocks)
  fi
  # The rows are words on purpose (one argument each).
  # shellcheck disable=SC2046
  if ! FA4_RUNTIME_LIB="$runtime_lib" timeout "${FA4_BENCH_SECONDS:-0}" python3 bench/compare_sdpa.py "${graph_decode[@]}" "${pdl_column[@]}" "${warmup[@]}" "${interleave[@]}" --fa4-run "$FA4_RUN" --json "$OUT/bench.json" \
       $(grep -E "${FA4_BENCH_FILTER:-$default_rows}" artifacts/bench.txt) >"$OUT/bench.txt" 2>"$OUT/bench.err"; then
    failures=$((failures + 1))
    echo "benchmark FAILED (see bench.err)" >&2
  fi
  # FA4_BENCH_GRAPH (an extended regex over the same rows): those rows again,
  # every side timed in CUDA graphs (kernel time without host launch cost).
  if [ -n "${FA4_BENCH_GRAPH:-}" ]; then
    # shellcheck disable=SC2046
    if ! timeout "${FA4_BENCH_SECONDS:-0}" python3 bench/compare_sdpa.py --graph "${pdl_column[@]}" "${warmup[@]}" --fa4-run "$FA4_RUN" --json "$OUT/bench-graph.json" \
         $(grep -E "${FA4_BENCH_GRAPH}" artifacts/bench.txt) >"$OUT/bench-graph.txt" 2>>"$OUT/bench.err"; then
      failures=$((failures + 1))
      echo "graph benchmark FAILED (see bench.err)" >&2
    fi
  fi
fi

if [ -n "${FA4_TRACE:-}" ] && python3 -c "import torch" 2>/dev/null; then
  step "phase traces"
  read -ra traces <<<"$FA4_TRACE"
  for entry in "${traces[@]}"; do
    parse_entry "$entry"
    if [ -z "$dir" ] ||
       ! FA4_RUNTIME_LIB="$runtime_lib" \
         python3 bench/trace_phases.py "$dir" --b "$batch" --s "$seq" --by-row-block \
         >>"$OUT/trace.txt" 2>&1; then
      failures=$((failures + 1))
      echo "trace of $entry FAILED (see trace.txt)" >&2
    fi
  done
fi

# Nsight Compute, for FA4_NCU and FA4_NCU_SDPA (empty where the machine
# has none).
ncu=$(command -v ncu || compgen -G "/usr/local/cuda*/bin/ncu" | head -1 || true)

# FA4_NCU ("KERNEL:B:S ...", any artifact): Nsight Compute's pipe
# utilisation, DRAM bytes, L2 bytes, throughput and hit rate, issue and stall counters for one launch of each at batch B
# and S = Sq = Skv (ncu.txt, in the summary), where the machine has ncu and
# lets it read the counters.
if [ -n "${FA4_NCU:-}" ]; then
  step "nsight compute"
  if [ -z "$ncu" ]; then
    echo "no ncu on this machine" >>"$OUT/ncu.txt"
  else
    read -ra profiles <<<"$FA4_NCU"
    for entry in "${profiles[@]}"; do
      parse_entry "$entry"
      echo "### $entry ($dir)" >>"$OUT/ncu.txt"
      [ -n "$dir" ] || continue
      # shellcheck disable=SC2086 # FA4_NCU_FLAGS is a list of flags.
      timeout 120 "$ncu" ${FA4_NCU_FLAGS:-} -k regex:fa4_ --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section SchedulerStats \
        --section WarpStateStats --section MemoryWorkloadAnalysis \
        --metrics 'dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,regex:^sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active$,regex:^sm__inst_executed_pipe_[a-z_]*\.avg\.pct_of_peak_sustained_active$,regex:^smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active\.ratio$' \
        "$FA4_RUN" "$dir/manifest.json" --b "$batch" --sq "$seq" --skv "$seq" \
        --bench --iters 3 >>"$OUT/ncu.txt" 2>&1 || echo "ncu exit $?" >>"$OUT/ncu.txt"
    done
  fi
fi

# FA4_NCU_SDPA ("KERNEL:B:S ...", as FA4_NCU): the same counters for torch
# SDPA's cuDNN and flash kernels on that artifact's problem
# (bench/ncu_sdpa.py), into ncu.txt after fa4's.
if [ -n "${FA4_NCU_SDPA:-}" ] && python3 -c "import torch" 2>/dev/null; then
  step "nsight compute, torch SDPA"
  read -ra profiles <<<"$FA4_NCU_SDPA"
  for entry in "${profiles[@]}"; do
    parse_entry "$entry"
    for backend in cudnn flash; do
      echo "### $entry, torch SDPA $backend ($dir)" >>"$OUT/ncu.txt"
      if [ -z "$ncu" ] || [ -z "$dir" ]; then continue; fi
      # shellcheck disable=SC2086 # FA4_NCU_FLAGS is a list of flags.
      timeout 180 "$ncu" ${FA4_NCU_FLAGS:-} -k 'regex:sdpa|fmha|flash' \
        --launch-skip 3 --launch-count 1 --section SpeedOfLight \
        --metrics 'dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,regex:^sm__pipe_tensor_op_hmma_cycles_active\.avg\.pct_of_peak_sustained_active$,regex:^sm__inst_executed_pipe_(xu|fma|alu)\.avg\.pct_of_peak_sustained_active$' \
        python3 bench/ncu_sdpa.py "$dir" "$batch" "$seq" "$backend" \
        >>"$OUT/ncu.txt" 2>&1 || echo "ncu exit $?" >>"$OUT/ncu.txt"
    done
  done
fi

if [ -n "${FA4_CLOCK_PROBE:-}" ] && command -v nvidia-smi >/dev/null; then
  step "clock probe"
  artifact_rows "$FA4_CLOCK_PROBE"
  python3 bench/clock_probe.py --fa4-run "$FA4_RUN" --warmup-ms 0,1000 --iters 10,30,300 "${rows[@]}" >"$OUT/clocks.txt" 2>&1 ||
    echo "clock probe FAILED (see clocks.txt)" >&2
fi

if [ -n "${FA4_ROUND_SPREAD:-}" ] && python3 -c "import torch" 2>/dev/null; then
  step "round spread"
  artifact_rows "$FA4_ROUND_SPREAD"
  FA4_RUNTIME_LIB="$runtime_lib" python3 bench/round_spread.py "${rows[@]}" >"$OUT/rounds.txt" 2>&1 ||
    echo "round spread FAILED (see rounds.txt)" >&2
fi

if [ -n "${FA4_AB:-}" ] && python3 -c "import torch" 2>/dev/null; then
  step "A against B"
  read -ra entries <<<"$FA4_AB"
  for entry in "${entries[@]}"; do
    IFS=: read -r pair batch seq <<<"$entry"
    IFS=, read -r kernel_a kernel_b <<<"$pair"
    dir_a=$(artifact_dir "$kernel_a")
    dir_b=$(artifact_dir "$kernel_b")
    if [ -z "$dir_a" ] || [ -z "$dir_b" ]; then
      echo "### $entry: no artifact for $kernel_a or $kernel_b" >>"$OUT/ab.txt"
      continue
    fi
    FA4_RUNTIME_LIB="$runtime_lib" python3 bench/ab_rounds.py \
      --rounds "${FA4_AB_ROUNDS:-8}" "$dir_a" "$dir_b" "$batch:$seq" >>"$OUT/ab.txt" 2>&1 || echo "A against B FAILED (see ab.txt)" >&2
  done
fi

if [ -n "${FA4_LAUNCH_COST:-}" ] && python3 -c "import torch" 2>/dev/null; then
  step "launch cost"
  read -ra entries <<<"$FA4_LAUNCH_COST"
  rows=()
  for entry in "${entries[@]}"; do
    IFS=: read -r kernel batch sq skv <<<"$entry"
    dir=$(artifact_dir "$kernel")
    [ -n "$dir" ] && rows+=("$dir:$batch:$sq:$skv")
  done
  FA4_RUNTIME_LIB="$runtime_lib" python3 bench/launch_cost.py "${rows[@]}" >"$OUT/launch.txt" 2>&1 ||
    echo "launch cost FAILED (see launch.txt)" >&2
fi

# "KERNEL:B:SQ:SKV ..." or "sample" (artifacts/sample.txt) as one entry a
# line.
sample_entries() {
  if [ "$1" = sample ]; then cat artifacts/sample.txt; else tr ' ' '\n' <<<"$1"; fi
}

# Manifests that disagree with their binaries (test/gpu/tampered-manifests.py)
# on a few artifacts: refused before any launch.
tamper_dirs=()
for kernel in s_d128_h6x3_none s_decode_d128_h8x1_ws s_decode_d128_h32x8 d128x128_h6x3_causal_bf16; do
  dir=$(artifact_dir "$kernel")
  [ -n "$dir" ] && tamper_dirs+=("$dir")
done
if [ ${#tamper_dirs[@]} -gt 0 ]; then
  step "tampered manifests"
  python3 test/gpu/tampered-manifests.py "$FA4_RUN" "${tamper_dirs[@]}" >"$OUT/tamper.txt" 2>&1 ||
    failures=$((failures + 1))
fi

if [ -n "${FA4_SANITIZE:-}" ]; then
  step "compute-sanitizer"
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if [ ! -x "$sanitizer" ]; then
    echo "compute-sanitizer not found: FAILED" | tee -a "$OUT/sanitize.txt" >&2
    failures=$((failures + 1))
  else
    while IFS=: read -r kernel batch sq skv; do
      [ -n "$kernel" ] || continue
      dir=$(artifact_dir "$kernel")
      read -ra tools <<<"${FA4_SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}"
      for tool in "${tools[@]}"; do
        # --error-exitcode: any report fails the run, whatever fa4-run says.
        if log=$(timeout 300 "$sanitizer" --tool "$tool" --error-exitcode 99                    "$FA4_RUN" "$dir/manifest.json" --b "$batch" --sq "$sq"                    --skv "$skv" --check </dev/null 2>&1); then
          verdict=clean
        else
          verdict="FAILED (exit $?)"
          failures=$((failures + 1))
        fi
        summary_line=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" <<<"$log" | tail -1)
        printf '%-44s %-16s %-10s %s | %s\n' "$kernel" "$batch:$sq:$skv" "$tool" \
          "$verdict" "$summary_line" >>"$OUT/sanitize.txt"
        [ "$verdict" = clean ] || echo "$log" | tail -30 >>"$OUT/sanitize-errors.txt"
      done
    done < <(sample_entries "$FA4_SANITIZE")
  fi
fi

if [ -n "${FA4_DETERMINISM:-}" ]; then
  step "determinism"
  while IFS=: read -r kernel batch sq skv; do
    [ -n "$kernel" ] || continue
    dir=$(artifact_dir "$kernel")
    result=$("$FA4_RUN" "$dir/manifest.json" --b "$batch" --sq "$sq" --skv "$skv" \
               --repeat "${FA4_DETERMINISM_REPEATS:-5}" </dev/null 2>&1 |
               grep '^RESULT' || true)
    grep -q '^RESULT pass' <<<"$result" || failures=$((failures + 1))
    printf '%-44s %-16s %s\n' "$kernel" "$batch:$sq:$skv" "$result" >>"$OUT/determinism.txt"
  done < <(sample_entries "$FA4_DETERMINISM")
fi

step "summary"
echo "$correctness"
echo "-- not passed:"
awk '$3 != "pass" && $3 != "refused"' "$OUT/rows.txt" | head -40
echo "-- timed:"
grep -- '--bench' "$OUT/rows.txt" || true
[ -f "$OUT/bench.txt" ] && { echo "-- benchmark:"; cat "$OUT/bench.txt"; }
[ -f "$OUT/bench-graph.txt" ] && { echo "-- benchmark, CUDA graphs:"; cat "$OUT/bench-graph.txt"; }
[ -f "$OUT/trace.txt" ] && { echo "-- phase traces:"; cat "$OUT/trace.txt"; }
[ -f "$OUT/clocks.txt" ] && { echo "-- clock probe:"; cat "$OUT/clocks.txt"; }
[ -f "$OUT/rounds.txt" ] && { echo "-- round spread:"; cat "$OUT/rounds.txt"; }
[ -f "$OUT/ab.txt" ] && { echo "-- A against B:"; cat "$OUT/ab.txt"; }
[ -f "$OUT/launch.txt" ] && { echo "-- launch cost:"; cat "$OUT/launch.txt"; }
[ -f "$OUT/tamper.txt" ] && { echo "-- tampered manifests:"; cat "$OUT/tamper.txt"; }
[ -f "$OUT/sanitize.txt" ] && { echo "-- compute-sanitizer:"; cat "$OUT/sanitize.txt"; }
[ -f "$OUT/determinism.txt" ] && { echo "-- determinism:"; cat "$OUT/determinism.txt"; }
[ -f "$OUT/ncu.txt" ] && { echo "-- nsight compute:"; grep -vE '^ *(-{5,}|=+PROF=)' "$OUT/ncu.txt"; }
echo "failures: $failures"
# The device tool returns only a few files from $OUT: pack every log into one
# archive and keep the two tables loose.
# (tar exits 1 when the directory it is writing into changes under it.)
if tar czf "$OUT/logs.tgz" -C "$OUT" --exclude=logs.tgz . 2>/dev/null ||
   [ -s "$OUT/logs.tgz" ]; then
  find "$OUT" -maxdepth 1 -type f ! -name logs.tgz ! -name summary.txt \
    ! -name bench.txt ! -name bench-graph.txt ! -name trace.txt ! -name ncu.txt \
    ! -name clocks.txt ! -name rounds.txt ! -name ab.txt ! -name launch.txt \
    ! -name sanitize.txt ! -name determinism.txt ! -name tamper.txt -delete
fi
[ "$failures" -eq 0 ]
