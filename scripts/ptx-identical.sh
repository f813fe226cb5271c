#!/usr/bin/env bash
# Compiles every make-matrix kernel (sm_90a) and make-sample kernel (sm_90a
# and sm_100a), PTX only, with two fa4-compile binaries and fails unless
# every PTX file is byte-identical: the check of a refactor that must not
# change a kernel.
#   scripts/ptx-identical.sh BEFORE/fa4-compile AFTER/fa4-compile [OUT]
# A set already in OUT/before or OUT/after is kept (e.g. the PTX of the
# commit a refactor starts from, compiled once).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 BEFORE-fa4-compile AFTER-fa4-compile [OUT]" >&2; exit 2; }
before=$1 after=$2 out=${3:-$(mktemp -d)}
# make-matrix is the sm_90a matrix; make-sample has a family for each chip.
for side in before after; do
  compiler=${!side}
  dir="$out/$side/matrix-sm_90a"
  [ -d "$dir" ] || python3 scripts/make-matrix.py --compiler "$compiler" \
    --out "$dir" --matrix-flag=--ptxas=none --keep-ptx
  for chip in sm_90a sm_100a; do
    dir="$out/$side/sample-$chip"
    [ -d "$dir" ] || python3 scripts/make-sample.py --compiler "$compiler" \
      --chip "$chip" --out "$dir" --ptx --keep-ptx > /dev/null
  done
done
count=$(cd "$out/before" && find . -name '*.ptx' | wc -l)
if diff -r -q --exclude='*.json' --exclude='*.txt' "$out/before" "$out/after"; then
  echo "ptx-identical: $count PTX files, byte-identical ($out)"
else
  echo "ptx-identical: PTX differs ($out)" >&2
  exit 1
fi
