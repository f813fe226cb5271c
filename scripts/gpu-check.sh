#!/usr/bin/env bash
# The one script run on the GPU machine (repo root as cwd, $OUT set):
#   1. builds the runtime standalone (CUDA headers only, no LLVM) in /tmp,
#   2. runs its unit tests,
#   3. builds the runtime self-test kernels (runtime/selftest, needs nvcc),
#   4. runs fa4-run on every case of every artifact: artifacts/<name>/ holds
#      manifest.json, the binary and cases.txt (one line of fa4-run
#      arguments per case; '#' starts a comment),
#   5. prints a summary table. Exits non-zero if anything failed.
# Logs go to $OUT: build.log, ctest.log, runs.log, summary.txt.
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
  if "$NVCC" -arch=sm_90a -O2 -std=c++17 -cubin -o "$SELFTEST/NaiveAttention.cubin" "$src" \
       >>"$OUT/build.log" 2>&1 &&
     "$NVCC" -arch=sm_90a -O2 -std=c++17 -ptx -o "$SELFTEST/NaiveAttention.ptx" "$src" \
       >>"$OUT/build.log" 2>&1; then
    for dir in runtime/selftest/*/; do
      name=selftest-$(basename "$dir")
      mkdir -p "$SELFTEST/$name"
      cp "$dir"/manifest.json "$dir"/cases.txt "$SELFTEST/$name/"
      ln -s ../NaiveAttention.cubin ../NaiveAttention.ptx "$SELFTEST/$name/"
      artifact_dirs+=("$SELFTEST/$name")
    done
  else
    failures=$((failures + 1))
    echo "self-test kernel build FAILED (see build.log)" >&2
  fi
else
  echo "nvcc not found: self-test kernels skipped" >&2
fi
if [ -d artifacts ]; then
  for dir in artifacts/*/; do
    [ -f "$dir/manifest.json" ] && artifact_dirs+=("${dir%/}")
  done
fi
[ ${#artifact_dirs[@]} -gt 0 ] || echo "no artifacts to run" >&2

step "fa4-run cases"
: >"$OUT/runs.log"
summary="$OUT/summary.txt"
printf '%-40s %-52s %-8s %-10s %-10s %s\n' artifact case status max_err ref_err tflops/note >"$summary"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
for dir in "${artifact_dirs[@]}"; do
  artifact=$(basename "$dir")
  cases="$dir/cases.txt"
  [ -f "$cases" ] || { echo "$artifact: no cases.txt, skipped" >&2; continue; }
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    [ -n "${line// /}" ] || continue
    read -ra args <<<"$line"
    echo "### $artifact: fa4-run $dir/manifest.json $line" >>"$OUT/runs.log"
    set +e
    output=$(timeout 300 "$FA4_RUN" "$dir/manifest.json" "${args[@]}" 2>&1)
    rc=$?
    set -e
    echo "$output" >>"$OUT/runs.log"
    echo "exit $rc" >>"$OUT/runs.log"
    result=$(grep '^RESULT' <<<"$output" | tail -1 || true)
    case "$rc:$result" in
      0:"RESULT rejected"*) status=refused ;;
      0:*) status=pass ;;
      1:*) status=FAIL ;;
      124:*) status=TIMEOUT ;;
      *) status=ERROR ;;
    esac
    [ "$status" = pass ] || [ "$status" = refused ] || failures=$((failures + 1))
    note=$(field tflops "$result")
    [ "$status" = pass ] || note=$(sed -n 's/.*message="\(.*\)"$/\1/p' <<<"$result" | cut -c1-90)
    printf '%-40s %-52s %-8s %-10s %-10s %s\n' "$artifact" "$line" "$status" \
      "$(field max_err "$result")" "$(field ref_err "$result")" "$note" >>"$summary"
  done <"$cases"
done

step "summary"
cat "$summary"
echo "failures: $failures"
[ "$failures" -eq 0 ]
