"""fa4::flash_attn_fwd and fa4::serving_fwd, torch.library custom ops, so
torch.compile (fullgraph, dynamic shapes) traces through fa4's attention
and torch.library.opcheck checks them. Each fake returns what the real op
does: flash_attn_fwd o [b, sq, hq, dv] and lse [b, hq, sq] (f32) with the
same strides; serving_fwd (fa4.flash_attn_varlen_func,
fa4.flash_attn_with_kvcache) o and lse of packed queries [tq, hq, dv] and
[hq, tq], or of dense ones as flash_attn_fwd's, contiguous.

flash_attn_fwd is differentiable through fa4::flash_attn_bwd (issue 63),
which gives dq, dk, dv of the forward's q, k, v from dO, o and lse, as
FlashAttention's backward: lse is not differentiable (its gradient is
dropped, as FlashAttention drops it). With sinks, the same kernel gives
dq, dk, dv (the forward's lse holds the sinks), and the sinks' gradient is
-sum over batches and rows of exp(sink - lse) * rowsum(dO * o), a few torch
ops. serving_fwd's packed sequences (flash_attn_varlen_func) are
differentiable through the same kernel, one launch per sequence on views
of the packed tensors (the sequences' spans read on the host: not under
CUDA graphs or a fullgraph torch.compile of the backward); a paged cache
(flash_attn_with_kvcache) is forward only."""

from typing import Optional, Tuple

import torch

from . import flash
from .runtime import contiguous_strides

__all__ = ["flash_attn_bwd", "flash_attn_fwd", "output_strides",
           "serving_fwd"]

# fa4 kernels read 16-byte aligned rows (docs/KernelABI.md): O's strides
# are padded to whole 16 bytes where dv alone would not give them.
_STRIDE_BYTES = 16


def output_strides(b, sq, hq, dv, element_bytes):
    """O's strides, as both the op and its fake allocate it."""
    return contiguous_strides((b, sq, hq, dv), _STRIDE_BYTES // element_bytes)


def empty_lse(q):
    b, sq, hq, _ = q.shape
    return torch.empty((b, hq, sq), dtype=torch.float32, device=q.device)


def empty_o(q, v):
    b, sq, hq, _ = q.shape
    dv = v.shape[3]
    return torch.empty_strided((b, sq, hq, dv),
                               output_strides(b, sq, hq, dv, q.element_size()),
                               dtype=q.dtype, device=q.device)


def empty_outputs(q, v):
    """O and LSE as the op returns them."""
    return empty_o(q, v), empty_lse(q)


@torch.library.custom_op("fa4::flash_attn_fwd", mutates_args=(),
                         device_types="cuda")
def flash_attn_fwd(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                   causal: bool, window_left: int, window_right: int,
                   softmax_scale: float, softcap: float = 0.0,
                   sinks: Optional[torch.Tensor] = None
                   ) -> Tuple[torch.Tensor, torch.Tensor]:
    """softmax_scale < 0: the default, 1/sqrt(head dim); softcap 0: none;
    sinks f32 [hq] (flash._sinks made them so) or None."""
    o, lse = empty_outputs(q, v)
    kernel = flash._kernel_of(
        q, k, v, *flash._from_op_args(causal, window_left, window_right,
                                      softmax_scale, softcap),
        sinks=sinks is not None)
    flash._launch(torch, kernel, q, k, v, o, lse, sinks)
    return o, lse


@flash_attn_fwd.register_fake
def _(q, k, v, causal, window_left, window_right, softmax_scale,
      softcap=0.0, sinks=None):
    return empty_outputs(q, v)


@torch.library.custom_op("fa4::flash_attn_bwd", mutates_args=(),
                         device_types="cuda")
def flash_attn_bwd(dout: torch.Tensor, q: torch.Tensor, k: torch.Tensor,
                   v: torch.Tensor, o: torch.Tensor, lse: torch.Tensor,
                   causal: bool, window_left: int, window_right: int,
                   softmax_scale: float, softcap: float = 0.0
                   ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """dq, dk, dv (contiguous, of q's, k's and v's shapes and dtype) of
    flash_attn_fwd's q, k, v, from its o and lse and dO = dout; the same
    arguments as flash_attn_fwd's."""
    dq, dk, dv = empty_gradients(q, k, v)
    kernel = flash._backward_kernel_of(
        q, k, v, *flash._from_op_args(causal, window_left, window_right,
                                      softmax_scale, softcap))
    flash._launch_backward(torch, kernel, q, k, v, o, lse, dout, dq, dk, dv)
    return dq, dk, dv


def empty_gradients(q, k, v):
    return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape)


@flash_attn_bwd.register_fake
def _(dout, q, k, v, o, lse, causal, window_left, window_right,
      softmax_scale, softcap=0.0):
    return empty_gradients(q, k, v)


def _save_forward(ctx, inputs, output):
    q, k, v, causal, window_left, window_right, softmax_scale = inputs[:7]
    softcap = inputs[7] if len(inputs) > 7 else 0.0
    sinks = inputs[8] if len(inputs) > 8 else None
    o, lse = output
    ctx.save_for_backward(q, k, v, o, lse, sinks)
    ctx.op_args = (causal, window_left, window_right, softmax_scale, softcap)
    ctx.mark_non_differentiable(lse)


def sink_gradient(grad_o, o, lse, sinks):
    """d loss / d sinks [hq]: each row's sink probability exp(sink - lse)
    times -rowsum(dO * o), summed over batches and rows (a sink is a key
    with no value: only the softmax's denominator sees it)."""
    rows = (grad_o.float() * o.float()).sum(-1).transpose(1, 2)  # [b, hq, sq]
    share = torch.exp(sinks[None, :, None] - lse)
    return -(share * rows).sum(dim=(0, 2))


def _flash_attn_backward(ctx, grad_o, grad_lse):
    q, k, v, o, lse, sinks = ctx.saved_tensors
    # The kernel reads rows of unit stride: a broadcast gradient (stride 0)
    # is made whole.
    grad_o = grad_o.contiguous()
    dq, dk, dv = flash_attn_bwd(grad_o, q, k, v, o, lse, *ctx.op_args)
    dsinks = None
    if sinks is not None and ctx.needs_input_grad[8]:
        dsinks = sink_gradient(grad_o, o, lse, sinks)
    return dq, dk, dv, None, None, None, None, None, dsinks


flash_attn_fwd.register_autograd(_flash_attn_backward,
                                 setup_context=_save_forward)


def empty_serving_outputs(q, v):
    """O and LSE of a serving form: packed queries [tq, hq, d] give o
    [tq, hq, dv] and lse [hq, tq]; dense [b, sq, hq, d] o [b, sq, hq, dv]
    and lse [b, hq, sq]."""
    dv = v.shape[-1]
    if q.dim() == 3:
        tq, hq = q.shape[0], q.shape[1]
        return (q.new_empty((tq, hq, dv)),
                q.new_empty((hq, tq), dtype=torch.float32))
    b, sq, hq = q.shape[0], q.shape[1], q.shape[2]
    return (q.new_empty((b, sq, hq, dv)),
            q.new_empty((b, hq, sq), dtype=torch.float32))


# Every device: the implementation checks that the tensors are CUDA ones
# (fa4.serving's chip lookup), which a model of the kernel on the CPU
# replaces in test/gpu/serving.py --model-kernel.
@torch.library.custom_op("fa4::serving_fwd", mutates_args=())
def serving_fwd(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                cu_seqlens_q: Optional[torch.Tensor],
                cu_seqlens_k: Optional[torch.Tensor],
                seqused_k: Optional[torch.Tensor],
                block_table: Optional[torch.Tensor],
                seqlens_k: Optional[torch.Tensor], max_seqlen_q: int,
                causal: bool, window_left: int, window_right: int,
                softmax_scale: float, softcap: float = 0.0,
                sinks: Optional[torch.Tensor] = None
                ) -> Tuple[torch.Tensor, torch.Tensor]:
    """The serving form the index tensors name (cu_seqlens_k: packed
    sequences; block_table: a paged cache, k and v its pages);
    softmax_scale < 0: the default, 1/sqrt(head dim); softcap 0: none;
    sinks f32 [hq] or None."""
    from . import serving
    return serving._launch_op(q, k, v, cu_seqlens_q, cu_seqlens_k, seqused_k,
                              block_table, seqlens_k, max_seqlen_q, causal,
                              (window_left, window_right),
                              None if softmax_scale < 0 else softmax_scale,
                              softcap, sinks)


@serving_fwd.register_fake
def _(q, k, v, cu_seqlens_q, cu_seqlens_k, seqused_k, block_table, seqlens_k,
      max_seqlen_q, causal, window_left, window_right, softmax_scale,
      softcap=0.0, sinks=None):
    return empty_serving_outputs(q, v)


def _save_serving(ctx, inputs, output):
    (q, k, v, cu_seqlens_q, cu_seqlens_k, seqused_k, block_table, _,
     _, causal, window_left, window_right, softmax_scale) = inputs[:13]
    softcap = inputs[13] if len(inputs) > 13 else 0.0
    sinks = inputs[14] if len(inputs) > 14 else None
    o, lse = output
    ctx.save_for_backward(q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k,
                          seqused_k, sinks)
    ctx.paged = block_table is not None
    ctx.op_args = (causal, window_left, window_right, softmax_scale, softcap)
    ctx.mark_non_differentiable(lse)


def _spans(cu_seqlens_q, cu_seqlens_k, seqused_k):
    """Each sequence's (query, key) token spans, read on the host: the
    backward of packed sequences synchronises once."""
    starts_q, starts_k = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    used = seqused_k.tolist() if seqused_k is not None else None
    for i in range(len(starts_q) - 1):
        key_end = starts_k[i + 1]
        if used is not None:
            key_end = starts_k[i] + min(max(used[i], 0), key_end - starts_k[i])
        yield (starts_q[i], starts_q[i + 1]), (starts_k[i], key_end)


def _varlen_backward(ctx, grad_o, grad_lse):
    """Packed sequences' gradients: each sequence's dense backward on views
    of the packed tensors (its queries and keys as a batch of one, its
    mask bottom-right aligned within it, as the forward's). Keys past
    seqused_k, and tokens of no sequence, get zero gradients."""
    if ctx.paged:
        raise RuntimeError("fa4::serving_fwd: a paged KV cache is forward "
                           "only (flash_attn_with_kvcache is an inference "
                           "call); train with flash_attn_func or "
                           "flash_attn_varlen_func")
    if torch.compiler.is_compiling():
        raise RuntimeError("fa4::serving_fwd: the backward of packed "
                           "sequences reads their spans on the host and "
                           "cannot be traced; differentiate "
                           "flash_attn_varlen_func outside torch.compile, "
                           "or use flash_attn_func")
    (q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k, seqused_k,
     sinks) = ctx.saved_tensors
    grad_o = grad_o.contiguous()
    dq, dk, dv = (torch.zeros_like(t) for t in (q, k, v))
    dsinks = (torch.zeros_like(sinks)
              if sinks is not None and ctx.needs_input_grad[14] else None)
    for (q0, q1), (k0, k1) in _spans(cu_seqlens_q, cu_seqlens_k, seqused_k):
        if q1 <= q0 or k1 <= k0:
            continue  # no rows, or rows that see no key: zero gradients

        def rows(t, start, end):
            return t[start:end].unsqueeze(0)
        seq_grad_o, seq_o = rows(grad_o, q0, q1), rows(o, q0, q1)
        seq_lse = lse[:, q0:q1].unsqueeze(0)
        grads = flash_attn_bwd(seq_grad_o, rows(q, q0, q1), rows(k, k0, k1),
                               rows(v, k0, k1), seq_o, seq_lse, *ctx.op_args)
        dq[q0:q1], dk[k0:k1], dv[k0:k1] = (g[0] for g in grads)
        if dsinks is not None:
            dsinks += sink_gradient(seq_grad_o, seq_o, seq_lse, sinks)
    return (dq, dk, dv) + (None,) * 11 + (dsinks,)


serving_fwd.register_autograd(_varlen_backward, setup_context=_save_serving)
