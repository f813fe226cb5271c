"""fa4 as a Hugging Face transformers attention backend:

    import fa4.hf
    fa4.hf.register()                       # once, as "fa4"
    model = AutoModelForCausalLM.from_pretrained(name, attn_implementation="fa4")

The attention function takes transformers' BHSD tensors (GQA as fewer key
and value heads), runs fa4.flash_attn_func on their BSHD views (no copy) and
returns BSHD, as transformers' own backends do. The mask comes from the
model, not from a tensor: causal or not (`is_causal`), and a causal sliding
window of `sliding_window` keys, each aligned bottom-right, which is what
transformers means wherever the keys are the query's past and itself (no
cache, or a DynamicCache). A padded batch (a 2D attention_mask with
zeros, e.g. generate() on prompts of different lengths) runs as packed
sequences, as transformers' FlashAttention path does: fa4's mask function
passes the 2D mask on, and the attention function packs the tokens it
marks (fa4.flash_attn_varlen_func, each sequence bottom-right aligned) and
writes zeros at the padded query positions. fa4's mask function refuses
what fa4 cannot express with a clear error: chunked, packed or custom mask
functions, and caches whose keys are not aligned at their ends (a
StaticCache's empty slots). Gemma 2/3's logit softcapping (the `softcap`
argument) and gpt-oss's learned attention sinks (`s_aux`, one logit per
query head) are passed on.

Under torch.compile the mask functions transformers builds while tracing
cannot be inspected, and transformers cannot tell packed sequences from one
sequence per row (it would have to read position_ids): there fa4 takes the
mask from the model's config (a chunked attention_chunk_size is refused)
and position_ids to be the default, one sequence per row, and refuses an
attention_mask (packing a padded batch needs its data on the host); the
eager run of the same model checks the mask function itself. Refusals under
torch.compile are ValueErrors (it cannot raise fa4's own error classes).
"""

from .runtime import Fa4ValueError


__all__ = ["NAME", "register", "attention_forward", "mask"]

NAME = "fa4"


def register(name=NAME):
    """Registers fa4's attention and mask functions under `name` in
    transformers' AttentionInterface and AttentionMaskInterface."""
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface
    AttentionInterface.register(name, attention_forward)
    AttentionMaskInterface.register(name, mask)
    return name


def attention_forward(module, query, key, value, attention_mask, scaling=None,
                      dropout=0.0, sliding_window=None, is_causal=None,
                      **kwargs):
    """transformers' attention call: query [b, hq, sq, d], key and value
    [b, hkv, skv, d(v)]; returns ([b, sq, hq, dv], None)."""
    from .flash import flash_attn_func
    padded = (attention_mask is not None and hasattr(attention_mask, "dim")
              and attention_mask.dim() == 2)
    if attention_mask is not None and not padded:
        _refuse(
            "fa4 attention got a %s attention mask; fa4 takes the mask from "
            "the model (causal, sliding window) and cannot apply a mask tensor. "
            "Register fa4 with fa4.hf.register() (its mask function passes "
            "no tensor) and give no custom 4D mask" % _shape(attention_mask))
    if dropout and module.training:
        _refuse("fa4 attention has no dropout (dropout=%r in training "
                "mode); set the model's attention_dropout to 0" % dropout)
    if kwargs.get("position_bias") is not None:
        _refuse("fa4 attention cannot apply position_bias (this model uses "
                "it); use another attn_implementation")
    if kwargs.get("output_attentions"):
        _refuse("fa4 attention does not return attention "
                            "weights (output_attentions=True)")
    if is_causal is None:
        is_causal = getattr(module, "is_causal", True)
    window = (-1, -1)
    if sliding_window is not None:
        if not is_causal:
            _refuse("fa4 attention: a sliding window on a "
                                "bidirectional layer is not supported")
        if int(sliding_window) < 1:
            _refuse("sliding_window %r: expected >= 1"
                                % (sliding_window,))
        # transformers keeps key j for query i where i - W < j <= i.
        window = (int(sliding_window) - 1, 0)
    # Gemma 2/3's attn_logit_softcapping (None or 0: none); gpt-oss's sinks
    # (s_aux, its module's [hq] parameter; None: none).
    softcap = kwargs.get("softcap") or 0.0
    sinks = kwargs.get("s_aux")
    if sinks is None:
        sinks = kwargs.get("sinks")
    if padded:
        return _padded_attention(query, key, value, attention_mask,
                                 bool(is_causal), window, scaling,
                                 softcap, sinks), None
    out = flash_attn_func(query.transpose(1, 2), key.transpose(1, 2),
                          value.transpose(1, 2), causal=bool(is_causal),
                          window_size=window, softmax_scale=scaling,
                          softcap=softcap, sinks=sinks)
    return out, None


def _padded_attention(query, key, value, attention_mask, causal, window,
                      scaling, softcap=0.0, sinks=None):
    """A padded batch as packed sequences: the tokens attention_mask marks
    in each row, queries being the last sq positions of the keys' (their
    ends aligned, which fa4's mask function checked); zeros at the padded
    query positions. Reads the lengths on the host, as transformers'
    FlashAttention path does."""
    import torch
    from .serving import flash_attn_varlen_func
    q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    b, sq, skv = q.shape[0], q.shape[1], k.shape[1]
    if attention_mask.shape[0] != b or attention_mask.shape[1] < skv:
        _refuse("fa4 attention: attention_mask %s does not cover %d rows of "
                "%d keys" % (_shape(attention_mask), b, skv))
    keys = attention_mask[:, -skv:].bool()
    queries = keys[:, -sq:]
    seqlens_k = keys.sum(1, dtype=torch.int32)
    seqlens_q = queries.sum(1, dtype=torch.int32)
    zero = torch.zeros(1, dtype=torch.int32, device=q.device)
    cu_k = torch.cat([zero, seqlens_k.cumsum(0, dtype=torch.int32)])
    cu_q = torch.cat([zero, seqlens_q.cumsum(0, dtype=torch.int32)])
    out = q.new_zeros(b, sq, q.shape[2], v.shape[3])
    max_q = int(seqlens_q.max())
    if max_q == 0:
        return out
    packed = flash_attn_varlen_func(
        q[queries], k[keys], v[keys], cu_q, cu_k, max_q, int(seqlens_k.max()),
        softmax_scale=scaling, causal=causal, window_size=window,
        softcap=softcap, sinks=sinks)
    out[queries] = packed
    return out


def _refuse(message):
    import torch
    if torch.compiler.is_compiling():
        raise ValueError(message)
    raise Fa4ValueError(message)


def _shape(mask):
    shape = getattr(mask, "shape", None)
    return "x".join(str(int(s)) for s in shape) if shape is not None else \
        type(mask).__name__


def mask(batch_size=None, q_length=None, kv_length=None, q_offset=0,
         kv_offset=0, mask_function=None, attention_mask=None, **kwargs):
    """transformers' mask function for fa4: returns None (the attention
    function applies the model's mask itself) where fa4's bottom-right
    causal, sliding-window or bidirectional mask is the model's; refuses
    (Fa4ValueError, a ValueError under torch.compile) otherwise."""
    import torch
    if torch.compiler.is_compiling():
        config = kwargs.get("config")
        if getattr(config, "attention_chunk_size", None):
            _refuse("fa4 attention cannot express chunked attention "
                    "(attention_chunk_size %r)" % config.attention_chunk_size)
    else:
        _check_mask_function(mask_function)
    # Bottom-right alignment: the last query is the last key's position.
    if q_offset + q_length != kv_offset + kv_length:
        _refuse(
            "fa4 attention: queries at positions %s..%s+%s and keys at %s..%s+%s"
            " are not aligned at their ends (a cache with empty slots, e.g. a "
            "StaticCache); fa4 masks bottom-right aligned: use a DynamicCache"
            % (q_offset, q_offset, q_length, kv_offset, kv_offset, kv_length))
    if attention_mask is not None:
        if torch.compiler.is_compiling():
            _refuse(
                "fa4 attention cannot apply a padding attention_mask under "
                "torch.compile (packing a padded batch reads its lengths on "
                "the host): call the compiled model without attention_mask, "
                "or the padded batch without torch.compile")
        if not bool(attention_mask.all()):
            # Padding: the attention function packs the marked tokens.
            return attention_mask[:, -kv_length:] if kv_length else \
                attention_mask
    return None


_ACCEPTED_OVERLAYS = ("causal_mask_function",
                      "sliding_window_overlay.<locals>.inner_mask")


def _check_mask_function(function):
    """The model's mask: causal, bidirectional or causal with a sliding
    window (transformers' and_masks of the two). Anything else (chunks,
    packed sequences, blocks, custom functions) fa4 cannot express."""
    name = getattr(function, "__qualname__", type(function).__name__)
    if name in ("causal_mask_function", "bidirectional_mask_function"):
        return
    parts = _and_mask_parts(function)
    if parts is not None and all(
            getattr(p, "__qualname__", "") in _ACCEPTED_OVERLAYS
            for p in parts):
        return
    if parts is not None:
        name = "and_masks(%s)" % ", ".join(
            getattr(p, "__qualname__", type(p).__name__) for p in parts)
    _refuse(
        "fa4 attention cannot express this model's mask (%s): fa4 masks are "
        "causal, bidirectional or a causal sliding window (with padding), "
        "without chunks or packed sequences" % name)


def _and_mask_parts(function):
    """The functions transformers' and_masks(...) combined (nested ones
    flattened), or None for any other function."""
    if getattr(function, "__qualname__", "") != "and_masks.<locals>.and_mask":
        return None
    for cell in function.__closure__ or ():
        contents = cell.cell_contents
        if isinstance(contents, tuple):
            parts = []
            for part in contents:
                inner = _and_mask_parts(part)
                parts.extend(inner if inner is not None else [part])
            return parts
    return None
