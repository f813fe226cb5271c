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

The directory is not trusted: before an entry is used, its entry.json must
name the problem asked for, its files must be the ones written (their
SHA-256), and its manifest must describe that problem, every field of it
(chip, dtype, heads, depths, mask, window, scale as f32 bits, LSE, kernel
kind), so an entry copied or linked under another problem's name is never
launched. An entry that fails is compiled again where a compiler is
installed, and refused (Fa4Error naming it) where none is.
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


def _positive_f32_bits(value):
    """The f32 bits of `value` if it is finite, > 0 and not 0 in f32; else
    None."""
    try:
        bits = _f32_bits(value) if math.isfinite(value) else None
    except OverflowError:
        return None
    if not value > 0 or bits is None or _f32(value) == 0:
        return None
    return bits


def _json_f32_bits(value):
    """The f32 bits of a manifest's JSON number; None for anything else (a
    bool, a string, a number past f32's range)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return _f32_bits(value)
    except OverflowError:
        return None


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
    bits = _positive_f32_bits(value)
    if bits is None:
        raise Fa4Error("scale %r: expected a finite value > 0 that f32 holds "
                       "(%g to %g)" % (scale, 2.0 ** -149, _f32(3.4028234e38)),
                       FA4_ERROR_INVALID_ARGUMENT)
    if bits == _f32_bits(1.0 / math.sqrt(qk_depth)):
        return None
    return _f32(value)


def _softcap_of(softcap):
    """Logit softcapping's c as the kernel sees it: None for 0 (none,
    FlashAttention's spelling), else the f32 value."""
    try:
        value = float(softcap)
    except (TypeError, ValueError):
        raise Fa4Error("softcap %r: expected a number" % (softcap,),
                       FA4_ERROR_INVALID_ARGUMENT)
    if value == 0:
        return None
    if _positive_f32_bits(value) is None:
        raise Fa4Error("softcap %r: expected 0 (none) or a finite value > 0 "
                       "that f32 holds" % (softcap,),
                       FA4_ERROR_INVALID_ARGUMENT)
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

    # The serving forms (docs/KernelABI.md, "Serving forms"): packed varlen
    # sequences (with seqused_k or not) and a paged cache with dense or
    # packed queries, at a page size.
    FORMS = ("dense", "varlen", "varlen_seqused", "paged", "paged_packed")

    def __init__(self, chip, dtype, num_q_heads, num_kv_heads, qk_depth,
                 ov_depth, mask="none", window=(-1, -1), scale=None,
                 lse=True, kernel="auto", form="dense", page_size=0,
                 softcap=0.0, sinks=False, backward=False):
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
        self.softcap = _softcap_of(softcap)
        if not isinstance(sinks, bool):
            raise Fa4Error("sinks %r: expected True or False" % (sinks,),
                           FA4_ERROR_INVALID_ARGUMENT)
        self.sinks = sinks
        self.lse = bool(lse)
        self.kernel = kernel
        if form not in self.FORMS:
            raise Fa4Error("form %r: expected one of %s"
                           % (form, ", ".join(self.FORMS)),
                           FA4_ERROR_INVALID_ARGUMENT)
        paged = form.startswith("paged")
        if paged != (isinstance(page_size, int) and page_size >= 1):
            raise Fa4Error("page_size %r: a positive int for a paged form, "
                           "else 0" % (page_size,), FA4_ERROR_INVALID_ARGUMENT)
        self.form = form
        self.page_size = page_size if paged else 0
        if not isinstance(backward, bool):
            raise Fa4Error("backward %r: expected True or False" % (backward,),
                           FA4_ERROR_INVALID_ARGUMENT)
        if backward and (form != "dense" or sinks or not self.lse):
            raise Fa4Error("backward: the backward pass is of the dense form "
                           "with LSE and without sinks",
                           FA4_ERROR_INVALID_ARGUMENT)
        self.backward = backward

    def for_backward(self):
        """The Problem of this (dense, forward) attention's backward pass:
        the same chip, dtype, heads, depths, mask, scale, softcap and
        kernel choice."""
        return Problem(self.chip, self.dtype, self.num_q_heads,
                       self.num_kv_heads, self.qk_depth, self.ov_depth,
                       self.mask, self.window, self.scale, lse=True,
                       kernel=self.kernel, softcap=self.softcap or 0.0,
                       backward=True)

    def as_dict(self):
        values = {name: getattr(self, name) for name in self._FIELDS}
        values["window"] = list(self.window)
        # The serving forms only: a dense problem's entry keeps its name.
        if self.form != "dense":
            values["form"] = self.form
            values["page_size"] = self.page_size
        # Softcapped problems only: other entries keep their names.
        if self.softcap is not None:
            values["softcap"] = self.softcap
        # Problems with sinks only, likewise.
        if self.sinks:
            values["sinks"] = True
        # The backward pass's only, likewise.
        if self.backward:
            values["backward"] = True
        return values

    def mlir(self, name="attention"):
        """The attn.attention function, sizes dynamic (a serving form's
        attn.varlen_attention or attn.paged_attention)."""
        if self.form != "dense":
            return self._serving_mlir(name)
        if self.backward:
            return self._backward_mlir(name)
        q = "tensor<?x?x%dx%dx%s>" % (self.num_q_heads, self.qk_depth, self.dtype)
        k = "tensor<?x?x%dx%dx%s>" % (self.num_kv_heads, self.qk_depth, self.dtype)
        v = "tensor<?x?x%dx%dx%s>" % (self.num_kv_heads, self.ov_depth, self.dtype)
        o = "tensor<?x?x%dx%dx%s>" % (self.num_q_heads, self.ov_depth, self.dtype)
        lse = "tensor<?x%dx?xf32>" % self.num_q_heads
        results = "%s, %s" % (o, lse) if self.lse else o
        values = "%o, %lse" if self.lse else "%o"
        sinks_arg, sinks_operand = self._sinks()
        return ("func.func @%s(%%q: %s, %%k: %s, %%v: %s%s) -> (%s) {\n"
                "  %s = attn.attention %%q, %%k, %%v%s {%s} : %s, %s, %s -> %s\n"
                "  return %s : %s\n}\n"
                % (name, q, k, v, sinks_arg, results, values, sinks_operand,
                   self._attrs(), q, k, v, results, values, results))

    def _backward_mlir(self, name):
        """The attn.attention_backward function: dO, Q, K, V, O, LSE to dQ,
        dK, dV, sizes dynamic."""
        def bshd(heads, depth):
            return "tensor<?x?x%dx%dx%s>" % (heads, depth, self.dtype)
        q = bshd(self.num_q_heads, self.qk_depth)
        k = bshd(self.num_kv_heads, self.qk_depth)
        v = bshd(self.num_kv_heads, self.ov_depth)
        o = bshd(self.num_q_heads, self.ov_depth)
        lse = "tensor<?x%dx?xf32>" % self.num_q_heads
        operands = "%s, %s, %s, %s, %s, %s" % (o, q, k, v, o, lse)
        results = "%s, %s, %s" % (q, k, v)
        return ("func.func @%s(%%do: %s, %%q: %s, %%k: %s, %%v: %s, %%o: %s, "
                "%%lse: %s) -> (%s) {\n"
                "  %%dq, %%dk, %%dv = attn.attention_backward %%do, %%q, %%k, "
                "%%v, %%o, %%lse {%s} : %s -> %s\n"
                "  return %%dq, %%dk, %%dv : %s\n}\n"
                % (name, o, q, k, v, o, lse, results, self._attrs(), operands,
                   results, results))

    def _sinks(self):
        """The function's sinks argument and the op's sinks operand (f32
        [Hq]), or nothing."""
        if not self.sinks:
            return "", ""
        sinks = "tensor<%dxf32>" % self.num_q_heads
        return ", %%s: %s" % sinks, " sinks(%%s : %s)" % sinks


    def _attrs(self):
        """The op's attributes: its mask, and its scale and softcap where
        given."""
        if self.mask == "window":
            mask = "#attn.mask<window(%d, %d)>" % self.window
        else:
            mask = "#attn.mask<%s>" % self.mask
        attrs = ["mask = " + mask]
        if self.scale is not None:
            # The float's exact bits, so the kernel applies this scale.
            attrs.append("scale = %s : f32" % _f32_literal(self.scale))
        if self.softcap is not None:
            attrs.append("softcap = %s : f32" % _f32_literal(self.softcap))
        return ", ".join(attrs)

    def _serving_mlir(self, name):
        hq, hkv, dqk, dv, dt = (self.num_q_heads, self.num_kv_heads,
                                self.qk_depth, self.ov_depth, self.dtype)
        packed_q = self.form != "paged"
        if packed_q:
            q = "tensor<?x%dx%dx%s>" % (hq, dqk, dt)
            o = "tensor<?x%dx%dx%s>" % (hq, dv, dt)
            lse = "tensor<%dx?xf32>" % hq
        else:
            q = "tensor<?x?x%dx%dx%s>" % (hq, dqk, dt)
            o = "tensor<?x?x%dx%dx%s>" % (hq, dv, dt)
            lse = "tensor<?x%dx?xf32>" % hq
        index = "tensor<?xi32>"
        if self.form.startswith("varlen"):
            k = "tensor<?x%dx%dx%s>" % (hkv, dqk, dt)
            v = "tensor<?x%dx%dx%s>" % (hkv, dv, dt)
            args = ["%%q: %s" % q, "%%k: %s" % k, "%%v: %s" % v,
                    "%%cq: %s" % index, "%%ck: %s" % index]
            op = ("attn.varlen_attention %%q, %%k, %%v cu_seqlens(%%cq, %%ck : "
                  "%s, %s)" % (index, index))
            if self.form == "varlen_seqused":
                args.append("%%su: %s" % index)
                op += " seqused_k(%%su : %s)" % index
        else:
            k = "tensor<?x%dx%dx%dx%s>" % (self.page_size, hkv, dqk, dt)
            v = "tensor<?x%dx%dx%dx%s>" % (self.page_size, hkv, dv, dt)
            table = "tensor<?x?xi32>"
            args = ["%%q: %s" % q, "%%k: %s" % k, "%%v: %s" % v,
                    "%%bt: %s" % table, "%%sk: %s" % index]
            op = ("attn.paged_attention %%q, %%k, %%v block_table(%%bt : %s) "
                  "seqlens_k(%%sk : %s)" % (table, index))
            if packed_q:
                args.append("%%cq: %s" % index)
                op += " cu_seqlens_q(%%cq : %s)" % index
        sinks_arg, sinks_operand = self._sinks()
        if self.sinks:
            args.append(sinks_arg[2:])
            op += sinks_operand
        results = "%s, %s" % (o, lse) if self.lse else o
        values = "%o, %lse" if self.lse else "%o"
        return ("func.func @%s(%s) -> (%s) {\n"
                "  %s = %s {%s} : %s, %s, %s -> %s\n"
                "  return %s : %s\n}\n"
                % (name, ", ".join(args), results, values, op, self._attrs(),
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


class _Unusable(Exception):
    """An entry that is there but cannot be used; the message says why."""


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_json(path, what):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError) as error:  # UnicodeError, JSONDecodeError
        raise _Unusable("its %s cannot be read (%s)" % (what, error))


def _kernel_prefixes(problem):
    """The kernel names `problem.kernel` may give on its chip (the entry
    symbols fa4-compile writes: fa4_hopper_*, fa4_blackwell_*, fa4_ref_*)."""
    if problem.kernel == "hopper":
        return ("fa4_hopper_",)
    if problem.kernel == "blackwell":
        return ("fa4_blackwell_",)
    if problem.kernel == "reference":
        return ("fa4_ref_",)
    # auto: the backward pass has the reference kernel alone (issue 63).
    if problem.backward:
        return ("fa4_ref_bwd_",)
    # auto: the chip's kernel, or the reference kernel for the plans it does
    # not implement: the serving forms' gathered pages and decode plans, and
    # MLA on sm_100a.
    if problem.chip == "sm_90a":
        if problem.form != "dense":
            return ("fa4_hopper_", "fa4_ref_")
        return ("fa4_hopper_",)
    if problem.chip == "sm_100a":
        return ("fa4_blackwell_", "fa4_ref_")
    return ("fa4_ref_",)


def _check_manifest(manifest, problem, where="manifest"):
    """Raises _Unusable unless `manifest` (parsed manifest.json) describes
    `problem`, all of it, its decode variant's too."""
    if not isinstance(manifest, dict):
        raise _Unusable("its %s is not a JSON object" % where)

    def field(path):
        value = manifest
        for name in path.split("."):
            if not isinstance(value, dict) or name not in value:
                raise _Unusable("its %s has no %s" % (where, path))
            value = value[name]
        return value

    def expect(path, wanted):
        found = field(path)
        # Strict types: true is not 1, 1.0 is not 1.
        if type(found) is not type(wanted) or found != wanted:
            raise _Unusable("its %s has %s %s; asked for %s"
                            % (where, path, json.dumps(found),
                               json.dumps(wanted)))

    expect("chip", problem.chip)
    kernel = field("kernel")
    prefixes = _kernel_prefixes(problem)
    if not (isinstance(kernel, str) and kernel.startswith(prefixes) and
            kernel.endswith("_" + problem.chip)):
        raise _Unusable("its %s has kernel %s; asked for kernel=%s on %s (%s*)"
                        % (where, json.dumps(kernel), problem.kernel,
                           problem.chip, "*, ".join(prefixes)))
    expect("problem.dtype", problem.dtype)
    expect("problem.num_q_heads", problem.num_q_heads)
    expect("problem.num_kv_heads", problem.num_kv_heads)
    expect("problem.qk_depth", problem.qk_depth)
    expect("problem.ov_depth", problem.ov_depth)
    expect("problem.mask.kind", problem.mask)
    if problem.mask == "window":
        expect("problem.mask.window_left", problem.window[0])
        expect("problem.mask.window_right", problem.window[1])
    expect("problem.has_lse", problem.lse)
    expect("problem.batch", -1)
    expect("problem.seq_kv", -1)
    if problem.form != "dense":
        expect("problem.sequences",
               "paged" if problem.form.startswith("paged") else "packed")
        expect("problem.packed_queries", problem.form != "paged")
        if problem.page_size:
            expect("problem.page_size", problem.page_size)
    elif "sequences" in field("problem"):
        raise _Unusable("its %s is a serving form's; asked for dense "
                        "attention" % where)
    # The scale as the kernel applies it: f32 bits (the default is written
    # as the double 1/sqrt(qk_depth), an explicit scale as its f32 value).
    scale = field("problem.scale")
    wanted = (1.0 / math.sqrt(problem.qk_depth) if problem.scale is None
              else problem.scale)
    if _json_f32_bits(scale) != _f32_bits(wanted):
        raise _Unusable("its %s has problem.scale %s; asked for %r (f32 "
                        "0x%08X)" % (where, json.dumps(scale), wanted,
                                     _f32_bits(wanted)))
    softcap = field("problem").get("softcap")
    if problem.softcap is None and softcap is not None:
        raise _Unusable("its %s has problem.softcap %s; asked for none"
                        % (where, json.dumps(softcap)))
    if (problem.softcap is not None and
            _json_f32_bits(softcap) != _f32_bits(problem.softcap)):
        raise _Unusable("its %s has problem.softcap %s; asked for %r"
                        % (where, json.dumps(softcap), problem.softcap))
    passes = field("problem").get("pass", "forward")
    if passes != ("backward" if problem.backward else "forward"):
        raise _Unusable("its %s has problem.pass %s; asked for the %s pass"
                        % (where, json.dumps(passes), "backward"
                           if problem.backward else "forward"))
    sinks = field("problem").get("sinks", False)
    if sinks is not problem.sinks:
        raise _Unusable("its %s has problem.sinks %s; asked for %s"
                        % (where, json.dumps(sinks), json.dumps(problem.sinks)))
    decode = manifest.get("decode")
    if decode is not None:
        if not isinstance(decode, dict):
            raise _Unusable("its %s has a decode that is not an object"
                            % where)
        # The decode variant is the same attention, planned for few rows.
        _check_manifest(decode.get("manifest"), problem, where + " (decode)")
    else:
        expect("problem.seq_q", -1)


def _usable(directory, problem, wanted_compiler):
    """The manifest path of the entry at `directory` if it can be used for
    `problem`: whole, written for `problem` (and, when a compiler is given,
    by that compiler), its files unchanged and its manifest describing
    `problem`. None when there is no entry; _Unusable when there is one
    that cannot be used."""
    if not os.path.lexists(directory):
        return None
    if not os.path.isdir(directory):
        raise _Unusable("it is not a directory")
    record_path = os.path.join(directory, "entry.json")
    if not os.path.lexists(record_path):
        raise _Unusable("it has no entry.json")
    record = _read_json(record_path, "entry.json")
    if not (isinstance(record, dict) and
            isinstance(record.get("problem"), dict) and
            isinstance(record.get("compiler"), (str, type(None))) and
            isinstance(record.get("files", {}), dict)):
        raise _Unusable("its entry.json is not an fa4 cache record")
    if record.get("layout") != _LAYOUT_VERSION:
        raise _Unusable("its entry.json has layout %s; expected %d"
                        % (json.dumps(record.get("layout")), _LAYOUT_VERSION))
    if record["problem"] != problem.as_dict():
        raise _Unusable("its entry.json is for another problem, %s"
                        % json.dumps(record["problem"], sort_keys=True))
    if wanted_compiler is not None and record["compiler"] != wanted_compiler:
        raise _Unusable("another fa4-compile wrote it")
    manifest = _manifest_of(directory)
    if manifest is None:
        raise _Unusable("it has no manifest.json")
    # The files as written (entries of older fa4 have no list: their
    # manifest is still checked below).
    for name, digest in sorted(record.get("files", {}).items()):
        if os.path.isabs(name) or ".." in name.split(os.sep):
            raise _Unusable("its entry.json lists the file %r" % (name,))
        try:
            same = _sha256(os.path.join(directory, name)) == digest
        except OSError as error:
            raise _Unusable("its %s cannot be read (%s)" % (name, error))
        if not same:
            raise _Unusable("its %s changed since it was written (SHA-256)"
                            % name)
    described = _read_json(manifest, "manifest.json")
    _check_manifest(described, problem)
    binary = described.get("binary")
    binary = os.path.join(os.path.dirname(manifest), str(
        binary.get("file", "") if isinstance(binary, dict) else ""))
    if not os.path.isfile(binary) or os.path.getsize(binary) == 0:
        raise _Unusable("its kernel binary %s is missing or empty" % binary)
    return manifest


def _directory_error(root, action, error):
    """The Fa4Error for a cache directory fa4 cannot write."""
    return Fa4Error(
        "kernel cache %s: cannot %s (%s); set FA4_CACHE_DIR to a directory "
        "you can write (or, for a kernel pack, fill it where you can write "
        "and copy it)" % (root, action,
                          getattr(error, "strerror", None) or error),
        FA4_ERROR_INVALID_ARGUMENT)


def _remove(path):
    """Removes an entry, a link to one, or a file in its place."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def _install(problem, compiler, scratch, target):
    """Records what fa4-compile wrote into `scratch` and renames it into
    place at `target`, moving whatever was there aside first."""
    files = {}
    for base, _, names in os.walk(scratch):
        for name in names:
            path = os.path.join(base, name)
            files[os.path.relpath(path, scratch)] = _sha256(path)
    with open(os.path.join(scratch, "entry.json"), "w") as f:
        json.dump({"problem": problem.as_dict(), "compiler": compiler,
                   "layout": _LAYOUT_VERSION, "files": files}, f,
                  sort_keys=True)
    stale = None
    if os.path.lexists(target):
        stale = target + ".stale." + os.path.basename(scratch)
        os.rename(target, stale)
    os.rename(scratch, target)
    if stale:
        _remove(stale)


def entry(problem, fa4_compile=None, directory=None, compile_fn=None):
    """The manifest.json of `problem`'s kernel in the cache, compiling it
    (with `compile_fn(problem, out_dir)`, which runs fa4-compile) when it
    is missing, stale or unusable. `fa4_compile`: the compiler's path, or
    None where there is none (only entries already there, that describe
    `problem`, can be used)."""
    root = directory or cache_dir()
    if os.path.exists(root) and not os.path.isdir(root):
        raise Fa4Error(
            "kernel cache %s is not a directory; set FA4_CACHE_DIR to a "
            "directory (a kernel pack, or where fa4 may compile kernels)"
            % root, FA4_ERROR_INVALID_ARGUMENT)
    key = problem_key(problem)
    target = os.path.join(root, key)
    wanted = compiler_id(fa4_compile) if fa4_compile else None
    try:
        found = _usable(target, problem, wanted)
    except _Unusable as error:
        if not fa4_compile:
            raise Fa4Error(
                "kernel cache entry %s cannot be used for %s: %s. Remove it "
                "and rebuild the kernel pack (python -m fa4.pack), or install "
                "fa4-compile so that fa4 rebuilds it"
                % (target, json.dumps(problem.as_dict(), sort_keys=True),
                   error), FA4_ERROR_INVALID_ARGUMENT)
        found = None
    if found:
        return found
    if not fa4_compile:
        raise Fa4Error(
            "no kernel for %s in %s and no fa4-compile to build one (set "
            "FA4_CACHE_DIR to a kernel pack, or install the compiler)"
            % (json.dumps(problem.as_dict(), sort_keys=True), root),
            FA4_ERROR_INVALID_ARGUMENT)
    try:
        os.makedirs(root, exist_ok=True)
    except OSError as error:
        raise _directory_error(root, "create it", error)
    # Said before the lock, which could otherwise wait on a file it can
    # never create.
    if not os.access(root, os.W_OK | os.X_OK):
        raise _directory_error(root, "write in it", "permission denied")
    lock = _lock(target + ".lock")
    try:
        lock.acquire()
    except OSError as error:
        raise _directory_error(root, "create the lock %s.lock" % target, error)
    try:
        try:
            found = _usable(target, problem, wanted)
        except _Unusable:
            found = None
        if found:
            return found
        try:
            scratch = tempfile.mkdtemp(prefix=key + ".", suffix=".tmp",
                                       dir=root)
        except OSError as error:
            raise _directory_error(root, "create an entry", error)
        try:
            compile_fn(problem, scratch)
            try:
                _install(problem, wanted, scratch, target)
            except OSError as error:
                raise _directory_error(root, "write the entry %s" % target,
                                       error)
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        try:
            return _usable(target, problem, wanted)
        except _Unusable as error:
            raise Fa4Error(
                "fa4-compile (%s) wrote %s, which cannot be used for %s: %s"
                % (fa4_compile, target,
                   json.dumps(problem.as_dict(), sort_keys=True), error),
                FA4_ERROR_INVALID_ARGUMENT)
    finally:
        lock.release()
