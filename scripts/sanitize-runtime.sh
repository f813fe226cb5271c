#!/usr/bin/env bash
# Builds libfa4rt, fa4-run and the runtime's gtests with AddressSanitizer and
# UBSan (-fsanitize=address,undefined -fno-sanitize-recover=all: any report
# fails its test) into ${FA4_SANITIZE_BUILD:-build-asan}, and runs their
# ctest with leak detection on. Needs no GPU: the tests that need the
# driver are not in this suite.
#
#   scripts/sanitize-runtime.sh
#
# Knobs: FA4_SANITIZE_CXX / FA4_SANITIZE_CC (default clang++-14 / clang-14;
# g++ / gcc work too), FA4_JOBS (build parallelism).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FA4_SANITIZE_BUILD:-build-asan}"
cxx="${FA4_SANITIZE_CXX:-clang++-14}"
cc="${FA4_SANITIZE_CC:-clang-14}"

for tool in "$cxx" "$cc"; do
  if ! command -v "$tool" >/dev/null; then
    echo "sanitize-runtime: $tool not found (scripts/install-deps.sh" \
         "installs clang-14)" >&2
    exit 1
  fi
done
cuda_include="${FA4_CUDA_INCLUDE_DIR:-${CUDA_HOME:-/usr/local/cuda}/include}"
if [ ! -f "$cuda_include/cuda.h" ]; then
  echo "sanitize-runtime: no cuda.h in $cuda_include (set CUDA_HOME or" \
       "FA4_CUDA_INCLUDE_DIR)" >&2
  exit 1
fi

flags="-fsanitize=address,undefined -fno-sanitize-recover=all"
flags+=" -fno-omit-frame-pointer -g"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S runtime -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
    -DFA4_CUDA_INCLUDE_DIR="$cuda_include" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
fi
ninja -C "$build" -j "${FA4_JOBS:-$(nproc)}"
# The gtests must exist: a runtime build without GoogleTest would pass
# with nothing run.
if [ ! -x "$build/unittests/fa4rt-unittests" ]; then
  echo "sanitize-runtime: fa4rt-unittests was not built (GoogleTest" \
       "missing? scripts/install-deps.sh installs libgtest-dev)" >&2
  exit 1
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir "$build" --output-on-failure -j "${FA4_JOBS:-$(nproc)}"

# The launch paths under the sanitizers, on fa4-emu with kernels from the
# compiler's build: fa4_launch and launch records (a split-K decode with
# fa4-run's own workspace, a prefill, pointers refused at a record's run).
fa4_build="${FA4_BUILD_DIR:-build}"
emu="$fa4_build/emu/libfa4emu.so"
compile="$fa4_build/bin/fa4-compile"
if [ ! -f "$emu" ] || [ ! -x "$compile" ]; then
  echo "sanitize-runtime: $emu or $compile missing (scripts/build.sh):" \
       "the launch paths on fa4-emu were not run" >&2
  exit 0
fi
kernels=$(mktemp -d)
trap 'rm -rf "$kernels"' EXIT
"$compile" test/Emulator/Inputs/attention.mlir --chip=sm_90a --ptxas=none \
  -o "$kernels" --quiet
on_emu() {
  local kernel=$1 expect=$2
  shift 2
  local result
  result=$(FA4_CUDA_DRIVER_PATH="$emu" "$build/fa4-run/fa4-run" \
    "$kernels/$kernel/manifest.json" "$@" | grep '^RESULT')
  echo "sanitize-runtime: $kernel $*: ${result:0:60}"
  [[ "$result" == "RESULT $expect"* ]]
}
on_emu fa4_hopper_gqa_sm_90a pass --b 1 --sq 1 --skv 1000 --repeat 1
on_emu fa4_hopper_gqa_sm_90a pass --b 1 --sq 1 --skv 1000 --record --repeat 1
on_emu fa4_hopper_causal_sm_90a pass --b 1 --sq 130 --skv 77 --record
on_emu fa4_hopper_gqa_sm_90a rejected --b 1 --sq 77 --skv 130 --record \
  --bad-tensor=alias
on_emu fa4_hopper_gqa_sm_90a rejected --b 1 --sq 77 --skv 130 --record \
  --bad-tensor=misaligned
