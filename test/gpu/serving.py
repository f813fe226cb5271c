#!/usr/bin/env python3
"""GPU check of the serving calls, fa4.flash_attn_varlen_func and
fa4.flash_attn_with_kvcache (on sm_90a the Hopper kernel takes packed
sequences and pages of 64 keys or more, the reference kernel pages of 16).

    serving.py --configs CHIP   the kernel pack's configurations (for
                                python -m fa4.pack, on the compiler's machine)
    serving.py                  on the GPU, $FA4_CACHE_DIR the pack
    serving.py --model-kernel   on the CPU, the kernel replaced by a model of
                                its semantics (per sequence, from the index
                                tensors the Python side built): checks
                                fa4's packing, appending and layouts, and
                                this harness, without a GPU

Checks, one line each, exiting non-zero on any failure, O and LSE against
an f64 reference per sequence under FlashAttention's rule (within twice the
error of the same attention computed in the input dtype, plus 1e-5), fresh
random inputs:
- varlen: ragged batches with an empty and a one-token sequence, Sq > Skv,
  mixed lengths up to 700; every mask; MHA, GQA, MQA; bf16 and f16;
  seqused_k;
- kvcache: contiguous caches (read as pages of themselves, or as packed
  keys where their length is no multiple of 64) and paged caches of 16,
  64, 128 and 256 keys
  a page with shuffled block tables, decode with 1 to 4 query rows and
  chunked prefill, new keys and values appended in place (the cache then
  holds them, checked too);
- softcap 15 (issue 61; Q scaled by 6 so that the cap bends): a ragged
  causal batch, a paged cache of 64 keys and a contiguous one;
- attention sinks (issue 61; one f32 logit per query head, drawn around the
  rows' maxima): a ragged causal batch (its empty and Sq > Skv rows), a
  windowed one under softcap 15, a paged cache of 64 keys and a contiguous
  one;
- compiled: both calls under torch.compile(fullgraph=True, dynamic=True)
  (inductor on the GPU, aot_eager with the model kernel) give eager's O,
  LSE and cache bit for bit, and torch.library.opcheck passes
  fa4::serving_fwd (schema, fake, autograd registration) on a varlen and a
  paged call.
"""
import math
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

# (hq, hkv, d, dtype, causal, window) of the varlen cases.
VARLEN = [
    (8, 2, 128, "bf16", True, (-1, -1)),
    (8, 8, 64, "f16", False, (-1, -1)),
    (8, 1, 128, "bf16", False, (31, 7)),
    (4, 2, 64, "bf16", True, (16, -1)),
]
PAGES = [16, 64, 128, 256]
KVCACHE_HEADS = (8, 2, 128, "bf16")
# The softcapped cases: the cap, and Q's scale there (scores of order 10-30).
SOFTCAP, SOFTCAP_Q_SCALE = 15.0, 6.0
SOFTCAP_VARLEN = (8, 2, 128, "bf16", True, (-1, -1))
SOFTCAP_PAGES = [None, 64]
# The cases with sinks: varlen (heads, mask, softcap) and the kvcache pages.
SINKS_VARLEN = [((8, 2, 128, "bf16", True, (-1, -1)), 0.0),
                ((8, 8, 64, "f16", False, (31, 7)), SOFTCAP)]
SINKS_PAGES = [None, 64]


def mask_text(causal, window):
    if causal:
        return "causal" if window[0] < 0 else "window(%d,0)" % window[0]
    if window == (-1, -1):
        return "none"
    return "window(%d,%d)" % window


def configs():
    out = []
    for hq, hkv, d, dtype, causal, window in VARLEN:
        for form in ("varlen", "varlen_seqused"):
            out.append("%s:%d:%d:%d:%d:%s@%s" % (dtype, hq, hkv, d, d,
                                                 mask_text(causal, window), form))
    hq, hkv, d, dtype = KVCACHE_HEADS
    for causal in (False, True):
        mask = mask_text(causal, (-1, -1))
        out.append("%s:%d:%d:%d:%d:%s@varlen_seqused" % (dtype, hq, hkv, d, d, mask))
        for page in PAGES:
            out.append("%s:%d:%d:%d:%d:%s@paged%d" % (dtype, hq, hkv, d, d, mask, page))
    cap = ":softcap=%r" % SOFTCAP
    hq, hkv, d, dtype, causal, window = SOFTCAP_VARLEN
    out.append("%s:%d:%d:%d:%d:%s%s@varlen" % (dtype, hq, hkv, d, d,
                                               mask_text(causal, window), cap))
    hq, hkv, d, dtype = KVCACHE_HEADS
    # A contiguous cache of 1024 keys reads as pages of 256.
    for page in SOFTCAP_PAGES:
        out.append("%s:%d:%d:%d:%d:causal%s@paged%d" % (dtype, hq, hkv, d, d,
                                                        cap, page or 256))
    for (hq, hkv, d, dtype, causal, window), softcap in SINKS_VARLEN:
        out.append("%s:%d:%d:%d:%d:%s%s:sinks@varlen"
                   % (dtype, hq, hkv, d, d, mask_text(causal, window),
                      cap if softcap else ""))
    hq, hkv, d, dtype = KVCACHE_HEADS
    for page in SINKS_PAGES:
        out.append("%s:%d:%d:%d:%d:causal:sinks@paged%d" % (dtype, hq, hkv, d,
                                                            d, page or 256))
    return out


def reference(torch, q, k, v, causal, window, scale, dtype, softcap=0.0,
              sinks=None):
    """One sequence: q [sq, hq, d], k and v [skv, hkv, d]; O [sq, hq, d] and
    LSE [hq, sq], bottom-right aligned, in `dtype`'s arithmetic; softcap c:
    scaled scores s become c * tanh(s / c) before the mask; sinks [hq]: one
    more logit per head in each row's softmax, with no value."""
    sq, hq, _ = q.shape
    skv, hkv, _ = k.shape
    group = hq // hkv
    qf, kf, vf = (t.to(dtype) for t in (q, k, v))
    kf = kf.repeat_interleave(group, dim=1)
    vf = vf.repeat_interleave(group, dim=1)
    scores = torch.einsum("qhd,khd->hqk", qf, kf) * scale
    if softcap:
        scores = torch.tanh(scores / softcap) * softcap
    rows = torch.arange(sq, device=q.device)[:, None]
    cols = torch.arange(skv, device=q.device)[None, :]
    diagonal = rows + skv - sq
    keep = torch.ones(sq, skv, dtype=torch.bool, device=q.device)
    left, right = window
    if causal:
        right = 0
    if right >= 0:
        keep &= cols <= diagonal + right
    if left >= 0:
        keep &= cols >= diagonal - left
    scores = scores.masked_fill(~keep, -math.inf).double()
    if sinks is not None:
        sink = sinks.double().to(scores.device)[:, None, None]
        scores = torch.cat([scores, sink.expand(hq, sq, 1)], dim=-1)
    lse = torch.logsumexp(scores, dim=-1)
    probs = torch.softmax(scores, dim=-1).nan_to_num(0.0)
    if sinks is not None:
        probs = probs[..., :-1]
    probs = probs.to(dtype)
    o = torch.einsum("hqk,khd->qhd", probs, vf)
    return o, lse


def within_rule(torch, got, ref64, ref_low):
    bound = 2 * (ref_low.double() - ref64).abs().max().item() + 1e-5
    err = (got.double() - ref64).abs().max().item() if got.numel() else 0.0
    return err <= bound, err, bound


def draw_sinks(torch, hq, softcap=0.0):
    """Sinks around the rows' maxima, so that each takes a visible share:
    1 +- 1.5 for scores of order 1-3, 0.8 c +- 1.5 under a softcap c (Q
    scaled, the rows' maxima near c)."""
    center = 0.8 * softcap if softcap else 1.0
    return center + 1.5 * torch.randn(hq, device="cuda", dtype=torch.float32)


def check_varlen(torch, fa4, rng_seed, hq, hkv, d, dtype, causal, window, seqused,
                 softcap=0.0, sinks=False):
    torch.manual_seed(rng_seed)
    dt = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    lens_q = [5, 0, 1, 300, 77, 1, 700, 19]
    lens_k = [9, 4, 1, 129, 77, 513, 650, 2]
    cu_q = torch.tensor([0] + lens_q, device="cuda").cumsum(0).int()
    cu_k = torch.tensor([0] + lens_k, device="cuda").cumsum(0).int()
    used = [min(n, max(0, n - 3)) for n in lens_k] if seqused else lens_k
    q = torch.randn(int(cu_q[-1]), hq, d, device="cuda", dtype=dt)
    if softcap:
        q = q * SOFTCAP_Q_SCALE
    k = torch.randn(int(cu_k[-1]), hkv, d, device="cuda", dtype=dt)
    v = torch.randn(int(cu_k[-1]), hkv, d, device="cuda", dtype=dt)
    kwargs = {}
    if seqused:
        kwargs["seqused_k"] = torch.tensor(used, device="cuda", dtype=torch.int32)
    sink_logits = draw_sinks(torch, hq, softcap) if sinks else None
    if sinks:
        kwargs["sinks"] = sink_logits
    o, lse = fa4.flash_attn_varlen_func(
        q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
        window_size=window, softcap=softcap, return_lse=True, **kwargs)
    torch.cuda.synchronize()
    scale = d ** -0.5
    ok = True
    worst = 0.0
    for i in range(len(lens_q)):
        qs = slice(int(cu_q[i]), int(cu_q[i + 1]))
        ks = slice(int(cu_k[i]), int(cu_k[i]) + used[i])
        if lens_q[i] == 0:
            continue
        ref64, lse64 = reference(torch, q[qs], k[ks], v[ks], causal, window,
                                 scale, torch.float64, softcap, sink_logits)
        ref_low, _ = reference(torch, q[qs], k[ks], v[ks], causal, window,
                               scale, dt, softcap, sink_logits)
        good, err, _ = within_rule(torch, o[qs], ref64, ref_low)
        lse_got = lse[:, qs].double()
        finite = torch.isfinite(lse64)
        good &= bool(torch.equal(torch.isfinite(lse_got), finite))
        if finite.any():
            good &= (lse_got[finite] - lse64[finite]).abs().max().item() < 1e-3
        ok &= good
        worst = max(worst, err)
    print("varlen hq=%d hkv=%d d=%d %s %s seqused=%s%s%s: max|o-ref| %.2e %s"
          % (hq, hkv, d, dtype, mask_text(causal, window), seqused,
             " softcap=%g" % softcap if softcap else "",
             " sinks" if sinks else "", worst,
             "ok" if ok else "FAIL"))
    return ok


def check_kvcache(torch, fa4, seed, page, causal, sq, s_new, s_cache=1024,
                  softcap=0.0, sinks=False):
    """A contiguous cache (page None) of 1024 keys is read as pages of 256
    keys of itself, one of 1000 as packed keys."""
    torch.manual_seed(seed)
    hq, hkv, d, dtype = KVCACHE_HEADS
    dt = torch.bfloat16
    b = 5
    lens = torch.tensor([0, 1, 200, 777, 64], dtype=torch.int32, device="cuda")
    q = torch.randn(b, sq, hq, d, device="cuda", dtype=dt)
    if softcap:
        q = q * SOFTCAP_Q_SCALE
    k_new = torch.randn(b, s_new, hkv, d, device="cuda", dtype=dt)
    v_new = torch.randn(b, s_new, hkv, d, device="cuda", dtype=dt)
    dense_k = torch.randn(b, s_cache, hkv, d, device="cuda", dtype=dt)
    dense_v = torch.randn(b, s_cache, hkv, d, device="cuda", dtype=dt)
    if page is None:
        k_cache, v_cache, table = dense_k.clone(), dense_v.clone(), None
    else:
        per_seq = s_cache // page
        pages = b * per_seq + 3
        order = torch.randperm(pages, device="cuda")[:b * per_seq]
        table = order.view(b, per_seq).int()
        k_cache = torch.randn(pages, page, hkv, d, device="cuda", dtype=dt)
        v_cache = torch.randn(pages, page, hkv, d, device="cuda", dtype=dt)
        k_cache[table.long()] = dense_k.view(b, per_seq, page, hkv, d)
        v_cache[table.long()] = dense_v.view(b, per_seq, page, hkv, d)
    sink_logits = draw_sinks(torch, hq, softcap) if sinks else None
    o, lse = fa4.flash_attn_with_kvcache(
        q, k_cache, v_cache, k=k_new if s_new else None,
        v=v_new if s_new else None, cache_seqlens=lens, block_table=table,
        causal=causal, softcap=softcap, return_softmax_lse=True,
        sinks=sink_logits)
    torch.cuda.synchronize()
    ok, worst = True, 0.0
    for i in range(b):
        n = int(lens[i])
        keys = torch.cat([dense_k[i, :n], k_new[i]])
        values = torch.cat([dense_v[i, :n], v_new[i]])
        # The cache now holds the new keys where they belong.
        if page is None:
            held = k_cache[i, n:n + s_new]
        else:
            pos = torch.arange(n, n + s_new, device="cuda")
            held = k_cache[table[i, pos // page].long(), pos % page]
        ok &= bool(torch.equal(held, k_new[i]))
        ref64, lse64 = reference(torch, q[i], keys, values, causal, (-1, -1),
                                 d ** -0.5, torch.float64, softcap,
                                 sink_logits)
        ref_low, _ = reference(torch, q[i], keys, values, causal, (-1, -1),
                               d ** -0.5, dt, softcap, sink_logits)
        good, err, _ = within_rule(torch, o[i], ref64, ref_low)
        finite = torch.isfinite(lse64)
        lse_got = lse[i].double()
        good &= bool(torch.equal(torch.isfinite(lse_got), finite))
        if finite.any():
            good &= (lse_got[finite] - lse64[finite]).abs().max().item() < 1e-3
        ok &= good
        worst = max(worst, err)
    print("kvcache %s causal=%s sq=%d new=%d%s%s: max|o-ref| %.2e %s"
          % ("contiguous %d" % s_cache if page is None else "page %d" % page,
             causal, sq, s_new, " softcap=%g" % softcap if softcap else "",
             " sinks" if sinks else "", worst, "ok" if ok else "FAIL"))
    return ok


def check_compiled(torch, fa4, backend):
    """The serving calls under torch.compile against eager, and opcheck."""
    torch.manual_seed(99)
    dt = torch.bfloat16
    hq, hkv, d = KVCACHE_HEADS[:3]
    lens_q, lens_k = [3, 0, 130, 1], [7, 5, 200, 64]
    cu_q = torch.tensor([0] + lens_q, device="cuda").cumsum(0).int()
    cu_k = torch.tensor([0] + lens_k, device="cuda").cumsum(0).int()
    q = torch.randn(int(cu_q[-1]), hq, d, device="cuda", dtype=dt)
    k = torch.randn(int(cu_k[-1]), hkv, d, device="cuda", dtype=dt)
    v = torch.randn(int(cu_k[-1]), hkv, d, device="cuda", dtype=dt)

    def varlen(q, k, v, cu_q, cu_k):
        return fa4.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 130, 200,
                                          causal=True, return_lse=True)

    def kvcache(q, k_cache, v_cache, k_new, v_new, lens, table):
        return fa4.flash_attn_with_kvcache(
            q, k_cache, v_cache, k=k_new, v=v_new, cache_seqlens=lens,
            block_table=table, causal=True, return_softmax_lse=True)

    compile = lambda fn: torch.compile(fn, fullgraph=True, dynamic=True,
                                       backend=backend)
    ok = True
    eager = varlen(q, k, v, cu_q, cu_k)
    compiled = compile(varlen)(q, k, v, cu_q, cu_k)
    ok &= all(bool(torch.equal(a, b)) for a, b in zip(eager, compiled))
    b, page = 3, 64
    table = torch.randperm(b * 4, device="cuda").view(b, 4).int()
    lens = torch.tensor([10, 0, 190], device="cuda", dtype=torch.int32)
    qd = torch.randn(b, 2, hq, d, device="cuda", dtype=dt)
    k_new = torch.randn(b, 2, hkv, d, device="cuda", dtype=dt)
    v_new = torch.randn(b, 2, hkv, d, device="cuda", dtype=dt)
    caches = [torch.randn(b * 4, page, hkv, d, device="cuda", dtype=dt)
              for _ in range(2)]
    eager_caches = [c.clone() for c in caches]
    eager = kvcache(qd, *eager_caches, k_new, v_new, lens, table)
    compiled = compile(kvcache)(qd, *caches, k_new, v_new, lens, table)
    ok &= all(bool(torch.equal(a, b)) for a, b in zip(eager, compiled))
    ok &= all(bool(torch.equal(a, b)) for a, b in zip(eager_caches, caches))
    op = torch.ops.fa4.serving_fwd.default
    torch.library.opcheck(op, (q, k, v, cu_q, cu_k, None, None, None, 130,
                               True, -1, -1, -1.0))
    torch.library.opcheck(op, (qd, caches[0], caches[1], None, None, None,
                               table, lens, 0, False, -1, -1, -1.0))
    # With sinks: a bf16 parameter, as a model keeps it, converted to f32.
    sinks = draw_sinks(torch, hq).to(dt)

    def varlen_sinks(q, k, v, cu_q, cu_k, sinks):
        return fa4.flash_attn_varlen_func(q, k, v, cu_q, cu_k, 130, 200,
                                          causal=True, return_lse=True,
                                          sinks=sinks)
    eager = varlen_sinks(q, k, v, cu_q, cu_k, sinks)
    compiled = compile(varlen_sinks)(q, k, v, cu_q, cu_k, sinks)
    ok &= all(bool(torch.equal(a, b)) for a, b in zip(eager, compiled))
    torch.library.opcheck(op, (q, k, v, cu_q, cu_k, None, None, None, 130,
                               True, -1, -1, -1.0, 0.0, sinks.float()))
    print("compiled (%s): varlen (with sinks too) and a paged kvcache with "
          "appends equal eager, opcheck passes: %s"
          % (backend, "ok" if ok else "FAIL"))
    return ok


class ModelKernel(object):
    """The serving kernels' semantics on the CPU (the reference kernel's,
    which fa4-emu checks): each sequence from the index tensors, its keys
    packed or paged."""

    def __init__(self, torch, problem):
        self.torch, self.problem = torch, problem

    def serving_workspace_bytes(self, q, k, v, o, lse, max_seqlen_q=0,
                                **index):
        # A split decode's partials: some bytes, so the harness allocates
        # and passes a workspace as on the GPU.
        return 256 if index.get("block_table") is not None else 0

    def launch_serving(self, q, k, v, o, lse, stream=None, max_seqlen_q=0,
                       workspace=None, sinks=None, **index):
        torch, p = self.torch, self.problem
        assert (sinks is not None) == p.sinks, "sinks given to a kernel " \
            "without them, or none to one with them"
        if self.serving_workspace_bytes(q, k, v, o, lse, **index):
            assert workspace, "a split decode's launch needs its workspace"
        else:
            assert workspace is None, "a workspace where none is needed"
        packed_q = q.dim() == 3
        table = index.get("block_table")
        cu_k = index.get("cu_seqlens_k")
        b = table.shape[0] if table is not None else cu_k.shape[0] - 1
        for z in range(b):
            if packed_q:
                cu_q = index["cu_seqlens_q"]
                q0 = int(cu_q[z])
                sq = min(int(cu_q[z + 1]) - q0, max_seqlen_q)
                queries = q[q0:q0 + sq]
            else:
                queries = q[z]
            if table is None:
                k0, skv = int(cu_k[z]), int(cu_k[z + 1] - cu_k[z])
                if "seqused_k" in index:
                    skv = min(skv, int(index["seqused_k"][z]))
                keys, values = k[k0:k0 + skv], v[k0:k0 + skv]
            else:
                j = torch.arange(int(index["seqlens_k"][z]))
                page = table[z][j // k.shape[1]].long()
                keys, values = k[page, j % k.shape[1]], v[page, j % k.shape[1]]
            window = p.window if p.mask == "window" else (-1, -1)
            out, logsum = reference(torch, queries, keys, values,
                                    p.mask == "causal", window,
                                    p.scale or p.qk_depth ** -0.5,
                                    torch.float64, p.softcap or 0.0, sinks)
            if packed_q:
                o[q0:q0 + sq] = out.to(o.dtype)
                lse[:, q0:q0 + sq] = logsum.float()
            else:
                o[z], lse[z] = out.to(o.dtype), logsum.float()


def model_kernel(torch):
    """Runs this check on the CPU against ModelKernel: fa4's kernel lookup,
    chip and stream, and this file's "cuda" tensors, redirected."""
    import types
    from fa4 import serving
    serving.kernel_for = lambda problem: ModelKernel(torch, problem)
    serving._chip = lambda device: "sm_90a"
    torch.cuda.current_stream = lambda device=None: types.SimpleNamespace(
        cuda_stream=0)
    torch.cuda.synchronize = lambda: None
    for name in ("randn", "tensor", "arange", "randperm", "full"):
        original = getattr(torch, name)

        def on_cpu(*args, _original=original, **kwargs):
            if kwargs.get("device") == "cuda":
                kwargs["device"] = "cpu"
            return _original(*args, **kwargs)
        setattr(torch, name, on_cpu)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--configs":
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    if sys.argv[1:] == ["--model-kernel"]:
        model_kernel(torch)
    results = []
    seed = 0
    for case in VARLEN:
        for seqused in (False, True):
            seed += 1
            results.append(check_varlen(torch, fa4, seed, *case, seqused))
    for page in [None] + PAGES:
        for causal in (False, True):
            for sq, s_new in ((1, 1), (4, 4), (3, 0), (37, 37)):
                seed += 1
                results.append(check_kvcache(torch, fa4, seed, page, causal,
                                             sq, s_new))
    for causal in (False, True):
        seed += 1
        results.append(check_kvcache(torch, fa4, seed, None, causal, 1, 1,
                                     s_cache=1000))
    seed += 1
    results.append(check_varlen(torch, fa4, seed, *SOFTCAP_VARLEN, False,
                                softcap=SOFTCAP))
    for page in SOFTCAP_PAGES:
        seed += 1
        results.append(check_kvcache(torch, fa4, seed, page, True, 4, 4,
                                     softcap=SOFTCAP))
    for case, softcap in SINKS_VARLEN:
        seed += 1
        results.append(check_varlen(torch, fa4, seed, *case, False,
                                    softcap=softcap, sinks=True))
    for page in SINKS_PAGES:
        for sq, s_new in ((1, 1), (4, 4)):
            seed += 1
            results.append(check_kvcache(torch, fa4, seed, page, True, sq,
                                         s_new, sinks=True))
    modelled = sys.argv[1:] == ["--model-kernel"]
    results.append(check_compiled(torch, fa4,
                                  "aot_eager" if modelled else "inductor"))
    where = ("the CPU, the kernel modelled" if modelled
             else torch.cuda.get_device_name())
    print("%d of %d serving checks pass on %s" % (sum(results), len(results),
                                                  where))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
