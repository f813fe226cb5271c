#!/usr/bin/env bash
# Every serving run on the H100/H200 in one command, over artifacts built
# here (ARTIFACTS/serving: serving_reference.py's cases for sm_90a;
# ARTIFACTS/pack: the kernel pack of test/gpu/serving.py, varlen_bench.py and
# decode_bench.py):
#   here:  python3 test/Emulator/Inputs/serving_reference.py ARTIFACTS/serving \
#              build/bin/fa4-compile sm_90a auto        (on fa4-emu)
#          python3 -m fa4.pack --chip sm_90a --out ARTIFACTS/pack \
#              $(python3 test/gpu/serving.py --configs sm_90a) \
#              $(python3 bench/serving/varlen_bench.py --configs) \
#              $(python3 bench/serving/decode_bench.py --configs)
#              $(python3 test/gpu/hf-models.py --configs)
#   there: bash bench/serving/gpu-all.sh ARTIFACTS [OUT]
# Each step's log goes to OUT (default /tmp) and its last lines to stdout;
# STEPS names the steps to run (default: all five; hf, test/gpu/hf-models.py,
# needs transformers, which the caller's PYTHONPATH may carry).
set -uo pipefail
ARTIFACTS=${1:?usage: gpu-all.sh ARTIFACTS [OUT]}
LOGS=${2:-/tmp}
export PYTHONUNBUFFERED=1
cmake -S runtime -B /tmp/build-rt -G Ninja -DCMAKE_BUILD_TYPE=Release >/tmp/rt.log 2>&1 &&
  cmake --build /tmp/build-rt -j16 >>/tmp/rt.log 2>&1 || { tail -20 /tmp/rt.log; exit 1; }
export FA4_RUNTIME_LIB=$(find /tmp/build-rt -name libfa4rt.so | head -1)
export PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} FA4_CACHE_DIR=$ARTIFACTS/pack
status=0
STEPS=${STEPS:-reference check varlen decode hf}
step() {
  local name=$1
  shift
  [[ " $STEPS " == *" $name "* ]] || return 0
  echo "== $name"
  timeout 240 "$@" >"$LOGS/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || status=1
  tail -${TAIL:-8} "$LOGS/$name.log"
  echo "== $name: rc $rc"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
TAIL=3 step reference python3 test/Emulator/Inputs/serving_reference.py \
  "$ARTIFACTS/serving" prebuilt sm_90a auto
TAIL=6 step check python3 test/gpu/serving.py
TAIL=14 step varlen python3 bench/serving/varlen_bench.py
TAIL=45 step decode python3 bench/serving/decode_bench.py
TAIL=20 step hf python3 test/gpu/hf-models.py
exit $status
