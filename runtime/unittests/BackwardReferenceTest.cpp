//===- BackwardReferenceTest.cpp - fa4-run's backward reference -----------===//
//
// The reference gradients against central differences of an f64 forward
// written here, and the pass rule on gradients a kernel could write.
//
//===----------------------------------------------------------------------===//

#include "Backward.h"
#include "LowPrecision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace fa4::run;

namespace {

/// GQA 4 / 2, Dqk 3 != Dv 2, more queries than keys: bottom-right aligned,
/// the causal mask's first two rows see no key.
AttentionShape smallShape(fa4_mask_kind mask, double softcap = 0) {
  AttentionShape shape{
      /*batch=*/2,       /*seqQ=*/7,    /*seqKV=*/5,
      /*headsQ=*/4,      /*headsKV=*/2, /*qkDepth=*/3,
      /*ovDepth=*/2,     mask,          /*windowLeft=*/1,
      /*windowRight=*/0, /*scale=*/0.7, FA4_DTYPE_BF16};
  shape.softcap = softcap;
  return shape;
}

/// Deterministic values in [-1.5, 1.5], exact in bf16.
std::vector<float> values(size_t count, int salt) {
  std::vector<float> result(count);
  for (size_t i = 0; i < count; ++i)
    result[i] = float(int((i * 37 + salt * 11) % 25) - 12) / 8.0f;
  return result;
}

/// An f64 forward of its own (BSHD, GQA, the mask, the softcap): O, with 0
/// where a row sees no key.
std::vector<double> forward(const AttentionShape &shape,
                            const std::vector<double> &q,
                            const std::vector<double> &k,
                            const std::vector<double> &v) {
  int64_t dqk = shape.qkDepth, dv = shape.ovDepth;
  std::vector<double> o(shape.batch * shape.seqQ * shape.headsQ * dv, 0.0);
  for (int64_t b = 0; b < shape.batch; ++b)
    for (int64_t h = 0; h < shape.headsQ; ++h)
      for (int64_t i = 0; i < shape.seqQ; ++i) {
        int64_t kvh = h / (shape.headsQ / shape.headsKV);
        KeyRange range = visibleKeys(shape, i);
        std::vector<double> s(shape.seqKV);
        double max = -INFINITY, sum = 0;
        for (int64_t j = range.first; j <= range.last; ++j) {
          double score = 0;
          for (int64_t d = 0; d < dqk; ++d)
            score += q[((b * shape.seqQ + i) * shape.headsQ + h) * dqk + d] *
                     k[((b * shape.seqKV + j) * shape.headsKV + kvh) * dqk + d];
          score *= shape.scale;
          if (shape.softcap)
            score = shape.softcap * std::tanh(score / shape.softcap);
          max = std::max(max, s[j] = score);
        }
        for (int64_t j = range.first; j <= range.last; ++j)
          sum += s[j] = std::exp(s[j] - max);
        for (int64_t j = range.first; j <= range.last; ++j)
          for (int64_t d = 0; d < dv; ++d)
            o[((b * shape.seqQ + i) * shape.headsQ + h) * dv + d] +=
                s[j] / sum *
                v[((b * shape.seqKV + j) * shape.headsKV + kvh) * dv + d];
      }
  return o;
}

std::vector<double> widened(const std::vector<float> &values) {
  return std::vector<double>(values.begin(), values.end());
}

/// The inputs of `shape` and, as its stored O, the f64 forward's (in f32).
BackwardData inputs(const AttentionShape &shape) {
  BackwardData data;
  int64_t queries = shape.batch * shape.seqQ * shape.headsQ;
  int64_t keys = shape.batch * shape.seqKV * shape.headsKV;
  data.q = values(queries * shape.qkDepth, 1);
  data.k = values(keys * shape.qkDepth, 2);
  data.v = values(keys * shape.ovDepth, 3);
  data.dout = values(queries * shape.ovDepth, 4);
  std::vector<double> o =
      forward(shape, widened(data.q), widened(data.k), widened(data.v));
  data.o.assign(o.begin(), o.end());
  return data;
}

/// d/dx of sum(dout * O) at every element of `which` (0 q, 1 k, 2 v), by
/// central differences.
std::vector<double> numericGradient(const AttentionShape &shape,
                                    const BackwardData &data, int which) {
  std::vector<double> in[3] = {widened(data.q), widened(data.k),
                               widened(data.v)};
  auto loss = [&] {
    std::vector<double> o = forward(shape, in[0], in[1], in[2]);
    double sum = 0;
    for (size_t i = 0; i < o.size(); ++i)
      sum += double(data.dout[i]) * o[i];
    return sum;
  };
  const double step = 1e-5;
  std::vector<double> gradient(in[which].size());
  for (size_t i = 0; i < gradient.size(); ++i) {
    double at = in[which][i];
    in[which][i] = at + step;
    double up = loss();
    in[which][i] = at - step;
    double down = loss();
    in[which][i] = at;
    gradient[i] = (up - down) / (2 * step);
  }
  return gradient;
}

double maxDifference(const std::vector<double> &a,
                     const std::vector<double> &b) {
  double largest = 0;
  for (size_t i = 0; i < a.size(); ++i)
    largest = std::max(largest, std::fabs(a[i] - b[i]));
  return largest;
}

double maxMagnitude(const std::vector<double> &a) {
  double largest = 0;
  for (double value : a)
    largest = std::max(largest, std::fabs(value));
  return largest;
}

struct Case {
  const char *name;
  fa4_mask_kind mask;
  double softcap;
};
const Case kCases[] = {{"none", FA4_MASK_NONE, 0},
                       {"causal", FA4_MASK_CAUSAL, 0},
                       {"window", FA4_MASK_WINDOW, 0},
                       {"softcap", FA4_MASK_NONE, 1.5},
                       {"causal-softcap", FA4_MASK_CAUSAL, 1.5}};

TEST(BackwardReferenceTest, GradientsAreTheForwardsCentralDifferences) {
  for (const Case &c : kCases) {
    AttentionShape shape = smallShape(c.mask, c.softcap);
    BackwardData data = inputs(shape);
    Gradients exact, lowp;
    referenceBackward(shape, data, exact, lowp);
    const std::vector<double> *gradients[3] = {&exact.dq, &exact.dk, &exact.dv};
    for (int which = 0; which < 3; ++which) {
      std::vector<double> numeric = numericGradient(shape, data, which);
      ASSERT_EQ(numeric.size(), gradients[which]->size());
      // Not all zero: the comparison means something.
      EXPECT_GT(maxMagnitude(numeric), 0.05) << c.name << " " << which;
      // D from the stored O in f32 and the step's truncation: 1e-6.
      EXPECT_LT(maxDifference(numeric, *gradients[which]), 1e-6)
          << c.name << " "
          << "qkv"[which];
      // The dtype's model is off by its roundings, not more.
      EXPECT_LT(maxDifference(*gradients[which], which == 0   ? lowp.dq
                                                 : which == 1 ? lowp.dk
                                                              : lowp.dv),
                0.05 * maxMagnitude(numeric) + 0.01)
          << c.name << " "
          << "qkv"[which];
    }
  }
}

/// The causal mask's rows without keys: O = 0, LSE = -inf, and no gradient
/// from them.
TEST(BackwardReferenceTest, ForwardStoresTheDtypesOAndLse) {
  AttentionShape shape = smallShape(FA4_MASK_CAUSAL);
  BackwardData data = inputs(shape);
  std::vector<float> o, lse;
  referenceForward(shape, data.q, data.k, data.v, o, lse);
  ASSERT_EQ(o.size(), data.o.size());
  for (size_t i = 0; i < o.size(); ++i)
    EXPECT_EQ(o[i], roundTo(shape.dtype, data.o[i])) << i;
  // Row (b 0, h 0, query 0) and 1 see no key; 2 sees key 0 alone.
  EXPECT_EQ(lse[0], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(lse[1], -std::numeric_limits<float>::infinity());
  double score = 0;
  for (int d = 0; d < 3; ++d)
    score += double(data.q[(2 * 4) * 3 + d]) * double(data.k[d]);
  EXPECT_NEAR(lse[2], shape.scale * score, 1e-6);
  Gradients exact, lowp;
  referenceBackward(shape, data, exact, lowp);
  for (int64_t d = 0; d < 3; ++d) {
    EXPECT_EQ(exact.dq[d], 0); // query 0, head 0
    EXPECT_EQ(lowp.dq[d], 0);
  }
}

/// The rule on gradients a kernel could write: the exact ones rounded
/// pass; one without the scale, a dK of one query head of its group, a
/// stale D or a NaN fail.
TEST(BackwardReferenceTest, HoldsEachGradientToFlashAttentionsRule) {
  AttentionShape shape = smallShape(FA4_MASK_CAUSAL, 1.5);
  BackwardData data = inputs(shape);
  referenceForward(shape, data.q, data.k, data.v, data.o, data.lse);
  Gradients exact, lowp;
  referenceBackward(shape, data, exact, lowp);
  auto rounded = [&](const std::vector<double> &gradient) {
    std::vector<float> result(gradient.size());
    for (size_t i = 0; i < gradient.size(); ++i)
      result[i] = float(roundTo(shape.dtype, gradient[i]));
    return result;
  };
  data.dq = rounded(exact.dq);
  data.dk = rounded(exact.dk);
  data.dv = rounded(exact.dv);
  BackwardCheck check = checkBackward(shape, data);
  EXPECT_TRUE(check.passed());
  EXPECT_GT(check.dq.refError, 0);
  EXPECT_GT(check.dk.atol, 0);
  EXPECT_LE(check.dv.maxError, check.dv.bound());

  BackwardData unscaled = data;
  for (size_t i = 0; i < exact.dq.size(); ++i)
    unscaled.dq[i] = float(exact.dq[i] / shape.scale);
  BackwardCheck bad = checkBackward(shape, unscaled);
  EXPECT_FALSE(bad.dq.passed());
  EXPECT_TRUE(bad.dk.passed());

  // dK of the group's first query head alone: the reference without the
  // other head's rows.
  AttentionShape oneHead = shape;
  oneHead.headsQ = shape.headsKV; // hq = hkv: group of one
  BackwardData firstHeads = data;
  firstHeads.dout.assign(data.dout.size() / 2, 0);
  firstHeads.q.assign(data.q.size() / 2, 0);
  firstHeads.o.assign(data.o.size() / 2, 0);
  int64_t rows = shape.batch * shape.seqQ * shape.headsKV;
  for (int64_t row = 0; row < rows; ++row) { // head 2 r of the group r
    int64_t from = row * 2; // (b, i, kvh) reads query head 2 kvh
    std::copy_n(&data.q[from * 3], 3, &firstHeads.q[row * 3]);
    std::copy_n(&data.dout[from * 2], 2, &firstHeads.dout[row * 2]);
    std::copy_n(&data.o[from * 2], 2, &firstHeads.o[row * 2]);
  }
  Gradients partial, unused;
  referenceBackward(oneHead, firstHeads, partial, unused);
  BackwardData oneHeadDk = data;
  oneHeadDk.dk = rounded(partial.dk);
  EXPECT_FALSE(checkBackward(shape, oneHeadDk).dk.passed());

  BackwardData staleD = data;
  for (float &value : staleD.o)
    value = 0; // D = 0
  Gradients staleExact, staleLowp;
  referenceBackward(shape, staleD, staleExact, staleLowp);
  BackwardData staleKernel = data;
  staleKernel.dq = rounded(staleExact.dq);
  EXPECT_FALSE(checkBackward(shape, staleKernel).dq.passed());

  BackwardData unwritten = data;
  unwritten.dv.back() = NAN;
  BackwardCheck holes = checkBackward(shape, unwritten);
  EXPECT_EQ(holes.dv.unwritten, 1);
  EXPECT_FALSE(holes.passed());
}

} // namespace
