// NaiveBackward.cuh - a slow, obviously-correct attention backward kernel
// that follows the fa4 kernel ABI (version 16), so fa4-run's backward check
// and the runtime's backward launch are tested end to end before the
// compiler emits backward kernels.
//
// From q, k, v, the forward's o and lse, and dout: one thread per query row
// of one head writes its dQ row, one thread per key row of one kv head its
// dK and dV rows (summed over the group's query heads), every P recomputed
// from the scores and LSE, D = dO . O from the given O, all in f32. Grid
// [ceil(sq / 128)], [hq], [b, 2]: z = 2 b + role, role 0 the queries, role
// 1 the keys (the blocks of a group's first query head); each thread walks
// its rows with the grid's stride, so any grid x covers them. Depths in
// chunks of registers: no local array, and no shared memory, so that,
// compiled alone (nvcc -x cu), this is a module fa4-emu runs. NaiveAttention.cu
// includes it, so the self-test build (scripts/gpu-check.sh) has both.

#ifndef FA4_NAIVE_BACKWARD_CUH
#define FA4_NAIVE_BACKWARD_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace naive_backward {

__device__ inline float widen(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ inline float widen(__half x) { return __half2float(x); }
__device__ inline void store(__nv_bfloat16 *to, float x) {
  *to = __float2bfloat16_rn(x);
}
__device__ inline void store(__half *to, float x) { *to = __float2half_rn(x); }

/// A strided [b, s, h, d] tensor.
template <typename T> struct Rows {
  T *data;
  long long s0, s1, s2;
  __device__ T *row(int b, int s, int h) const {
    return data + b * s0 + s * s1 + h * s2;
  }
};

struct Problem {
  int sq, skv, hq, hkv, dqk, dv, windowLeft, windowRight; // -1: unbounded
  float scale, softcap;                                   // softcap 0: none
  /// Whether query i sees key j (bottom-right aligned).
  __device__ bool sees(int i, int j) const {
    int diagonal = i + skv - sq;
    return (windowLeft < 0 || j >= diagonal - windowLeft) &&
           (windowRight < 0 || j <= diagonal + windowRight);
  }
};

template <typename T> struct Tensors {
  Rows<const T> q, k, v, o, dout;
  const float *lse;
  long long ls0, ls1;
  Rows<T> dq, dk, dv;
};

template <typename T> __device__ float dot(const T *a, const T *b, int n) {
  float sum = 0;
  for (int d = 0; d < n; ++d)
    sum += widen(a[d]) * widen(b[d]);
  return sum;
}

/// dS of query i of head h against key j: P = exp(S - LSE), dP = dO . V_j,
/// D = dO . O, dS = P (dP - D) times the softcap's slope 1 - tanh^2. P in
/// `p`.
template <typename T>
__device__ float scoreGradient(const Tensors<T> &t, const Problem &pr, int b,
                               int h, int i, int j, float &p) {
  int kvh = h / (pr.hq / pr.hkv);
  float s = pr.scale * dot(t.q.row(b, i, h), t.k.row(b, j, kvh), pr.dqk);
  float slope = 1;
  if (pr.softcap > 0) {
    // tanh by expf: tanhf's copysign.f32 is no instruction fa4-emu runs.
    float th = 1 - 2 / (expf(2 * s / pr.softcap) + 1);
    s = pr.softcap * th;
    slope = 1 - th * th;
  }
  p = expf(s - t.lse[b * t.ls0 + h * t.ls1 + i]);
  const T *dout = t.dout.row(b, i, h);
  float dp = dot(dout, t.v.row(b, j, kvh), pr.dv);
  float d = dot(dout, t.o.row(b, i, h), pr.dv);
  return p * (dp - d) * slope;
}

constexpr int kChunk = 16;

/// dQ_i = scale sum_j dS_ij K_j.
template <typename T>
__device__ void queryGradient(const Tensors<T> &t, const Problem &pr, int b,
                              int h, int i) {
  int kvh = h / (pr.hq / pr.hkv);
  for (int d0 = 0; d0 < pr.dqk; d0 += kChunk) {
    float acc[kChunk] = {};
    for (int j = 0; j < pr.skv; ++j) {
      if (!pr.sees(i, j))
        continue;
      float p;
      float ds = pr.scale * scoreGradient(t, pr, b, h, i, j, p);
      const T *k = t.k.row(b, j, kvh) + d0;
#pragma unroll
      for (int d = 0; d < kChunk; ++d)
        if (d0 + d < pr.dqk)
          acc[d] += ds * widen(k[d]);
    }
#pragma unroll
    for (int d = 0; d < kChunk; ++d)
      if (d0 + d < pr.dqk)
        store(t.dq.row(b, i, h) + d0 + d, acc[d]);
  }
}

/// dK_j = scale sum_{h, i} dS_ij Q_i and dV_j = sum_{h, i} P_ij dO_i over
/// the query heads h of kv head `kvh`.
template <typename T>
__device__ void keyGradient(const Tensors<T> &t, const Problem &pr, int b,
                            int kvh, int j) {
  int group = pr.hq / pr.hkv;
  for (int d0 = 0; d0 < pr.dqk; d0 += kChunk) {
    float acc[kChunk] = {};
    for (int h = kvh * group; h < (kvh + 1) * group; ++h)
      for (int i = 0; i < pr.sq; ++i) {
        if (!pr.sees(i, j))
          continue;
        float p;
        float ds = pr.scale * scoreGradient(t, pr, b, h, i, j, p);
        const T *q = t.q.row(b, i, h) + d0;
#pragma unroll
        for (int d = 0; d < kChunk; ++d)
          if (d0 + d < pr.dqk)
            acc[d] += ds * widen(q[d]);
      }
#pragma unroll
    for (int d = 0; d < kChunk; ++d)
      if (d0 + d < pr.dqk)
        store(t.dk.row(b, j, kvh) + d0 + d, acc[d]);
  }
  for (int d0 = 0; d0 < pr.dv; d0 += kChunk) {
    float acc[kChunk] = {};
    for (int h = kvh * group; h < (kvh + 1) * group; ++h)
      for (int i = 0; i < pr.sq; ++i) {
        if (!pr.sees(i, j))
          continue;
        float p;
        scoreGradient(t, pr, b, h, i, j, p);
        const T *dout = t.dout.row(b, i, h) + d0;
#pragma unroll
        for (int d = 0; d < kChunk; ++d)
          if (d0 + d < pr.dv)
            acc[d] += p * widen(dout[d]);
      }
#pragma unroll
    for (int d = 0; d < kChunk; ++d)
      if (d0 + d < pr.dv)
        store(t.dv.row(b, j, kvh) + d0 + d, acc[d]);
  }
}

template <typename T>
__device__ void attentionBackward(const Tensors<T> &t, const Problem &pr) {
  int b = blockIdx.z / 2, h = blockIdx.y;
  int stride = gridDim.x * blockDim.x;
  int first = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.z % 2 == 0) {
    for (int i = first; i < pr.sq; i += stride)
      queryGradient(t, pr, b, h, i);
    return;
  }
  int group = pr.hq / pr.hkv;
  if (h % group != 0)
    return;
  for (int j = first; j < pr.skv; j += stride)
    keyGradient(t, pr, b, h / group, j);
}

} // namespace naive_backward

// The parameters in the manifests' order: pointers, sizes, strides (lse's
// two), scale_log2, then the attention's own constants.
#define FA4_NAIVE_BACKWARD_KERNEL(name, T)                                     \
  extern "C" __global__ void name(                                             \
      const T *q, const T *k, const T *v, const T *o, const float *lse,        \
      const T *dout, T *dq, T *dk, T *dv, int b, int sq, int skv,              \
      long long qs0, long long qs1, long long qs2, long long ks0,              \
      long long ks1, long long ks2, long long vs0, long long vs1,              \
      long long vs2, long long os0, long long os1, long long os2,              \
      long long ls0, long long ls1, long long dos0, long long dos1,            \
      long long dos2, long long dqs0, long long dqs1, long long dqs2,          \
      long long dks0, long long dks1, long long dks2, long long dvs0,          \
      long long dvs1, long long dvs2, float scaleLog2, int hq, int hkv,        \
      int qkDepth, int ovDepth, int windowLeft, int windowRight,               \
      float softcap) {                                                         \
    (void)b;                                                                   \
    naive_backward::Tensors<T> t = {{q, qs0, qs1, qs2},                        \
                                    {k, ks0, ks1, ks2},                        \
                                    {v, vs0, vs1, vs2},                        \
                                    {o, os0, os1, os2},                        \
                                    {dout, dos0, dos1, dos2},                  \
                                    lse,                                       \
                                    ls0,                                       \
                                    ls1,                                       \
                                    {dq, dqs0, dqs1, dqs2},                    \
                                    {dk, dks0, dks1, dks2},                    \
                                    {dv, dvs0, dvs1, dvs2}};                   \
    naive_backward::Problem pr = {                                             \
        sq,         skv,         hq,                                           \
        hkv,        qkDepth,     ovDepth,                                      \
        windowLeft, windowRight, scaleLog2 * 0.69314718055994531f,             \
        softcap};                                                              \
    naive_backward::attentionBackward(t, pr);                                  \
  }
FA4_NAIVE_BACKWARD_KERNEL(fa4_naive_attention_backward_bf16, __nv_bfloat16)
FA4_NAIVE_BACKWARD_KERNEL(fa4_naive_attention_backward_f16, __half)

#endif // FA4_NAIVE_BACKWARD_CUH
