#!/usr/bin/env bash
# The main job: install, build, compile the default attention
# (examples/attention.mlir) for sm_100a (the Blackwell kernel, FA4's
# structure, in CTA pairs for this 4k-token prefill) and sm_90a (the Hopper
# kernel), printing the plan and the kernel chosen and writing PTX, cubin
# (when ptxas is found) and manifest.json under artifacts/main/; then, when
# a GPU and its driver are present, run the sm_90a kernel through libfa4rt
# and check it against the CPU reference; without a GPU, run both kernels'
# PTX on fa4-emu (docs/Emulator.md) and check them the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# fa4-compile looks for ptxas on PATH, then in /usr/local/cuda/bin; without
# CUDA, install-deps.sh put one in .deps/cuda/bin.
[ -x .deps/cuda/bin/ptxas ] && export PATH="$PATH:$PWD/.deps/cuda/bin"
build="${FA4_BUILD_DIR:-build}"
out=artifacts/main
rm -rf "$out"

for chip in sm_100a sm_90a; do
  echo "== fa4-compile examples/attention.mlir --chip=$chip"
  # Dynamic sizes: the hints say what to plan for (a 4k-token prefill).
  "$build/bin/fa4-compile" examples/attention.mlir --chip="$chip" \
    --batch-hint=2 --seq-q-hint=4096 --seq-kv-hint=4096 -o "$out/$chip"
done

if [ -x "$build/bin/fa4-run" ] && command -v nvidia-smi >/dev/null &&
   nvidia-smi -L 2>/dev/null | grep -q "GPU 0"; then
  echo "== fa4-run on the GPU (sm_90a kernel; sm_100a needs a Blackwell GPU)"
  manifest=$(ls "$out"/sm_90a/*/manifest.json)
  "$build/bin/fa4-run" "$manifest" --b 2 --sq 1023 --skv 1023 --check
  "$build/bin/fa4-run" "$manifest" --b 2 --sq 4096 --skv 4096 --bench
else
  echo "== no GPU here: the PTX on fa4-emu, the CPU emulator (docs/Emulator.md)"
  for chip in sm_90a sm_100a; do
    "$build/bin/fa4-compile" examples/attention.mlir --chip="$chip" \
      --batch-hint=2 --seq-q-hint=4096 --seq-kv-hint=4096 --ptxas=none \
      -o "$out/$chip-ptx" --quiet
    manifest=$(ls "$out/$chip-ptx"/*/manifest.json)
    echo "-- $(basename "$(dirname "$manifest")")"
    emu/scripts/emu-run.sh "$manifest" --b 1 --sq 33 --skv 70 --check
  done
fi
