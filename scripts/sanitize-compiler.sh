#!/usr/bin/env bash
# Builds fa4-opt and fa4-compile with AddressSanitizer and UBSan into
# ${FA4_SANITIZE_COMPILER_BUILD:-build-asan-compiler} (the compiler alone,
# FA4_BUILD_RUNTIME=OFF: scripts/sanitize-runtime.sh covers the runtime) and
# runs the lit suite and a bounded compiler fuzz (scripts/fuzz-compiler.py)
# on them; any sanitizer report fails. Debian's libMLIR is not
# instrumented, so its own poisoning is off (allow_user_poisoning=0), and
# UBSan's vptr check needs RTTI that LLVM is built without.
#
#   scripts/sanitize-compiler.sh [FUZZ_SECONDS]     (default 300)
#
# Takes about 40 minutes on two cores, so CI does not run it (docs/Testing.md
# has the last run). Knobs: FA4_JOBS (build parallelism).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FA4_SANITIZE_COMPILER_BUILD:-build-asan-compiler}"
seconds="${1:-300}"

flags="-fsanitize=address,undefined -fno-sanitize=vptr"
flags+=" -fno-sanitize-recover=all -fno-omit-frame-pointer -g1"
if [ ! -f "$build/build.ninja" ]; then
  args=(-DFA4_BUILD_RUNTIME=OFF)
  for dir in ${CUDA_HOME:+"$CUDA_HOME"} /usr/local/cuda "$PWD/.deps/cuda"; do
    if [ -x "$dir/bin/ptxas" ]; then
      args+=(-DFA4_PTXAS_EXECUTABLE="$dir/bin/ptxas")
      break
    fi
  done
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${args[@]}" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
fi
ninja -C "$build" -j "${FA4_JOBS:-$(nproc)}" fa4-opt fa4-compile

export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The lit suite's compiler tests on the instrumented tools (the runtime's
# are skipped: there is none in this build).
lit-22 -q "$build/test" --filter-out 'python/|scripts/|CAPI/'
python3 scripts/fuzz-compiler.py --build "$build" --seconds "$seconds" \
  --seed 1 --out "$build/fuzz-findings" --timeout 120
