"""FlashAttention's call on torch tensors:

    o = fa4.flash_attn_func(q, k, v, causal=True)         # BSHD, bf16/f16
    o, lse = fa4.flash_attn_func(q, k, v, return_lse=True)

picks the kernel for (chip, dtype, heads, depths, mask, scale), compiles it
on first use when fa4-compile is installed, else finds it in the kernel
cache ($FA4_CACHE_DIR, e.g. a kernel pack), and launches it on torch's
current stream. Without `out`, the call goes through the torch.library op
fa4::flash_attn_fwd, so torch.compile traces it (fa4.torch_ops).
"""

import math
import os
import subprocess
import threading

import ctypes as _ctypes

from . import cache as _cache
from . import runtime as _runtime
from .compile import find_fa4_compile
from .runtime import FA4_ERROR_INVALID_ARGUMENT, Fa4Error, Fa4ValueError, Kernel

__all__ = ["flash_attn_func", "kernel_for", "problem_for", "problem_of_shapes"]

_DTYPES = {"torch.bfloat16": "bf16", "torch.float16": "f16"}

_kernels = {}
_kernels_lock = threading.Lock()


def _mask(causal, window_size):
    """FlashAttention's (causal, window_size) as fa4's mask: window_size is
    (left, right), -1 unbounded; causal bounds the right side at 0. Both
    are bottom-right aligned, as in FlashAttention 2+."""
    try:
        left, right = window_size
        left, right = _bound(left), _bound(right)
    except (TypeError, ValueError, OverflowError):
        raise Fa4ValueError("window_size %r: expected (left, right), each -1 "
                            "(unbounded) or >= 0" % (window_size,))
    if left < -1 or right < -1:
        raise Fa4ValueError("window_size %r: expected (left, right), each -1 "
                            "(unbounded) or >= 0" % (window_size,))
    if causal:
        return ("causal", (-1, -1)) if left < 0 else ("window", (left, 0))
    if left < 0 and right < 0:
        return "none", (-1, -1)
    return "window", (left, right)


def _bound(value):
    """A window bound as an int. FlashAttention's are ints: int() alone
    would make 1.5 the window 1 and "2" the window 2."""
    bound = int(value)
    if bound != value:
        raise ValueError(value)
    return bound


def _scale(softmax_scale):
    """softmax_scale as a float, or None for the default."""
    if softmax_scale is None:
        return None
    try:
        scale = float(softmax_scale)
    except (TypeError, ValueError):
        scale = math.nan
    if not (scale > 0 and math.isfinite(scale)):
        raise Fa4ValueError("softmax_scale %r: expected a finite value > 0"
                            % (softmax_scale,))
    return scale


def _softcap(softcap):
    """softcap as a float, 0.0 for none (FlashAttention's default). Plain
    comparisons (NaN fails both): torch.compile traces this, and Dynamo
    cannot put math.isfinite's bool in its graph."""
    try:
        value = float(softcap)
    except (TypeError, ValueError):
        value = math.nan
    if not 0 <= value < math.inf:
        raise Fa4ValueError("softcap %r: expected 0 (none) or a finite value "
                            "> 0" % (softcap,))
    return value


def _sinks(torch, sinks, learnable_sink, q):
    """Attention sinks as the kernels take them: f32 [hq] on q's device,
    contiguous (a bf16 or f16 parameter, as models keep it, is converted);
    None for none. `learnable_sink` is FlashAttention-4's name for them."""
    if learnable_sink is not None:
        if sinks is not None:
            raise Fa4ValueError("sinks and learnable_sink: give one of them "
                                "(learnable_sink is FlashAttention-4's name "
                                "for sinks)")
        sinks = learnable_sink
    if sinks is None:
        return None
    if not isinstance(sinks, torch.Tensor):
        raise Fa4ValueError("sinks: expected a torch tensor [hq], got %s"
                            % type(sinks).__name__)
    hq = q.shape[-2]
    if sinks.dim() != 1 or sinks.shape[0] != hq:
        raise Fa4ValueError("sinks: shape %s; expected [%d] (one logit per "
                            "query head)" % (tuple(sinks.shape), hq))
    if not sinks.is_floating_point():
        raise Fa4ValueError("sinks: dtype %s; expected a floating-point "
                            "tensor" % sinks.dtype)
    if sinks.device != q.device:
        raise Fa4ValueError("sinks: on %s; expected q's device %s"
                            % (sinks.device, q.device))
    return sinks.to(torch.float32).contiguous()


def problem_for(q, k, v, causal=False, window_size=(-1, -1),
                softmax_scale=None, chip=None, softcap=0.0, sinks=False):
    """The cache's Problem for these tensors (shapes checked)."""
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not hasattr(t, "shape") or not hasattr(t, "dtype"):
            raise Fa4ValueError("%s: expected a torch tensor, got %s"
                                % (name, type(t).__name__))
    dtype = _dtype_of(q, k, v)
    if chip is None and all(t.dim() == 4 for t in (q, k, v)):
        chip = _chip(q.device)
    return problem_of_shapes(tuple(q.shape), tuple(k.shape), tuple(v.shape),
                             dtype, causal, window_size, softmax_scale, chip,
                             softcap, sinks)


def _dtype_of(q, k, v):
    """fa4's dtype name of torch tensors q, k, v, which must share one."""
    if not (q.dtype == k.dtype == v.dtype):
        raise Fa4ValueError("q, k, v dtypes differ: %s, %s, %s"
                            % (q.dtype, k.dtype, v.dtype))
    dtype = _DTYPES.get(str(q.dtype))
    if dtype is None:
        raise Fa4ValueError("dtype %s: expected torch.bfloat16 or "
                            "torch.float16" % q.dtype)
    return dtype


def problem_of_shapes(q_shape, k_shape, v_shape, dtype, causal=False,
                      window_size=(-1, -1), softmax_scale=None, chip=None,
                      softcap=0.0, sinks=False):
    """The cache's Problem for BSHD q, k, v of these shapes and dtype ("bf16"
    or "f16"), FlashAttention's conventions (softcap 0: none; sinks True:
    the kernel takes attention sinks); shapes checked."""
    for name, shape in (("q", q_shape), ("k", k_shape), ("v", v_shape)):
        if len(shape) != 4:
            raise Fa4ValueError("%s: rank %d; expected 4 (batch, seqlen, "
                                "heads, headdim)" % (name, len(shape)))
    b, _, hq, dqk = q_shape
    if k_shape[0] != b or v_shape[0] != b:
        raise Fa4ValueError("batch sizes differ: q %d, k %d, v %d"
                            % (b, k_shape[0], v_shape[0]))
    if k_shape[1] != v_shape[1] or k_shape[2] != v_shape[2]:
        raise Fa4ValueError("k %s and v %s differ in seqlen or heads"
                            % (tuple(k_shape), tuple(v_shape)))
    hkv = k_shape[2]
    if k_shape[3] != dqk:
        raise Fa4ValueError("q's head dim %d and k's %d differ"
                            % (dqk, k_shape[3]))
    if hkv < 1 or hq % hkv:
        raise Fa4ValueError("%d query heads are not a multiple of %d key/value "
                            "heads" % (hq, hkv))
    # A spelling of the default (d ** -0.5, 1/sqrt(d)) becomes None in
    # Problem, by its f32 bits: one kernel for all of them.
    softmax_scale = _scale(softmax_scale)
    mask, window = _mask(causal, window_size)
    return _cache.Problem(chip, dtype, int(hq), int(hkv), int(dqk),
                          int(v_shape[3]), mask, window, softmax_scale,
                          lse=True, softcap=_softcap(softcap), sinks=sinks)


def _chip(device):
    import torch
    if device.type != "cuda":
        raise Fa4ValueError("tensors on %s; fa4 runs on CUDA devices" % device)
    return _cache.chip_for(torch.cuda.get_device_capability(device), device)


def _compile_into(fa4_compile):
    def run(problem, out_dir):
        source = os.path.join(out_dir, "attention.mlir")
        with open(source, "w") as f:
            f.write(problem.mlir())
        command = [fa4_compile, source, "--chip=" + problem.chip, "-o", out_dir,
                   "--json"]
        if problem.kernel != "auto":
            command.append("--kernel=" + problem.kernel)
        done = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        if done.returncode != 0:
            raise Fa4Error("fa4-compile failed (exit %d): %s\n%s"
                           % (done.returncode, " ".join(command),
                              done.stderr.strip()), FA4_ERROR_INVALID_ARGUMENT)
    return run


def kernel_for(problem):
    """The loaded Kernel of `problem`, from this process, the cache, or a
    fresh compile."""
    key = _cache.problem_key(problem)
    with _kernels_lock:
        kernel = _kernels.get(key)
        if kernel is not None:
            return kernel
    try:
        tool = find_fa4_compile()
    except Fa4Error:
        tool = None
    manifest = _cache.entry(problem, tool, compile_fn=_compile_into(tool)
                            if tool else None)
    kernel = Kernel.load(manifest)
    with _kernels_lock:
        return _kernels.setdefault(key, kernel)


def flash_attn_func(q, k, v, *, causal=False, window_size=(-1, -1),
                    softmax_scale=None, softcap=0.0, sinks=None,
                    learnable_sink=None, return_lse=False, out=None,
                    deterministic=False):
    """Attention of BSHD torch CUDA tensors q [b, sq, hq, d], k and v
    [b, skv, hkv, d(v)], FlashAttention's convention: causal and windows
    bottom-right aligned, softmax_scale default 1/sqrt(d), softcap c > 0
    turning each scaled score s into c * tanh(s / c) (0: none), sinks (or
    FlashAttention-4's learnable_sink) [hq] one logit per query head that
    joins each row's softmax with no value (gpt-oss's s_aux; None: none).
    Returns o [b, sq, hq, dv] (into `out` when given), and lse [b, hq, sq]
    (f32) with return_lse. All but q, k, v by keyword: FlashAttention's
    4th positional argument is dropout_p (2) or softmax_scale (3, 4), which
    here would have been read as causal. `deterministic` is
    FlashAttention's flag for its backward: fa4's backward is bitwise
    deterministic either way (D-70), so it is accepted and changes
    nothing."""
    from . import torch_ops
    import torch
    sinks = _sinks(torch, sinks, learnable_sink, q)
    traced = torch.compiler.is_compiling() or (
        torch.is_grad_enabled() and
        (q.requires_grad or k.requires_grad or v.requires_grad or
         (sinks is not None and sinks.requires_grad)))
    if sinks is not None and not traced:
        # Its own record (of the serving arguments, which name the sinks),
        # per signature as the eager plans below.
        kernel = _kernel_of(q, k, v, causal, window_size, softmax_scale,
                            softcap, sinks=True)
        o = out if out is not None else torch_ops.empty_o(q, v)
        lse = torch_ops.empty_lse(q)
        _launch(torch, kernel, q, k, v, o, lse, sinks)
    elif out is None and traced:
        # The op: torch.compile traces it; autograd differentiates it.
        o, lse = torch_ops.flash_attn_fwd(
            q, k, v, *_op_args(causal, window_size, softmax_scale, softcap),
            sinks=sinks)
    elif traced and sinks is not None:
        raise Fa4ValueError("out: not supported with sinks under "
                            "torch.compile or autograd; drop out=")
    else:
        # Eager: the same launch without the dispatcher's cost, everything
        # but the outputs' allocation and the pointers kept per signature.
        try:
            key = (q.shape, q.stride(), k.shape, k.stride(), v.shape,
                   v.stride(), q.dtype, k.dtype, v.dtype, q.device, causal,
                   window_size[0], window_size[1], softmax_scale, softcap,
                   return_lse,
                   None if out is None else
                   (out.shape, out.stride(), out.dtype, out.device))
            plan = _eager.get(key)
        except (TypeError, IndexError, AttributeError):
            key = plan = None  # the checks below say what is wrong
        if plan is None:
            plan = _EagerPlan(torch, torch_ops, q, k, v, causal, window_size,
                              softmax_scale, softcap, return_lse, out)
            if key is not None:
                if len(_eager) > 4096:
                    _eager.clear()
                _eager[key] = plan
        o = out if out is not None else torch.empty_strided(
            plan.o_shape, plan.o_strides, dtype=q.dtype, device=q.device)
        lse = torch.empty(plan.lse_shape, dtype=torch.float32,
                          device=q.device) if return_lse else plan.scratch_lse
        plan.record.run(torch, (q, k, v, o, lse))
    return (o, lse) if return_lse else o


_eager = {}


class _EagerPlan(object):
    """An eager signature's launch (D-47): its kernel's record (made from
    this first call's tensors, validated by libfa4rt) and its outputs' layout.
    Nobody reads an LSE not asked for: such calls share a scratch one."""

    def __init__(self, torch, torch_ops, q, k, v, causal, window_size,
                 softmax_scale, softcap, return_lse, out):
        kernel = _kernel_of(q, k, v, causal, window_size, softmax_scale,
                            softcap)
        o = torch_ops.empty_o(q, v) if out is None else out
        lse = torch_ops.empty_lse(q)
        self.record = _Record(torch, kernel, (q, k, v, o, lse))
        self.o_shape, self.o_strides = tuple(o.shape), o.stride()
        self.lse_shape = tuple(lse.shape)
        self.scratch_lse = None if return_lse else lse


class _Record(object):
    """A libfa4rt launch record (fa4_launch_record): the validation, grid,
    scalar arguments and TMA descriptors of one (kernel, shapes, strides),
    made from `tensors` (q, k, v, o, lse) and launched on torch's current
    stream with each call's data pointers; its split-K workspace comes from
    torch's caching allocator."""

    _Pointers = _ctypes.c_void_p * 5

    def __init__(self, torch, kernel, tensors, sinks=None):
        for name, t in zip(("q", "k", "v", "o", "lse", "sinks"),
                           tuple(tensors) + (sinks,)):
            if t is not None and not t.is_cuda:
                raise Fa4ValueError("tensor '%s': on %s; fa4 kernels need "
                                    "CUDA tensors" % (name, t.device))
        self._lib = kernel._lib
        self.device = tensors[0].device
        # A kernel with sinks: a record of the serving arguments (version
        # 14), which can name them.
        self.serving = sinks is not None
        handle = _ctypes.c_void_p()
        with torch.cuda.device(self.device):
            if self.serving:
                _runtime._check(self._lib.fa4_launch_record_create_serving(
                    kernel._live(), _ctypes.byref(_runtime._serving_args(
                        *tensors, {}, 0, sinks)),
                    _ctypes.byref(handle)))
            else:
                _runtime._check(self._lib.fa4_launch_record_create(
                    kernel._live(), _ctypes.byref(_runtime._args(*tensors)),
                    _ctypes.byref(handle)))
        self.handle = handle
        size = _ctypes.c_uint64()
        _runtime._check(self._lib.fa4_launch_record_workspace_bytes(
            handle, _ctypes.byref(size)))
        self.workspace_bytes = size.value

    def run(self, torch, tensors, sinks=None):
        index = self.device.index
        if index != torch.cuda.current_device():
            with torch.cuda.device(index):
                self._run(torch, tensors, sinks)
            return
        self._run(torch, tensors, sinks)

    def _run(self, torch, tensors, sinks=None):
        # A fresh array per call: another thread may run the same record.
        q, k, v, o, lse = tensors
        if self.serving:
            data = _runtime.fa4_serving_args()
            args = data.attention
            args.q.data, args.k.data, args.v.data = (
                q.data_ptr(), k.data_ptr(), v.data_ptr())
            args.o.data, args.lse.data = o.data_ptr(), lse.data_ptr()
            data.sinks.data = sinks.data_ptr()
        else:
            data = self._Pointers(q.data_ptr(), k.data_ptr(), v.data_ptr(),
                                  o.data_ptr(), lse.data_ptr())
        workspace = None
        if self.workspace_bytes:
            # Freed when this returns: torch's allocator hands the block to
            # later work on this stream only after what is queued here.
            workspace = torch.empty(self.workspace_bytes, dtype=torch.uint8,
                                    device=self.device)
        # torch's current stream on the device, without building a Stream.
        stream = torch._C._cuda_getCurrentRawStream(self.device.index)
        run = (self._lib.fa4_launch_record_run_serving if self.serving
               else self._lib.fa4_launch_record_run)
        _runtime._check(run(
            self.handle, _ctypes.byref(data) if self.serving else data,
            workspace.data_ptr() if workspace is not None else None,
            stream or None))

    def __del__(self):
        lib, handle = getattr(self, "_lib", None), getattr(self, "handle", None)
        if lib is not None and handle:
            lib.fa4_launch_record_destroy(handle)


_records = {}


def _launch(torch, kernel, q, k, v, o, lse, sinks=None):
    """The kernel on torch's current stream through a launch record per
    (kernel, shapes, strides, dtypes, device): libfa4rt validated the
    shapes once and checks each call's pointers (with sinks, a record of
    the serving arguments)."""
    tensors = (q, k, v, o, lse)
    key = (id(kernel), q.device, q.dtype, o.dtype) + tuple(
        (t.shape, t.stride()) for t in tensors) + (sinks is not None,)
    record = _records.get(key)
    if record is None:
        record = _Record(torch, kernel, tensors, sinks)
        if len(_records) > 4096:
            _records.clear()
        _records[key] = record
    record.run(torch, tensors, sinks)


_by_shape = {}


def _kernel_of(q, k, v, causal, window_size, softmax_scale, softcap=0.0,
               sinks=False):
    """kernel_for(problem_for(...)) memoized on what decides the problem
    (the launch validates the rest)."""
    try:
        key = (q.device, q.dtype, k.dtype, v.dtype, q.dim(), k.dim(), v.dim(),
               tuple(q.shape[2:]), tuple(k.shape[2:]), tuple(v.shape[2:]),
               bool(causal), tuple(window_size), softmax_scale, softcap,
               sinks)
        kernel = _by_shape.get(key)
    except (TypeError, AttributeError):
        key = kernel = None  # problem_for says what is wrong
    if kernel is None:
        kernel = kernel_for(problem_for(q, k, v, causal, window_size,
                                        softmax_scale, softcap=softcap,
                                        sinks=sinks))
        if key is not None:
            _by_shape[key] = kernel
    return kernel


def _backward_kernel_of(q, k, v, causal, window_size, softmax_scale,
                        softcap=0.0):
    """The backward pass's kernel (issue 63; the reference kernel until a
    tensor-core one exists), memoized as _kernel_of's."""
    key = ("backward", q.device, q.dtype, k.dtype, v.dtype,
           tuple(q.shape[2:]), tuple(k.shape[2:]), tuple(v.shape[2:]),
           bool(causal), tuple(window_size), softmax_scale, softcap)
    kernel = _by_shape.get(key)
    if kernel is None:
        kernel = kernel_for(problem_for(
            q, k, v, causal, window_size, softmax_scale,
            softcap=softcap).for_backward())
        _by_shape[key] = kernel
    return kernel


def _launch_backward(torch, kernel, q, k, v, o, lse, dout, dq, dk, dv):
    """The backward kernel on torch's current stream of q's device."""
    with torch.cuda.device(q.device):
        kernel.launch_backward(q, k, v, o, lse, dout, dq, dk, dv,
                               stream=torch.cuda.current_stream())


def _op_args(causal, window_size, softmax_scale, softcap=0.0):
    """fa4::flash_attn_fwd's (causal, window_left, window_right,
    softmax_scale, softcap), checked as the eager call checks them: the op
    reads a scale < 0 as the default, so a negative one must not reach it."""
    _mask(causal, window_size)
    left, right = window_size
    scale = _scale(softmax_scale)
    return (bool(causal), _bound(left), _bound(right),
            -1.0 if scale is None else scale, _softcap(softcap))


def _from_op_args(causal, window_left, window_right, softmax_scale,
                  softcap):
    """The op's arguments as _kernel_of takes them."""
    return (causal, (window_left, window_right),
            None if softmax_scale < 0 else softmax_scale, softcap)


