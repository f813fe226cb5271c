#!/usr/bin/env bash
# The main job: install, build, then compile the default attention
# (examples/attention.mlir) and print what the compiler decided.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build="${FA4_BUILD_DIR:-build}"

echo "== examples/attention.mlir, parsed and verified =="
"$build/bin/fa4-opt" examples/attention.mlir
