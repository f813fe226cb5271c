#!/usr/bin/env bash
# Installs what fa4 needs on Debian 12: LLVM/MLIR 22 (Debian's packages),
# Ninja, CMake, GoogleTest, clang 14 with libFuzzer, and CUDA 13's ptxas
# and cuda.h. Those two come from $CUDA_HOME or /usr/local/cuda where they
# are; otherwise from NVIDIA's wheels on PyPI, unpacked into .deps/cuda (as
# bin/ptxas and include), where scripts/build.sh looks next. The runtime
# needs cuda.h and the `REQUIRES: ptxas` lit tests need ptxas: without them
# the build and the tests fail, so this script fails too when it cannot get
# them.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned: the `REQUIRES: ptxas` tests record ptxas 13.0.88's registers and
# spills (the CUDA 13.0 toolkit's ptxas); cuda.h from the same release.
cuda_wheels=(nvidia-cuda-nvcc==13.0.88 nvidia-cuda-runtime==13.0.96)
deps_cuda=.deps/cuda

has_cuda() { [ -x "$1/bin/ptxas" ] && [ -f "$1/include/cuda.h" ]; }
cuda_from_pypi=1
for dir in ${CUDA_HOME:+"$CUDA_HOME"} /usr/local/cuda; do
  has_cuda "$dir" && cuda_from_pypi=0 && break
done
# A .deps/cuda from other pins is fetched again.
if ((cuda_from_pypi)) && has_cuda "$deps_cuda" &&
   [ "$(cat "$deps_cuda/WHEELS" 2>/dev/null)" = "${cuda_wheels[*]}" ]; then
  cuda_from_pypi=0
fi

packages=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools ninja-build
          cmake g++ libgtest-dev python3)
# The Python package's kernel cache locks its entries with filelock (lit
# runs Debian's python3; another python3 first on PATH gets it from PyPI,
# below).
packages+=(python3-filelock)
# The wheel's build tools live in a venv of their own (below).
packages+=(python3-venv)
# scripts/fuzz-runtime.sh and scripts/sanitize-runtime.sh: clang 14 and its
# libFuzzer and sanitizer runtimes (libclang_rt.fuzzer-x86_64.a is in
# libclang-rt-14-dev, which clang-14 only recommends).
packages+=(clang-14 libclang-rt-14-dev)
# pip only downloads the wheels (no install into Debian's Python): CUDA's
# where there is none, jaxlib's for XLA's FFI headers.
packages+=(python3-pip)
need=()
for pkg in "${packages[@]}"; do
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

if ((cuda_from_pypi)); then
  echo "fa4: no ptxas and cuda.h in ${CUDA_HOME:+$CUDA_HOME or }/usr/local/cuda:" \
       "fetching ${cuda_wheels[*]} from PyPI into $deps_cuda"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  if ! python3 -m pip download --quiet --no-deps --only-binary=:all: \
         --dest "$tmp/wheels" "${cuda_wheels[@]}"; then
    echo "fa4: could not download ${cuda_wheels[*]} from PyPI; install" \
         "CUDA 13 at /usr/local/cuda or point CUDA_HOME at it" >&2
    exit 1
  fi
  # A wheel is a zip archive: unpack only its CUDA tree (nvidia/cu13/) as a
  # CUDA_HOME, ptxas and the headers, keeping ptxas's execute bit (which
  # `python3 -m zipfile -e` drops). Unpacked rather than pip-installed:
  # Debian's pip refuses to install into the system Python (PEP 668), and
  # nothing here is a Python package.
  python3 - "$tmp/wheels" "$tmp/cuda" <<'EOF'
import os, sys, zipfile
wheels, out = sys.argv[1], sys.argv[2]
for wheel in sorted(os.listdir(wheels)):
    with zipfile.ZipFile(os.path.join(wheels, wheel)) as z:
        for info in z.infolist():
            name = info.filename
            if not name.startswith("nvidia/cu13/") or name.endswith("/"):
                continue
            rel = name[len("nvidia/cu13/"):]
            if rel != "bin/ptxas" and not rel.startswith("include/"):
                continue
            path = os.path.join(out, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with z.open(info) as src, open(path, "wb") as dst:
                dst.write(src.read())
            # The wheel's 0o744: anyone may run ptxas, not only its owner.
            mode = (info.external_attr >> 16) & 0o777 or 0o644
            os.chmod(path, mode | 0o111 if mode & 0o100 else mode)
EOF
  if ! has_cuda "$tmp/cuda" || ! "$tmp/cuda/bin/ptxas" --version >/dev/null; then
    echo "fa4: ${cuda_wheels[*]} hold no runnable ptxas and cuda.h" \
         "under nvidia/cu13/" >&2
    exit 1
  fi
  echo "${cuda_wheels[*]}" > "$tmp/cuda/WHEELS"
  rm -rf "$deps_cuda"
  mkdir -p "$(dirname "$deps_cuda")"
  mv "$tmp/cuda" "$deps_cuda"
  "$deps_cuda/bin/ptxas" --version | grep release
fi

# filelock for the python3 first on PATH, when it is not Debian's.
if ! python3 -c "import filelock" 2>/dev/null; then
  python3 -m pip install -q filelock 2>/dev/null ||
    python3 -m pip install -q --break-system-packages filelock 2>/dev/null ||
    echo "fa4: no filelock for $(command -v python3) (pip install filelock):" \
         "fa4.flash_attn_func's kernel cache needs it there" >&2
fi

# XLA's FFI headers (what jax.ffi.include_dir() points at: xla/ffi/api),
# unpacked from the jaxlib wheel into .deps/xla-ffi, so that
# scripts/build.sh builds the XLA handler (runtime/xla, libfa4xla.so) and
# its test without jax. The FFI's C API is versioned; XLA runs handlers
# built against older headers.
xla_ffi=.deps/xla-ffi
jaxlib=jaxlib==0.10.2
if [ ! -f "$xla_ffi/xla/ffi/api/ffi.h" ]; then
  tmp_xla="$(mktemp -d)"
  # One wheel, whatever python3 this is (only its headers are used).
  if ! python3 -m pip download --quiet --no-deps --only-binary=:all: \
         --python-version 3.11 --implementation cp \
         --platform manylinux_2_27_x86_64 --dest "$tmp_xla" "$jaxlib"; then
    echo "fa4: could not download $jaxlib from PyPI (XLA's FFI headers)" >&2
    exit 1
  fi
  python3 - "$tmp_xla" "$tmp_xla/include" <<'EOF'
import os, sys, zipfile
wheels, out = sys.argv[1], sys.argv[2]
prefix = "jaxlib/include/xla/ffi/api/"
for wheel in sorted(os.listdir(wheels)):
    with zipfile.ZipFile(os.path.join(wheels, wheel)) as z:
        for name in z.namelist():
            if name.startswith(prefix) and not name.endswith("/"):
                path = os.path.join(out, name[len("jaxlib/include/"):])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with z.open(name) as src, open(path, "wb") as dst:
                    dst.write(src.read())
EOF
  if [ ! -f "$tmp_xla/include/xla/ffi/api/ffi.h" ]; then
    echo "fa4: $jaxlib holds no xla/ffi/api/ffi.h" >&2
    exit 1
  fi
  echo "$jaxlib" > "$tmp_xla/include/WHEEL"
  rm -rf "$xla_ffi"
  mkdir -p .deps
  mv "$tmp_xla/include" "$xla_ffi"
  rm -rf "$tmp_xla"
fi

# The wheel's build tools (pyproject.toml: scikit-build-core, build), in a
# venv of Debian's python3 so that test/python/wheel.test builds and
# installs the wheel without the network.
wheel_venv=.deps/wheel-venv
if ! "$wheel_venv/bin/python" -c "import build, scikit_build_core" \
    2>/dev/null; then
  rm -rf "$wheel_venv"
  /usr/bin/python3 -m venv "$wheel_venv"
  "$wheel_venv/bin/python" -m pip install -q --disable-pip-version-check \
    "scikit-build-core>=0.10" build
fi
