# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FA4"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".py", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fa4_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "gpu",
                   "consumer"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%fa4_obj_root", config.fa4_obj_root))
# tools/raise-oracle.py runs modules with LLVM's mlir-opt and mlir-runner
# and the runner libraries beside them.
config.substitutions.append(("%fa4_src_root",
                             os.path.dirname(os.path.dirname(__file__))))
config.substitutions.append(("%llvm_root",
                             os.path.dirname(config.llvm_tools_dir)))
# fa4-emu's schedule, rules and coverage file pass through, so that the
# emulator tests run under them (docs/Emulator.md).
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "FA4_EMU_LAGGARD",
                                    "FA4_EMU_SCHEDULE", "FA4_EMU_RULES",
                                    "FA4_EMU_COVERAGE"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.fa4_tools_dir, config.llvm_tools_dir]
tools = ["fa4-opt", "fa4-compile", "FileCheck", "not", "count", "split-file"]
# `REQUIRES: ptxas` tests check what only ptxas reports (registers, spills,
# its advisories); everything else runs with --ptxas=none. Without ptxas
# those tests would be UNSUPPORTED, which lit counts as passing, so a missing
# ptxas fails the suite unless FA4_ALLOW_NO_PTXAS=1 asks for the skip.
if config.fa4_ptxas and os.access(config.fa4_ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.fa4_ptxas))
elif os.environ.get("FA4_ALLOW_NO_PTXAS") == "1":
    lit_config.warning(
        "no ptxas (FA4_PTXAS_EXECUTABLE=%r): the REQUIRES: ptxas tests are "
        "skipped (FA4_ALLOW_NO_PTXAS=1)" % config.fa4_ptxas)
else:
    lit_config.fatal(
        "no ptxas (FA4_PTXAS_EXECUTABLE=%r): run scripts/install-deps.sh "
        "(without /usr/local/cuda it fetches CUDA 13's ptxas from PyPI into "
        ".deps/cuda), then scripts/build.sh; or set FA4_ALLOW_NO_PTXAS=1 to "
        "skip the REQUIRES: ptxas tests" % config.fa4_ptxas)
# fa4-emu (docs/Emulator.md): kernels run on the CPU through its driver shim,
# with the runtime's fa4-run.
config.fa4_emu_lib = os.path.join(config.fa4_obj_root, "emu", "libfa4emu.so")
if os.path.exists(config.fa4_emu_lib):
    config.available_features.add("fa4-emu")
    config.substitutions.append(("%fa4emu", config.fa4_emu_lib))
    tools.append("fa4-run")
elif getattr(config, "fa4_build_runtime", False):
    lit_config.fatal("FA4_BUILD_RUNTIME is ON but %s is missing: build it "
                     "(ninja fa4emu)" % config.fa4_emu_lib)
if os.path.exists(os.path.join(config.fa4_tools_dir, "fa4-capi-test")):
    config.available_features.add("fa4-capi")
    tools.append("fa4-capi-test")
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Python tests (test/python): the fa4 package from python/, on the runtime
# library of this build. llvm_config.use_default_substitutions() already
# provides %python (lit's own sys.executable). A build configured with the
# runtime (FA4_BUILD_RUNTIME, the default) must have it: its tests are not
# skipped for a library that is missing. (A site config written before
# fa4_build_runtime existed counts as OFF.)
config.fa4_runtime_lib = os.path.join(config.fa4_obj_root, "runtime", "libfa4rt.so")
if os.path.exists(config.fa4_runtime_lib):
    config.available_features.add("fa4-runtime")
    config.environment["FA4_RUNTIME_LIB"] = config.fa4_runtime_lib
elif getattr(config, "fa4_build_runtime", False):
    lit_config.fatal(
        "FA4_BUILD_RUNTIME is ON but %s is missing: build it (ninja fa4rt)"
        % config.fa4_runtime_lib)
# torch, where lit's Python has it (CI's has not): test/python/
# serving-torch.test checks the serving calls' Python side on the CPU.
import importlib.util
if importlib.util.find_spec("torch") is not None:
    config.available_features.add("torch")
# transformers, likewise (test/python/backward-torch.test trains a Llama).
if importlib.util.find_spec("transformers") is not None:
    config.available_features.add("transformers")

# The wheel (pyproject.toml) built and installed into a fresh venv, with
# the build tools scripts/install-deps.sh put into .deps/wheel-venv.
config.fa4_source_root = os.path.dirname(config.test_source_root)
wheel_python = os.path.join(config.fa4_source_root, ".deps", "wheel-venv",
                            "bin", "python")
if os.access(wheel_python, os.X_OK):
    config.available_features.add("wheel-tools")
    config.substitutions.append(("%wheelpython", wheel_python))
    config.substitutions.append(("%fa4src", config.fa4_source_root))
elif os.environ.get("FA4_ALLOW_NO_WHEEL_TOOLS") == "1":
    lit_config.warning("no %s: test/python/wheel.test is skipped "
                       "(FA4_ALLOW_NO_WHEEL_TOOLS=1)" % wheel_python)
else:
    lit_config.fatal("no %s: run scripts/install-deps.sh (it makes that venv "
                     "with the wheel's build tools), or set "
                     "FA4_ALLOW_NO_WHEEL_TOOLS=1 to skip the wheel's test"
                     % wheel_python)
config.environment["PYTHONPATH"] = os.pathsep.join(
    [os.path.join(os.path.dirname(config.test_source_root), "python")]
    + ([config.environment["PYTHONPATH"]] if config.environment.get("PYTHONPATH") else [])
)
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
