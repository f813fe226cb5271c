#!/usr/bin/env bash
# Configures and builds fa4 (compiler, runtime, tests) into ${FA4_BUILD_DIR:-build}.
# CUDA 13 (cuda.h for the runtime, ptxas for the `REQUIRES: ptxas` tests)
# comes from $CUDA_HOME, else /usr/local/cuda, else .deps/cuda (what
# scripts/install-deps.sh fetched from PyPI). Without cuda.h the build stops
# rather than leave the runtime out unnoticed; FA4_BUILD_RUNTIME=OFF builds
# the compiler alone on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FA4_BUILD_DIR:-build}"

case "${FA4_BUILD_RUNTIME:-ON}" in
  ON|on|1|TRUE|true|YES|yes) runtime=ON ;;
  OFF|off|0|FALSE|false|NO|no) runtime=OFF ;;
  *) echo "fa4: FA4_BUILD_RUNTIME=$FA4_BUILD_RUNTIME: expected ON or OFF" >&2
     exit 1 ;;
esac

cuda_dirs=(${CUDA_HOME:+"$CUDA_HOME"} /usr/local/cuda "$PWD/.deps/cuda")
cuda_include=""
ptxas=""
for dir in "${cuda_dirs[@]}"; do
  [ -z "$cuda_include" ] && [ -f "$dir/include/cuda.h" ] &&
    cuda_include="$dir/include"
  [ -z "$ptxas" ] && [ -x "$dir/bin/ptxas" ] && ptxas="$dir/bin/ptxas"
done

args=(-DFA4_BUILD_RUNTIME=$runtime)
if [ "$runtime" = ON ]; then
  if [ -z "$cuda_include" ]; then
    echo "fa4: no cuda.h in the include folder of any of" \
         "${cuda_dirs[*]}: the runtime needs CUDA 13's headers. Run" \
         "scripts/install-deps.sh (without /usr/local/cuda it fetches them" \
         "and ptxas from PyPI into .deps/cuda), set CUDA_HOME, or set" \
         "FA4_BUILD_RUNTIME=OFF to build without the runtime." >&2
    exit 1
  fi
  args+=(-DFA4_CUDA_INCLUDE_DIR="$cuda_include")
fi
# XLA's FFI headers (scripts/install-deps.sh: .deps/xla-ffi, or
# FA4_XLA_FFI_INCLUDE_DIR, e.g. jax.ffi.include_dir()): the runtime then
# builds the XLA handler, libfa4xla.so, and its test.
xla_ffi="${FA4_XLA_FFI_INCLUDE_DIR:-}"
[ -z "$xla_ffi" ] && [ -f .deps/xla-ffi/xla/ffi/api/ffi.h ] &&
  xla_ffi="$PWD/.deps/xla-ffi"
[ "$runtime" = ON ] && args+=(-DFA4_XLA_FFI_INCLUDE_DIR="$xla_ffi")
# No ptxas here: CMake still looks on PATH, and the lit suite fails without
# one unless FA4_ALLOW_NO_PTXAS=1 (test/lit.cfg.py).
[ -n "$ptxas" ] && args+=(-DFA4_PTXAS_EXECUTABLE="$ptxas")

# Configure a new build, or one whose cache disagrees with what was found
# above (e.g. configured before install-deps.sh fetched CUDA): CMake keeps
# cached paths, NOTFOUND included, until told otherwise.
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" 2>/dev/null; }
if [ ! -f "$build/build.ninja" ] ||
   [ "$(cached FA4_BUILD_RUNTIME)" != "$runtime" ] ||
   { [ "$runtime" = ON ] &&
     [ "$(cached FA4_CUDA_INCLUDE_DIR)" != "$cuda_include" ]; } ||
   { [ -n "$ptxas" ] && [ "$(cached FA4_PTXAS_EXECUTABLE)" != "$ptxas" ]; } ||
   { [ "$runtime" = ON ] &&
     [ "$(cached FA4_XLA_FFI_INCLUDE_DIR)" != "$xla_ffi" ]; }; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${args[@]}"
fi
ninja -C "$build" -j "${FA4_JOBS:-$(nproc)}"
