# Run by decompose-serving-run.test: attn.varlen_attention and
# attn.paged_attention rewritten by attn-decompose and run on the CPU by
# mlir-runner (tools/raise-oracle.py's runner), O and LSE against
# attention computed here per sequence in plain Python: ragged sequences
# with an empty one, a one-token one and Sq > Skv, seqused_k, padding
# tokens past the last sequence, GQA, every mask; a paged cache with a
# shuffled block table whose unused entries point past the cache, with
# dense and with packed queries.
import importlib.util
import math
import os
import sys

fa4_opt, llvm_root, source_root = sys.argv[1:4]
spec = importlib.util.spec_from_file_location(
    "raise_oracle", os.path.join(source_root, "tools", "raise-oracle.py"))
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

HQ, HKV, D, SCALE = 4, 2, 8, 0.5
MASKS = {"none": (None, None), "causal": (None, 0), "window(1, 0)": (1, 0),
         "window(2, 1)": (2, 1)}
# Varlen: 4 sequences (Sq, Skv): Sq > Skv, empty, one token, longer; one
# padding query token and one padding key token past the last sequence.
CU_Q = [0, 5, 5, 6, 9]
CU_K = [0, 3, 5, 7, 12]
USED_K = [3, 1, 2, 4]
TQ, TK = 10, 13
# Paged: 3 sequences over pages of 2 keys; block table [3, 4].
PAGE, PAGES = 2, 7
SEQLENS = [5, 1, 3]
TABLE = [[6, 2, 4, 99], [0, 99, 99, 99], [3, 5, 99, 99]]
B, SQ = 3, 3


def dense_tensor(values, shape):
    return "dense<%s> : tensor<%sxi32>" % (values, "x".join(map(str, shape)))


def varlen_module(mask, result):
    q = "tensor<%dx%dx%dxf16>" % (TQ, HQ, D)
    kv = "tensor<%dx%dx%dxf16>" % (TK, HKV, D)
    lse = "tensor<%dx%dxf32>" % (HQ, TQ)
    returned = q if result == "o" else lse
    return """func.func @attention(%%q: %s, %%k: %s, %%v: %s) -> %s {
  %%cq = arith.constant %s
  %%ck = arith.constant %s
  %%used = arith.constant %s
  %%o, %%lse = attn.varlen_attention %%q, %%k, %%v cu_seqlens(%%cq, %%ck : tensor<5xi32>, tensor<5xi32>) seqused_k(%%used : tensor<4xi32>) {scale = %r : f32, mask = #attn.mask<%s>} : %s, %s, %s -> %s, %s
  return %%%s : %s
}
""" % (q, kv, kv, returned, dense_tensor(CU_Q, [5]), dense_tensor(CU_K, [5]),
       dense_tensor(USED_K, [4]), SCALE, mask, q, kv, kv, q, lse, result,
       returned)


def paged_module(mask, result):
    q = "tensor<%dx%dx%dx%dxf16>" % (B, SQ, HQ, D)
    cache = "tensor<%dx%dx%dx%dxf16>" % (PAGES, PAGE, HKV, D)
    lse = "tensor<%dx%dx%dxf32>" % (B, HQ, SQ)
    returned = q if result == "o" else lse
    return """func.func @attention(%%q: %s, %%kc: %s, %%vc: %s) -> %s {
  %%bt = arith.constant %s
  %%sk = arith.constant %s
  %%o, %%lse = attn.paged_attention %%q, %%kc, %%vc block_table(%%bt : tensor<3x4xi32>) seqlens_k(%%sk : tensor<3xi32>) {scale = %r : f32, mask = #attn.mask<%s>} : %s, %s, %s -> %s, %s
  return %%%s : %s
}
""" % (q, cache, cache, returned, dense_tensor(TABLE, [3, 4]),
       dense_tensor(SEQLENS, [3]), SCALE, mask, q, cache, cache, q, lse,
       result, returned)


# Paged with packed queries: the same cache and table, queries packed by
# CU_PQ (Sq 2, 0 and 3; one padding token).
CU_PQ = [0, 2, 2, 5]
TPQ = 6


def paged_packed_module(mask, result):
    q = "tensor<%dx%dx%dxf16>" % (TPQ, HQ, D)
    cache = "tensor<%dx%dx%dx%dxf16>" % (PAGES, PAGE, HKV, D)
    lse = "tensor<%dx%dxf32>" % (HQ, TPQ)
    returned = q if result == "o" else lse
    return """func.func @attention(%%q: %s, %%kc: %s, %%vc: %s) -> %s {
  %%bt = arith.constant %s
  %%sk = arith.constant %s
  %%cq = arith.constant %s
  %%o, %%lse = attn.paged_attention %%q, %%kc, %%vc block_table(%%bt : tensor<3x4xi32>) seqlens_k(%%sk : tensor<3xi32>) cu_seqlens_q(%%cq : tensor<4xi32>) {scale = %r : f32, mask = #attn.mask<%s>} : %s, %s, %s -> %s, %s
  return %%%s : %s
}
""" % (q, cache, cache, returned, dense_tensor(TABLE, [3, 4]),
       dense_tensor(SEQLENS, [3]), dense_tensor(CU_PQ, [4]), SCALE, mask, q,
       cache, cache, q, lse, result, returned)


def attend(query_rows, key_rows, value_rows, sq, skv, left, right):
    """O rows and LSE of one sequence and head, in double."""
    outputs, lses = [], []
    for i, row in enumerate(query_rows):
        diagonal = i + skv - sq
        keys = [j for j in range(skv)
                if (right is None or j <= diagonal + right) and
                (left is None or j >= diagonal - left)]
        if not keys:
            outputs.append([0.0] * D)
            lses.append(-math.inf)
            continue
        scores = [SCALE * sum(a * b for a, b in zip(row, key_rows[j]))
                  for j in keys]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        lses.append(top + math.log(total))
        outputs.append([sum(w * value_rows[j][e] for w, j in zip(weights, keys))
                        / total for e in range(D)])
    return outputs, lses


def varlen_reference(q, k, v, left, right):
    """O [TQ, HQ, D] and LSE [HQ, TQ], flat."""
    o = [0.0] * (TQ * HQ * D)
    lse = [-math.inf] * (HQ * TQ)
    row = lambda t, tokens, heads, h: t[(tokens * heads + h) * D:
                                      (tokens * heads + h + 1) * D]
    for s in range(len(USED_K)):
        sq, skv = CU_Q[s + 1] - CU_Q[s], min(CU_K[s + 1] - CU_K[s], USED_K[s])
        for h in range(HQ):
            g = h // (HQ // HKV)
            rows, lses = attend(
                [row(q, CU_Q[s] + i, HQ, h) for i in range(sq)],
                [row(k, CU_K[s] + j, HKV, g) for j in range(skv)],
                [row(v, CU_K[s] + j, HKV, g) for j in range(skv)],
                sq, skv, left, right)
            for i in range(sq):
                o[((CU_Q[s] + i) * HQ + h) * D:
                  ((CU_Q[s] + i) * HQ + h + 1) * D] = rows[i]
                lse[h * TQ + CU_Q[s] + i] = lses[i]
    return o, lse


def paged_reference(q, kc, vc, left, right):
    """O [B, SQ, HQ, D] and LSE [B, HQ, SQ], flat."""
    o = [0.0] * (B * SQ * HQ * D)
    lse = [0.0] * (B * HQ * SQ)
    cache_row = lambda c, j, b, g: c[
        ((TABLE[b][j // PAGE] * PAGE + j % PAGE) * HKV + g) * D:
        ((TABLE[b][j // PAGE] * PAGE + j % PAGE) * HKV + g + 1) * D]
    for b in range(B):
        skv = SEQLENS[b]
        for h in range(HQ):
            g = h // (HQ // HKV)
            queries = [q[((b * SQ + i) * HQ + h) * D:
                         ((b * SQ + i) * HQ + h + 1) * D] for i in range(SQ)]
            rows, lses = attend(queries,
                                [cache_row(kc, j, b, g) for j in range(skv)],
                                [cache_row(vc, j, b, g) for j in range(skv)],
                                SQ, skv, left, right)
            for i in range(SQ):
                o[((b * SQ + i) * HQ + h) * D:
                  ((b * SQ + i) * HQ + h + 1) * D] = rows[i]
                lse[(b * HQ + h) * SQ + i] = lses[i]
    return o, lse


def paged_packed_reference(q, kc, vc, left, right):
    """O [TPQ, HQ, D] and LSE [HQ, TPQ], flat."""
    o = [0.0] * (TPQ * HQ * D)
    lse = [-math.inf] * (HQ * TPQ)
    cache_row = lambda c, j, b, g: c[
        ((TABLE[b][j // PAGE] * PAGE + j % PAGE) * HKV + g) * D:
        ((TABLE[b][j // PAGE] * PAGE + j % PAGE) * HKV + g + 1) * D]
    for b in range(len(SEQLENS)):
        sq, skv = CU_PQ[b + 1] - CU_PQ[b], SEQLENS[b]
        for h in range(HQ):
            g = h // (HQ // HKV)
            queries = [q[((CU_PQ[b] + i) * HQ + h) * D:
                         ((CU_PQ[b] + i) * HQ + h + 1) * D] for i in range(sq)]
            rows, lses = attend(queries,
                                [cache_row(kc, j, b, g) for j in range(skv)],
                                [cache_row(vc, j, b, g) for j in range(skv)],
                                sq, skv, left, right)
            for i in range(sq):
                o[((CU_PQ[b] + i) * HQ + h) * D:
                  ((CU_PQ[b] + i) * HQ + h + 1) * D] = rows[i]
                lse[h * TPQ + CU_PQ[b] + i] = lses[i]
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


def short_module(result):
    """seqused_k of a length known only at run time, 0 where the batch has
    4 sequences: no sequence has an entry in every vector, so no query
    sees a key, and none is read past its vector."""
    q = "tensor<%dx%dx%dxf16>" % (TQ, HQ, D)
    kv = "tensor<%dx%dx%dxf16>" % (TK, HKV, D)
    lse = "tensor<%dx%dxf32>" % (HQ, TQ)
    returned = q if result == "o" else lse
    return """func.func @attention(%%q: %s, %%k: %s, %%v: %s) -> %s {
  %%cq = arith.constant %s
  %%ck = arith.constant %s
  %%none = tensor.empty() : tensor<0xi32>
  %%used = tensor.cast %%none : tensor<0xi32> to tensor<?xi32>
  %%o, %%lse = attn.varlen_attention %%q, %%k, %%v cu_seqlens(%%cq, %%ck : tensor<5xi32>, tensor<5xi32>) seqused_k(%%used : tensor<?xi32>) : %s, %s, %s -> %s, %s
  return %%%s : %s
}
""" % (q, kv, kv, returned, dense_tensor(CU_Q, [5]), dense_tensor(CU_K, [5]),
       q, kv, kv, q, lse, result, returned)


runner = oracle.Runner(fa4_opt, llvm_root)
for form, module, reference in (("varlen", varlen_module, varlen_reference),
                                ("paged", paged_module, paged_reference),
                                ("ppaged", paged_packed_module,
                                 paged_packed_reference)):
    for mask, (left, right) in MASKS.items():
        q, k, v, o = runner.run(module(mask, "o"), decompose=True,
                                print_inputs=True)
        lse = runner.run(module(mask, "lse"), decompose=True)
        o_ref, lse_ref = reference(q, k, v, left, right)
        o_err, lse_err = worst(o, o_ref), worst(lse, lse_ref)
        print("%-6s %-13s O %s, LSE %s" % (
            form, mask, "ok" if o_err <= 2 ** -11 else "off %g" % o_err,
            "ok" if lse_err <= 1e-5 else "off %g" % lse_err))
o = runner.run(short_module("o"), decompose=True)
lse = runner.run(short_module("lse"), decompose=True)
print("short seqused_k: O %s, LSE %s" % (
    "zero" if all(x == 0 for x in o) and len(o) == TQ * HQ * D else "off",
    "-inf" if all(x == -math.inf for x in lse) and len(lse) == HQ * TQ
    else "off"))
runner.close()
