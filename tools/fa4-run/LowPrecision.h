//===- LowPrecision.h - bf16 / f16 / e4m3 <-> f32 on the host ---*- C++ -*-===//
//
// Round-to-nearest-even conversions, as the GPU's cvt.rn does (e4m3's
// saturating, as cvt.rn.satfinite), so host inputs and the low-precision
// reference agree bit for bit with the device.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUN_LOWPRECISION_H
#define FA4_RUN_LOWPRECISION_H

#include "fa4-c/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fa4::run {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

inline uint16_t floatToBf16(float value) {
  uint32_t bits = floatBits(value);
  if (std::isnan(value))
    return 0x7FC0;
  bits += 0x7FFF + ((bits >> 16) & 1); // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

inline float bf16ToFloat(uint16_t bits) {
  return bitsToFloat(uint32_t(bits) << 16);
}

inline uint16_t floatToF16(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  bits &= 0x7FFFFFFF;
  if (bits >= 0x7F800000) // inf or NaN
    return sign | (bits > 0x7F800000 ? 0x7E00 : 0x7C00);
  if (bits >= 0x477FF000) // rounds to >= 65520: overflows to inf
    return sign | 0x7C00;
  if (bits < 0x38800000) { // below 2^-14: f16 subnormal, in units of 2^-24
    float units = std::nearbyint(std::fabs(value) * 16777216.0f);
    return sign | static_cast<uint16_t>(units);
  }
  bits -= (127 - 15) << 23; // rebias the exponent
  bits += 0x0FFF + ((bits >> 13) & 1);
  return sign | static_cast<uint16_t>(bits >> 13);
}

inline float f16ToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1F;
  uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0) // zero or subnormal: mantissa * 2^-24
    return bitsToFloat(sign) + (sign ? -1.0f : 1.0f) * mantissa * 5.9604645e-8f;
  if (exponent == 31)
    return bitsToFloat(sign | 0x7F800000 | (mantissa << 13));
  return bitsToFloat(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

/// OCP FP8 E4M3FN: 1 sign, 4 exponent bits of bias 7, 3 mantissa bits; no
/// infinities, S.1111.111 is NaN, so the largest finite value is 448
/// (S.1111.110). Rounded to nearest even and saturated to +-448, as
/// cvt.rn.satfinite.e4m3x2.f32 does (infinities too); NaN becomes 0x7F.
inline uint8_t floatToE4m3(float value) {
  if (std::isnan(value))
    return 0x7F;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  float magnitude = std::fabs(value);
  if (magnitude >= 448.0f) // past 448 rounds to NaN's code: saturate
    return sign | 0x7E;
  // The codes' spacing at `magnitude`: 2^(e - 3) for its binade 2^e, e at
  // least -6 (below 2^-6 the subnormals keep the spacing 2^-9).
  int exponent;
  std::frexp(magnitude, &exponent); // magnitude = f 2^exponent, f in [.5, 1)
  int binade = std::max(exponent - 1, -6);
  // Dividing by a power of two is exact; nearbyint rounds half to even.
  float units = std::nearbyint(std::ldexp(magnitude, 3 - binade));
  if (units >= 16) { // rounded up into the next binade
    units /= 2;
    ++binade;
  }
  if (units < 8) // a subnormal (binade -6): units of 2^-9, exponent field 0
    return sign | static_cast<uint8_t>(units);
  return sign | static_cast<uint8_t>((binade + 7) << 3) |
         static_cast<uint8_t>(units - 8);
}

inline float e4m3ToFloat(uint8_t bits) {
  float sign = bits & 0x80 ? -1.0f : 1.0f;
  int exponent = (bits >> 3) & 0xF, mantissa = bits & 0x7;
  if (exponent == 15 && mantissa == 7)
    return std::nanf("");
  if (exponent == 0)
    return sign * std::ldexp(float(mantissa), -9);
  return sign * std::ldexp(float(8 + mantissa), exponent - 10);
}

/// `value` as `dtype`'s bits (bf16, f16, or e4m3 in the low byte).
inline uint16_t toLowPrecision(fa4_dtype dtype, float value) {
  switch (dtype) {
  case FA4_DTYPE_F16:
    return floatToF16(value);
  case FA4_DTYPE_E4M3:
    return floatToE4m3(value);
  default:
    return floatToBf16(value);
  }
}

inline float fromLowPrecision(fa4_dtype dtype, uint16_t bits) {
  switch (dtype) {
  case FA4_DTYPE_F16:
    return f16ToFloat(bits);
  case FA4_DTYPE_E4M3:
    return e4m3ToFloat(static_cast<uint8_t>(bits));
  default:
    return bf16ToFloat(bits);
  }
}

/// `value` rounded to `dtype` (bf16, f16 or e4m3) and back.
inline double roundTo(fa4_dtype dtype, double value) {
  return fromLowPrecision(dtype,
                          toLowPrecision(dtype, static_cast<float>(value)));
}

} // namespace fa4::run

#endif // FA4_RUN_LOWPRECISION_H
