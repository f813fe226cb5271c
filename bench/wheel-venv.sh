# Sourced by the H200 scripts (bench/wheel-h200.sh,
# bench/device-maps-h200.sh), from the repository root: make_wheel_venv
# installs artifacts/wheel into a fresh venv and sets $env to it. The
# machine's python3 is itself a venv (torch, transformers): a .pth file
# shows the new venv its packages, which --system-site-packages would not.
make_wheel_venv() {
  env=$(mktemp -d)/env
  python3 -m venv "$env" || return 3
  local image_site env_site
  image_site=$(python3 -c "import site; print(site.getsitepackages()[0])")
  env_site=$("$env/bin/python" -c "import site; print(site.getsitepackages()[0])")
  echo "$image_site" > "$env_site/machine-packages.pth"
  "$env/bin/python" -m pip install -q --no-index --no-deps \
    --disable-pip-version-check artifacts/wheel/*.whl || return 3
}
