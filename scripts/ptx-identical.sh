#!/usr/bin/env bash
# Compiles every make-matrix and make-sample kernel, PTX only, for sm_90a
# and sm_100a with two fa4-compile binaries and fails unless every PTX file
# is byte-identical: the check of a refactor that must not change a kernel.
#   scripts/ptx-identical.sh BEFORE/fa4-compile AFTER/fa4-compile [OUT]
# An OUT/before or OUT/after that exists is kept (e.g. the PTX of the
# commit a refactor starts from, compiled once).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 BEFORE-fa4-compile AFTER-fa4-compile [OUT]" >&2; exit 2; }
before=$1 after=$2 out=${3:-$(mktemp -d)}
for side in before after; do
  [ -d "$out/$side" ] && continue
  compiler=${!side}
  for chip in sm_90a sm_100a; do
    python3 scripts/make-matrix.py --compiler "$compiler" --chip "$chip" \
      --out "$out/$side/matrix-$chip" --matrix-flag=--ptxas=none --keep-ptx
    python3 scripts/make-sample.py --compiler "$compiler" --chip "$chip" \
      --out "$out/$side/sample-$chip" --ptx --keep-ptx > /dev/null
  done
done
count=$(cd "$out/before" && find . -name '*.ptx' | wc -l)
if diff -r -q --exclude='*.json' --exclude='*.txt' "$out/before" "$out/after"; then
  echo "ptx-identical: $count PTX files, byte-identical ($out)"
else
  echo "ptx-identical: PTX differs ($out)" >&2
  exit 1
fi
