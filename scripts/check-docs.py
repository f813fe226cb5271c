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
  `--kernel=KIND` is a kernel kind fa4-compile takes;
- every FA4_* environment variable the code reads (getenv in C and C++,
  os.environ in Python and lit's config, $FA4_X or FA4_X=... in shell
  scripts, lit RUN lines and CMake's COMMANDs, $ENV{FA4_X} in CMake) is a
  row of docs/Environment.md's table, and every row is one the code reads.
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


ENVIRONMENT_DOC = "docs/Environment.md"
ENV_NAME = r"FA4_[A-Z0-9_]*[A-Z0-9]"
# C and C++: getenv / setenv of a literal name.
C_ENV = re.compile(r"\b(?:secure_getenv|getenv|setenv)\s*\(\s*\"(%s)\""
                   % ENV_NAME)
# Python: os.environ.get("X"), os.environ["X"], env["X"] (a child's
# environment), dict(os.environ, X=...), lit's with_system_environment.
PY_ENV = re.compile(r"\b(?:environ|environment|env)\s*"
                    r"(?:\.(?:get|setdefault|pop)\s*)?"
                    r"[\[(]\s*[\"'](%s)[\"']" % ENV_NAME)
PY_ENV_LISTS = re.compile(r"dict\(\s*os\.environ\s*,([^)]*)\)|"
                          r"with_system_environment\(\s*\[([^\]]*)\]")
# Shell: $X, ${X...}, X=... (an assignment or a command's environment; not
# CMake's -DX=...).
SH_READ = re.compile(r"\$\{?(%s)\b" % ENV_NAME)
SH_ASSIGN = re.compile(r"(?<![\w$-])(%s)=" % ENV_NAME)
CMAKE_ENV = re.compile(r"\$ENV\{(%s)\}" % ENV_NAME)
CODE_SUFFIXES = (".c", ".cc", ".cpp", ".h", ".cu", ".py", ".py.in", ".sh",
                 ".cmake", ".cmake.in", "CMakeLists.txt", ".test", ".mlir")


def environment_reads(name, text):
    """{variable: first line number} of the FA4_* environment variables the
    file `name` reads or hands to a process it starts."""
    found = {}

    def add(variable, number):
        found.setdefault(variable, number)

    shell = name.endswith(".sh") or text.startswith(("#!/bin/sh",
                                                     "#!/usr/bin/env bash",
                                                     "#!/bin/bash"))
    cmake = name.endswith((".cmake", ".cmake.in", "CMakeLists.txt"))
    python = name.endswith((".py", ".py.in"))
    c_family = name.endswith((".c", ".cc", ".cpp", ".h", ".cu"))
    for number, line in enumerate(text.splitlines(), 1):
        if "RUN:" in line:  # a lit RUN line, in any file
            for variable in SH_ASSIGN.findall(line.split("RUN:", 1)[1]):
                add(variable, number)
        if c_family:
            for variable in C_ENV.findall(line):
                add(variable, number)
        if shell:
            code = re.sub(r"(^|\s)#.*", "", line)  # not the comments
            for variable in SH_READ.findall(code) + SH_ASSIGN.findall(code):
                add(variable, number)
        if cmake:
            for variable in CMAKE_ENV.findall(line):
                add(variable, number)
            if "COMMAND" in line:  # a shell command line
                for variable in SH_ASSIGN.findall(line):
                    add(variable, number)
    if python:
        for match in PY_ENV.finditer(text):
            add(match.group(1), text.count("\n", 0, match.start()) + 1)
        for match in PY_ENV_LISTS.finditer(text):
            inside = match.group(1) or match.group(2)
            for variable in re.findall(r"\b(%s)\s*=|[\"'](%s)[\"']"
                                       % (ENV_NAME, ENV_NAME), inside):
                add(variable[0] or variable[1],
                    text.count("\n", 0, match.start()) + 1)
    return found


def environment_problems(files):
    """What docs/Environment.md's table and the code disagree on."""
    read = {}
    for name in files:
        if (name.startswith(("docs/", "bench/log/")) or name.endswith(".md")
                or name == "scripts/check-docs.py"):
            continue
        if not name.endswith(CODE_SUFFIXES):
            with open(os.path.join(ROOT, name), "rb") as f:
                if not f.read(2) == b"#!":  # a script without a suffix
                    continue
        with open(os.path.join(ROOT, name), errors="replace") as f:
            text = f.read()
        for variable, number in environment_reads(name, text).items():
            read.setdefault(variable, f"{name}:{number}")
    documented = {}
    with open(os.path.join(ROOT, ENVIRONMENT_DOC)) as f:
        for number, line in enumerate(f.read().splitlines(), 1):
            row = re.match(r"\|\s*`(%s)`\s*\|" % ENV_NAME, line)
            if row:
                documented.setdefault(row.group(1), number)
    problems = [f"{where}: reads {variable}, which {ENVIRONMENT_DOC}'s "
                f"table lacks" for variable, where in sorted(read.items())
                if variable not in documented]
    problems += [f"{ENVIRONMENT_DOC}:{number}: {variable} is a row, but "
                 f"no code reads it" for variable, number in
                 sorted(documented.items()) if variable not in read]
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
    files = tracked_files()
    problems += environment_problems(files)
    for name in files:
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
