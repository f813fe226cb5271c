#!/usr/bin/env bash
# Builds what is missing and runs every test: the lit suite (fa4-opt, PTX
# checks, ptxas) and the gtests (planners, runtime), via ctest;
# then the runtime's gtests under ASan+UBSan (scripts/sanitize-runtime.sh)
# and a bounded fuzz of its manifest reader and tensor validation
# (scripts/fuzz-runtime.sh, FA4_FUZZ_SECONDS per target, default 30) and of
# the compiler (scripts/fuzz-compiler.py, as long).
# Without ptxas the lit suite fails rather than skip the `REQUIRES: ptxas`
# tests, unless FA4_ALLOW_NO_PTXAS=1 (test/lit.cfg.py).
set -euo pipefail
cd "$(dirname "$0")/.."
# No CUDA at ${CUDA_HOME:-/usr/local/cuda}: the one scripts/install-deps.sh
# fetched from PyPI, for every script below that reads CUDA_HOME.
if [ ! -f "${CUDA_HOME:-/usr/local/cuda}/include/cuda.h" ] &&
   [ -f .deps/cuda/include/cuda.h ]; then
  export CUDA_HOME="$PWD/.deps/cuda"
fi
scripts/build.sh
ctest --test-dir "${FA4_BUILD_DIR:-build}" --output-on-failure
scripts/sanitize-runtime.sh
scripts/fuzz-runtime.sh
python3 scripts/fuzz-compiler.py --build "${FA4_BUILD_DIR:-build}" \
  --seconds "${FA4_FUZZ_SECONDS:-30}" --seed "${FA4_FUZZ_SEED:-1}" \
  --out "${FA4_BUILD_DIR:-build}/fuzz-findings"
