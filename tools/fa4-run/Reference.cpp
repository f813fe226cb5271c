//===- Reference.cpp - CPU reference for attn.attention -------------------===//

#include "Reference.h"

#include "LowPrecision.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

using namespace fa4::run;

KeyRange fa4::run::visibleKeys(const AttentionShape &shape, int64_t query) {
  KeyRange range{0, shape.seqKV - 1};
  // Bottom-right aligned: the last query sees the last key.
  int64_t diagonal = query + shape.seqKV - shape.seqQ;
  int64_t left = -1, right = -1;
  if (shape.mask == FA4_MASK_CAUSAL)
    right = 0;
  if (shape.mask == FA4_MASK_WINDOW) {
    left = shape.windowLeft;
    right = shape.windowRight;
  }
  if (left >= 0)
    range.first = std::max(range.first, diagonal - left);
  if (right >= 0)
    range.last = std::min(range.last, diagonal + right);
  return range;
}

int64_t fa4::run::visiblePairs(const AttentionShape &shape) {
  int64_t pairs = 0;
  for (int64_t i = 0; i < shape.seqQ; ++i) {
    KeyRange range = visibleKeys(shape, i);
    pairs += std::max<int64_t>(0, range.last - range.first + 1);
  }
  return pairs;
}

void fa4::run::parallelFor(int64_t count,
                           const std::function<void(int64_t, int64_t)> &body) {
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  // Small chunks taken from a shared counter balance masked (uneven) rows.
  int64_t chunk = std::max<int64_t>(1, count / (threads * 16));
  std::atomic<int64_t> next{0};
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < std::min(threads, count); ++t)
    workers.emplace_back([&] {
      for (int64_t begin; (begin = next.fetch_add(chunk)) < count;)
        body(begin, std::min(count, begin + chunk));
    });
  for (std::thread &worker : workers)
    worker.join();
}

namespace {

uint64_t mix(uint64_t x) { // splitmix64 finalizer
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

double dot(const float *a, const float *b, int64_t n) {
  // Four sums: independent chains the CPU can overlap.
  double sum[4] = {0, 0, 0, 0};
  int64_t d = 0;
  for (; d + 4 <= n; d += 4)
    for (int lane = 0; lane < 4; ++lane)
      sum[lane] += double(a[d + lane]) * double(b[d + lane]);
  for (; d < n; ++d)
    sum[0] += double(a[d]) * double(b[d]);
  return (sum[0] + sum[1]) + (sum[2] + sum[3]);
}

/// The descale of (batch, kv head) in `descales` (AttentionData).
double descaleAt(const std::vector<float> &descales, int64_t batch,
                 int64_t kvHead, int64_t headsKV) {
  if (descales.empty())
    return 1;
  if (descales.size() == 1)
    return descales[0];
  return descales[batch * headsKV + kvHead];
}

struct RowErrors {
  double maxError = 0, refError = 0, maxLseError = 0;
  double sumError = 0, sumRefError = 0; // over `elements`
  double boundRatio = 0; // FP8: max |O - O_ref| / its rounding bound
  int64_t checkedRows = 0, elements = 0;

  void merge(const RowErrors &other) {
    maxError = std::max(maxError, other.maxError);
    refError = std::max(refError, other.refError);
    maxLseError = std::max(maxLseError, other.maxLseError);
    sumError += other.sumError;
    sumRefError += other.sumRefError;
    boundRatio = std::max(boundRatio, other.boundRatio);
    checkedRows += other.checkedRows;
    elements += other.elements;
  }
};

/// Reference row (b, h, i) compared with the device's, folded into `errors`.
void checkRow(const AttentionShape &shape, const AttentionData &data,
              int64_t row, std::vector<double> &scores,
              std::vector<double> &scoresLowp, std::vector<double> &outRef,
              std::vector<double> &outLowp, std::vector<double> &outBound,
              RowErrors &errors) {
  int64_t query = row % shape.seqQ;
  int64_t head = (row / shape.seqQ) % shape.headsQ;
  int64_t batch = row / (shape.seqQ * shape.headsQ);
  int64_t kvHead = head / (shape.headsQ / shape.headsKV);
  int64_t dqk = shape.qkDepth, dv = shape.ovDepth;
  const float *q =
      &data.q[((batch * shape.seqQ + query) * shape.headsQ + head) * dqk];
  auto kvIndex = [&](int64_t key, int64_t depth) {
    return ((batch * shape.seqKV + key) * shape.headsKV + kvHead) * depth;
  };
  const float *o =
      &data.o[((batch * shape.seqQ + query) * shape.headsQ + head) * dv];
  // FP8: dequantised, descale x e4m3 value; 1 for the other kernels.
  double qDescale = descaleAt(data.qDescale, batch, kvHead, shape.headsKV);
  double kDescale = descaleAt(data.kDescale, batch, kvHead, shape.headsKV);
  double vDescale = descaleAt(data.vDescale, batch, kvHead, shape.headsKV);
  bool fp8 = shape.fp8();

  KeyRange range = visibleKeys(shape, query);
  std::fill(outRef.begin(), outRef.end(), 0.0);
  std::fill(outLowp.begin(), outLowp.end(), 0.0);
  std::fill(outBound.begin(), outBound.end(), 0.0);
  // An attention sink joins the row's max and sum on both sides, unrounded
  // (an f32 logit), and has no value row; a row without keys keeps O = 0
  // and LSE = its sink.
  double sink = data.sinks.empty() ? -std::numeric_limits<double>::infinity()
                                   : double(data.sinks[head]);
  double lseRef = sink;
  if (range.first <= range.last) {
    // The low-precision scores as torch computes them in the dtype:
    // (Q K^T) rounded, times the scale, rounded.
    double rowMax = sink;
    double rowMaxLowp = rowMax;
    for (int64_t j = range.first; j <= range.last; ++j) {
      double product =
          qDescale * kDescale * dot(q, &data.k[kvIndex(j, dqk)], dqk);
      scores[j] = shape.scale * product;
      // FP8: the kernel's scores are f32 (its MMA accumulates in f32).
      scoresLowp[j] = fp8 ? float(scores[j])
                          : roundTo(shape.dtype, roundTo(shape.dtype, product) *
                                                     shape.scale);
      if (double c = shape.softcap) {
        // FlashAttention's reference: divide, tanh, multiply, each in the
        // dtype on the low-precision side (in f32 under FP8).
        scores[j] = c * std::tanh(scores[j] / c);
        scoresLowp[j] =
            fp8 ? float(c * float(std::tanh(float(scoresLowp[j] / c))))
                : roundTo(shape.dtype,
                          c * roundTo(shape.dtype,
                                      std::tanh(roundTo(shape.dtype,
                                                        scoresLowp[j] / c))));
      }
      rowMax = std::max(rowMax, scores[j]);
      rowMaxLowp = std::max(rowMaxLowp, scoresLowp[j]);
    }
    double rowSum = std::exp(sink - rowMax);
    double rowSumLowp = std::exp(sink - rowMaxLowp);
    for (int64_t j = range.first; j <= range.last; ++j) {
      rowSum += scores[j] = std::exp(scores[j] - rowMax);
      rowSumLowp += scoresLowp[j] = std::exp(scoresLowp[j] - rowMaxLowp);
    }
    for (int64_t j = range.first; j <= range.last; ++j) {
      double p = scores[j] / rowSum;
      // FP8: the kernel's P V takes the unnormalised P rounded to e4m3 and
      // divides by the unrounded sum after it.
      double pLowp = fp8 ? roundTo(FA4_DTYPE_E4M3, scoresLowp[j])
                         : roundTo(shape.dtype, scoresLowp[j] / rowSumLowp);
      // FP8: rounded to e4m3 at whatever scale the kernel's online softmax
      // holds it (a running maximum at most the row's), P is off by at most
      // 2^-4 of itself, or by 2^-10 (half e4m3's least subnormal); a
      // softcap's tanh.approx.f32 (relative error below 2^-11) moves it by
      // c 2^-11 of itself more.
      double pBound =
          std::max(scores[j] * (0x1p-4 + shape.softcap * 0x1p-11), 0x1p-10);
      const float *v = &data.v[kvIndex(j, dv)];
      for (int64_t d = 0; d < dv; ++d) {
        outRef[d] += p * vDescale * v[d];
        outLowp[d] += pLowp * v[d];
        outBound[d] += pBound * std::fabs(v[d]);
      }
    }
    if (fp8)
      for (int64_t d = 0; d < dv; ++d) {
        outLowp[d] *= vDescale / rowSumLowp;
        outBound[d] *= vDescale / rowSum;
      }
    lseRef = rowMax + std::log(rowSum);
  }
  // O's own rounding: half an ulp, relative (bf16 8 bits, f16 11).
  double outputUlp = shape.oDtype() == FA4_DTYPE_F16 ? 0x1p-11 : 0x1p-8;
  for (int64_t d = 0; d < dv; ++d) {
    if (std::isnan(o[d]))
      continue; // counted as unwritten
    double error = std::fabs(o[d] - outRef[d]);
    double refError =
        std::fabs(roundTo(shape.oDtype(), outLowp[d]) - outRef[d]);
    errors.maxError = std::max(errors.maxError, error);
    errors.refError = std::max(errors.refError, refError);
    errors.sumError += error;
    errors.sumRefError += refError;
    ++errors.elements;
    if (fp8) {
      double bound =
          outBound[d] + (std::fabs(outRef[d]) + outBound[d]) * outputUlp + 1e-5;
      errors.boundRatio = std::max(errors.boundRatio, error / bound);
    }
  }
  if (!data.lse.empty()) {
    float lse = data.lse[(batch * shape.headsQ + head) * shape.seqQ + query];
    double error = 0;
    if (std::isinf(lseRef) || std::isinf(lse))
      error = lse == lseRef ? 0 : std::numeric_limits<double>::infinity();
    else if (!std::isnan(lse))
      error = std::fabs(lse - lseRef);
    errors.maxLseError = std::max(errors.maxLseError, error);
  }
  ++errors.checkedRows;
}

/// FP8: the fewest checked elements whose mean error is held to O_lowp's.
constexpr int64_t kFp8MeanElements = 2048;

/// Rows a sample always checks: the first and last of every 64-row block
/// (a consumer warpgroup's tile; 128-row tiles are two of them) and the
/// last row, where masks, clipping and tile edges go wrong.
bool isEdgeRow(const AttentionShape &shape, int64_t row) {
  int64_t query = row % shape.seqQ;
  return query % 64 == 0 || query % 64 == 63 || query == shape.seqQ - 1;
}

} // namespace

CheckResult fa4::run::checkAttention(const AttentionShape &shape,
                                     const AttentionData &data,
                                     double workBudget, uint64_t seed) {
  CheckResult result;
  result.totalRows = shape.batch * shape.headsQ * shape.seqQ;
  double work = double(shape.batch * shape.headsQ) * visiblePairs(shape) *
                double(shape.qkDepth + 2 * shape.ovDepth);
  auto sampleEvery = static_cast<uint64_t>(std::ceil(work / workBudget));
  if (sampleEvery < 1)
    sampleEvery = 1;

  std::mutex mutex;
  RowErrors total;
  parallelFor(result.totalRows, [&](int64_t begin, int64_t end) {
    std::vector<double> scores(shape.seqKV), scoresLowp(shape.seqKV),
        outRef(shape.ovDepth), outLowp(shape.ovDepth), outBound(shape.ovDepth);
    RowErrors errors;
    for (int64_t row = begin; row < end; ++row)
      if (sampleEvery == 1 || isEdgeRow(shape, row) ||
          mix(seed ^ uint64_t(row)) % sampleEvery == 0)
        checkRow(shape, data, row, scores, scoresLowp, outRef, outLowp,
                 outBound, errors);
    std::lock_guard<std::mutex> lock(mutex);
    total.merge(errors);
  });
  result.maxError = total.maxError;
  result.refError = total.refError;
  result.maxLseError = total.maxLseError;
  result.checkedRows = total.checkedRows;
  if (total.elements) {
    result.meanError = total.sumError / double(total.elements);
    result.refMeanError = total.sumRefError / double(total.elements);
  }
  result.boundRatio = total.boundRatio;
  for (float value : data.o)
    result.unwritten += std::isnan(value);
  for (float value : data.lse)
    result.unwritten += std::isnan(value);
  result.passed = result.unwritten == 0 && result.maxLseError <= 1e-3;
  if (!shape.fp8()) {
    result.passed &= result.maxError <= 2 * result.refError + 1e-5;
    return result;
  }
  // FP8: a kernel rounds each P against its running maximum (lazily
  // rescaled, up to 2^8 above the row's P), O_lowp against the row's: as
  // large roundings, not the same ones, and where a row's largest P is no
  // longer exactly 1 its O is off by several times O_lowp's. So every
  // element is held to the bound on P's roundings at any scale, and the
  // mean error to 3 times O_lowp's (FlashAttention-4's FP8 rule) where
  // enough elements make a mean: below 2048 a stale maximum's rows alone
  // have measured 3.2 times.
  result.passed &= result.boundRatio <= 1;
  if (total.elements >= kFp8MeanElements)
    result.passed &= result.meanError <= 3 * result.refMeanError + 1e-5;
  return result;
}
