// NaiveAttention.cu - a slow, obviously-correct attention kernel that follows
// the fa4 kernel ABI, so scripts/gpu-check.sh can test libfa4rt and fa4-run
// end to end on a GPU before the compiler emits real kernels.
//
// One thread per query row, softmax in f32 (two passes over the keys). The q
// tensor map (box [1, 64, 1, 64], no swizzle) is used once per block: the
// 64 x 64 tile it loads through TMA must equal q read directly, else the
// block's rows are written as NaN, so a wrong encoding fails the check.
//
// The FP8 kernels (ABI version 15) read e4m3 q, k and v, dequantise the
// scores and O by the descales (NULL: 1; one value, or per (batch, kv head)
// at the batch stride given), round each unnormalised P to e4m3 before P V
// as an FP8 MMA takes it, and store O in bf16 or f16; their q map has the
// 64-byte swizzle of FP8 tiles, unswizzled here for the check.
//
// The backward kernels (ABI version 16) are NaiveBackward.cuh's, included at
// the end.
//
// Each manifest's build prepends its ABI record (include/fa4/AbiRecord.h),
// the definition `tools/abi-record.py --c-definition MANIFEST` prints, so
// the runtime's manifest-against-binary check passes (scripts/gpu-check.sh).

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

template <typename T> __device__ float toFloat(T x);
template <> __device__ float toFloat(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
template <> __device__ float toFloat(__half x) { return __half2float(x); }
template <> __device__ float toFloat(__nv_fp8_e4m3 x) { return float(x); }
template <typename T> __device__ T fromFloat(float x);
template <> __device__ __nv_bfloat16 fromFloat(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ __half fromFloat(float x) { return __float2half_rn(x); }

constexpr int tmaRows = 64, tmaDepth = 64;

// The byte of a row-major tile that TMA writes element `offset` to under a
// swizzle of `swizzleBytes` (0, 32, 64, 128): 16-byte chunk bits [4, 7)
// XORed with the 128-byte row bits [7, 10) (CUTLASS's Swizzle<B, 4, 3>).
__device__ unsigned swizzled(unsigned offset, int swizzleBytes) {
  unsigned mask = swizzleBytes ? swizzleBytes / 16 - 1 : 0;
  return offset ^ (((offset >> 7) & mask) << 4);
}

// Loads q[b, s0 .. s0+63, h, 0..63] with the tensor map; true if it matches.
template <typename T, int swizzleBytes = 0>
__device__ bool tensorMapAgrees(const CUtensorMap *map, const T *q, int b,
                                int s0, int h, int sq, long long qs0,
                                long long qs1, long long qs2, int dqk) {
  // The swizzle pattern repeats every 1024 bytes at most: aligned so, the
  // tile's offsets give the address bits TMA swizzles by.
  __shared__ alignas(1024) T tile[tmaRows * tmaDepth];
  __shared__ alignas(8) unsigned long long barrier;
  __shared__ int mismatch;
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0) {
    mismatch = 0;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
        "r"(int(sizeof(tile))));
    // Coordinates innermost first: depth, head, row, batch.
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::"
        "complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst),
        "l"(map), "r"(0), "r"(h), "r"(s0), "r"(b), "r"(bar)
        : "memory");
  }
  asm volatile("{\n.reg .pred done;\nwait:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               "@!done bra wait;\n}" ::"r"(bar)
               : "memory");
  for (int i = threadIdx.x; i < tmaRows * tmaDepth; i += blockDim.x) {
    int row = i / tmaDepth, d = i % tmaDepth;
    float expected = 0; // out-of-bounds boxes are zero-filled
    if (s0 + row < sq && d < dqk)
      expected = toFloat(q[b * qs0 + (s0 + row) * qs1 + h * qs2 + d]);
    unsigned byte = swizzled(i * unsigned(sizeof(T)), swizzleBytes);
    if (toFloat(tile[byte / sizeof(T)]) != expected)
      mismatch = 1;
  }
  __syncthreads();
  return !mismatch;
}

template <typename T>
__device__ void attention(const CUtensorMap *qMap, const T *q, const T *k,
                          const T *v, T *o, float *lse, int sq, int skv, int hq,
                          int hkv, long long qs0, long long qs1, long long qs2,
                          long long ks0, long long ks1, long long ks2,
                          long long vs0, long long vs1, long long vs2,
                          long long os0, long long os1, long long os2,
                          long long ls0, long long ls1, float scaleLog2,
                          int windowLeft, int windowRight, int dqk, int dv) {
  int b = blockIdx.z, h = blockIdx.y, kvh = h / (hq / hkv);
  int s0 = blockIdx.x * blockDim.x;
  bool mapOk = tensorMapAgrees(qMap, q, b, s0, h, sq, qs0, qs1, qs2, dqk);
  int i = s0 + threadIdx.x;
  if (i >= sq)
    return;
  int diagonal = i + skv - sq; // bottom-right aligned
  int first = windowLeft < 0 ? 0 : max(0, diagonal - windowLeft);
  int last = windowRight < 0 ? skv - 1 : min(skv - 1, diagonal + windowRight);
  const T *qRow = q + b * qs0 + i * qs1 + h * qs2;
  auto score = [&](int j) {
    const T *kRow = k + b * ks0 + j * ks1 + kvh * ks2;
    float s = 0;
    for (int d = 0; d < dqk; ++d)
      s += toFloat(qRow[d]) * toFloat(kRow[d]);
    return s * scaleLog2;
  };
  float rowMax = -INFINITY;
  for (int j = first; j <= last; ++j)
    rowMax = fmaxf(rowMax, score(j));
  float acc[256] = {};
  float sum = 0;
  for (int j = first; j <= last; ++j) {
    float p = exp2f(score(j) - rowMax);
    sum += p;
    const T *vRow = v + b * vs0 + j * vs1 + kvh * vs2;
    for (int d = 0; d < dv; ++d)
      acc[d] += p * toFloat(vRow[d]);
  }
  T *oRow = o + b * os0 + i * os1 + h * os2;
  for (int d = 0; d < dv; ++d)
    oRow[d] = fromFloat<T>(!mapOk ? NAN : sum > 0 ? acc[d] / sum : 0.0f);
  if (lse)
    lse[b * ls0 + h * ls1 + i] =
        sum > 0 ? (rowMax + log2f(sum)) * 0.69314718055994531f : -INFINITY;
}

#define FA4_NAIVE_KERNEL(name, T)                                              \
  extern "C" __global__ void name(                                             \
      const __grid_constant__ CUtensorMap qMap, const T *q, const T *k,        \
      const T *v, T *o, float *lse, int sq, int skv, int hq, int hkv,          \
      long long qs0, long long qs1, long long qs2, long long ks0,              \
      long long ks1, long long ks2, long long vs0, long long vs1,              \
      long long vs2, long long os0, long long os1, long long os2,              \
      long long ls0, long long ls1, float scaleLog2, int windowLeft,           \
      int windowRight, int dqk, int dv) {                                      \
    attention<T>(&qMap, q, k, v, o, lse, sq, skv, hq, hkv, qs0, qs1, qs2, ks0, \
                 ks1, ks2, vs0, vs1, vs2, os0, os1, os2, ls0, ls1, scaleLog2,  \
                 windowLeft, windowRight, dqk, dv);                            \
  }
FA4_NAIVE_KERNEL(fa4_naive_attention_bf16, __nv_bfloat16)
FA4_NAIVE_KERNEL(fa4_naive_attention_f16, __half)

// One descale of an FP8 kernel's tensor: none (NULL, 1), one value, or per
// (batch, kv head) at `batchStride` elements a batch.
struct Descale {
  const float *values;
  long long batchStride;
  int perHead;
  __device__ float at(int b, int kvh) const {
    return values ? values[perHead ? b * batchStride + kvh : 0] : 1.0f;
  }
};

template <typename TO>
__device__ void attentionFp8(
    const CUtensorMap *qMap, const __nv_fp8_e4m3 *q, const __nv_fp8_e4m3 *k,
    const __nv_fp8_e4m3 *v, TO *o, float *lse, Descale qDescale,
    Descale kDescale, Descale vDescale, int sq, int skv, int hq, int hkv,
    long long qs0, long long qs1, long long qs2, long long ks0, long long ks1,
    long long ks2, long long vs0, long long vs1, long long vs2, long long os0,
    long long os1, long long os2, long long ls0, long long ls1, float scaleLog2,
    int windowLeft, int windowRight, int dqk, int dv) {
  int b = blockIdx.z, h = blockIdx.y, kvh = h / (hq / hkv);
  int s0 = blockIdx.x * blockDim.x;
  bool mapOk = tensorMapAgrees<__nv_fp8_e4m3, 64>(qMap, q, b, s0, h, sq, qs0,
                                                  qs1, qs2, dqk);
  int i = s0 + threadIdx.x;
  if (i >= sq)
    return;
  int diagonal = i + skv - sq; // bottom-right aligned
  int first = windowLeft < 0 ? 0 : max(0, diagonal - windowLeft);
  int last = windowRight < 0 ? skv - 1 : min(skv - 1, diagonal + windowRight);
  const __nv_fp8_e4m3 *qRow = q + b * qs0 + i * qs1 + h * qs2;
  float scoreScale = qDescale.at(b, kvh) * kDescale.at(b, kvh) * scaleLog2;
  auto score = [&](int j) {
    const __nv_fp8_e4m3 *kRow = k + b * ks0 + j * ks1 + kvh * ks2;
    float s = 0;
    for (int d = 0; d < dqk; ++d)
      s += float(qRow[d]) * float(kRow[d]);
    return s * scoreScale;
  };
  float rowMax = -INFINITY;
  for (int j = first; j <= last; ++j)
    rowMax = fmaxf(rowMax, score(j));
  float sum = 0;
  for (int j = first; j <= last; ++j)
    sum += exp2f(score(j) - rowMax); // the unrounded P
  float outScale = sum > 0 ? vDescale.at(b, kvh) / sum : 0.0f;
  TO *oRow = o + b * os0 + i * os1 + h * os2;
  // O in chunks of registers, the scores computed again for each: no local
  // array, which fa4-emu does not run (a module of these kernels alone runs
  // there).
  constexpr int chunk = 16;
  for (int d0 = 0; d0 < dv; d0 += chunk) {
    float acc[chunk] = {};
    for (int j = first; j <= last; ++j) {
      float p = float(__nv_fp8_e4m3(exp2f(score(j) - rowMax)));
      const __nv_fp8_e4m3 *vRow = v + b * vs0 + j * vs1 + kvh * vs2 + d0;
#pragma unroll
      for (int d = 0; d < chunk; ++d)
        if (d0 + d < dv)
          acc[d] += p * float(vRow[d]);
    }
#pragma unroll
    for (int d = 0; d < chunk; ++d)
      if (d0 + d < dv)
        oRow[d0 + d] = fromFloat<TO>(!mapOk ? NAN : acc[d] * outScale);
  }
  if (lse)
    lse[b * ls0 + h * ls1 + i] =
        sum > 0 ? (rowMax + log2f(sum)) * 0.69314718055994531f : -INFINITY;
}

#define FA4_NAIVE_FP8_KERNEL(name, TO)                                         \
  extern "C" __global__ void name(                                             \
      const __grid_constant__ CUtensorMap qMap, const __nv_fp8_e4m3 *q,        \
      const __nv_fp8_e4m3 *k, const __nv_fp8_e4m3 *v, TO *o, float *lse,       \
      const float *qd, long long qdStride, int qdPerHead, const float *kd,     \
      long long kdStride, int kdPerHead, const float *vd, long long vdStride,  \
      int vdPerHead, int sq, int skv, int hq, int hkv, long long qs0,          \
      long long qs1, long long qs2, long long ks0, long long ks1,              \
      long long ks2, long long vs0, long long vs1, long long vs2,              \
      long long os0, long long os1, long long os2, long long ls0,              \
      long long ls1, float scaleLog2, int windowLeft, int windowRight,         \
      int dqk, int dv) {                                                       \
    attentionFp8<TO>(&qMap, q, k, v, o, lse, {qd, qdStride, qdPerHead},        \
                     {kd, kdStride, kdPerHead}, {vd, vdStride, vdPerHead}, sq, \
                     skv, hq, hkv, qs0, qs1, qs2, ks0, ks1, ks2, vs0, vs1,     \
                     vs2, os0, os1, os2, ls0, ls1, scaleLog2, windowLeft,      \
                     windowRight, dqk, dv);                                    \
  }
FA4_NAIVE_FP8_KERNEL(fa4_naive_attention_e4m3_bf16, __nv_bfloat16)
FA4_NAIVE_FP8_KERNEL(fa4_naive_attention_e4m3_f16, __half)

#include "NaiveBackward.cuh"
