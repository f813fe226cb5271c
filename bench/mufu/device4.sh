#!/usr/bin/env bash
# The fourth run on the H100/H200 (bench/mufu/README.md): lg2.cu's checks of
# the two-table lg2 rule on all 2^32 inputs, and rcp.cu's of rcp.approx.f32
# without .ftz; their CHECK lines into $OUT/checks4.txt.
set -uo pipefail
OUT=${OUT:-/tmp/mufu-out}
mkdir -p "$OUT" /tmp/mufu
nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/mufu/lg2 bench/mufu/lg2.cu || exit 1
nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/mufu/rcp bench/mufu/rcp.cu || exit 1
{ /tmp/mufu/lg2 /tmp/mufu | grep two-table; /tmp/mufu/rcp; } | tee "$OUT/checks4.txt"
