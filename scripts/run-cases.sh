#!/usr/bin/env bash
# Every case of one gpu-check artifact, run-cases.sh DIR [CASES] (CASES:
# DIR/cases.txt unless given), in one fa4-run process (fa4-run --cases: one
# CUDA context for all of them; a process per case spent about 0.3 s on its
# own start, most of the matrix's time). Prints one row per case: artifact,
# case, status (pass, refused, FAIL, ERROR, TIMEOUT), max_err, ref_err, and
# TFLOP/s or the message; the whole output goes to $OUT/runs/. A case the
# process did not finish (it crashed, or ran past FA4_ARTIFACT_TIMEOUT) gets
# ERROR or TIMEOUT, and the cases after it no row: gpu-check counts them as
# not run.
set -uo pipefail
dir=$1
cases=${2:-$dir/cases.txt}
artifact=$(basename "$dir")
log=$(mktemp "$OUT/runs/XXXXXX.log")
output=$(timeout "${FA4_ARTIFACT_TIMEOUT:-600}" "$FA4_RUN" "$dir/manifest.json" \
  --cases "$cases" 2>&1)
rc=$?
{ echo "### $artifact: fa4-run $dir/manifest.json --cases $cases"
  echo "$output"; echo "exit $rc"; } >"$log"
awk -v artifact="$artifact" -v rc="$rc" '
  function field(name) {
    if (!match(result, " " name "=[^ ]*")) return ""
    return substr(result, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
  }
  function message() {
    if (!match(result, /message="/)) return ""
    text = substr(result, RSTART + 9)
    sub(/"$/, "", text)
    return substr(text, 1, 100)
  }
  function emit(status) {
    shown = line; gsub(/ /, "_", shown)
    note = status == "pass" ? field("tflops") : message()
    printf "%-48s %-40s %-8s %-10s %-10s %s\n", artifact, shown, status,
           field("max_err"), field("ref_err"), note
    running = 0
  }
  /^CASE / { if (running) emit(rc == 124 ? "TIMEOUT" : "ERROR")
             line = substr($0, 6); result = ""; running = 1; next }
  /^RESULT/ { result = $0; next }
  /^EXIT / { if (!running) next
             if ($2 == 0) emit(result ~ /^RESULT rejected/ ? "refused" : "pass")
             else emit($2 == 1 ? "FAIL" : "ERROR") }
  END { if (running) emit(rc == 124 ? "TIMEOUT" : "ERROR") }
' <<<"$output"
