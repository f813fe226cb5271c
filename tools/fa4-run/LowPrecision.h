//===- LowPrecision.h - bf16 / f16 <-> f32 on the host ----------*- C++ -*-===//
//
// Round-to-nearest-even conversions, as the GPU's cvt.rn does, so host
// inputs and the low-precision reference agree bit for bit with the device.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUN_LOWPRECISION_H
#define FA4_RUN_LOWPRECISION_H

#include "fa4-c/Runtime.h"

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

inline uint16_t toLowPrecision(fa4_dtype dtype, float value) {
  return dtype == FA4_DTYPE_F16 ? floatToF16(value) : floatToBf16(value);
}

inline float fromLowPrecision(fa4_dtype dtype, uint16_t bits) {
  return dtype == FA4_DTYPE_F16 ? f16ToFloat(bits) : bf16ToFloat(bits);
}

/// `value` rounded to `dtype` (bf16 or f16) and back.
inline double roundTo(fa4_dtype dtype, double value) {
  return fromLowPrecision(dtype,
                          toLowPrecision(dtype, static_cast<float>(value)));
}

} // namespace fa4::run

#endif // FA4_RUN_LOWPRECISION_H
