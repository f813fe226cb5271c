# Run by decompose-backward-run.test: attn.attention_backward rewritten by
# attn-decompose and run on the CPU by mlir-runner (tools/raise-oracle.py's
# runner); its dQ, dK and dV against the gradients computed here in plain
# Python from the same inputs (the op's formula, AttnOps.td), under GQA 4/2
# with Dqk != Dv, an explicit scale, no mask, causal and a window with
# Sq > Skv (rows that see no key: no gradient), and causal under a softcap.
# The formula itself is checked first against central differences of the
# forward's loss sum(dO * O) (O and LSE from the forward here), so the
# decomposition is held to the gradient, not to a formula alone.
import importlib.util
import math
import os
import sys

fa4_opt, llvm_root, source_root = sys.argv[1:4]
spec = importlib.util.spec_from_file_location(
    "raise_oracle", os.path.join(source_root, "tools", "raise-oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

B, SQ, SKV, HQ, HKV, D, DV, SCALE = 2, 5, 4, 4, 2, 3, 2, 0.7
GROUP = HQ // HKV
SOFTCAP = 0.8
MASKS = {"none": (None, None), "causal": (None, 0), "window(1, 0)": (1, 0)}


def at(b, s, h, d, seq, heads, depth):
    return ((b * seq + s) * heads + h) * depth + d


def keys_of(i, left, right):
    diagonal = i + SKV - SQ
    return [j for j in range(SKV)
            if (right is None or j <= diagonal + right) and
            (left is None or j >= diagonal - left)]


def capped_score(q, k, b, h, i, j, softcap):
    dot = sum(q[at(b, i, h, d, SQ, HQ, D)] *
              k[at(b, j, h // GROUP, d, SKV, HKV, D)] for d in range(D))
    s = SCALE * dot
    return softcap * math.tanh(s / softcap) if softcap else s


def forward(q, k, v, left, right, softcap):
    """O [B, SQ, HQ, DV] and LSE [B, HQ, SQ] in double."""
    o = [0.0] * (B * SQ * HQ * DV)
    lse = [-math.inf] * (B * HQ * SQ)
    for b in range(B):
        for h in range(HQ):
            for i in range(SQ):
                keys = keys_of(i, left, right)
                if not keys:
                    continue
                s = [capped_score(q, k, b, h, i, j, softcap) for j in keys]
                top = max(s)
                w = [math.exp(x - top) for x in s]
                total = sum(w)
                lse[(b * HQ + h) * SQ + i] = top + math.log(total)
                for e in range(DV):
                    o[at(b, i, h, e, SQ, HQ, DV)] = sum(
                        wj * v[at(b, j, h // GROUP, e, SKV, HKV, DV)]
                        for wj, j in zip(w, keys)) / total
    return o, lse


def backward(do, q, k, v, o, lse, left, right, softcap):
    """dQ, dK, dV by the op's formula, in double."""
    dq = [0.0] * len(q)
    dk = [0.0] * len(k)
    dv = [0.0] * len(v)
    for b in range(B):
        for h in range(HQ):
            g = h // GROUP
            for i in range(SQ):
                row_lse = lse[(b * HQ + h) * SQ + i]
                if row_lse == -math.inf:
                    continue
                dot = sum(do[at(b, i, h, e, SQ, HQ, DV)] *
                          o[at(b, i, h, e, SQ, HQ, DV)] for e in range(DV))
                for j in keys_of(i, left, right):
                    s = capped_score(q, k, b, h, i, j, softcap)
                    p = math.exp(s - row_lse)
                    for e in range(DV):
                        dv[at(b, j, g, e, SKV, HKV, DV)] += \
                            p * do[at(b, i, h, e, SQ, HQ, DV)]
                    dp = sum(do[at(b, i, h, e, SQ, HQ, DV)] *
                             v[at(b, j, g, e, SKV, HKV, DV)]
                             for e in range(DV))
                    ds = p * (dp - dot)
                    if softcap:
                        ds *= 1 - (s / softcap) ** 2
                    ds *= SCALE
                    for d in range(D):
                        dq[at(b, i, h, d, SQ, HQ, D)] += \
                            ds * k[at(b, j, g, d, SKV, HKV, D)]
                        dk[at(b, j, g, d, SKV, HKV, D)] += \
                            ds * q[at(b, i, h, d, SQ, HQ, D)]
    return dq, dk, dv


def numeric(do, q, k, v, left, right, softcap):
    """Central differences of sum(dO * O) in each input."""
    def loss(q, k, v):
        o, _ = forward(q, k, v, left, right, softcap)
        return sum(a * b for a, b in zip(do, o))
    grads = []
    for which in range(3):
        inputs = [list(q), list(k), list(v)]
        grad = []
        for index in range(len(inputs[which])):
            step = 1e-5
            saved = inputs[which][index]
            inputs[which][index] = saved + step
            up = loss(*inputs)
            inputs[which][index] = saved - step
            down = loss(*inputs)
            inputs[which][index] = saved
            grad.append((up - down) / (2 * step))
        grads.append(grad)
    return grads


def module(mask, result, softcap):
    t = lambda s, h, d, e="f16": "tensor<%dx%dx%dx%dx%s>" % (B, s, h, d, e)
    do, q, k, v = t(SQ, HQ, DV), t(SQ, HQ, D), t(SKV, HKV, D), t(SKV, HKV, DV)
    lse = "tensor<%dx%dx%dxf32>" % (B, HQ, SQ)
    returned = {"dq": q, "dk": k, "dv": v}[result]
    cap = ", softcap = %r : f32" % softcap if softcap else ""
    return """func.func @attention(%%do: %s, %%q: %s, %%k: %s, %%v: %s, %%o: %s, %%lse: %s) -> %s {
  %%dq, %%dk, %%dv = attn.attention_backward %%do, %%q, %%k, %%v, %%o, %%lse {scale = %r : f32, mask = #attn.mask<%s>%s} : %s, %s, %s, %s, %s, %s -> %s, %s, %s
  return %%%s : %s
}
""" % (do, q, k, v, do, lse, returned, SCALE, mask, cap, do, q, k, v, do, lse,
       q, k, v, result, returned)


def worst(actual, expected):
    if len(actual) != len(expected):
        return math.inf
    return max(abs(a - e) for a, e in zip(actual, expected))


runner = oracle.Runner(fa4_opt, llvm_root)
CASES = [(mask, mask, bounds, None) for mask, bounds in MASKS.items()]
CASES.append(("softcap(%g)" % SOFTCAP, "causal", MASKS["causal"], SOFTCAP))
for label, mask, (left, right), softcap in CASES:
    results = {}
    for name in ("dq", "dk", "dv"):
        values = runner.run(module(mask, name, softcap), decompose=True,
                            print_inputs=True)
        results[name] = values[-1]
    do, q, k, v, o, lse = values[:6]
    # The formula is the gradient: with the forward's own O and LSE, it
    # matches central differences of sum(dO * O).
    true_o, true_lse = forward(q, k, v, left, right, softcap)
    formula = backward(do, q, k, v, true_o, true_lse, left, right, softcap)
    differences = numeric(do, q, k, v, left, right, softcap)
    gradient = max(worst(a, b) for a, b in zip(formula, differences))
    # The decomposition computes the formula from the op's operands (the
    # runner's O and LSE are any values), each gradient rounded to f16.
    expected = backward(do, q, k, v, o, lse, left, right, softcap)
    reports = []
    for name, exp in zip(("dq", "dk", "dv"), expected):
        scale = max(1.0, max(abs(x) for x in exp))
        error = worst(results[name], exp)
        reports.append("%s %s" % (name, "ok" if error <= scale * 2 ** -10
                                  else "off %g" % error))
    print("%-13s formula %s, %s" % (
        label, "ok" if gradient <= 1e-6 else "off %g" % gradient,
        ", ".join(reports)))
runner.close()
