#!/usr/bin/env python3
"""Finds cycles between the source files of each library under lib/.

File A depends on file B when A calls a function that B defines: a member
`Class::name(...)` defined in B and called as `name(` in A, where A also
names `Class`, or a free function `fa4::name(...)` (or `fa4::ns::name`)
defined in B and called in A. Headers are where the interface lives, so they
are not nodes: two .cpp files that call into each other are one unit split in
two, and should be one file or two with a direction (docs/Testing.md).

Also checks #include cycles among lib/ and include/ headers.

Prints each cycle and exits 1 if there is one; `--quiet` prints nothing on
success. Name matching is lexical, so a common name defined twice in one
library (`build`) is only counted where the caller names its class too.
"""
import argparse
import pathlib
import re
import sys

DEFINITION = re.compile(
    r"^[^\s/#][^;{}()]*?\b(?:(?P<cls>[A-Z]\w*)|fa4(?:::\w+)*)::(?P<name>~?\w+)\s*\(",
    re.MULTILINE)
INCLUDE = re.compile(r'^#include\s+"([^"]+)"', re.MULTILINE)
COMMENT = re.compile(r"//.*?$|/\*.*?\*/", re.MULTILINE | re.DOTALL)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def strip(text):
    return STRING.sub('""', COMMENT.sub("", text))


def definitions(text):
    """{(class or None, name)} of the functions `text` defines."""
    found = set()
    for match in DEFINITION.finditer(text):
        # A definition has its body next: `{` before the next `;`.
        rest = text[match.end():]
        brace, semi = rest.find("{"), rest.find(";")
        if brace != -1 and (semi == -1 or brace < semi):
            found.add((match.group("cls"), match.group("name")))
    return found


def call_graph(files):
    texts = {f: strip(f.read_text()) for f in files}
    defined = {f: definitions(t) for f, t in texts.items()}
    graph = {f: set() for f in files}
    for caller, text in texts.items():
        for callee, names in defined.items():
            if callee == caller:
                continue
            for cls, name in names:
                if name.startswith("~") or name in ("get", "build"):
                    continue
                if cls and not re.search(rf"\b{cls}\b", text):
                    continue
                if (cls, name) in defined[caller]:
                    continue
                if re.search(rf"(?<![\w.>:])(?:this->)?{name}\s*\(", text):
                    graph[caller].add(callee)
                    break
    return graph


def include_graph(root):
    headers = list((root / "lib").rglob("*.h")) + list(
        (root / "include").rglob("*.h"))
    graph = {h: set() for h in headers}
    for header in headers:
        for name in INCLUDE.findall(header.read_text()):
            for candidate in (header.parent / name, root / "include" / name):
                if candidate in graph:
                    graph[header].add(candidate)
                    break
    return graph


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in graph[node]:
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in graph:
        if node not in index:
            visit(node)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", default=pathlib.Path(__file__).parent.parent,
                        type=pathlib.Path)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    root = args.root.resolve()
    problems = []
    for library in sorted({p.parent for p in (root / "lib").rglob("*.cpp")}):
        graph = call_graph(sorted(library.glob("*.cpp")))
        for component in cycles(graph):
            problems.append("call cycle: " + " <-> ".join(
                str(f.relative_to(root)) for f in component))
    for component in cycles(include_graph(root)):
        problems.append("include cycle: " + " <-> ".join(
            str(f.relative_to(root)) for f in component))
    for problem in problems:
        print(problem)
    if not args.quiet or problems:
        print(f"file-cycles: {len(problems)} cycle(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
