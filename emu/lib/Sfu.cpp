//===- Sfu.cpp - The special-function unit as measured on an H100 --------===//

#include "Sfu.h"
#include "Numerics.h"
#include "TanhModel.h"

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

float fa4::emu::tanhApprox(float x) {
  return asFloat(
      tanh_model::tanhBits(uint32_t(floatBits(x)), tanh_model::kTables));
}
