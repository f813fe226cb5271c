"""ctypes bindings of libfa4rt (runtime/include/fa4-c/Runtime.h) and the
Python-level Kernel.

Nothing here needs a GPU, numpy or torch until a kernel is launched: loading a
manifest and validating tensors only reads the manifest. torch is imported
lazily, when a torch tensor is passed or an output must be allocated.
"""

import ctypes
import ctypes.util
import math
import os
import threading
from collections import namedtuple

__all__ = [
    "Fa4Error",
    "Fa4ValueError",
    "Kernel",
    "KernelInfo",
    "TensorSpec",
    "Alignment",
    "attention",
    "library",
    "library_path",
]

# --- C API ------------------------------------------------------------------

FA4_ABI_VERSION = 16  # Runtime.h's: the newest manifest version it reads
FA4_ABI_MIN_VERSION = 1
FA4_MAX_RANK = 4

# enum fa4_status
FA4_SUCCESS = 0
FA4_ERROR_INVALID_ARGUMENT = 1
FA4_ERROR_MANIFEST = 2
FA4_ERROR_VALIDATION = 3
FA4_ERROR_DRIVER_NOT_FOUND = 4
FA4_ERROR_CUDA = 5
FA4_ERROR_IO = 6
FA4_ERROR_INTERNAL = 7

# enum fa4_dtype
FA4_DTYPE_BF16 = 0
FA4_DTYPE_F16 = 1
FA4_DTYPE_F32 = 2
FA4_DTYPE_I32 = 3  # the serving forms' index tensors (ABI version 12)
FA4_DTYPE_E4M3 = 4  # OCP FP8 E4M3FN, an FP8 kernel's q, k, v (version 15)

# enum fa4_mask_kind
FA4_MASK_NONE = 0
FA4_MASK_CAUSAL = 1
FA4_MASK_WINDOW = 2

_DTYPE_NAMES = {FA4_DTYPE_BF16: "bf16", FA4_DTYPE_F16: "f16", FA4_DTYPE_F32: "f32",
                FA4_DTYPE_I32: "i32", FA4_DTYPE_E4M3: "e4m3"}
_DTYPE_SIZES = {FA4_DTYPE_BF16: 2, FA4_DTYPE_F16: 2, FA4_DTYPE_F32: 4,
                FA4_DTYPE_I32: 4, FA4_DTYPE_E4M3: 1}
_DTYPE_ALIASES = {
    "bf16": FA4_DTYPE_BF16,
    "bfloat16": FA4_DTYPE_BF16,
    "f16": FA4_DTYPE_F16,
    "fp16": FA4_DTYPE_F16,
    "float16": FA4_DTYPE_F16,
    "half": FA4_DTYPE_F16,
    "f32": FA4_DTYPE_F32,
    "fp32": FA4_DTYPE_F32,
    "float32": FA4_DTYPE_F32,
    "float": FA4_DTYPE_F32,
    "i32": FA4_DTYPE_I32,
    "int32": FA4_DTYPE_I32,
    "e4m3": FA4_DTYPE_E4M3,
    "float8_e4m3fn": FA4_DTYPE_E4M3,
}
_MASK_NAMES = {FA4_MASK_NONE: "none", FA4_MASK_CAUSAL: "causal", FA4_MASK_WINDOW: "window"}

# Enums are C ints (the header's enums have no fixed underlying type; every
# ABI fa4 targets gives them int).
_c_enum = ctypes.c_int


class fa4_tensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("dtype", _c_enum),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.c_int64 * FA4_MAX_RANK),
        ("strides", ctypes.c_int64 * FA4_MAX_RANK),
    ]


class fa4_attention_args(ctypes.Structure):
    _fields_ = [
        ("q", fa4_tensor),
        ("k", fa4_tensor),
        ("v", fa4_tensor),
        ("o", fa4_tensor),
        ("lse", fa4_tensor),
    ]


class fa4_serving_args(ctypes.Structure):
    """Version 12's launch arguments: the attention tensors, the serving
    forms' i32 index tensors (data NULL where the kernel takes none) and
    max_seqlen_q (the longest sequence's query rows, packed queries)."""
    _fields_ = [
        ("attention", fa4_attention_args),
        ("cu_seqlens_q", fa4_tensor),
        ("cu_seqlens_k", fa4_tensor),
        ("seqused_k", fa4_tensor),
        ("block_table", fa4_tensor),
        ("seqlens_k", fa4_tensor),
        ("max_seqlen_q", ctypes.c_int64),
        ("sinks", fa4_tensor),
        # Version 15: an FP8 kernel's descales (data NULL where it takes
        # none).
        ("q_descale", fa4_tensor),
        ("k_descale", fa4_tensor),
        ("v_descale", fa4_tensor),
        # Version 16: a backward kernel's dO (read) and gradients (written);
        # data NULL for the other kernels.
        ("dout", fa4_tensor),
        ("dq", fa4_tensor),
        ("dk", fa4_tensor),
        ("dv", fa4_tensor),
    ]


class fa4_kernel_info(ctypes.Structure):
    _fields_ = [
        ("kernel_name", ctypes.c_char_p),
        ("chip", ctypes.c_char_p),
        ("binary_path", ctypes.c_char_p),
        ("dtype", _c_enum),
        ("num_q_heads", ctypes.c_int32),
        ("num_kv_heads", ctypes.c_int32),
        ("qk_depth", ctypes.c_int32),
        ("ov_depth", ctypes.c_int32),
        ("mask", _c_enum),
        ("window_left", ctypes.c_int32),
        ("window_right", ctypes.c_int32),
        ("scale", ctypes.c_double),
        ("has_lse", ctypes.c_int32),
        ("batch", ctypes.c_int64),
        ("seq_q", ctypes.c_int64),
        ("seq_kv", ctypes.c_int64),
        ("block", ctypes.c_int32 * 3),
        ("cluster", ctypes.c_int32 * 3),
        ("dynamic_smem_bytes", ctypes.c_int32),
        ("base_align_bytes", ctypes.c_int32),
        ("stride_align_bytes", ctypes.c_int32),
        ("programmatic_launch", ctypes.c_int32),
        ("decode_kernel_name", ctypes.c_char_p),
        ("decode_max_seq_q", ctypes.c_int64),
        ("softcap", ctypes.c_double),
        ("has_sinks", ctypes.c_int32),
        ("output_dtype", _c_enum),
        ("q_descale", ctypes.c_int32),
        ("k_descale", ctypes.c_int32),
        ("v_descale", ctypes.c_int32),
        ("is_backward", ctypes.c_int32),
    ]


class fa4_module(ctypes.Structure):
    """Opaque."""


_module_p = ctypes.POINTER(fa4_module)


def _declare(lib):
    """Declares the prototypes of Runtime.h on the loaded library."""
    status = _c_enum
    protos = {
        "fa4_last_error": (ctypes.c_char_p, []),
        "fa4_status_name": (ctypes.c_char_p, [_c_enum]),
        "fa4_dtype_name": (ctypes.c_char_p, [_c_enum]),
        "fa4_dtype_size": (ctypes.c_size_t, [_c_enum]),
        "fa4_module_load": (status, [ctypes.c_char_p, ctypes.POINTER(_module_p)]),
        "fa4_module_load_string": (
            status,
            [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_module_p)],
        ),
        "fa4_module_destroy": (None, [_module_p]),
        "fa4_module_get_info": (status, [_module_p, ctypes.POINTER(fa4_kernel_info)]),
        "fa4_module_get_tensor_alignment": (
            status,
            [
                _module_p,
                ctypes.c_char_p,
                ctypes.POINTER(ctypes.c_int32),
                ctypes.POINTER(ctypes.c_int32),
            ],
        ),
        "fa4_module_set_programmatic_launch": (status, [_module_p, ctypes.c_int32]),
        "fa4_module_set_persistent_ctas": (status, [_module_p, ctypes.c_int32]),
        "fa4_validate": (status, [_module_p, ctypes.POINTER(fa4_attention_args)]),
        "fa4_launch": (
            status,
            [_module_p, ctypes.POINTER(fa4_attention_args), ctypes.c_void_p],
        ),
        "fa4_validate_serving": (status, [_module_p, ctypes.POINTER(fa4_serving_args)]),
        "fa4_launch_serving": (
            status,
            [_module_p, ctypes.POINTER(fa4_serving_args), ctypes.c_void_p],
        ),
        "fa4_serving_workspace_bytes": (
            status,
            [_module_p, ctypes.POINTER(fa4_serving_args),
             ctypes.POINTER(ctypes.c_uint64)],
        ),
        "fa4_launch_serving_workspace": (
            status,
            [_module_p, ctypes.POINTER(fa4_serving_args), ctypes.c_void_p,
             ctypes.c_void_p],
        ),
        "fa4_stream_synchronize": (status, [ctypes.c_void_p]),
        "fa4_launch_record_create": (
            status,
            [_module_p, ctypes.POINTER(fa4_attention_args),
             ctypes.POINTER(ctypes.c_void_p)],
        ),
        "fa4_launch_record_workspace_bytes": (
            status, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]),
        "fa4_launch_record_run": (
            status,
            [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
             ctypes.c_void_p],
        ),
        "fa4_launch_record_create_serving": (
            status,
            [_module_p, ctypes.POINTER(fa4_serving_args),
             ctypes.POINTER(ctypes.c_void_p)],
        ),
        "fa4_launch_record_run_serving": (
            status,
            [ctypes.c_void_p, ctypes.POINTER(fa4_serving_args),
             ctypes.c_void_p, ctypes.c_void_p],
        ),
        "fa4_launch_record_destroy": (None, [ctypes.c_void_p]),
    }
    for name, (restype, argtypes) in protos.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


# --- Finding and loading the library ----------------------------------------

_REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_LIB_NAME = "libfa4rt.so"

_lib = None
_lib_path = None
_lib_lock = threading.Lock()


def _candidates():
    env = os.environ.get("FA4_RUNTIME_LIB")
    if env:
        # An explicit choice: no fallback, so a wrong path is reported.
        return [env]
    # The wheel's copy, inside the package; then a repository build.
    found = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib",
                          _LIB_NAME),
             os.path.join(_REPO_ROOT, "build", "runtime", _LIB_NAME)]
    found = [path for path in found if os.path.exists(path)]
    system = ctypes.util.find_library("fa4rt")
    found.append(system or _LIB_NAME)  # the system loader's search path
    return found


def library():
    """The loaded libfa4rt (a ctypes.CDLL with the C API declared).

    Looked for in $FA4_RUNTIME_LIB, else in the package (lib/, where the
    wheel puts it), else the repository's build/runtime/libfa4rt.so, else by
    the system loader."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        errors = []
        for path in _candidates():
            try:
                lib = ctypes.CDLL(path)
            except OSError as error:
                errors.append("%s: %s" % (path, error))
                continue
            _lib, _lib_path = _declare(lib), path
            return _lib
        raise Fa4Error(
            "libfa4rt not found (set FA4_RUNTIME_LIB to the library's path); tried "
            + "; ".join(errors)
        )


def library_path():
    """The path libfa4rt was loaded from (loads it if needed)."""
    library()
    return _lib_path


# --- Errors -----------------------------------------------------------------


class Fa4Error(RuntimeError):
    """A refusal of libfa4rt (the message is fa4_last_error()) or of this
    package. `status` is the fa4_status (an int) or None for errors raised in
    Python; `status_name` is its name, e.g. "FA4_ERROR_VALIDATION"."""

    _NAMES = {
        FA4_SUCCESS: "FA4_SUCCESS",
        FA4_ERROR_INVALID_ARGUMENT: "FA4_ERROR_INVALID_ARGUMENT",
        FA4_ERROR_MANIFEST: "FA4_ERROR_MANIFEST",
        FA4_ERROR_VALIDATION: "FA4_ERROR_VALIDATION",
        FA4_ERROR_DRIVER_NOT_FOUND: "FA4_ERROR_DRIVER_NOT_FOUND",
        FA4_ERROR_CUDA: "FA4_ERROR_CUDA",
        FA4_ERROR_IO: "FA4_ERROR_IO",
        FA4_ERROR_INTERNAL: "FA4_ERROR_INTERNAL",
    }

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.status_name = self._NAMES.get(status) if status is not None else None


class Fa4ValueError(Fa4Error, ValueError):
    """An integer argument that does not fit the C type libfa4rt takes it as
    (a size, a stride, a pointer, a CTA count): ctypes would keep its low bits
    and pass another number, so it is refused before any C call. Both an
    Fa4Error (status FA4_ERROR_INVALID_ARGUMENT) and a ValueError."""

    def __init__(self, message):
        super().__init__(message, FA4_ERROR_INVALID_ARGUMENT)


# The C integer types of the API, as (name, smallest, largest).
_INT32 = ("int32", -(2**31), 2**31 - 1)
_INT64 = ("int64", -(2**63), 2**63 - 1)
_POINTER = ("a 64-bit address", 0, 2**64 - 1)  # void *, CUstream


def _fits(value, ctype, what):
    """`value` (an int) when it fits `ctype`, else Fa4ValueError naming the
    argument `what`."""
    name, low, high = ctype
    if low <= value <= high:
        return value
    raise Fa4ValueError(
        "%s is %d, which does not fit %s (%d to %d)" % (what, value, name, low, high)
    )


def _all_fit(values, ctype, what):
    """`values` (a tuple of ints) when each fits `ctype`; else Fa4ValueError
    naming the first that does not as what[i]. min/max first: this runs on
    every launch."""
    _, low, high = ctype
    if not values or (low <= min(values) and max(values) <= high):
        return values
    for i, value in enumerate(values):
        _fits(value, ctype, "%s[%d]" % (what, i))
    return values


def _check(status):
    """Raises Fa4Error with the thread's last error when status is a failure.
    Must be called right after the C call, on the same thread."""
    if status != FA4_SUCCESS:
        message = library().fa4_last_error()
        message = message.decode("utf-8", "replace") if message else ""
        raise Fa4Error(message or Fa4Error._NAMES.get(status, "fa4 error"), status)


# --- Tensors ----------------------------------------------------------------


# dtype objects already named (a torch dtype, a name): every launch names
# its tensors' dtypes, and parsing the name each time cost microseconds.
_DTYPE_CODES_SEEN = {}


def dtype_code(dtype):
    """fa4_dtype of a name ("bf16", "float16", ...), an int, a torch dtype or a
    numpy dtype."""
    if isinstance(dtype, bool):
        raise Fa4Error("not a dtype: %r" % (dtype,))
    if isinstance(dtype, int):
        if dtype in _DTYPE_NAMES:
            return dtype
        raise Fa4Error("unknown fa4_dtype %d" % dtype)
    try:
        return _DTYPE_CODES_SEEN[dtype]
    except (KeyError, TypeError):  # not seen yet, or not hashable
        pass
    code = _dtype_code_by_name(dtype)
    try:
        _DTYPE_CODES_SEEN[dtype] = code
    except TypeError:
        pass
    return code


def _dtype_code_by_name(dtype):
    name = str(dtype)
    for prefix in ("torch.", "dtype("):
        if name.startswith(prefix):
            name = name[len(prefix):]
    name = name.strip("')\"").lower()
    try:
        return _DTYPE_ALIASES[name]
    except KeyError:
        raise Fa4Error(
            "dtype %s is not supported by fa4 (bf16, f16, f32, or e4m3 for an FP8"
            " kernel)" % (dtype,)
        ) from None


def dtype_name(code):
    return _DTYPE_NAMES[code]


class TensorSpec(object):
    """A strided view of device memory, described without torch: a data
    pointer (int), a dtype ("bf16", "f16", "f32", a torch dtype, ...), a shape
    and strides in elements (row-major contiguous when omitted)."""

    __slots__ = ("data_ptr", "dtype", "shape", "strides")

    def __init__(self, data_ptr, dtype, shape, strides=None):
        self.data_ptr = _fits(int(data_ptr), _POINTER, "TensorSpec: data_ptr")
        self.dtype = dtype_code(dtype)
        self.shape = _all_fit(
            tuple(int(extent) for extent in shape), _INT64, "TensorSpec: shape"
        )
        if strides is None:
            strides = contiguous_strides(self.shape)
        self.strides = _all_fit(
            tuple(int(stride) for stride in strides), _INT64, "TensorSpec: strides"
        )
        if len(self.strides) != len(self.shape):
            raise Fa4Error(
                "TensorSpec: %d strides for %d dims" % (len(self.strides), len(self.shape))
            )

    def __repr__(self):
        return "TensorSpec(0x%x, %r, shape=%r, strides=%r)" % (
            self.data_ptr,
            _DTYPE_NAMES[self.dtype],
            self.shape,
            self.strides,
        )


def contiguous_strides(shape, align_elems=1):
    """Row-major strides in elements; every stride but the last dim's rounded
    up to a multiple of align_elems."""
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        span = strides[d + 1] * shape[d + 1]
        strides[d] = -(-span // align_elems) * align_elems
    return strides


def _is_torch_tensor(value):
    return type(value).__module__.startswith("torch") and hasattr(value, "data_ptr")


def _describe(value, name):
    """(data_ptr, dtype code, shape, strides) of a TensorSpec or a torch tensor
    (anything with data_ptr(), shape, stride() and dtype)."""
    if isinstance(value, TensorSpec):
        return value.data_ptr, value.dtype, value.shape, value.strides
    # Every launch describes five tensors: attribute access and map(int)
    # rather than hasattr checks and generators (the Python side was most of
    # a decode launch's host cost, D-46).
    try:
        data_ptr, shape, stride, dtype = value.data_ptr, value.shape, value.stride, value.dtype
    except AttributeError:
        raise Fa4Error(
            "tensor '%s': expected a torch tensor or fa4.TensorSpec, got %s"
            % (name, type(value).__name__)
        ) from None
    return (
        int(data_ptr()),
        dtype_code(dtype),
        tuple(map(int, shape)),
        tuple(map(int, stride())),
    )


def _fill(slot, value, name):
    if value is None:
        return  # data NULL: "not given"
    data, dtype, shape, strides = _describe(value, name)
    if len(shape) > FA4_MAX_RANK:
        raise Fa4Error(
            "tensor '%s': rank is %d but fa4 tensors have at most %d dims"
            % (name, len(shape), FA4_MAX_RANK),
            FA4_ERROR_VALIDATION,
        )
    if data == 0:
        raise Fa4Error(
            "tensor '%s': data pointer is NULL (0)" % name, FA4_ERROR_VALIDATION
        )
    # fa4_tensor's fields: void *data, int64_t shape[] and strides[]. A torch
    # tensor's are in range; anything shaped like one may not be.
    _fits(data, _POINTER, "tensor '%s': data pointer" % name)
    _all_fit(shape, _INT64, "tensor '%s': shape" % name)
    _all_fit(strides, _INT64, "tensor '%s': strides" % name)
    rank = len(shape)
    slot.data = data
    slot.dtype = dtype
    slot.rank = rank
    slot.shape[:rank] = shape
    slot.strides[:rank] = strides


def _args(q, k, v, o, lse):
    args = fa4_attention_args()
    for name, value in (("q", q), ("k", k), ("v", v), ("o", o), ("lse", lse)):
        _fill(getattr(args, name), value, name)
    return args


_INDEX_TENSORS = ("cu_seqlens_q", "cu_seqlens_k", "seqused_k", "block_table",
                  "seqlens_k")


_BACKWARD_TENSORS = ("dout", "dq", "dk", "dv")


def _serving_args(q, k, v, o, lse, index, max_seqlen_q, sinks=None,
                  backward=None):
    """fa4_serving_args: the attention tensors, the index tensors of
    `index` (name -> tensor; the names of _INDEX_TENSORS), max_seqlen_q,
    the sinks (version 14; None: not given) and a backward kernel's dout,
    dq, dk and dv (version 16; `backward`: name -> tensor)."""
    args = fa4_serving_args()
    args.attention = _args(q, k, v, o, lse)
    _fill(args.sinks, sinks, "sinks")
    for name, value in (backward or {}).items():
        _fill(getattr(args, name), value, name)
    for name, value in index.items():
        if name not in _INDEX_TENSORS:
            raise Fa4Error("unknown index tensor %r; expected one of %s"
                           % (name, ", ".join(_INDEX_TENSORS)),
                           FA4_ERROR_INVALID_ARGUMENT)
        _fill(getattr(args, name), value, name)
    args.max_seqlen_q = _fits(int(max_seqlen_q), _INT64, "max_seqlen_q")
    return args


# --- Kernel -----------------------------------------------------------------

Alignment = namedtuple("Alignment", ["base_bytes", "stride_bytes"])


class KernelInfo(object):
    """What the manifest says about the kernel (fa4_kernel_info). Sizes that
    were dynamic at compile time are -1; window bounds of -1 are unbounded."""

    def __init__(self, raw):
        def text(value):
            return value.decode("utf-8", "replace") if value else ""

        self.name = text(raw.kernel_name)
        self.chip = text(raw.chip)
        self.binary_path = text(raw.binary_path)
        self.dtype = _DTYPE_NAMES.get(raw.dtype, str(raw.dtype))
        self.num_q_heads = raw.num_q_heads
        self.num_kv_heads = raw.num_kv_heads
        self.qk_depth = raw.qk_depth
        self.ov_depth = raw.ov_depth
        self.mask = _MASK_NAMES.get(raw.mask, str(raw.mask))
        self.window_left = raw.window_left
        self.window_right = raw.window_right
        self.scale = raw.scale
        self.softcap = raw.softcap
        self.has_sinks = bool(raw.has_sinks)
        # FP8 (version 15): o's dtype, and each of q, k, v's descale form
        # (None, "tensor" or "batch_head").
        self.output_dtype = _DTYPE_NAMES.get(raw.output_dtype,
                                             str(raw.output_dtype))
        forms = {0: None, 1: "tensor", 2: "batch_head"}
        self.descales = tuple(forms.get(form, str(form)) for form in
                              (raw.q_descale, raw.k_descale, raw.v_descale))
        self.has_lse = bool(raw.has_lse)
        # Version 16: a backward kernel (reads o, lse and dout; writes dq,
        # dk and dv: Kernel.launch_backward).
        self.is_backward = bool(raw.is_backward)
        self.batch = raw.batch
        self.seq_q = raw.seq_q
        self.seq_kv = raw.seq_kv
        self.block = tuple(raw.block)
        self.cluster = tuple(raw.cluster)
        self.smem = raw.dynamic_smem_bytes
        self.base_align_bytes = raw.base_align_bytes
        self.stride_align_bytes = raw.stride_align_bytes
        self.programmatic_launch = bool(raw.programmatic_launch)
        # The kernel launched instead when sq <= decode_max_seq_q ("" and 0:
        # none).
        self.decode_kernel_name = text(raw.decode_kernel_name)
        self.decode_max_seq_q = raw.decode_max_seq_q

    @property
    def heads(self):
        """(num_q_heads, num_kv_heads)"""
        return (self.num_q_heads, self.num_kv_heads)

    @property
    def depths(self):
        """(qk_depth, ov_depth)"""
        return (self.qk_depth, self.ov_depth)

    @property
    def dynamic_smem_bytes(self):
        return self.smem

    def as_dict(self):
        return dict(vars(self))

    def __repr__(self):
        return "KernelInfo(%s)" % ", ".join(
            "%s=%r" % item for item in sorted(vars(self).items())
        )


def _find_manifest(path):
    path = os.fspath(path)
    if os.path.isdir(path):
        direct = os.path.join(path, "manifest.json")
        if os.path.isfile(direct):
            return direct
        # fa4-compile -o DIR writes DIR/<kernel>/manifest.json.
        nested = sorted(
            os.path.join(path, entry, "manifest.json")
            for entry in os.listdir(path)
            if os.path.isfile(os.path.join(path, entry, "manifest.json"))
        )
        if len(nested) == 1:
            return nested[0]
        if not nested:
            raise Fa4Error(
                "%s: no manifest.json in the directory or its subdirectories" % path,
                FA4_ERROR_IO,
            )
        raise Fa4Error(
            "%s: several kernels (%s); load one of their directories"
            % (path, ", ".join(os.path.basename(os.path.dirname(m)) for m in nested)),
            FA4_ERROR_INVALID_ARGUMENT,
        )
    return path


class Kernel(object):
    """A kernel compiled by fa4-compile, loaded by libfa4rt."""

    def __init__(self, handle, manifest_path=None):
        # Use Kernel.load / Kernel.from_string.
        self._lib = library()
        self._handle = handle
        self.manifest_path = manifest_path
        raw = fa4_kernel_info()
        _check(self._lib.fa4_module_get_info(handle, ctypes.byref(raw)))
        self.info = KernelInfo(raw)

    @classmethod
    def load(cls, path):
        """Loads DIR/manifest.json, a manifest file, or the one kernel under a
        fa4-compile output directory (DIR/<kernel>/manifest.json)."""
        manifest = _find_manifest(path)
        lib = library()
        handle = _module_p()
        _check(lib.fa4_module_load(os.fsencode(manifest), ctypes.byref(handle)))
        return cls(handle, manifest)

    @classmethod
    def from_string(cls, manifest_json, binary_dir="."):
        """Loads a manifest given as text; binary.file is resolved against
        binary_dir."""
        lib = library()
        handle = _module_p()
        if isinstance(manifest_json, str):
            manifest_json = manifest_json.encode("utf-8")
        _check(
            lib.fa4_module_load_string(
                manifest_json, os.fsencode(binary_dir), ctypes.byref(handle)
            )
        )
        return cls(handle, None)

    def close(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            try:
                self._lib.fa4_module_destroy(handle)
            except Exception:  # interpreter shutdown
                pass

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        info = self.info
        return "<fa4.Kernel %s %s %s hq=%d hkv=%d d=%d/%d mask=%s lse=%s>" % (
            info.name,
            info.chip,
            info.dtype,
            info.num_q_heads,
            info.num_kv_heads,
            info.qk_depth,
            info.ov_depth,
            info.mask,
            info.has_lse,
        )

    def _live(self):
        if not self._handle:
            raise Fa4Error("the kernel was closed", FA4_ERROR_INVALID_ARGUMENT)
        return self._handle

    def tensor_alignment(self, name):
        """(base_bytes, stride_bytes) of one tensor: "q", "k", "v", "o" or
        "lse". Fa4Error when the kernel has no such tensor."""
        base = ctypes.c_int32()
        stride = ctypes.c_int32()
        _check(
            self._lib.fa4_module_get_tensor_alignment(
                self._live(), name.encode("utf-8"), ctypes.byref(base), ctypes.byref(stride)
            )
        )
        return Alignment(base.value, stride.value)

    def set_persistent_ctas(self, max_ctas):
        """At most max_ctas CTAs for a persistent launch (0: one per SM; see
        fa4_module_set_persistent_ctas in Runtime.h)."""
        max_ctas = _fits(int(max_ctas), _INT32, "max_ctas")
        _check(self._lib.fa4_module_set_persistent_ctas(self._live(), max_ctas))

    def set_programmatic_launch(self, enabled):
        """Programmatic dependent launch (off by default; see
        fa4_module_set_programmatic_launch in Runtime.h): the kernel may start
        while the grid before it on the stream drains, and waits for it
        in-kernel. Ignored where the manifest does not allow it."""
        _check(
            self._lib.fa4_module_set_programmatic_launch(self._live(), 1 if enabled else 0)
        )
        raw = fa4_kernel_info()
        _check(self._lib.fa4_module_get_info(self._live(), ctypes.byref(raw)))
        self.info = KernelInfo(raw)

    def validate(self, q, k, v, o, lse=None):
        """Checks the tensors (torch tensors or TensorSpecs) against the
        manifest: dtype, rank, shape, strides, alignment. Raises Fa4Error with
        the runtime's message (it names the tensor, dim and rule). Needs no
        GPU."""
        args = _args(q, k, v, o, lse)
        _check(self._lib.fa4_validate(self._live(), ctypes.byref(args)))

    def launch(self, q, k, v, o, lse=None, stream=None):
        """Validates and launches on `stream` (an int CUstream, an object with
        .cuda_stream such as torch.cuda.Stream, or None for the legacy default
        stream). All tensors must be given; nothing is allocated. Asynchronous:
        the caller keeps the memory alive until the stream has run it."""
        args = _args(q, k, v, o, lse)
        _check(self._lib.fa4_launch(self._live(), ctypes.byref(args), _stream_handle(stream)))

    def launch_serving(self, q, k, v, o, lse=None, stream=None,
                       max_seqlen_q=0, workspace=None, sinks=None, **index):
        """launch for the serving forms (ABI version 12): the index tensors
        by name (cu_seqlens_q, cu_seqlens_k, seqused_k, block_table,
        seqlens_k; i32) and, with packed queries, max_seqlen_q. k and v are
        a paged kernel's caches. The index tensors' values are not read on
        the host. `workspace`: a device pointer of at least
        serving_workspace_bytes (None: the runtime allocates it in stream
        order). `sinks`: a kernel with attention sinks' f32 [hq] (version
        14; a dense kernel with sinks launches here too)."""
        args = _serving_args(q, k, v, o, lse, index, max_seqlen_q, sinks)
        _check(self._lib.fa4_launch_serving_workspace(
            self._live(), ctypes.byref(args), workspace,
            _stream_handle(stream)))

    def serving_workspace_bytes(self, q, k, v, o, lse=None, max_seqlen_q=0,
                                sinks=None, **index):
        """The workspace bytes a launch_serving of these tensors needs in
        the current context (0: none; fa4_serving_workspace_bytes)."""
        args = _serving_args(q, k, v, o, lse, index, max_seqlen_q, sinks)
        size = ctypes.c_uint64()
        _check(self._lib.fa4_serving_workspace_bytes(
            self._live(), ctypes.byref(args), ctypes.byref(size)))
        return size.value

    def validate_serving(self, q, k, v, o, lse=None, max_seqlen_q=0,
                         sinks=None, **index):
        """validate for the serving forms (launch_serving's arguments)."""
        args = _serving_args(q, k, v, o, lse, index, max_seqlen_q, sinks)
        _check(self._lib.fa4_validate_serving(self._live(), ctypes.byref(args)))

    def validate_backward(self, q, k, v, o, lse, dout, dq, dk, dv):
        """validate for a backward kernel (version 16): q, k, v and the
        forward's o and lse, dout (dO), and the gradients dq, dk, dv."""
        args = _serving_args(q, k, v, o, lse, {}, 0, None,
                             dict(dout=dout, dq=dq, dk=dk, dv=dv))
        _check(self._lib.fa4_validate_serving(self._live(), ctypes.byref(args)))

    def launch_backward(self, q, k, v, o, lse, dout, dq, dk, dv, stream=None):
        """Launches a backward kernel (version 16, info.is_backward): reads
        q, k, v, the forward's o and lse and dout; writes dq, dk, dv (each
        of its input's shape and dtype; dk and dv summed over the query
        heads of each kv head). Asynchronous, as launch."""
        args = _serving_args(q, k, v, o, lse, {}, 0, None,
                             dict(dout=dout, dq=dq, dk=dk, dv=dv))
        _check(self._lib.fa4_launch_serving(self._live(), ctypes.byref(args),
                                            _stream_handle(stream)))

    def __call__(self, q, k, v, o=None, lse=None, stream=None):
        """Attention of torch CUDA tensors q [b, sq, hq, dqk], k and v
        [b, skv, hkv, d]: allocates o [b, sq, hq, dv] (and lse [b, hq, sq],
        f32, for kernels with has_lse) when not given, validates, launches on
        the given stream or torch's current stream, and returns o, or (o, lse)
        when the kernel has LSE.

        TensorSpecs are accepted when every output is given (the launch is
        then on `stream`, default the legacy default stream)."""
        info = self.info
        torch_inputs = any(_is_torch_tensor(t) for t in (q, k, v))
        if not torch_inputs:
            if o is None or (info.has_lse and lse is None):
                raise Fa4Error(
                    "without torch tensors, pass every output (o%s): fa4 allocates "
                    "outputs only with torch" % (" and lse" if info.has_lse else ""),
                    FA4_ERROR_INVALID_ARGUMENT,
                )
            self.launch(q, k, v, o, lse, stream)
            return (o, lse) if info.has_lse else o

        import torch

        for name, value in (("q", q), ("k", k), ("v", v), ("o", o), ("lse", lse)):
            if _is_torch_tensor(value) and not value.is_cuda:
                raise Fa4Error(
                    "tensor '%s': on %s; fa4 kernels need CUDA tensors" % (name, value.device),
                    FA4_ERROR_VALIDATION,
                )
        device = q.device
        with torch.cuda.device(device):
            if o is None:
                o = self._alloc_o(torch, q, v)
            if lse is None and info.has_lse:
                lse = self._alloc_lse(torch, q)
            if stream is None:
                stream = torch.cuda.current_stream(device)
            self.launch(q, k, v, o, lse, stream)
        return (o, lse) if info.has_lse else o

    # Outputs are row-major, each non-last stride padded as far as the
    # tensor's own stride rule needs (none for the usual shapes).
    def _alloc(self, torch, name, shape, dtype, device):
        _, stride_bytes = self.tensor_alignment(name)
        elem = _DTYPE_SIZES[dtype_code(dtype)]
        align_elems = stride_bytes // math.gcd(stride_bytes, elem)
        strides = contiguous_strides(shape, align_elems)
        if list(strides) == contiguous_strides(shape):
            return torch.empty(shape, dtype=dtype, device=device)
        storage = torch.empty(strides[0] * shape[0], dtype=dtype, device=device)
        return storage.as_strided(shape, strides)

    def _alloc_o(self, torch, q, v):
        info = self.info
        if q.dim() != 4 or v.dim() != 4:
            bad, tensor = ("q", q) if q.dim() != 4 else ("v", v)
            raise Fa4Error(
                "tensor '%s': rank is %d but the kernel expects rank 4 (BSHD)"
                % (bad, tensor.dim()),
                FA4_ERROR_VALIDATION,
            )
        b, sq, hq = q.shape[0], q.shape[1], q.shape[2]
        dv = info.ov_depth if info.ov_depth > 0 else v.shape[3]
        return self._alloc(torch, "o", (b, sq, hq, dv), q.dtype, q.device)

    def _alloc_lse(self, torch, q):
        if q.dim() != 4:
            raise Fa4Error(
                "tensor 'q': rank is %d but the kernel expects rank 4 (BSHD)" % q.dim(),
                FA4_ERROR_VALIDATION,
            )
        b, sq, hq = q.shape[0], q.shape[1], q.shape[2]
        return self._alloc(torch, "lse", (b, hq, sq), torch.float32, q.device)


def _stream_handle(stream):
    if stream is None:
        return None
    if hasattr(stream, "cuda_stream"):  # torch.cuda.Stream / ExternalStream
        stream = stream.cuda_stream
    stream = _fits(int(stream), _POINTER, "stream")
    return stream or None


def synchronize(stream=None):
    """cuStreamSynchronize through the runtime (no torch needed)."""
    _check(library().fa4_stream_synchronize(_stream_handle(stream)))


_kernel_cache = {}
_kernel_cache_lock = threading.Lock()


def attention(q, k, v, kernel, o=None, lse=None, stream=None):
    """Runs `kernel` (a Kernel, or a manifest/artifact path, loaded once and
    cached) on q, k, v; returns o, or (o, lse) for kernels with LSE."""
    if not isinstance(kernel, Kernel):
        key = os.path.realpath(_find_manifest(kernel))
        with _kernel_cache_lock:
            if key not in _kernel_cache:
                _kernel_cache[key] = Kernel.load(key)
            kernel = _kernel_cache[key]
    return kernel(q, k, v, o=o, lse=lse, stream=stream)
