"""fa4::flash_attn_fwd, a torch.library custom op, so torch.compile
(fullgraph, dynamic shapes) traces through fa4's attention and
torch.library.opcheck checks it. The fake returns what the real op does:
o [b, sq, hq, dv] and lse [b, hq, sq] (f32) with the same strides. Forward
only: its autograd formula raises."""

from typing import Tuple

import torch

from . import flash
from .runtime import contiguous_strides

__all__ = ["flash_attn_fwd", "output_strides"]

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
                   softmax_scale: float) -> Tuple[torch.Tensor, torch.Tensor]:
    """softmax_scale < 0: the default, 1/sqrt(head dim)."""
    o, lse = empty_outputs(q, v)
    kernel = flash._kernel_of(q, k, v, *flash._from_op_args(
        causal, window_left, window_right, softmax_scale))
    flash._launch(torch, kernel, q, k, v, o, lse)
    return o, lse


@flash_attn_fwd.register_fake
def _(q, k, v, causal, window_left, window_right, softmax_scale):
    return empty_outputs(q, v)


def _backward(ctx, grad_o, grad_lse):
    raise RuntimeError("fa4::flash_attn_fwd is forward only: fa4 has no "
                       "backward pass yet (run it under torch.no_grad(), or "
                       "use another attention for training)")


flash_attn_fwd.register_autograd(_backward)
