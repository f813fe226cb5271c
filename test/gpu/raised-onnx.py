#!/usr/bin/env python3
"""GPU check of attn-raise on a real frontend's IR: the kernels fa4 compiled
from ONNX models that IREE's importer lowered to linalg
(test/Dialect/Attn/Transforms/Inputs/frontend-attention.py, then fa4-opt --attn-raise and
fa4-compile), against onnxruntime running the same .onnx.

    raised-onnx.py DIR      DIR/<model>.onnx and DIR/<model>/ (fa4-compile -o)

Per model, fresh random f16 inputs: onnxruntime's output (CPU) and fa4's
(on the GPU, BHSD inputs passed as BSHD views; [S, D] and [H, S, D] ones
as BHSD with unit dims) against an f64 reference of
the ONNX graph itself (its scale and mask, a Trilu's computed from the
lengths): fa4 passes where its error is at
most twice onnxruntime's plus 1e-5 (FlashAttention's rule with the
framework as the low-precision reference).
"""
import os
import sys

import numpy as np


def takes_bshd(model_path):
    """Whether the model's tensors are BSHD (transposed to BHSD inside)."""
    import onnx
    first = onnx.load(model_path).graph.node[0]
    return first.op_type == "Transpose" and first.input[0] == "q"


def lift(array):
    """`array` as BHSD: [S, D] and [H, S, D] with leading unit dims."""
    return array.reshape((1,) * (4 - array.ndim) + array.shape)


def reference(model_path, feeds):
    """The graph in f64, BHSD: its scale and mask (additive or a Where over
    booleans) initializers, its softmax."""
    import onnx
    from onnx import numpy_helper
    model = onnx.load(model_path)
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    q, k, v = (feeds[n].astype(np.float64) for n in ("q", "k", "v"))
    if takes_bshd(model_path):
        q, k, v = (t.transpose(0, 2, 1, 3) for t in (q, k, v))
    # GQA: each key/value head serves its group of query heads.
    k = np.repeat(k, q.shape[1] // k.shape[1], axis=1)
    v = np.repeat(v, q.shape[1] // v.shape[1], axis=1)
    s = np.einsum("bhqd,bhkd->bhqk", q, k) * float(inits["scale"])
    trilu = [n for n in model.graph.node if n.op_type == "Trilu"]
    if trilu:
        # A mask computed from the lengths (test/Dialect/Attn/Transforms/Inputs/frontend-attention.py's
        # computed_mask): Trilu's diagonal Skv - Sq where it has one, else 0.
        sq, skv = s.shape[-2:]
        diagonal = skv - sq if len(trilu[0].input) == 2 else 0
        keep = np.tril(np.ones((sq, skv), bool), diagonal)
        s = np.where(keep, s, -np.inf)
    elif "mask" in inits and inits["mask"].dtype == bool:
        s = np.where(inits["mask"], s, -np.inf)
    elif "mask" in inits:
        s = s + inits["mask"].astype(np.float64)
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    return np.einsum("bhqk,bhkd->bhqd", p / p.sum(axis=-1, keepdims=True), v)


def main():
    import onnxruntime
    import torch
    import fa4
    root = sys.argv[1]
    failures = 0
    for name in sorted(f[:-5] for f in os.listdir(root) if f.endswith(".onnx")):
        path = os.path.join(root, name + ".onnx")
        ort = onnxruntime.InferenceSession(
            path, providers=["CPUExecutionProvider"])
        # A symbolic dim (the dynamic model's batch and lengths): odd sizes.
        sizes = {"b": 3, "sq": 37, "skv": 45}
        shapes = {i.name: [sizes.get(d, d) for d in i.shape]
                  for i in ort.get_inputs()}
        rng = np.random.RandomState(len(name))
        feeds = {n: rng.randn(*shapes[n]).astype(np.float16)
                 for n in ("q", "k", "v")}
        (o_ort,) = ort.run(None, feeds)
        # [S, D] and [H, S, D] models: BHSD with unit batch (and heads).
        feeds = {n: lift(t) for n, t in feeds.items()}
        o_ort = lift(o_ort)
        kernel = fa4.Kernel.load(os.path.join(root, name))
        # The raised kernel takes BSHD: BHSD inputs as transposed views.
        bshd = takes_bshd(path)
        q, k, v = (torch.from_numpy(feeds[n]).cuda() for n in ("q", "k", "v"))
        if not bshd:
            q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        results = kernel(q, k, v)
        o = results[0] if isinstance(results, tuple) else results
        o = (o if bshd else o.transpose(1, 2)).float().cpu().numpy()
        ref = reference(path, feeds)
        if bshd:
            ref = ref.transpose(0, 2, 1, 3)
        err = float(np.abs(o - ref).max())
        err_ort = float(np.abs(o_ort.astype(np.float64) - ref).max())
        ok = err <= 2 * err_ort + 1e-5
        failures += not ok
        print("%-4s %s q %s k %s: fa4 max_err %.3g, onnxruntime's %.3g "
              "(mask %s)" % ("pass" if ok else "FAIL", name, shapes["q"],
                             shapes["k"], err, err_ort, kernel.info.mask))
    print("raised-onnx: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
