//===- tanh_error.cpp - tanh.approx.f32's error against tanh, every input -===//
//
// The H100's tanh.approx.f32, as emu/lib/TanhModel.h computes it bit for
// bit (checked on all 2^32 inputs against the unit: check_tanh.cu), against
// std::tanh in double on every positive finite f32 (tanh is odd): the
// error a softcapped score inherits (issue 61).
//
//   g++ -O2 -std=c++17 -I../../../emu/lib tanh_error.cpp -o tanh_error
//
//===----------------------------------------------------------------------===//

#include "TanhModel.h"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace fa4::emu::tanh_model;

int main() {
  double worstRelative = 0, worstAbsolute = 0;
  float atRelative = 0, atAbsolute = 0;
  for (uint32_t bits = 1; bits < 0x7F800000u; ++bits) {
    float x, y;
    std::memcpy(&x, &bits, 4);
    uint32_t result = tanhBits(bits, kTables);
    std::memcpy(&y, &result, 4);
    double exact = std::tanh(static_cast<double>(x));
    double absolute = std::fabs(y - exact);
    if (absolute / exact > worstRelative) {
      worstRelative = absolute / exact;
      atRelative = x;
    }
    if (absolute > worstAbsolute) {
      worstAbsolute = absolute;
      atAbsolute = x;
    }
  }
  std::printf("max relative error %.3g (2^%.2f) at x = %.9g\n", worstRelative,
              std::log2(worstRelative), atRelative);
  std::printf("max absolute error %.3g (2^%.2f) at x = %.9g\n", worstAbsolute,
              std::log2(worstAbsolute), atAbsolute);
}
