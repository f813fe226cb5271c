"""Writes OLD and NEW planted-bugs work folders (one Blackwell artifact
each, a few lines of PTX) and a corpus of five bugs for rebase-planted.test:
  OUT/old/base/blackwell/fa4_blackwell_gqa_sm_100a/{manifest.json,k.ptx}
  OUT/new/...                                        (registers renumbered,
                                                      a line inserted, one
                                                      removed)
  OUT/bugs.json
"""
import json
import os
import sys

OLD = """\tmov.b32 \t%r5, 32768;
\tmbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], %r5;
\tcp.async.bulk.tensor.4d [%rd2], [%rd4, {%r6, %r9}], [bar];
\tcp.async.bulk.tensor.4d [%rd3], [%rd4, {%r7, %r9}], [bar];
\tmbarrier.try_wait.parity.shared.b64 P1, [%r10], %r11, 10000000;
\tbar.sync \t1, 256;
\tst.shared.b32 \t[%r12], %r13;
\tmbarrier.try_wait.parity.shared.b64 P1, [%r20], %r21, 10000000;
\tmembar.gl;
"""
NEW = """\tmov.b32 \t%r8, 32768;
\tmbarrier.arrive.expect_tx.shared.b64 %rd5, [bar], %r8;
\tcp.async.bulk.tensor.4d [%rd6], [%rd4, {%r16, %r19}], [bar];
\tadd.s32 \t%r40, %r41, 1;
\tcp.async.bulk.tensor.4d [%rd7], [%rd4, {%r17, %r19}], [bar];
\tmbarrier.try_wait.parity.shared.b64 P1, [%r20], %r21, 10000000;
\tst.shared.b32 \t[%r22], %r23;
\tmbarrier.try_wait.parity.shared.b64 P1, [%r24], %r25, 10000000;
\tmembar.gl;
"""
BUGS = [
    # Unchanged text: kept.
    {"name": "kept", "find": r"^\s*membar\.gl;[ \t]*$", "replace": ""},
    # Registers renumbered: the find and the replace follow.
    {"name": "wait", "find": r"^\s*mbarrier\.try_wait\.parity\.shared\.b64\s+"
     r"P1,\s+\[%r10\],\s+%r11,\s+10000000;[ \t]*$", "replace": "mov.pred P1, 1;"},
    # The replacement names a neighbour's register (%r6, the first box's
    # column), renamed as that neighbour's line is.
    {"name": "coord", "find": r"^\s*cp\.async\.bulk\.tensor\.4d\s+\[%rd3\],\s+"
     r"\[%rd4,\s+\{%r7,\s+%r9\}\],\s+\[bar\];[ \t]*$",
     "replace": "cp.async.bulk.tensor.4d [%rd3], [%rd4, {%r6, %r9}], [bar];"},
    # Its line is gone from the new PTX: lost.
    {"name": "gone", "find": r"^\s*bar\.sync\s+1,\s+256;[ \t]*$", "replace": ""},
    # Its registers now name the other wait's line, where its regex matches
    # once: rebased to its own line's new registers, not kept.
    {"name": "shifted", "find": r"^\s*mbarrier\.try_wait\.parity\.shared\.b64\s+"
     r"P1,\s+\[%r20\],\s+%r21,\s+10000000;[ \t]*$", "replace": "mov.pred P1, 1;"},
]


def write(folder, ptx):
    artifact = os.path.join(folder, "base", "blackwell",
                            "fa4_blackwell_gqa_sm_100a")
    os.makedirs(artifact, exist_ok=True)
    with open(os.path.join(artifact, "manifest.json"), "w") as f:
        json.dump({"binary": {"file": "k.ptx"}}, f)
    with open(os.path.join(artifact, "k.ptx"), "w") as f:
        f.write(ptx)


out = sys.argv[1]
write(os.path.join(out, "old"), OLD)
write(os.path.join(out, "new"), NEW)
with open(os.path.join(out, "bugs.json"), "w") as f:
    json.dump({"about": "fixture", "bugs": [dict(b, kernel="blackwell")
                                            for b in BUGS]}, f, indent=1)
