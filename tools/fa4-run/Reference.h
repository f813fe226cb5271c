//===- Reference.h - CPU reference for attn.attention -----------*- C++ -*-===//
//
// The attn.attention contract computed on the CPU (BSHD, GQA, Dqk != Dv,
// bottom-right aligned causal / window masks) and FlashAttention's pass rule:
// max|O - O_ref| <= 2 * max|O_lowp - O_ref| + 1e-5, with O_ref in f64 and
// O_lowp the same math in the input dtype, as FlashAttention's and torch's
// reference in that dtype take it: Q K^T and its scaled scores, P and O
// rounded to the dtype, the softmax itself in f64. FP8 (e4m3 inputs,
// version 15): both from the dequantised inputs (descale x e4m3 value), and
// O_lowp with the kernel's roundings instead: the scaled scores in f32, the
// unnormalised P = exp(s - rowmax) rounded to e4m3 before P V, the row sum
// from the unrounded P, O rounded to the output dtype; the rule is then
// each element within the bound on P's e4m3 roundings at any scale, and
// over 2048 elements or more the mean error at most 3 times O_lowp's
// (docs/KernelABI.md, "FP8").
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUN_REFERENCE_H
#define FA4_RUN_REFERENCE_H

#include "fa4-c/Runtime.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace fa4::run {

struct AttentionShape {
  int64_t batch, seqQ, seqKV, headsQ, headsKV, qkDepth, ovDepth;
  fa4_mask_kind mask;
  int64_t windowLeft, windowRight; // -1: unbounded
  double scale;
  fa4_dtype dtype;
  double softcap = 0; // 0: none; else scores s become c * tanh(s / c)
  bool sinks = false; // one f32 logit per query head joins each row's softmax
  /// O's dtype under e4m3 inputs (bf16 or f16); o has `dtype` otherwise.
  fa4_dtype outputDtype = FA4_DTYPE_BF16;
  /// q's, k's and v's descales as fa4_kernel_info gives them (0 none, 1 one
  /// value, 2 [b, hkv]), for allocating them; the reference reads
  /// AttentionData's.
  int32_t descales[3] = {0, 0, 0};

  bool fp8() const { return dtype == FA4_DTYPE_E4M3; }
  fa4_dtype oDtype() const { return fp8() ? outputDtype : dtype; }
};

/// Keys [first, last] that query `i` sees; empty when first > last.
struct KeyRange {
  int64_t first, last;
};
KeyRange visibleKeys(const AttentionShape &shape, int64_t query);

/// Visible (query, key) pairs of one (batch, head): what FLOPs count.
int64_t visiblePairs(const AttentionShape &shape);

/// Dense BSHD (and [b, hq, sq] LSE, [hq] sinks) host tensors, as floats;
/// an FP8 kernel's q, k and v as their e4m3 values, each dequantised by its
/// descale: none (empty: 1), one value, or [b, hkv] (query head h reads
/// entry h / (hq / hkv)).
struct AttentionData {
  std::vector<float> q, k, v, o, lse; // lse empty when the kernel has none
  std::vector<float> sinks;           // empty when the kernel has none
  std::vector<float> qDescale, kDescale, vDescale;
};

struct CheckResult {
  double maxError = 0;    // max|O - O_ref| over checked rows
  double refError = 0;    // max|O_lowp - O_ref| over checked rows
  double maxLseError = 0; // max|LSE - LSE_ref|, inf on a -inf mismatch
  double meanError = 0, refMeanError = 0; // the same errors' means
  /// FP8: max over elements of |O - O_ref| / the bound on P's roundings.
  double boundRatio = 0;
  int64_t unwritten = 0;  // NaN left in O or LSE (all rows)
  int64_t checkedRows = 0, totalRows = 0;
  bool passed = false;
};

/// Checks `data.o` / `data.lse` against the reference. When the reference
/// would take more than `workBudget` multiply-adds, a deterministic sample
/// of rows (b, h, i) is checked, always with the first and last row of
/// every 64-row block and the last row; NaNs are looked for everywhere.
CheckResult checkAttention(const AttentionShape &shape,
                           const AttentionData &data, double workBudget,
                           uint64_t seed);

/// Runs body(begin, end) over [0, count) on every hardware thread.
void parallelFor(int64_t count,
                 const std::function<void(int64_t, int64_t)> &body);

} // namespace fa4::run

#endif // FA4_RUN_REFERENCE_H
