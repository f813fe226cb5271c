#!/usr/bin/env python3
"""A model of the H100's tanh.approx.f32 (MUFU.TANH) recovered from the
measured table bench/mufu/h100/tanh.delta.xz (analysis.md). It gives the
unit's result on all 2^32 inputs (check_tanh.cu on an H100, 2026-12-07:
0 mismatches).

For |x| = 2^e (1 + f 2^-23), f the 23-bit fraction:
  e < -8           tanh(x) = x (zeros and subnormals included)
  e >= 3, or inf   tanh(x) = +-1
  -8 <= e <= 2     piecewise quadratic per binade: the top M[e] fraction bits
                   pick a segment, the next N = 17 bits (the lower ones are
                   ignored) are dx, t = dx 2^-N,
                   y = C0 + C1 t + C2 sq(t)   (integers in units of 2^(e-25))
                   sq(t) = t^2 from a folded squarer that keeps only the
                   columns of weight >= 2^-15 (cross terms 2 b_i b_j, i < j,
                   at 2^(i+j+1-2N), diagonal b_i at 2^(2i-2N)); y is exact,
                   then truncated (toward zero) to 24 significant bits.
  the sign is applied afterwards (tanh.approx is odd).
NaN inputs give the canonical NaN 0x7fffffff.

  python3 model.py        checks the model against every entry of the table
"""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Segment bits per binade e (the number of top fraction bits indexing a segment).
M = {-8: 0, -7: 0, -6: 0, -5: 1, -4: 1, -3: 2, -2: 2, -1: 2, 0: 3, 1: 4, 2: 3}
KEEP = 15  # the squarer keeps columns of t^2 of weight >= 2^-KEEP
DX_BITS = 17  # the fraction bits below the segment index that reach t


def _load_coefs():
    """The segments' (C0, C1, C2) by (e, segment), read from fa4-emu's model
    (emu/lib/TanhModel.h), whose rows say their binade and segment."""
    path = os.path.join(HERE, "..", "..", "..", "emu", "lib", "TanhModel.h")
    row = re.compile(r"\{(-?\d+), (-?\d+), (-?\d+)\}\s*/\* e (-?\d+), "
                     r"segment (\d+) \*/")
    with open(path) as f:
        coefs = {(int(e), int(seg)): (int(c0), int(c1), int(c2))
                 for c0, c1, c2, e, seg in row.findall(f.read())}
    assert len(coefs) == 51, "TanhModel.h: 51 segments expected"
    return coefs


COEFS = _load_coefs()


def folded_square(dx, n):
    """dx^2 (dx of n bits) keeping columns >= 2n - KEEP, in units of 2^(2n-KEEP)."""
    low = 2 * n - KEEP
    s = 0
    for i in range(n):
        if not (dx >> i) & 1:
            continue
        if 2 * i >= low:
            s += 1 << (2 * i)
        for j in range(i + 1, n):
            if (dx >> j) & 1 and i + j + 1 >= low:
                s += 1 << (i + j + 1)
    return s >> low


def tanh_bits(bits):
    """tanh.approx.f32 of the f32 with bit pattern BITS, as a bit pattern."""
    sign = bits & 0x80000000
    mag = bits & 0x7FFFFFFF
    if mag > 0x7F800000:           # NaN: the canonical NaN
        return 0x7FFFFFFF
    exp = mag >> 23
    frac = mag & 0x7FFFFF
    e = exp - 127
    if e < -8:                     # zeros, subnormals, |x| < 2^-8
        return bits
    if e >= 3:                     # |x| >= 8, inf
        return sign | 0x3F800000
    m = M[e]
    n = DX_BITS
    seg = frac >> (23 - m)
    dx = (frac >> (23 - m - n)) & ((1 << n) - 1)
    c0, c1, c2 = COEFS[(e, seg)]
    # f in units of 2^(e - 25 - n)
    f = (c0 << n) + c1 * dx + ((c2 * folded_square(dx, n)) << (n - KEEP))
    assert f > 0
    scale = e - 25 - n
    length = f.bit_length()
    if length > 24:
        f >>= length - 24
        scale += length - 24
    # f < 2^24, value f 2^scale, normal (value >= 2^-9)
    ebits = scale + 23 + 127 + (f.bit_length() - 24)
    f <<= 24 - f.bit_length()
    return sign | (ebits << 23) | (f & 0x7FFFFF)


def tanh(x):
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", tanh_bits(b)))[0]


def self_check():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import tables
    t = tables.load("tanh", os.path.join(HERE, "..", "h100"))
    bad = 0
    checked = 0
    for i in range(25):
        e = -20 + i
        for k in range(1 << 16):
            x = ((e + 127) << 23) | (k << 7)
            for s in (0, 0x80000000):
                want = int(t[i * 65536 + k]) | s
                got = tanh_bits(x | s)
                checked += 1
                if got != want:
                    bad += 1
                    if bad <= 8:
                        print("mismatch %08x: table %08x model %08x" % (x | s, want, got))
    print("CHECK tanh.model.table checked=%d mismatches=%d" % (checked, bad))
    return bad == 0


if __name__ == "__main__":
    sys.exit(0 if self_check() else 1)
