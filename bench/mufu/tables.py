#!/usr/bin/env python3
"""Reads the special-function tables device.sh measured (bench/mufu/h100/):
each NAME.delta.xz holds the f32 bit patterns of one table as differences
from the previous entry (the first from 0), int32 little-endian, split
into four byte planes (all low bytes, then the next ...) and xz-compressed.

  tables.py [DIR]          prints each table's size and a few facts checked
                           from it (needs numpy)
  tables.py --extract OUT  writes the tables fa4-emu reads (FA4_EMU_SFU=OUT,
                           emu/lib/Sfu.h) as raw little-endian words:
                           ex2_pos.u32 (ex2.approx.ftz at i 2^-23: every
                           other entry of `ex2`), ex2_neg.u32 (at -i 2^-23),
                           lg2_e0.u32, lg2_em1.u32 and rcp.u32; and, for
                           SfuTest, lg2_mismatch.u32 (lg2-mismatch.xz
                           decoded: the positive normal inputs where the
                           H100's lg2.approx.ftz is not rz(e + L), sorted,
                           bit 31 set where it is one ulp above; lg2.cu),
                           tanh.u32 (tanh.approx.f32 at 2^e (1 + k 2^-16),
                           e = -20..4, k < 2^16) and tanh_e0_s0.u32,
                           tanh_e1_s0.u32, tanh_em1_s0.u32, tanh_em8.u32
                           (at every fraction of their first 2^20 or 2^19
                           inputs: tanh_model/check_tanh.cu); plain Python,
                           no numpy
"""
import array
import itertools
import lzma
import os
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "h100")


def _read_planes(path, typecode):
    """PATH's xz-compressed byte planes (all low bytes, then the next ...)
    as an array of 32-bit little-endian words of TYPECODE, without numpy."""
    with open(path, "rb") as f:
        raw = lzma.decompress(f.read())
    count = len(raw) // 4
    interleaved = bytearray(len(raw))
    for plane in range(4):
        interleaved[plane::4] = raw[plane * count:(plane + 1) * count]
    words = array.array(typecode)
    words.frombytes(bytes(interleaved))
    if sys.byteorder != "little":
        words.byteswap()
    return words


def load_words(name, directory=HERE):
    """The table NAME as an array('I') of bit patterns, without numpy."""
    deltas = _read_planes(os.path.join(directory, name + ".delta.xz"), "i")
    return array.array("I", (value & 0xFFFFFFFF for value in
                             itertools.accumulate(deltas)))


def load_mismatches(directory=HERE):
    """lg2-mismatch.xz (device3.sh) as an array('I'): each word the
    difference from the previous input (low 31 bits) and the direction (bit
    31), byte planes as above; returned as the inputs themselves."""
    words = _read_planes(os.path.join(directory, "lg2-mismatch.xz"), "I")
    inputs = itertools.accumulate(word & 0x7FFFFFFF for word in words)
    return array.array("I", (value | (word & 0x80000000)
                             for value, word in zip(inputs, words)))


def extract(out, directory=HERE):
    os.makedirs(out, exist_ok=True)
    tables = {"ex2_pos": load_words("ex2", directory)[0::2],
              "ex2_neg": load_words("ex2neg", directory),
              "lg2_e0": load_words("lg2_e0", directory),
              "lg2_em1": load_words("lg2_em1", directory),
              "rcp": load_words("rcp", directory),
              "lg2_mismatch": load_mismatches(directory)}
    for name in ("tanh", "tanh_e0_s0", "tanh_e1_s0", "tanh_em1_s0",
                 "tanh_em8"):
        tables[name] = load_words(name, directory)
    for name, words in tables.items():
        if sys.byteorder != "little":
            words.byteswap()
        with open(os.path.join(out, name + ".u32"), "wb") as f:
            words.tofile(f)


def load(name, directory=HERE):
    """The table NAME as uint32 bit patterns (numpy)."""
    import numpy as np
    with open(os.path.join(directory, name + ".delta.xz"), "rb") as f:
        raw = lzma.decompress(f.read())
    planes = np.frombuffer(raw, dtype=np.uint8).reshape(4, -1).T.copy()
    delta = planes.view("<i4").reshape(-1).astype(np.int64)
    return (np.cumsum(delta) & 0xFFFFFFFF).astype(np.uint32)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--extract":
        extract(sys.argv[2])
        return
    import numpy as np
    directory = sys.argv[1] if len(sys.argv) > 1 else HERE
    ex2 = load("ex2", directory)
    # ex2.approx.ftz at i 2^-24, i < 2^24: equal pairs, so the unit reads
    # 23 fraction bits; against exp2 correctly rounded.
    pairs = bool((ex2[0::2] == ex2[1::2]).all())
    grid = np.arange(1 << 23, dtype=np.float64) / 2.0 ** 23
    exact = np.exp2(grid).astype(np.float32).view(np.int32).astype(np.int64)
    ulps = ex2[0::2].view(np.int32).astype(np.int64) - exact
    print("ex2: %d entries; reads 23 fraction bits: %s; ulps against exp2 "
          "correctly rounded: %s" % (len(ex2), pairs, {
              int(k): int((ulps == k).sum()) for k in np.unique(ulps)}))
    rcp = load("rcp", directory)
    mantissa = 1.0 + np.arange(1 << 23, dtype=np.float64) / 2.0 ** 23
    exact = (1.0 / mantissa).astype(np.float32).view(np.int32).astype(np.int64)
    ulps = rcp.view(np.int32).astype(np.int64) - exact
    print("rcp: %d entries; ulps against 1/m correctly rounded: %s" % (
        len(rcp), {int(k): int((ulps == k).sum()) for k in np.unique(ulps)}))
    for name in ("lg2_e0", "lg2_em1", "tanh"):
        print("%s: %d entries" % (name, len(load(name, directory))))


if __name__ == "__main__":
    main()
