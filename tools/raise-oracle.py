#!/usr/bin/env python3
"""attn-raise's differential oracle: a module before and after raising,
both run on the CPU, must compute the same values.

For each module of a corpus it runs `fa4-opt --attn-raise`; where that
raised an attn.attention, the raised module (the op rewritten by
`--attn-decompose` into the linalg of its meaning) and the original are
lowered with upstream passes, run by `mlir-runner` on inputs that are the
same for both, and their outputs compared. A case says whether it must be
raised (`raise`) or left alone (`near`: a near miss, attention in shape but
not in meaning); a near miss that is raised fails.

The corpus: the generated cases (`cases()`: the forms frontends write, and
near misses, each one deviation from a raised form: an initial value, a
combiner, an operand, a mask, a scale), plus the modules named with
`--raise` and `--near`. `--mutate N` also perturbs every raised form N times (constants,
combiners, operands, maps) and requires each mutant that still parses to be
left alone or to stay equal.

    raise-oracle.py --fa4-opt build/bin/fa4-opt --llvm-dir /usr/lib/llvm-22
        [--mutate 4] [--seed 1] [--jobs 2] [--keep DIR] [--list]
"""

import argparse
import concurrent.futures
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

# --------------------------------------------------------------------------
# The generated corpus.
# --------------------------------------------------------------------------

NEG_INF = {"f16": "0xFC00", "bf16": "0xFF80", "f32": "0xFF800000"}
POS_INF = {"f16": "0x7C00", "bf16": "0x7F80", "f32": "0x7F800000"}


class Form(object):
    """One attention as a frontend writes it, with knobs for near misses."""

    def __init__(self, name, layout="bhsd", dtype="f16", softmax="generic",
                 scale="mul", mask="none", sq=5, skv=7, depth=16, vdepth=16,
                 heads=2, kv_heads=2, batch=2, softmax_type="f32",
                 keepdim=False, matmul_init_type="f32", flat_scores=False,
                 qk_product="named", pv_product="named", **deviations):
        self.name = name
        self.layout = layout          # sd, hsd, bhsd, bshd
        self.dtype = dtype            # f16, bf16 (f32: a near miss)
        self.softmax = softmax        # generic or op (linalg.softmax)
        self.scale = scale            # mul, div, split, q, none
        self.mask = mask              # none, causal, window, select, bias,
                                      # top-left, empty-row
        self.sq, self.skv, self.depth, self.vdepth = sq, skv, depth, vdepth
        self.heads, self.kv_heads, self.batch = heads, kv_heads, batch
        self.softmax_type = softmax_type
        self.keepdim = keepdim
        self.matmul_init_type = matmul_init_type
        # BHSD products on [B*H, S, D]: the softmax on the flattened scores
        # (IREE's form) or on the scores expanded to BHSD (torch-mlir's).
        self.flat_scores = flat_scores
        # Q.K^T and P.V as named ops (their own maps), named ops with K read
        # transposed by their maps ("transposed": no linalg.transpose), or
        # linalg.generic contractions ("generic", "generic-transposed").
        self.qk_product, self.pv_product = qk_product, pv_product
        self.dev = deviations         # what makes it a near miss
        self.lines = []
        self.counter = 0

    # ---- helpers -------------------------------------------------------
    def fresh(self, stem="v"):
        self.counter += 1
        return "%%%s%d" % (stem, self.counter)

    def emit(self, text):
        self.lines.append("    " + text)

    @staticmethod
    def ttype(shape, dtype):
        return "tensor<%s>" % "x".join([str(s) for s in shape] + [dtype])

    def const(self, value, dtype):
        name = self.fresh("c")
        self.emit("%s = arith.constant %s : %s" % (name, value, dtype))
        return name

    def splat(self, value, dtype):
        name = self.fresh("c")
        self.emit("%s = arith.constant dense<%s> : tensor<%s>"
                  % (name, value, dtype))
        return name

    def empty(self, shape, dtype):
        name = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (name, self.ttype(shape, dtype)))
        return name

    def fill(self, value, shape, dtype):
        scalar = self.const(value, dtype)
        init = self.empty(shape, dtype)
        name = self.fresh("f")
        t = self.ttype(shape, dtype)
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                  % (name, scalar, dtype, init, t, t))
        return name

    @staticmethod
    def amap(loops, results):
        dims = ", ".join("d%d" % i for i in range(loops))
        return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(results))

    def generic(self, ins, outs, maps, iterators, body, result_types):
        """`ins`/`outs`: lists of (name, type); `body`: lines using
        %in0.., %out0.., ending with a yield."""
        name = self.fresh("g")
        args = ", ".join(["%%in%d: %s" % (i, parse_tensor(t)[1])
                          for i, (_, t) in enumerate(ins)] +
                         ["%%out%d: %s" % (i, parse_tensor(t)[1])
                          for i, (_, t) in enumerate(outs)])
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types "
                  "= [%s]} ins(%s : %s) outs(%s : %s) {"
                  % (name, ", ".join(maps),
                     ", ".join('"%s"' % it for it in iterators),
                     ", ".join(n for n, _ in ins), ", ".join(t for _, t in ins),
                     ", ".join(n for n, _ in outs),
                     ", ".join(t for _, t in outs)))
        self.emit("^bb0(%s):" % args)
        for line in body:
            self.emit("  " + line)
        self.emit("} -> %s" % ", ".join(result_types))
        return name

    def elementwise(self, value, shape, from_type, to_type, op):
        """`op` is 'truncf' or 'extf' or a body-line template."""
        loops = len(shape)
        ident = self.amap(loops, ["d%d" % i for i in range(loops)])
        out = self.empty(shape, to_type)
        yielded = "%out0" if self.dev.get("cast_yields_init") else "%r"
        body = ["%%r = arith.%s %%in0 : %s to %s" % (op, from_type, to_type),
                "linalg.yield %s : %s" % (yielded, to_type)]
        return self.generic([(value, self.ttype(shape, from_type))],
                            [(out, self.ttype(shape, to_type))],
                            [ident, ident], ["parallel"] * loops, body,
                            [self.ttype(shape, to_type)])

    def convert(self, value, shape, from_type, to_type):
        if from_type == to_type:
            return value
        widths = {"f16": 16, "bf16": 16, "f32": 32}
        op = "extf" if widths[to_type] > widths[from_type] else "truncf"
        return self.elementwise(value, shape, from_type, to_type, op)

    def binary(self, lhs, rhs, shape, dtype, rhs_map, op, rhs_type=None,
               swap=False):
        loops = len(shape)
        ident = self.amap(loops, ["d%d" % i for i in range(loops)])
        out = self.empty(shape, dtype)
        a, b = ("%in1", "%in0") if swap else ("%in0", "%in1")
        body = ["%%r = arith.%s %s, %s : %s" % (op, a, b, dtype),
                "linalg.yield %r : " + dtype]
        return self.generic([(lhs, self.ttype(shape, dtype)),
                             (rhs, rhs_type)], [(out, self.ttype(shape, dtype))],
                            [ident, rhs_map, ident], ["parallel"] * loops,
                            body, [self.ttype(shape, dtype)])

    def scalar_map(self, loops):
        return "affine_map<(%s) -> ()>" % ", ".join("d%d" % i
                                                    for i in range(loops))

    def scale_by(self, value, shape, dtype, factor, op="mulf"):
        c = self.splat(repr_float(factor), dtype)
        return self.binary(value, c, shape, dtype, self.scalar_map(len(shape)),
                           op, "tensor<%s>" % dtype)

    def transpose(self, value, shape, dtype, perm):
        out_shape = [shape[p] for p in perm]
        init = self.empty(out_shape, dtype)
        name = self.fresh("t")
        self.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) "
                  "permutation = [%s]"
                  % (name, value, self.ttype(shape, dtype), init,
                     self.ttype(out_shape, dtype),
                     ", ".join(str(p) for p in perm)))
        return name, out_shape

    def collapse(self, value, shape, dtype, groups):
        out_shape = [prod(shape[i] for i in g) for g in groups]
        name = self.fresh("cs")
        self.emit("%s = tensor.collapse_shape %s [%s] : %s into %s"
                  % (name, value, ", ".join("[%s]" % ", ".join(map(str, g))
                                            for g in groups),
                     self.ttype(shape, dtype), self.ttype(out_shape, dtype)))
        return name, out_shape

    def expand(self, value, shape, dtype, groups, out_shape):
        name = self.fresh("es")
        self.emit("%s = tensor.expand_shape %s [%s] output_shape [%s] : %s "
                  "into %s"
                  % (name, value, ", ".join("[%s]" % ", ".join(map(str, g))
                                            for g in groups),
                     ", ".join(map(str, out_shape)),
                     self.ttype(shape, dtype), self.ttype(out_shape, dtype)))
        return name

    def matmul(self, lhs, lshape, rhs, rshape, dtype, name_dev, form="named"):
        """lhs [.., m, k] times rhs [.., k, n], or [.., n, k] for the
        transposed forms."""
        batched = len(lshape) == 3
        transposed = form.endswith("transposed")
        n = rshape[-2] if transposed else rshape[-1]
        out_shape = lshape[:-1] + [n]
        acc = self.matmul_init_type
        init = self.fill(self.dev.get(name_dev, "0.000000e+00"), out_shape, acc)
        loops = 4 if batched else 3
        batch = ["d0"] if batched else []
        m, n_, k = ["d%d" % (i + len(batch)) for i in range(3)]
        maps = [self.amap(loops, batch + [m, k]),
                self.amap(loops, batch + ([n_, k] if transposed else [k, n_])),
                self.amap(loops, batch + [m, n_])]
        types = (self.ttype(lshape, dtype), self.ttype(rshape, dtype),
                 self.ttype(out_shape, acc))
        if form.startswith("generic"):
            body = []
            a, b = "%in0", "%in1"
            if acc != dtype:
                body += ["%%a = arith.extf %%in0 : %s to %s" % (dtype, acc),
                         "%%b = arith.extf %%in1 : %s to %s" % (dtype, acc)]
                a, b = "%a", "%b"
            body += ["%%p = arith.mulf %s, %s : %s" % (a, b, acc),
                     "%%r = arith.%s %%out0, %%p : %s"
                     % (self.dev.get("product_combiner", "addf"), acc),
                     "linalg.yield %r : " + acc]
            name = self.generic([(lhs, types[0]), (rhs, types[1])],
                                [(init, types[2])], maps,
                                ["parallel"] * (loops - 1) + ["reduction"],
                                body, [types[2]])
            return name, out_shape
        name = self.fresh("mm")
        own_maps = "" if form == "named" else \
            " indexing_maps = [%s]" % ", ".join(maps)
        self.emit("%s = linalg.%s%s ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                  % (name, "batch_matmul" if batched else "matmul", own_maps,
                     lhs, rhs, types[0], types[1], init, types[2], types[2]))
        return name, out_shape

    # ---- the softmax ---------------------------------------------------
    def softmax_generic(self, scores, shape, t):
        loops = len(shape)
        rows = shape[:-1]
        ident = self.amap(loops, ["d%d" % i for i in range(loops)])
        per_row = self.amap(loops, ["d%d" % i for i in range(loops - 1)])
        per_row_keep = self.amap(loops, ["d%d" % i for i in range(loops - 1)]
                                 + ["0"])
        red = ["parallel"] * (loops - 1) + ["reduction"]
        if self.dev.get("softmax_over_queries"):
            per_row = self.amap(loops, ["d%d" % i for i in range(loops - 2)]
                                + ["d%d" % (loops - 1)])
            rows = shape[:-2] + [shape[-1]]
            red = (["parallel"] * (loops - 2) + ["reduction", "parallel"])
        max_init = self.dev.get("max_init", NEG_INF[t])
        mx = self.fill(max_init, rows, t)
        combiner = self.dev.get("max_combiner", "maximumf")
        mx = self.generic([(scores, self.ttype(shape, t))],
                          [(mx, self.ttype(rows, t))], [ident, per_row], red,
                          ["%%r = arith.%s %%in0, %%out0 : %s" % (combiner, t),
                           "linalg.yield %r : " + t], [self.ttype(rows, t)])
        row_map, row_type = per_row, self.ttype(rows, t)
        if self.keepdim and not self.dev.get("softmax_over_queries"):
            mx = self.expand(mx, rows, t,
                             [[i] for i in range(len(rows) - 1)]
                             + [[len(rows) - 1, len(rows)]], rows + [1])
            row_map, row_type = per_row_keep, self.ttype(rows + [1], t)
        shifted = self.binary(scores, mx, shape, t, row_map, "subf", row_type,
                              swap=self.dev.get("sub_swapped", False))
        out = self.empty(shape, t)
        exp_in = "%out0" if self.dev.get("exp_reads_out") else "%in0"
        exp_op = self.dev.get("exp_op", "exp")
        exps = self.generic([(shifted, self.ttype(shape, t))],
                            [(out, self.ttype(shape, t))], [ident, ident],
                            ["parallel"] * loops,
                            ["%%r = math.%s %s : %s" % (exp_op, exp_in, t),
                             "linalg.yield %r : " + t], [self.ttype(shape, t)])
        sum_rows = rows + [1] if self.keepdim else rows
        sum_map = per_row_keep if self.keepdim else per_row
        if self.dev.get("softmax_over_queries"):
            sum_rows, sum_map = rows, per_row
        if self.dev.get("sum_init_is_max_init"):
            total = self.fill(max_init, sum_rows, t)
        else:
            total = self.fill(self.dev.get("sum_init", "0.000000e+00"),
                              sum_rows, t)
        sum_combiner = self.dev.get("sum_combiner", "addf")
        body = ["%%r = arith.%s %%in0, %%out0 : %s" % (sum_combiner, t)]
        if self.dev.get("sum_plus_one"):
            body = ["%%a = arith.addf %%in0, %%out0 : %s" % t,
                    "%%one = arith.constant 1.0 : %s" % t,
                    "%%r = arith.addf %%a, %%one : %s" % t]
        total = self.generic([(exps, self.ttype(shape, t))],
                             [(total, self.ttype(sum_rows, t))],
                             [ident, sum_map], red,
                             body + ["linalg.yield %r : " + t],
                             [self.ttype(sum_rows, t)])
        divisor = mx if self.dev.get("divide_by_max") else total
        divisor_type = row_type if self.dev.get("divide_by_max") else \
            self.ttype(sum_rows, t)
        divisor_map = row_map if self.dev.get("divide_by_max") else sum_map
        return self.binary(exps, divisor, shape, t, divisor_map, "divf",
                           divisor_type,
                           swap=self.dev.get("div_swapped", False))

    def softmax_op(self, scores, shape, t):
        out = self.empty(shape, t)
        name = self.fresh("sm")
        dim = len(shape) - (2 if self.dev.get("softmax_over_queries") else 1)
        self.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s)"
                  " -> %s" % (name, dim, scores, self.ttype(shape, t), out,
                              self.ttype(shape, t), self.ttype(shape, t)))
        return name

    # ---- masks ---------------------------------------------------------
    def keep(self, i, j):
        d = self.skv - self.sq
        kind = self.mask
        if kind in ("causal", "select", "finfo-min"):
            return j <= i + d
        if kind == "window":
            return i + d - 2 <= j <= i + d + 1
        if kind == "top-left":
            return j <= i
        if kind == "empty-row":
            return j <= i + d and i != 1
        return True

    def apply_mask(self, scores, shape, t):
        loops = len(shape)
        qk = self.amap(loops, ["d%d" % (loops - 2), "d%d" % (loops - 1)])
        mtype = self.ttype([self.sq, self.skv], t)
        if self.mask == "none":
            return scores
        if self.mask == "select":
            rows = ["[%s]" % ", ".join("true" if self.keep(i, j) else "false"
                                       for j in range(self.skv))
                    for i in range(self.sq)]
            cond = self.fresh("c")
            self.emit("%s = arith.constant dense<[%s]> : %s"
                      % (cond, ", ".join(rows),
                         self.ttype([self.sq, self.skv], "i1")))
            hidden = self.splat(NEG_INF[t], t)
            out = self.empty(shape, t)
            ident = self.amap(loops, ["d%d" % i for i in range(loops)])
            return self.generic(
                [(cond, self.ttype([self.sq, self.skv], "i1")),
                 (scores, self.ttype(shape, t)), (hidden, "tensor<%s>" % t)],
                [(out, self.ttype(shape, t))],
                [qk, ident, self.scalar_map(loops), ident],
                ["parallel"] * loops,
                ["%r = arith.select %in0, %in1, %in2 : " + t,
                 "linalg.yield %r : " + t], [self.ttype(shape, t)])
        hide = NEG_INF[t]
        if self.mask == "finfo-min":
            hide = {"f16": "-6.550400e+04", "bf16": "0xFF7F",
                    "f32": "0xFF7FFFFF"}[t]
        rows = []
        for i in range(self.sq):
            row = []
            for j in range(self.skv):
                if self.mask == "bias":
                    row.append(repr_float(0.25 * ((i + j) % 3)))
                else:
                    row.append("0.000000e+00" if self.keep(i, j) else hide)
            rows.append("[%s]" % ", ".join(row))
        m = self.fresh("c")
        self.emit("%s = arith.constant dense<[%s]> : %s"
                  % (m, ", ".join(rows), mtype))
        return self.binary(scores, m, shape, t, qk, "addf", mtype)

    # ---- the whole function -------------------------------------------
    def build(self):
        t = self.dtype
        b, h, hkv = self.batch, self.heads, self.kv_heads
        sq, skv, dqk, dv = self.sq, self.skv, self.depth, self.vdepth
        scale = self.dev.get("scale_value", 0.25)
        if self.layout == "sd":
            qs, ks, vs, os_ = [sq, dqk], [skv, dqk], [skv, dv], [sq, dv]
        elif self.layout == "hsd":
            qs, ks, vs, os_ = [h, sq, dqk], [h, skv, dqk], [h, skv, dv], \
                [h, sq, dv]
        elif self.layout == "bshd":
            qs, ks, vs, os_ = [b, sq, h, dqk], [b, skv, hkv, dqk], \
                [b, skv, hkv, dv], [b, sq, h, dv]
        else:
            qs, ks, vs, os_ = [b, h, sq, dqk], [b, hkv, skv, dqk], \
                [b, hkv, skv, dv], [b, h, sq, dv]
        sig = "func.func @attention(%%q: %s, %%k: %s, %%v: %s) -> %s {" % (
            self.ttype(qs, t), self.ttype(ks, t), self.ttype(vs, t),
            self.ttype(os_, t))
        q, k, v = "%q", "%k", "%v"
        if self.layout == "bshd":
            q, qs = self.transpose(q, qs, t, [0, 2, 1, 3])
            v, vs = self.transpose(v, vs, t, [0, 2, 1, 3])
        # The scale on Q (before flattening), or split over Q and K^T.
        sqrt_scale = scale ** 0.5
        if self.scale == "q":
            q = self.scale_by(q, qs, t, scale)
        elif self.scale == "k":
            k = self.scale_by(k, ks, t, scale)
        elif self.scale == "split":
            q = self.scale_by(q, qs, t, sqrt_scale)
        # K^T, or K where the product reads it transposed.
        if self.qk_product.endswith("transposed"):
            kt, kts = k, ks
            if self.layout == "bshd":
                kt, kts = self.transpose(k, ks, t, [0, 2, 1, 3])
            elif self.layout == "bhsd" and hkv != h:
                g = h // hkv
                kb = self.broadcast(k, ks, t, g)
                kt, kts = self.collapse(kb, [b, hkv, g, skv, dqk], t,
                                        [[0], [1, 2], [3], [4]])
        elif self.layout == "bshd":
            kt, kts = self.transpose(k, ks, t, [0, 2, 3, 1])
        elif self.layout in ("bhsd",) and hkv != h:
            g = h // hkv
            bshape = [b, hkv, g, skv, dqk]
            kb = self.broadcast(k, ks, t, g)
            kf, kfs = self.collapse(kb, bshape, t, [[0], [1, 2], [3], [4]])
            kt, kts = self.transpose(kf, kfs, t, [0, 1, 3, 2])
        else:
            perm = {2: [1, 0], 3: [0, 2, 1], 4: [0, 1, 3, 2]}[len(ks)]
            if self.dev.get("key_not_transposed_right") and len(ks) == 4:
                perm = [1, 0, 3, 2]
            kt, kts = self.transpose(k, ks, t, perm)
        if self.scale == "split":
            kt = self.scale_by(kt, kts, t, sqrt_scale)
        flattened = len(qs) == 4
        if flattened:
            qm, qms = self.collapse(q, qs, t, [[0, 1], [2], [3]])
            ktm, ktms = self.collapse(kt, kts, t, [[0, 1], [2], [3]])
        else:
            qm, qms, ktm, ktms = q, qs, kt, kts
        scores, sshape = self.matmul(qm, qms, ktm, ktms, t, "qk_init",
                                     self.qk_product)
        acc = self.matmul_init_type
        st = self.softmax_type
        scores = self.convert(scores, sshape, acc, t)
        flat_shape = sshape
        if flattened and not self.flat_scores:
            sshape = [b, h, sq, skv]
            scores = self.expand(scores, flat_shape, t, [[0, 1], [2], [3]],
                                 sshape)
        if self.scale in ("mul", "div"):
            scores = self.scale_by(scores, sshape, t,
                                   scale if self.scale == "mul" else 1 / scale,
                                   "mulf" if self.scale == "mul" else "divf")
        scores = self.apply_mask(scores, sshape, t)
        scores = self.convert(scores, sshape, t, st)
        if self.softmax == "op":
            probs = self.softmax_op(scores, sshape, st)
        else:
            probs = self.softmax_generic(scores, sshape, st)
        probs = self.convert(probs, sshape, st, t)
        if flattened and not self.flat_scores:
            probs, sshape = self.collapse(probs, sshape, t, [[0, 1], [2], [3]])
        if flattened and hkv != h:
            g = h // hkv
            vb = self.broadcast(v, vs, t, g)
            vm, vms = self.collapse(vb, [b, hkv, g, skv, dv], t,
                                    [[0, 1, 2], [3], [4]])
        elif flattened:
            vm, vms = self.collapse(v, vs, t, [[0, 1], [2], [3]])
        else:
            vm, vms = v, vs
        out, oshape = self.matmul(probs, sshape, vm, vms, t, "pv_init",
                                  self.pv_product)
        out = self.convert(out, oshape, acc, t)
        if flattened:
            out = self.expand(out, oshape, t, [[0, 1], [2], [3]],
                              [b, h, sq, dv])
            if self.layout == "bshd":
                out, _ = self.transpose(out, [b, h, sq, dv], t, [0, 2, 1, 3])
        self.emit("return %s : %s" % (out, self.ttype(os_, t)))
        return "\n".join(["module {", "  " + sig] + self.lines +
                         ["  }", "}", ""])

    def broadcast(self, value, shape, dtype, group):
        b, hkv, s, d = shape
        out_shape = [b, hkv, group, s, d]
        init = self.empty(out_shape, dtype)
        return self.generic(
            [(value, self.ttype(shape, dtype))],
            [(init, self.ttype(out_shape, dtype))],
            [self.amap(5, ["d0", "d1", "d3", "d4"]),
             self.amap(5, ["d0", "d1", "d2", "d3", "d4"])],
            ["parallel"] * 5, ["linalg.yield %in0 : " + dtype],
            [self.ttype(out_shape, dtype)])


def prod(values):
    result = 1
    for v in values:
        result *= v
    return result


def repr_float(value):
    return "%.6e" % value


def raised_forms():
    """The forms attn-raise must raise: layouts, softmaxes, scales, masks,
    types, precisions and sizes, the ways frontends combine them."""
    forms = []
    layouts = ["sd", "hsd", "bhsd", "bshd"]
    for layout, dtype, softmax, scale, mask in itertools.product(
            layouts, ["f16", "bf16"], ["generic", "op"],
            ["mul", "div", "split"], ["none", "causal"]):
        forms.append(dict(layout=layout, dtype=dtype, softmax=softmax,
                          scale=scale, mask=mask))
    # Thin the product to a spread of 48, then add the other knobs.
    forms = forms[::2]
    extra = [
        # IREE's form: the softmax on [B*H, Sq, Skv].
        dict(layout="bhsd", flat_scores=True),
        dict(layout="bhsd", flat_scores=True, softmax="op", mask="causal"),
        dict(layout="bshd", flat_scores=True, softmax="op", scale="div"),
        dict(layout="bhsd", flat_scores=True, heads=4, kv_heads=2,
             dtype="bf16"),
        # K read transposed by the products' maps, generic contractions,
        # the scale on Q or on K.
        dict(layout="bhsd", flat_scores=True, softmax="op",
             qk_product="transposed"),
        dict(layout="sd", qk_product="transposed", softmax="op"),
        dict(layout="hsd", qk_product="transposed", mask="causal",
             dtype="bf16"),
        dict(layout="bshd", qk_product="transposed"),
        dict(layout="bhsd", qk_product="transposed", heads=4, kv_heads=2),
        dict(layout="bhsd", qk_product="generic", pv_product="generic"),
        dict(layout="sd", qk_product="generic-transposed",
             pv_product="generic", mask="causal"),
        dict(layout="bhsd", flat_scores=True, qk_product="generic-transposed",
             pv_product="generic", softmax="op", dtype="bf16"),
        dict(layout="bhsd", scale="q"), dict(layout="sd", scale="q"),
        dict(layout="bhsd", scale="k"), dict(layout="hsd", scale="k"),
        dict(layout="bhsd", scale="k", qk_product="transposed"),
        dict(layout="bshd", scale="q", softmax="op", mask="causal"),
        dict(layout="bhsd", scale="q", flat_scores=True, softmax="op",
             matmul_init_type="f16"),
        dict(layout="bhsd", mask="window"), dict(layout="sd", mask="window"),
        dict(layout="bhsd", mask="select"), dict(layout="hsd", mask="select"),
        dict(layout="bhsd", mask="finfo-min"),
        dict(layout="bhsd", heads=4, kv_heads=2),
        dict(layout="bhsd", heads=4, kv_heads=1, mask="causal"),
        dict(layout="bhsd", keepdim=True), dict(layout="sd", keepdim=True),
        dict(layout="bhsd", softmax_type="f16"),
        dict(layout="hsd", softmax_type="bf16", dtype="bf16"),
        dict(layout="bhsd", matmul_init_type="f16"),
        dict(layout="sd", sq=3, skv=9, mask="causal"),
        dict(layout="bhsd", sq=1, skv=11, mask="causal"),
        dict(layout="bhsd", vdepth=8),
        dict(layout="bshd", heads=3, kv_heads=3, mask="window"),
        # The max from f32's lowest finite value, as -inf.
        dict(layout="bhsd", max_init="0xFF7FFFFF"),
        dict(layout="sd", depth=32, vdepth=32, scale="div"),
    ]
    return forms + extra


def near_misses():
    """One deviation each from a raised form: attention in shape, not in
    meaning."""
    deviations = [
        dict(sum_init="1.000000e+00"), dict(sum_init="1.000000e+02"),
        dict(pv_init="1.000000e+00"), dict(qk_init="1.000000e+00"),
        dict(max_init="POS_INF"), dict(max_init="0.000000e+00"),
        dict(sum_init_is_max_init=True), dict(pv_init="5.000000e-01"),
        dict(max_combiner="minimumf"), dict(sum_combiner="maximumf"),
        dict(sum_plus_one=True), dict(exp_reads_out=True),
        dict(exp_op="exp2"), dict(sub_swapped=True), dict(div_swapped=True),
        dict(divide_by_max=True), dict(softmax_over_queries=True),
        dict(scale_value=-0.25), dict(mask="bias"), dict(mask="top-left"),
        dict(mask="empty-row"), dict(dtype="f32"),
        dict(key_not_transposed_right=True), dict(cast_yields_init=True),
        # Generic products: a max where the sum goes, or onto a bias.
        dict(qk_product="generic", pv_product="generic",
             product_combiner="maximumf"),
        dict(qk_product="generic-transposed", pv_product="generic",
             qk_init="2.500000e-01"),
        dict(qk_product="transposed", pv_init="1.000000e+00"),
    ]
    bases = [dict(layout="bhsd"), dict(layout="sd", dtype="bf16"),
             dict(layout="hsd", mask="causal"),
             dict(layout="bshd", softmax="generic", keepdim=True)]
    cases = []
    for index, deviation in enumerate(deviations):
        for base in bases[:3] if index % 2 == 0 else bases[1:]:
            options = dict(base)
            options.update(deviation)
            if options.get("key_not_transposed_right") and \
                    options["layout"] != "bhsd":
                continue
            if options.get("cast_yields_init") and options["layout"] == "hsd":
                continue
            cases.append(options)
    return cases


def render(options):
    options = dict(options)
    if options.get("max_init") == "POS_INF":
        options["max_init"] = POS_INF[options.get("softmax_type", "f32")]
    return Form("case", **options).build()


def case_name(kind, options):
    """`kind` and the options that differ from Form's defaults, e.g.
    near-sum_init=1.000000e+00-layout=sd."""
    defaults = dict(layout="bhsd", dtype="f16", softmax="generic",
                    scale="mul", mask="none")
    parts = ["%s=%s" % (key, value) for key, value in sorted(options.items())
             if defaults.get(key) != value]
    return "-".join([kind] + parts).replace("True", "1")


def cases():
    result = []
    for kind, forms in (("raise", raised_forms()), ("near", near_misses())):
        for options in forms:
            result.append((case_name(kind, options), kind, render(options),
                           options))
    names = [name for name, _, _, _ in result]
    assert len(set(names)) == len(names), "case names are unique"
    return result


# --------------------------------------------------------------------------
# Running a module on the CPU.
# --------------------------------------------------------------------------

SIGNATURE = re.compile(r"func\.func @(\w+)\((.*?)\)\s*->\s*\(?(tensor<[^>]*>)")
ARG = re.compile(r"%[\w.]+\s*:\s*(tensor<[^>]*>)")


def parse_tensor(text):
    body = text[len("tensor<"):-1].split("x")
    return body[:-1], body[-1]


def print_tensor(lines, value, tensor_type, stem):
    """Lines that print `value` (f32 or widened to it)."""
    dims, dtype = parse_tensor(tensor_type)
    rank = len(dims)
    f32type = "tensor<%s>" % "x".join(dims + ["f32"])
    out = value
    if dtype != "f32":
        sizes = []
        for d, size in enumerate(dims):
            if size == "?":
                lines.append("  %%%s_d%d = arith.constant %d : index"
                             % (stem, d, d))
                lines.append("  %%%s_s%d = tensor.dim %s, %%%s_d%d : %s"
                             % (stem, d, value, stem, d, tensor_type))
                sizes.append("%%%s_s%d" % (stem, d))
        lines.append("  %%%s_init = tensor.empty(%s) : %s"
                     % (stem, ", ".join(sizes), f32type))
        ident = "affine_map<(%s) -> (%s)>" % (
            ", ".join("d%d" % i for i in range(rank)),
            ", ".join("d%d" % i for i in range(rank)))
        lines.append("  %%%s_wide = linalg.generic {indexing_maps = [%s, %s], "
                     "iterator_types = [%s]} ins(%s : %s) outs(%%%s_init : %s)"
                     " {" % (stem, ident, ident,
                             ", ".join(['"parallel"'] * rank), value,
                             tensor_type, stem, f32type))
        lines.append("  ^bb0(%%in: %s, %%o: f32):" % dtype)
        lines.append("    %%w = arith.extf %%in : %s to f32" % dtype)
        lines.append("    linalg.yield %w : f32")
        lines.append("  } -> %s" % f32type)
        out = "%%%s_wide" % stem
    memref = "memref<%s>" % "x".join(dims + ["f32"])
    lines.append("  %%%s_buf = bufferization.to_buffer %s : %s to %s"
                 % (stem, out, f32type, memref))
    lines.append("  %%%s_unranked = memref.cast %%%s_buf : %s to memref<*xf32>"
                 % (stem, stem, memref))
    lines.append("  func.call @printMemrefF32(%%%s_unranked) : "
                 "(memref<*xf32>) -> ()" % stem)


def harness(module, dynamic_size, print_inputs=False):
    """`module` with a @main that calls its function on inputs made from
    their indices (the same in every module) and prints the result (after
    the inputs, with `print_inputs`)."""
    match = SIGNATURE.search(module)
    name, args, result = match.group(1), match.group(2), match.group(3)
    lines = ["func.func @main() {"]
    values = []
    for index, arg_type in enumerate(ARG.findall(args)):
        dims, dtype = parse_tensor(arg_type)
        static = [dynamic_size if d == "?" else int(d) for d in dims]
        stype = "tensor<%s>" % "x".join([str(d) for d in static] + [dtype])
        ivs = ", ".join("%%i%d: index" % d for d in range(len(static)))
        # The sizes the body reads, defined before it.
        for d, size in enumerate(static):
            lines.append("  %%c%d_%d = arith.constant %d : index"
                         % (index, d, size))
        lines.append("  %%a%d = tensor.generate {" % index)
        lines.append("  ^bb0(%s):" % ivs)
        # A linear index, hashed into [-1, 1).
        lines.append("    %%lin0 = arith.constant %d : index" % (index * 7919))
        for d in range(len(static)):
            lines.append("    %%m%d = arith.muli %%lin%d, %%c%d_%d : index"
                         % (d, d, index, d))
            lines.append("    %%lin%d = arith.addi %%m%d, %%i%d : index"
                         % (d + 1, d, d))
        lines.append("    %%x = arith.index_cast %%lin%d : index to i64"
                     % len(static))
        lines.append("    %k = arith.constant 2654435761 : i64")
        lines.append("    %p = arith.muli %x, %k : i64")
        lines.append("    %s = arith.shrui %p, %k16 : i64")
        lines.append("    %r = arith.remui %s, %m1021 : i64")
        lines.append("    %f = arith.uitofp %r : i64 to f32")
        lines.append("    %h = arith.constant 5.105000e+02 : f32")
        lines.append("    %dv = arith.divf %f, %h : f32")
        lines.append("    %one = arith.constant 1.000000e+00 : f32")
        lines.append("    %u = arith.subf %dv, %one : f32")
        if dtype != "f32":
            lines.append("    %%e = arith.truncf %%u : f32 to %s" % dtype)
            lines.append("    tensor.yield %%e : %s" % dtype)
        else:
            lines.append("    tensor.yield %u : f32")
        lines.append("  } : %s" % stype)
        value = "%%a%d" % index
        if stype != arg_type:
            lines.append("  %%a%dc = tensor.cast %%a%d : %s to %s"
                         % (index, index, stype, arg_type))
            value = "%%a%dc" % index
        values.append((value, arg_type))
    lines.insert(1, "  %k16 = arith.constant 16 : i64")
    lines.insert(2, "  %m1021 = arith.constant 1021 : i64")
    lines.append("  %%res = func.call @%s(%s) : (%s) -> %s"
                 % (name, ", ".join(v for v, _ in values),
                    ", ".join(t for _, t in values), result))
    if print_inputs:
        for index, (value, arg_type) in enumerate(values):
            print_tensor(lines, value, arg_type, "in%d" % index)
    print_tensor(lines, "%res", result, "out")
    lines.append("  return")
    lines.append("}")
    lines.append("func.func private @printMemrefF32(memref<*xf32>) "
                 "attributes {llvm.emit_c_interface}")
    text = module.rstrip()
    assert text.endswith("}"), "a module ends with its closing brace"
    if text.startswith("module") or re.match(r"(#\w+ = .*\n)*module", text):
        return text[:-1] + "\n" + "\n".join(lines) + "\n}\n"
    return text + "\n" + "\n".join(lines) + "\n"


# linalg.softmax into generics (upstream has no pass for it, only the
# transform op).
DECOMPOSE_SOFTMAX = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %softmax = transform.structured.match ops{["linalg.softmax"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %generics = transform.structured.decompose_interface %softmax
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""

LOWER = ["--one-shot-bufferize=bufferize-function-boundaries",
         "--convert-linalg-to-loops", "--expand-strided-metadata",
         "--lower-affine", "--convert-scf-to-cf", "--arith-expand=include-bf16=true",
         "--convert-math-to-llvm", "--convert-to-llvm",
         "--reconcile-unrealized-casts"]


class Runner(object):
    """`apfloat`: f8E4M3FN arithmetic (its extf and truncf, which no LLVM
    type holds) through MLIR's APFloat runtime (convert-arith-to-apfloat,
    libmlir_apfloat_wrappers)."""

    def __init__(self, fa4_opt, llvm_dir, dynamic_size=5, apfloat=False):
        self.fa4_opt = fa4_opt
        self.mlir_opt = os.path.join(llvm_dir, "bin", "mlir-opt")
        self.mlir_runner = os.path.join(llvm_dir, "bin", "mlir-runner")
        libs = os.path.join(llvm_dir, "lib")
        runtime = ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]
        if apfloat:
            runtime.append("libmlir_apfloat_wrappers.so")
        self.shared_libs = ",".join(os.path.join(libs, lib) for lib in runtime)
        self.dynamic_size = dynamic_size
        library = tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                              delete=False)
        library.write(DECOMPOSE_SOFTMAX)
        library.close()
        self.softmax_library = library.name
        lower = list(LOWER)
        if apfloat:
            lower.insert(lower.index("--convert-to-llvm"),
                         "--convert-arith-to-apfloat")
        self.lower = ["--transform-preload-library=transform-library-paths="
                      + library.name, "--transform-interpreter"] + lower

    def close(self):
        os.unlink(self.softmax_library)

    def tool(self, argv, text):
        done = subprocess.run(argv, input=text, capture_output=True,
                              text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError("%s failed:\n%s" % (" ".join(argv[:2]),
                                                   done.stderr[-3000:]))
        return done.stdout

    def raise_(self, module):
        return self.tool([self.fa4_opt, "--attn-raise"], module)

    def run(self, module, decompose, print_inputs=False):
        """The module's output, flat; with `print_inputs`, a list of its
        inputs' values and then the output's."""
        if decompose:
            module = self.tool([self.fa4_opt, "--attn-decompose"], module)
        lowered = self.tool([self.mlir_opt] + self.lower,
                            harness(module, self.dynamic_size, print_inputs))
        printed = self.tool([self.mlir_runner, "-e", "main",
                             "-entry-point-result=void",
                             "-shared-libs=" + self.shared_libs], lowered)
        tensors = [[float(x) for x in re.findall(
            r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)]
            for data in re.split(r"Unranked Memref[^\n]*data =", printed)[1:]]
        return tensors if print_inputs else tensors[-1]


def tolerance(module):
    """The difference raising may make: the original rounds its scores and
    probabilities to the operands' type where the raised op keeps f32."""
    return 2.0 ** -5 if "bf16" in module else 2.0 ** -7


def compare(expected, actual, tol):
    if len(expected) != len(actual):
        return "%d values against %d" % (len(actual), len(expected))
    worst = 0.0
    for e, a in zip(expected, actual):
        if e != e or a != a:
            if (e != e) != (a != a):
                return "NaN in one output only"
            continue
        worst = max(worst, abs(e - a) - tol * abs(e))
    if worst > tol:
        return "differs by %.4g (tolerance %.4g + %.4g relative)" % (
            worst + tol, tol, tol)
    return None


def check(runner, name, kind, module):
    """(name, failure or None, raised?)"""
    try:
        raised = runner.raise_(module)
    except RuntimeError as error:
        if kind == "mutant":
            return name, None, False  # a mutant the parser or verifier refuses
        return name, str(error), False
    is_raised = "attn.attention" in raised
    if kind == "raise" and not is_raised:
        return name, "not raised", False
    if not is_raised:
        return name, None, False
    try:
        expected = runner.run(module, decompose=False)
    except RuntimeError as error:
        if kind == "mutant":
            return name, None, True  # a mutant the CPU lowering refuses
        return name, "the original does not run: %s" % error, True
    actual = runner.run(raised, decompose=True)
    failure = compare(expected, actual, tolerance(module))
    if kind == "near":
        failure = "a near miss was raised (%s)" % (failure or "outputs equal")
    return name, failure, True


# --------------------------------------------------------------------------
# Mutants.
# --------------------------------------------------------------------------

MUTATIONS = [
    (r"arith\.constant (-?[\d.]+e[-+]\d+) : f(16|32)",
     lambda m, r: "arith.constant %s : f%s" % (
         r.choice(["1.000000e+00", "-1.000000e+00", "2.500000e-01",
                   "1.000000e+02"]), m.group(2))),
    (r"arith\.constant (0x[0-9A-F]+) : (f16|bf16|f32)",
     lambda m, r: "arith.constant %s : %s" % (
         r.choice(["0.000000e+00", "1.000000e+00", POS_INF[m.group(2)]]),
         m.group(2))),
    # Scales stay small enough for f16 scores to hold them to the
    # tolerance: the original rounds its scaled scores to f16.
    (r"dense<(-?[\d.]+e[-+]\d+)> : tensor<(f16|bf16|f32)>",
     lambda m, r: "dense<%s> : tensor<%s>" % (
         r.choice(["1.000000e+00", "-2.500000e-01", "5.000000e-01"]),
         m.group(2))),
    (r"arith\.maximumf", lambda m, r: r.choice(["arith.minimumf",
                                                  "arith.addf"])),
    (r"arith\.addf %in0, %out0", lambda m, r: r.choice(
        ["arith.maximumf %in0, %out0", "arith.mulf %in0, %out0",
         "arith.addf %in0, %in0"])),
    (r"arith\.subf %in0, %in1", lambda m, r: r.choice(
        ["arith.subf %in1, %in0", "arith.addf %in0, %in1"])),
    (r"arith\.divf %in0, %in1", lambda m, r: r.choice(
        ["arith.divf %in1, %in0", "arith.mulf %in0, %in1"])),
    (r"arith\.mulf %in0, %in1", lambda m, r: r.choice(
        ["arith.divf %in0, %in1", "arith.addf %in0, %in1"])),
    (r"math\.exp %in0", lambda m, r: r.choice(["math.exp2 %in0",
                                                "math.exp %out0"])),
    (r"dimension\((\d)\)", lambda m, r: "dimension(%d)"
     % max(0, int(m.group(1)) - 1)),
    (r"permutation = \[1, 0\]", lambda m, r: "permutation = [0, 1]"),
]


def mutants(module, count, rng):
    sites = []
    for pattern, replace in MUTATIONS:
        for match in re.finditer(pattern, module):
            sites.append((match, replace))
    rng.shuffle(sites)
    result = []
    for match, replace in sites[:count]:
        result.append(module[:match.start()] + replace(match, rng) +
                      module[match.end():])
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fa4-opt", required=True)
    parser.add_argument("--llvm-dir", default="/usr/lib/llvm-22")
    parser.add_argument("--raise", dest="raised", nargs="*", default=[],
                        metavar="FILE", help="more modules to raise")
    parser.add_argument("--near", nargs="*", default=[], metavar="FILE",
                        help="more modules to leave alone")
    parser.add_argument("--mutate", type=int, default=0,
                        help="mutants per raised form")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", help="write every case here")
    parser.add_argument("--list", action="store_true",
                        help="list the cases and stop")
    parser.add_argument("--emit", metavar="NAME",
                        help="print the generated case NAME and stop")
    args = parser.parse_args()

    corpus = [(name, kind, module) for name, kind, module, _ in cases()]
    if args.emit:
        found = [module for name, _, module in corpus if name == args.emit]
        if not found:
            print("raise-oracle: no case %s (--list lists them)" % args.emit,
                  file=sys.stderr)
            return 2
        sys.stdout.write(found[0])
        return 0
    for kind, paths in (("raise", args.raised), ("near", args.near)):
        for path in paths:
            with open(path) as f:
                corpus.append((os.path.basename(path), kind, f.read()))
    rng = random.Random(args.seed)
    if args.mutate:
        for name, kind, module in list(corpus):
            if kind == "raise":
                for i, mutant in enumerate(mutants(module, args.mutate, rng)):
                    corpus.append(("%s-mutant%d" % (name, i), "mutant",
                                   mutant))
    counts = {}
    for _, kind, _ in corpus:
        counts[kind] = counts.get(kind, 0) + 1
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for name, _, module in corpus:
            with open(os.path.join(args.keep, name + ".mlir"), "w") as f:
                f.write(module)

    if args.list:
        for name, kind, _ in corpus:
            print(name, kind)
        print(counts)
        return 0
    runner = Runner(args.fa4_opt, args.llvm_dir)
    failures = []
    raised_mutants = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check, runner, name, kind, module)
                   for name, kind, module in corpus]
        for future in futures:
            name, failure, raised = future.result()
            if failure:
                failures.append((name, failure))
                print("FAIL %s: %s" % (name, failure))
            if raised and name.count("-mutant"):
                raised_mutants += 1
    runner.close()
    print("raised forms %d, near misses %d, mutants %d (%d raised and "
          "checked equal)" % (counts.get("raise", 0), counts.get("near", 0),
                              counts.get("mutant", 0), raised_mutants))
    passed = len(corpus) - len(failures)
    print("%d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
