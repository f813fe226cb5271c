#!/usr/bin/env bash
# Installs what fa4 needs on Debian 12: LLVM/MLIR 22 (Debian's packages),
# Ninja, CMake, GoogleTest. CUDA 13 (ptxas, cuda.h) is expected at
# /usr/local/cuda; without it the PTX is still produced, but no cubin, and
# the runtime is not built.
set -euo pipefail

need=()
for pkg in llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools ninja-build \
           cmake g++ libgtest-dev python3; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
    need+=("$pkg")
done
if ((${#need[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "fa4: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
