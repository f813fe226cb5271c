#!/usr/bin/env python3
"""Re-anchors the planted-bug corpus (emu/planted/bugs.json) after a kernel's
PTX changed. Each bug's regex names the registers of one place in the PTX
it was written against, so any change upstream renumbers them and the regex
stops matching. This aligns the old and the new PTX line by line with
register names abstracted (difflib), carries each bug's matched lines over
to their counterparts, and renames the registers of its find and replace
accordingly.

  emu/scripts/rebase-planted.py OLD NEW [--only NAMES] [--write]

OLD and NEW are `planted-bugs.py --work` folders (base/KERNEL/ARTIFACT),
filled by the compiler before and after the change (planted-bugs.py
compiles them; its run stops at the first stale regex, after compiling).
Prints one line per bug: `kept` (its regex still matches once, at the
counterpart of its old place), `rebased`
(the new find matches once), or `lost` (no counterpart: edit it by hand).
--write saves the rebased corpus.
"""
import argparse
import difflib
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location(
    "planted_bugs", os.path.join(ROOT, "emu", "scripts", "planted-bugs.py"))
planted_bugs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(planted_bugs)

REGISTER = re.compile(r"%[a-z]+[0-9]+\b")
# Lines around a bug's match whose registers its replacement may name.
NEIGHBOURHOOD = 24


def ptx_of(work, kernel):
    artifact = planted_bugs.KERNELS[kernel][2]
    folder = os.path.join(work, "base", kernel, artifact)
    with open(os.path.join(folder, "manifest.json")) as f:
        name = json.load(f)["binary"]["file"]
    with open(os.path.join(folder, name)) as f:
        return f.read()


def normalized(line):
    return REGISTER.sub("%R", line.strip())


class Alignment:
    """Old line index -> new line index, from difflib's equal blocks, and
    for lines in changed blocks the same normalized line at the same rank
    after the nearest aligned line above."""

    def __init__(self, old, new):
        self.old, self.new = old, new
        self.old_norm = [normalized(line) for line in old]
        self.new_norm = [normalized(line) for line in new]
        matcher = difflib.SequenceMatcher(None, self.old_norm, self.new_norm,
                                          autojunk=False)
        self.mapped = {}
        for tag, i1, i2, j1, _ in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    self.mapped[i1 + k] = j1 + k

    def line(self, i):
        if i in self.mapped:
            return self.mapped[i]
        anchor = max((k for k in self.mapped if k < i), default=-1)
        start = self.mapped.get(anchor, -1) + 1
        rank = self.old_norm[anchor + 1:i].count(self.old_norm[i])
        for j in range(start, min(len(self.new), start + 4000)):
            if self.new_norm[j] == self.old_norm[i]:
                if rank == 0:
                    return j
                rank -= 1
        return None


def renamed(text, renames):
    return REGISTER.sub(lambda m: renames.get(m.group(0), m.group(0)), text)


def rebase(bug, old_text, new_text, alignment):
    """('kept' | 'rebased' | 'lost', bug). A bug is kept only where its one
    match in the new PTX is the counterpart of its match in the old: after
    a renumbering, its registers may name another place."""
    flags = re.M
    match = re.search(bug["find"], old_text, flags)
    matches = list(re.finditer(bug["find"], new_text, flags))
    if len(matches) == 1 and (
            not match or alignment.line(old_text.count("\n", 0, match.start()))
            == new_text.count("\n", 0, matches[0].start())):
        return "kept", bug
    if not match:
        return "lost", bug
    first = old_text.count("\n", 0, match.start())
    last = old_text.count("\n", 0, match.end())
    renames = {}
    for i in range(first, last + 1):
        j = alignment.line(i)
        if j is None:
            return "lost", bug
        before = REGISTER.findall(alignment.old[i])
        after = REGISTER.findall(alignment.new[j])
        if len(before) != len(after):
            return "lost", bug
        for a, b in zip(before, after):
            if renames.setdefault(a, b) != b:
                return "lost", bug
    # Registers the replacement names but the find does not (an operand
    # taken from a neighbouring instruction): renamed as the aligned lines
    # around the match rename them.
    extra = set(REGISTER.findall(bug["replace"])) - set(renames)
    for i in range(max(0, first - NEIGHBOURHOOD),
                   min(len(alignment.old), last + NEIGHBOURHOOD + 1)):
        j = alignment.mapped.get(i)
        if j is None or not extra:
            continue
        for a, b in zip(REGISTER.findall(alignment.old[i]),
                        REGISTER.findall(alignment.new[j])):
            if a in extra:
                renames[a] = b
                extra.discard(a)
    if extra:
        return "lost", bug
    rebased = dict(bug, find=renamed(bug["find"], renames),
                   replace=renamed(bug["replace"], renames))
    if len(re.findall(rebased["find"], new_text, flags)) != 1:
        return "lost", bug
    return "rebased", rebased


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--bugs", default=os.path.join(
        ROOT, "emu", "planted", "bugs.json"))
    parser.add_argument("--only", help="comma-separated bug names")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    with open(args.bugs) as f:
        corpus = json.load(f)
    bugs = corpus if isinstance(corpus, list) else corpus["bugs"]
    only = set(args.only.split(",")) if args.only else None
    texts, alignments, lost = {}, {}, 0
    for index, bug in enumerate(bugs):
        if only and bug["name"] not in only:
            continue
        kernel = bug["kernel"]
        if kernel not in texts:
            texts[kernel] = (ptx_of(args.old, kernel), ptx_of(args.new, kernel))
            alignments[kernel] = Alignment(texts[kernel][0].split("\n"),
                                           texts[kernel][1].split("\n"))
        status, bugs[index] = rebase(bug, *texts[kernel], alignments[kernel])
        lost += status == "lost"
        print(f"{status:8} {bug['name']}")
    if args.write:
        with open(args.bugs, "w") as f:
            json.dump(corpus, f, indent=1)
            f.write("\n")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
