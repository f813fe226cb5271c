#!/usr/bin/env bash
# Builds what is missing and runs every test: the lit suite (fa4-opt, PTX
# checks, ptxas when present) and the gtests (planners, runtime), via ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir "${FA4_BUILD_DIR:-build}" --output-on-failure
