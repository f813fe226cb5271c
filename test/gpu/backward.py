#!/usr/bin/env python3
"""GPU check of fa4's backward pass (issue 63): fa4.flash_attn_func under
autograd.

    backward.py --configs CHIP   the kernel pack's configurations (forward
                                 and backward kernels, for python -m fa4.pack)
    backward.py                  on the GPU, $FA4_CACHE_DIR the pack
    backward.py --model-kernel   on the CPU, the packed sequences' checks
                                 with the kernels replaced by models of
                                 them (the forward's: serving.py's; the
                                 backward's: its formulas from the
                                 forward's LSE, model_backward below)

Checks, printing one line each and exiting non-zero on any failure:
- the matrix (MHA/GQA/MQA, d = 64/96/128/256 and 192/128, bf16/f16, no
  mask, causal, windows, causal with a window, a custom softmax_scale,
  softcap 15 and 50) at odd sizes (Sq > Skv among them, so that rows see no
  key) with fresh random inputs: dq, dk, dv of sum(o * dO) against an f64
  reference under FlashAttention's backward rule (each gradient's max error
  at most twice the error of the same reference computed in the input
  dtype, plus twice the f64 gradient's own rounding to that dtype);
- every case run twice gives bitwise the same gradients (the kernel is
  deterministic), and the kernel launched directly into NaN-poisoned
  gradients gives the same bits (every element written);
- torch.library.opcheck of fa4::flash_attn_bwd, and of fa4::flash_attn_fwd
  with inputs that require grad (its autograd registration and AOT
  dispatch, backward included);
- torch.compile(fullgraph=True, dynamic=True) of a loss's backward gives
  eager's gradients;
- with attention sinks (gpt-oss's, drawn around the rows' maxima), the
  sinks' gradient too, under the same rule;
- packed sequences (flash_attn_varlen_func: empty and one-token
  sequences, Sq > Skv, seqused_k, sinks): each sequence's gradients
  against its own f64 reference under the same rule, keys past seqused_k
  and the sequences' padding zero;
- a small transformers Llama (random init) trains 8 AdamW steps with
  attn_implementation "fa4", "sdpa" and "eager" from the same weights on
  the same batches: fa4's loss curve stays within 1.5x the spread of the
  two exact attentions' (max over steps |fa4 - x| <= 1.5 max |sdpa -
  eager| + 2e-3, x in sdpa, eager), and the same with a right-padded
  batch (fa4.hf's packed sequences, their backward included; also under
  --model-kernel, 3 steps on the CPU).
"""
import copy
import itertools
import math
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

# (hq, hkv, dqk, dv, dtype, causal, window_size, softmax_scale, softcap
#  [, sinks])
MATRIX = [
    (8, 8, 128, 128, "bf16", False, (-1, -1), None, 0.0),
    (8, 2, 128, 128, "bf16", True, (-1, -1), None, 0.0),
    (8, 1, 64, 64, "f16", False, (-1, -1), None, 0.0),
    (6, 3, 64, 64, "bf16", True, (-1, -1), 0.2, 0.0),
    (4, 4, 256, 256, "bf16", False, (-1, -1), None, 0.0),
    (6, 6, 192, 128, "bf16", True, (-1, -1), None, 0.0),
    (8, 2, 128, 128, "f16", False, (32, 0), None, 0.0),
    (4, 2, 96, 96, "bf16", False, (17, 33), None, 0.0),
    (8, 2, 128, 128, "bf16", True, (48, 5), None, 0.0),
    (8, 2, 128, 128, "bf16", True, (-1, -1), None, 15.0),
    (8, 1, 64, 64, "f16", False, (-1, -1), None, 50.0),
    # Attention sinks: their gradient, and the same kernel's dq, dk, dv
    # from the forward's lse (which holds them).
    (8, 2, 128, 128, "bf16", True, (-1, -1), None, 0.0, True),
    (8, 1, 64, 64, "f16", False, (-1, -1), None, 50.0, True),
]


def rows():
    """MATRIX with every row's sinks flag (False: none)."""
    return [row + (False,)[len(row) - 9:] for row in MATRIX]
SHAPES = [(2, 77, 130), (1, 130, 77), (1, 1, 200), (3, 64, 64)]
# The softcapped rows' Q is scaled by this: scores of order 10-30.
SOFTCAP_Q_SCALE = 6.0
# The Llama of the training check (test/gpu/hf-models.py's shape).
HEADS, KV_HEADS, HEAD_DIM = 8, 2, 64
LLAMA = "bf16:%d:%d:%d:%d:causal" % (HEADS, KV_HEADS, HEAD_DIM, HEAD_DIM)
# Packed sequences: (causal, sinks); the lengths (queries, keys, keys used).
VARLEN = [(True, False), (False, True)]
VARLEN_LENGTHS = [(5, 9, 9), (0, 4, 4), (37, 50, 41), (1, 20, 20),
                  (30, 12, 12), (16, 0, 0)]
VARLEN_CONFIG = "bf16:8:2:128:128:%s"
# Where the packed sequences' check runs: the CPU under --model-kernel.
DEVICE = "cuda"


def mask_text(causal, window):
    left, right = window
    if causal:
        return "causal" if left < 0 else "window(%d,0)" % left
    if left < 0 and right < 0:
        return "none"
    return "window(%d,%d)" % (left, right)


def configs():
    lines = []
    for (hq, hkv, dqk, dv, dtype, causal, window, scale, softcap,
         sinks) in rows():
        line = "%s:%d:%d:%d:%d:%s" % (dtype, hq, hkv, dqk, dv,
                                       mask_text(causal, window))
        if scale is not None:
            line += ":%r" % scale
        if softcap:
            line += ":softcap=%r" % softcap
        # A forward with sinks has its own kernel, its backward the same.
        lines += [line + (":sinks" if sinks else ""), line + ":backward"]
    lines += [LLAMA, LLAMA + ":backward", LLAMA + "@varlen"]
    for causal, sinks in VARLEN:
        line = VARLEN_CONFIG % ("causal" if causal else "none")
        lines += [line + (":sinks" if sinks else "") + "@varlen_seqused",
                  line + ":backward"]
    return sorted(set(lines), key=lines.index)


def visible_keys(torch, sq, skv, causal, window, device):
    """[sq, skv] bool: FlashAttention's mask, bottom-right aligned (causal
    bounds the right side at 0)."""
    left, right = window
    if causal:
        right = 0
    i = torch.arange(sq, device=device)[:, None]
    j = torch.arange(skv, device=device)[None, :]
    diag = i + skv - sq
    visible = torch.ones(sq, skv, dtype=torch.bool, device=device)
    if right >= 0:
        visible &= j <= diag + right
    if left >= 0:
        visible &= j >= diag - left
    return visible


def reference(torch, q, k, v, causal, window, scale, softcap, dtype,
              sinks=None):
    """O of BSHD q, k, v computed in `dtype`, differentiable: a row that
    sees no key gives 0 (and no gradient), as the kernels do; sinks [hq]
    one more logit per row with no value."""
    b, sq, hq, dqk = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    group = hq // hkv
    qh = q.to(dtype).transpose(1, 2)
    kh = k.to(dtype).transpose(1, 2).repeat_interleave(group, dim=1)
    vh = v.to(dtype).transpose(1, 2).repeat_interleave(group, dim=1)
    s = (qh @ kh.transpose(-1, -2)) * (scale or 1.0 / math.sqrt(dqk))
    if softcap:
        s = torch.tanh(s / softcap) * softcap
    visible = visible_keys(torch, sq, skv, causal, window, q.device)
    s = s.masked_fill(~visible, torch.finfo(s.dtype).min)
    if sinks is not None:
        sink = sinks.to(dtype)[None, :, None, None].expand(b, hq, sq, 1)
        p = torch.softmax(torch.cat([s, sink], dim=-1), dim=-1)[..., :skv]
    else:
        p = torch.softmax(s, dim=-1)
    p = p * visible
    return (p.to(dtype) @ vh).transpose(1, 2)


def gradients(torch, forward, q, k, v, dout, sinks=None):
    """dq, dk, dv (and dsinks) of sum(forward(q, k, v[, sinks]) * dout)."""
    inputs = (q, k, v) if sinks is None else (q, k, v, sinks)
    leaves = [t.detach().clone().requires_grad_(True) for t in inputs]
    out = forward(*leaves)
    out.backward(dout.to(out.dtype))
    return [t.grad for t in leaves]


def inputs(torch, b, sq, skv, hq, hkv, dqk, dv, dtype, seed, q_scale=1.0):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, sq, hq, dqk, device="cuda", dtype=dtype,
                    generator=gen) * q_scale
    k = torch.randn(b, skv, hkv, dqk, device="cuda", dtype=dtype, generator=gen)
    v = torch.randn(b, skv, hkv, dv, device="cuda", dtype=dtype, generator=gen)
    dout = torch.randn(b, sq, hq, dv, device="cuda", dtype=dtype, generator=gen)
    return q.to(dtype), k, v, dout


def direct_launch(torch, fa4, q, k, v, dout, causal, window, scale, softcap,
                  sinks=None):
    """The backward kernel launched directly into NaN-poisoned gradients,
    from fa4's own forward O and LSE."""
    o, lse = fa4.flash_attn_func(q, k, v, causal=causal, window_size=window,
                                 softmax_scale=scale, softcap=softcap,
                                 sinks=sinks, return_lse=True)
    kernel = fa4.flash._backward_kernel_of(q, k, v, causal, window, scale,
                                           softcap)
    grads = [torch.full_like(t, float("nan")) for t in (q, k, v)]
    fa4.flash._launch_backward(torch, kernel, q, k, v, o, lse, dout, *grads)
    return grads


def sinks_around_maxima(torch, q, k, scale, seed):
    """A sink per query head around the rows' largest scaled scores, so that
    it takes a visible share of each row."""
    hq, hkv = q.shape[2], k.shape[2]
    kh = k.float().repeat_interleave(hq // hkv, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q.float(), kh) * (
        scale or 1.0 / math.sqrt(q.shape[3]))
    gen = torch.Generator(device=DEVICE).manual_seed(seed)
    return (s.amax(dim=-1).mean(dim=(0, 2)) +
            torch.randn(hq, device=DEVICE, generator=gen))


def check_case(torch, fa4, row, shape, seed):
    hq, hkv, dqk, dv, dtype_name, causal, window, scale, softcap, with_sinks = row
    b, sq, skv = shape
    dtype = torch.bfloat16 if dtype_name == "bf16" else torch.float16
    q, k, v, dout = inputs(torch, b, sq, skv, hq, hkv, dqk, dv, dtype, seed,
                           SOFTCAP_Q_SCALE if softcap else 1.0)
    sinks = (sinks_around_maxima(torch, q, k, scale, seed) if with_sinks
             else None)

    def fa4_forward(q, k, v, sinks=None):
        return fa4.flash_attn_func(q, k, v, causal=causal, window_size=window,
                                   softmax_scale=scale, softcap=softcap,
                                   sinks=sinks)

    def ref_forward(dtype):
        return lambda q, k, v, sinks=None: reference(
            torch, q, k, v, causal, window, scale, softcap, dtype, sinks)

    ours = gradients(torch, fa4_forward, q, k, v, dout, sinks)
    again = gradients(torch, fa4_forward, q, k, v, dout, sinks)
    direct = direct_launch(torch, fa4, q, k, v, dout, causal, window, scale,
                           softcap, sinks)
    exact = gradients(torch, ref_forward(torch.float64), q, k, v, dout, sinks)
    low = gradients(torch, ref_forward(dtype), q, k, v, dout, sinks)
    ok = True
    parts = []
    names = ("dq", "dk", "dv", "dsinks")
    # The sinks' gradient is f32: its rounding is the low reference's.
    direct += ours[3:]
    for name, g, g2, gd, ge, gl in zip(names, ours, again, direct, exact,
                                       low):
        err = (g.double() - ge).abs().max().item()
        low_err = (gl.double() - ge).abs().max().item()
        rounding = (ge.to(g.dtype).double() - ge).abs().max().item()
        bound = 2 * low_err + 2 * rounding
        same = torch.equal(g, g2) and torch.equal(g, gd)
        good = math.isfinite(err) and err <= bound and same
        ok &= good
        parts.append("%s %.2e<=%.2e%s" % (name, err, bound,
                                          "" if same else " NOT-DETERMINISTIC"))
    print("%-4s %d/%d d=%d/%d %s %s scale=%s softcap=%g%s b=%d sq=%d skv=%d: "
          "%s" % ("pass" if ok else "FAIL", hq, hkv, dqk, dv, dtype_name,
                  mask_text(causal, window), scale, softcap,
                  " sinks" if with_sinks else "", b, sq, skv,
                  ", ".join(parts)))
    return not ok


def check_matrix(torch, fa4):
    failures = cases = 0
    for index, row in enumerate(rows()):
        for shape_index, shape in enumerate(SHAPES):
            cases += 1
            failures += check_case(torch, fa4, row, shape,
                                   1000 + 10 * index + shape_index)
    print("matrix: %d of %d cases pass" % (cases - failures, cases))
    return failures


def check_varlen(torch, fa4):
    """flash_attn_varlen_func's gradients, sequence by sequence."""
    failures = 0
    for index, (causal, with_sinks) in enumerate(VARLEN):
        gen = torch.Generator(device=DEVICE).manual_seed(70 + index)
        lens_q = [l[0] for l in VARLEN_LENGTHS]
        lens_k = [l[1] for l in VARLEN_LENGTHS]
        used = [l[2] for l in VARLEN_LENGTHS]
        tq, tk = sum(lens_q) + 3, sum(lens_k) + 2  # tokens of no sequence

        def randn(*shape):
            return torch.randn(*shape, device=DEVICE, dtype=torch.bfloat16,
                               generator=gen)
        q, k, v, dout = randn(tq, 8, 128), randn(tk, 2, 128), randn(
            tk, 2, 128), randn(tq, 8, 128)
        cu_q = torch.tensor([0] + list(itertools.accumulate(lens_q)),
                            dtype=torch.int32, device=DEVICE)
        cu_k = torch.tensor([0] + list(itertools.accumulate(lens_k)),
                            dtype=torch.int32, device=DEVICE)
        seqused = torch.tensor(used, dtype=torch.int32, device=DEVICE)
        sinks = (sinks_around_maxima(torch, q[None], k[None], None, index)
                 if with_sinks else None)

        def fa4_forward(q, k, v, sinks=None):
            return fa4.flash_attn_varlen_func(
                q, k, v, cu_q, cu_k, max(lens_q), max(lens_k), causal=causal,
                seqused_k=seqused, sinks=sinks)

        def ref_forward(dtype):
            def forward(q, k, v, sinks=None):
                out = torch.zeros(q.shape[0], 8, 128, dtype=dtype,
                                  device=DEVICE)
                starts_q = cu_q.tolist()
                starts_k = cu_k.tolist()
                for i, n_used in enumerate(used):
                    q0, q1 = starts_q[i], starts_q[i + 1]
                    k0 = starts_k[i]
                    if q1 == q0 or n_used == 0:
                        continue
                    out[q0:q1] = reference(
                        torch, q[None, q0:q1], k[None, k0:k0 + n_used],
                        v[None, k0:k0 + n_used], causal, (-1, -1), None, 0.0,
                        dtype, sinks)[0]
                return out
            return forward

        ours = gradients(torch, fa4_forward, q, k, v, dout, sinks)
        exact = gradients(torch, ref_forward(torch.float64), q, k, v, dout,
                          sinks)
        low = gradients(torch, ref_forward(torch.bfloat16), q, k, v, dout,
                        sinks)
        ok, parts = True, []
        for name, g, ge, gl in zip(("dq", "dk", "dv", "dsinks"), ours, exact,
                                   low):
            err = (g.double() - ge).abs().max().item()
            low_err = (gl.double() - ge).abs().max().item()
            rounding = (ge.to(g.dtype).double() - ge).abs().max().item()
            bound = 2 * low_err + 2 * rounding
            good = math.isfinite(err) and err <= bound
            ok &= good
            parts.append("%s %.2e<=%.2e" % (name, err, bound))
        failures += not ok
        print("%-4s varlen 8/2 d=128 bf16 %s%s lengths %s: %s"
              % ("pass" if ok else "FAIL", "causal" if causal else "none",
                 " sinks" if with_sinks else "", VARLEN_LENGTHS,
                 ", ".join(parts)))
    return failures


def model_backward(torch):
    """fa4::flash_attn_bwd's kernel modelled on the CPU as the reference
    backward kernel computes it (D-70): P from the forward's LSE (which
    holds any sinks), D from the stored O, dS = P (dP - D), the softcap's
    slope, dK and dV summed over each group; a row without keys gives 0."""
    def backward(dout, q, k, v, o, lse, causal, window_left, window_right,
                 softmax_scale, softcap=0.0):
        b, sq, hq, d = q.shape
        skv, hkv = k.shape[1], k.shape[2]
        group = hq // hkv
        scale = 1 / math.sqrt(d) if softmax_scale < 0 else softmax_scale
        qd, kd, vd, od, dod = (t.double() for t in (q, k, v, o, dout))
        kh = kd.repeat_interleave(group, 2)
        vh = vd.repeat_interleave(group, 2)
        s = torch.einsum("bqhd,bkhd->bhqk", qd, kh) * scale
        slope = 1.0
        if softcap:
            capped = torch.tanh(s / softcap)
            s, slope = capped * softcap, 1 - capped * capped
        visible = visible_keys(torch, sq, skv, causal,
                               (window_left, window_right), q.device)
        lse = lse.double()[..., None]
        p = torch.where(visible & torch.isfinite(lse), torch.exp(s - lse),
                        torch.zeros((), dtype=torch.float64))
        dp = torch.einsum("bqhd,bkhd->bhqk", dod, vh)
        rows = (dod * od).sum(-1).transpose(1, 2)[..., None]
        ds = p * (dp - rows) * slope
        dq = torch.einsum("bhqk,bkhd->bqhd", ds, kh) * scale
        dk = torch.einsum("bhqk,bqhd->bkhd", ds, qd) * scale
        dv = torch.einsum("bhqk,bqhd->bkhd", p, dod)
        dk = dk.reshape(b, skv, hkv, group, d).sum(3)
        dv = dv.reshape(b, skv, hkv, group, -1).sum(3)
        return tuple(g.to(q.dtype) for g in (dq, dk, dv))
    return backward


def run_model_kernel(torch, fa4):
    """The packed sequences' checks on the CPU, both kernels modelled."""
    import importlib.util
    from fa4 import torch_ops
    spec = importlib.util.spec_from_file_location(
        "serving_check", os.path.join(os.path.dirname(
            os.path.abspath(__file__)), "serving.py"))
    serving_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serving_check)
    serving_check.model_kernel(torch)  # the forward, "cuda" tensors on CPU
    torch_ops.flash_attn_bwd = model_backward(torch)
    global DEVICE
    DEVICE = "cpu"
    failures = check_varlen(torch, fa4)
    # fa4.hf's padded batches run as packed sequences: their training, on
    # the CPU (an unpadded batch would take flash_attn_func's CUDA op).
    failures += check_llama_training(torch, fa4, steps=3, padded_only=True)
    print("backward (kernels modelled): %d failure(s)" % failures)
    return 1 if failures else 0


def check_opcheck(torch, fa4):
    q, k, v, dout = inputs(torch, 2, 37, 70, 8, 2, 128, 128, torch.bfloat16, 5)
    o, lse = fa4.flash_attn_func(q, k, v, causal=True, return_lse=True)
    failures = 0
    checks = (
        ("fa4::flash_attn_bwd", torch.ops.fa4.flash_attn_bwd.default,
         (dout, q, k, v, o, lse, True, -1, -1, -1.0)),
        ("fa4::flash_attn_fwd (requires grad)",
         torch.ops.fa4.flash_attn_fwd.default,
         tuple(t.detach().clone().requires_grad_(True) for t in (q, k, v))
         + (True, -1, -1, -1.0)),
    )
    for name, op, args in checks:
        try:
            torch.library.opcheck(op, args, test_utils=(
                "test_schema", "test_faketensor",
                "test_autograd_registration", "test_aot_dispatch_dynamic"))
            print("pass opcheck %s" % name)
        except Exception as error:  # noqa: BLE001 (reported)
            failures += 1
            print("FAIL opcheck %s: %s" % (name, str(error)[:400]))
    return failures


def check_compile(torch, fa4):
    def loss(q, k, v, dout):
        return (fa4.flash_attn_func(q, k, v, causal=True) * dout).sum()

    compiled = torch.compile(loss, fullgraph=True, dynamic=True)
    failures = 0
    for b, sq, skv in ((2, 77, 130), (1, 64, 64)):
        q, k, v, dout = inputs(torch, b, sq, skv, 8, 2, 128, 128,
                               torch.bfloat16, sq)
        eager = gradients(torch, lambda *t: fa4.flash_attn_func(
            *t, causal=True), q, k, v, dout)
        leaves = [t.detach().clone().requires_grad_(True) for t in (q, k, v)]
        compiled(*leaves, dout).backward()
        same = all(torch.equal(a, t.grad) for a, t in zip(eager, leaves))
        failures += not same
        print("%-4s torch.compile(fullgraph, dynamic) backward b=%d sq=%d "
              "skv=%d: %s" % ("pass" if same else "FAIL", b, sq, skv,
                              "identical to eager" if same else "differs"))
    return failures


def train_losses(torch, transformers, implementation, state, batches,
                 mask=None):
    cfg = transformers.LlamaConfig(
        hidden_size=HEADS * HEAD_DIM, num_attention_heads=HEADS,
        num_key_value_heads=KV_HEADS, head_dim=HEAD_DIM, num_hidden_layers=2,
        intermediate_size=1024, vocab_size=1024, initializer_range=0.05,
        attention_dropout=0.0)
    model = transformers.AutoModelForCausalLM.from_config(
        cfg, attn_implementation=implementation,
        dtype=torch.bfloat16).to(DEVICE)
    model.load_state_dict(state)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    losses = []
    for ids in batches:
        labels = ids if mask is None else ids.masked_fill(mask == 0, -100)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses


def check_llama_training(torch, fa4, steps=8, padded_only=False):
    import transformers
    fa4.hf.register()
    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(
        hidden_size=HEADS * HEAD_DIM, num_attention_heads=HEADS,
        num_key_value_heads=KV_HEADS, head_dim=HEAD_DIM, num_hidden_layers=2,
        intermediate_size=1024, vocab_size=1024, initializer_range=0.05)
    state = copy.deepcopy(transformers.AutoModelForCausalLM.from_config(
        cfg, dtype=torch.bfloat16).state_dict())
    gen = torch.Generator(device=DEVICE).manual_seed(4)
    # A repeated batch, so that the loss falls visibly in a few steps.
    ids = torch.randint(0, 1024, (4, 128), device=DEVICE, generator=gen)
    # Right padding, as training pads: rows of 128, 97, 64 and 120 tokens.
    mask = torch.ones_like(ids)
    for row, length in enumerate((128, 97, 64, 120)):
        mask[row, length:] = 0
    failures = 0
    batches = [("", None), (" (right-padded batch)", mask)]
    for what, batch_mask in batches[1:] if padded_only else batches:
        curves = {name: train_losses(torch, transformers, name, state,
                                     [ids] * steps, batch_mask)
                  for name in ("eager", "sdpa", "fa4")}
        spread = max(abs(a - b)
                     for a, b in zip(curves["sdpa"], curves["eager"]))
        err = max(abs(a - b) for x in ("sdpa", "eager")
                  for a, b in zip(curves["fa4"], curves[x]))
        falls = curves["fa4"][-1] < curves["fa4"][0] - 0.1
        ok = err <= 1.5 * spread + 2e-3 and falls
        failures += not ok
        print("%-4s Llama trains %d steps%s: fa4 %s, sdpa %s, eager %s; max "
              "|fa4 - x| %.4f <= 1.5 x spread %.4f + 2e-3%s"
              % ("pass" if ok else "FAIL", steps, what,
                 " ".join("%.3f" % l for l in curves["fa4"]),
                 " ".join("%.3f" % l for l in curves["sdpa"]),
                 " ".join("%.3f" % l for l in curves["eager"]), err, spread,
                 "" if falls else "; the loss does not fall"))
    return failures


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--configs":
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    import fa4.hf  # noqa: F401 (registers the attention function)
    if sys.argv[1:] == ["--model-kernel"]:
        return run_model_kernel(torch, fa4)
    failures = check_matrix(torch, fa4)
    failures += check_varlen(torch, fa4)
    failures += check_opcheck(torch, fa4)
    failures += check_compile(torch, fa4)
    failures += check_llama_training(torch, fa4)
    print("backward: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
