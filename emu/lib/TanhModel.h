//===- TanhModel.h - The H100's tanh.approx.f32 as a model ------*- C++ -*-===//
//
// tanh.approx.f32 as the H100's MUFU.TANH computes it, bit for bit on all
// 2^32 inputs (bench/mufu/tanh_model/analysis.md): x itself below 2^-8, +-1
// from 8, and between them a quadratic per segment of each binade, over
// the 17 fraction bits below the segment index, with a truncated squarer
// and a sum truncated to 24 bits; the canonical NaN for NaNs. One
// definition for fa4-emu (Sfu.cpp, host code) and for the program that
// checks it against the unit (bench/mufu/tanh_model/check_tanh.cu, device
// code, which reads the tables from a __constant__ copy); model.py reads
// the segments from this file too.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_TANHMODEL_H
#define FA4_EMU_TANHMODEL_H

#include <cstdint>

#ifdef __CUDACC__
#define FA4_TANH_HD __host__ __device__
#else
#define FA4_TANH_HD
#endif

namespace fa4::emu::tanh_model {

/// t is the 17 fraction bits below the segment index (lower ones are
/// ignored); the squarer keeps the columns of t^2 of weight >= 2^-15.
constexpr int kFractionBits = 17;
constexpr int kSquareBits = 15;

struct Tables {
  /// Per binade e = -8..2: the top fraction bits that pick a segment, and
  /// the first of the binade's rows in `segments`.
  int segmentBits[11];
  int firstSegment[11];
  /// C0, C1, C2 of each segment in units of 2^(e - 25): y = C0 + C1 t +
  /// C2 sq(t), t in [0, 1).
  int64_t segments[51][3];
};

inline constexpr Tables kTables = {
    {0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 3},
    {0, 1, 2, 3, 5, 7, 11, 15, 19, 27, 43},
    {{33554432, 33554432, -1024} /* e -8, segment 0 */,
     {33553920, 33552384, -3072} /* e -7, segment 0 */,
     {33551872, 33548288, -13312} /* e -6, segment 0 */,
     {33543552, 16761856, -10496} /* e -5, segment 0 */,
     {50294912, 16740864, -14080} /* e -5, segment 1 */,
     {33510784, 16714752, -40704} /* e -4, segment 0 */,
     {50184576, 16633856, -56832} /* e -4, segment 1 */,
     {33380768, 8260096, -35776} /* e -3, segment 0 */,
     {41604960, 8188416, -43264} /* e -3, segment 1 */,
     {49749952, 8101888, -50560} /* e -3, segment 2 */,
     {57801216, 8000768, -57024} /* e -3, segment 3 */,
     {32872320, 7889408, -132416} /* e -2, segment 0 */,
     {40628832, 7623680, -154368} /* e -2, segment 1 */,
     {48097792, 7314304, -171904} /* e -2, segment 2 */,
     {55239936, 6969728, -185216} /* e -2, segment 3 */,
     {31012000, 6601088, -394368} /* e -1, segment 0 */,
     {37218624, 5807872, -402432} /* e -1, segment 1 */,
     {42624416, 5000064, -386432} /* e -1, segment 2 */,
     {47238688, 4225408, -354752} /* e -1, segment 3 */,
     {25555088, 1757504, -157168} /* e 0, segment 0 */,
     {27155824, 1443264, -135648} /* e 0, segment 1 */,
     {28463888, 1172288, -114304} /* e 0, segment 2 */,
     {29522280, 944032, -94768} /* e 0, segment 3 */,
     {30371904, 754880, -77472} /* e 0, segment 4 */,
     {31049608, 600320, -62752} /* e 0, segment 5 */,
     {31587440, 475200, -50304} /* e 0, segment 6 */,
     {32012536, 374912, -40144} /* e 0, segment 7 */,
     {16173728, 147496, -15946} /* e 1, segment 0 */,
     {16305345, 115768, -12590} /* e 1, segment 1 */,
     {16408581, 90696, -9898} /* e 1, segment 2 */,
     {16489421, 70984, -7784} /* e 1, segment 3 */,
     {16552657, 55480, -6094} /* e 1, segment 4 */,
     {16602069, 43340, -4776} /* e 1, segment 5 */,
     {16640655, 33828, -3734} /* e 1, segment 6 */,
     {16670765, 26396, -2920} /* e 1, segment 7 */,
     {16694254, 20584, -2278} /* e 1, segment 8 */,
     {16712570, 16048, -1778} /* e 1, segment 9 */,
     {16726848, 12508, -1386} /* e 1, segment 10 */,
     {16737977, 9748, -1082} /* e 1, segment 11 */,
     {16746648, 7596, -842} /* e 1, segment 12 */,
     {16753405, 5916, -654} /* e 1, segment 13 */,
     {16758669, 4608, -508} /* e 1, segment 14 */,
     {16762770, 3588, -394} /* e 1, segment 15 */,
     {8383000, 5272, -1752} /* e 2, segment 0 */,
     {8386544, 1944, -648} /* e 2, segment 1 */,
     {8387848, 712, -232} /* e 2, segment 2 */,
     {8388328, 264, -88} /* e 2, segment 3 */,
     {8388506, 96, -32} /* e 2, segment 4 */,
     {8388570, 40, -16} /* e 2, segment 5 */,
     {8388594, 16, -8} /* e 2, segment 6 */,
     {8388602, 8, -4} /* e 2, segment 7 */}};

/// The bits of a nonzero `value`: its highest set bit's index plus one.
FA4_TANH_HD inline int bitLength(uint64_t value) {
#ifdef __CUDA_ARCH__
  return 64 - __clzll(static_cast<long long>(value));
#else
  return 64 - __builtin_clzll(value);
#endif
}

/// t^2 of the kFractionBits-bit t as the unit's folded squarer forms it:
/// cross terms 2 b_i b_j (i < j) at 2^(i+j+1), squares b_i at 2^(2i), only
/// the columns from 2 n - kSquareBits up, in units of that column.
FA4_TANH_HD inline uint64_t foldedSquare(uint32_t t) {
  constexpr int n = kFractionBits, low = 2 * n - kSquareBits;
  uint64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    if (!(t >> i & 1))
      continue;
    if (2 * i >= low)
      sum += uint64_t(1) << (2 * i);
    for (int j = i + 1 > low - i - 1 ? i + 1 : low - i - 1; j < n; ++j)
      if (t >> j & 1)
        sum += uint64_t(1) << (i + j + 1);
  }
  return sum >> low;
}

/// tanh.approx.f32 of the f32 with bit pattern `bits`, as a bit pattern.
FA4_TANH_HD inline uint32_t tanhBits(uint32_t bits, const Tables &tables) {
  uint32_t sign = bits & 0x80000000u, magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u)
    return 0x7fffffffu; // every NaN: the canonical one
  int e = int(magnitude >> 23) - 127;
  if (e < -8) // zeros and subnormals included
    return bits;
  if (e >= 3)
    return sign | 0x3f800000u;
  uint32_t fraction = magnitude & 0x7fffffu;
  int segmentBits = tables.segmentBits[e + 8];
  constexpr int n = kFractionBits;
  uint32_t segment = fraction >> (23 - segmentBits);
  uint32_t t = (fraction >> (23 - segmentBits - n)) & ((1u << n) - 1);
  const int64_t *c = tables.segments[tables.firstSegment[e + 8] + segment];
  // Exact in units of 2^(e - 25 - n), then truncated to 24 bits: a normal
  // f32 (tanh is at least 2^-9 here).
  int64_t y =
      (c[0] << n) + c[1] * int64_t(t) +
      c[2] * int64_t(foldedSquare(t)) * (int64_t(1) << (n - kSquareBits));
  uint64_t kept = uint64_t(y);
  int scale = e - 25 - n, length = bitLength(kept);
  if (length > 24) {
    kept >>= length - 24;
    scale += length - 24;
  }
  length = bitLength(kept);
  uint32_t exponent = uint32_t(scale + 23 + 127 + (length - 24));
  kept <<= 24 - length;
  return sign | exponent << 23 | (uint32_t(kept) & 0x7fffffu);
}

} // namespace fa4::emu::tanh_model

#endif // FA4_EMU_TANHMODEL_H
