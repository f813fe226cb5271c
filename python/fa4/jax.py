"""fa4 under JAX, through XLA's FFI:

    import fa4.jax
    o = fa4.jax.flash_attention(q, k, v, causal=True)       # BSHD jax arrays
    o, lse = fa4.jax.flash_attention(q, k, v, return_lse=True)
    dq, dk, dv = jax.grad(loss, argnums=(0, 1, 2))(q, k, v)  # loss calls it

works eagerly and under jax.jit: the kernel for (chip, dtype, heads, depths,
mask, scale) comes from the kernel cache or a kernel pack as for
fa4.flash_attn_func (chosen while tracing, from static shapes), and
jax.ffi.ffi_call runs it on XLA's stream through the FFI handler
"fa4_attention" of libfa4xla.so (runtime/xla/XlaFfi.cpp: a launch record
per shape, split-K partials from XLA's scratch memory). libfa4xla.so is
looked for in $FA4_XLA_LIB, else beside libfa4rt.

flash_attention is differentiable in reverse mode (jax.grad, jax.vjp, under
jax.jit; a jax.custom_vjp, so not jax.jvp): the forward saves q, k, v, o
and lse, and the backward pass's kernel of the same attention (issue 63, a
pack configuration ending in ":backward") gives dq, dk, dv from them and
dO through the handler "fa4_attention_backward". As FlashAttention's, lse
is not differentiable: its cotangent is dropped, so a loss that reads lse
gets no gradient through it.
"""

import ctypes
import os
import threading

from . import cache as _cache
from . import flash as _flash
from . import runtime as _runtime
from .runtime import FA4_ERROR_INVALID_ARGUMENT, Fa4Error, Fa4ValueError

__all__ = ["flash_attention", "TARGET", "BACKWARD_TARGET"]

TARGET = "fa4_attention"
BACKWARD_TARGET = "fa4_attention_backward"
_DTYPES = {"bfloat16": "bf16", "float16": "f16"}
_registered = []
_differentiable = []
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
        for target, symbol in ((TARGET, "Fa4Attention"),
                               (BACKWARD_TARGET, "Fa4AttentionBackward")):
            try:
                handler = getattr(lib, symbol)
            except AttributeError:
                # A libfa4xla.so built before the backward pass.
                raise Fa4Error("%s has no %s: rebuild libfa4xla.so"
                               % (path, symbol), FA4_ERROR_INVALID_ARGUMENT)
            jax.ffi.register_ffi_target(target, jax.ffi.pycapsule(handler),
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


def _problem(jax, q, k, v, causal, window_size, softmax_scale, softcap):
    """The forward's Problem for jax arrays q, k, v (dtypes and shapes
    checked)."""
    if not (q.dtype == k.dtype == v.dtype):
        raise Fa4ValueError("q, k, v dtypes differ: %s, %s, %s"
                            % (q.dtype, k.dtype, v.dtype))
    dtype = _DTYPES.get(str(q.dtype))
    if dtype is None:
        raise Fa4ValueError("dtype %s: expected bfloat16 or float16" % q.dtype)
    return _flash.problem_of_shapes(
        tuple(q.shape), tuple(k.shape), tuple(v.shape), dtype, causal,
        window_size, softmax_scale, _chip(jax), softcap)


def _forward(q, k, v, causal, window_size, softmax_scale, softcap):
    """o [b, sq, hq, dv] and lse [b, hq, sq] (f32) of the forward kernel."""
    import jax
    import jax.numpy as jnp
    problem = _problem(jax, q, k, v, causal, window_size, softmax_scale,
                       softcap)
    kernel = _flash.kernel_for(problem)
    _register(jax)
    b, sq, hq, _ = q.shape
    results = (jax.ShapeDtypeStruct((b, sq, hq, v.shape[3]), q.dtype),
               jax.ShapeDtypeStruct((b, hq, sq), jnp.float32))
    return tuple(jax.ffi.ffi_call(TARGET, results)(
        q, k, v, manifest=str(kernel.manifest_path)))


def _forward_saving(q, k, v, causal, window_size, softmax_scale, softcap):
    o, lse = _forward(q, k, v, causal, window_size, softmax_scale, softcap)
    return (o, lse), (q, k, v, o, lse)


def _backward(causal, window_size, softmax_scale, softcap, saved,
              cotangents):
    """dq, dk, dv (q's, k's and v's shapes and dtype) from dO; lse's
    cotangent is dropped (lse is not differentiable, as FlashAttention's)."""
    import jax
    q, k, v, o, lse = saved
    dout, _ = cotangents
    problem = _problem(jax, q, k, v, causal, window_size, softmax_scale,
                       softcap).for_backward()
    kernel = _flash.kernel_for(problem)
    _register(jax)
    # dO in o's dtype, as the kernel reads it (a cotangent may come in
    # another, e.g. from a loss computed in f32).
    dout = dout.astype(o.dtype)
    results = tuple(jax.ShapeDtypeStruct(t.shape, t.dtype) for t in (q, k, v))
    return tuple(jax.ffi.ffi_call(BACKWARD_TARGET, results)(
        dout, q, k, v, o, lse, manifest=str(kernel.manifest_path)))


def _attention(jax):
    """_forward as a jax.custom_vjp, made once (jax is imported lazily):
    the non-array arguments are nondiff_argnums, static to it."""
    with _lock:
        if not _differentiable:
            attention = jax.custom_vjp(_forward, nondiff_argnums=(3, 4, 5, 6))
            attention.defvjp(_forward_saving, _backward)
            _differentiable.append(attention)
        return _differentiable[0]


def flash_attention(q, k, v, causal=False, window_size=(-1, -1),
                    softmax_scale=None, return_lse=False, softcap=0.0):
    """Attention of BSHD jax arrays q [b, sq, hq, d], k and v [b, skv, hkv,
    d(v)], FlashAttention's convention (causal and windows bottom-right
    aligned, softmax_scale default 1/sqrt(d), softcap c > 0: scores s become
    c * tanh(s / c)). Returns o [b, sq, hq, dv], and
    lse [b, hq, sq] (f32) with return_lse. Differentiable with respect to
    q, k and v (jax.grad, jax.vjp): o's cotangent goes through the backward
    kernel; lse's is dropped, as FlashAttention's."""
    import jax
    # Checked here, so that a bad call is refused before jax traces it.
    _problem(jax, q, k, v, causal, window_size, softmax_scale, softcap)
    # Plain Python values (checked above): custom_vjp keeps them static.
    window = tuple(int(side) for side in window_size)
    scale = None if softmax_scale is None else float(softmax_scale)
    o, lse = _attention(jax)(q, k, v, bool(causal), window, scale,
                             float(softcap))
    return (o, lse) if return_lse else o
