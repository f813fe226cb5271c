//===- Validate.cpp - Check user tensors against a manifest ---------------===//

#include "Validate.h"

#include "Error.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

using namespace fa4::rt;

Bindings::Bindings(const Problem &problem) {
  const char *compiled = "the kernel was compiled for";
  bind(Symbol::HeadsQ, problem.numQHeads, compiled);
  bind(Symbol::HeadsKV, problem.numKVHeads, compiled);
  if (problem.batch > 0)
    bind(Symbol::Batch, problem.batch, compiled);
  if (problem.seqQ > 0)
    bind(Symbol::SeqQ, problem.seqQ, compiled);
  if (problem.seqKV > 0)
    bind(Symbol::SeqKV, problem.seqKV, compiled);
}

namespace {

std::string shapeText(const TensorSpec &spec) {
  std::string text = "[";
  for (size_t d = 0; d < spec.shape.size(); ++d) {
    if (d)
      text += ", ";
    text += spec.shape[d].symbol ? symbolName(*spec.shape[d].symbol)
                                 : std::to_string(spec.shape[d].extent);
  }
  return text + "]";
}

class TensorChecker {
public:
  TensorChecker(const Manifest &manifest, const TensorSpec &spec,
                const fa4_tensor &tensor, Bindings &bindings)
      : manifest(manifest), spec(spec), tensor(tensor), bindings(bindings) {}

  void check() {
    checkDtypeAndRank();
    for (size_t d = 0; d < spec.shape.size(); ++d)
      checkDim(d);
    // Innermost first: a bad inner stride is the cause of bad outer ones.
    for (size_t d = spec.shape.size(); d-- > 0;)
      checkStride(d);
    if (spec.isOutput)
      checkNoOverlap();
    checkBase();
  }

private:
  const Manifest &manifest;
  const TensorSpec &spec;
  const fa4_tensor &tensor;
  Bindings &bindings;

  [[noreturn]] void fail(const std::string &message) const {
    throw Error(FA4_ERROR_VALIDATION, "tensor '" + spec.name + "': " + message);
  }

  /// Who imposes the alignment rules, for messages: the driver's TMA unit
  /// when a tensor map reads the tensor, else the kernel's own loads and
  /// stores.
  const char *requiredBy() const {
    return spec.readByTensorMap ? "TMA requires " : "the kernel requires ";
  }

  std::string dimText(size_t d) const {
    std::string text = "dim " + std::to_string(d);
    if (spec.shape[d].symbol)
      text += std::string(" (") + symbolName(*spec.shape[d].symbol) + ")";
    return text;
  }

  void checkDtypeAndRank() const {
    if (tensor.dtype != spec.dtype)
      fail(std::string("dtype is ") + dtypeName(tensor.dtype) +
           " but the kernel expects " + dtypeName(spec.dtype));
    if (tensor.rank != static_cast<int32_t>(spec.shape.size()))
      fail("rank is " + std::to_string(tensor.rank) +
           " but the kernel expects rank " + std::to_string(spec.shape.size()) +
           " (shape " + shapeText(spec) + ")");
  }

  void checkDim(size_t d) const {
    int64_t extent = tensor.shape[d];
    if (extent < 1)
      fail(dimText(d) + " is " + std::to_string(extent) +
           "; every dim must be >= 1");
    const Dim &dim = spec.shape[d];
    if (!dim.symbol) {
      if (extent != dim.extent)
        fail(dimText(d) + " is " + std::to_string(extent) +
             " but the kernel expects " + std::to_string(dim.extent));
      return;
    }
    Symbol symbol = *dim.symbol;
    if (!bindings.isBound(symbol)) {
      bindings.bind(symbol, extent, "tensor '" + spec.name + "' bound");
      return;
    }
    if (bindings[symbol] != extent)
      fail(dimText(d) + " is " + std::to_string(extent) + " but " +
           bindings.source(symbol) + " " + symbolName(symbol) + " = " +
           std::to_string(bindings[symbol]));
  }

  void checkStride(size_t d) const {
    int64_t stride = tensor.strides[d];
    int64_t elemBytes = static_cast<int64_t>(dtypeSize(spec.dtype));
    bool isLast = d + 1 == spec.shape.size();
    if (isLast && manifest.alignment.unitStrideLastDim) {
      if (stride != 1)
        fail(dimText(d) + " stride is " + std::to_string(stride) +
             " but the last dim must have unit stride (stride 1)");
      return;
    }
    if (stride < 0)
      fail(dimText(d) + " stride is " + std::to_string(stride) +
           "; strides must be non-negative");
    int64_t strideAlign = spec.alignment.strideBytes;
    if ((stride * elemBytes) % strideAlign != 0)
      fail(dimText(d) + " stride is " + std::to_string(stride) +
           " elements = " + std::to_string(stride * elemBytes) +
           " bytes, not a multiple of " + std::to_string(strideAlign) +
           " bytes (" + requiredBy() + std::to_string(strideAlign) +
           "-byte-aligned strides)");
  }

  // Two output elements in one place would make the result depend on the
  // order of the kernel's stores. Sorted by stride, each dim must step over
  // the whole extent of the dims inside it.
  void checkNoOverlap() const {
    std::vector<size_t> order(spec.shape.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return tensor.strides[a] < tensor.strides[b];
    });
    int64_t innerExtent = 1; // elements spanned by the dims visited so far
    size_t innerDim = 0;
    bool haveInner = false;
    for (size_t d : order) {
      if (tensor.shape[d] == 1)
        continue;
      if (tensor.strides[d] == 0)
        fail(dimText(d) + " stride is 0 with extent " +
             std::to_string(tensor.shape[d]) +
             "; output tensors must not overlap themselves");
      if (haveInner && tensor.strides[d] < innerExtent)
        fail(dimText(d) + " stride " + std::to_string(tensor.strides[d]) +
             " overlaps " + dimText(innerDim) + " (" +
             std::to_string(tensor.shape[innerDim]) + " x stride " +
             std::to_string(tensor.strides[innerDim]) + " = " +
             std::to_string(innerExtent) +
             " elements); output tensors must not overlap themselves");
      innerExtent = tensor.strides[d] * tensor.shape[d];
      innerDim = d;
      haveInner = true;
    }
  }

  void checkBase() const {
    auto address = reinterpret_cast<uintptr_t>(tensor.data);
    int64_t align = spec.alignment.baseBytes;
    if (address % align != 0) {
      char text[64];
      std::snprintf(text, sizeof(text), "0x%llx",
                    static_cast<unsigned long long>(address));
      fail(std::string("base address ") + text + " is not " +
           std::to_string(align) + "-byte aligned (" + requiredBy() +
           std::to_string(align) + "-byte alignment)");
    }
  }
};

} // namespace

Bindings fa4::rt::validateArgs(const Manifest &manifest,
                               const fa4_attention_args &args) {
  Bindings bindings(manifest.problem);
  const fa4_tensor &lse = args.lse;
  if (!manifest.findTensor(TensorSlot::Lse) && lse.data)
    throw Error(FA4_ERROR_VALIDATION,
                "tensor 'lse': given but the kernel was compiled without LSE "
                "(has_lse = false); pass lse.data = NULL");
  for (const TensorSpec &spec : manifest.tensors) {
    const fa4_tensor &tensor = tensorInSlot(args, spec.slot);
    if (!tensor.data)
      throw Error(FA4_ERROR_VALIDATION,
                  "tensor '" + spec.name +
                      "': missing (data is NULL) but the kernel requires it");
    TensorChecker(manifest, spec, tensor, bindings).check();
  }
  return bindings;
}
