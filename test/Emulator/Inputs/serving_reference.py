#!/usr/bin/env python3
"""The serving forms' kernels on fa4-emu, against attention computed here
in plain Python (no numpy, no torch, no GPU).

  serving_reference.py OUT FA4_COMPILE CHIP [KERNEL]

KERNEL "reference" (the default) compiles with kernel=reference; "auto"
with the chip's kernel where it serves the form (the Hopper kernel takes
packed sequences), adding cases whose sequences span several row blocks
and K/V tiles. Each case's line names the kernel that ran.

FA4_COMPILE "prebuilt" takes the kernels an earlier run compiled into OUT
(on a GPU machine without the compiler: bench/serving/device.sh).

For each case: writes an attn.varlen_attention or attn.paged_attention
function, compiles it with fa4-compile (PTX only), launches the kernel
through the runtime (fa4_launch_serving, libfa4rt over the driver that
FA4_CUDA_DRIVER_PATH names: fa4-emu), and compares O and LSE row by row.
O starts poisoned (NaN), so a row the kernel skips fails, and the padding
tokens past the last sequence must stay NaN. Then the runtime's refusals
of malformed serving arguments. Prints one line per case and a summary.
"""
import ctypes
import json
import math
import os
import random
import struct
import subprocess
import sys

import fa4.runtime as rt

OUT, COMPILER, CHIP = sys.argv[1:4]
KERNEL = sys.argv[4] if len(sys.argv) > 4 else "reference"
os.makedirs(OUT, exist_ok=True)
lib = rt.library()
lib.fa4_device_alloc.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
lib.fa4_copy_to_device.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
lib.fa4_copy_to_host.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
DTYPES = {"bf16": rt.FA4_DTYPE_BF16, "f32": rt.FA4_DTYPE_F32,
          "i32": rt.FA4_DTYPE_I32}


def check(status, what):
    if status != 0:
        raise SystemExit(f"{what}: {lib.fa4_last_error().decode()}")


def bf16_bits(x):
    """Round to nearest even bf16."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(h):
    return struct.unpack("<f", struct.pack("<I", h << 16))[0]


class Buffer:
    """Device memory holding `raw` bytes."""

    def __init__(self, raw):
        self.size = len(raw)
        self.pointer = ctypes.c_void_p()
        check(lib.fa4_device_alloc(max(self.size, 4), ctypes.byref(self.pointer)),
              "fa4_device_alloc")
        check(lib.fa4_copy_to_device(self.pointer, raw, self.size),
              "fa4_copy_to_device")

    def read(self):
        raw = ctypes.create_string_buffer(self.size)
        check(lib.fa4_copy_to_host(raw, self.pointer, self.size),
              "fa4_copy_to_host")
        return raw.raw


class Tensor:
    """A row-major tensor: bf16 values (as their bf16 roundings), i32 or f32."""

    def __init__(self, shape, dtype, values):
        self.shape, self.dtype, self.values = list(shape), dtype, values

    def strides(self):
        strides, step = [], 1
        for size in reversed(self.shape):
            strides.insert(0, step)
            step *= size
        return strides

    def raw(self):
        if self.dtype == "bf16":
            return struct.pack(f"<{len(self.values)}H",
                               *(bf16_bits(v) for v in self.values))
        code = "i" if self.dtype == "i32" else "f"
        return struct.pack(f"<{len(self.values)}{code}", *self.values)


def random_bf16(rng, count):
    return [bf16_value(bf16_bits(rng.gauss(0.0, 1.0))) for _ in range(count)]


def visible(row, sq, skv, mask):
    """Keys [first, end) that row `row` of a sequence of sq rows and skv keys
    sees, bottom-right aligned."""
    diagonal = row + skv - sq
    first, last = 0, skv - 1
    if mask[0] == "causal":
        last = min(last, diagonal)
    if mask[0] == "window":
        left, right = mask[1], mask[2]
        if right >= 0:
            last = min(last, diagonal + right)
        if left >= 0:
            first = max(first, diagonal - left)
    return first, max(last + 1, first)


def reference_row(query, keys, values, scale):
    """Softmax(q k^T scale) v and the natural-log LSE of one row."""
    if not keys:
        return [0.0] * len(values and values[0] or []), -math.inf
    scores = [scale * sum(a * b for a, b in zip(query, key)) for key in keys]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    out = [sum(w * value[c] for w, value in zip(weights, values)) / total
           for c in range(len(values[0]))]
    return out, top + math.log(total)


def mask_attr(mask):
    if mask[0] == "none":
        return ""
    if mask[0] == "causal":
        return "mask = #attn.mask<causal>"
    return f"mask = #attn.mask<window({mask[1]}, {mask[2]})>"


def compile_case(name, text):
    """The manifest of case `name`'s kernel, compiled from `text`."""
    path = os.path.join(OUT, name + ".mlir")
    if COMPILER != "prebuilt":
        with open(path, "w") as f:
            f.write(text)
        subprocess.run([COMPILER, path, f"--chip={CHIP}", "--ptxas=none",
                        f"--kernel={KERNEL}", "-o", os.path.join(OUT, name),
                        "--quiet"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    kernels = [k for k in sorted(os.listdir(os.path.join(OUT, name)))
               if os.path.exists(os.path.join(OUT, name, k, "manifest.json"))]
    if len(kernels) != 1:
        raise SystemExit(f"{name}: one kernel expected, found {kernels}")
    return os.path.join(OUT, name, kernels[0], "manifest.json")


def serving_args(tensors, max_seqlen_q, buffers):
    """fa4_serving_args over `buffers` (name -> Buffer) laid out as
    `tensors` (name -> Tensor); the caches go in k and v."""
    args = rt.fa4_serving_args()
    slots = {"q": args.attention.q, "k": args.attention.k,
             "k_cache": args.attention.k, "v": args.attention.v,
             "v_cache": args.attention.v, "o": args.attention.o,
             "lse": args.attention.lse, "cu_seqlens_q": args.cu_seqlens_q,
             "cu_seqlens_k": args.cu_seqlens_k, "seqused_k": args.seqused_k,
             "block_table": args.block_table, "seqlens_k": args.seqlens_k}
    for name, tensor in tensors.items():
        slot = slots[name]
        slot.data = buffers[name].pointer.value
        slot.dtype = DTYPES[tensor.dtype]
        slot.rank = len(tensor.shape)
        for d, (size, stride) in enumerate(zip(tensor.shape, tensor.strides())):
            slot.shape[d], slot.strides[d] = size, stride
    args.max_seqlen_q = max_seqlen_q
    return args


def launch(manifest_path, tensors, max_seqlen_q):
    """Runs the kernel through the runtime; returns O's and LSE's bytes and
    the module and buffers, for the refusal checks."""
    module = rt._module_p()
    check(lib.fa4_module_load(manifest_path.encode(), ctypes.byref(module)),
          "fa4_module_load")
    # A persistent kernel on 3 CTAs: each walks many work tiles, and in a
    # ragged batch skips the row blocks past its sequences' rows.
    check(lib.fa4_module_set_persistent_ctas(module, PERSISTENT_CTAS),
          "fa4_module_set_persistent_ctas")
    buffers = {name: Buffer(t.raw()) for name, t in tensors.items()}
    args = serving_args(tensors, max_seqlen_q, buffers)
    # A split decode runs on a workspace of the caller's (NaN-filled: the
    # kernel writes every partial the combine reads), as fa4's Python passes
    # one from torch's allocator; the garbage relaunch lets the runtime
    # allocate its own.
    size = ctypes.c_uint64()
    check(lib.fa4_serving_workspace_bytes(module, ctypes.byref(args),
                                          ctypes.byref(size)),
          "fa4_serving_workspace_bytes")
    workspace = Buffer(b"\xff" * size.value) if size.value else None
    if workspace:
        workspace_launches.append(
            f"{os.path.basename(os.path.dirname(manifest_path))}: "
            f"{size.value} bytes")
    check(lib.fa4_launch_serving_workspace(
        module, ctypes.byref(args),
        workspace.pointer if workspace else None, None),
        "fa4_launch_serving_workspace")
    check(lib.fa4_stream_synchronize(None), "fa4_stream_synchronize")
    out = {name: buffers[name].read() for name in ("o", "lse") if name in buffers}
    return out, module, args


def run_case(name, rng, lengths_q, lengths_k, hq, hkv, d, mask, paged=None,
             packed_q=True, seqused=None, lse=True, padding=3,
             dynamic_q=False, spare_pages=1, malformed=False):
    """One case: sequences of lengths_q rows and lengths_k keys; `paged` a
    page size (K/V in a shuffled paged cache) or None (packed varlen K/V);
    `dynamic_q`: dense queries of dynamic B and Sq in the op, as fa4's
    Python writes them (a static Sq may plan a split); `spare_pages` block
    table columns past the longest sequence's pages (0: a kernel reading
    past a full row reads past the table, which fa4-emu reports);
    `malformed`: then launched again with garbage index data (offsets past
    the tensors and negative, huge key counts, page numbers outside the
    cache), which must run without an access fa4-emu reports."""
    b = len(lengths_q)
    scale = 1.0 / math.sqrt(d)
    cu_q = [0]
    for n in lengths_q:
        cu_q.append(cu_q[-1] + n)
    tq = cu_q[-1] + padding  # padding tokens no sequence owns
    used_k = seqused if seqused else lengths_k
    tensors, sizes = {}, {"b": b, "hq": hq, "hkv": hkv}
    if packed_q:
        q = Tensor([tq, hq, d], "bf16", random_bf16(rng, tq * hq * d))
        sizes.update(tq=tq, max_sq=max(lengths_q))
        tensors["cu_seqlens_q"] = Tensor([b + 1], "i32", cu_q)

        def q_row(seq, row, head):
            base = ((cu_q[seq] + row) * hq + head) * d
            return q.values[base:base + d]
    else:
        sq = lengths_q[0]
        q = Tensor([b, sq, hq, d], "bf16", random_bf16(rng, b * sq * hq * d))
        sizes["sq"] = sq

        def q_row(seq, row, head):
            base = ((seq * sq + row) * hq + head) * d
            return q.values[base:base + d]
    tensors["q"] = q
    if paged is None:
        cu_k = [0]
        for n in lengths_k:
            cu_k.append(cu_k[-1] + n)
        tk = cu_k[-1] + 1
        k = Tensor([tk, hkv, d], "bf16", random_bf16(rng, tk * hkv * d))
        v = Tensor([tk, hkv, d], "bf16", random_bf16(rng, tk * hkv * d))
        tensors.update(k=k, v=v, cu_seqlens_k=Tensor([b + 1], "i32", cu_k))
        if seqused:
            tensors["seqused_k"] = Tensor([b], "i32", seqused)
        sizes["tk"] = tk

        def kv_row(t, seq, key, head):
            base = ((cu_k[seq] + key) * hkv + head) * d
            return t.values[base:base + d]
        keys_of = lambda seq: used_k[seq]
        decl_k = f"tensor<?x{hkv}x{d}xbf16>"
    else:
        max_pages = max(-(-n // paged) for n in lengths_k) + spare_pages
        pages = b * max_pages + 2
        order = list(range(pages))
        rng.shuffle(order)
        table = [order[s * max_pages + p] for s in range(b)
                 for p in range(max_pages)]
        k = Tensor([pages, paged, hkv, d], "bf16",
                   random_bf16(rng, pages * paged * hkv * d))
        v = Tensor([pages, paged, hkv, d], "bf16",
                   random_bf16(rng, pages * paged * hkv * d))
        # Rows no sequence holds (past a sequence's last key in its last
        # page, pages no sequence uses) are NaN, as a cache's stale or
        # uninitialised rows may be: the kernel must not let them reach O.
        held = {(table[seq * max_pages + key // paged], key % paged)
                for seq in range(b) for key in range(lengths_k[seq])}
        row_values = hkv * d
        for page in range(pages):
            for row in range(paged):
                if (page, row) not in held:
                    start = (page * paged + row) * row_values
                    for t in (k, v):
                        t.values[start:start + row_values] = (
                            [math.nan] * row_values)
        tensors.update(k_cache=k, v_cache=v,
                       block_table=Tensor([b, max_pages], "i32", table),
                       seqlens_k=Tensor([b], "i32", lengths_k))
        sizes.update(pages=pages, max_pages=max_pages)

        def kv_row(t, seq, key, head):
            page = table[seq * max_pages + key // paged]
            base = ((page * paged + key % paged) * hkv + head) * d
            return t.values[base:base + d]
        keys_of = lambda seq: lengths_k[seq]
        decl_k = f"tensor<?x{paged}x{hkv}x{d}xbf16>"
    o_shape = q.shape
    o_count = 1
    for size in o_shape:
        o_count *= size
    poisoned = struct.pack("<H", 0x7FC0) * o_count
    lse_shape = [hq, tq] if packed_q else [b, hq, lengths_q[0]]
    lse_count = hq * tq if packed_q else b * hq * lengths_q[0]

    class Raw(Tensor):
        def __init__(self, shape, raw, dtype):
            super().__init__(shape, dtype, [])
            self._raw = raw

        def raw(self):
            return self._raw
    tensors["o"] = Raw(o_shape, poisoned, "bf16")
    if lse:
        tensors["lse"] = Raw(lse_shape, struct.pack("<f", math.nan) * lse_count,
                             "f32")

    # The op.
    dense_b, dense_sq = ("?", "?") if dynamic_q else (b, lengths_q[0])
    q_type = ("tensor<?x%dx%dxbf16>" % (hq, d) if packed_q else
              "tensor<%sx%sx%dx%dxbf16>" % (dense_b, dense_sq, hq, d))
    lse_type = ("tensor<%dx?xf32>" % hq if packed_q else
                "tensor<%sx%dx%sxf32>" % (dense_b, hq, dense_sq))
    results = f"{q_type}, {lse_type}" if lse else q_type
    attrs = "{" + mask_attr(mask) + "}" if mask[0] != "none" else ""
    i32 = lambda n: f"tensor<{n}xi32>"
    if paged is None:
        args = (f"%q: {q_type}, %k: {decl_k}, %v: {decl_k}, "
                f"%cq: {i32(b + 1)}, %ck: {i32(b + 1)}")
        used = ""
        if seqused:
            args += f", %su: {i32(b)}"
            used = f" seqused_k(%su : {i32(b)})"
        op = (f"attn.varlen_attention %q, %k, %v cu_seqlens(%cq, %ck : "
              f"{i32(b + 1)}, {i32(b + 1)}){used} {attrs} : {q_type}, "
              f"{decl_k}, {decl_k} -> {results}")
    else:
        bt = f"tensor<{b}x{sizes['max_pages']}xi32>"
        args = (f"%q: {q_type}, %k: {decl_k}, %v: {decl_k}, %bt: {bt}, "
                f"%sk: {i32(b)}")
        packed = ""
        if packed_q:
            args += f", %cq: {i32(b + 1)}"
            packed = f" cu_seqlens_q(%cq : {i32(b + 1)})"
        op = (f"attn.paged_attention %q, %k, %v block_table(%bt : {bt}) "
              f"seqlens_k(%sk : {i32(b)}){packed} {attrs} : {q_type}, "
              f"{decl_k}, {decl_k} -> {results}")
    names = "%o, %l" if lse else "%o"
    text = (f"func.func @{name}({args}) -> ({results}) {{\n"
            f"  {names} = {op}\n  return {names} : {results}\n}}\n")
    manifest_path = compile_case(name, text)
    out, module, args = launch(manifest_path, tensors,
                               max(lengths_q) if packed_q else 0)
    refusals.extend(refusals_of(module, args, tensors))
    if malformed:
        malformed_runs.append(f"{name}: " + survives_garbage(
            manifest_path, tensors, max(lengths_q) if packed_q else 0))

    o_bits = struct.unpack(f"<{o_count}H", out["o"])
    lse_values = struct.unpack(f"<{lse_count}f", out["lse"]) if lse else None
    worst, worst_lse, bad = 0.0, 0.0, 0
    group = hq // hkv
    for seq in range(b):
        sq_seq, skv_seq = lengths_q[seq], keys_of(seq)
        for row in range(sq_seq):
            first, end = visible(row, sq_seq, skv_seq, mask)
            for head in range(hq):
                kv_head = head // group
                keys = [kv_row(k, seq, j, kv_head) for j in range(first, end)]
                values = [kv_row(v, seq, j, kv_head) for j in range(first, end)]
                want, want_lse = reference_row(q_row(seq, row, head), keys,
                                               values, scale)
                if not keys:
                    want = [0.0] * d
                token = (cu_q[seq] + row) if packed_q else (seq * sq_seq + row)
                got = [bf16_value(h) for h in
                       o_bits[(token * hq + head) * d:(token * hq + head + 1) * d]]
                for g, w in zip(got, want):
                    error = abs(g - w)
                    if not error <= 8e-3 + 8e-3 * abs(w):  # NaN fails too
                        bad += 1
                    worst = max(worst, error if error == error else math.inf)
                if lse:
                    index = (head * tq + token if packed_q else
                             (seq * hq + head) * sq_seq + row)
                    g = lse_values[index]
                    if want_lse == -math.inf:
                        bad += g != -math.inf
                    else:
                        error = abs(g - want_lse)
                        bad += not error <= 1e-4 + 1e-5 * abs(want_lse)
                        worst_lse = max(worst_lse, error if error == error
                                        else math.inf)
    untouched = 0
    if packed_q:  # the padding tokens keep their poison
        first_pad = cu_q[-1] * hq * d
        untouched = sum(h != 0x7FC0 for h in o_bits[first_pad:])
        bad += untouched
    kernel = os.path.basename(os.path.dirname(manifest_path))
    print(f"{name} ({kernel}): b={b} sq={lengths_q} skv={lengths_k} "
          f"{'page ' + str(paged) if paged else 'packed kv'} "
          f"max|o-ref|={worst:.2e} max|lse-ref|={worst_lse:.2e} "
          f"padding_written={untouched} {'ok' if bad == 0 else 'BAD'}")
    return bad == 0


refusals = []
malformed_runs = []
workspace_launches = []
PERSISTENT_CTAS = 3


def survives_garbage(manifest_path, tensors, max_seqlen_q):
    """Launches the kernel on `tensors` with every index tensor's values
    replaced by garbage of alternating sign and past every tensor's end;
    "survived" where the launch and the stream complete (fa4-emu fails a
    launch at the first access outside an allocation)."""
    garbage = {}
    for name, tensor in tensors.items():
        if tensor.dtype != "i32":
            garbage[name] = tensor
            continue
        count = len(tensor.values)
        values = [(2 ** 31 - 1 - 977 * i) * (-1 if i % 3 == 1 else 1)
                  if i % 2 else 4096 + 131 * i for i in range(count)]
        garbage[name] = Tensor(tensor.shape, "i32", values)
    module = rt._module_p()
    check(lib.fa4_module_load(manifest_path.encode(), ctypes.byref(module)),
          "fa4_module_load")
    buffers = {name: Buffer(t.raw()) for name, t in garbage.items()}
    args = serving_args(garbage, max_seqlen_q, buffers)
    status = lib.fa4_launch_serving(module, ctypes.byref(args), None)
    if status == 0:
        status = lib.fa4_stream_synchronize(None)
    return "survived" if status == 0 else (
        "BAD " + lib.fa4_last_error().decode())


def refusals_of(module, args, tensors):
    """What fa4_validate_serving says of the case's arguments made wrong
    one at a time (restored after each)."""
    said = []

    def refused(what):
        status = lib.fa4_validate_serving(module, ctypes.byref(args))
        said.append(f"{what}: " + (lib.fa4_last_error().decode()
                                    if status else "accepted"))
    if "cu_seqlens_q" in tensors:
        saved = args.max_seqlen_q
        args.max_seqlen_q = 0
        refused("max_seqlen_q 0")
        args.max_seqlen_q = saved
        args.cu_seqlens_q.dtype = rt.FA4_DTYPE_F32
        refused("cu_seqlens_q f32")
        args.cu_seqlens_q.dtype = rt.FA4_DTYPE_I32
        args.cu_seqlens_q.shape[0] += 1
        refused("cu_seqlens_q one entry longer")
        args.cu_seqlens_q.shape[0] -= 1
    if "block_table" in tensors:
        data = args.block_table.data
        args.block_table.data = None
        refused("no block_table")
        args.block_table.data = data
    if "seqused_k" not in tensors and "cu_seqlens_k" in tensors:
        args.seqused_k = args.cu_seqlens_k
        refused("a seqused_k the kernel does not take")
        args.seqused_k = rt.fa4_tensor()
    return said


def main():
    rng = random.Random(20261206)
    cases = [
        # Ragged: an empty sequence, a one-row one, Sq > Skv, GQA.
        dict(name="varlen_causal", lengths_q=[5, 0, 1, 9, 3],
             lengths_k=[7, 4, 1, 4, 12], hq=4, hkv=2, d=64,
             mask=("causal",)),
        dict(name="varlen_none", lengths_q=[3, 6], lengths_k=[0, 9], hq=2,
             hkv=1, d=32, mask=("none",)),
        dict(name="varlen_window", lengths_q=[8, 2], lengths_k=[11, 2], hq=2,
             hkv=2, d=64, mask=("window", 3, 1)),
        dict(name="varlen_seqused", lengths_q=[2, 4, 1], lengths_k=[9, 6, 5],
             seqused=[4, 6, 0], hq=2, hkv=1, d=64, mask=("causal",)),
        # Paged: pages of 16 and 64, shuffled block tables, dense and
        # packed queries; decode (one row) and a few rows.
        dict(name="paged_decode", lengths_q=[1, 1, 1], lengths_k=[40, 1, 17],
             paged=16, packed_q=False, hq=4, hkv=1, d=64, mask=("none",),
             padding=0),
        dict(name="paged_spec", lengths_q=[3, 3], lengths_k=[70, 2], paged=64,
             packed_q=False, hq=2, hkv=2, d=64, mask=("causal",), padding=0),
        dict(name="paged_packed", lengths_q=[4, 0, 2], lengths_k=[20, 5, 33],
             paged=16, hq=4, hkv=2, d=32, mask=("causal",), malformed=True),
    ]
    if KERNEL == "auto":
        # Sequences over several 128-row blocks and K/V tiles, ending inside
        # them; a sequence of no keys; every mask; Dqk 128 and 64.
        cases += [
            dict(name="varlen_long_causal", lengths_q=[130, 1, 0, 200],
                 lengths_k=[200, 129, 5, 140], hq=2, hkv=1, d=128,
                 mask=("causal",)),
            dict(name="varlen_long_none", lengths_q=[129, 64, 3],
                 lengths_k=[257, 0, 96], hq=4, hkv=2, d=64, mask=("none",)),
            # Dqk 128 without a mask runs in pairs of CTAs sharing K/V
            # (kv-multicast): pairs whose second row block has no rows.
            dict(name="varlen_pairs", lengths_q=[300, 129, 0, 5],
                 lengths_k=[310, 200, 7, 0], hq=4, hkv=2, d=128,
                 mask=("none",)),
            dict(name="varlen_long_window", lengths_q=[150, 40],
                 lengths_k=[150, 300], hq=2, hkv=2, d=64,
                 mask=("window", 70, 10)),
            dict(name="varlen_long_seqused", lengths_q=[100, 140],
                 lengths_k=[300, 200], seqused=[250, 131], hq=2, hkv=1,
                 d=64, mask=("causal",), lse=False, malformed=True),
            # Paged caches whose pages hold whole K/V boxes: a tile of two
            # 64-key pages, a sequence of exactly one page and one that fills
            # its block-table row (no spare column: reading an entry past
            # its pages reads past the table), dense and packed queries.
            dict(name="paged_long_dense", lengths_q=[100, 100],
                 lengths_k=[64, 320], paged=64, packed_q=False, hq=4, hkv=1,
                 d=128, mask=("causal",), padding=0, dynamic_q=True,
                 spare_pages=0, malformed=True),
            dict(name="paged_long_packed", lengths_q=[130, 3, 0],
                 lengths_k=[260, 128, 10], paged=128, hq=2, hkv=2, d=64,
                 mask=("none",), malformed=True),
            dict(name="paged_long_window", lengths_q=[50, 200],
                 lengths_k=[600, 300], paged=256, hq=2, hkv=1, d=64,
                 mask=("window", 100, 0), lse=False),
            # Paged decode: fused GQA and the K/V tiles dealt out to the
            # partitions the launch picks, each sequence's own keys (one
            # of none, one of one key); a static one-row Sq (the decode
            # plan itself) and the decode variant of a dynamic Sq.
            dict(name="paged_split_decode", lengths_q=[1, 1, 1, 1],
                 lengths_k=[700, 1, 0, 300], paged=64, packed_q=False, hq=8,
                 hkv=2, d=128, mask=("none",), padding=0, malformed=True),
            dict(name="paged_split_variant", lengths_q=[3, 3, 3],
                 lengths_k=[129, 2, 500], paged=128, packed_q=False, hq=4,
                 hkv=1, d=64, mask=("causal",), padding=0, dynamic_q=True,
                 spare_pages=0, malformed=True),
            # Pages of 16 keys, copied by the producer's threads: a tile
            # of several pages, decode and prefill.
            dict(name="paged16_decode", lengths_q=[1, 1, 1],
                 lengths_k=[500, 17, 96], paged=16, packed_q=False, hq=8,
                 hkv=2, d=128, mask=("none",), padding=0, malformed=True),
            dict(name="paged16_prefill", lengths_q=[70, 3],
                 lengths_k=[300, 40], paged=16, hq=4, hkv=2, d=64,
                 mask=("causal",), malformed=True),
            dict(name="paged_split_window", lengths_q=[1, 1],
                 lengths_k=[1000, 257], paged=256, packed_q=False, hq=4,
                 hkv=1, d=64, mask=("window", 300, 0), padding=0,
                 lse=False),
        ]
    passed = sum(run_case(rng=rng, **case) for case in cases)
    for line in refusals:
        print("refused " + line)
    for line in malformed_runs:
        print("garbage index data, " + line)
    for line in workspace_launches:
        print("caller's workspace, " + line)
    print(f"{passed} of {len(cases)} serving cases pass on {CHIP}")
    survived = all(line.endswith("survived") for line in malformed_runs)
    return 0 if passed == len(cases) and survived else 1


if __name__ == "__main__":
    sys.exit(main())
