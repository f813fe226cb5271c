//===- TestArgs.h - Fake tensors for the example manifest -------*- C++ -*-===//

#ifndef FA4_RUNTIME_UNITTESTS_TESTARGS_H
#define FA4_RUNTIME_UNITTESTS_TESTARGS_H

#include "fa4-c/Runtime.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace fa4::rt::test {

/// Row-major, every non-last stride padded to 16 bytes. `address` is never
/// dereferenced: validation only looks at it.
inline fa4_tensor fakeTensor(uintptr_t address, fa4_dtype dtype,
                             std::vector<int64_t> shape) {
  fa4_tensor tensor = {};
  tensor.data = reinterpret_cast<void *>(address);
  tensor.dtype = dtype;
  tensor.rank = static_cast<int32_t>(shape.size());
  int64_t elem = dtype == FA4_DTYPE_F32 ? 4 : dtype == FA4_DTYPE_E4M3 ? 1 : 2;
  int64_t stride = 1;
  for (int d = tensor.rank - 1; d >= 0; --d) {
    tensor.shape[d] = shape[d];
    tensor.strides[d] = stride;
    stride = (stride * shape[d] * elem + 15) / 16 * 16 / elem;
  }
  return tensor;
}

/// The fake address space of one tensor: tensor i of q, k, v, o, lse lies
/// at i << 36 (q at 0x1000000000), so that no output meets another tensor
/// at any size the tests use (64 GiB each).
constexpr uintptr_t kRegion = uintptr_t(1) << 36;

/// Valid arguments for inputs/manifest.json (hq 32, hkv 8, d 128).
inline fa4_attention_args goodArgs(int64_t b = 2, int64_t sq = 113,
                                   int64_t skv = 203) {
  fa4_attention_args args = {};
  args.q = fakeTensor(1 * kRegion, FA4_DTYPE_BF16, {b, sq, 32, 128});
  args.k = fakeTensor(2 * kRegion, FA4_DTYPE_BF16, {b, skv, 8, 128});
  args.v = fakeTensor(3 * kRegion, FA4_DTYPE_BF16, {b, skv, 8, 128});
  args.o = fakeTensor(4 * kRegion, FA4_DTYPE_BF16, {b, sq, 32, 128});
  args.lse = fakeTensor(5 * kRegion, FA4_DTYPE_F32, {b, 32, sq});
  return args;
}

/// Valid arguments for fp8ManifestJson(q, k, v) (hq 32, hkv 8, d 128):
/// e4m3 q, k and v, a bf16 o, and each descale named ("tensor": one value,
/// "batch_head": [b, 8]) in regions 6 to 8.
inline fa4_serving_args goodFp8Args(const char *q = "tensor",
                                    const char *k = "tensor",
                                    const char *v = "tensor", int64_t b = 2,
                                    int64_t sq = 113, int64_t skv = 203) {
  fa4_serving_args args = {};
  args.attention = goodArgs(b, sq, skv);
  args.attention.q = fakeTensor(1 * kRegion, FA4_DTYPE_E4M3, {b, sq, 32, 128});
  args.attention.k = fakeTensor(2 * kRegion, FA4_DTYPE_E4M3, {b, skv, 8, 128});
  args.attention.v = fakeTensor(3 * kRegion, FA4_DTYPE_E4M3, {b, skv, 8, 128});
  auto descale = [&](const char *kind, int region) {
    std::string_view name = kind;
    if (name == "tensor")
      return fakeTensor(region * kRegion, FA4_DTYPE_F32, {});
    if (name == "batch_head")
      return fakeTensor(region * kRegion, FA4_DTYPE_F32, {b, 8});
    return fa4_tensor{};
  };
  args.q_descale = descale(q, 6);
  args.k_descale = descale(k, 7);
  args.v_descale = descale(v, 8);
  return args;
}

/// Valid arguments for inputs/backward.json (hq 8, hkv 2, dqk 64, dv 32):
/// q to lse in regions 1 to 5 (o and lse the forward's, read), dout in 9,
/// dq, dk and dv in 10 to 12.
inline fa4_serving_args goodBackwardArgs(int64_t b = 2, int64_t sq = 37,
                                         int64_t skv = 53) {
  fa4_serving_args args = {};
  fa4_attention_args &fwd = args.attention;
  fwd.q = fakeTensor(1 * kRegion, FA4_DTYPE_BF16, {b, sq, 8, 64});
  fwd.k = fakeTensor(2 * kRegion, FA4_DTYPE_BF16, {b, skv, 2, 64});
  fwd.v = fakeTensor(3 * kRegion, FA4_DTYPE_BF16, {b, skv, 2, 32});
  fwd.o = fakeTensor(4 * kRegion, FA4_DTYPE_BF16, {b, sq, 8, 32});
  fwd.lse = fakeTensor(5 * kRegion, FA4_DTYPE_F32, {b, 8, sq});
  args.dout = fakeTensor(9 * kRegion, FA4_DTYPE_BF16, {b, sq, 8, 32});
  args.dq = fakeTensor(10 * kRegion, FA4_DTYPE_BF16, {b, sq, 8, 64});
  args.dk = fakeTensor(11 * kRegion, FA4_DTYPE_BF16, {b, skv, 2, 64});
  args.dv = fakeTensor(12 * kRegion, FA4_DTYPE_BF16, {b, skv, 2, 32});
  return args;
}

/// An address `offset` bytes into tensor `index`'s region.
inline void *fakeAddress(int index, uintptr_t offset) {
  return reinterpret_cast<void *>(index * kRegion + offset);
}

} // namespace fa4::rt::test

#endif // FA4_RUNTIME_UNITTESTS_TESTARGS_H
