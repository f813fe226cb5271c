#!/usr/bin/env python3
"""Attention as a real frontend lowers it, for attn-raise's tests
(test/Dialect/Attn/Transforms/raise.test).

Builds small ONNX graphs of attention as exporters write it (MatMul with a
transposed K, a scale, an optional additive mask, Softmax, MatMul; BHSD
f16), imports each with IREE's released ONNX importer (iree-import-onnx,
PyPI iree-base-compiler) and lowers it with the torch-mlir pipelines IREE
carries (torch-onnx-to-torch-backend, torch-backend-to-linalg-on-tensors):
the linalg on tensors that compilers embedding fa4 see. Writes one .mlir a
model into OUT_DIR, and each model's inputs and onnxruntime's output as .npy
where onnxruntime is installed (the H200 check).

  python3 -m venv env && env/bin/pip install iree-base-compiler onnx numpy
  env/bin/python test/Dialect/Attn/Transforms/Inputs/frontend-attention.py OUT_DIR

With --tosa, the same models in TOSA instead (test/Dialect/Attn/Transforms/
raise-tosa.test): imported by torch-mlir's released ONNX importer and
lowered by its TOSA backend pipeline (PyPI torch-mlir, which needs no
torch). That pipeline takes static shapes only, so the "dynamic" models
are left out.

  env/bin/pip install torch-mlir==20261001 onnx numpy
  env/bin/python test/Dialect/Attn/Transforms/Inputs/frontend-attention.py --tosa OUT_DIR
"""
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

B, H, D = 2, 4, 64
HKV_GQA = 2  # the "gqa" model: 4 query heads on 2 key/value heads


def additive(keep):
    return np.where(keep, 0.0, -np.inf).astype(np.float16)


def bottom_right(sq, skv, left=None, right=0):
    i = np.arange(sq)[:, None] + (skv - sq)
    j = np.arange(skv)[None, :]
    keep = np.ones((sq, skv), dtype=bool)
    if right is not None:
        keep &= j <= i + right
    if left is not None:
        keep &= j >= i - left
    return keep


# name: (sq, skv, mask or None, softmax axis)
MODELS = {
    "none": (33, 33, None, -1),
    "none-cross": (17, 40, None, -1),
    "causal": (33, 33, additive(bottom_right(33, 33)), -1),
    "window": (33, 33, additive(bottom_right(33, 33, left=8)), -1),
    # The hidden keys at f16's lowest value instead of -inf, as transformers
    # builds its masks (torch.finfo(dtype).min).
    "causal-finfo-min": (33, 33, np.where(bottom_right(33, 33), 0.0,
                                          np.finfo(np.float16).min)
                         .astype(np.float16), -1),
    # K and V repeated for each query head of their group (Unsqueeze,
    # Expand, Reshape), as GQA models export.
    "gqa": (33, 33, additive(bottom_right(33, 33)), -1),
    # The mask as a Where over booleans (torch.where, masked_fill).
    "select-causal": (33, 33, bottom_right(33, 33), -1),
    # Q, K, V and O in BSHD, transposed to BHSD around the attention, as
    # models that keep [batch, seq, heads, dim] export it.
    "bshd": (33, 33, additive(bottom_right(33, 33)), -1),
    # The scale as sqrt(scale) on Q and on K^T, as torch.onnx exports
    # scaled_dot_product_attention.
    "split-scale": (33, 33, bottom_right(33, 33), -1),
    # Batch and lengths symbolic: the importer's tensor.dim and dynamic
    # tensor.empty around the same computation.
    "dynamic": ("sq", "skv", None, -1),
    # Symbolic lengths with a causal mask computed from them, as exporters
    # write is_causal: Trilu over ones of the scores' shape, its diagonal
    # k = Skv - Sq (bottom-right) from the inputs' shapes, and a Where.
    "dynamic-causal": ("sq", "skv", "trilu-bottom-right", -1),
    # One head without a batch, [S, D] (linalg.matmul), and heads without a
    # batch, [H, S, D] (linalg.batch_matmul on the operands themselves).
    "single-head": (33, 33, additive(bottom_right(33, 33)), -1),
    "heads-only": (17, 40, None, -1),
    # Left alone: a bias is no mask; a top-left causal mask with sq < skv
    # hides keys fa4's bottom-right one shows; softmax over the queries.
    "bias": (33, 33, np.random.RandomState(0).randn(33, 33)
             .astype(np.float16), -1),
    "causal-top-left": (17, 40, additive(np.tril(np.ones((17, 40), bool))),
                        -1),
    "softmax-queries": (33, 33, None, -2),
    # Left alone: the same with k = 0 (top-left), which hides keys fa4's
    # mask shows wherever Sq < Skv, and the lengths are not known.
    "dynamic-top-left": ("sq", "skv", "trilu-top-left", -1),
}


def computed_mask(kind, query, key, inits):
    """A causal mask from the scores' symbolic shape: Trilu of ones, its
    diagonal Skv - Sq ("trilu-bottom-right") or 0 ("trilu-top-left"),
    applied to "scaled" by a Where that hides with -inf."""
    inits += [numpy_helper.from_array(np.array(1, np.float16), "one"),
              numpy_helper.from_array(np.array(-np.inf, np.float16),
                                      "hidden")]
    nodes = [helper.make_node("Shape", ["scaled"], ["lengths"], start=-2),
             helper.make_node("Expand", ["one", "lengths"], ["ones"])]
    diagonal = []
    if kind == "trilu-bottom-right":
        nodes += [helper.make_node("Shape", [key], ["skv"], start=-2, end=-1),
                  helper.make_node("Shape", [query], ["sq"], start=-2, end=-1),
                  helper.make_node("Sub", ["skv", "sq"], ["offset"]),
                  helper.make_node("Squeeze", ["offset"], ["diagonal"])]
        diagonal = ["diagonal"]
    return nodes + [
        helper.make_node("Trilu", ["ones"] + diagonal, ["lower"], upper=0),
        helper.make_node("Cast", ["lower"], ["keep"], to=TensorProto.BOOL),
        helper.make_node("Where", ["keep", "scaled", "hidden"], ["masked"])]


def model(sq, skv, mask, axis, hkv=H, bshd=False, split_scale=False, rank=4):
    f16 = TensorProto.FLOAT16
    # A symbolic length makes the batch symbolic too.
    batch = "b" if isinstance(sq, str) else B

    def layout(b, h, s, d):
        return ([b, s, h, d] if bshd else [b, h, s, d])[4 - rank:]
    # K^T: its last two dims swapped.
    transposed = list(range(rank - 2)) + [rank - 1, rank - 2]

    inputs = [helper.make_tensor_value_info("q", f16, layout(batch, H, sq, D)),
              helper.make_tensor_value_info("k", f16,
                                            layout(batch, hkv, skv, D)),
              helper.make_tensor_value_info("v", f16,
                                            layout(batch, hkv, skv, D))]
    out = helper.make_tensor_value_info("o", f16, layout(batch, H, sq, D))
    inits = [numpy_helper.from_array(
        np.array(1 / np.sqrt(D), dtype=np.float16), "scale")]
    nodes = []
    query, key, value = "q", "k", "v"
    if bshd:
        nodes += [helper.make_node("Transpose", [t], [t + "b"],
                                   perm=[0, 2, 1, 3]) for t in "qkv"]
        query, key, value = "qb", "kb", "vb"
    if hkv != H:
        inits += [
            numpy_helper.from_array(np.array([2], np.int64), "axis2"),
            numpy_helper.from_array(
                np.array([B, hkv, H // hkv, skv, D], np.int64), "grouped"),
            numpy_helper.from_array(np.array([B, H, skv, D], np.int64),
                                    "heads")]
        for t in (key, value):
            nodes += [helper.make_node("Unsqueeze", [t, "axis2"], [t + "1"]),
                      helper.make_node("Expand", [t + "1", "grouped"],
                                       [t + "g"]),
                      helper.make_node("Reshape", [t + "g", "heads"],
                                       [t + "h"])]
        key, value = "kh", "vh"
    if split_scale:
        inits.append(numpy_helper.from_array(
            np.array(D ** -0.25, dtype=np.float16), "root"))
        nodes += [helper.make_node("Mul", [query, "root"], ["qs"]),
                  helper.make_node("Transpose", [key], ["kt0"],
                                   perm=transposed),
                  helper.make_node("Mul", ["kt0", "root"], ["kt"]),
                  helper.make_node("MatMul", ["qs", "kt"], ["scaled"])]
    else:
        nodes += [helper.make_node("Transpose", [key], ["kt"],
                                   perm=transposed),
                  helper.make_node("MatMul", [query, "kt"], ["s"]),
                  helper.make_node("Mul", ["s", "scale"], ["scaled"])]
    last = "scaled"
    if isinstance(mask, str):
        nodes += computed_mask(mask, query, key, inits)
        last = "masked"
    elif mask is not None and mask.dtype == bool:
        inits += [numpy_helper.from_array(mask, "mask"),
                  numpy_helper.from_array(np.array(-np.inf, np.float16),
                                          "hidden")]
        nodes.append(helper.make_node("Where", ["mask", last, "hidden"],
                                      ["masked"]))
        last = "masked"
    elif mask is not None:
        inits.append(numpy_helper.from_array(mask, "mask"))
        nodes.append(helper.make_node("Add", [last, "mask"], ["masked"]))
        last = "masked"
    nodes += [helper.make_node("Softmax", [last], ["p"], axis=axis),
              helper.make_node("MatMul", ["p", value],
                               ["ob" if bshd else "o"])]
    if bshd:
        nodes.append(helper.make_node("Transpose", ["ob"], ["o"],
                                      perm=[0, 2, 1, 3]))
    graph = helper.make_graph(nodes, "attention", inputs, [out], inits)
    made = helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 17)])
    made.ir_version = 10  # what onnxruntime 1.30 reads (at most 13)
    return made


def lower_to_linalg(path):
    """IREE's importer and torch-mlir pipelines: linalg on tensors."""
    bin_dir = os.path.dirname(sys.executable)
    subprocess.check_call([os.path.join(bin_dir, "iree-import-onnx"),
                           path + ".onnx", "-o", path + ".torch.mlir"])
    subprocess.check_call([
        os.path.join(bin_dir, "iree-opt"),
        "--torch-onnx-to-torch-backend-pipeline",
        "--torch-backend-to-linalg-on-tensors-backend-pipeline",
        # Elements as literals: hex encodings differ between MLIR
        # versions (i1 is packed by newer ones, not by MLIR 22).
        "--mlir-print-elementsattrs-with-hex-if-larger=-1",
        path + ".torch.mlir", "-o", path + ".mlir"])


def lower_to_tosa(path):
    """torch-mlir's own importer and TOSA backend pipeline."""
    subprocess.check_call([sys.executable, "-m",
                           "torch_mlir.tools.import_onnx", path + ".onnx",
                           "-o", path + ".torch.mlir"])
    subprocess.check_call([
        sys.executable, "-m", "torch_mlir.tools.opt",
        "--torch-onnx-to-torch-backend-pipeline",
        "--torch-backend-to-tosa-backend-pipeline",
        "--mlir-print-elementsattrs-with-hex-if-larger=-1",
        path + ".torch.mlir", "-o", path + ".mlir"])
    # The importer's scratch space for external data (none here).
    shutil.rmtree(os.path.join(os.path.dirname(path), "onnx-importer-temp"),
                  ignore_errors=True)


def main():
    tosa = sys.argv[1] == "--tosa"
    out_dir = sys.argv[-1]
    os.makedirs(out_dir, exist_ok=True)
    for name, (sq, skv, mask, axis) in MODELS.items():
        if tosa and name.startswith("dynamic"):
            continue
        path = os.path.join(out_dir, name)
        hkv = HKV_GQA if name == "gqa" else H
        bshd = name == "bshd"
        split_scale = name == "split-scale"
        rank = {"single-head": 2, "heads-only": 3}.get(name, 4)
        onnx.save(model(sq, skv, mask, axis, hkv, bshd, split_scale, rank),
                  path + ".onnx")
        (lower_to_tosa if tosa else lower_to_linalg)(path)
        os.remove(path + ".torch.mlir")
        try:
            import onnxruntime
        except ImportError:
            continue
        ort = onnxruntime.InferenceSession(path + ".onnx")
        rng = np.random.RandomState(1)
        # Symbolic dims: B, and 33 and 40 keys.
        sizes = {"b": B, "sq": 33, "skv": 40}
        feeds = {n: rng.randn(*[sizes.get(d, d) for d in i.shape])
                 .astype(np.float16) for n, i in zip("qkv", ort.get_inputs())}
        (o,) = ort.run(None, feeds)
        np.savez(path + ".npz", o=o, **feeds)


if __name__ == "__main__":
    main()
