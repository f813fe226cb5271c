"""fa4 under JAX, through XLA's FFI:

    import fa4.jax
    o = fa4.jax.flash_attention(q, k, v, causal=True)       # BSHD jax arrays
    o, lse = fa4.jax.flash_attention(q, k, v, return_lse=True)

works eagerly and under jax.jit: the kernel for (chip, dtype, heads, depths,
mask, scale) comes from the kernel cache or a kernel pack as for
fa4.flash_attn_func (chosen while tracing, from static shapes), and
jax.ffi.ffi_call runs it on XLA's stream through the FFI handler
"fa4_attention" of libfa4xla.so (runtime/xla/XlaFfi.cpp: a launch record
per shape, split-K partials from XLA's scratch memory). libfa4xla.so is
looked for in $FA4_XLA_LIB, else beside libfa4rt. Forward only.
"""

import ctypes
import os
import threading

from . import cache as _cache
from . import flash as _flash
from . import runtime as _runtime
from .runtime import FA4_ERROR_INVALID_ARGUMENT, Fa4Error, Fa4ValueError

__all__ = ["flash_attention", "TARGET"]

TARGET = "fa4_attention"
_DTYPES = {"bfloat16": "bf16", "float16": "f16"}
_registered = []
_lock = threading.Lock()


def _register(jax):
    with _lock:
        if _registered:
            return
        path = os.environ.get("FA4_XLA_LIB") or os.path.join(
            os.path.dirname(_runtime.library_path()), "libfa4xla.so")
        try:
            lib = ctypes.CDLL(path)
        except OSError as error:
            raise Fa4Error("libfa4xla.so (fa4's XLA FFI handler) not found: "
                           "%s; build the runtime with -DFA4_XLA_FFI_INCLUDE_DIR"
                           "=$(python3 -c 'import jax.ffi; print(jax.ffi."
                           "include_dir())') or set FA4_XLA_LIB" % error,
                           FA4_ERROR_INVALID_ARGUMENT)
        jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(lib.Fa4Attention),
                                    platform="CUDA")
        _registered.append(lib)


def _chip(jax):
    devices = jax.devices()
    # jax writes it "9.0".
    text = str(getattr(devices[0], "compute_capability", None))
    try:
        capability = tuple(int(part) for part in text.split("."))
    except ValueError:
        capability = (text,)
    return _cache.chip_for(capability, "device %s" % devices[0])


def flash_attention(q, k, v, causal=False, window_size=(-1, -1),
                    softmax_scale=None, return_lse=False, softcap=0.0):
    """Attention of BSHD jax arrays q [b, sq, hq, d], k and v [b, skv, hkv,
    d(v)], FlashAttention's convention (causal and windows bottom-right
    aligned, softmax_scale default 1/sqrt(d), softcap c > 0: scores s become
    c * tanh(s / c)). Returns o [b, sq, hq, dv], and
    lse [b, hq, sq] (f32) with return_lse."""
    import jax
    import jax.numpy as jnp
    if not (q.dtype == k.dtype == v.dtype):
        raise Fa4ValueError("q, k, v dtypes differ: %s, %s, %s"
                            % (q.dtype, k.dtype, v.dtype))
    dtype = _DTYPES.get(str(q.dtype))
    if dtype is None:
        raise Fa4ValueError("dtype %s: expected bfloat16 or float16" % q.dtype)
    problem = _flash.problem_of_shapes(
        tuple(q.shape), tuple(k.shape), tuple(v.shape), dtype, causal,
        window_size, softmax_scale, _chip(jax), softcap)
    kernel = _flash.kernel_for(problem)
    _register(jax)
    b, sq, hq, _ = q.shape
    results = (jax.ShapeDtypeStruct((b, sq, hq, v.shape[3]), q.dtype),
               jax.ShapeDtypeStruct((b, hq, sq), jnp.float32))
    o, lse = jax.ffi.ffi_call(TARGET, results)(
        q, k, v, manifest=str(kernel.manifest_path))
    return (o, lse) if return_lse else o
