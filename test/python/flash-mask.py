# flash_attn_func's arguments as fa4's problem, checked against
# FlashAttention's documented semantics with no GPU, torch or libfa4rt
# (issue 58: mutants of this mapping survived, as nothing on the CPU ran it).
#
# FlashAttention's README: with window_size = (left, right), -1 unbounded,
# query i sees the keys [i + Skv - Sq - left, i + Skv - Sq + right]
# inclusive; causal is aligned bottom-right (query i sees j <= i + Skv - Sq)
# and, with a window, sets its right bound to 0 (mha_fwd: `if (is_causal)
# window_size_right = 0`). For causal False/True x window (-1, -1),
# (left, -1), (-1, right), (left, right), the #attn.mask of the MLIR the
# problem compiles, read by docs/KernelABI.md's contract, must give the same
# visible keys as that brute-force mask for every Sq, Skv from 1 to 7
# (Sq > Skv, Sq < Skv, rows that see no key), by each route to a problem:
# problem_of_shapes (fa4.jax), problem_for, the eager call's _kernel_of and
# the torch op's arguments (torch.compile, autograd). Then the default
# scale, GQA/MQA heads, and the refusal of every bad argument.
# RUN: %python %s | FileCheck %s

import inspect
import math
import re
import sys

import fa4
from fa4 import cache, flash


class Tensor(object):
    """What problem_for and _kernel_of read of a torch tensor."""

    def __init__(self, shape, dtype="torch.bfloat16"):
        self.shape, self.dtype, self.device = tuple(shape), dtype, "cuda:0"

    def dim(self):
        return len(self.shape)


# The device's chip and the compile are not under test: the problem is.
flash._chip = lambda device: "sm_90a"
flash.kernel_for = lambda problem: problem


def flash_attention_sees(i, j, sq, skv, causal, left, right):
    """FlashAttention's visible keys (the README's formula, bottom-right
    aligned). Causal with a window is both masks at once, which is the
    window with its right bound at 0."""
    diagonal = i + skv - sq
    if causal and j > diagonal:
        return False
    if left >= 0 and j < diagonal - left:
        return False
    if right >= 0 and j > diagonal + right:
        return False
    return True


MASK = re.compile(r"mask = #attn\.mask<(none|causal|window\((-?\d+), (-?\d+)\))>")


def mask_of(problem):
    """The #attn.mask the problem's MLIR compiles, as (text, kind, left,
    right)."""
    found = MASK.findall(problem.mlir())
    assert len(found) == 1, problem.mlir()
    text, left, right = found[0]
    kind = text.split("(")[0]
    return ("#attn.mask<%s>" % text, kind,
            int(left) if left else -1, int(right) if right else -1)


def fa4_sees(mask, i, j, sq, skv):
    """docs/KernelABI.md: causal, j <= i + skv - sq; window, j >= i + skv -
    sq - left when left >= 0 and j <= i + skv - sq + right when right >= 0."""
    _, kind, left, right = mask
    diagonal = i + skv - sq
    if kind == "causal":
        return j <= diagonal
    if kind == "window":
        return ((left < 0 or j >= diagonal - left) and
                (right < 0 or j <= diagonal + right))
    return True


def visible(sees, sq, skv):
    return [[j for j in range(skv) if sees(i, j)] for i in range(sq)]


def tensors(hq=8, hkv=2, dqk=128, dv=128):
    return (Tensor((2, 5, hq, dqk)), Tensor((2, 7, hkv, dqk)),
            Tensor((2, 7, hkv, dv)))


def routes(causal, window, scale=None, hq=8, hkv=2, dqk=128, dv=128):
    """The problem by each route from flash_attn_func's (or fa4.jax's)
    arguments to a kernel."""
    q, k, v = tensors(hq, hkv, dqk, dv)
    flash._by_shape.clear()
    return {
        "shapes": flash.problem_of_shapes(q.shape, k.shape, v.shape, "bf16",
                                          causal, window, scale, "sm_90a"),
        "problem_for": flash.problem_for(q, k, v, causal, window, scale),
        "eager": flash._kernel_of(q, k, v, causal, window, scale),
        "op": flash._kernel_of(q, k, v, *flash._from_op_args(
            *flash._op_args(causal, window, scale))),
    }


failures = 0
SIZES = range(1, 8)
WINDOWS = [(-1, -1),                   # none
           (0, -1), (3, -1),           # (left, -1)
           (-1, 0), (-1, 2),           # (-1, right)
           (0, 0), (2, 1), (1, 3),     # (left, right)
           (9, 9)]                     # wider than every sequence
for causal in (False, True):
    for window in WINDOWS:
        problems = routes(causal, window)
        masks = set(mask_of(p) for p in problems.values())
        keys = set(cache.problem_key(p) for p in problems.values())
        compared = 0
        for route, problem in sorted(problems.items()):
            mask = mask_of(problem)
            for sq in SIZES:
                for skv in SIZES:
                    want = visible(lambda i, j: flash_attention_sees(
                        i, j, sq, skv, causal, window[0], window[1]), sq, skv)
                    got = visible(lambda i, j: fa4_sees(mask, i, j, sq, skv),
                                  sq, skv)
                    if got != want:
                        failures += 1
                        print("MISMATCH causal=%s window=%s via %s, %s, "
                              "Sq=%d Skv=%d: fa4 %s, FlashAttention %s"
                              % (causal, window, route, mask[0], sq, skv, got,
                                 want))
                    compared += route == "eager"
        print("causal=%s window=%s: %s, %d shapes, %d routes, %d key%s"
              % (causal, window, " / ".join(sorted(m[0] for m in masks)),
                 compared, len(problems), len(keys), "s" * (len(keys) != 1)))
# CHECK-NOT: MISMATCH
# CHECK: causal=False window=(-1, -1): #attn.mask<none>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(0, -1): #attn.mask<window(0, -1)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(3, -1): #attn.mask<window(3, -1)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(-1, 0): #attn.mask<window(-1, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(-1, 2): #attn.mask<window(-1, 2)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(0, 0): #attn.mask<window(0, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(2, 1): #attn.mask<window(2, 1)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(1, 3): #attn.mask<window(1, 3)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=False window=(9, 9): #attn.mask<window(9, 9)>, 49 shapes, 4 routes, 1 key
# Causal keeps the left bound and sets the right one to 0, whatever it was.
# CHECK-NEXT: causal=True window=(-1, -1): #attn.mask<causal>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(0, -1): #attn.mask<window(0, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(3, -1): #attn.mask<window(3, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(-1, 0): #attn.mask<causal>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(-1, 2): #attn.mask<causal>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(0, 0): #attn.mask<window(0, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(2, 1): #attn.mask<window(2, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(1, 3): #attn.mask<window(1, 0)>, 49 shapes, 4 routes, 1 key
# CHECK-NEXT: causal=True window=(9, 9): #attn.mask<window(9, 0)>, 49 shapes, 4 routes, 1 key

# The brute-force reference itself, on rows written out by hand from the
# README's formula, so a shared slip in both masks cannot pass: Sq = 3 >
# Skv = 2 (causal: the first row sees no key), Sq = 2 < Skv = 5 (causal,
# window (1, 0)), and Sq = 3 > Skv = 1 under window (-1, 0).
# CHECK-NEXT: reference: (- | 0 | 0 1) (0 1 2 3 | 0 1 2 3 4) (2 3 | 3 4) (- | - | 0)


def rows(keys):
    return "(%s)" % " | ".join(" ".join(map(str, row)) or "-" for row in keys)


print("reference: %s %s %s %s" % tuple(map(rows, (
    visible(lambda i, j: flash_attention_sees(i, j, 3, 2, True, -1, -1), 3, 2),
    visible(lambda i, j: flash_attention_sees(i, j, 2, 5, True, -1, -1), 2, 5),
    visible(lambda i, j: flash_attention_sees(i, j, 2, 5, False, 1, 0), 2, 5),
    visible(lambda i, j: flash_attention_sees(i, j, 3, 1, False, -1, 0), 3, 1)))))

# The default softmax_scale is 1/sqrt(Dqk) (q.shape[-1] ** -0.5), not
# 1/sqrt(Dv): the problem leaves it to the op (no scale attribute, whose
# default docs/Design.md gives as 1/sqrt(Dqk)), and its spellings are the
# same kernel.


def scale_of(scale):
    problem = routes(True, (-1, -1), scale, dqk=192, dv=128)["eager"]
    attribute = re.findall(r"scale = (0x[0-9A-F]+) : f32", problem.mlir())
    return problem, (attribute[0] if attribute else "default")


default, text = scale_of(None)
# CHECK-NEXT: Dqk 192, Dv 128, None: default
print("Dqk 192, Dv 128, None: %s" % text)
for name, value in (("192 ** -0.5", 192 ** -0.5),
                    ("1/sqrt(192)", 1 / math.sqrt(192)),
                    ("1/sqrt(128)", 1 / math.sqrt(128)), ("0.1", 0.1)):
    problem, text = scale_of(value)
    print("%s: %s, same kernel as None: %s"
          % (name, text, cache.problem_key(problem) ==
             cache.problem_key(default)))
# CHECK-NEXT: 192 ** -0.5: default, same kernel as None: True
# CHECK-NEXT: 1/sqrt(192): default, same kernel as None: True
# CHECK-NEXT: 1/sqrt(128): 0x3DB504F3, same kernel as None: False
# CHECK-NEXT: 0.1: 0x3DCCCCCD, same kernel as None: False
# The torch op carries None as -1.0: the same problem as the eager call;
# its softcap 0.0 is none, as FlashAttention spells it.
# CHECK-NEXT: op's scale: (True, -1, -1, -1.0, 0.0) -> None; (True, -1, -1, 0.1, 15.0) -> 0.1
print("op's scale: %s -> %s; %s -> %s" % (
    flash._op_args(True, (-1, -1), None),
    flash._from_op_args(*flash._op_args(True, (-1, -1), None))[2],
    flash._op_args(True, (-1, -1), 0.1, 15),
    flash._from_op_args(*flash._op_args(True, (-1, -1), 0.1, 15))[2]))
# The softcap reaches the problem, which names it in the op; 0 and none are
# one kernel, a bad softcap is refused by name.
# CHECK-NEXT: softcap: 15 -> softcap = 0x41700000 : f32, same kernel as 0: False; 0.0 same kernel as 0: True
capped = flash.problem_of_shapes((1, 9, 4, 64), (1, 9, 4, 64), (1, 9, 4, 64),
                                 "bf16", chip="sm_90a", softcap=15)
plain = flash.problem_of_shapes((1, 9, 4, 64), (1, 9, 4, 64), (1, 9, 4, 64),
                                "bf16", chip="sm_90a", softcap=0)
zero = flash.problem_of_shapes((1, 9, 4, 64), (1, 9, 4, 64), (1, 9, 4, 64),
                               "bf16", chip="sm_90a", softcap=0.0)
print("softcap: 15 -> %s, same kernel as 0: %s; 0.0 same kernel as 0: %s" % (
    re.search(r"softcap = [^}]*", capped.mlir()).group(0),
    cache.problem_key(capped) == cache.problem_key(plain),
    cache.problem_key(zero) == cache.problem_key(plain)))
# CHECK-NEXT: refused: softcap -1: expected 0 (none) or a finite value > 0
# CHECK-NEXT: refused: softcap nan: expected 0 (none) or a finite value > 0
for bad in (-1, float("nan")):
    try:
        flash._op_args(True, (-1, -1), None, bad)
        print("accepted", bad)
    except fa4.Fa4ValueError as error:
        print("refused:", error)

# Sinks reach the problem as the op's f32 [Hq] operand (and the function's
# argument, in both the dense and the serving forms); a problem with sinks
# is another kernel; the cache refuses anything but a bool.
# CHECK-NEXT: sinks: (%q: {{.*}}, %s: tensor<4xf32>) -> {{.*}} attn.attention %q, %k, %v sinks(%s : tensor<4xf32>) {mask{{.*}}; same kernel as none: False
# CHECK-NEXT: varlen sinks: %su: tensor<?xi32>, %s: tensor<4xf32>) -> {{.*}} seqused_k(%su : tensor<?xi32>) sinks(%s : tensor<4xf32>) {
# CHECK-NEXT: refused: sinks 1: expected True or False
sunk = flash.problem_of_shapes((1, 9, 4, 64), (1, 9, 4, 64), (1, 9, 4, 64),
                               "bf16", chip="sm_90a", sinks=True)
text = sunk.mlir()
print("sinks: %s; same kernel as none: %s" % (
    text[text.index("(%q"):text.index("\n  return")].replace("\n", " "),
    cache.problem_key(sunk) == cache.problem_key(plain)))
varlen = cache.Problem("sm_90a", "bf16", 4, 4, 64, 64, form="varlen_seqused",
                       sinks=True).mlir()
print("varlen sinks: %s" % varlen[varlen.index("%su"):varlen.index("{mask") + 1]
      .replace("\n", " "))
try:
    cache.Problem("sm_90a", "bf16", 4, 4, 64, 64, sinks=1)
    print("accepted sinks 1")
except fa4.Fa4Error as error:
    print("refused:", error)

# Heads: MHA, GQA and MQA keep their counts (query head h reads kv head
# h / (hq / hkv)); Dqk and Dv may differ.
for hq, hkv, dqk, dv in ((8, 8, 64, 64), (32, 8, 128, 128), (16, 1, 128, 128),
                         (4, 2, 192, 128)):
    problem = routes(False, (-1, -1), hq=hq, hkv=hkv, dqk=dqk, dv=dv)["eager"]
    print("heads %d/%d, depths %d/%d: %s" % (
        hq, hkv, dqk, dv, re.findall(r"%k: tensor<\?x\?x(\d+)x(\d+)x", problem.mlir())
        + [(problem.num_q_heads, problem.num_kv_heads, problem.ov_depth)]))
# CHECK-NEXT: heads 8/8, depths 64/64: [('8', '64'), (8, 8, 64)]
# CHECK-NEXT: heads 32/8, depths 128/128: [('8', '128'), (32, 8, 128)]
# CHECK-NEXT: heads 16/1, depths 128/128: [('1', '128'), (16, 1, 128)]
# CHECK-NEXT: heads 4/2, depths 192/128: [('2', '192'), (4, 2, 128)]


def refused(case, make):
    try:
        make()
    except Exception as error:  # noqa: BLE001 (the type is what is checked)
        print("%s: %s: %s" % (case, type(error).__name__, error))
    else:
        print("%s: accepted" % case)


def shapes(q=(2, 5, 8, 128), k=(2, 7, 2, 128), v=(2, 7, 2, 128),
           dtypes=("torch.bfloat16",) * 3, **arguments):
    made = [Tensor(s, d) for s, d in zip((q, k, v), dtypes)]
    return lambda: flash.problem_for(*made, **arguments)


# Windows: each bound -1 or >= 0, integers, two of them. FlashAttention
# takes ints; a float or a string would otherwise be truncated or parsed
# into a window nobody asked for.
for window in ((-2, -1), (0, -3), (1.5, 0), ("2", 0), (float("inf"), 0), (3,),
               (1, 2, 3), None, 4):
    refused("window %r" % (window,), shapes(window_size=window))
# CHECK-NEXT: window (-2, -1): Fa4ValueError: window_size (-2, -1): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window (0, -3): Fa4ValueError: window_size (0, -3): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window (1.5, 0): Fa4ValueError: window_size (1.5, 0): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window ('2', 0): Fa4ValueError: window_size ('2', 0): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window (inf, 0): Fa4ValueError: window_size (inf, 0): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window (3,): Fa4ValueError: window_size (3,): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window (1, 2, 3): Fa4ValueError: window_size (1, 2, 3): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window None: Fa4ValueError: window_size None: expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: window 4: Fa4ValueError: window_size 4: expected (left, right), each -1 (unbounded) or >= 0
# A whole float is that integer; a list is a pair.
# CHECK-NEXT: window [2.0, 0]: #attn.mask<window(2, 0)>
print("window [2.0, 0]: %s" % mask_of(shapes(window_size=[2.0, 0])())[0])
# The torch op's arguments are checked as the eager call's are, and the
# eager call's memo does not trip over what it cannot hash or take apart.
refused("op window (-2, 0)", lambda: flash._op_args(False, (-2, 0), None))
refused("eager window None",
        lambda: flash._kernel_of(*tensors(), False, None, None))
refused("eager scale [0.1]",
        lambda: flash._kernel_of(*tensors(), False, (-1, -1), [0.1]))
# CHECK-NEXT: op window (-2, 0): Fa4ValueError: window_size (-2, 0): expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: eager window None: Fa4ValueError: window_size None: expected (left, right), each -1 (unbounded) or >= 0
# CHECK-NEXT: eager scale [0.1]: Fa4ValueError: softmax_scale [0.1]: expected a finite value > 0

# Heads that do not divide: FlashAttention's "Number of heads in key/value
# must divide number of heads in query".
refused("heads 6/4", shapes(q=(2, 5, 6, 128), k=(2, 7, 4, 128), v=(2, 7, 4, 128)))
refused("heads 4/8", shapes(q=(2, 5, 4, 128), k=(2, 7, 8, 128), v=(2, 7, 8, 128)))
refused("heads 8/0", shapes(k=(2, 7, 0, 128), v=(2, 7, 0, 128)))
# CHECK-NEXT: heads 6/4: Fa4ValueError: 6 query heads are not a multiple of 4 key/value heads
# CHECK-NEXT: heads 4/8: Fa4ValueError: 4 query heads are not a multiple of 8 key/value heads
# CHECK-NEXT: heads 8/0: Fa4ValueError: 8 query heads are not a multiple of 0 key/value heads

# Ranks, dtypes and shapes.
refused("q rank 3", shapes(q=(2, 5, 8)))
refused("k rank 5", shapes(k=(2, 7, 2, 128, 1)))
refused("f32", shapes(dtypes=("torch.float32",) * 3))
refused("bf16/f16", shapes(dtypes=("torch.bfloat16", "torch.float16",
                                   "torch.bfloat16")))
refused("a list", lambda: flash.problem_for([[0.0]], Tensor((2, 7, 2, 128)),
                                            Tensor((2, 7, 2, 128))))
refused("batch", shapes(k=(3, 7, 2, 128)))
refused("k/v seqlen", shapes(v=(2, 6, 2, 128)))
refused("k's head dim", shapes(k=(2, 7, 2, 64)))
# CHECK-NEXT: q rank 3: Fa4ValueError: q: rank 3; expected 4 (batch, seqlen, heads, headdim)
# CHECK-NEXT: k rank 5: Fa4ValueError: k: rank 5; expected 4 (batch, seqlen, heads, headdim)
# CHECK-NEXT: f32: Fa4ValueError: dtype torch.float32: expected torch.bfloat16 or torch.float16
# CHECK-NEXT: bf16/f16: Fa4ValueError: q, k, v dtypes differ: torch.bfloat16, torch.float16, torch.bfloat16
# CHECK-NEXT: a list: Fa4ValueError: q: expected a torch tensor, got list
# CHECK-NEXT: batch: Fa4ValueError: batch sizes differ: q 2, k 3, v 2
# CHECK-NEXT: k/v seqlen: Fa4ValueError: k (2, 7, 2, 128) and v (2, 6, 2, 128) differ in seqlen or heads
# CHECK-NEXT: k's head dim: Fa4ValueError: q's head dim 128 and k's 64 differ

# Scales: finite and > 0, by every route. The op carries the default as a
# negative scale, so a negative one must be refused before it, not read as
# the default.
for scale in (0, -0.125, float("inf"), float("nan"), "abc"):
    refused("scale %r" % (scale,), shapes(softmax_scale=scale))
refused("op scale -0.125", lambda: flash._op_args(True, (-1, -1), -0.125))
# CHECK-NEXT: scale 0: Fa4ValueError: softmax_scale 0: expected a finite value > 0
# CHECK-NEXT: scale -0.125: Fa4ValueError: softmax_scale -0.125: expected a finite value > 0
# CHECK-NEXT: scale inf: Fa4ValueError: softmax_scale inf: expected a finite value > 0
# CHECK-NEXT: scale nan: Fa4ValueError: softmax_scale nan: expected a finite value > 0
# CHECK-NEXT: scale 'abc': Fa4ValueError: softmax_scale 'abc': expected a finite value > 0
# CHECK-NEXT: op scale -0.125: Fa4ValueError: softmax_scale -0.125: expected a finite value > 0

# FlashAttention's own positional calls mean other things: its 4th argument
# is dropout_p (FlashAttention 2) or softmax_scale (3 and 4), so fa4 takes
# everything after v by keyword, and arguments it does not implement are
# not quietly dropped. Both are refused before torch is imported.
refused("positional 0.125", lambda: fa4.flash_attn_func(None, None, None, 0.125))
refused("alibi_slopes", lambda: fa4.flash_attn_func(None, None, None,
                                                     alibi_slopes=[0.5]))
refused("dropout_p", lambda: fa4.flash_attn_func(None, None, None, dropout_p=0.1))
# CHECK-NEXT: positional 0.125: TypeError: {{.*}}flash_attn_func() takes 3 positional arguments but 4 were given
# CHECK-NEXT: alibi_slopes: TypeError: {{.*}}flash_attn_func() got an unexpected keyword argument 'alibi_slopes'
# CHECK-NEXT: dropout_p: TypeError: {{.*}}flash_attn_func() got an unexpected keyword argument 'dropout_p'
# CHECK-NEXT: keyword-only: causal window_size softmax_scale softcap sinks learnable_sink return_lse out
print("keyword-only: %s" % " ".join(
    name for name, p in inspect.signature(fa4.flash_attn_func).parameters.items()
    if p.kind == p.KEYWORD_ONLY))
# CHECK-NEXT: torch imported: False
print("torch imported: %s" % ("torch" in sys.modules))

# CHECK-NEXT: mismatches: 0
print("mismatches: %d" % failures)
sys.exit(1 if failures else 0)
