#!/usr/bin/env bash
# One gpu-check case: "<artifact dir>\t<fa4-run arguments>". Prints one row:
# artifact, case, status (pass, refused, FAIL, TIMEOUT, ERROR), max_err,
# ref_err, and TFLOP/s or the message. The full output goes to $OUT/runs/.
set -uo pipefail
IFS=$'\t' read -r dir line <<<"$1"
read -ra args <<<"$line"
artifact=$(basename "$dir")
log=$(mktemp "$OUT/runs/XXXXXX.log")
output=$(timeout "${FA4_CASE_TIMEOUT:-300}" "$FA4_RUN" "$dir/manifest.json" "${args[@]}" 2>&1)
rc=$?
{ echo "### $artifact: fa4-run $dir/manifest.json $line"; echo "$output"; echo "exit $rc"; } >"$log"
result=$(grep '^RESULT' <<<"$output" | tail -1)
case "$rc:$result" in
  0:"RESULT rejected"*) status=refused ;;
  0:*) status=pass ;;
  1:*) status=FAIL ;;
  124:*) status=TIMEOUT ;;
  *) status=ERROR ;;
esac
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$result"; }
note=$(field tflops)
[ "$status" = pass ] || note=$(sed -n 's/.*message="\(.*\)"$/\1/p' <<<"$result" | cut -c1-100)
printf '%-48s %-40s %-8s %-10s %-10s %s\n' "$artifact" "${line// /_}" "$status" \
  "$(field max_err)" "$(field ref_err)" "$note"
