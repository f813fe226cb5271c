"""Ahead-of-time compilation through the fa4-compile driver (a subprocess;
no MLIR bindings)."""

import os
import shutil
import subprocess
import tempfile

from .runtime import FA4_ERROR_INVALID_ARGUMENT, Fa4Error, Kernel, _REPO_ROOT

__all__ = ["compile", "find_fa4_compile"]


def find_fa4_compile(fa4_compile=None):
    """The fa4-compile to run: the argument, else $FA4_COMPILE, else the
    repository's build/bin/fa4-compile, else fa4-compile on PATH."""
    for candidate in (
        fa4_compile,
        os.environ.get("FA4_COMPILE"),
        os.path.join(_REPO_ROOT, "build", "bin", "fa4-compile"),
    ):
        if candidate and os.path.isfile(candidate):
            return candidate
    on_path = shutil.which("fa4-compile")
    if on_path:
        return on_path
    raise Fa4Error(
        "fa4-compile not found (pass fa4_compile=, set FA4_COMPILE or build the repository)",
        FA4_ERROR_INVALID_ARGUMENT,
    )


def compile(  # noqa: A001 (the package's verb)
    mlir,
    chip="sm_90a",
    out_dir=None,
    fa4_compile=None,
    kernel="auto",
    ptxas=None,
    name=None,
    extra_args=(),
):
    """Compiles an attn.attention module (MLIR text, or the path of a .mlir
    file) with fa4-compile and returns the loaded Kernel.

    out_dir: where the artifacts go (fa4-compile -o; a new temporary directory
    when None); each function gets out_dir/<kernel name>/. kernel: "auto",
    "hopper", "blackwell" or "reference". ptxas: a ptxas path, or "none" to write PTX only
    (the runtime JITs it); None lets fa4-compile look for one. name: which
    kernel to return when the module has several functions (the kernel name,
    e.g. "fa4_hopper_attention_sm_90a", or a suffix-free prefix of it)."""
    tool = find_fa4_compile(fa4_compile)
    if out_dir is None:
        out_dir = tempfile.mkdtemp(prefix="fa4-")
    out_dir = os.fspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)

    mlir_str = os.fspath(mlir) if isinstance(mlir, os.PathLike) else mlir
    if isinstance(mlir, os.PathLike) or ("\n" not in mlir_str and os.path.isfile(mlir_str)):
        source = mlir_str
    else:
        source = os.path.join(out_dir, "input.mlir")
        with open(source, "w") as f:
            f.write(mlir_str)

    command = [tool, source, "--chip=" + chip, "-o", out_dir, "--quiet"]
    if kernel and kernel != "auto":
        command.append("--kernel=" + kernel)
    if ptxas is not None:
        command.append("--ptxas=" + ptxas)
    command.extend(extra_args)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True)
    if result.returncode != 0:
        raise Fa4Error(
            "fa4-compile failed (exit %d): %s\n%s"
            % (result.returncode, " ".join(command), (result.stderr + result.stdout).strip()),
            FA4_ERROR_INVALID_ARGUMENT,
        )

    # fa4-compile prints "  manifest PATH" for every kernel it wrote.
    manifests = []
    for line in result.stdout.splitlines():
        words = line.split(None, 1)
        if len(words) == 2 and words[0] == "manifest":
            manifests.append(words[1].strip())
    if not manifests:
        raise Fa4Error(
            "fa4-compile wrote no kernel: %s\n%s" % (" ".join(command), result.stdout.strip()),
            FA4_ERROR_INVALID_ARGUMENT,
        )
    if name is not None:
        chosen = [m for m in manifests
                  if os.path.basename(os.path.dirname(m)) == name
                  or os.path.basename(os.path.dirname(m)).startswith(name + "_")]
    else:
        chosen = manifests
    if len(chosen) != 1:
        names = ", ".join(os.path.basename(os.path.dirname(m)) for m in manifests)
        raise Fa4Error(
            ("no kernel named %r among: %s" % (name, names)) if not chosen
            else "the module has several kernels (%s); pass name= to pick one" % names,
            FA4_ERROR_INVALID_ARGUMENT,
        )
    return Kernel.load(chosen[0])
