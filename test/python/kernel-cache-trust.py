# The kernel cache does not trust its directory (fa4.cache), no GPU: an
# entry is used only when it describes the problem asked for, so an entry
# swapped in under another problem's name (a copy, a link, a manifest from
# another kernel) is compiled again, or refused where no compiler is; a
# corrupt entry.json or truncated manifest is compiled again; a read-only or
# misplaced cache directory is a clear error naming it; the transformers
# scale d ** -0.5 finds the kernel a pack built with the default; and
# fa4.pack refuses malformed scales with a message.
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && mkdir -p %t && %python %s %t fa4-compile | FileCheck %s

import json
import os
import shutil
import stat
import subprocess
import sys

from fa4 import cache
from fa4.flash import _compile_into, problem_of_shapes
from fa4.runtime import Fa4Error

root, tool = sys.argv[1], shutil.which(sys.argv[2]) or sys.argv[2]

# A compiler that counts its runs, then runs the real one.
log = os.path.join(root, "compiles.log")
counting = os.path.join(root, "fa4-compile-counting")
with open(counting, "w") as f:
    f.write("#!/bin/sh\necho run >> %s\nexec %s \"$@\"\n" % (log, tool))
os.chmod(counting, os.stat(counting).st_mode | stat.S_IEXEC)


def compiles():
    return len(open(log).read().split()) if os.path.exists(log) else 0


store = os.path.join(root, "cache")


def build(problem, directory=store):
    """The entry, compiled when it cannot be used; and how many compiles."""
    before = compiles()
    manifest = cache.entry(problem, counting, directory=directory,
                           compile_fn=_compile_into(counting))
    return manifest, compiles() - before


def load_only(problem, directory=store):
    """The entry without a compiler (a kernel pack): its mask, or the error."""
    try:
        manifest = cache.entry(problem, None, directory=directory)
        return json.load(open(manifest))["problem"]["mask"]["kind"]
    except Fa4Error as error:
        return "Fa4Error: %s" % error


def mask_of(manifest):
    return json.load(open(manifest))["problem"]["mask"]["kind"]


causal = cache.Problem("sm_90a", "bf16", 8, 2, 128, 128, "causal")
none = cache.Problem("sm_90a", "bf16", 8, 2, 128, 128, "none")
causal_dir = os.path.join(store, cache.problem_key(causal))
none_dir = os.path.join(store, cache.problem_key(none))
build(causal)
build(none)
pristine = os.path.join(root, "pristine")
shutil.copytree(causal_dir, pristine)


def restore():
    """The causal entry as it was compiled."""
    if os.path.islink(causal_dir) or os.path.isfile(causal_dir):
        os.unlink(causal_dir)
    else:
        shutil.rmtree(causal_dir, ignore_errors=True)
    shutil.copytree(pristine, causal_dir)


# The no-mask entry copied whole under the causal key: refused without a
# compiler, compiled again with one.
shutil.rmtree(causal_dir)
shutil.copytree(none_dir, causal_dir)
# CHECK: swapped copy, no compiler: Fa4Error: kernel cache entry {{.*}}cache/{{[0-9a-f]+}} cannot be used for {{.*}}"mask": "causal"{{.*}}: its entry.json is for another problem, {{.*}}"mask": "none"{{.*}} Remove it and rebuild the kernel pack (python -m fa4.pack), or install fa4-compile so that fa4 rebuilds it
print("swapped copy, no compiler: %s" % load_only(causal))
manifest, count = build(causal)
# CHECK-NEXT: swapped copy, compiler: 1 compile, causal
print("swapped copy, compiler: %d compile, %s" % (count, mask_of(manifest)))

# A link to the no-mask entry under the causal key: the same; the linked
# entry itself is left as it was.
shutil.rmtree(causal_dir)
os.symlink(none_dir, causal_dir)
# CHECK-NEXT: swapped link, no compiler: Fa4Error: {{.*}}its entry.json is for another problem
print("swapped link, no compiler: %s" % load_only(causal).split(" Remove")[0])
manifest, count = build(causal)
# CHECK-NEXT: swapped link, compiler: 1 compile, causal, a directory True; the no-mask entry: none
print("swapped link, compiler: %d compile, %s, a directory %s; the no-mask "
      "entry: %s" % (count, mask_of(manifest), not os.path.islink(causal_dir),
                     load_only(none)))

# Only the kernel swapped (manifest and binaries), entry.json kept: its
# files' hashes no longer match.
restore()
kernel_dir = os.path.dirname(cache.entry(causal, None, directory=store))
other_kernel = os.path.dirname(cache.entry(none, None, directory=store))
shutil.rmtree(kernel_dir)
shutil.copytree(other_kernel,
                os.path.join(causal_dir, os.path.basename(other_kernel)))
# CHECK-NEXT: swapped kernel: Fa4Error: {{.*}}: its fa4_hopper_{{.*}} changed since it was written (SHA-256)
print("swapped kernel: %s" % load_only(causal).split(" Remove")[0])

# An entry.json that claims the causal problem over the no-mask kernel, with
# no list of files (as fa4 wrote before the list): the manifest says what
# the kernel is.
shutil.rmtree(causal_dir)
shutil.copytree(none_dir, causal_dir)
record = json.load(open(os.path.join(causal_dir, "entry.json")))
record["problem"] = causal.as_dict()
del record["files"]
json.dump(record, open(os.path.join(causal_dir, "entry.json"), "w"))
# CHECK-NEXT: manifest of another kernel: Fa4Error: {{.*}}: its manifest has problem.mask.kind "none"; asked for "causal"
print("manifest of another kernel: %s" % load_only(causal).split(". Remove")[0])
manifest, count = build(causal)
# CHECK-NEXT: manifest of another kernel, compiler: 1 compile, causal
print("manifest of another kernel, compiler: %d compile, %s"
      % (count, mask_of(manifest)))

# Every field of the manifest's problem is checked.
for path, value in [("chip", "sm_100a"), ("problem.dtype", "f16"),
                    ("problem.num_q_heads", 16), ("problem.num_kv_heads", 8),
                    ("problem.qk_depth", 64), ("problem.ov_depth", 64),
                    ("problem.scale", 0.125), ("problem.has_lse", False),
                    ("problem.seq_kv", 7), ("kernel", "fa4_ref_gqa_sm_90a")]:
    restore()
    manifest = cache.entry(causal, None, directory=store)
    described = json.load(open(manifest))
    node = described
    names = path.split(".")
    for name in names[:-1]:
        node = node[name]
    node[names[-1]] = value
    json.dump(described, open(manifest, "w"))
    record = json.load(open(os.path.join(causal_dir, "entry.json")))
    del record["files"]
    json.dump(record, open(os.path.join(causal_dir, "entry.json"), "w"))
    # CHECK-NEXT: field chip: Fa4Error: {{.*}}: its manifest has chip "sm_100a"; asked for "sm_90a"
    # CHECK-NEXT: field problem.dtype: Fa4Error: {{.*}}: its manifest has problem.dtype "f16"; asked for "bf16"
    # CHECK-NEXT: field problem.num_q_heads: Fa4Error: {{.*}}: its manifest has problem.num_q_heads 16; asked for 8
    # CHECK-NEXT: field problem.num_kv_heads: Fa4Error: {{.*}}: its manifest has problem.num_kv_heads 8; asked for 2
    # CHECK-NEXT: field problem.qk_depth: Fa4Error: {{.*}}: its manifest has problem.qk_depth 64; asked for 128
    # CHECK-NEXT: field problem.ov_depth: Fa4Error: {{.*}}: its manifest has problem.ov_depth 64; asked for 128
    # CHECK-NEXT: field problem.scale: Fa4Error: {{.*}}: its manifest has problem.scale 0.125; asked for 0.0883883{{[0-9]+}} (f32 0x3DB504F3)
    # CHECK-NEXT: field problem.has_lse: Fa4Error: {{.*}}: its manifest has problem.has_lse false; asked for true
    # CHECK-NEXT: field problem.seq_kv: Fa4Error: {{.*}}: its manifest has problem.seq_kv 7; asked for -1
    # CHECK-NEXT: field kernel: Fa4Error: {{.*}}: its manifest has kernel "fa4_ref_gqa_sm_90a"; asked for kernel=auto on sm_90a (fa4_hopper_*)
    print("field %s: %s" % (path, load_only(causal).split(". Remove")[0]))

# A corrupt entry.json: never a raw JSONDecodeError or AttributeError.
for text in ["{not json", "[]", '{"problem": 3}', '{"problem": {}, '
             '"compiler": 5, "layout": 1}', "\xff"]:
    restore()
    with open(os.path.join(causal_dir, "entry.json"), "w",
              encoding="latin-1") as f:
        f.write(text)
    refused = load_only(causal).split(" for {")[0]
    manifest, count = build(causal)
    # CHECK-NEXT: corrupt entry.json '{not json': Fa4Error: kernel cache entry {{.*}}, 1 compile, causal
    # CHECK-NEXT: corrupt entry.json '[]': Fa4Error: kernel cache entry {{.*}}, 1 compile, causal
    # CHECK-NEXT: corrupt entry.json '{"problem": 3}': Fa4Error: kernel cache entry {{.*}}, 1 compile, causal
    # CHECK-NEXT: corrupt entry.json '{"problem": {}, "compiler": 5, "layout": 1}': Fa4Error: kernel cache entry {{.*}}, 1 compile, causal
    # CHECK-NEXT: corrupt entry.json '\xff': Fa4Error: kernel cache entry {{.*}}, 1 compile, causal
    print("corrupt entry.json %s: %s, %d compile, %s"
          % (ascii(text), refused, count, mask_of(manifest)))

# A truncated manifest, with and without the list of files: compiled again.
for keep_files in [True, False]:
    restore()
    manifest = cache.entry(causal, None, directory=store)
    text = open(manifest).read()
    open(manifest, "w").write(text[:len(text) // 2])
    if not keep_files:
        record = json.load(open(os.path.join(causal_dir, "entry.json")))
        del record["files"]
        json.dump(record, open(os.path.join(causal_dir, "entry.json"), "w"))
    refused = load_only(causal)
    manifest, count = build(causal)
    whole = json.load(open(manifest))["problem"]["mask"]["kind"]
    # CHECK-NEXT: truncated manifest (files listed True): changed since it was written, 1 compile, causal
    # CHECK-NEXT: truncated manifest (files listed False): its manifest.json cannot be read, 1 compile, causal
    print("truncated manifest (files listed %s): %s, %d compile, %s"
          % (keep_files, "changed since it was written" if "changed since" in
             refused else "its manifest.json cannot be read" if
             "manifest.json cannot be read" in refused else refused,
             count, whole))

# A misplaced cache directory: FA4_CACHE_DIR names a file, or a path under
# one.
a_file = os.path.join(root, "a-file")
open(a_file, "w").write("not a directory\n")
for where in [a_file, os.path.join(a_file, "fa4")]:
    os.environ["FA4_CACHE_DIR"] = where
    for compiler in [counting, None]:
        try:
            cache.entry(causal, compiler,
                        compile_fn=_compile_into(counting) if compiler
                        else None)
            print("misplaced: no error")
        except Fa4Error as error:
            # CHECK-NEXT: misplaced a-file, compiler True: kernel cache {{.*}}/a-file is not a directory; set FA4_CACHE_DIR to a directory (a kernel pack, or where fa4 may compile kernels)
            # CHECK-NEXT: misplaced a-file, compiler False: kernel cache {{.*}}/a-file is not a directory; set FA4_CACHE_DIR
            # CHECK-NEXT: misplaced a-file/fa4, compiler True: kernel cache {{.*}}/a-file/fa4: cannot create it (Not a directory); set FA4_CACHE_DIR to a directory you can write
            # CHECK-NEXT: misplaced a-file/fa4, compiler False: no kernel for {{.*}} in {{.*}}/a-file/fa4 and no fa4-compile to build one (set FA4_CACHE_DIR to a kernel pack, or install the compiler)
            print("misplaced %s, compiler %s: %s"
                  % (os.path.relpath(where, root), compiler is not None,
                     error))
del os.environ["FA4_CACHE_DIR"]

# A read-only cache directory (root drops to nobody in a child, since root
# writes anywhere): an entry that is there is used, also with a compiler; a
# missing one is a clear error, not an OSError.
read_only = os.path.join(root, "read-only")
os.makedirs(read_only)
restore()
shutil.copytree(causal_dir,
                os.path.join(read_only, os.path.basename(causal_dir)))
for base, dirs, files in os.walk(read_only):
    for name in dirs + files:
        os.chmod(os.path.join(base, name), 0o555)
os.chmod(read_only, 0o555)
reader, writer = os.pipe()
child = os.fork()
if child == 0:
    os.close(reader)
    lines = []
    try:
        if os.geteuid() == 0:
            os.setgroups([])
            os.setresgid(65534, 65534, 65534)
            os.setresuid(65534, 65534, 65534)
        manifest = cache.entry(causal, None, directory=read_only)
        lines.append("read-only, no compiler: %s" % mask_of(manifest))
        manifest = cache.entry(causal, counting, directory=read_only,
                               compile_fn=_compile_into(counting))
        lines.append("read-only, compiler: %s" % mask_of(manifest))
        try:
            cache.entry(none, counting, directory=read_only,
                        compile_fn=_compile_into(counting))
            lines.append("read-only, missing: no error")
        except Fa4Error as error:
            lines.append("read-only, missing: %s" % error)
    except BaseException as error:
        lines.append("read-only: %s: %s" % (type(error).__name__, error))
    os.write(writer, ("\n".join(lines) + "\n").encode())
    os._exit(0)
os.close(writer)
output = b""
while True:
    block = os.read(reader, 65536)
    if not block:
        break
    output += block
os.waitpid(child, 0)
for base, dirs, _ in os.walk(read_only):
    for name in dirs:
        os.chmod(os.path.join(base, name), 0o755)
os.chmod(read_only, 0o755)  # so that the next run's rm -rf can remove it
# CHECK-NEXT: read-only, no compiler: causal
# CHECK-NEXT: read-only, compiler: causal
# CHECK-NEXT: read-only, missing: kernel cache {{.*}}/read-only: cannot write in it (permission denied); set FA4_CACHE_DIR to a directory you can write (or, for a kernel pack, fill it where you can write and copy it)
sys.stdout.write(output.decode())

# The transformers scale (d ** -0.5, which differs from 1/sqrt(d) in the last
# bit of a double for d = 128) finds the kernel of a pack built with the
# default scale, and so does the default written out.
pack = os.path.join(root, "pack")
subprocess.run([sys.executable, "-m", "fa4.pack", "--chip", "sm_90a", "--out",
                pack, "--fa4-compile", tool, "bf16:8:2:128:128:causal"],
               stdout=subprocess.PIPE, check=True)
transformers = problem_of_shapes((1, 5, 8, 128), (1, 7, 2, 128),
                                 (1, 7, 2, 128), "bf16", causal=True,
                                 softmax_scale=128 ** -0.5, chip="sm_90a")
# CHECK-NEXT: 128 ** -0.5 == 1/sqrt(128) in f64: False; pack entry: causal
print("128 ** -0.5 == 1/sqrt(128) in f64: %s; pack entry: %s"
      % (128 ** -0.5 == 1 / 128 ** 0.5, load_only(transformers, pack)))
spelled = cache.Problem("sm_90a", "bf16", 8, 2, 128, 128, "causal",
                        scale=0.08838834764831845)
# CHECK-NEXT: one key for the default's spellings: True
print("one key for the default's spellings: %s"
      % (cache.problem_key(spelled) == cache.problem_key(transformers) ==
         cache.problem_key(causal)))

# Malformed scales in a pack's configuration: a message and exit 1, never a
# traceback.
for scale in ["-", "1e39", "1.5.5", "nan", "0", "-0.5", "inf", ""]:
    bad = subprocess.run(
        [sys.executable, "-m", "fa4.pack", "--chip", "sm_90a", "--out", pack,
         "--fa4-compile", tool, "bf16:8:2:128:128:causal:" + scale],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        universal_newlines=True)
    # CHECK-NEXT: scale '-': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:-': scale '-' is not a number (e.g. 0.125)
    # CHECK-NEXT: scale '1e39': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:1e39': scale 1e+39: expected a finite value > 0 that f32 holds
    # CHECK-NEXT: scale '1.5.5': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:1.5.5': scale '1.5.5' is not a number
    # CHECK-NEXT: scale 'nan': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:nan': scale nan: expected a finite value > 0
    # CHECK-NEXT: scale '0': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:0': scale 0.0: expected a finite value > 0
    # CHECK-NEXT: scale '-0.5': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:-0.5': scale -0.5: expected a finite value > 0
    # CHECK-NEXT: scale 'inf': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:inf': scale inf: expected a finite value > 0
    # CHECK-NEXT: scale '': exit 1, traceback False, fa4.pack: configuration 'bf16:8:2:128:128:causal:': scale '' is not a number
    print("scale %r: exit %d, traceback %s, %s"
          % (scale, bad.returncode, "Traceback" in bad.stderr,
             bad.stderr.strip()))
