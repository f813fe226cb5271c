#!/usr/bin/env bash
# Kernels that build their tensor maps on the device (device-tensor-maps),
# on the H200, from the repository root with artifacts/wheel (the wheel
# built here), artifacts/pack (a kernel pack, python -m fa4.pack) and
# artifacts/pack-dm (the same configurations compiled with
# --device-tensor-maps: python -m fa4.pack --fa4-compile with a wrapper
# that adds the flag). First the PyTorch matrix (test/gpu/flash-attn.py:
# numerics, opcheck, torch.compile, CUDA graphs) on the pack-dm kernels
# and the maps they build against the driver's (bench/map_bytes.py);
# then bench/ab_rounds.py --records: each configuration's host-encoded
# kernel (A) against its device-built one (B), round by round.
# `decodes` times only the one-shot split decodes D-50 left over 2%: Nsight
# Compute's median of ten launches (bench/ncu_records.py) of each kernel,
# host-encoded, device-built, and the device-built one again from a copy
# (an A/A control: the same cubin read 0.2-0.9 us apart, bench/log/
# 2026-12-03.md), in two passes whose order rotates; then the same rows by
# ab_rounds.py, host against device and device against its copy.
# Usage: bench/device-maps-h200.sh [matrix|bench|decodes|all]
set -o pipefail
export PYTHONUNBUFFERED=1
what=${1:-all}
case $what in matrix | bench | decodes | all) ;;
*) echo "usage: $0 [matrix|bench|decodes|all]" >&2; exit 2 ;;
esac
root=$PWD
. bench/wheel-venv.sh
make_wheel_venv || exit 3
lib=$("$env/bin/python" -c "import fa4; print(fa4.library_path())")
status=0
scratch=$(mktemp -d) # the matrix's test copies and the A/A copies
trap 'rm -rf "$scratch"' EXIT
if [ "$what" != bench ] && [ "$what" != decodes ]; then
  tests=$scratch/tests
  mkdir "$tests"
  cp test/gpu/flash-attn.py test/gpu/attention_reference.py "$tests/"
  (cd "$tests" && unset PYTHONPATH FA4_RUNTIME_LIB &&
   FA4_CACHE_DIR=$root/artifacts/pack-dm "$env/bin/python" flash-attn.py 2>&1 |
   grep -v "^pass") || status=1
fi
entry() { # the pack entry of configuration $2 in pack $1
    local key
    key=$(PYTHONPATH=python python3 -c "import sys
from fa4.pack import parse_config
from fa4.cache import problem_key
print(problem_key(parse_config(sys.argv[1], 'sm_90a')))" "$2")
    dirname "$(ls "$1/$key"/*/manifest.json)"
}
if [ "$what" != bench ] && [ "$what" != decodes ]; then
  # The maps a kernel built against the driver's encoding of the same maps
  # (bench/map_bytes.py: only the differences D-48 expects), the kernel's
  # and the looped twin's.
  for case in bf16:32:8:128:128:none,1:8192:8192 \
      bf16:32:8:128:128:none,2:1024:1024 f16:8:1:64:64:none,1:4096:4096 \
      bf16:4:4:256:256:none,1:2048:2048; do
    echo "== maps ${case/,/ }"
    FA4_RUNTIME_LIB=$lib python3 bench/map_bytes.py \
      "$(entry artifacts/pack-dm "${case%,*}")" "${case#*,}" > "$tests/maps.log" 2>&1 ||
      { status=1; cat "$tests/maps.log"; }
    tail -1 "$tests/maps.log"
  done
fi
ab_rounds() { # label, artifact A, artifact B, then rows
  local label=$1 a=$2 b=$3
  shift 3
  echo "== $label"
  FA4_RUNTIME_LIB=$lib python3 bench/ab_rounds.py --records --rounds 6 \
    "$a" "$b" "$@" || status=1
}
ab() { # configuration, then rows: host-encoded against device-built maps
  local config=$1
  shift
  ab_rounds "$config" "$(entry artifacts/pack "$config")" \
    "$(entry artifacts/pack-dm "$config")" "$@"
}
if [ "$what" = decodes ]; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  median() { # artifact, row: the decode kernel's median of ten launches, ns
    (cd bench && FA4_RUNTIME_LIB=$lib "$ncu" --clock-control none \
      -k 'regex:_decode_sm_90a$' --launch-skip 10 --launch-count 10 \
      --metrics gpu__time_duration.sum --csv \
      python3 ncu_records.py "$1" "$2" 2>/dev/null |
      grep gpu__time | awk -F'","' '{print $NF}' | tr -d '",' | sort -n |
      sed -n 5,6p | awk '{s += $1} END {if (NR == 2) print s / 2}')
  }
  rows="bf16:4:4:256:256:none,1:1:16384 bf16:32:8:128:128:causal,1:1:32768
    f16:8:1:64:64:none,32:1:8192 bf16:32:8:128:128:none,8:1:8192
    bf16:32:8:128:128:none,1:1:8192"
  copies=$scratch/copies
  mkdir "$copies"
  copy_of() { echo "$copies/${1//[:(),.]/_}"; } # the A/A copy of a config
  printf "%-36s %5s %10s %10s %10s\n" "decode (Nsight Compute, ns)" pass \
    host device "device A/A"
  for row in $rows; do
    config=${row%,*} sizes=${row#*,}
    host=$(entry "$root/artifacts/pack" "$config")
    device=$(entry "$root/artifacts/pack-dm" "$config")
    copy=$(copy_of "$config")
    cp -r "$device" "$copy"
    for pass in 1 2; do
      if [ $pass = 1 ]; then order="host device copy"; else order="copy device host"; fi
      for kind in $order; do
        case $kind in
        host) t_host=$(median "$host" "$sizes") ;;
        device) t_device=$(median "$device" "$sizes") ;;
        copy) t_copy=$(median "$copy" "$sizes") ;;
        esac
      done
      printf "%-36s %5s %10s %10s %10s\n" "$config $sizes" $pass \
        "$t_host" "$t_device" "$t_copy"
    done
  done
  for row in $rows; do
    config=${row%,*} sizes=${row#*,}
    ab "$config" "$sizes"
    ab_rounds "A/A $config" "$(entry artifacts/pack-dm "$config")" \
      "$(copy_of "$config")" "$sizes"
  done
  exit $status
fi
if [ "$what" != matrix ]; then
  ab bf16:32:8:128:128:none 4:1024 2:4096 1:16384 1:1:8192 8:1:8192 64:1:4096
  ab bf16:32:8:128:128:causal 4:2048 1:16384 1:1:32768
  ab f16:8:1:64:64:none 8:4096 32:1:8192
  ab bf16:4:4:256:256:none 4:2048 1:1:16384
fi
exit $status
