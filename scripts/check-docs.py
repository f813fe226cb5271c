#!/usr/bin/env python3
"""Checks what the project says of itself (issue: a project a newcomer can
read):
- no "session N" / "call N" outside the dated log (bench/log/): the project
  speaks in dates, commits and decision IDs;
- every repository path that code, tests, scripts or docs cite exists;
- every decision ID cited (D-12) is an entry of docs/Decisions.md.
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
