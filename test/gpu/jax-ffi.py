#!/usr/bin/env python3
"""GPU check of fa4.jax.flash_attention (XLA FFI) under jax.jit.

    jax-ffi.py --configs     the kernel pack's configurations
    jax-ffi.py               on the GPU: $FA4_CACHE_DIR the pack, libfa4xla.so
                             beside libfa4rt ($FA4_RUNTIME_LIB) or $FA4_XLA_LIB
    jax-ffi.py --wiring      on the CPU (no GPU, kernel or libfa4xla): the
                             gradient checks below with both FFI calls
                             replaced by a jnp reference, which checks
                             fa4.jax's custom_vjp wiring

Each forward case runs fa4 and jax.nn.dot_product_attention, both jitted,
on fresh random inputs at odd sizes, against an f64 reference (numpy): fa4
passes where its O error is at most twice JAX's own plus 1e-5
(FlashAttention's rule, JAX's attention in the same dtype as the
low-precision reference) and its LSE is within 1e-3 of the reference's.
Masked cases use sq == skv, where JAX's top-left aligned masks and fa4's
bottom-right ones agree.

Each gradient case takes jax.jit(jax.grad) of sum(flash_attention(q, k, v)
* dO) with respect to q, k, v (the backward pass's kernel, through the
handler fa4_attention_backward) against the f64 gradients (numpy, by the
backward's formulas, bottom-right aligned masks, a row that sees no key
giving 0) under FlashAttention's backward rule: each gradient's max error
at most twice the error of the same reference computed in the input dtype
(a jnp attention differentiated by jax) plus twice the f64 gradient's own
rounding to that dtype. jax.vjp of the call with return_lse and a random
cotangent of lse must give the same gradients, bit for bit (lse is not
differentiable; the kernel is deterministic). Then a bad call must be
refused with fa4's message.
"""
import math
import sys

# (hq, hkv, d, dtype, causal, window (left, right) or None, b, sq, skv)
CASES = [
    (8, 8, 128, "bfloat16", False, None, 2, 77, 130),
    (8, 8, 128, "bfloat16", False, None, 1, 300, 257),
    (8, 2, 128, "bfloat16", True, None, 2, 131, 131),
    (32, 8, 128, "bfloat16", False, None, 1, 1, 1000),   # decode, split-K
    (32, 8, 128, "bfloat16", False, None, 3, 1, 4099),
    (8, 2, 128, "float16", False, (32, 0), 1, 200, 200),
]
# (hq, hkv, d, dtype, causal, window or None, softcap, b, sq, skv)
GRAD_CASES = [
    (8, 2, 128, "bfloat16", True, None, 0.0, 2, 131, 131),   # GQA causal
    (8, 2, 128, "bfloat16", True, None, 0.0, 1, 77, 130),    # sq < skv
    (8, 2, 128, "bfloat16", True, None, 0.0, 1, 130, 77),    # rows see none
    (8, 8, 128, "bfloat16", False, None, 0.0, 2, 77, 130),
    (8, 2, 128, "float16", False, (32, 0), 0.0, 1, 200, 200),
    (8, 2, 128, "float16", False, (32, 0), 0.0, 1, 150, 90),
    (8, 2, 128, "bfloat16", True, None, 15.0, 1, 100, 150),
]
# The softcapped cases' q is scaled by this: scores of order 10-30.
SOFTCAP_Q_SCALE = 6.0
CONFIGS = ["bf16:8:8:128:128:none", "bf16:8:2:128:128:causal",
           "bf16:32:8:128:128:none", "f16:8:2:128:128:window(32,0)",
           "bf16:8:2:128:128:causal:softcap=15.0"]
# The backward pass's kernels: a configuration of GRAD_CASES' forward
# (above) with ":backward".
CONFIGS += ["bf16:8:8:128:128:none:backward",
            "bf16:8:2:128:128:causal:backward",
            "f16:8:2:128:128:window(32,0):backward",
            "bf16:8:2:128:128:causal:softcap=15.0:backward"]


def visible_keys(np, sq, skv, causal, window):
    """[sq, skv] bool: FlashAttention's mask, bottom-right aligned (-1
    unbounded; causal bounds the right side at 0)."""
    left, right = window if window is not None else (-1, -1)
    if causal:
        right = 0
    i = np.arange(sq)[:, None] + (skv - sq)
    j = np.arange(skv)[None, :]
    keep = np.ones((sq, skv), dtype=bool)
    if right >= 0:
        keep &= j <= i + right
    if left >= 0:
        keep &= j >= i - left
    return keep


def reference(np, q, k, v, causal, window, scale):
    """O and natural-log LSE in f64, BSHD, bottom-right aligned masks."""
    q, k, v = (np.asarray(t, dtype=np.float64) for t in (q, k, v))
    b, sq, hq, _ = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    k = np.repeat(k, hq // hkv, axis=2)
    v = np.repeat(v, hq // hkv, axis=2)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) * scale
    s = np.where(visible_keys(np, sq, skv, causal, window), s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    p = np.exp(s - m)
    lse = (np.log(p.sum(axis=-1)) + m[..., 0])
    o = np.einsum("bhqk,bkhd->bqhd", p / p.sum(axis=-1, keepdims=True), v)
    return o, lse


def reference_gradients(np, q, k, v, dout, causal, window, scale, softcap):
    """dq, dk, dv of sum(attention(q, k, v) * dout) in f64 by the backward's
    formulas (dS = P (dP - D), D = rowsum(dO O), the softcap's slope); a row
    that sees no key gives 0 and no gradient."""
    q, k, v, dout = (np.asarray(t, dtype=np.float64) for t in (q, k, v, dout))
    b, sq, hq, d = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    group = hq // hkv
    kr = np.repeat(k, group, axis=2)
    vr = np.repeat(v, group, axis=2)
    s = np.einsum("bqhd,bkhd->bhqk", q, kr) * scale
    slope = 1.0
    if softcap:
        t = np.tanh(s / softcap)
        s, slope = softcap * t, 1.0 - t * t
    keep = visible_keys(np, sq, skv, causal, window)
    s = np.where(keep, s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    p = np.where(keep, np.exp(s - m), 0.0)
    total = p.sum(axis=-1, keepdims=True)
    p = p / np.where(total > 0, total, 1.0)
    o = np.einsum("bhqk,bkhd->bqhd", p, vr)
    dv = np.einsum("bhqk,bqhd->bkhd", p, dout)
    dp = np.einsum("bqhd,bkhd->bhqk", dout, vr)
    delta = np.einsum("bqhd,bqhd->bhq", dout, o)[..., None]
    ds = p * (dp - delta) * slope
    dq = np.einsum("bhqk,bkhd->bqhd", ds, kr) * scale
    dk = np.einsum("bhqk,bqhd->bkhd", ds, q) * scale
    by_kv_head = lambda t: t.reshape(b, skv, hkv, group, -1).sum(axis=3)
    return dq, by_kv_head(dk), by_kv_head(dv)


def jnp_attention(jax, jnp, np, q, k, v, causal, window, scale, softcap,
                  dtype):
    """O and LSE of BSHD q, k, v computed in `dtype` (the LSE in f32),
    differentiable by jax: a row that sees no key gives 0 and no
    gradient."""
    q, k, v = (t.astype(dtype) for t in (q, k, v))
    b, sq, hq, _ = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    k = jnp.repeat(k, hq // hkv, axis=2)
    v = jnp.repeat(v, hq // hkv, axis=2)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) * jnp.asarray(scale, dtype)
    if softcap:
        s = jnp.tanh(s / jnp.asarray(softcap, dtype)) * jnp.asarray(softcap,
                                                                    dtype)
    keep = jnp.asarray(visible_keys(np, sq, skv, causal, window))
    s = jnp.where(keep, s, jnp.finfo(dtype).min)
    p = jax.nn.softmax(s, axis=-1) * keep
    o = jnp.einsum("bhqk,bkhd->bqhd", p.astype(dtype), v)
    s32 = jnp.where(keep, s.astype(jnp.float32), -jnp.inf)
    return o, jax.nn.logsumexp(s32, axis=-1)


def inputs(jax, key, shapes, dtype, q_scale=1.0):
    keys = jax.random.split(key, len(shapes))
    arrays = [jax.random.normal(key, shape, dtype)
              for key, shape in zip(keys, shapes)]
    arrays[0] = (arrays[0].astype("float32") * q_scale).astype(dtype)
    return arrays


def check_gradients(jax, jnp, np, fa4, key, case):
    hq, hkv, d, dtype, causal, window, softcap, b, sq, skv = case
    dt = getattr(jnp, dtype)
    q, k, v, dout, dlse = inputs(
        jax, key, [(b, sq, hq, d), (b, skv, hkv, d), (b, skv, hkv, d),
                   (b, sq, hq, d), (b, hq, sq)], dt,
        SOFTCAP_Q_SCALE if softcap else 1.0)
    dlse = dlse.astype(jnp.float32)
    window_size = window if window is not None else (-1, -1)
    scale = 1.0 / math.sqrt(d)

    def ours(q, k, v):
        return fa4.jax.flash_attention(q, k, v, causal=causal,
                                       window_size=window_size,
                                       softcap=softcap)

    def loss(forward):
        return lambda q, k, v: jnp.sum(
            forward(q, k, v).astype(jnp.float32) * dout.astype(jnp.float32))

    grads = jax.jit(jax.grad(loss(ours), argnums=(0, 1, 2)))(q, k, v)

    # jax.vjp with lse's cotangent too: dropped, the same gradients.
    def ours_lse(q, k, v):
        return fa4.jax.flash_attention(q, k, v, causal=causal,
                                       window_size=window_size,
                                       softcap=softcap, return_lse=True)

    def vjp(q, k, v):
        _, pullback = jax.vjp(ours_lse, q, k, v)
        return pullback((dout, dlse))

    again = jax.jit(vjp)(q, k, v)

    def low_forward(q, k, v):
        return jnp_attention(jax, jnp, np, q, k, v, causal, window, scale,
                             softcap, dt)[0]

    low = jax.jit(jax.grad(loss(low_forward), argnums=(0, 1, 2)))(q, k, v)
    exact = reference_gradients(np, q, k, v, dout, causal, window, scale,
                                softcap)
    ok = True
    parts = []
    for name, g, g2, gl, ge in zip(("dq", "dk", "dv"), grads, again, low,
                                   exact):
        g, g2, gl = (np.asarray(t.astype(jnp.float32), np.float64)
                     for t in (g, g2, gl))
        err = float(np.abs(g - ge).max())
        low_err = float(np.abs(gl - ge).max())
        rounding = float(np.abs(
            np.asarray(jnp.asarray(ge, jnp.float32).astype(dt).astype(
                jnp.float32), np.float64) - ge).max())
        bound = 2 * low_err + 2 * rounding
        same = np.array_equal(g, g2)
        good = math.isfinite(err) and err <= bound and same
        ok &= good
        parts.append("%s %.2e<=%.2e%s" % (name, err, bound,
                                          "" if same else " LSE-CHANGED-IT"))
    print("%-4s grad %s %d/%d d=%d causal=%s window=%s softcap=%g b=%d sq=%d "
          "skv=%d: %s" % ("pass" if ok else "FAIL", dtype, hq, hkv, d, causal,
                          window, softcap, b, sq, skv, ", ".join(parts)))
    return not ok


def check_gradient_cases(jax, jnp, np, fa4):
    failures = 0
    key = jax.random.PRNGKey(1)
    for case in GRAD_CASES:
        key, subkey = jax.random.split(key)
        failures += check_gradients(jax, jnp, np, fa4, subkey, case)
    return failures


def fake_ffi(jax, jnp, np, fa4):
    """fa4.jax with the FFI calls replaced by jnp_attention in f32 (the
    forward's o and lse; the backward's gradients by jax.vjp of it), the
    kernels by their problems: on the CPU, with no kernel or libfa4xla,
    only fa4.jax's wiring is under test. Each call checks the problem its
    manifest names (forward or backward, of the attention called)."""

    class Kernel(object):
        def __init__(self, problem):
            self.manifest_path = "%r" % (problem.as_dict(),)

    problems = {}

    def kernel_for(problem):
        kernel = Kernel(problem)
        problems[kernel.manifest_path] = problem
        return kernel

    def attention_of(problem, q, k, v):
        mask, window = problem.mask, problem.window
        causal = mask == "causal"
        return jnp_attention(
            jax, jnp, np, q, k, v, causal,
            window if mask == "window" else None,
            problem.scale or 1.0 / math.sqrt(problem.qk_depth),
            problem.softcap or 0.0, jnp.float32)

    def ffi_call(target, results):
        def call(*args, manifest):
            problem = problems[manifest]
            if target == fa4.jax.TARGET:
                assert not problem.backward, "the forward got %s" % manifest
                q, k, v = args
                o, lse = attention_of(problem, q, k, v)
                out = (o.astype(results[0].dtype), lse)
            else:
                assert target == fa4.jax.BACKWARD_TARGET, target
                assert problem.backward, "the backward got %s" % manifest
                dout, q, k, v, o, lse = args
                assert dout.dtype == o.dtype == q.dtype
                assert lse.dtype == jnp.float32
                _, pullback = jax.vjp(
                    lambda q, k, v: attention_of(problem, q, k, v)[0],
                    q.astype(jnp.float32), k.astype(jnp.float32),
                    v.astype(jnp.float32))
                out = tuple(g.astype(r.dtype) for g, r in
                            zip(pullback(dout.astype(jnp.float32)), results))
            for got, want in zip(out, results):
                assert (got.shape, got.dtype) == (want.shape, want.dtype), \
                    (target, got.shape, got.dtype, want)
            return out
        return call

    fa4.jax._chip = lambda jax: "sm_90a"
    fa4.jax._register = lambda jax: None
    fa4.jax._flash.kernel_for = kernel_for
    jax.ffi.ffi_call = ffi_call


def check_wiring(jax, jnp, np, fa4):
    """The gradient cases on the CPU through fake_ffi: its f32 reference in
    place of the kernels, so fa4's gradients are that reference's, well
    within the bound (cases shrunk to the CPU's pace)."""
    fake_ffi(jax, jnp, np, fa4)
    global GRAD_CASES
    GRAD_CASES = [(hq, hkv, 32, dtype, causal, window, softcap, b,
                   max(1, sq // 3), max(1, skv // 3))
                  for (hq, hkv, _, dtype, causal, window, softcap, b, sq,
                       skv) in GRAD_CASES]
    return check_gradient_cases(jax, jnp, np, fa4)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--configs":
        print("\n".join(CONFIGS))
        return 0
    import jax
    import jax.numpy as jnp
    import numpy as np
    import fa4.jax
    if len(sys.argv) == 2 and sys.argv[1] == "--wiring":
        failures = check_wiring(jax, jnp, np, fa4)
        print("jax-ffi --wiring (jax %s): %d failure(s)"
              % (jax.__version__, failures))
        return 1 if failures else 0
    failures = 0
    key = jax.random.PRNGKey(0)
    for hq, hkv, d, dtype, causal, window, b, sq, skv in CASES:
        key, kq, kk, kv = jax.random.split(key, 4)
        dt = getattr(jnp, dtype)
        q = jax.random.normal(kq, (b, sq, hq, d), dt)
        k = jax.random.normal(kk, (b, skv, hkv, d), dt)
        v = jax.random.normal(kv, (b, skv, hkv, d), dt)
        window_size = window if window is not None else (-1, -1)
        ours = jax.jit(lambda q, k, v: fa4.jax.flash_attention(
            q, k, v, causal=causal, window_size=window_size, return_lse=True))
        theirs = jax.jit(lambda q, k, v: jax.nn.dot_product_attention(
            q, k, v, is_causal=causal, local_window_size=window))
        o, lse = ours(q, k, v)
        o_jax = theirs(q, k, v)
        o_ref, lse_ref = reference(np, q, k, v, causal, window,
                                   1.0 / math.sqrt(d))
        err = float(np.abs(np.asarray(o, np.float64) - o_ref).max())
        err_jax = float(np.abs(np.asarray(o_jax, np.float64) - o_ref).max())
        lse_err = float(np.abs(np.asarray(lse, np.float64) - lse_ref).max())
        ok = err <= 2 * err_jax + 1e-5 and lse_err < 1e-3
        failures += not ok
        print("%-4s %s %d/%d d=%d causal=%s window=%s b=%d sq=%d skv=%d: "
              "max_err %.3g, jax's %.3g, lse_err %.3g"
              % ("pass" if ok else "FAIL", dtype, hq, hkv, d, causal, window,
                 b, sq, skv, err, err_jax, lse_err))
    failures += check_gradient_cases(jax, jnp, np, fa4)
    try:
        q = jnp.zeros((1, 8, 8, 128), jnp.bfloat16)
        k = jnp.zeros((2, 8, 8, 128), jnp.bfloat16)
        fa4.jax.flash_attention(q, k, k)
        print("FAIL a batch mismatch was accepted")
        failures += 1
    except fa4.Fa4ValueError as error:
        print("pass refuses a batch mismatch: %s" % error)
    print("jax-ffi (jax %s): %d failure(s)" % (jax.__version__, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
