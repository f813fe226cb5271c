//===- Backward.h - CPU reference for attention's backward pass -*- C++ -*-===//
//
// What fa4-run checks a backward kernel (ABI version 16) against: the f64
// forward that gives it O (rounded to the dtype) and LSE (f32), as a real
// forward would store them, and FlashAttention's backward rule on each of
// dQ, dK and dV:
//   max|dX - dX_ref| <= 2 max|dX_lowp - dX_ref| + atol,
// with dX_ref the f64 gradient of the rounded inputs (D_i = dO_i . O_i from
// the stored O, as FlashAttention's kernels take it), dX_lowp the same
// gradient as autograd computes it in the dtype (the forward's scores and P
// rounded as fa4-run's forward check rounds them; dP, dS and each matmul's
// result rounded; dK and dV rounded per query head, then summed over the
// group and rounded), and atol FlashAttention's floor: twice the largest
// rounding of dX_ref + 0.3 in the dtype (plus 3e-4 under a softcap).
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUN_BACKWARD_H
#define FA4_RUN_BACKWARD_H

#include "Reference.h"

#include <vector>

namespace fa4::run {

/// A backward launch's host tensors as floats, dense: q, k, v and dout
/// (values of the dtype), the forward's o (rounded to the dtype) and lse
/// (f32, [b, hq, sq]), and the kernel's dq, dk, dv.
struct BackwardData {
  std::vector<float> q, k, v, o, lse, dout;
  std::vector<float> dq, dk, dv;
};

/// The forward a backward kernel reads: O and LSE of the f64 attention of
/// `q`, `k`, `v`, O rounded to shape.dtype and LSE to f32 (-inf and O = 0
/// for a row without keys).
void referenceForward(const AttentionShape &shape, const std::vector<float> &q,
                      const std::vector<float> &k, const std::vector<float> &v,
                      std::vector<float> &o, std::vector<float> &lse);

/// dQ, dK, dV, dense as their inputs.
struct Gradients {
  std::vector<double> dq, dk, dv;
};

/// The f64 gradients of `data`'s inputs (`exact`) and the low-precision
/// model's (`lowp`, each value of the dtype).
void referenceBackward(const AttentionShape &shape, const BackwardData &data,
                       Gradients &exact, Gradients &lowp);

/// One gradient's verdict.
struct GradientCheck {
  double maxError = 0;   // max|dX - dX_ref|
  double refError = 0;   // max|dX_lowp - dX_ref|
  double atol = 0;       // FlashAttention's floor
  int64_t unwritten = 0; // NaN left
  /// 2 refError + atol: the most maxError may be.
  double bound() const { return 2 * refError + atol; }
  bool passed() const { return unwritten == 0 && maxError <= bound(); }
};

struct BackwardCheck {
  GradientCheck dq, dk, dv;
  bool passed() const { return dq.passed() && dk.passed() && dv.passed(); }
};

/// Holds `data`'s dq, dk and dv to the rule above.
BackwardCheck checkBackward(const AttentionShape &shape,
                            const BackwardData &data);

/// One gradient against the references (`kernel` as the kernel wrote it).
GradientCheck compareGradient(fa4_dtype dtype, double softcap,
                              const std::vector<float> &kernel,
                              const std::vector<double> &exact,
                              const std::vector<double> &lowp);

} // namespace fa4::run

#endif // FA4_RUN_BACKWARD_H
