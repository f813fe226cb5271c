#!/usr/bin/env bash
# Runs an artifact on fa4-emu, no GPU needed (docs/Emulator.md):
#   emu/scripts/emu-run.sh ARTIFACT_DIR [fa4-run options...]
# e.g. emu/scripts/emu-run.sh out/fa4_hopper_mha_sm_90a --b 1 --sq 77 --skv 130
# The artifact must hold PTX (fa4-compile --ptxas=none); FA4_EMU_SEED,
# FA4_EMU_ARCH and FA4_EMU_TRACE pass through to the emulator.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${FA4_BUILD_DIR:-$root/build}"
if [ $# -lt 1 ]; then
  sed -n '2,6p' "$0" >&2
  exit 2
fi
artifact="$1"
shift
manifest="$artifact"
[ -d "$artifact" ] && manifest="$artifact/manifest.json"
# The emulator's chip is the manifest's.
if [ -z "${FA4_EMU_ARCH:-}" ]; then
  FA4_EMU_ARCH=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chip"])' "$manifest")
  export FA4_EMU_ARCH
fi
exec env FA4_CUDA_DRIVER_PATH="$build/emu/libfa4emu.so" \
  "$build/bin/fa4-run" "$manifest" "$@"
