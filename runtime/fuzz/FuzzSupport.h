//===- FuzzSupport.h - What the runtime's fuzz targets share ----*- C++ -*-===//
//
// For the libFuzzer targets in this directory: tensors laid out by a
// manifest's own rules, an independent check of every tensor validateArgs
// accepted, and the launch plan Kernel::launch computes before it calls the
// driver (split count, grids, tensor-map arguments, scalars, workspace, the
// persistent choice). Tensor data is never touched: validation and planning
// only compute on addresses.
//
// A clean refusal (fa4::rt::Error) is fine. A broken invariant is a finding:
// the target prints "fa4 fuzz finding: ..." and aborts, and libFuzzer keeps
// the input as crash-<hash>.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_FUZZ_FUZZSUPPORT_H
#define FA4_RUNTIME_FUZZ_FUZZSUPPORT_H

#include "Error.h"
#include "LaunchPlan.h"
#include "Manifest.h"
#include "TensorMap.h"
#include "Validate.h"

#include "fa4/Limits.h"

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace fa4::rt::fuzz {

[[noreturn]] inline void finding(const std::string &what) {
  std::fprintf(stderr, "fa4 fuzz finding: %s\n", what.c_str());
  std::abort();
}

inline void require(bool condition, const std::string &what) {
  if (!condition)
    finding(what);
}

/// The runtime sizes a layout is built for.
struct Sizes {
  int64_t batch = 1, seqQ = 1, seqKV = 1;
};

/// a * b, at most INT64_MAX - 1.
inline int64_t saturatedProduct(int64_t a, int64_t b) {
  int64_t product;
  if (__builtin_mul_overflow(a, b, &product) || product == INT64_MAX)
    return INT64_MAX - 1;
  return product;
}

/// `sizes` where the manifest leaves them to the launch, the problem's where
/// it fixes them.
inline int64_t sizeOf(const Manifest &manifest, Symbol symbol,
                      const Sizes &sizes) {
  const Problem &problem = manifest.problem;
  switch (symbol) {
  case Symbol::Batch:
    return problem.batch > 0 ? problem.batch : sizes.batch;
  case Symbol::SeqQ:
    return problem.seqQ > 0 ? problem.seqQ : sizes.seqQ;
  case Symbol::SeqKV:
    return problem.seqKV > 0 ? problem.seqKV : sizes.seqKV;
  case Symbol::HeadsQ:
    return problem.numQHeads;
  case Symbol::HeadsKV:
    return problem.numKVHeads;
  case Symbol::Splits:
  case Symbol::MaxSeqQ:
    break;
  // The serving forms: every sequence of seqQ queries and seqKV keys
  // (products saturated: a layout that large fails its byte bound).
  case Symbol::TokensQ:
    return saturatedProduct(sizeOf(manifest, Symbol::Batch, sizes), sizes.seqQ);
  case Symbol::TokensK:
    return saturatedProduct(sizeOf(manifest, Symbol::Batch, sizes),
                            sizes.seqKV);
  case Symbol::MaxPages:
    return sizes.seqKV / std::max<int64_t>(problem.pageSize, 1) + 1;
  case Symbol::Pages:
    return saturatedProduct(sizeOf(manifest, Symbol::Batch, sizes),
                            sizeOf(manifest, Symbol::MaxPages, sizes));
  case Symbol::BatchPlusOne:
    return saturatedProduct(sizeOf(manifest, Symbol::Batch, sizes), 1) + 1;
  }
  return 1;
}

/// The tensor of `args` in `slot`, to fill in.
inline fa4_tensor &slotOf(fa4_serving_args &args, TensorSlot slot) {
  return const_cast<fa4_tensor &>(tensorInSlot(args, slot));
}

/// The fa4_dtype bits of `dtype`, stored the way a C caller would.
inline void setDtypeBits(fa4_tensor &tensor, int32_t bits) {
  static_assert(sizeof(tensor.dtype) == sizeof(bits), "a C enum is an int");
  std::memcpy(&tensor.dtype, &bits, sizeof(bits));
}

/// `spec` laid out at `address` for `sizes`: dims nested in `order`
/// (outermost first; empty: row-major), each stride padded up to the
/// tensor's stride rule; the last dim at stride 1 where the manifest asks
/// for it. Returns false when the span would pass `maxBytes`.
inline bool layOut(const Manifest &manifest, const TensorSpec &spec,
                   const Sizes &sizes, uintptr_t address,
                   std::vector<size_t> order, int64_t maxBytes,
                   fa4_tensor &tensor) {
  tensor = {};
  tensor.data = reinterpret_cast<void *>(address);
  setDtypeBits(tensor, spec.dtype);
  size_t rank = spec.shape.size();
  tensor.rank = static_cast<int32_t>(rank);
  for (size_t d = 0; d < rank; ++d) {
    tensor.shape[d] = spec.shape[d].symbol
                          ? sizeOf(manifest, *spec.shape[d].symbol, sizes)
                          : spec.shape[d].extent;
    // The serving forms' token and page counts are the kernels' i32
    // arguments (docs/KernelABI.md): no layout of the rules passes them.
    if (spec.shape[d].symbol && tensor.shape[d] > INT32_MAX &&
        (*spec.shape[d].symbol == Symbol::TokensQ ||
         *spec.shape[d].symbol == Symbol::TokensK ||
         *spec.shape[d].symbol == Symbol::Pages ||
         *spec.shape[d].symbol == Symbol::MaxPages))
      return false;
  }
  if (order.size() != rank) {
    order.resize(rank);
    std::iota(order.begin(), order.end(), 0);
  }
  int64_t elem = static_cast<int64_t>(dtypeSize(spec.dtype));
  // Elements of one stride step: the least that meets the stride rule.
  int64_t unit = std::lcm(spec.alignment.strideBytes, elem) / elem;
  __int128 stride = 1;
  for (size_t i = rank; i-- > 0;) {
    size_t d = order[i];
    bool unitLast = d + 1 == rank && manifest.alignment.unitStrideLastDim;
    if (!unitLast)
      stride = (stride + unit - 1) / unit * unit;
    if (stride > maxBytes)
      return false;
    tensor.strides[d] = static_cast<int64_t>(stride);
    // At most 2^62 * 2^63: no overflow.
    stride *= std::max<int64_t>(tensor.shape[d], 1);
  }
  return stride <= maxBytes / elem;
}

/// The bytes [begin, end) a tensor's elements lie in, in 128-bit
/// arithmetic, so nothing wraps.
struct Span {
  unsigned __int128 begin, end;
};

inline Span spanOf(const fa4_tensor &tensor, int64_t elemBytes) {
  __int128 furthest = 0;
  for (int32_t d = 0; d < tensor.rank; ++d)
    furthest += __int128(tensor.shape[d] - 1) * tensor.strides[d];
  auto begin =
      static_cast<unsigned __int128>(reinterpret_cast<uintptr_t>(tensor.data));
  return {begin,
          begin + static_cast<unsigned __int128>((furthest + 1) * elemBytes)};
}

/// Whether two elements of `tensor` share an offset; exhaustive, so only
/// for tensors of at most `limit` elements (false beyond).
inline bool overlapsItself(const fa4_tensor &tensor, size_t limit) {
  __int128 count = 1;
  for (int32_t d = 0; d < tensor.rank; ++d)
    count *= tensor.shape[d];
  if (count > static_cast<__int128>(limit))
    return false;
  std::vector<int64_t> offsets;
  offsets.reserve(static_cast<size_t>(count));
  std::vector<int64_t> index(tensor.rank, 0);
  for (__int128 n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int32_t d = 0; d < tensor.rank; ++d)
      offset += index[d] * tensor.strides[d];
    offsets.push_back(offset);
    for (int32_t d = tensor.rank; d-- > 0;) {
      if (++index[d] < tensor.shape[d])
        break;
      index[d] = 0;
    }
  }
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

/// What docs/KernelABI.md promises of arguments validateArgs accepted,
/// checked here independently of Validate.cpp.
inline void checkAccepted(const Manifest &manifest,
                          const fa4_serving_args &args,
                          const Bindings &bindings) {
  if (!manifest.findTensor(TensorSlot::Lse))
    require(args.attention.lse.data == nullptr,
            "lse accepted by a kernel without LSE");
  std::vector<std::pair<const TensorSpec *, Span>> spans;
  for (const TensorSpec &spec : manifest.tensors) {
    const fa4_tensor &tensor = tensorInSlot(args, spec.slot);
    std::string name = "tensor '" + spec.name + "' accepted ";
    require(tensor.data != nullptr, name + "with data NULL");
    require(enumBits(tensor.dtype) == static_cast<int32_t>(spec.dtype),
            name + "with another dtype");
    require(tensor.rank == static_cast<int32_t>(spec.shape.size()),
            name + "with another rank");
    int64_t elem = static_cast<int64_t>(dtypeSize(spec.dtype));
    size_t rank = spec.shape.size();
    for (size_t d = 0; d < rank; ++d) {
      const Dim &dim = spec.shape[d];
      int64_t extent = tensor.shape[d];
      std::string where = name + "dim " + std::to_string(d) + " ";
      require(extent >= 1, where + "with extent < 1");
      if (dim.symbol)
        require(extent == bindings[*dim.symbol],
                where + "with an extent other than its binding");
      else
        require(extent == dim.extent, where + "with another fixed extent");
      int64_t stride = tensor.strides[d];
      // Every kernel reads and writes the innermost dim contiguously
      // (docs/KernelABI.md: unit_stride_last_dim is required).
      if (d + 1 == rank) {
        require(stride == 1, where + "with a last-dim stride other than 1");
        continue;
      }
      require(stride >= 0, where + "with a negative stride");
      require(__int128(stride) * elem % spec.alignment.strideBytes == 0,
              where + "with a stride off its stride_bytes rule");
    }
    require(reinterpret_cast<uintptr_t>(tensor.data) %
                    static_cast<uint64_t>(spec.alignment.baseBytes) ==
                0,
            name + "with a base off its base_bytes rule");
    Span span = spanOf(tensor, elem);
    require(span.end - span.begin <=
                static_cast<unsigned __int128>(fa4::limits::kMaxTensorBytes),
            name + "spanning more than kMaxTensorBytes");
    require(span.end <= (static_cast<unsigned __int128>(1) << 64),
            name + "past the end of the address space");
    if (spec.isOutput)
      require(!overlapsItself(tensor, 1 << 14),
              name + "although two of its elements share an address");
    spans.emplace_back(&spec, span);
  }
  for (const auto &[spec, span] : spans) {
    if (!spec->isOutput)
      continue;
    for (const auto &[other, otherSpan] : spans)
      if (other != spec)
        require(span.end <= otherSpan.begin || otherSpan.end <= span.begin,
                "output '" + spec->name + "' accepted overlapping tensor '" +
                    other->name + "'");
  }
}

/// What the driver would be asked for one kernel's parameters
/// (KernelArgs in Launch.cpp): tensor-map arguments and scalars.
inline void planParams(const Manifest &manifest,
                       const std::vector<Param> &params,
                       const Bindings &bindings, const fa4_serving_args &args) {
  for (const Param &param : params) {
    if (const auto *map = std::get_if<TensorMapParam>(&param)) {
      const TensorSpec &spec = manifest.tensors.at(map->tensor);
      TensorMapArgs tma =
          computeTensorMapArgs(*map, spec, tensorInSlot(args, spec.slot));
      std::string name = "tensor map of '" + spec.name + "' ";
      require(tma.rank >= 1 && tma.rank <= 5, name + "of rank outside 1..5");
      require(reinterpret_cast<uintptr_t>(tma.globalAddress) % 16 == 0,
              name + "at an address not 16-byte aligned");
      for (cuuint32_t i = 0; i < tma.rank; ++i) {
        require(tma.globalDim[i] >= 1 && tma.globalDim[i] <= (1ull << 32),
                name + "with a dim outside [1, 2^32]");
        require(tma.boxDim[i] >= 1 && tma.boxDim[i] <= 256,
                name + "with a box dim outside [1, 256]");
        if (i + 1 < tma.rank)
          require(tma.globalStrides[i] % 16 == 0 &&
                      tma.globalStrides[i] < (1ull << 40),
                  name + "with a stride not a multiple of 16 below 2^40");
      }
    } else if (const auto *scalar = std::get_if<ScalarParam>(&param)) {
      evaluateScalar(*scalar, manifest, bindings, args);
    }
  }
}

inline void checkGrid(const std::array<uint32_t, 3> &grid,
                      const LaunchSpec &launch, const char *what) {
  static const uint32_t maxGrid[3] = {(1u << 31) - 1, 65535, 65535};
  for (int d = 0; d < 3; ++d)
    require(grid[d] >= 1 && grid[d] <= maxGrid[d] &&
                grid[d] % launch.cluster[d] == 0,
            std::string(what) + " grid " + "xyz"[d] + " = " +
                std::to_string(grid[d]) +
                ": not within CUDA's limit, or not whole clusters");
}

/// Everything Kernel::launch computes before the driver runs a kernel, for
/// a device of `numSMs` SMs and a persistent cap of `maxCtas`. Throws
/// Error where the launch would be refused.
inline void planLaunch(const Manifest &manifest, const fa4_serving_args &args,
                       Bindings bindings, uint32_t numSMs, uint32_t maxCtas) {
  if (manifest.splitAtLaunch) {
    bindSplits(manifest, bindings, numSMs);
    int64_t splits = bindings[Symbol::Splits];
    require(splits >= 1 && splits <= manifest.splitAtLaunch->maxPartitions,
            "split count " + std::to_string(splits) +
                " outside [1, max_partitions]");
  }
  LaunchGrids grids = evaluateGrids(manifest, bindings);
  checkGrid(grids.kernel, manifest.launch, "kernel");
  planParams(manifest, manifest.params, bindings, args);
  if (manifest.twin) {
    require(grids.twin.has_value(), "no twin grid");
    checkGrid(*grids.twin, manifest.twin->launch, "twin");
    planParams(manifest, manifest.twin->params, bindings, args);
  }
  uint64_t workspace = evaluateWorkspaceBytes(manifest, bindings);
  require(workspace <= (1ull << 40), "workspace past 1 TiB");
  if (manifest.combine) {
    require(workspace >= 1, "an empty split-K workspace");
    checkGrid(evaluateGrid(manifest.combine->launch, bindings),
              manifest.combine->launch, "combine");
    planParams(manifest, manifest.combine->params, bindings, args);
  }
  // As Kernel::load: the module has the twin where the rule names one.
  bool hasTwin =
      manifest.launch.persistent && !manifest.launch.persistent->kernel.empty();
  LaunchChoice choice =
      chooseLaunch(manifest, bindings, grids, hasTwin, numSMs, maxCtas);
  require(choice.launch && choice.params, "no launch chosen");
  checkGrid(choice.grid, *choice.launch, "chosen");
  if (maxCtas != 0 && persistentApplies(*choice.launch, bindings, numSMs))
    require(choice.grid[0] <= std::max(maxCtas, choice.launch->cluster[0]),
            "persistent grid past the CTA cap");
}

/// The manifest that checks `args`: the decode variant where q's query
/// length calls for it (Kernel::kernelFor), else `manifest`.
inline const Manifest &manifestFor(const Manifest &manifest,
                                   const fa4_serving_args &args) {
  if (!manifest.decode)
    return manifest;
  const TensorSpec *q = manifest.findTensor(TensorSlot::Q);
  if (!q || args.attention.q.rank != static_cast<int32_t>(q->shape.size()))
    return manifest;
  for (size_t d = 0; d < q->shape.size(); ++d)
    if (q->shape[d].symbol == Symbol::SeqQ &&
        args.attention.q.shape[d] <= manifest.decode->maxSeqQ)
      return *manifest.decode->manifest;
  return manifest;
}

} // namespace fa4::rt::fuzz

#endif // FA4_RUNTIME_FUZZ_FUZZSUPPORT_H
