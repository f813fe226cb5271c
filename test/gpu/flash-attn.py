#!/usr/bin/env python3
"""GPU check of fa4.flash_attn_func, the call PyTorch users make.

    flash-attn.py --configs CHIP     the kernel pack's configurations (for
                                     python -m fa4.pack, on the compiler's
                                     machine)
    flash-attn.py                    on the GPU, $FA4_CACHE_DIR the pack

Checks, printing one line each and exiting non-zero on any failure:
- the matrix (MHA/GQA/MQA, d = 64/128/256 and 192/128, bf16/f16, no mask,
  causal, windows, causal with a window, a custom softmax_scale, and
  softcap 15 and 50 over the same shapes, Q scaled by 6 there so that
  scores of order 10-30 meet the cap's bend), and attention sinks (one
  logit per query head around the rows' maxima, some given in bf16) at odd
  sizes with fresh random inputs, O and LSE against an f64 reference under
  FlashAttention's rule (the low-precision error measured on the same
  reference in the input dtype); once per configuration into a
  NaN-poisoned `out`;
- torch.library.opcheck of fa4::flash_attn_fwd;
- torch.compile(fullgraph=True, dynamic=True) gives the eager output;
- CUDA-graph capture and replay give the eager output.
The host's cost per call and decode bandwidth against torch SDPA:
bench/flash_attn_launch.py.
"""
import math
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))

# (hq, hkv, dqk, dv, dtype, causal, window_size, softmax_scale[, softcap
#  [, sinks]])
MATRIX = [
    (8, 8, 128, 128, "bf16", False, (-1, -1), None),
    (8, 2, 128, 128, "bf16", True, (-1, -1), None),
    (8, 1, 64, 64, "f16", False, (-1, -1), None),
    (6, 3, 64, 64, "bf16", True, (-1, -1), 0.2),
    (4, 4, 256, 256, "bf16", False, (-1, -1), None),
    (6, 6, 192, 128, "bf16", True, (-1, -1), None),
    (8, 2, 128, 128, "f16", False, (32, 0), None),
    (4, 2, 96, 96, "bf16", False, (17, 33), None),
    # Causal with a window: FlashAttention keeps the left bound and sets the
    # right one to 0, so the 5 must not reach the kernel.
    (8, 2, 128, 128, "bf16", True, (48, 5), None),
    # Logit softcapping (issue 61): FlashAttention's CuTe tests use 15.
    (8, 8, 128, 128, "bf16", False, (-1, -1), None, 15.0),
    (8, 2, 128, 128, "bf16", True, (-1, -1), None, 15.0),
    (8, 1, 64, 64, "f16", False, (-1, -1), None, 50.0),
    (6, 3, 64, 64, "bf16", True, (-1, -1), 0.2, 15.0),
    (4, 4, 256, 256, "bf16", False, (-1, -1), None, 50.0),
    (6, 6, 192, 128, "bf16", True, (-1, -1), None, 15.0),
    (8, 2, 128, 128, "f16", False, (32, 0), None, 50.0),
    (8, 2, 128, 128, "bf16", True, (48, 5), None, 15.0),
    # Attention sinks (issue 61): one logit per query head, drawn around
    # the rows' maxima; gpt-oss's 64/8 heads of 64 under its 128-key
    # sliding window, and with a softcap.
    (8, 8, 128, 128, "bf16", False, (-1, -1), None, 0.0, True),
    (8, 2, 128, 128, "bf16", True, (-1, -1), None, 0.0, True),
    (8, 1, 64, 64, "f16", False, (-1, -1), None, 0.0, True),
    (6, 3, 64, 64, "bf16", True, (-1, -1), 0.2, 0.0, True),
    (4, 4, 256, 256, "bf16", False, (-1, -1), None, 0.0, True),
    (6, 6, 192, 128, "bf16", True, (-1, -1), None, 0.0, True),
    (64, 8, 64, 64, "bf16", True, (127, 0), None, 0.0, True),
    (8, 2, 128, 128, "bf16", True, (-1, -1), None, 15.0, True),
]
# The softcapped rows' Q is scaled by this: scores of order 10-30.
SOFTCAP_Q_SCALE = 6.0


def rows():
    """MATRIX with every row's softcap (0.0: none) and sinks (False: none)."""
    return [row + (0.0, False)[len(row) - 8:] for row in MATRIX]
SHAPES = [(2, 77, 130), (1, 300, 257), (1, 1, 1000), (3, 128, 128),
          (1, 130, 77)]


def mask_text(causal, window):
    left, right = window
    if causal:
        return "causal" if left < 0 else "window(%d,0)" % left
    if left < 0 and right < 0:
        return "none"
    return "window(%d,%d)" % (left, right)


# The CUDA-graph check's problem: GQA decode, d = 128.
DECODE = "bf16:32:8:128:128:none"


def configs():
    lines = [DECODE]
    for (hq, hkv, dqk, dv, dtype, causal, window, scale, softcap,
         sinks) in rows():
        line = "%s:%d:%d:%d:%d:%s" % (dtype, hq, hkv, dqk, dv,
                                       mask_text(causal, window))
        if scale is not None:
            line += ":%r" % scale
        if softcap:
            line += ":softcap=%r" % softcap
        if sinks:
            line += ":sinks"
        lines.append(line)
    return lines


def contract(q, k, v, causal, window, scale, dtype, softcap=0.0, sinks=None):
    """The reference under FlashAttention's arguments: causal bounds the
    window's right side at 0."""
    from attention_reference import reference
    left, right = window
    return reference(q, k, v, "window", left, 0 if causal else right, dtype,
                     scale, softcap, sinks)


def inputs(torch, b, sq, skv, hq, hkv, dqk, dv, dtype, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(b, sq, hq, dqk, device="cuda", dtype=dtype, generator=gen)
    k = torch.randn(b, skv, hkv, dqk, device="cuda", dtype=dtype, generator=gen)
    v = torch.randn(b, skv, hkv, dv, device="cuda", dtype=dtype, generator=gen)
    return q, k, v


def check_matrix(torch, fa4):
    failures = cases = 0
    seed = 1000
    for (hq, hkv, dqk, dv, name, causal, window, scale, softcap,
         with_sinks) in rows():
        dtype = torch.bfloat16 if name == "bf16" else torch.float16
        for index, (b, sq, skv) in enumerate(SHAPES):
            seed += 1
            q, k, v = inputs(torch, b, sq, skv, hq, hkv, dqk, dv, dtype, seed)
            if softcap:
                q = q * SOFTCAP_Q_SCALE
            sinks = None
            if with_sinks:
                # Around the rows' maxima (0.8 c under a softcap c); in
                # the model's dtype on one shape, as gpt-oss keeps them
                # (fa4 converts to f32: the reference takes the same).
                center = 0.8 * softcap if softcap else 1.0
                sinks = center + 1.5 * torch.randn(hq, device="cuda")
                if index == 1:
                    sinks = sinks.to(dtype)
            out = None
            if index == 0:
                out = torch.full((b, sq, hq, dv), float("nan"), device="cuda",
                                 dtype=dtype)
            o, lse = fa4.flash_attn_func(q, k, v, causal=causal,
                                         window_size=window,
                                         softmax_scale=scale, softcap=softcap,
                                         sinks=sinks, return_lse=True, out=out)
            torch.cuda.synchronize()
            s = scale if scale is not None else 1.0 / math.sqrt(dqk)
            o_ref, lse_ref = contract(q, k, v, causal, window, s,
                                      torch.float64, softcap, sinks)
            o_low, _ = contract(q, k, v, causal, window, s, dtype, softcap,
                                sinks)
            err = (o.double() - o_ref).abs().max().item()
            ref_err = (o_low.double() - o_ref).abs().max().item()
            finite = torch.isfinite(lse_ref)
            lse_ok = torch.equal(torch.isinf(lse), ~finite) and (
                (lse[finite] - lse_ref[finite]).abs().max().item() < 1e-3
                if finite.any() else True)
            ok = (not math.isnan(err) and err <= 2 * ref_err + 1e-5 and lse_ok
                  and (out is None or o.data_ptr() == out.data_ptr()))
            failures += not ok
            cases += 1
            print("%-4s %s:%d/%d d=%d/%d %s scale=%s softcap=%g%s b=%d "
                  "sq=%d skv=%d%s max_err=%.3g ref_err=%.3g lse=%s"
                  % ("pass" if ok else "FAIL", name, hq, hkv, dqk, dv,
                     mask_text(causal, window), scale, softcap,
                     " sinks" if with_sinks else "", b, sq, skv,
                     " out=" if out is not None else "", err, ref_err,
                     "ok" if lse_ok else "BAD"))
    print("matrix: %d of %d cases pass" % (cases - failures, cases))
    return failures


def check_opcheck(torch, fa4):
    q, k, v = inputs(torch, 2, 77, 130, 8, 2, 128, 128, torch.bfloat16, 7)
    try:
        torch.library.opcheck(torch.ops.fa4.flash_attn_fwd.default,
                              (q, k, v, True, -1, -1, -1.0),
                              test_utils=("test_schema", "test_faketensor",
                                          "test_autograd_registration",
                                          "test_aot_dispatch_dynamic"))
        print("pass opcheck fa4::flash_attn_fwd")
        return 0
    except Exception as error:  # noqa: BLE001 (reported)
        print("FAIL opcheck fa4::flash_attn_fwd: %s" % str(error)[:400])
        return 1


def check_compile(torch, fa4):
    def attend(q, k, v):
        return fa4.flash_attn_func(q, k, v, causal=True) * 2.0

    compiled = torch.compile(attend, fullgraph=True, dynamic=True)
    failures = 0
    for b, sq, skv in ((2, 77, 130), (1, 300, 257), (3, 128, 128)):
        q, k, v = inputs(torch, b, sq, skv, 8, 2, 128, 128, torch.bfloat16, sq)
        eager = attend(q, k, v)
        traced = compiled(q, k, v)
        same = torch.equal(eager, traced)
        failures += not same
        print("%-4s torch.compile(fullgraph, dynamic) b=%d sq=%d skv=%d: %s"
              % ("pass" if same else "FAIL", b, sq, skv,
                 "identical to eager" if same else "differs"))
    return failures


def check_graphs(torch, fa4):
    q, k, v = inputs(torch, 1, 1, 4097, 32, 8, 128, 128, torch.bfloat16, 11)
    eager = fa4.flash_attn_func(q, k, v)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fa4.flash_attn_func(q, k, v)  # warm: loads the kernel
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        captured = fa4.flash_attn_func(q, k, v)
    graph.replay()
    torch.cuda.synchronize()
    first = torch.equal(captured, eager)
    q.copy_(torch.randn_like(q))
    graph.replay()
    torch.cuda.synchronize()
    second = torch.equal(captured, fa4.flash_attn_func(q, k, v))
    ok = first and second
    print("%-4s CUDA graph: replay %s eager, after new inputs %s"
          % ("pass" if ok else "FAIL", "==" if first else "!=",
             "==" if second else "!="))
    return not ok


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--configs":
        print("\n".join(configs()))
        return 0
    import torch
    import fa4
    failures = check_matrix(torch, fa4)
    failures += check_opcheck(torch, fa4)
    failures += check_compile(torch, fa4)
    failures += check_graphs(torch, fa4)
    print("flash-attn: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
