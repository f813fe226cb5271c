#!/usr/bin/env bash
# On the H100/H200: the serving calls' GPU check (test/gpu/serving.py) over
# a kernel pack built here:
#   python3 -m fa4.pack --chip sm_90a --out PACK $(python3 test/gpu/serving.py --configs sm_90a)
#   bash bench/serving/gpu-check.sh PACK        (there)
set -uo pipefail
PACK=${1:?usage: gpu-check.sh PACK}
cmake -S runtime -B /tmp/build-rt -G Ninja -DCMAKE_BUILD_TYPE=Release >/tmp/rt.log 2>&1 &&
  cmake --build /tmp/build-rt -j16 >>/tmp/rt.log 2>&1 || { tail -20 /tmp/rt.log; exit 1; }
FA4_RUNTIME_LIB=$(find /tmp/build-rt -name libfa4rt.so | head -1) FA4_CACHE_DIR=$PACK \
  PYTHONPATH=python python3 test/gpu/serving.py
