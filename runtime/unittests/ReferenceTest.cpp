//===- ReferenceTest.cpp - fa4-run's CPU reference and its row sample -----===//

#include "Reference.h"
#include "LowPrecision.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace fa4::run;

namespace {

/// One key per (batch, head): every query's P is exactly 1, so O is that
/// key's V row and LSE its score; values are small integers, exact in bf16.
class ReferenceTest : public ::testing::Test {
protected:
  AttentionShape shape{
      /*batch=*/1,
      /*seqQ=*/130,
      /*seqKV=*/1,
      /*headsQ=*/2,
      /*headsKV=*/1,
      /*qkDepth=*/8,
      /*ovDepth=*/8,
      /*mask=*/FA4_MASK_NONE,
      /*windowLeft=*/-1,
      /*windowRight=*/-1,
      /*scale=*/0.25,
      /*dtype=*/FA4_DTYPE_BF16,
  };
  AttentionData data;

  void SetUp() override {
    int64_t rows = shape.batch * shape.seqQ * shape.headsQ;
    for (int64_t i = 0; i < rows * shape.qkDepth; ++i)
      data.q.push_back(float(i % 5) - 2);
    for (int64_t d = 0; d < shape.qkDepth; ++d)
      data.k.push_back(float(d % 3));
    for (int64_t d = 0; d < shape.ovDepth; ++d)
      data.v.push_back(float(d) - 3);
    for (int64_t row = 0; row < rows; ++row)
      data.o.insert(data.o.end(), data.v.begin(), data.v.end());
  }

  /// Adds 1 to O's first column at (head, query).
  void corrupt(int64_t head, int64_t query) {
    data.o[(query * shape.headsQ + head) * shape.ovDepth] += 1;
  }
};

TEST_F(ReferenceTest, ExactOutputPassesEveryRow) {
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.checkedRows, 260);
  EXPECT_EQ(result.maxError, 0);
}

// A budget of one multiply-add samples no random row worth mentioning, but
// every 64-row block's first and last rows and the last row: queries 0, 63,
// 64, 127, 128 and 129 of both heads.
TEST_F(ReferenceTest, SampleAlwaysChecksEdgeRows) {
  corrupt(/*head=*/1, /*query=*/127);
  CheckResult result = checkAttention(shape, data, 1, /*seed=*/1);
  EXPECT_FALSE(result.passed);
  EXPECT_GE(result.checkedRows, 12);
  EXPECT_LT(result.checkedRows, 260);
  EXPECT_EQ(result.maxError, 1);
}

TEST_F(ReferenceTest, LastRowIsAnEdgeRow) {
  corrupt(/*head=*/0, /*query=*/129);
  EXPECT_FALSE(checkAttention(shape, data, 1, /*seed=*/1).passed);
}

TEST_F(ReferenceTest, FullCheckFindsAnInteriorRow) {
  corrupt(/*head=*/0, /*query=*/30);
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

TEST_F(ReferenceTest, UnwrittenOutputFailsWhateverTheSample) {
  data.o[(30 * shape.headsQ) * shape.ovDepth + 3] = NAN;
  CheckResult result = checkAttention(shape, data, 1, /*seed=*/1);
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.unwritten, 1);
}

// O_lowp takes the scores in the dtype, as torch does: Q K^T = 259 rounds
// to 260 in bf16 beside a key at 256, so at scale 1/4 the low-precision
// softmax sees a gap of 1.0 where the exact one sees 0.75. With V = 1 for
// the first key and 0 for the second, O_ref = sigmoid(0.75) = 0.67918 and
// O_lowp = bf16(sigmoid(1.0)) = 0.73047: the rule allows twice their gap.
/// One bf16 query row and two keys whose Q K^T are 259 and 256 (scores
/// 64.75 and 64 at scale 1/4); V is 1 in the first key's first column, 0
/// elsewhere, so O's first column is the first key's probability.
struct TwoKeys {
  AttentionShape shape;
  AttentionData data;
};
TwoKeys twoKeys(double softcap = 0) {
  TwoKeys two{{/*batch=*/1, /*seqQ=*/1, /*seqKV=*/2, /*headsQ=*/1,
               /*headsKV=*/1, /*qkDepth=*/8, /*ovDepth=*/8,
               /*mask=*/FA4_MASK_NONE, /*windowLeft=*/-1, /*windowRight=*/-1,
               /*scale=*/0.25, /*dtype=*/FA4_DTYPE_BF16, softcap},
              {}};
  two.data.q = {16, 16, 1, 1, 1, 0, 0, 0};
  two.data.k = {8, 8, 1, 1, 1, 0, 0, 0, /*second key*/ 8, 8, 0, 0, 0, 0, 0, 0};
  two.data.v = {1, 0, 0, 0, 0, 0, 0, 0, /*second key*/ 0, 0, 0, 0, 0, 0, 0, 0};
  return two;
}

TEST(ReferenceScoresTest, LowPrecisionScoresAreRounded) {
  auto [shape, data] = twoKeys();
  double exact = 1 / (1 + std::exp(-0.75));
  data.o = {0.6796875f, 0, 0, 0, 0, 0, 0, 0}; // bf16(exact)
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_NEAR(result.refError, 0.73046875 - exact, 1e-9);
  EXPECT_NEAR(result.maxError, 0.6796875 - exact, 1e-9);
  EXPECT_TRUE(result.passed);
  // An O past twice that gap fails.
  data.o[0] = float(exact + 2.1 * (0.73046875 - exact));
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

// Softcap c = 50 bends the scores 64.75 and 64 of the case above to
// 50 tanh(64.75 / 50) and 50 tanh(64 / 50), a gap of 0.1973 instead of 0.75:
// O_ref = sigmoid(0.1973) = 0.54916, and the uncapped 0.67969 fails.
TEST(ReferenceScoresTest, SoftcapBendsTheScores) {
  auto [shape, data] = twoKeys(/*softcap=*/50);
  double gap = 50 * (std::tanh(64.75 / 50) - std::tanh(64.0 / 50));
  double exact = 1 / (1 + std::exp(-gap));
  EXPECT_NEAR(exact, 0.54916, 1e-5);
  data.o = {0.548828125f, 0, 0, 0, 0, 0, 0, 0}; // bf16(exact)
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_NEAR(result.maxError, exact - 0.548828125, 1e-9);
  EXPECT_TRUE(result.passed);
  data.o[0] = 0.6796875f; // bf16(sigmoid(0.75)): no softcap
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

// A sink of 64.75 (the first key's score) joins the denominator with no
// value row: O_ref = 1 / (2 + e^-0.75) = 0.40447 and LSE = 64.75 +
// ln(2 + e^-0.75); the O and the LSE of the softmax without it fail.
TEST(ReferenceScoresTest, SinkJoinsTheDenominator) {
  auto [shape, data] = twoKeys();
  shape.sinks = true;
  data.sinks = {64.75f};
  double denominator = 2 + std::exp(-0.75);
  EXPECT_NEAR(1 / denominator, 0.40447, 1e-5);
  data.o = {0.404296875f, 0, 0, 0, 0, 0, 0, 0}; // bf16(1 / denominator)
  data.lse = {float(64.75 + std::log(denominator))};
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_NEAR(result.maxError, 1 / denominator - 0.404296875, 1e-9);
  EXPECT_LE(result.maxLseError, 1e-5);
  EXPECT_TRUE(result.passed);
  data.lse = {float(64.75 + std::log(1 + std::exp(-0.75)))}; // no sink
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
  data.lse = {float(64.75 + std::log(denominator))};
  data.o[0] = 0.6796875f; // bf16(sigmoid(0.75)): no sink
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

// A row that sees no key keeps O = 0 and takes its sink as its LSE.
TEST(ReferenceScoresTest, SinkIsTheLseOfARowWithoutKeys) {
  AttentionShape shape{/*batch=*/1,
                       /*seqQ=*/2,
                       /*seqKV=*/1,
                       /*headsQ=*/1,
                       /*headsKV=*/1,
                       /*qkDepth=*/8,
                       /*ovDepth=*/8,
                       /*mask=*/FA4_MASK_CAUSAL,
                       /*windowLeft=*/-1,
                       /*windowRight=*/-1,
                       /*scale=*/0.25,
                       FA4_DTYPE_BF16};
  shape.sinks = true;
  AttentionData data;
  data.q.assign(16, 1.0f);
  data.k.assign(8, 1.0f);
  data.v.assign(8, 1.0f);
  data.sinks = {-3.5f};
  // Query 0 sees no key (Sq > Skv, bottom-right); query 1 sees key 0, whose
  // score 2 and the sink's -3.5 share the row.
  double keyShare = 1 / (1 + std::exp(-3.5 - 2.0));
  data.o.assign(16, 0.0f);
  for (int d = 8; d < 16; ++d)
    data.o[d] = float(keyShare);
  data.lse = {-3.5f, float(2.0 + std::log(1 + std::exp(-5.5)))};
  EXPECT_TRUE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
  data.lse[0] = -INFINITY;
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

} // namespace

// Every finite e4m3 code converts back to itself; NaN codes read as NaN.
TEST(LowPrecisionTest, E4m3CodesRoundTrip) {
  for (int bits = 0; bits < 256; ++bits) {
    float value = e4m3ToFloat(uint8_t(bits));
    if ((bits & 0x7F) == 0x7F) {
      EXPECT_TRUE(std::isnan(value)) << bits;
      continue;
    }
    EXPECT_EQ(floatToE4m3(value), bits) << value;
  }
  EXPECT_EQ(e4m3ToFloat(0x38), 1.0f);
  EXPECT_EQ(e4m3ToFloat(0x7E), 448.0f);
  EXPECT_EQ(e4m3ToFloat(0x08), 0x1p-6f); // the smallest normal
  EXPECT_EQ(e4m3ToFloat(0x01), 0x1p-9f); // the smallest subnormal
  EXPECT_EQ(e4m3ToFloat(0xB8), -1.0f);
}

// Round to nearest even, saturating to +-448 (cvt.rn.satfinite); NaN is
// 0x7F. Checked against the nearest of all finite codes on a sweep.
TEST(LowPrecisionTest, E4m3RoundsToNearestEvenAndSaturates) {
  EXPECT_EQ(floatToE4m3(1.0625f), 0x38);   // tie between 1 and 1.125: even
  EXPECT_EQ(floatToE4m3(1.1875f), 0x3A);   // tie between 1.125 and 1.25
  EXPECT_EQ(floatToE4m3(0x1p-10f), 0x00);  // tie between 0 and 2^-9
  EXPECT_EQ(floatToE4m3(0x3p-10f), 0x02);  // tie between 2^-9 and 2^-8
  EXPECT_EQ(floatToE4m3(0x0.fp-6f), 0x08); // rounds up into the normals
  EXPECT_EQ(floatToE4m3(460.0f), 0x7E);
  EXPECT_EQ(floatToE4m3(1e9f), 0x7E);
  EXPECT_EQ(floatToE4m3(INFINITY), 0x7E);
  EXPECT_EQ(floatToE4m3(-INFINITY), 0xFE);
  EXPECT_EQ(floatToE4m3(-0.0f), 0x80);
  EXPECT_EQ(floatToE4m3(NAN), 0x7F);
  for (int i = 0; i <= 100000; ++i) {
    float x = 470.0f * float(i) / 100000 * (i % 2 ? -1 : 1);
    // The nearest finite code; of two, the one with an even mantissa.
    int best = -1;
    float bestError = INFINITY;
    for (int bits = 0; bits < 256; ++bits) {
      if ((bits & 0x7F) == 0x7F)
        continue;
      float error = std::fabs(e4m3ToFloat(uint8_t(bits)) - x);
      if (error < bestError ||
          (error == bestError && (bits & 1) == 0 && (best & 1) == 1 &&
           std::signbit(e4m3ToFloat(uint8_t(bits))) == std::signbit(x))) {
        best = bits;
        bestError = error;
      }
    }
    ASSERT_EQ(e4m3ToFloat(floatToE4m3(x)), e4m3ToFloat(uint8_t(best))) << x;
  }
}

// FP8 (version 15): one query, two keys of e4m3 values, dequantised by
// descales q 0.5, k 1.5 (a score gap of 0.75 at scale 1) and v 2, V 1 in the
// second key's first column: O_ref = 2 (1 - sigmoid(0.75)) = 0.64164. The
// final-maximum model's P of the second key, e^-0.75 = 0.47237, rounds to
// e4m3 0.46875 and its sum 1.47237 does not: O_lowp = 2 x 0.46875 / 1.47237
// = 0.63673, in bf16 0.63672. Each element is held to the bound on P's
// roundings: 2 / 1.47237 x 0.47237 / 16 = 0.04010 here, plus half a bf16
// ulp of O; a column of V zeros has none.
struct TwoFp8Keys {
  AttentionShape shape;
  AttentionData data;
};
TwoFp8Keys twoFp8Keys() {
  TwoFp8Keys two{{/*batch=*/1, /*seqQ=*/1, /*seqKV=*/2, /*headsQ=*/1,
                  /*headsKV=*/1, /*qkDepth=*/8, /*ovDepth=*/8,
                  /*mask=*/FA4_MASK_NONE, /*windowLeft=*/-1,
                  /*windowRight=*/-1, /*scale=*/1.0,
                  /*dtype=*/FA4_DTYPE_E4M3},
                 {}};
  two.shape.outputDtype = FA4_DTYPE_BF16;
  two.data.q = {1, 0, 0, 0, 0, 0, 0, 0};
  two.data.k = {1, 0, 0, 0, 0, 0, 0, 0, /*second key*/ 0, 0, 0, 0, 0, 0, 0, 0};
  two.data.v = {0, 0, 0, 0, 0, 0, 0, 0, /*second key*/ 1, 0, 0, 0, 0, 0, 0, 0};
  two.data.qDescale = {0.5f};
  two.data.kDescale = {1.5f};
  two.data.vDescale = {2.0f};
  two.data.o.assign(8, 0.0f);
  return two;
}

TEST(ReferenceFp8Test, DequantisesAndBoundsPsRoundings) {
  auto [shape, data] = twoFp8Keys();
  double exact = 2 * (1 - 1 / (1 + std::exp(-0.75)));
  EXPECT_NEAR(exact, 0.64164, 1e-5);
  double lowp = 0.63671875; // bf16(2 x e4m3(e^-0.75) / (1 + e^-0.75))
  EXPECT_EQ(roundTo(FA4_DTYPE_E4M3, std::exp(-0.75)), 0.46875);
  EXPECT_EQ(roundTo(FA4_DTYPE_BF16, 2 * 0.46875 / (1 + std::exp(-0.75))), lowp);
  double pBound = 2 * std::exp(-0.75) / 16 / (1 + std::exp(-0.75));
  double bound = pBound + (exact + pBound) * 0x1p-8 + 1e-5;
  data.o[0] = 0.640625f; // bf16(exact)
  data.lse = {float(0.75 + std::log(1 + std::exp(-0.75)))};
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_NEAR(result.refError, exact - lowp, 1e-9);
  EXPECT_NEAR(result.maxError, exact - 0.640625, 1e-9);
  EXPECT_NEAR(result.boundRatio, (exact - 0.640625) / bound, 1e-6);
  EXPECT_LE(result.maxLseError, 1e-6);
  EXPECT_TRUE(result.passed);
  data.o[0] = float(lowp);
  EXPECT_TRUE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
  // Within the bound, past twice O_lowp's error: a rounding at another
  // scale may do that; past the bound, nothing may.
  data.o[0] = float(exact - 0.95 * bound);
  result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_GT(result.maxError, 2 * result.refError);
  EXPECT_TRUE(result.passed);
  data.o[0] = float(exact + 1.05 * bound);
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
  // A column whose V is 0 has no P to round.
  data.o[0] = float(lowp);
  data.o[1] = 1e-3f;
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
  data.o[1] = 0;
  // O without v's descale, or scores without q's and k's, fail.
  data.o[0] = float(exact / 2);
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
  data.o[0] = float(2 * (1 - 1 / (1 + std::exp(-1.0))));
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

// A kernel whose running maximum was still the second key's score when it
// rounded P (a lazy rescale keeps it while the maximum grows by less than
// 2^8): P = e4m3(e^0.75) = 2 and 1, with V 1 and -1, so O = 2 (2 - 1) /
// (e^0.75 + 1) = 0.64166 against O_ref = 2 (2 sigmoid(0.75) - 1) = 0.71672:
// 13 times the final-maximum model's error, within the bound of 0.128.
TEST(ReferenceFp8Test, PassesRoundingAtAStaleMaximum) {
  auto [shape, data] = twoFp8Keys();
  data.v[0] = 1;
  data.v[8] = -1;
  EXPECT_EQ(roundTo(FA4_DTYPE_E4M3, std::exp(0.75)), 2.0);
  double exact = 2 * (2 / (1 + std::exp(-0.75)) - 1);
  data.o[0] =
      float(roundTo(FA4_DTYPE_BF16, 2 * (2.0 - 1) / (std::exp(0.75) + 1)));
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_NEAR(result.maxError, exact - data.o[0], 1e-9);
  EXPECT_GT(result.maxError, 10 * result.refError);
  EXPECT_LT(result.boundRatio, 0.61);
  EXPECT_TRUE(result.passed);
}

// Over 2048 elements or more, the mean error is held to 3 times O_lowp's
// too: one key a row (P = 1 exactly, O_lowp = O_ref) and O 1/32 too large,
// within each element's bound (1/16 of v's descale x |V|).
TEST(ReferenceFp8Test, HoldsTheMeanErrorOverEnoughElements) {
  for (int64_t rows : {15, 16}) {
    AttentionShape shape{/*batch=*/1,       /*seqQ=*/rows,
                         /*seqKV=*/1,       /*headsQ=*/1,
                         /*headsKV=*/1,     /*qkDepth=*/8,
                         /*ovDepth=*/128,   /*mask=*/FA4_MASK_NONE,
                         /*windowLeft=*/-1, /*windowRight=*/-1,
                         /*scale=*/1.0,     /*dtype=*/FA4_DTYPE_E4M3};
    AttentionData data;
    data.q.assign(rows * 8, 1.0f);
    data.k.assign(8, 1.0f);
    for (int d = 0; d < 128; ++d)
      data.v.push_back(float(d % 7 - 3));
    data.vDescale = {0.5f};
    for (int64_t i = 0; i < rows; ++i)
      for (int d = 0; d < 128; ++d)
        data.o.push_back(0.5f * data.v[d] * (1 + 1.0f / 32));
    CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
    EXPECT_EQ(result.refMeanError, 0);
    EXPECT_LT(result.boundRatio, 0.51);
    // 15 rows: 1920 elements, too few for a mean.
    EXPECT_EQ(result.passed, rows == 15) << rows;
  }
}

// Descales per (batch, kv head): query head h of batch b reads entry
// (b, h / (hq / hkv)). One key a row, so P = 1 and O = v's descale x V, and
// LSE = scale x q's x k's descale x Q.K.
TEST(ReferenceFp8Test, ReadsDescalesPerBatchAndKvHead) {
  AttentionShape shape{/*batch=*/2,       /*seqQ=*/1,
                       /*seqKV=*/1,       /*headsQ=*/4,
                       /*headsKV=*/2,     /*qkDepth=*/8,
                       /*ovDepth=*/8,     /*mask=*/FA4_MASK_NONE,
                       /*windowLeft=*/-1, /*windowRight=*/-1,
                       /*scale=*/0.25,    /*dtype=*/FA4_DTYPE_E4M3};
  shape.outputDtype = FA4_DTYPE_F16;
  AttentionData data;
  data.q.assign(2 * 4 * 8, 1.0f);
  data.k.assign(2 * 2 * 8, 1.0f);
  data.v.assign(2 * 2 * 8, 1.0f);
  data.qDescale = {1.0f, 2.0f, 3.0f, 4.0f}; // [b, hkv]
  data.kDescale = {0.5f};
  data.vDescale = {0.5f, 0.75f, 1.25f, 1.5f};
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t h = 0; h < 4; ++h) {
      int64_t entry = b * 2 + h / 2;
      for (int d = 0; d < 8; ++d)
        data.o.push_back(data.vDescale[entry]);
      data.lse.push_back(0.25f * data.qDescale[entry] * 0.5f * 8);
    }
  CheckResult result = checkAttention(shape, data, INFINITY, /*seed=*/1);
  EXPECT_EQ(result.maxError, 0);
  EXPECT_EQ(result.maxLseError, 0);
  EXPECT_TRUE(result.passed);
  // Entry (b, h % hkv) instead: heads 1 and 2 of each batch swap.
  std::swap(data.o[1 * 8], data.o[2 * 8]);
  EXPECT_FALSE(checkAttention(shape, data, INFINITY, /*seed=*/1).passed);
}

namespace {
AttentionShape maskShape(int64_t seqQ, int64_t seqKV, fa4_mask_kind mask,
                         int64_t left = -1, int64_t right = -1) {
  return AttentionShape{1, seqQ, seqKV, 1,     1,   8,
                        8, mask, left,  right, 1.0, FA4_DTYPE_BF16};
}

void expectKeys(const AttentionShape &shape, int64_t query, int64_t first,
                int64_t last) {
  KeyRange range = visibleKeys(shape, query);
  EXPECT_EQ(range.first, first) << "query " << query;
  EXPECT_EQ(range.last, last) << "query " << query;
}
} // namespace

// Causal is bottom-right aligned (query i sees key j iff j <= i + Skv - Sq),
// hand-derived for Sq != Skv so that a top-left diagonal (j <= i) fails.
TEST(ReferenceMaskTest, CausalIsBottomRightAligned) {
  AttentionShape decode = maskShape(3, 5, FA4_MASK_CAUSAL);
  expectKeys(decode, 0, 0, 2);
  expectKeys(decode, 1, 0, 3);
  expectKeys(decode, 2, 0, 4);
  EXPECT_EQ(visiblePairs(decode), 3 + 4 + 5);
  // More queries than keys: the first rows see no key (O = 0, LSE = -inf).
  AttentionShape tall = maskShape(5, 3, FA4_MASK_CAUSAL);
  KeyRange none = visibleKeys(tall, 1);
  EXPECT_GT(none.first, none.last);
  expectKeys(tall, 2, 0, 0);
  expectKeys(tall, 4, 0, 2);
  EXPECT_EQ(visiblePairs(tall), 1 + 2 + 3);
}

// A window (left, right) sits around the same bottom-right diagonal.
TEST(ReferenceMaskTest, WindowAroundTheDiagonal) {
  AttentionShape window = maskShape(4, 6, FA4_MASK_WINDOW, 1, 0);
  // Diagonals 2, 3, 4, 5: keys [d - 1, d].
  expectKeys(window, 0, 1, 2);
  expectKeys(window, 3, 4, 5);
  AttentionShape right = maskShape(4, 6, FA4_MASK_WINDOW, -1, 1);
  expectKeys(right, 0, 0, 3);
  expectKeys(right, 3, 0, 5); // clamped to the last key
  AttentionShape left = maskShape(4, 6, FA4_MASK_WINDOW, 0, -1);
  expectKeys(left, 0, 2, 5);
  EXPECT_EQ(visiblePairs(left), 4 + 3 + 2 + 1);
  AttentionShape none = maskShape(4, 6, FA4_MASK_NONE);
  expectKeys(none, 0, 0, 5);
}
