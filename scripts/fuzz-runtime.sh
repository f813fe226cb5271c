#!/usr/bin/env bash
# Builds libfa4rt's libFuzzer targets (runtime/fuzz: clang-14 with
# -fsanitize=fuzzer,address,undefined) into ${FA4_FUZZ_BUILD:-build-fuzz} and
# runs each for FA4_FUZZ_SECONDS (default 30) on a fresh copy of the
# checked-in seed corpus. Exits non-zero on any finding: a crash, a
# sanitizer report, an uncaught exception, a broken invariant, a timeout
# (an input running past 10 s), a leak or running out of memory.
#
#   scripts/fuzz-runtime.sh                        # both targets, 30 s each
#   FA4_FUZZ_SECONDS=1200 scripts/fuzz-runtime.sh ValidateFuzzer
#   FA4_FUZZ_SECONDS=0 scripts/fuzz-runtime.sh     # build only
#
# Targets: ManifestFuzzer (manifest.json bytes -> parseManifest, then the
# module, its info, validation and launch plan of tensors laid out by the
# accepted manifest's own rules) and ValidateFuzzer (real manifests x
# fuzzer-chosen tensors -> validateArgs and the launch plan). What each
# covers: docs/Testing.md. Findings stay in
# ${FA4_FUZZ_BUILD}/work/<target>/ (crash-*, leak-*, timeout-*, oom-*);
# replay one with `${FA4_FUZZ_BUILD}/<target> <file>`.
#
# Other knobs: FA4_FUZZ_CXX (default clang++-14), FA4_JOBS (build
# parallelism), FA4_FUZZ_ARGS (extra libFuzzer flags, e.g. -seed=1).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FA4_FUZZ_BUILD:-build-fuzz}"
seconds="${FA4_FUZZ_SECONDS:-30}"
cxx="${FA4_FUZZ_CXX:-clang++-14}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz-runtime: FA4_FUZZ_SECONDS must be a number of seconds" >&2
  exit 2
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ManifestFuzzer ValidateFuzzer)

# No clang or no libFuzzer runtime is a failure, never a skip.
if ! command -v "$cxx" >/dev/null; then
  echo "fuzz-runtime: $cxx not found (scripts/install-deps.sh installs" \
       "clang-14)" >&2
  exit 1
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }' \
  >"$probe/probe.cpp"
if ! "$cxx" -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" \
     -o "$probe/probe" 2>"$probe/log"; then
  cat "$probe/log" >&2
  echo "fuzz-runtime: $cxx cannot link a libFuzzer target (libclang_rt.fuzzer" \
       "missing? on Debian 12 it is in libclang-rt-14-dev)" >&2
  exit 1
fi

# The runtime includes cuda.h (the driver's types; the driver itself is
# opened at run time, and never here).
cuda_include="${FA4_CUDA_INCLUDE_DIR:-${CUDA_HOME:-/usr/local/cuda}/include}"
if [ ! -f "$cuda_include/cuda.h" ]; then
  echo "fuzz-runtime: no cuda.h in $cuda_include (set CUDA_HOME or" \
       "FA4_CUDA_INCLUDE_DIR)" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S runtime/fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
    -DFA4_CUDA_INCLUDE_DIR="$cuda_include"
fi
ninja -C "$build" -j "${FA4_JOBS:-$(nproc)}" "${targets[@]}"
# 0 seconds: build only (libFuzzer would read -max_total_time=0 as no limit).
[ "$seconds" -eq 0 ] && exit 0

# Each target: its flags, its seed corpus (empty: libFuzzer starts from
# nothing), its dictionary.
declare -A max_len=([ManifestFuzzer]=20000 [ValidateFuzzer]=512)
declare -A seeds=([ManifestFuzzer]=runtime/fuzz/corpus/manifest
                  [ValidateFuzzer]=)
declare -A dict=([ManifestFuzzer]=runtime/fuzz/manifest.dict
                 [ValidateFuzzer]=)

failed=0
for target in "${targets[@]}"; do
  if [ -z "${max_len[$target]+x}" ]; then
    echo "fuzz-runtime: unknown target $target" >&2
    exit 2
  fi
  work="$build/work/$target"
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/findings"
  # A copy: libFuzzer adds the inputs it finds to its corpus directory.
  [ -n "${seeds[$target]}" ] && cp "${seeds[$target]}"/* "$work/corpus/"
  flags=(-max_total_time="$seconds" -max_len="${max_len[$target]}"
         -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
         -artifact_prefix="$work/findings/")
  [ -n "${dict[$target]}" ] && flags+=(-dict="${dict[$target]}")
  # shellcheck disable=SC2206 # extra flags are words
  flags+=(${FA4_FUZZ_ARGS:-})
  echo "fuzz-runtime: $target for ${seconds}s"
  rc=0
  "$build/$target" "${flags[@]}" "$work/corpus" >"$work/log" 2>&1 || rc=$?
  findings=$(find "$work/findings" -type f \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
       -o -name 'oom-*' -o -name 'slow-unit-*' \) | sort)
  grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' \
    "$work/log" || true
  echo "  corpus: $(find "$work/corpus" -type f | wc -l) inputs"
  if [ "$rc" -ne 0 ] || [ -n "$findings" ]; then
    failed=1
    echo "fuzz-runtime: $target FAILED (exit $rc); log: $work/log" >&2
    grep -E 'fa4 fuzz finding|ERROR: |SUMMARY: |runtime error|terminate called' \
      "$work/log" | head -20 >&2 || true
    for finding in $findings; do
      echo "  finding: $finding (replay: $build/$target $finding)" >&2
    done
  else
    echo "  no findings"
  fi
done
exit $failed
