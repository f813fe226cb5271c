#!/usr/bin/env bash
# The serving forms' reference kernels on the H100/H200 through the runtime
# (fa4_launch_serving): test/Emulator/Inputs/serving_reference.py's cases,
# compiled here into ARTIFACTS (sm_90a), run there against plain Python.
#   here:  python3 test/Emulator/Inputs/serving_reference.py ARTIFACTS \
#              build/bin/fa4-compile sm_90a        (on fa4-emu)
#   there: bash bench/serving/device.sh ARTIFACTS
set -uo pipefail
ARTIFACTS=${1:?usage: device.sh ARTIFACTS}
cmake -S runtime -B /tmp/build-rt -G Ninja -DCMAKE_BUILD_TYPE=Release >/tmp/rt.log 2>&1 &&
  cmake --build /tmp/build-rt -j16 >>/tmp/rt.log 2>&1 || { tail -20 /tmp/rt.log; exit 1; }
FA4_RUNTIME_LIB=$(find /tmp/build-rt -name libfa4rt.so | head -1) PYTHONPATH=python \
  python3 test/Emulator/Inputs/serving_reference.py "$ARTIFACTS" prebuilt sm_90a
