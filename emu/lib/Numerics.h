//===- Numerics.h - PTX arithmetic on bits ----------------------*- C++ -*-===//
//
// Conversions with the PTX ISA's rounding ("Rounding Modifiers", cvt): bf16
// and f16 from f32 round to nearest even, NaN to the canonical NaN; f32
// subnormals flushed where .ftz asks.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_NUMERICS_H
#define FA4_EMU_NUMERICS_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace fa4::emu {

inline float asFloat(uint64_t bits) {
  uint32_t narrow = uint32_t(bits);
  float value;
  std::memcpy(&value, &narrow, 4);
  return value;
}
inline uint64_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}
inline double asDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}
inline uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

/// .ftz: a subnormal becomes a zero of the same sign.
inline float flushSubnormal(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value)
                                                : value;
}

inline float bf16ToFloat(uint16_t bits) {
  return asFloat(uint32_t(bits) << 16);
}

enum class Rounding { Nearest, Zero, Down, Up };

inline uint16_t floatToBf16(float value,
                            Rounding rounding = Rounding::Nearest) {
  uint32_t bits = uint32_t(floatBits(value));
  if (std::isnan(value))
    return 0x7fff;
  uint32_t rest = bits & 0xffff;
  uint32_t kept = bits >> 16;
  bool negative = bits >> 31;
  switch (rounding) {
  case Rounding::Nearest:
    if (rest > 0x8000 || (rest == 0x8000 && (kept & 1)))
      ++kept;
    break;
  case Rounding::Zero:
    break;
  case Rounding::Down:
    kept += negative && rest;
    break;
  case Rounding::Up:
    kept += !negative && rest;
    break;
  }
  return uint16_t(kept);
}

inline float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31;
  int exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f)
    return asFloat(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return asFloat(sign | uint32_t(exponent - 15 + 127) << 23 | mantissa << 13);
}

/// f32 to f16, round to nearest even (subnormal results and overflow to
/// infinity as IEEE 754 says).
inline uint16_t floatToHalf(float value) {
  if (std::isnan(value))
    return 0x7fff;
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) // rounds to infinity
    return sign | 0x7c00;
  if (magnitude < std::ldexp(1.0f, -14)) {
    // Subnormal: units of 2^-24, rounded to nearest even by rint.
    float units = std::nearbyint(magnitude * std::ldexp(1.0f, 24));
    return sign | uint16_t(units);
  }
  int exponent;
  float fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
  // 11 significant bits: units of 2^(exponent - 11).
  float units = std::nearbyint(std::ldexp(fraction, 11));
  if (units >= 2048.0f) {
    units /= 2;
    ++exponent;
  }
  int biased = exponent - 1 + 15;
  if (biased >= 31)
    return sign | 0x7c00;
  return sign | uint16_t(biased << 10) | (uint16_t(units) & 0x3ff);
}

/// e4m3 (OCP FP8, the `.e4m3` of PTX): bias 7, no infinities, S.1111.111
/// the only NaN, 448 the largest finite value, subnormals in units of 2^-9.
inline float e4m3ToFloat(uint8_t bits) {
  float sign = bits & 0x80 ? -1.0f : 1.0f;
  int exponent = (bits >> 3) & 0xf;
  int mantissa = bits & 0x7;
  if (exponent == 0xf && mantissa == 0x7)
    return std::nanf("");
  if (exponent == 0)
    return sign * std::ldexp(float(mantissa), -9);
  return sign * std::ldexp(float(8 + mantissa), exponent - 7 - 3);
}

/// e5m2 (`.e5m2`): IEEE 754-like with bias 15: infinities and NaNs at
/// exponent 31, subnormals in units of 2^-16.
inline float e5m2ToFloat(uint8_t bits) {
  return halfToFloat(uint16_t(bits) << 8);
}

/// f32 to an FP8 format of `mantissaBits` and exponent `bias` as PTX's
/// cvt.rn.satfinite (which PTX requires for FP8 results): round to nearest
/// even; values that round past the largest finite code `largest`, and
/// infinities, become +-largest; a NaN becomes 0x7f.
inline uint8_t floatToFp8(float value, int mantissaBits, int bias,
                          uint8_t largest) {
  if (std::isnan(value))
    return 0x7f;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  float magnitude = std::fabs(value);
  uint8_t overflow = uint8_t(sign | largest);
  if (std::isinf(magnitude))
    return overflow;
  // Subnormal below 2^(1 - bias): units of 2^(1 - bias - mantissaBits).
  if (magnitude < std::ldexp(1.0f, 1 - bias))
    return uint8_t(sign | uint8_t(std::nearbyint(
                              std::ldexp(magnitude, bias - 1 + mantissaBits))));
  int exponent;
  float fraction = std::frexp(magnitude, &exponent); // [0.5, 1)
  int implicit = 1 << mantissaBits;
  int units = int(std::nearbyint(std::ldexp(fraction, mantissaBits + 1)));
  if (units == 2 * implicit) { // rounded up to the next binade
    units = implicit;
    ++exponent;
  }
  int code = (exponent - 1 + bias) << mantissaBits | (units - implicit);
  return code > largest ? overflow : uint8_t(sign | code);
}

/// e4m3: bias 7, 448 (0x7e) the largest finite value.
inline uint8_t floatToE4m3(float value) {
  return floatToFp8(value, 3, 7, 0x7e);
}

/// e5m2: bias 15, 57344 (0x7b) the largest finite value.
inline uint8_t floatToE5m2(float value) {
  return floatToFp8(value, 2, 15, 0x7b);
}

/// A tcgen05.mma operand element: kind::f16's formats 0 (f16) and 1 (bf16)
/// of 16 bits, kind::f8f6f4's 0 (e4m3) and 1 (e5m2) of 8 (PTX ISA,
/// "Instruction descriptor").
inline float mmaOperandValue(bool f8, int format, uint32_t bits) {
  if (f8)
    return format == 1 ? e5m2ToFloat(uint8_t(bits))
                       : e4m3ToFloat(uint8_t(bits));
  return format == 1 ? bf16ToFloat(uint16_t(bits))
                     : halfToFloat(uint16_t(bits));
}

} // namespace fa4::emu

#endif // FA4_EMU_NUMERICS_H
