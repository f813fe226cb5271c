# Run by decompose-run.test: attn.attention rewritten by attn-decompose and
# run on the CPU by mlir-runner (tools/raise-oracle.py's runner), its O and
# LSE against attention computed here in plain Python from the same
# inputs: GQA, a causal and a window mask (bottom-right, with rows that see
# no key: O = 0, LSE = -inf), an explicit scale; causal with a softcap
# small enough to bend most scores (c * tanh(s / c) before the mask); and
# sinks (one logit per query head in each row's max and sum, no value
# row: a row that sees no key gives O = 0 and LSE = its sink), under a
# window and with the softcap; and FP8 (f8E4M3FN Q, K and V, O bf16, a
# descale per tensor for Q and per (batch, key/value head) for K and V: the
# attention of descale * x), run through MLIR's APFloat runtime.
import importlib.util
import math
import os
import sys

fa4_opt, llvm_root, source_root = sys.argv[1:4]
spec = importlib.util.spec_from_file_location(
    "raise_oracle", os.path.join(source_root, "tools", "raise-oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

B, SQ, SKV, HQ, HKV, D, SCALE = 2, 7, 5, 4, 2, 8, 0.5
MASKS = {"none": (None, None), "causal": (None, 0), "window(1, 0)": (1, 0),
         "window(2, 1)": (2, 1)}


SOFTCAP = 0.7


def module(mask, result, softcap=None, sinks=False):
    q = "tensor<%dx%dx%dx%dxf16>" % (B, SQ, HQ, D)
    kv = "tensor<%dx%dx%dx%dxf16>" % (B, SKV, HKV, D)
    o = "tensor<%dx%dx%dx%dxf16>" % (B, SQ, HQ, D)
    lse = "tensor<%dx%dx%dxf32>" % (B, HQ, SQ)
    s = "tensor<%dxf32>" % HQ
    returned = o if result == "o" else lse
    return """func.func @attention(%%q: %s, %%k: %s, %%v: %s%s) -> %s {
  %%o, %%lse = attn.attention %%q, %%k, %%v%s {scale = %r : f32, mask = #attn.mask<%s>%s} : %s, %s, %s -> %s, %s
  return %%%s : %s
}
""" % (q, kv, kv, ", %%s: %s" % s if sinks else "", returned,
       " sinks(%%s : %s)" % s if sinks else "", SCALE, mask,
       ", softcap = %r : f32" % softcap if softcap else "", q, kv, kv, o, lse,
       result, returned)


def fp8_module(result):
    q = "tensor<%dx%dx%dx%dxf8E4M3FN>" % (B, SQ, HQ, D)
    kv = "tensor<%dx%dx%dx%dxf8E4M3FN>" % (B, SKV, HKV, D)
    o = "tensor<%dx%dx%dx%dxbf16>" % (B, SQ, HQ, D)
    lse = "tensor<%dx%dx%dxf32>" % (B, HQ, SQ)
    per_head = "tensor<%dx%dxf32>" % (B, HKV)
    returned = o if result == "o" else lse
    return """func.func @attention(%%q: %s, %%k: %s, %%v: %s, %%qd: tensor<f32>, %%kd: %s, %%vd: %s) -> %s {
  %%o, %%lse = attn.attention %%q, %%k, %%v q_descale(%%qd : tensor<f32>) k_descale(%%kd : %s) v_descale(%%vd : %s) {scale = %r : f32, mask = #attn.mask<causal>} : %s, %s, %s -> %s, %s
  return %%%s : %s
}
""" % (q, kv, kv, per_head, per_head, returned, per_head, per_head, SCALE,
       q, kv, kv, o, lse, result, returned)


def descaled(x, descale, heads):
    """x [B, S, heads, D] times descale: one value, or [B, HKV] by each
    head's key/value head."""
    group = heads // HKV
    if len(descale) == 1:
        return [e * descale[0] for e in x]
    out = list(x)
    s = len(x) // (B * heads * D)
    for b in range(B):
        for t in range(s):
            for h in range(heads):
                for d in range(D):
                    at = ((b * s + t) * heads + h) * D + d
                    out[at] = x[at] * descale[b * HKV + h // group]
    return out


def reference(q, k, v, left, right, softcap=None, sinks=None):
    """O [B, SQ, HQ, D] and LSE [B, HQ, SQ], in double."""
    group = HQ // HKV
    o = [0.0] * (B * SQ * HQ * D)
    lse = [0.0] * (B * HQ * SQ)
    for b in range(B):
        for h in range(HQ):
            g = h // group
            for i in range(SQ):
                diagonal = i + SKV - SQ
                keys = [j for j in range(SKV)
                        if (right is None or j <= diagonal + right) and
                        (left is None or j >= diagonal - left)]
                scores = []
                for j in keys:
                    dot = sum(q[((b * SQ + i) * HQ + h) * D + d] *
                              k[((b * SKV + j) * HKV + g) * D + d]
                              for d in range(D))
                    score = SCALE * dot
                    if softcap:
                        score = softcap * math.tanh(score / softcap)
                    scores.append(score)
                if not keys and sinks is None:
                    lse[(b * HQ + h) * SQ + i] = -math.inf
                    continue
                # The sink: one more logit in the max and the sum, no value.
                extra = [] if sinks is None else [sinks[h]]
                top = max(scores + extra)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights) + sum(math.exp(s - top) for s in extra)
                lse[(b * HQ + h) * SQ + i] = top + math.log(total)
                for d in range(D):
                    o[((b * SQ + i) * HQ + h) * D + d] = sum(
                        w * v[((b * SKV + j) * HKV + g) * D + d]
                        for w, j in zip(weights, keys)) / total
    return o, lse


def worst(actual, expected):
    error = 0.0
    for a, e in zip(actual, expected):
        if math.isinf(e) or math.isinf(a):
            if a != e:
                return math.inf
            continue
        error = max(error, abs(a - e))
    return error if len(actual) == len(expected) else math.inf


runner = oracle.Runner(fa4_opt, llvm_root)
CASES = [(mask, mask, bounds, None, False) for mask, bounds in MASKS.items()]
CASES.append(("softcap(%g)" % SOFTCAP, "causal", MASKS["causal"], SOFTCAP,
              False))
CASES.append(("sinks", "window(1, 0)", MASKS["window(1, 0)"], None, True))
CASES.append(("sinks+softcap", "causal", MASKS["causal"], SOFTCAP, True))
for label, mask, (left, right), softcap, sinks in CASES:
    inputs = runner.run(module(mask, "o", softcap, sinks), decompose=True,
                        print_inputs=True)
    q, k, v = inputs[:3]
    sink_values = inputs[3] if sinks else None
    o = inputs[-1]
    lse = runner.run(module(mask, "lse", softcap, sinks), decompose=True)
    o_ref, lse_ref = reference(q, k, v, left, right, softcap, sink_values)
    # O is rounded to f16 (half an ulp of values below 1: 2^-12); LSE is f32.
    print("%-13s O %s, LSE %s" % (
        label, "ok" if worst(o, o_ref) <= 2 ** -11 else "off %g" % worst(o, o_ref),
        "ok" if worst(lse, lse_ref) <= 1e-5 else "off %g" % worst(lse, lse_ref)))
runner.close()

fp8 = oracle.Runner(fa4_opt, llvm_root, apfloat=True)
inputs = fp8.run(fp8_module("o"), decompose=True, print_inputs=True)
q, k, v, qd, kd, vd = inputs[:6]
o = inputs[-1]
lse = fp8.run(fp8_module("lse"), decompose=True)
o_ref, lse_ref = reference(descaled(q, qd, HQ), descaled(k, kd, HKV),
                           descaled(v, vd, HKV), *MASKS["causal"])
# O is rounded to bf16 (half an ulp of values below 1: 2^-9).
print("%-13s O %s, LSE %s" % (
    "fp8", "ok" if worst(o, o_ref) <= 2 ** -8 else "off %g" % worst(o, o_ref),
    "ok" if worst(lse, lse_ref) <= 1e-5 else "off %g" % worst(lse, lse_ref)))
fp8.close()
