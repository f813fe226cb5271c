#!/usr/bin/env bash
# The fifth run on the H100/H200 (bench/mufu/README.md): tanh_model/check_tanh.cu
# compares the tanh.approx.f32 model with the unit on all 2^32 inputs and
# dumps the full-resolution segments that pin fraction bits 2..6
# (tanh_model/analysis.md); everything into $OUT/tanh.
set -uo pipefail
OUT=${OUT:-/tmp/mufu-out}
mkdir -p "$OUT/tanh" /tmp/mufu
nvcc -O2 -std=c++17 -arch=sm_90a -o /tmp/mufu/check_tanh \
  bench/mufu/tanh_model/check_tanh.cu || exit 1
/tmp/mufu/check_tanh "$OUT/tanh" | tee "$OUT/tanh/checks5.txt" | cut -c1-400 | head -40
