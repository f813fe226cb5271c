#!/usr/bin/env bash
# The micro kernels (emu/micro/*.ptx: TMA swizzle modes and bounds, an
# mbarrier's transaction count and phases, cluster shared memory and a
# remote mbarrier arrival) through the CUDA driver API:
#   emu/scripts/emu-micro.sh            on this machine's GPU (libcuda.so.1)
#   emu/scripts/emu-micro.sh --emu      on fa4-emu (build/emu/libfa4emu.so)
# Prints one MICRO line per case (its output's hash and first words); the
# GPU's and the emulator's lines must be identical (bench/RESULTS.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cuda="${CUDA_HOME:-/usr/local/cuda}"
[ -f "$cuda/include/cuda.h" ] || cuda="$root/.deps/cuda"
bin="${TMPDIR:-/tmp}/fa4-emu-micro"
g++ -std=c++17 -O1 -I"$cuda/include" "$root/emu/micro/micro.cpp" -ldl -o "$bin"
if [ "${1:-}" = --emu ]; then
  FA4_EMU_ARCH=sm_90a exec "$bin" --driver \
    "${FA4_BUILD_DIR:-$root/build}/emu/libfa4emu.so" "$root/emu/micro"
fi
exec "$bin" "$root/emu/micro"
