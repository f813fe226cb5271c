#!/usr/bin/env python3
"""GPU check of fa4.jax.flash_attention (XLA FFI) under jax.jit.

    jax-ffi.py --configs     the kernel pack's configurations
    jax-ffi.py               on the GPU: $FA4_CACHE_DIR the pack, libfa4xla.so
                             beside libfa4rt ($FA4_RUNTIME_LIB) or $FA4_XLA_LIB

Each case runs fa4 and jax.nn.dot_product_attention, both jitted, on fresh
random inputs at odd sizes, against an f64 reference (numpy): fa4 passes
where its O error is at most twice JAX's own plus 1e-5 (FlashAttention's
rule, JAX's attention in the same dtype as the low-precision reference)
and its LSE is within 1e-3 of the reference's. Masked cases use
sq == skv, where JAX's top-left aligned masks and fa4's bottom-right ones
agree. Then a bad call must be refused with fa4's message.
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
CONFIGS = ["bf16:8:8:128:128:none", "bf16:8:2:128:128:causal",
           "bf16:32:8:128:128:none", "f16:8:2:128:128:window(32,0)"]


def reference(np, q, k, v, causal, window, scale):
    """O and natural-log LSE in f64, BSHD, bottom-right aligned masks."""
    q, k, v = (np.asarray(t, dtype=np.float64) for t in (q, k, v))
    b, sq, hq, _ = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    k = np.repeat(k, hq // hkv, axis=2)
    v = np.repeat(v, hq // hkv, axis=2)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) * scale
    i = np.arange(sq)[:, None] + (skv - sq)
    j = np.arange(skv)[None, :]
    keep = np.ones((sq, skv), dtype=bool)
    if causal:
        keep &= j <= i
    if window is not None:
        keep &= (j >= i - window[0]) & (j <= i + window[1])
    s = np.where(keep, s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    p = np.exp(s - m)
    lse = (np.log(p.sum(axis=-1)) + m[..., 0])
    o = np.einsum("bhqk,bkhd->bqhd", p / p.sum(axis=-1, keepdims=True), v)
    return o, lse


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--configs":
        print("\n".join(CONFIGS))
        return 0
    import jax
    import jax.numpy as jnp
    import numpy as np
    import fa4.jax
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
