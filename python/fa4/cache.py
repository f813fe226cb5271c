"""The persistent kernel cache, and kernel packs.

An entry is the directory fa4-compile wrote for one attention problem (its
manifest.json, PTX and cubin), under $FA4_CACHE_DIR (default:
$XDG_CACHE_HOME/fa4, else ~/.cache/fa4), named by a hash of the problem
(chip, dtype, heads, depths, mask, scale, LSE, kernel choice). Each entry
also records the compiler that wrote it (a hash of the fa4-compile
binary): where a compiler is installed, an entry another compiler wrote is
compiled again; where none is (a GPU machine given a kernel pack), entries
are used as they are.

Concurrent processes: an entry is written into a temporary directory and
renamed into place under a file lock (the `filelock` package), so a reader
sees a whole entry or none, and two processes filling the same entry both
succeed, one compiling.

A kernel pack is such a directory filled ahead of time
(`python -m fa4.pack`); point $FA4_CACHE_DIR at it on a machine without
LLVM.
"""

import hashlib
import json
import math
import os
import shutil
import struct
import tempfile

from .runtime import FA4_ERROR_INVALID_ARGUMENT, Fa4Error

__all__ = ["cache_dir", "chip_for", "compiler_id", "entry", "problem_key",
           "Problem"]

# The chips fa4 compiles for, by compute capability.
_CHIPS = {(9, 0): "sm_90a", (10, 0): "sm_100a"}


def chip_for(capability, device):
    """The chip of compute capability `capability` ((major, minor)) of
    `device` (named in the error), or Fa4Error."""
    chip = _CHIPS.get(tuple(capability))
    if chip is None:
        raise Fa4Error("%s (compute capability %s): fa4 compiles for %s"
                       % (device, ".".join(map(str, capability)),
                          " and ".join(_CHIPS.values())),
                       FA4_ERROR_INVALID_ARGUMENT)
    return chip

# Bumped when the entry layout or the problem's fields change.
_LAYOUT_VERSION = 1

_KERNELS = ("auto", "hopper", "blackwell", "reference")


def _f32_bits(value):
    """The bits of `value` rounded to f32 (OverflowError beyond its range)."""
    return struct.unpack("<I", struct.pack("<f", value))[0]


def _f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def _scale_of(scale, qk_depth):
    """The scale as the kernel sees it: None for the default 1/sqrt(qk_depth),
    else the f32 value. The op's scale is f32, so any spelling of the default
    with the same f32 bits (transformers' `d ** -0.5`) is the default: one
    key, one kernel."""
    if scale is None:
        return None
    try:
        value = float(scale)
    except (TypeError, ValueError):
        raise Fa4Error("scale %r: expected a number" % (scale,),
                       FA4_ERROR_INVALID_ARGUMENT)
    try:
        bits = _f32_bits(value) if math.isfinite(value) else None
    except OverflowError:
        bits = None
    if not value > 0 or bits is None or _f32(value) == 0:
        raise Fa4Error("scale %r: expected a finite value > 0 that f32 holds "
                       "(%g to %g)" % (scale, 2.0 ** -149, _f32(3.4028234e38)),
                       FA4_ERROR_INVALID_ARGUMENT)
    if bits == _f32_bits(1.0 / math.sqrt(qk_depth)):
        return None
    return _f32(value)


def cache_dir():
    """$FA4_CACHE_DIR, else $XDG_CACHE_HOME/fa4, else ~/.cache/fa4."""
    explicit = os.environ.get("FA4_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "fa4")


class Problem(object):
    """What a kernel is compiled for: everything but the sizes that stay
    dynamic (batch, Sq, Skv)."""

    _FIELDS = ("chip", "dtype", "num_q_heads", "num_kv_heads", "qk_depth",
               "ov_depth", "mask", "window", "scale", "lse", "kernel")

    def __init__(self, chip, dtype, num_q_heads, num_kv_heads, qk_depth,
                 ov_depth, mask="none", window=(-1, -1), scale=None,
                 lse=True, kernel="auto"):
        if dtype not in ("bf16", "f16"):
            raise Fa4Error("dtype %r: expected bf16 or f16" % (dtype,),
                           FA4_ERROR_INVALID_ARGUMENT)
        if mask not in ("none", "causal", "window"):
            raise Fa4Error("mask %r: expected none, causal or window" % (mask,),
                           FA4_ERROR_INVALID_ARGUMENT)
        for name, value in (("num_q_heads", num_q_heads),
                            ("num_kv_heads", num_kv_heads),
                            ("qk_depth", qk_depth), ("ov_depth", ov_depth)):
            if not isinstance(value, int) or value < 1:
                raise Fa4Error("%s %r: expected a positive int" % (name, value),
                               FA4_ERROR_INVALID_ARGUMENT)
        if kernel not in _KERNELS:
            raise Fa4Error("kernel %r: expected one of %s"
                           % (kernel, ", ".join(_KERNELS)),
                           FA4_ERROR_INVALID_ARGUMENT)
        self.chip = chip
        self.dtype = dtype
        self.num_q_heads = num_q_heads
        self.num_kv_heads = num_kv_heads
        self.qk_depth = qk_depth
        self.ov_depth = ov_depth
        self.mask = mask
        # The op has no window unless the mask is one: one key either way.
        self.window = ((int(window[0]), int(window[1])) if mask == "window"
                       else (-1, -1))
        self.scale = _scale_of(scale, qk_depth)
        self.lse = bool(lse)
        self.kernel = kernel

    def as_dict(self):
        values = {name: getattr(self, name) for name in self._FIELDS}
        values["window"] = list(self.window)
        return values

    def mlir(self, name="attention"):
        """The attn.attention function, sizes dynamic."""
        q = "tensor<?x?x%dx%dx%s>" % (self.num_q_heads, self.qk_depth, self.dtype)
        k = "tensor<?x?x%dx%dx%s>" % (self.num_kv_heads, self.qk_depth, self.dtype)
        v = "tensor<?x?x%dx%dx%s>" % (self.num_kv_heads, self.ov_depth, self.dtype)
        o = "tensor<?x?x%dx%dx%s>" % (self.num_q_heads, self.ov_depth, self.dtype)
        lse = "tensor<?x%dx?xf32>" % self.num_q_heads
        if self.mask == "window":
            mask = "#attn.mask<window(%d, %d)>" % self.window
        else:
            mask = "#attn.mask<%s>" % self.mask
        attrs = ["mask = " + mask]
        if self.scale is not None:
            # The float's exact bits, so the kernel applies this scale.
            attrs.append("scale = %s : f32" % _f32_literal(self.scale))
        results = "%s, %s" % (o, lse) if self.lse else o
        values = "%o, %lse" if self.lse else "%o"
        return ("func.func @%s(%%q: %s, %%k: %s, %%v: %s) -> (%s) {\n"
                "  %s = attn.attention %%q, %%k, %%v {%s} : %s, %s, %s -> %s\n"
                "  return %s : %s\n}\n"
                % (name, q, k, v, results, values, ", ".join(attrs),
                   q, k, v, results, values, results))


def _f32_literal(value):
    return "0x%08X" % _f32_bits(value)


def problem_key(problem):
    """The entry's name: a hash of the problem."""
    text = json.dumps({"layout": _LAYOUT_VERSION, "problem": problem.as_dict()},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


_compiler_ids = {}


def compiler_id(fa4_compile):
    """A hash of the fa4-compile binary (its version, whatever it says)."""
    path = os.path.realpath(fa4_compile)
    stat = os.stat(path)
    cached = _compiler_ids.get(path)
    if cached and cached[0] == (stat.st_mtime_ns, stat.st_size):
        return cached[1]
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    value = digest.hexdigest()[:32]
    _compiler_ids[path] = ((stat.st_mtime_ns, stat.st_size), value)
    return value


def _lock(path):
    try:
        from filelock import FileLock
    except ImportError:
        raise Fa4Error("the kernel cache needs the filelock package "
                       "(pip install filelock)", FA4_ERROR_INVALID_ARGUMENT)
    return FileLock(path)


def _manifest_of(directory):
    """The manifest.json under an entry (one kernel per entry)."""
    for root, _, files in os.walk(directory):
        if "manifest.json" in files:
            return os.path.join(root, "manifest.json")
    return None


def _usable(directory, wanted_compiler):
    """An entry's manifest path if it is whole and (when a compiler is
    given) written by that compiler."""
    record = os.path.join(directory, "entry.json")
    if not os.path.isfile(record):
        return None
    if wanted_compiler is not None:
        with open(record) as f:
            if json.load(f).get("compiler") != wanted_compiler:
                return None
    return _manifest_of(directory)


def entry(problem, fa4_compile=None, directory=None, compile_fn=None):
    """The manifest.json of `problem`'s kernel in the cache, compiling it
    (with `compile_fn(problem, out_dir)`, which runs fa4-compile) when it
    is missing or stale. `fa4_compile`: the compiler's path, or None where
    there is none (only entries already there can be used)."""
    root = directory or cache_dir()
    key = problem_key(problem)
    target = os.path.join(root, key)
    wanted = compiler_id(fa4_compile) if fa4_compile else None
    found = _usable(target, wanted)
    if found:
        return found
    if not fa4_compile:
        raise Fa4Error(
            "no kernel for %s in %s and no fa4-compile to build one (set "
            "FA4_CACHE_DIR to a kernel pack, or install the compiler)"
            % (json.dumps(problem.as_dict(), sort_keys=True), root),
            FA4_ERROR_INVALID_ARGUMENT)
    os.makedirs(root, exist_ok=True)
    with _lock(target + ".lock"):
        found = _usable(target, wanted)
        if found:
            return found
        scratch = tempfile.mkdtemp(prefix=key + ".", suffix=".tmp", dir=root)
        try:
            compile_fn(problem, scratch)
            with open(os.path.join(scratch, "entry.json"), "w") as f:
                json.dump({"problem": problem.as_dict(), "compiler": wanted,
                           "layout": _LAYOUT_VERSION}, f, sort_keys=True)
            stale = None
            if os.path.exists(target):
                stale = target + ".stale." + os.path.basename(scratch)
                os.rename(target, stale)
            os.rename(scratch, target)
            if stale:
                shutil.rmtree(stale, ignore_errors=True)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
    return _usable(target, wanted)
