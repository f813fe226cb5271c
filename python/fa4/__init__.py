"""fa4 from Python: load kernels that fa4-compile wrote ahead of time
(manifest.json + cubin/PTX), validate tensors and launch through libfa4rt.

    import fa4
    kernel = fa4.Kernel.load("artifacts/fa4_hopper_attention_sm_90a")
    o, lse = kernel(q, k, v)          # torch CUDA tensors, BSHD

    o = fa4.flash_attn_func(q, k, v, causal=True)   # compiled and cached

Pure Python (ctypes); torch is needed only to launch on torch tensors.
"""

from .runtime import (
    FA4_ABI_VERSION,
    Alignment,
    Fa4Error,
    Fa4ValueError,
    Kernel,
    KernelInfo,
    TensorSpec,
    attention,
    contiguous_strides,
    library,
    library_path,
    synchronize,
)
from .compile import compile, find_fa4_compile  # noqa: A004
from .flash import flash_attn_func, kernel_for, problem_for
from .serving import flash_attn_varlen_func, flash_attn_with_kvcache
from .cache import Problem, cache_dir

__all__ = [
    "FA4_ABI_VERSION",
    "Alignment",
    "Fa4Error",
    "Fa4ValueError",
    "Kernel",
    "KernelInfo",
    "TensorSpec",
    "Problem",
    "attention",
    "cache_dir",
    "compile",
    "contiguous_strides",
    "find_fa4_compile",
    "flash_attn_func",
    "flash_attn_varlen_func",
    "flash_attn_with_kvcache",
    "kernel_for",
    "library",
    "library_path",
    "problem_for",
    "synchronize",
]
