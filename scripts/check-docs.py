#!/usr/bin/env python3
"""Checks what the project says of itself (issue: a project a newcomer can
read):
- no "session N" / "call N" outside the dated log (bench/log/): the project
  speaks in dates, commits and decision IDs;
- every repository path that code, tests, scripts or docs cite exists;
- every decision ID cited (D-12) is an entry of docs/Decisions.md;
- in the docs (Markdown), every fa4 pass named (attn-*, convert-attn-*,
  convert-fa4-*) is one the code registers, every option given to one
  (`pass{option=...}`, `--pass=option=...`) is one it has, and every
  `--kernel=KIND` is a kernel kind fa4-compile takes.
Exits non-zero, naming each file and line, when one is broken.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HISTORY = re.compile(r"\bsessions?\b|\bcalls? [0-9]", re.IGNORECASE)
# A path under one of the project's top-level folders, or a top-level file.
PATH = re.compile(
    r"(?<![\w./-])((?:docs|bench|scripts|lib|include|tools|runtime|python|"
    r"test|unittests|examples)/[\w./+-]*[\w+-]|README\.md|DESIGN\.md)")
DECISION = re.compile(r"\bD-(\d+)\b")
# An fa4 pass named in prose or a command, with its options where given.
PASS_NAME = re.compile(
    r"(?<![\w/.-])((?:attn|convert-attn|convert-fa4)-[a-z0-9-]*[a-z0-9])"
    r"(?:\{([^}]*)\}|=([\w-]+)=)?(?![\w/.])")
KERNEL_KIND = re.compile(r"--kernel=([a-z]+)")
KERNEL_KINDS = {"auto", "hopper", "blackwell", "reference"}


def registered_passes():
    """{pass or pipeline name: its option names}, from the Passes.td files
    and the pipelines' registrations (a pipeline takes its passes' options,
    include/fa4/Dialect/Attn/Transforms/Passes.h)."""
    passes = {}
    every_option = set()
    for td in subprocess.run(["git", "ls-files", "*Passes.td"], cwd=ROOT,
                             check=True, capture_output=True,
                             text=True).stdout.split():
        with open(os.path.join(ROOT, td)) as f:
            text = f.read()
        for block in re.split(r"\ndef ", text)[1:]:
            name = re.match(r"\w+\s*:\s*Pass<\"([\w-]+)\"", block)
            if name:
                options = set(re.findall(
                    r"(?:List)?Option<\"\w+\",\s*\"([\w-]+)\"", block))
                passes[name.group(1)] = options
                every_option |= options
    for source in ("lib/Pipelines/Compile.cpp",
                   "lib/Dialect/Attn/Transforms/PlanPipeline.cpp"):
        with open(os.path.join(ROOT, source)) as f:
            for name in re.findall(r"PassPipelineRegistration<\w*>\(\s*"
                                   r"\"([\w-]+)\"", f.read()):
                passes[name] = every_option
    return passes


def pass_problems(line, passes):
    """What `line` says of fa4's passes that the code does not have."""
    problems = []
    for name, braced, inline in PASS_NAME.findall(line):
        if name not in passes:
            problems.append(f"names the pass {name}, which the code does "
                            f"not register")
            continue
        given = braced.split() if braced else [inline] if inline else []
        for option in given:
            option = option.split("=", 1)[0].strip(",")
            if option and option != "..." and option not in passes[name]:
                problems.append(f"gives {name} the option {option}, which "
                                f"it does not have")
    for kind in KERNEL_KIND.findall(line):
        if kind not in KERNEL_KINDS:
            problems.append(f"names the kernel kind {kind}, which "
                            f"fa4-compile does not take")
    return problems


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return [f for f in out.splitlines()
            if os.path.isfile(os.path.join(ROOT, f))]


def cited_path_exists(path, citing_file):
    if path == "DESIGN.md":
        return False  # the team's page lives outside the project
    path = path.rstrip(".")
    # Placeholders and build outputs are not files of the repository.
    if any(c in path for c in "<>*{}") or path.startswith(
            ("build/", "artifacts/")) or path.endswith(".inc"):
        return True
    candidates = [os.path.join(ROOT, path)]
    # A path relative to the citing file's folder (docs cite Design.md).
    candidates.append(os.path.join(ROOT, os.path.dirname(citing_file), path))
    return any(os.path.exists(c) for c in candidates)


def main():
    with open(os.path.join(ROOT, "docs", "Decisions.md")) as f:
        decisions = set(re.findall(r"^## D-(\d+)\b", f.read(), re.MULTILINE))
    problems = []
    passes = registered_passes()
    for name in tracked_files():
        if name.startswith("bench/log/") or not name.endswith(
                (".cpp", ".h", ".td", ".py", ".sh", ".md", ".mlir", ".txt",
                 ".cmake", ".in", ".json")) and "/" in name:
            continue
        if name == "scripts/check-docs.py":
            continue
        with open(os.path.join(ROOT, name), errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            where = f"{name}:{number}"
            if HISTORY.search(line):
                problems.append(f"{where}: history outside bench/log/: "
                                f"{line.strip()[:80]}")
            for path in PATH.findall(line):
                if "://" in line and path in line.split("://", 1)[1]:
                    continue
                if not cited_path_exists(path, name):
                    problems.append(f"{where}: cites {path}, which is not in "
                                    f"the repository")
            if name.endswith(".md"):
                problems += [f"{where}: {problem}"
                             for problem in pass_problems(line, passes)]
            if name != "docs/Decisions.md":
                for number_text in DECISION.findall(line):
                    if number_text not in decisions:
                        problems.append(f"{where}: cites D-{number_text}, "
                                        f"which docs/Decisions.md lacks")
    for problem in problems:
        print(problem)
    print(f"check-docs: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
