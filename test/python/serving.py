# The serving forms from Python, without torch or a GPU: fa4.Problem's
# serving forms write the ops fa4-compile lowers (packed sequences and pages
# of 64 keys to the chip's kernel, pages of 16 to the Hopper kernel's
# copies and the Blackwell one's), a
# dense problem's cache entry keeps its name, kernel packs name the forms,
# and Kernel.validate_serving checks TensorSpecs through
# fa4_validate_serving (fake pointers: validation needs no GPU).
# REQUIRES: fa4-runtime
# RUN: rm -rf %t && %python %s %t fa4-compile | FileCheck %s

import os
import subprocess
import sys

import fa4
from fa4 import TensorSpec, pack

out, tool = sys.argv[1], sys.argv[2]

# A dense problem's dict has no serving fields: its cache key is the one
# kernel packs and caches made before the serving forms.
dense = fa4.Problem("sm_90a", "bf16", 8, 2, 128, 128, "causal")
print("dense fields:", sorted(dense.as_dict()))
# CHECK: dense fields: ['chip', 'dtype', 'kernel', 'lse', 'mask', 'num_kv_heads', 'num_q_heads', 'ov_depth', 'qk_depth', 'scale', 'window']

kernels = {}
for chip in ("sm_90a", "sm_100a"):
    for form, page in (("varlen", 0), ("varlen_seqused", 0), ("paged", 16),
                       ("paged_packed", 64)):
        problem = fa4.Problem(chip, "bf16", 8, 2, 64, 64, "causal", form=form,
                              page_size=page)
        directory = os.path.join(out, chip + "-" + form)
        os.makedirs(directory)
        source = os.path.join(directory, "attention.mlir")
        with open(source, "w") as f:
            f.write(problem.mlir())
        subprocess.run([tool, source, "--chip=" + chip, "--ptxas=none", "-o",
                        directory, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        built = [entry for entry in os.listdir(directory)
                 if entry.startswith("fa4_")]
        kernel = fa4.Kernel.load(os.path.join(directory, built[0]))
        kernels[(chip, form)] = kernel
        print(chip, form, kernel.info.name, fa4.cache.problem_key(problem) !=
              fa4.cache.problem_key(dense))
# CHECK: sm_90a varlen fa4_hopper_attention_sm_90a True
# CHECK: sm_90a varlen_seqused fa4_hopper_attention_sm_90a True
# CHECK: sm_90a paged fa4_hopper_attention_sm_90a True
# CHECK: sm_90a paged_packed fa4_hopper_attention_sm_90a True
# CHECK: sm_100a varlen fa4_blackwell_attention_sm_100a True
# CHECK: sm_100a paged_packed fa4_blackwell_attention_sm_100a True

for text in ("bf16:8:2:128:128:causal@paged16", "f16:4:4:64:64:none@varlen",
             "bf16:8:2:128:128:causal@paged", "bf16:8:2:128:128:causal@pagedx"):
    try:
        problem = pack.parse_config(text, "sm_90a")
        print("config", text, problem.form, problem.page_size)
    except fa4.Fa4Error as error:
        print("config refused:", error)
# CHECK: config bf16:8:2:128:128:causal@paged16 paged 16
# CHECK: config f16:4:4:64:64:none@varlen varlen 0
# CHECK: config refused: configuration 'bf16:8:2:128:128:causal@paged': page_size 0: a positive int for a paged form, else 0
# CHECK: config refused: configuration 'bf16:8:2:128:128:causal@pagedx': expected DTYPE:HQ:HKV:DQK:DV:MASK[:SCALE][:softcap=C][:sinks][@FORM] (e.g. bf16:32:8:128:128:causal, bf16:32:8:128:128:causal:softcap=15, bf16:64:8:64:64:window(127,0):sinks, bf16:32:8:128:128:causal@paged64)

# Validation of a varlen launch: 3 sequences, 40 query and 90 key tokens.
kernel = kernels[("sm_90a", "varlen_seqused")]
spec = lambda base, dtype, shape: TensorSpec(base << 32, dtype, shape)
q, o = spec(1, "bf16", (40, 8, 64)), spec(2, "bf16", (40, 8, 64))
k, v = spec(3, "bf16", (90, 2, 64)), spec(4, "bf16", (90, 2, 64))
lse = spec(5, "f32", (8, 40))
index = dict(cu_seqlens_q=spec(6, "i32", (4,)), cu_seqlens_k=spec(7, "i32", (4,)),
             seqused_k=spec(8, "i32", (3,)))


def attempt(what, **changes):
    arguments = dict(index, max_seqlen_q=17)
    arguments.update(changes)
    try:
        kernel.validate_serving(q, k, v, o, lse, **arguments)
        print(what + ": accepted")
    except fa4.Fa4Error as error:
        print(what + ":", str(error))


attempt("good")
attempt("no max_seqlen_q", max_seqlen_q=0)
attempt("seqused_k of 4", seqused_k=spec(8, "i32", (4,)))
attempt("an f32 cu_seqlens_k", cu_seqlens_k=spec(7, "f32", (4,)))
attempt("a block table", block_table=spec(9, "i32", (3, 2)))
try:
    kernel.validate_serving(q, k, v, o, lse, max_seqlen_q=17, pages=3)
except fa4.Fa4Error as error:
    print("unknown:", error)
# CHECK: good: accepted
# CHECK: no max_seqlen_q: max_seqlen_q is 0; the packed queries need the longest sequence's query rows, 1 to 1073741823 (fa4::limits::kMaxSeqLen)
# CHECK: seqused_k of 4: cu_seqlens has 4 entries but tensor 'seqused_k' bound b = 4; expected b + 1
# CHECK: an f32 cu_seqlens_k: tensor 'cu_seqlens_k': dtype is f32 but the kernel expects i32
# CHECK: a block table: tensor 'block_table': given but the kernel does not take it; pass NULL
# CHECK: unknown: unknown index tensor 'pages'; expected one of cu_seqlens_q, cu_seqlens_k, seqused_k, block_table, seqlens_k
