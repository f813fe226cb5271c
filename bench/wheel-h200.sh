#!/usr/bin/env bash
# The wheel as a user meets it, on a GPU machine without the network or the
# compiler: from the repository root, with artifacts/wheel (the wheel built
# here: .deps/wheel-venv/bin/python -m build --wheel --no-isolation
# --outdir artifacts/wheel .) and artifacts/pack (python -m fa4.pack with the
# configurations of the scripts below). It installs the wheel into a fresh
# venv (the machine's own packages, torch and transformers, visible through
# --system-site-packages; no fa4 among them), copies the GPU tests out of
# the repository and runs them there with no PYTHONPATH or FA4_RUNTIME_LIB:
# test/gpu/flash-attn.py, bench/flash_attn_launch.py, test/gpu/hf-models.py.
# Their logs go to $OUT when it is set.
set -o pipefail
export PYTHONUNBUFFERED=1
root=$PWD
out=${OUT:-/tmp/wheel-h200-logs}
mkdir -p "$out"
. bench/wheel-venv.sh
make_wheel_venv || exit 3
tests=$(mktemp -d)
cp test/gpu/flash-attn.py test/gpu/attention_reference.py \
  test/gpu/hf-models.py bench/flash_attn_launch.py "$tests/"
export FA4_CACHE_DIR=$root/artifacts/pack
unset PYTHONPATH FA4_RUNTIME_LIB
cd "$tests" || exit 3
"$env/bin/python" -c "import fa4, torch; print('fa4 from', fa4.__file__);
print('libfa4rt from', fa4.library_path()); print('torch', torch.__version__)"
status=0
"$env/bin/python" flash-attn.py 2>&1 | tee "$out/flash-attn.log" |
  grep -v "^pass" || status=1
"$env/bin/python" flash_attn_launch.py 2>&1 | tee "$out/launch.log" || status=1
"$env/bin/python" hf-models.py 2>&1 | tee "$out/hf.log" |
  grep -v "UserWarning\|warnings.warn" || status=1
exit $status
