"""The attention contract's O and LSE, computed with torch, for the GPU checks
(test/gpu/python-launch.py, test/gpu/flash-attn.py)."""
import math

import torch


def reference(q, k, v, mask, left, right, dtype, scale=None, softcap=0.0,
              sinks=None):
    """O and LSE of the contract (BSHD, bottom-right aligned), in `dtype`;
    `scale` default 1/sqrt(Dqk); softcap c > 0: scaled scores s become
    c * tanh(s / c) before the mask (FlashAttention's reference: divide,
    tanh, multiply, each in `dtype`); sinks [hq]: one more logit per head in
    each row's LSE (the softmax's denominator), with no value."""
    b, sq, hq, dqk = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    group = hq // hkv
    qh = q.to(dtype).transpose(1, 2)
    kh = k.to(dtype).transpose(1, 2).repeat_interleave(group, dim=1)
    vh = v.to(dtype).transpose(1, 2).repeat_interleave(group, dim=1)
    if scale is None:
        scale = 1.0 / math.sqrt(dqk)
    s = (qh @ kh.transpose(-1, -2)) * scale
    if softcap:
        s = torch.tanh(s / softcap) * softcap
    i = torch.arange(sq, device=q.device)[:, None]
    j = torch.arange(skv, device=q.device)[None, :]
    diag = i + skv - sq
    visible = torch.ones(sq, skv, dtype=torch.bool, device=q.device)
    if mask == "causal":
        visible &= j <= diag
    if mask == "window":
        if right >= 0:
            visible &= j <= diag + right
        if left >= 0:
            visible &= j >= diag - left
    s = s.masked_fill(~visible, float("-inf"))
    lse = torch.logsumexp(s.double(), dim=-1)
    if sinks is not None:
        lse = torch.logaddexp(lse, sinks.double().to(lse.device)[:, None])
    p = torch.exp(s.double() - lse[..., None]).nan_to_num(0.0).to(dtype)
    o = (p @ vh).transpose(1, 2)
    return o, lse.float()
