"""FlashAttention's serving calls on torch tensors:

    o = fa4.flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k,
                                   max_seqlen_q, max_seqlen_k, causal=True)
    o = fa4.flash_attn_with_kvcache(q, k_cache, v_cache, k=k, v=v,
                                    cache_seqlens=lens, block_table=table)

with FlashAttention's semantics: packed sequences (`cu_seqlens`, i32
[b + 1]), each bottom-right aligned on its own; a KV cache, contiguous
[b, s_cache, hkv, d] or paged [pages, page_size, hkv, d] through a block
table, new keys and values written into it in place at `cache_seqlens`
before attention reads them. They run the serving forms'
kernels (attn.varlen_attention, attn.paged_attention): the chip's kernel
(Hopper, Blackwell) takes packed sequences (varlen, and a contiguous
cache) and pages of 64 keys or more; pages of 16 take the reference
kernel, correct but not fast (docs/Architecture.md, "Serving forms"). Both go through the torch.library op fa4::serving_fwd
(fa4.torch_ops), so torch.compile traces them (fullgraph, dynamic shapes);
nothing syncs the host, so CUDA graphs can capture them.
"""

from . import cache as _cache
from .flash import _chip, _dtype_of, _mask, _scale, _sinks, _softcap, kernel_for
from .runtime import Fa4ValueError

__all__ = ["flash_attn_varlen_func", "flash_attn_with_kvcache"]


def _problem(q, k, v, form, causal, window_size, softmax_scale, page_size=0,
             softcap=0.0, sinks=False):
    """The cache's Problem of a serving form; dtypes and heads checked."""
    dtype = _dtype_of(q, k, v)
    hq, dqk = int(q.shape[-2]), int(q.shape[-1])
    hkv, dv = int(k.shape[-2]), int(v.shape[-1])
    if int(k.shape[-1]) != dqk:
        raise Fa4ValueError("q's head dim %d and k's %d differ"
                            % (dqk, int(k.shape[-1])))
    if hkv < 1 or hq % hkv or int(v.shape[-2]) != hkv:
        raise Fa4ValueError("%d query heads over k's %d and v's %d key/value "
                            "heads: expected a multiple of equal counts"
                            % (hq, hkv, int(v.shape[-2])))
    mask, window = _mask(causal, window_size)
    return _cache.Problem(_chip(q.device), dtype, hq, hkv, dqk, dv, mask,
                          window, _scale(softmax_scale), lse=True, form=form,
                          page_size=page_size, softcap=_softcap(softcap),
                          sinks=sinks)


def _index(torch, value, name, length=None):
    """An i32 CUDA index tensor (FlashAttention's are int32): checked, not
    converted, since a conversion would hide a copy on every call."""
    if not hasattr(value, "dtype") or value.dtype != torch.int32:
        raise Fa4ValueError("%s: expected a torch.int32 tensor, got %s"
                            % (name, getattr(value, "dtype", type(value))))
    if value.dim() != 1 or (length is not None and value.shape[0] != length):
        raise Fa4ValueError("%s: shape %s; expected [%s]"
                            % (name, tuple(value.shape),
                               "b" if length is None else length))
    return value


def _check_rank(tensor, rank, name, layout):
    if tensor.dim() != rank:
        raise Fa4ValueError("%s: rank %d; expected %d %s"
                            % (name, tensor.dim(), rank, layout))


def _no_dropout(dropout_p):
    if dropout_p:
        raise Fa4ValueError("dropout_p %r: fa4 runs inference attention "
                            "(dropout_p = 0)" % (dropout_p,))


def _launch_op(q, k, v, cu_seqlens_q, cu_seqlens_k, seqused_k, block_table,
               seqlens_k, max_seqlen_q, causal, window_size, softmax_scale,
               softcap=0.0, sinks=None):
    """fa4::serving_fwd's implementation: the form the index tensors name,
    its kernel (compiled or from the cache), O and LSE allocated and the
    kernel launched on torch's current stream."""
    import torch
    from . import torch_ops
    if block_table is not None:
        form = "paged_packed" if cu_seqlens_q is not None else "paged"
        index = {"block_table": block_table, "seqlens_k": seqlens_k}
        if cu_seqlens_q is not None:
            index["cu_seqlens_q"] = cu_seqlens_q
        problem = _problem(q, k, v, form, causal, window_size, softmax_scale,
                           page_size=int(k.shape[1]), softcap=softcap,
                           sinks=sinks is not None)
    else:
        form = "varlen_seqused" if seqused_k is not None else "varlen"
        index = {"cu_seqlens_q": cu_seqlens_q, "cu_seqlens_k": cu_seqlens_k}
        if seqused_k is not None:
            index["seqused_k"] = seqused_k
        problem = _problem(q, k, v, form, causal, window_size, softmax_scale,
                           softcap=softcap, sinks=sinks is not None)
    kernel = kernel_for(problem)
    o, lse = torch_ops.empty_serving_outputs(q, v)
    stream = torch.cuda.current_stream(q.device).cuda_stream
    workspace = _workspace(torch, kernel, q, k, v, o, lse, max_seqlen_q,
                           index, sinks)
    kernel.launch_serving(
        q, k, v, o, lse, stream=stream, max_seqlen_q=max_seqlen_q,
        workspace=workspace.data_ptr() if workspace is not None else None,
        sinks=sinks, **index)
    return o, lse


# Workspace bytes per (kernel, device, shapes): the split a launch picks
# depends on them alone, so the runtime is asked once per shape.
_workspace_bytes = {}


def _workspace(torch, kernel, q, k, v, o, lse, max_seqlen_q, index,
               sinks=None):
    """A split-K decode's workspace from torch's caching allocator, or
    None: a stream-ordered allocation by the runtime costs far more where
    the driver's pool returns its memory at each synchronisation. Freed
    when the caller drops it: torch hands the block to later work on this
    stream only after what is queued here."""
    key = (id(kernel), q.device.index, max_seqlen_q) + tuple(
        (name, tuple(t.shape)) for name, t in
        [("q", q), ("k", k), ("v", v)] + sorted(index.items()))
    size = _workspace_bytes.get(key)
    if size is None:
        size = kernel.serving_workspace_bytes(
            q, k, v, o, lse, max_seqlen_q=max_seqlen_q, sinks=sinks, **index)
        _workspace_bytes[key] = size
    if not size:
        return None
    return torch.empty(size, dtype=torch.uint8, device=q.device)


def _serving_op(torch, q, k, v, max_seqlen_q, causal, window_size,
                softmax_scale, cu_seqlens_q=None, cu_seqlens_k=None,
                seqused_k=None, block_table=None, seqlens_k=None,
                softcap=0.0, sinks=None):
    """fa4::serving_fwd, its mask, scale, softcap and sinks checked here
    (the rest, which needs the problem, in the op)."""
    from . import torch_ops
    left, right = _mask(causal, window_size)[1]
    return torch_ops.serving_fwd(
        q, k, v, cu_seqlens_q, cu_seqlens_k, seqused_k, block_table,
        seqlens_k, max_seqlen_q, causal, left, right,
        -1.0 if softmax_scale is None else float(_scale(softmax_scale)),
        _softcap(softcap), _sinks(torch, sinks, None, q))


def flash_attn_varlen_func(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                           max_seqlen_k, dropout_p=0.0, softmax_scale=None,
                           causal=False, window_size=(-1, -1), softcap=0.0,
                           *, seqused_k=None, sinks=None, learnable_sink=None,
                           return_lse=False, return_attn_probs=False,
                           deterministic=False):
    """Attention over packed sequences, FlashAttention's
    flash_attn_varlen_func: q [total_q, hq, d], k and v [total_k, hkv, d],
    cu_seqlens_* i32 [b + 1] (from 0, monotone), max_seqlen_q the longest
    sequence's queries (rows past it are not computed), seqused_k i32 [b]
    the keys of each sequence that count, sinks (or learnable_sink) [hq]
    attention sinks as flash_attn_func's. Returns o [total_q, hq, dv], and
    lse [hq, total_q] (f32, natural log) with return_lse (or
    FlashAttention's return_attn_probs). Differentiable (one backward
    launch per sequence; `deterministic` accepted: it always is, D-70)."""
    import torch
    _no_dropout(dropout_p)
    for name, t in (("q", q), ("k", k), ("v", v)):
        _check_rank(t, 3, name, "(total_tokens, heads, headdim)")
    b = int(cu_seqlens_q.shape[0]) - 1 if hasattr(cu_seqlens_q, "shape") else 0
    index = {"cu_seqlens_q": _index(torch, cu_seqlens_q, "cu_seqlens_q"),
             "cu_seqlens_k": _index(torch, cu_seqlens_k, "cu_seqlens_k",
                                    b + 1)}
    if seqused_k is not None:
        index["seqused_k"] = _index(torch, seqused_k, "seqused_k", b)
    o, lse = _serving_op(torch, q, k, v, int(max_seqlen_q), causal,
                         window_size, softmax_scale, softcap=softcap,
                         sinks=_sinks(torch, sinks, learnable_sink, q),
                         **index)
    return (o, lse) if (return_lse or return_attn_probs) else o


def _append(torch, cache, new, positions, block_table, name):
    """Writes `new` [b, s_new, hkv, d] into `cache` at each sequence's
    `positions` [b, s_new] (through the block table for a paged cache), in
    place and on the device."""
    if new.dtype != cache.dtype or tuple(new.shape[2:]) != tuple(cache.shape[2:]):
        raise Fa4ValueError("%s %s %s: expected [b, s_new, %d, %d] %s, as the "
                            "cache" % (name, tuple(new.shape), new.dtype,
                                       cache.shape[2], cache.shape[3],
                                       cache.dtype))
    if block_table is None:
        rows = torch.arange(new.shape[0], device=new.device)[:, None]
        cache[rows, positions] = new
        return
    page_size = cache.shape[1]
    pages = torch.gather(block_table, 1, (positions // page_size).long())
    cache[pages.long(), (positions % page_size).long()] = new


def _contiguous_page(k_cache, v_cache):
    """The page size at which a contiguous cache [b, s_cache, h, d] is a
    paged cache without a copy: the largest of 256, 128 and 64 keys that
    divides s_cache, where each sequence's keys are one run of rows; or
    None (the cache is read as packed keys instead)."""
    s_cache = int(k_cache.shape[1])
    for cache in (k_cache, v_cache):
        if s_cache < 1 or cache.stride(0) != s_cache * cache.stride(1):
            return None
    for page in (256, 128, 64):
        if s_cache % page == 0:
            return page
    return None


def flash_attn_with_kvcache(q, k_cache, v_cache, k=None, v=None,
                            rotary_cos=None, rotary_sin=None,
                            cache_seqlens=None, cache_batch_idx=None,
                            cache_leftpad=None, block_table=None,
                            softmax_scale=None, causal=False,
                            window_size=(-1, -1), softcap=0.0,
                            rotary_interleaved=True, alibi_slopes=None,
                            num_splits=0, return_softmax_lse=False, *,
                            sinks=None, learnable_sink=None):
    """Decode and chunked prefill over a KV cache, FlashAttention's
    flash_attn_with_kvcache: q [b, sq, hq, d]; k_cache and v_cache
    [b, s_cache, hkv, d], or [pages, page_size, hkv, d] with block_table
    (i32 [b, max_pages]); cache_seqlens (i32 [b], or an int) the keys each
    sequence holds; k and v [b, s_new, hkv, d] appended at cache_seqlens
    first (in place), so attention sees cache_seqlens + s_new keys, the
    queries bottom-right aligned. A contiguous cache whose length is a
    multiple of 64 keys is read as pages of itself (no copy: the paged
    kernels' decode serves it). Returns o [b, sq, hq, dv], and lse
    [b, hq, sq] with return_softmax_lse. Rotary embeddings, batch indices,
    left padding and ALiBi are refused by name; sinks (or learnable_sink)
    [hq] are attention sinks as flash_attn_func's. As in
    FlashAttention, cache_seqlens + s_new past a contiguous cache's end, or
    block-table entries outside the cache, are the caller's error: nothing
    reads them on the host, so the append's indexing fails on the device
    (torch's index check); the attention kernel itself clamps them."""
    import torch
    for name, value, unset in (("rotary_cos", rotary_cos, None),
                               ("rotary_sin", rotary_sin, None),
                               ("cache_batch_idx", cache_batch_idx, None),
                               ("cache_leftpad", cache_leftpad, None),
                               ("alibi_slopes", alibi_slopes, None)):
        if value is not unset:
            raise Fa4ValueError("%s: not supported by fa4 yet" % name)
    _check_rank(q, 4, "q", "(batch, seqlen, heads, headdim)")
    sinks = _sinks(torch, sinks, learnable_sink, q)
    _check_rank(k_cache, 4, "k_cache", "(batch or pages, seqlen, heads, "
                "headdim)")
    b, sq = int(q.shape[0]), int(q.shape[1])
    if cache_seqlens is None:
        raise Fa4ValueError("cache_seqlens: required (i32 [b] or an int): "
                            "the keys each sequence's cache holds")
    if isinstance(cache_seqlens, int):
        cache_seqlens = torch.full((b,), cache_seqlens, dtype=torch.int32,
                                   device=q.device)
    _index(torch, cache_seqlens, "cache_seqlens", b)
    if (k is None) != (v is None):
        raise Fa4ValueError("k and v: give both new keys and values, or "
                            "neither")
    seqlens = cache_seqlens
    if k is not None:
        s_new = int(k.shape[1])
        positions = (cache_seqlens[:, None].long() +
                     torch.arange(s_new, device=q.device)[None, :])
        _append(torch, k_cache, k, positions, block_table, "k")
        _append(torch, v_cache, v, positions, block_table, "v")
        seqlens = cache_seqlens + s_new
    if block_table is None and int(k_cache.shape[0]) != b:
        raise Fa4ValueError("k_cache: batch %d; expected q's %d (or pass "
                            "block_table for a paged cache)"
                            % (int(k_cache.shape[0]), b))
    if block_table is None:
        page = _contiguous_page(k_cache, v_cache)
        if page:
            # Sequence i's cache is pages i * n .. i * n + n - 1 of a paged
            # view of it: the paged kernels' decode (fused GQA, split keys)
            # serves it, in place, with no copy.
            per_seq = int(k_cache.shape[1]) // page
            block_table = torch.arange(b * per_seq, dtype=torch.int32,
                                       device=q.device).view(b, per_seq)
            k_cache = k_cache.view(b * per_seq, page, *k_cache.shape[2:])
            v_cache = v_cache.view(b * per_seq, page, *v_cache.shape[2:])
    if block_table is None:
        # A contiguous cache is packed keys: sequence i's at i * s_cache,
        # the first seqlens[i] of them used.
        s_cache = int(k_cache.shape[1])
        starts = torch.arange(0, (b + 1) * s_cache, s_cache, dtype=torch.int32,
                              device=q.device)
        queries = torch.arange(0, (b + 1) * sq, sq, dtype=torch.int32,
                               device=q.device)
        o, lse = _serving_op(torch, q.reshape(b * sq, *q.shape[2:]),
                             k_cache.flatten(0, 1), v_cache.flatten(0, 1), sq,
                             causal, window_size, softmax_scale,
                             cu_seqlens_q=queries, cu_seqlens_k=starts,
                             seqused_k=seqlens.int(), softcap=softcap,
                             sinks=sinks)
        o = o.view(b, sq, *o.shape[1:])
        lse = lse.view(lse.shape[0], b, sq).permute(1, 0, 2)
    else:
        _index(torch, block_table.flatten(), "block_table")
        if block_table.dim() != 2 or int(block_table.shape[0]) != b:
            raise Fa4ValueError("block_table: shape %s; expected [%d, "
                                "max_pages]" % (tuple(block_table.shape), b))
        o, lse = _serving_op(torch, q, k_cache, v_cache, 0, causal,
                             window_size, softmax_scale,
                             block_table=block_table,
                             seqlens_k=seqlens.int(), softcap=softcap,
                             sinks=sinks)
    return (o, lse) if return_softmax_lse else o
