#!/usr/bin/env python3
"""Basic-block coverage of PTX kernels run on fa4-emu.

fa4-emu with FA4_EMU_COVERAGE=FILE appends to FILE, per kernel launched, the
count of warp instructions executed at each PTX line that holds an
instruction, and keeps each module's PTX as FILE.ptx/HASH.ptx
(docs/Emulator.md, "Coverage"). This script sums the counts of any number
of such files (launches and processes alike), splits each kernel into
basic blocks (a block starts at the first instruction, after a label and
after a branch, ret, exit or trap) and reports per kernel the blocks
executed and those never executed, with their PTX lines. Two reasons are
told mechanically and counted rather than listed: "not launched" (a
kernel of a loaded module that no launch ran) and "wait retry" (the back
edge of an inline-asm mbarrier wait loop, taken only when a try_wait
fails).

  emu/scripts/coverage.py /tmp/cov.txt [--ptx-dir DIR] [--kernel REGEX]
                          [--quiet] [--json OUT] [--block-with REGEX ...]
"""

import argparse
import collections
import json
import os
import re
import sys

LABEL = re.compile(r"^\s*([A-Za-z_$%][\w$]*)\s*:")
GUARD = re.compile(r"^@!?%?\w+\s+")
TERMINATORS = ("bra", "ret", "exit", "trap")


def read_counts(paths):
    """{(kernel, hash): {line: count}} summed over every record."""
    counts = collections.defaultdict(collections.Counter)
    for path in paths:
        key = None
        with open(path) as f:
            for number, text in enumerate(f, 1):
                words = text.split()
                if not words:
                    continue
                if words[0] == "kernel" and len(words) == 3:
                    key = (words[1], words[2])
                    counts[key]  # a kernel with every count 0 still shows
                elif len(words) == 2 and key is not None:
                    counts[key][int(words[0])] += int(words[1])
                else:
                    sys.exit("%s:%d: not a coverage record: %r"
                             % (path, number, text))
    return counts


def opcode(text):
    """The opcode of an instruction line ("bra.uni"), without its guard."""
    text = text.split("//", 1)[0].strip()
    text = GUARD.sub("", text)
    return text.split()[0] if text else ""


def blocks(ptx_lines, instruction_lines):
    """The basic blocks of one kernel: (label, [instruction line numbers]).

    `instruction_lines` are the lines the emulator decoded as instructions;
    the PTX text says where the labels are. `label` is the block's label,
    "" for the first block and one that follows a branch without one."""
    result = []
    previous = None
    for line in sorted(instruction_lines):
        label = None
        start = 1 if previous is None else previous + 1
        for between in range(start, line + 1):
            match = LABEL.match(ptx_lines[between - 1])
            if match:
                label = match.group(1)
        leader = previous is None or label is not None
        if previous is not None:
            leader |= opcode(ptx_lines[previous - 1]).split(".")[0] in TERMINATORS
        if leader:
            result.append((label or "", []))
        result[-1][1].append(line)
        previous = line
    return result


# Why a block did not run, where the reason is mechanical; None otherwise.
NOT_LAUNCHED = "not launched"
RETRY = "wait retry"


def reason(entry, ptx_lines, block):
    if entry["warp_instructions"] == 0:
        return NOT_LAUNCHED
    # An inline-asm wait loop (LAB_WAIT: try_wait; @P bra DONE; bra
    # LAB_WAIT): its back edge runs only when the try_wait fails, i.e. the
    # warp got there before the phase completed.
    text = ptx_lines[block[0] - 1].split("//", 1)[0].split()
    if len(block) == 1 and text[:1] == ["bra.uni"] and \
            text[-1].rstrip(";") == "LAB_WAIT":
        return RETRY
    return None


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("coverage", nargs="+",
                        help="files FA4_EMU_COVERAGE wrote")
    parser.add_argument("--ptx-dir",
                        help="where the modules' PTX is (default: each "
                        "coverage file's FILE.ptx)")
    parser.add_argument("--kernel", default="",
                        help="only kernels whose name matches this regex")
    parser.add_argument("--quiet", action="store_true",
                        help="the summary line per kernel only")
    parser.add_argument("--json", help="also write the report as JSON here")
    parser.add_argument("--block-with", action="append", default=[],
                        metavar="REGEX",
                        help="instead of the report, every block with an "
                        "instruction matching each such regex, and the warp "
                        "instructions executed at its first line")
    args = parser.parse_args()

    ptx_dirs = ([args.ptx_dir] if args.ptx_dir else
                [path + ".ptx" for path in args.coverage])
    counts = read_counts(args.coverage)
    report = []
    kernel_filter = re.compile(args.kernel)
    for (kernel, module), lines in sorted(counts.items()):
        if not kernel_filter.search(kernel):
            continue
        paths = [os.path.join(d, module + ".ptx") for d in ptx_dirs]
        path = next((p for p in paths if os.path.exists(p)), None)
        if not path:
            sys.exit("coverage.py: %s: no PTX for module %s (in %s)"
                     % (kernel, module, ", ".join(ptx_dirs)))
        with open(path) as f:
            ptx_lines = f.read().split("\n")
        kernel_blocks = blocks(ptx_lines, lines.keys())
        if args.block_with:
            for label, block in kernel_blocks:
                text = [ptx_lines[line - 1] for line in block]
                if all(any(re.search(pattern, t) for t in text)
                       for pattern in args.block_with):
                    print("%s %s: block at lines %d-%d executed %d times"
                          % (kernel, module, block[0], block[-1],
                             lines[block[0]]))
            continue
        missed = [(label, b) for label, b in kernel_blocks
                  if max(lines[l] for l in b) == 0]
        entry = {
            "kernel": kernel,
            "module": module,
            "blocks": len(kernel_blocks),
            "executed": len(kernel_blocks) - len(missed),
            "warp_instructions": sum(lines.values()),
            "unexecuted": [],
        }
        for label, block in missed:
            shown = [ptx_lines[line - 1].strip() for line in block[:3]]
            entry["unexecuted"].append({
                "lines": [block[0], block[-1]], "label": label,
                "first": shown,
                "reason": reason(entry, ptx_lines, block)})
        report.append(entry)

    if args.block_with:
        return
    for entry in report:
        reasons = collections.Counter(b["reason"] or "other"
                                      for b in entry["unexecuted"])
        print("%s %s: %d of %d blocks executed (%d warp instructions)%s"
              % (entry["kernel"], entry["module"], entry["executed"],
                 entry["blocks"], entry["warp_instructions"],
                 "".join("; %s: %d" % item for item in sorted(
                     reasons.items()))))
        if args.quiet:
            continue
        for block in entry["unexecuted"]:
            if block["reason"]:
                continue
            first, last = block["lines"]
            print("  never executed: lines %d-%d%s" %
                  (first, last,
                   " (" + block["label"] + ")" if block["label"] else ""))
            for text in block["first"]:
                print("    " + text)
    total = sum(e["blocks"] for e in report)
    executed = sum(e["executed"] for e in report)
    print("coverage: %d kernels, %d of %d blocks executed"
          % (len(report), executed, total))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
