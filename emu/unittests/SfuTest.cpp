//===- SfuTest.cpp - The special functions as the H100 computes them -----===//
//
// The tables come from bench/mufu/h100/ (extracted by the fixture test
// fa4emu-sfu-tables, bench/mufu/tables.py --extract); the inputs the
// H100 was seen on come from the same run's checks.txt, whose candidate
// models listed the hardware's result for the inputs they got wrong, and
// from lg2_mismatch.u32, which with rz(e + L) encodes the H100's
// lg2.approx.ftz on every positive normal input.
//
//===----------------------------------------------------------------------===//

#include "Sfu.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <tuple>
#include <utility>

using namespace fa4::emu;

namespace {

uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

const SfuTables &tables() {
  if (!sfuTables()) {
    std::string why = loadSfuTables(FA4_EMU_SFU_TABLES);
    EXPECT_EQ(why, "");
  }
  return *sfuTables();
}

/// (input, the H100's ex2.approx.ftz) from checks.txt's ex2.ftz lines.
std::vector<std::pair<uint32_t, uint32_t>> seenOnTheH100() {
  std::ifstream checks(std::string(FA4_MUFU_H100_DIR) + "/checks.txt");
  std::vector<std::pair<uint32_t, uint32_t>> seen;
  std::regex sample("([0-9a-f]{8}):([0-9a-f]{8})/");
  for (std::string line; std::getline(checks, line);) {
    if (line.rfind("CHECK ex2.ftz", 0) != 0)
      continue;
    for (std::sregex_iterator it(line.begin(), line.end(), sample), end;
         it != end; ++it)
      seen.push_back({uint32_t(std::stoul((*it)[1], nullptr, 16)),
                      uint32_t(std::stoul((*it)[2], nullptr, 16))});
  }
  return seen;
}

TEST(SfuTest, Ex2MatchesTheH100WhereItWasSeen) {
  const SfuTables &measured = tables();
  std::vector<std::pair<uint32_t, uint32_t>> seen = seenOnTheH100();
  // Six candidate models, eight inputs each: tiny and negative inputs
  // around 1, where the fixed-point split's rounding shows.
  ASSERT_EQ(seen.size(), 48u);
  for (auto [input, hardware] : seen)
    EXPECT_EQ(bitsOf(ex2ApproxFtz(measured, floatOf(input))), hardware)
        << std::hex << input;
}

TEST(SfuTest, Ex2ReadsSignAndMagnitude) {
  const SfuTables &measured = tables();
  // A tiny negative input truncates to 0: exactly 1, as the H100 gives.
  EXPECT_EQ(ex2ApproxFtz(measured, -1e-9f), 1.0f);
  // Whole inputs scale the table's entry at 0, and the grid's entries are
  // the tables' own.
  EXPECT_EQ(ex2ApproxFtz(measured, 3.0f), 8.0f);
  EXPECT_EQ(bitsOf(ex2ApproxFtz(measured, std::ldexp(5.0f, -23))),
            measured.ex2Positive[5]);
  EXPECT_EQ(bitsOf(ex2ApproxFtz(measured, -2.0f - std::ldexp(7.0f, -22))),
            bitsOf(std::ldexp(floatOf(measured.ex2Negative[14]), -2)));
  // Flushed below 2^-126 and infinite from 128; the non-ftz form halves
  // and squares below -126, so it reaches subnormals.
  EXPECT_EQ(ex2ApproxFtz(measured, -130.0f), 0.0f);
  EXPECT_TRUE(std::isinf(ex2ApproxFtz(measured, 128.0f)));
  float subnormal = ex2Approx(measured, -130.0f);
  float half = ex2ApproxFtz(measured, -65.0f);
  EXPECT_EQ(bitsOf(subnormal), bitsOf(half * half));
  EXPECT_GT(subnormal, 0.0f);
}

TEST(SfuTest, RcpScalesTheMantissaTable) {
  const SfuTables &measured = tables();
  for (uint32_t i : {0u, 1u, 12345u, (1u << 23) - 1}) {
    float mantissa = 1.0f + std::ldexp(float(i), -23);
    EXPECT_EQ(bitsOf(rcpApproxFtz(measured, mantissa)), measured.rcp[i]);
    EXPECT_EQ(bitsOf(rcpApproxFtz(measured, -4.0f * mantissa)),
              bitsOf(-std::ldexp(floatOf(measured.rcp[i]), -2)));
  }
  EXPECT_TRUE(std::isinf(rcpApproxFtz(measured, 1e-40f))); // flushed input
  EXPECT_EQ(rcpApproxFtz(measured, 3e38f), 0.0f);          // flushed result
}

// rcp.approx.f32 (rcp.cu's `table.rn`, 0 mismatches on the H100): normal
// inputs with normal results as the ftz form; a subnormal input by its
// normalized mantissa; a result past 2^-126 rounded to nearest even.
TEST(SfuTest, RcpWithoutFtzReachesSubnormals) {
  const SfuTables &measured = tables();
  for (float x : {1.0f, 1.5f, -3.25f, 1e30f, -7e-30f})
    EXPECT_EQ(bitsOf(rcpApprox(measured, x)),
              bitsOf(rcpApproxFtz(measured, x)));
  uint32_t i = 12344; // even: m 2^-127 keeps every bit as a subnormal
  float mantissa = 1.0f + std::ldexp(float(i), -23);
  EXPECT_EQ(bitsOf(rcpApprox(measured, std::ldexp(mantissa, -127))),
            bitsOf(std::ldexp(floatOf(measured.rcp[i]), 127)));
  EXPECT_TRUE(std::isinf(rcpApprox(measured, 1e-40f))); // past f32's range
  float tiny = rcpApprox(measured, -std::ldexp(mantissa, 127));
  EXPECT_EQ(bitsOf(tiny),
            bitsOf(-float(std::ldexp(double(floatOf(measured.rcp[i])), -127))));
  EXPECT_NE(tiny, 0.0f);
  EXPECT_EQ(bitsOf(rcpApprox(measured, -0.0f)), bitsOf(-INFINITY));
  EXPECT_EQ(bitsOf(rcpApprox(measured, floatOf(0x7fc00123u))), 0x7fc00123u);
}

/// Ordinal of an f32, monotone in its value.
int64_t ordinalOf(float value) {
  int32_t bits = int32_t(bitsOf(value));
  return bits < 0 ? -int64_t(bits & 0x7fffffff) : int64_t(bits);
}

/// The H100's lg2.approx.ftz at a positive normal input as device3.sh
/// recorded it: rz(e + L), L the table on [1, 2) below 1/2 and 1 + the
/// table on [0.5, 1) above, one ulp off where the mismatch list says.
float recordedLg2(const SfuTables &measured, uint32_t input, int step) {
  uint32_t fraction = input & 0x7fffffu;
  double low = floatOf(measured.lg2One[fraction]);
  double l = low < 0.5 ? low : 1.0 + floatOf(measured.lg2Half[fraction]);
  double sum = int(input >> 23) - 127 + l;
  float rounded = float(sum);
  if (std::fabs(double(rounded)) > std::fabs(sum))
    rounded = std::nextafter(rounded, 0.0f);
  int64_t ordinal = ordinalOf(rounded) + step;
  return ordinal < 0 ? floatOf(uint32_t(-ordinal) | 0x80000000u)
                     : floatOf(uint32_t(ordinal));
}

TEST(SfuTest, Lg2MatchesTheH100OnPositiveNormalInputs) {
  const SfuTables &measured = tables();
  std::ifstream file(std::string(FA4_EMU_SFU_TABLES) + "/lg2_mismatch.u32",
                     std::ios::binary);
  std::vector<uint32_t> listed;
  for (uint32_t word; file.read(reinterpret_cast<char *>(&word), 4);)
    listed.push_back(word);
  // lg2.cu on the H100: 0.29% of the 2^31 - 2^24 positive normal inputs.
  ASSERT_EQ(listed.size(), 12463768u);
  int64_t wrong = 0, checked = 0;
  for (uint32_t word : listed) {
    uint32_t input = word & 0x7fffffffu;
    // 0.5, the one input more than an ulp off rz(e + L) (checks3.txt's
    // "other"): the table's own entry, checked in Lg2SpecialInputs.
    if (input == 0x3f000000u)
      continue;
    float hardware = recordedLg2(measured, input, word >> 31 ? 1 : -1);
    wrong += bitsOf(lg2ApproxFtz(measured, floatOf(input))) != bitsOf(hardware);
    ++checked;
  }
  // Every 97th input, skipping the listed ones.
  size_t next = 0;
  for (uint32_t input = 0x00800000u; input < 0x7f800000u; input += 97) {
    while (next < listed.size() && (listed[next] & 0x7fffffffu) < input)
      ++next;
    if (next < listed.size() && (listed[next] & 0x7fffffffu) == input)
      continue;
    float hardware = recordedLg2(measured, input, 0);
    wrong += bitsOf(lg2ApproxFtz(measured, floatOf(input))) != bitsOf(hardware);
    ++checked;
  }
  EXPECT_EQ(wrong, 0) << "of " << checked;
}

TEST(SfuTest, Lg2SpecialInputs) {
  const SfuTables &measured = tables();
  EXPECT_EQ(lg2ApproxFtz(measured, 1.0f), 0.0f);
  EXPECT_EQ(lg2ApproxFtz(measured, 8.0f), 3.0f);
  // Below 1 the table on [0.5, 1) rounds: the H100 gives 0.5 as
  // -1 + 2^-23, and 0.25 as -2 + 2^-23.
  EXPECT_EQ(bitsOf(lg2ApproxFtz(measured, 0.5f)), measured.lg2Half[0]);
  EXPECT_EQ(lg2ApproxFtz(measured, 0.25f), -2.0f + std::ldexp(1.0f, -23));
  EXPECT_TRUE(std::isinf(lg2ApproxFtz(measured, 1e-40f)));
  EXPECT_LT(lg2ApproxFtz(measured, 0.0f), 0.0f);
  EXPECT_EQ(bitsOf(lg2ApproxFtz(measured, -2.0f)), 0x7fffffffu);
  // Every NaN gives the canonical one (lg2.cu, checks4.txt).
  EXPECT_EQ(bitsOf(lg2ApproxFtz(measured, floatOf(0xff812345u))), 0x7fffffffu);
  EXPECT_EQ(bitsOf(lg2Approx(measured, floatOf(0x7f868880u))), 0x7fffffffu);
  EXPECT_TRUE(std::isinf(lg2ApproxFtz(measured, INFINITY)));
  // The non-ftz form scales a subnormal by 2^24.
  EXPECT_EQ(lg2Approx(measured, std::ldexp(1.0f, -140)),
            lg2ApproxFtz(measured, std::ldexp(1.0f, -116)) - 24.0f);
}

/// DIR/NAME.u32 (tables.py --extract) as words.
std::vector<uint32_t> extracted(const std::string &name) {
  std::ifstream file(std::string(FA4_EMU_SFU_TABLES) + "/" + name + ".u32",
                     std::ios::binary);
  std::vector<uint32_t> words;
  for (uint32_t word; file.read(reinterpret_cast<char *>(&word), 4);)
    words.push_back(word);
  return words;
}

/// The H100's tanh.approx.f32 at 2^e (1 + k 2^-16), e = -20..4, k < 2^16,
/// both signs: inputs whose seven low fraction bits are zero.
TEST(SfuTest, TanhMatchesTheH100OnItsTable) {
  tables(); // the fixture that extracts them
  std::vector<uint32_t> table = extracted("tanh");
  ASSERT_EQ(table.size(), 25u << 16);
  int64_t wrong = 0;
  for (uint32_t i = 0; i < table.size(); ++i) {
    uint32_t input = uint32_t(i / 65536 - 20 + 127) << 23 | (i % 65536) << 7;
    for (uint32_t sign : {0u, 0x80000000u})
      wrong += bitsOf(tanhApprox(floatOf(input | sign))) != (table[i] | sign);
  }
  EXPECT_EQ(wrong, 0) << "of " << 2 * table.size();
}

/// Every fraction bit: the first 2^20 inputs of binades -8 and -1, segment
/// 0 of binade 0 and of binade 1 (check_tanh.cu's dumps). The unit reads
/// only the 17 fraction bits below the segment index; a model that reads
/// more or fewer fails here (the table above cannot tell).
TEST(SfuTest, TanhMatchesTheH100AtEveryFractionBit) {
  tables();
  for (auto [name, exponent, count] :
       {std::tuple<const char *, int, uint32_t>{"tanh_em8", -8, 1u << 20},
        {"tanh_em1_s0", -1, 1u << 20},
        {"tanh_e0_s0", 0, 1u << 20},
        {"tanh_e1_s0", 1, 1u << 19}}) {
    std::vector<uint32_t> measured = extracted(name);
    ASSERT_EQ(measured.size(), count) << name;
    int64_t wrong = 0;
    for (uint32_t j = 0; j < count; ++j)
      wrong +=
          bitsOf(tanhApprox(floatOf(uint32_t(exponent + 127) << 23 | j))) !=
          measured[j];
    EXPECT_EQ(wrong, 0) << name;
  }
}

/// tanh_special.txt (check_tanh.cu): NaNs, infinities, zeros, subnormals
/// and the ends of the interpolated range.
TEST(SfuTest, TanhSpecialInputs) {
  std::ifstream special(std::string(FA4_MUFU_H100_DIR) + "/tanh_special.txt");
  int seen = 0;
  for (std::string input, output; special >> input >> output; ++seen)
    EXPECT_EQ(
        bitsOf(tanhApprox(floatOf(uint32_t(std::stoul(input, nullptr, 16))))),
        uint32_t(std::stoul(output, nullptr, 16)))
        << input;
  EXPECT_EQ(seen, 16);
}

TEST(SfuTest, MissingOrShortTablesAreRefused) {
  EXPECT_NE(loadSfuTables("/nonexistent").find("cannot open"),
            std::string::npos);
  std::string dir = ::testing::TempDir();
  for (const char *name :
       {"ex2_pos.u32", "ex2_neg.u32", "lg2_e0.u32", "lg2_em1.u32", "rcp.u32"})
    std::ofstream(dir + "/" + name) << "short";
  EXPECT_NE(loadSfuTables(dir).find("is not 8388608 32-bit words"),
            std::string::npos);
}

} // namespace

namespace {

TEST(SfuTest, TensorCoreDotMatchesTheH100) {
  // bench/mufu/mma_probe.py's trials 5 and 50 (accumulators of about 1e-2
  // and 1e2): per trial A 64 x 16 and B 16 x 64 bf16, C and the H100's D
  // 64 x 64 f32.
  std::ifstream file(std::string(FA4_MUFU_H100_DIR) + "/mma-k16.bin",
                     std::ios::binary);
  ASSERT_TRUE(file.good());
  int matched = 0, total = 0;
  for (int trial = 0; trial < 2; ++trial) {
    std::vector<uint16_t> a(64 * 16), b(16 * 64);
    std::vector<float> c(64 * 64), d(64 * 64);
    file.read(reinterpret_cast<char *>(a.data()), a.size() * 2);
    file.read(reinterpret_cast<char *>(b.data()), b.size() * 2);
    file.read(reinterpret_cast<char *>(c.data()), c.size() * 4);
    file.read(reinterpret_cast<char *>(d.data()), d.size() * 4);
    ASSERT_TRUE(file.good());
    for (int m = 0; m < 64; ++m)
      for (int n = 0; n < 64; ++n) {
        std::array<float, 16> left, right;
        for (int k = 0; k < 16; ++k) {
          left[size_t(k)] = floatOf(uint32_t(a[size_t(m * 16 + k)]) << 16);
          right[size_t(k)] = floatOf(uint32_t(b[size_t(k * 64 + n)]) << 16);
        }
        float dot = tensorCoreDot(c[size_t(m * 64 + n)], left, right);
        matched += bitsOf(dot) == bitsOf(d[size_t(m * 64 + n)]);
        ++total;
      }
  }
  EXPECT_EQ(matched, total);
}

} // namespace
