//===- Sfu.cpp - The special-function unit as measured on an H100 --------===//

#include "Sfu.h"
#include "Numerics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

using namespace fa4::emu;

static std::unique_ptr<SfuTables> &loaded() {
  static std::unique_ptr<SfuTables> tables;
  return tables;
}

const SfuTables *fa4::emu::sfuTables() { return loaded().get(); }

/// DIR/NAME as kSfuTableEntries little-endian words, or why not.
static std::string readTable(const std::string &dir, const char *name,
                             std::vector<uint32_t> &table) {
  std::string path = dir + "/" + name;
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return "cannot open " + path;
  table.resize(kSfuTableEntries);
  size_t read = std::fread(table.data(), 4, kSfuTableEntries, file);
  bool longer = std::fgetc(file) != EOF;
  std::fclose(file);
  if (read != kSfuTableEntries || longer)
    return path + " is not " + std::to_string(kSfuTableEntries) +
           " 32-bit words";
  return "";
}

std::string fa4::emu::loadSfuTables(const std::string &dir) {
  auto tables = std::make_unique<SfuTables>();
  for (auto [name, table] : {std::pair<const char *, std::vector<uint32_t> *>{
                                 "ex2_pos.u32", &tables->ex2Positive},
                             {"ex2_neg.u32", &tables->ex2Negative},
                             {"lg2_e0.u32", &tables->lg2One},
                             {"lg2_em1.u32", &tables->lg2Half},
                             {"rcp.u32", &tables->rcp}}) {
    std::string why = readTable(dir, name, *table);
    if (!why.empty())
      return why;
  }
  loaded() = std::move(tables);
  return "";
}

static constexpr float kSmallestNormal = std::numeric_limits<float>::min();
static constexpr uint32_t kCanonicalNan = 0x7fffffffu;

/// `value` flushed to a zero of its sign below 2^-126.
static float flushed(double value) {
  return std::fabs(value) < kSmallestNormal ? std::copysign(0.0f, float(value))
                                            : float(value);
}

/// `value` rounded to f32 toward zero.
static float towardZero(double value) {
  float rounded = float(value);
  if (std::fabs(double(rounded)) > std::fabs(value))
    rounded = std::nextafter(rounded, 0.0f);
  return rounded;
}

float fa4::emu::ex2ApproxFtz(const SfuTables &tables, float x) {
  if (std::isnan(x))
    return x;
  if (std::fabs(x) < kSmallestNormal)
    return 1.0f; // a subnormal input reads as 0
  if (x >= 128.0f)
    return std::numeric_limits<float>::infinity();
  if (x < -160.0f)
    return 0.0f;
  // The magnitude in fixed point with 23 fraction bits: floored for a
  // non-negative input, truncated toward zero for a negative one.
  double scaled = std::ldexp(double(std::fabs(x)), 23);
  auto fixed = int64_t(x >= 0 ? std::floor(scaled) : std::trunc(scaled));
  int exponent = int(fixed >> 23);
  uint32_t fraction = uint32_t(fixed & (kSfuTableEntries - 1));
  double result =
      x >= 0
          ? std::ldexp(double(asFloat(tables.ex2Positive[fraction])), exponent)
          : std::ldexp(double(asFloat(tables.ex2Negative[fraction])),
                       -exponent);
  return result < kSmallestNormal ? 0.0f : float(result);
}

float fa4::emu::ex2Approx(const SfuTables &tables, float x) {
  if (x < -126.0f) {
    float half = ex2ApproxFtz(tables, x * 0.5f);
    return half * half;
  }
  return ex2ApproxFtz(tables, x);
}

/// The unit rounds e + L toward zero with L wider than any f32 shows
/// (bench/mufu/README.md, "lg2"). Toward zero, that needs L's floor for a
/// positive sum and its ceiling for a negative one, and the two tables are
/// exactly those: the unit on [1, 2) gives rz(L), the floor, and on
/// [0.5, 1) rz(L - 1), one less than the ceiling (the H100: 0 mismatches
/// over all 2^32 inputs).
float fa4::emu::lg2ApproxFtz(const SfuTables &tables, float x) {
  uint32_t bits = floatBits(x);
  // Every NaN input gives the canonical NaN (the H100, all 2^24 - 2 of
  // them; rcp and ex2 pass a NaN's bits through).
  if (std::isnan(x))
    return asFloat(kCanonicalNan);
  if ((bits & 0x7fffffffu) < 0x00800000u)
    return -std::numeric_limits<float>::infinity();
  if (bits >> 31)
    return asFloat(kCanonicalNan);
  if (std::isinf(x))
    return x;
  int exponent = int(bits >> 23) - 127;
  uint32_t fraction = bits & (kSfuTableEntries - 1);
  double sum = exponent >= 0
                   ? exponent + double(asFloat(tables.lg2One[fraction]))
                   : (exponent + 1) + double(asFloat(tables.lg2Half[fraction]));
  return towardZero(sum);
}

float fa4::emu::lg2Approx(const SfuTables &tables, float x) {
  if (x != 0.0f && std::fabs(x) < kSmallestNormal)
    return lg2ApproxFtz(tables, x * 16777216.0f) - 24.0f;
  return lg2ApproxFtz(tables, x);
}

float fa4::emu::rcpApproxFtz(const SfuTables &tables, float x) {
  uint32_t bits = uint32_t(floatBits(x));
  uint32_t magnitude = bits & 0x7fffffffu;
  if (std::isnan(x))
    return x;
  if (magnitude < 0x00800000u)
    return std::copysign(std::numeric_limits<float>::infinity(), x);
  if (std::isinf(x))
    return std::copysign(0.0f, x);
  int exponent = int(magnitude >> 23) - 127;
  double reciprocal = std::ldexp(
      double(asFloat(tables.rcp[magnitude & (kSfuTableEntries - 1)])),
      -exponent);
  return std::copysign(flushed(reciprocal), x);
}

/// Without .ftz a subnormal input is read as its normalized mantissa and a
/// result below 2^-126 rounds to nearest even into the subnormals (the
/// H100: 0 mismatches over all 2^32 inputs, bench/mufu/rcp.cu; toward zero
/// missed 10,485,736).
float fa4::emu::rcpApprox(const SfuTables &tables, float x) {
  if (std::isnan(x))
    return x;
  if (x == 0.0f)
    return std::copysign(std::numeric_limits<float>::infinity(), x);
  if (std::isinf(x))
    return std::copysign(0.0f, x);
  int exponent;
  double mantissa = std::frexp(std::fabs(double(x)), &exponent); // [0.5, 1)
  uint32_t fraction = floatBits(float(mantissa * 2.0)) & (kSfuTableEntries - 1);
  double reciprocal =
      std::ldexp(double(asFloat(tables.rcp[fraction])), 1 - exponent);
  return std::copysign(float(reciprocal), x);
}

/// One k16 step of a 16-bit wgmma with an f32 accumulator as an H100's
/// tensor cores compute it (bench/mufu/README.md, "The tensor cores"):
/// the accumulator and the 16 products, each aligned to the largest of
/// their exponents E (a product's is the sum of its operands' exponents)
/// and truncated toward zero at 2^(E - 25), summed exactly, the sum
/// rounded toward zero. Matched 262,144 of 262,144 outputs on the H100.
/// Infinities and NaNs take the IEEE sum.
float fa4::emu::tensorCoreDot(float accumulator,
                              const std::array<float, 16> &left,
                              const std::array<float, 16> &right) {
  constexpr int kAlignedBits = 25;
  auto exponentOf = [](double value) {
    int exponent;
    std::frexp(value, &exponent);
    return exponent - 1; // floor(log2 |value|)
  };
  std::array<double, 17> terms;
  std::array<int, 17> exponents;
  size_t count = 0;
  bool finite = std::isfinite(accumulator);
  double ieee = accumulator;
  if (accumulator != 0.0f) {
    terms[count] = accumulator;
    exponents[count++] = exponentOf(accumulator);
  }
  for (size_t k = 0; k < 16; ++k) {
    double product = double(left[k]) * double(right[k]);
    ieee += product;
    finite &= std::isfinite(left[k]) && std::isfinite(right[k]);
    if (product == 0.0)
      continue;
    terms[count] = product;
    exponents[count++] = exponentOf(left[k]) + exponentOf(right[k]);
  }
  if (!finite)
    return float(ieee);
  if (count == 0)
    return 0.0f * accumulator; // keeps the accumulator's zero sign
  int largest = *std::max_element(exponents.begin(), exponents.begin() + count);
  double sum = 0;
  for (size_t t = 0; t < count; ++t) {
    double quantum = std::ldexp(1.0, largest - kAlignedBits);
    sum += std::trunc(terms[t] / quantum) * quantum;
  }
  return towardZero(sum);
}

//===----------------------------------------------------------------------===//
// tanh.approx.f32
//===----------------------------------------------------------------------===//

namespace {
/// Per binade e = -8..2: the top fraction bits that pick a segment, and the
/// first of the binade's rows in kTanhSegments.
constexpr int kTanhSegmentBits[11] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 3};
constexpr int kTanhFirstSegment[11] = {0, 1, 2, 3, 5, 7, 11, 15, 19, 27, 43};
/// C0, C1, C2 of each segment in units of 2^(e - 25): y = C0 + C1 t +
/// C2 sq(t), t in [0, 1) (bench/mufu/tanh_model/coefs.txt).
constexpr int64_t kTanhSegments[51][3] = {{33554432, 33554432, -1024},
                                          {33553920, 33552384, -3072},
                                          {33551872, 33548288, -13312},
                                          {33543552, 16761856, -10496},
                                          {50294912, 16740864, -14080},
                                          {33510784, 16714752, -40704},
                                          {50184576, 16633856, -56832},
                                          {33380768, 8260096, -35776},
                                          {41604960, 8188416, -43264},
                                          {49749952, 8101888, -50560},
                                          {57801216, 8000768, -57024},
                                          {32872320, 7889408, -132416},
                                          {40628832, 7623680, -154368},
                                          {48097792, 7314304, -171904},
                                          {55239936, 6969728, -185216},
                                          {31012000, 6601088, -394368},
                                          {37218624, 5807872, -402432},
                                          {42624416, 5000064, -386432},
                                          {47238688, 4225408, -354752},
                                          {25555088, 1757504, -157168},
                                          {27155824, 1443264, -135648},
                                          {28463888, 1172288, -114304},
                                          {29522280, 944032, -94768},
                                          {30371904, 754880, -77472},
                                          {31049608, 600320, -62752},
                                          {31587440, 475200, -50304},
                                          {32012536, 374912, -40144},
                                          {16173728, 147496, -15946},
                                          {16305345, 115768, -12590},
                                          {16408581, 90696, -9898},
                                          {16489421, 70984, -7784},
                                          {16552657, 55480, -6094},
                                          {16602069, 43340, -4776},
                                          {16640655, 33828, -3734},
                                          {16670765, 26396, -2920},
                                          {16694254, 20584, -2278},
                                          {16712570, 16048, -1778},
                                          {16726848, 12508, -1386},
                                          {16737977, 9748, -1082},
                                          {16746648, 7596, -842},
                                          {16753405, 5916, -654},
                                          {16758669, 4608, -508},
                                          {16762770, 3588, -394},
                                          {8383000, 5272, -1752},
                                          {8386544, 1944, -648},
                                          {8387848, 712, -232},
                                          {8388328, 264, -88},
                                          {8388506, 96, -32},
                                          {8388570, 40, -16},
                                          {8388594, 16, -8},
                                          {8388602, 8, -4}};
/// t is the 17 fraction bits below the segment index (lower ones are
/// ignored); the squarer keeps the columns of t^2 of weight >= 2^-15.
constexpr int kTanhFractionBits = 17;
constexpr int kTanhSquareBits = 15;
} // namespace

/// t^2 of the kTanhFractionBits-bit t as the unit's folded squarer forms
/// it: cross terms 2 b_i b_j (i < j) at 2^(i+j+1), squares b_i at 2^(2i),
/// only the columns from 2 n - kTanhSquareBits up, in units of that column.
static uint64_t foldedSquare(uint32_t t) {
  constexpr int n = kTanhFractionBits, low = 2 * n - kTanhSquareBits;
  uint64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    if (!(t >> i & 1))
      continue;
    if (2 * i >= low)
      sum += uint64_t(1) << (2 * i);
    for (int j = std::max(i + 1, low - i - 1); j < n; ++j)
      if (t >> j & 1)
        sum += uint64_t(1) << (i + j + 1);
  }
  return sum >> low;
}

float fa4::emu::tanhApprox(float x) {
  uint32_t bits = uint32_t(floatBits(x));
  uint32_t sign = bits & 0x80000000u, magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u)
    return asFloat(kCanonicalNan);
  int e = int(magnitude >> 23) - 127;
  if (e < -8) // zeros and subnormals included
    return x;
  if (e >= 3)
    return asFloat(sign | 0x3f800000u);
  uint32_t fraction = magnitude & 0x7fffffu;
  int segmentBits = kTanhSegmentBits[e + 8];
  constexpr int n = kTanhFractionBits;
  uint32_t segment = fraction >> (23 - segmentBits);
  uint32_t t = (fraction >> (23 - segmentBits - n)) & ((1u << n) - 1);
  const int64_t *c = kTanhSegments[kTanhFirstSegment[e + 8] + segment];
  // Exact in units of 2^(e - 25 - n), then truncated to 24 bits.
  int64_t y =
      (c[0] << n) + c[1] * int64_t(t) +
      c[2] * int64_t(foldedSquare(t)) * (int64_t(1) << (n - kTanhSquareBits));
  int length = 64 - __builtin_clzll(uint64_t(y));
  int scale = e - 25 - n;
  if (length > 24) {
    y >>= length - 24;
    scale += length - 24;
  }
  float magnitudeResult = std::ldexp(float(y), scale);
  return sign ? -magnitudeResult : magnitudeResult;
}
