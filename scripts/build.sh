#!/usr/bin/env bash
# Configures and builds fa4 (compiler, runtime, tests) into ${FA4_BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FA4_BUILD_DIR:-build}"

runtime=ON
if [ ! -f "${CUDA_HOME:-/usr/local/cuda}/include/cuda.h" ]; then
  echo "fa4: no CUDA headers at ${CUDA_HOME:-/usr/local/cuda}: building without the runtime"
  runtime=OFF
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DFA4_BUILD_RUNTIME=$runtime
fi
ninja -C "$build" -j "${FA4_JOBS:-$(nproc)}"
