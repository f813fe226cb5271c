//===- Backward.cpp - CPU reference for attention's backward pass ---------===//

#include "Backward.h"

#include "LowPrecision.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace fa4::run;

namespace {

double dot(const float *a, const float *b, int64_t n) {
  double sum = 0;
  for (int64_t d = 0; d < n; ++d)
    sum += double(a[d]) * double(b[d]);
  return sum;
}

/// The rows of one (batch, kv head): its keys and values, strided by the
/// kv heads, and the query heads that read them.
struct Group {
  const AttentionShape &shape;
  int64_t batch, kvHead;

  int64_t groupSize() const { return shape.headsQ / shape.headsKV; }
  /// Element offset of query row (head, query) in a [b, sq, hq, depth]
  /// tensor.
  int64_t queryOffset(int64_t head, int64_t query, int64_t depth) const {
    return ((batch * shape.seqQ + query) * shape.headsQ + head) * depth;
  }
  /// Element offset of key row `key` in a [b, skv, hkv, depth] tensor.
  int64_t keyOffset(int64_t key, int64_t depth) const {
    return ((batch * shape.seqKV + key) * shape.headsKV + kvHead) * depth;
  }
  int64_t lseOffset(int64_t head, int64_t query) const {
    return (batch * shape.headsQ + head) * shape.seqQ + query;
  }
};

/// Query row `q`'s f64 scores against the visible keys, softcapped, in
/// `scores[j]` (and the raw scaled scores in `raw[j]`); returns the LSE,
/// -inf without keys.
double exactScores(const Group &group, const float *q, const float *k,
                   KeyRange range, std::vector<double> &raw,
                   std::vector<double> &scores) {
  const AttentionShape &shape = group.shape;
  double rowMax = -std::numeric_limits<double>::infinity();
  for (int64_t j = range.first; j <= range.last; ++j) {
    raw[j] = shape.scale *
             dot(q, &k[group.keyOffset(j, shape.qkDepth)], shape.qkDepth);
    double c = shape.softcap;
    scores[j] = c ? c * std::tanh(raw[j] / c) : raw[j];
    rowMax = std::max(rowMax, scores[j]);
  }
  if (range.first > range.last)
    return rowMax;
  double sum = 0;
  for (int64_t j = range.first; j <= range.last; ++j)
    sum += std::exp(scores[j] - rowMax);
  return rowMax + std::log(sum);
}

/// Scratch for one query row: keys' scores and probabilities, both sides.
struct RowScratch {
  std::vector<double> raw, scores, p, ds;      // f64
  std::vector<double> tanhLowp, pLowp, dsLowp; // the dtype's model
  explicit RowScratch(int64_t keys)
      : raw(keys), scores(keys), p(keys), ds(keys), tanhLowp(keys), pLowp(keys),
        dsLowp(keys) {}
};

/// The f64 dS of one row: P = exp(S - LSE), dP = dO V^T, dS = P (dP - D)
/// with D = dO . O (the stored O), times the softcap's slope 1 - tanh^2.
void exactRowGradient(const Group &group, const BackwardData &data,
                      int64_t head, int64_t query, KeyRange range,
                      RowScratch &row) {
  const AttentionShape &shape = group.shape;
  int64_t dv = shape.ovDepth;
  const float *q = &data.q[group.queryOffset(head, query, shape.qkDepth)];
  const float *dout = &data.dout[group.queryOffset(head, query, dv)];
  double lse = exactScores(group, q, data.k.data(), range, row.raw, row.scores);
  double d = dot(dout, &data.o[group.queryOffset(head, query, dv)], dv);
  for (int64_t j = range.first; j <= range.last; ++j) {
    row.p[j] = std::exp(row.scores[j] - lse);
    double dp = dot(dout, &data.v[group.keyOffset(j, dv)], dv);
    double slope = 1;
    if (double c = shape.softcap) {
      double t = std::tanh(row.raw[j] / c);
      slope = 1 - t * t;
    }
    row.ds[j] = row.p[j] * (dp - d) * slope;
  }
}

/// The dtype's dS of one row as autograd computes it from the forward
/// fa4-run's forward check models (Reference.cpp): the product Q K^T
/// rounded, times the scale, rounded, capped as c * tanh(s / c) with each
/// step rounded; P = softmax in f32 rounded; then dP = dO V^T rounded,
/// D = sum(P dP) (softmax's backward), dS = P (dP - D) rounded, the cap's
/// backward (times c, times 1 - t^2, over c, each rounded) and the scale's
/// (rounded). `row.dsLowp[j]` is the gradient of the product Q K^T.
void lowpRowGradient(const Group &group, const BackwardData &data, int64_t head,
                     int64_t query, KeyRange range, RowScratch &row) {
  const AttentionShape &shape = group.shape;
  fa4_dtype dtype = shape.dtype;
  auto round = [&](double value) { return roundTo(dtype, value); };
  int64_t dqk = shape.qkDepth, dv = shape.ovDepth;
  const float *q = &data.q[group.queryOffset(head, query, dqk)];
  const float *dout = &data.dout[group.queryOffset(head, query, dv)];
  double c = shape.softcap;
  double rowMax = -std::numeric_limits<double>::infinity();
  for (int64_t j = range.first; j <= range.last; ++j) {
    double s = round(round(dot(q, &data.k[group.keyOffset(j, dqk)], dqk)) *
                     shape.scale);
    if (c) {
      row.tanhLowp[j] = round(std::tanh(round(s / c)));
      s = round(c * row.tanhLowp[j]);
    }
    row.pLowp[j] = s;
    rowMax = std::max(rowMax, s);
  }
  double sum = 0;
  for (int64_t j = range.first; j <= range.last; ++j)
    sum += row.pLowp[j] = std::exp(row.pLowp[j] - rowMax);
  double d = 0;
  for (int64_t j = range.first; j <= range.last; ++j) {
    row.pLowp[j] = round(row.pLowp[j] / sum);
    row.dsLowp[j] = round(dot(dout, &data.v[group.keyOffset(j, dv)], dv));
    d += row.pLowp[j] * row.dsLowp[j];
  }
  for (int64_t j = range.first; j <= range.last; ++j) {
    double ds = round(row.pLowp[j] * (row.dsLowp[j] - d));
    if (c) {
      double t = row.tanhLowp[j];
      ds = round(round(round(ds * c) * (1 - t * t)) / c);
    }
    row.dsLowp[j] = round(ds * shape.scale);
  }
}

/// y[0, n) += a x[0, n).
void axpy(double a, const float *x, double *y, int64_t n) {
  for (int64_t d = 0; d < n; ++d)
    y[d] += a * double(x[d]);
}

/// The gradients of one (batch, kv head): dQ of its query heads' rows, dK
/// and dV of its keys, both sides. Groups write disjoint rows.
void backwardGroup(const Group &group, const BackwardData &data,
                   Gradients &exact, Gradients &lowp) {
  const AttentionShape &shape = group.shape;
  int64_t keys = shape.seqKV, dqk = shape.qkDepth, dv = shape.ovDepth;
  RowScratch row(keys);
  // The dtype's dK and dV per query head, rounded before the group's sum.
  std::vector<double> dkHead(keys * dqk), dvHead(keys * dv);
  std::vector<double> dkSum(keys * dqk), dvSum(keys * dv), dqLowp(dqk);
  for (int64_t g = 0; g < group.groupSize(); ++g) {
    int64_t head = group.kvHead * group.groupSize() + g;
    std::fill(dkHead.begin(), dkHead.end(), 0.0);
    std::fill(dvHead.begin(), dvHead.end(), 0.0);
    for (int64_t query = 0; query < shape.seqQ; ++query) {
      KeyRange range = visibleKeys(shape, query);
      if (range.first > range.last)
        continue; // P = 0: no gradient from this row
      exactRowGradient(group, data, head, query, range, row);
      lowpRowGradient(group, data, head, query, range, row);
      int64_t qAt = group.queryOffset(head, query, dqk);
      const float *q = &data.q[qAt];
      const float *dout = &data.dout[group.queryOffset(head, query, dv)];
      std::fill(dqLowp.begin(), dqLowp.end(), 0.0);
      for (int64_t j = range.first; j <= range.last; ++j) {
        const float *k = &data.k[group.keyOffset(j, dqk)];
        int64_t kAt = group.keyOffset(j, dqk), vAt = group.keyOffset(j, dv);
        double ds = shape.scale * row.ds[j];
        axpy(ds, k, &exact.dq[qAt], dqk);
        axpy(ds, q, &exact.dk[kAt], dqk);
        axpy(row.p[j], dout, &exact.dv[vAt], dv);
        axpy(row.dsLowp[j], k, dqLowp.data(), dqk);
        axpy(row.dsLowp[j], q, &dkHead[j * dqk], dqk);
        axpy(row.pLowp[j], dout, &dvHead[j * dv], dv);
      }
      for (int64_t d = 0; d < dqk; ++d)
        lowp.dq[qAt + d] = roundTo(shape.dtype, dqLowp[d]);
    }
    for (int64_t i = 0; i < keys * dqk; ++i)
      dkSum[i] += roundTo(shape.dtype, dkHead[i]);
    for (int64_t i = 0; i < keys * dv; ++i)
      dvSum[i] += roundTo(shape.dtype, dvHead[i]);
  }
  for (int64_t j = 0; j < keys; ++j) {
    for (int64_t d = 0; d < dqk; ++d)
      lowp.dk[group.keyOffset(j, dqk) + d] =
          roundTo(shape.dtype, dkSum[j * dqk + d]);
    for (int64_t d = 0; d < dv; ++d)
      lowp.dv[group.keyOffset(j, dv) + d] =
          roundTo(shape.dtype, dvSum[j * dv + d]);
  }
}

/// FlashAttention's absolute floor: twice the largest rounding of
/// dX_ref + 0.3 and back in the dtype, dX_ref itself in the dtype.
double flashAttentionFloor(fa4_dtype dtype, const std::vector<double> &exact) {
  double largest = 0;
  for (double value : exact) {
    double ref = roundTo(dtype, value);
    double back = roundTo(dtype, roundTo(dtype, ref + 0.3) - 0.3);
    largest = std::max(largest, std::fabs(back - ref));
  }
  return 2 * largest;
}

} // namespace

void fa4::run::referenceForward(const AttentionShape &shape,
                                const std::vector<float> &q,
                                const std::vector<float> &k,
                                const std::vector<float> &v,
                                std::vector<float> &o,
                                std::vector<float> &lse) {
  int64_t rows = shape.batch * shape.headsQ * shape.seqQ;
  o.assign(rows * shape.ovDepth, 0.0f);
  lse.assign(rows, 0.0f);
  parallelFor(rows, [&](int64_t begin, int64_t end) {
    std::vector<double> raw(shape.seqKV), scores(shape.seqKV),
        out(shape.ovDepth);
    for (int64_t row = begin; row < end; ++row) {
      int64_t query = row % shape.seqQ;
      int64_t head = (row / shape.seqQ) % shape.headsQ;
      Group group{shape, row / (shape.seqQ * shape.headsQ),
                  head / (shape.headsQ / shape.headsKV)};
      KeyRange range = visibleKeys(shape, query);
      double rowLse =
          exactScores(group, &q[group.queryOffset(head, query, shape.qkDepth)],
                      k.data(), range, raw, scores);
      std::fill(out.begin(), out.end(), 0.0);
      for (int64_t j = range.first; j <= range.last; ++j)
        axpy(std::exp(scores[j] - rowLse),
             &v[group.keyOffset(j, shape.ovDepth)], out.data(), shape.ovDepth);
      float *o_row = &o[group.queryOffset(head, query, shape.ovDepth)];
      for (int64_t d = 0; d < shape.ovDepth; ++d)
        o_row[d] = static_cast<float>(roundTo(shape.dtype, out[d]));
      lse[group.lseOffset(head, query)] = static_cast<float>(rowLse);
    }
  });
}

void fa4::run::referenceBackward(const AttentionShape &shape,
                                 const BackwardData &data, Gradients &exact,
                                 Gradients &lowp) {
  for (Gradients *gradients : {&exact, &lowp}) {
    gradients->dq.assign(data.q.size(), 0.0);
    gradients->dk.assign(data.k.size(), 0.0);
    gradients->dv.assign(data.v.size(), 0.0);
  }
  parallelFor(shape.batch * shape.headsKV, [&](int64_t begin, int64_t end) {
    for (int64_t index = begin; index < end; ++index)
      backwardGroup(Group{shape, index / shape.headsKV, index % shape.headsKV},
                    data, exact, lowp);
  });
}

GradientCheck fa4::run::compareGradient(fa4_dtype dtype, double softcap,
                                        const std::vector<float> &kernel,
                                        const std::vector<double> &exact,
                                        const std::vector<double> &lowp) {
  GradientCheck check;
  for (size_t i = 0; i < exact.size(); ++i) {
    if (std::isnan(kernel[i])) {
      ++check.unwritten;
      continue;
    }
    check.maxError = std::max(check.maxError, std::fabs(kernel[i] - exact[i]));
    check.refError = std::max(check.refError, std::fabs(lowp[i] - exact[i]));
  }
  // FlashAttention adds 3e-4 under a softcap.
  check.atol = flashAttentionFloor(dtype, exact) + (softcap ? 3e-4 : 0);
  return check;
}

BackwardCheck fa4::run::checkBackward(const AttentionShape &shape,
                                      const BackwardData &data) {
  Gradients exact, lowp;
  referenceBackward(shape, data, exact, lowp);
  BackwardCheck result;
  result.dq =
      compareGradient(shape.dtype, shape.softcap, data.dq, exact.dq, lowp.dq);
  result.dk =
      compareGradient(shape.dtype, shape.softcap, data.dk, exact.dk, lowp.dk);
  result.dv =
      compareGradient(shape.dtype, shape.softcap, data.dv, exact.dv, lowp.dv);
  return result;
}
