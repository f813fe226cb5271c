"""fa4 from Python: load kernels that fa4-compile wrote ahead of time
(manifest.json + cubin/PTX), validate tensors and launch through libfa4rt.

    import fa4
    kernel = fa4.Kernel.load("artifacts/fa4_hopper_attention_sm_90a")
    o, lse = kernel(q, k, v)          # torch CUDA tensors, BSHD

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

__all__ = [
    "FA4_ABI_VERSION",
    "Alignment",
    "Fa4Error",
    "Fa4ValueError",
    "Kernel",
    "KernelInfo",
    "TensorSpec",
    "attention",
    "compile",
    "contiguous_strides",
    "find_fa4_compile",
    "library",
    "library_path",
    "synchronize",
]
