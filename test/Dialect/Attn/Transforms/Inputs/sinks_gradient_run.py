# Run by sinks-gradient-run.test: the autodiff link's sinks' gradient
# (AttentionOp::buildSinksGradient, through -test-attention-backward) with
# the forward attn.attention decomposed by attn-decompose, run on the CPU by
# mlir-runner (tools/raise-oracle.py's runner); against central differences
# of the loss sum(dO * O) in each sink, O computed here in plain Python
# (GQA 4/2, Dqk = 3 != Dv = 2, an explicit scale; causal with Sq > Skv,
# whose rows see only their sink, and no mask).
import importlib.util
import math
import os
import re
import sys

fa4_opt, llvm_root, source_root = sys.argv[1:4]
spec = importlib.util.spec_from_file_location(
    "raise_oracle", os.path.join(source_root, "tools", "raise-oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

B, SQ, SKV, HQ, HKV, D, DV, SCALE = 2, 5, 4, 4, 2, 3, 2, 0.7
GROUP = HQ // HKV


def at(b, s, h, d, seq, heads, depth):
    return ((b * seq + s) * heads + h) * depth + d


def forward(q, k, v, sinks, causal):
    """O [B, SQ, HQ, DV] in double: each row's softmax with its sink."""
    o = [0.0] * (B * SQ * HQ * DV)
    for b in range(B):
        for h in range(HQ):
            for i in range(SQ):
                keys = [j for j in range(SKV)
                        if not causal or j <= i + SKV - SQ]
                s = [SCALE * sum(q[at(b, i, h, d, SQ, HQ, D)] *
                                 k[at(b, j, h // GROUP, d, SKV, HKV, D)]
                                 for d in range(D)) for j in keys]
                top = max(s + [sinks[h]])
                w = [math.exp(x - top) for x in s]
                total = sum(w) + math.exp(sinks[h] - top)
                for e in range(DV):
                    o[at(b, i, h, e, SQ, HQ, DV)] = sum(
                        wj * v[at(b, j, h // GROUP, e, SKV, HKV, DV)]
                        for wj, j in zip(w, keys)) / total
    return o


def numeric(do, q, k, v, sinks, causal):
    grad = []
    for h in range(HQ):
        step = 1e-5
        up, down = list(sinks), list(sinks)
        up[h] += step
        down[h] -= step
        loss = [sum(a * b for a, b in zip(do, forward(q, k, v, s, causal)))
                for s in (up, down)]
        grad.append((loss[0] - loss[1]) / (2 * step))
    return grad


def module(runner, causal):
    t = lambda s, h, d: "tensor<%dx%dx%dx%dxf16>" % (B, s, h, d)
    q, k, v, o = t(SQ, HQ, D), t(SKV, HKV, D), t(SKV, HKV, DV), t(SQ, HQ, DV)
    lse = "tensor<%dx%dx%dxf32>" % (B, HQ, SQ)
    sinks = "tensor<%dxf32>" % HQ
    mask = "causal" if causal else "none"
    forward_text = """func.func private @attention(%%q: %s, %%k: %s, %%v: %s, %%s: %s) -> %s {
  %%o, %%lse = attn.attention %%q, %%k, %%v sinks(%%s : %s) {scale = %r : f32, mask = #attn.mask<%s>} : %s, %s, %s -> %s, %s
  return %%o : %s
}
""" % (q, k, v, sinks, o, sinks, SCALE, mask, q, k, v, o, lse, o)
    linked = runner.tool([fa4_opt, "--test-attention-backward"],
                         forward_text)
    body = linked[linked.index("func.func"):linked.rindex("}")]
    # The runner's harness calls the first function and prints its one
    # result: a wrapper that returns the sinks' gradient alone.
    wrapper = """func.func @sinks_gradient(%%q: %s, %%k: %s, %%v: %s, %%s: %s, %%do: %s) -> %s {
  %%r:5 = func.call @attention(%%q, %%k, %%v, %%s, %%do) : (%s, %s, %s, %s, %s) -> (%s, %s, %s, %s, %s)
  return %%r#4 : %s
}
""" % (q, k, v, sinks, o, sinks, q, k, v, sinks, o, o, q, k, v, sinks, sinks)
    prefix = linked[:linked.index("module {")] if "module {" in linked else ""
    return prefix + wrapper + body


def worst(actual, expected):
    if len(actual) != len(expected):
        return math.inf
    return max(abs(a - e) for a, e in zip(actual, expected))


runner = oracle.Runner(fa4_opt, llvm_root)
for causal in (True, False):
    values = runner.run(module(runner, causal), decompose=True,
                        print_inputs=True)
    q, k, v, sinks, do, got = values
    expected = numeric(do, q, k, v, sinks, causal)
    error = worst(got, expected)
    scale = max(1.0, max(abs(x) for x in expected))
    print("%-7s dsinks %s" % ("causal" if causal else "none",
                              "ok" if error <= scale * 2 ** -9
                              else "off %g (got %s, expected %s)"
                              % (error, got, expected)))
runner.close()
