//===- Validate.cpp - Check user tensors against a manifest ---------------===//

#include "Validate.h"

#include "Error.h"

#include "fa4/Limits.h"

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

std::string listText(const int64_t *values, size_t size) {
  std::string text = "[";
  for (size_t d = 0; d < size; ++d)
    text += (d ? ", " : "") + std::to_string(values[d]);
  return text + "]";
}

std::string hexText(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

/// The bytes a tensor's elements lie in: [begin, end). Two tensors whose
/// ranges meet may share memory.
struct ByteRange {
  const TensorSpec *spec;
  uint64_t begin, end;
  bool overlaps(const ByteRange &other) const {
    return begin < other.end && other.begin < end;
  }
  std::string text() const {
    return "[" + hexText(begin) + ", " + hexText(end) + ")";
  }
};

/// The most a size symbol may be: the kernels compute positions in 32 bits
/// (fa4/Limits.h).
struct SizeLimit {
  int64_t max;
  const char *name;
};

SizeLimit limitOf(Symbol symbol) {
  switch (symbol) {
  case Symbol::Batch:
    return {fa4::limits::kMaxBatch, "fa4::limits::kMaxBatch"};
  case Symbol::SeqQ:
  case Symbol::SeqKV:
    return {fa4::limits::kMaxSeqLen, "fa4::limits::kMaxSeqLen"};
  case Symbol::HeadsQ:
  case Symbol::HeadsKV:
    return {fa4::limits::kMaxHeads, "fa4::limits::kMaxHeads"};
  case Symbol::Splits:
    break; // never a tensor's size (the manifest reader refuses it)
  case Symbol::TokensQ:
  case Symbol::TokensK:
  case Symbol::Pages:
  case Symbol::MaxPages:
    // i32 kernel arguments.
    return {INT32_MAX, "the kernels' 32-bit size arguments"};
  case Symbol::MaxSeqQ:
    return {fa4::limits::kMaxSeqLen, "fa4::limits::kMaxSeqLen"};
  case Symbol::BatchPlusOne:
    return {fa4::limits::kMaxBatch + 1, "fa4::limits::kMaxBatch + 1"};
  }
  return {INT64_MAX, "none"};
}

/// Who imposes the alignment rules, for messages: the driver's TMA unit
/// when a tensor map reads the tensor, else the kernel's own loads and
/// stores.
const char *requiredBy(const TensorSpec &spec) {
  return spec.readByTensorMap ? "TMA requires " : "the kernel requires ";
}

/// Checks where `tensor` lies, given the `bytes` its shape and strides
/// span: its base alignment and that its range does not wrap. Returns the
/// range.
ByteRange placement(const TensorSpec &spec, const fa4_tensor &tensor,
                    uint64_t bytes) {
  auto fail = [&](const std::string &message) {
    throw Error(FA4_ERROR_VALIDATION, "tensor '" + spec.name + "': " + message);
  };
  auto address =
      static_cast<uint64_t>(reinterpret_cast<uintptr_t>(tensor.data));
  int64_t align = spec.alignment.baseBytes;
  if (address % align != 0)
    fail("base address " + hexText(address) + " is not " +
         std::to_string(align) + "-byte aligned (" + requiredBy(spec) +
         std::to_string(align) + "-byte alignment)");
  uint64_t end;
  if (__builtin_add_overflow(address, bytes, &end))
    fail("base address " + hexText(address) + " + " + std::to_string(bytes) +
         " bytes wraps around the 64-bit address space");
  return {&spec, address, end};
}

class TensorChecker {
public:
  TensorChecker(const Manifest &manifest, const TensorSpec &spec,
                const fa4_tensor &tensor, Bindings &bindings)
      : manifest(manifest), spec(spec), tensor(tensor), bindings(bindings) {}

  /// Checks the tensor; returns the bytes it lies in.
  ByteRange check() {
    checkDtypeAndRank();
    for (size_t d = 0; d < spec.shape.size(); ++d)
      checkDim(d);
    // Innermost first: a bad inner stride is the cause of bad outer ones.
    for (size_t d = spec.shape.size(); d-- > 0;)
      checkStride(d);
    // Bounds every stride x extent, which checkNoOverlap multiplies.
    uint64_t bytes = spanBytes();
    if (spec.isOutput)
      checkNoOverlap();
    return placement(spec, tensor, bytes);
  }

private:
  const Manifest &manifest;
  const TensorSpec &spec;
  const fa4_tensor &tensor;
  Bindings &bindings;

  [[noreturn]] void fail(const std::string &message) const {
    throw Error(FA4_ERROR_VALIDATION, "tensor '" + spec.name + "': " + message);
  }

  std::string dimText(size_t d) const {
    std::string text = "dim " + std::to_string(d);
    if (spec.shape[d].symbol)
      text += std::string(" (") + symbolName(*spec.shape[d].symbol) + ")";
    return text;
  }

  int64_t elemBytes() const {
    return static_cast<int64_t>(dtypeSize(spec.dtype));
  }

  void checkDtypeAndRank() const {
    // Read as an integer: a C caller may have stored any int there.
    int32_t bits = enumBits(tensor.dtype);
    std::optional<fa4_dtype> dtype = dtypeFromBits(bits);
    if (!dtype)
      fail("dtype is " + std::to_string(bits) +
           ", which is no fa4_dtype (0 bf16, 1 f16, 2 f32, 3 i32, 4 e4m3); "
           "the kernel expects " +
           dtypeName(spec.dtype));
    if (*dtype != spec.dtype)
      fail(std::string("dtype is ") + dtypeName(*dtype) +
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
    SizeLimit limit = limitOf(symbol);
    if (extent > limit.max)
      fail(dimText(d) + " is " + std::to_string(extent) + "; at most " +
           std::to_string(limit.max) + " (" + limit.name + ")");
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
    int64_t bytes;
    if (__builtin_mul_overflow(stride, elemBytes(), &bytes) ||
        bytes > fa4::limits::kMaxTensorBytes)
      fail(dimText(d) + " stride is " + std::to_string(stride) + " elements; " +
           "at most " +
           std::to_string(fa4::limits::kMaxTensorBytes / elemBytes()) +
           " (2^62 bytes, fa4::limits::kMaxTensorBytes)");
    int64_t strideAlign = spec.alignment.strideBytes;
    if (bytes % strideAlign != 0)
      fail(dimText(d) + " stride is " + std::to_string(stride) +
           " elements = " + std::to_string(bytes) +
           " bytes, not a multiple of " + std::to_string(strideAlign) +
           " bytes (" + requiredBy(spec) + std::to_string(strideAlign) +
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

  /// The bytes from the base to the end of the furthest element, each
  /// product and sum checked: a wrapped offset would let rows alias.
  uint64_t spanBytes() const {
    int64_t furthest = 0; // elements
    bool wraps = false;
    for (size_t d = 0; d < spec.shape.size(); ++d) {
      int64_t reach = 0;
      wraps = wraps ||
              __builtin_mul_overflow(tensor.shape[d] - 1, tensor.strides[d],
                                     &reach) ||
              __builtin_add_overflow(furthest, reach, &furthest);
    }
    int64_t bytes = 0;
    wraps = wraps || __builtin_add_overflow(furthest, 1, &furthest) ||
            __builtin_mul_overflow(furthest, elemBytes(), &bytes);
    if (wraps || bytes > fa4::limits::kMaxTensorBytes)
      fail("shape " + listText(tensor.shape, spec.shape.size()) +
           " with strides " + listText(tensor.strides, spec.shape.size()) +
           " spans " +
           (wraps ? std::string("more than 2^63") : std::to_string(bytes)) +
           " bytes; at most 2^62 (fa4::limits::kMaxTensorBytes)");
    return static_cast<uint64_t>(bytes);
  }
};

/// An output sharing memory with an input would overwrite it while the
/// kernel still reads it; two outputs sharing memory would race. Inputs may
/// share (self-attention on one buffer: q == k == v).
void checkOutputsAlone(const std::vector<ByteRange> &ranges) {
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (!ranges[i].spec->isOutput)
      continue;
    for (size_t j = 0; j < ranges.size(); ++j) {
      // A pair of outputs once, from the first of them.
      if (j == i || (ranges[j].spec->isOutput && j < i) ||
          !ranges[i].overlaps(ranges[j]))
        continue;
      throw Error(FA4_ERROR_VALIDATION,
                  "tensor '" + ranges[i].spec->name + "' overlaps tensor '" +
                      ranges[j].spec->name + "': bytes " + ranges[i].text() +
                      " and " + ranges[j].text() +
                      "; an output may share no byte with another tensor");
    }
  }
}

/// Every tensor of the manifest is required. Those fa4_attention_args
/// cannot name say how to pass them.
void checkGiven(const fa4_serving_args &args, const TensorSpec &spec) {
  if (tensorInSlot(args, spec.slot).data)
    return;
  std::string hint;
  if (spec.slot == TensorSlot::Sinks)
    hint = " (the kernel has attention sinks: launch it through "
           "fa4_launch_serving with args.sinks)";
  else if (isDescaleSlot(spec.slot))
    hint = " (the kernel takes FP8 descales: launch it through "
           "fa4_launch_serving with args." +
           spec.name + ")";
  else if (isBackwardSlot(spec.slot))
    hint = " (a backward kernel: launch it through fa4_launch_serving with "
           "args.dout, args.dq, args.dk and args.dv)";
  throw Error(FA4_ERROR_VALIDATION,
              "tensor '" + spec.name +
                  "': missing (data is NULL) but the kernel requires it" +
                  hint);
}

/// An LSE the kernel does not write must not be given, nor sinks, descales,
/// a backward pass's tensors or an index tensor it does not take.
void checkNoUnwantedLse(const Manifest &manifest,
                        const fa4_serving_args &args) {
  if (!manifest.findTensor(TensorSlot::Lse) && args.attention.lse.data)
    throw Error(FA4_ERROR_VALIDATION,
                "tensor 'lse': given but the kernel was compiled without LSE "
                "(has_lse = false); pass lse.data = NULL");
  static const std::pair<TensorSlot, const char *> indexTensors[] = {
      {TensorSlot::Sinks, "sinks"},
      {TensorSlot::QDescale, "q_descale"},
      {TensorSlot::KDescale, "k_descale"},
      {TensorSlot::VDescale, "v_descale"},
      {TensorSlot::Dout, "dout"},
      {TensorSlot::Dq, "dq"},
      {TensorSlot::Dk, "dk"},
      {TensorSlot::Dv, "dv"},
      {TensorSlot::CuSeqlensQ, "cu_seqlens_q"},
      {TensorSlot::CuSeqlensK, "cu_seqlens_k"},
      {TensorSlot::SeqUsedK, "seqused_k"},
      {TensorSlot::BlockTable, "block_table"},
      {TensorSlot::SeqlensK, "seqlens_k"}};
  for (auto [slot, name] : indexTensors)
    if (!manifest.findTensor(slot) && tensorInSlot(args, slot).data)
      throw Error(FA4_ERROR_VALIDATION,
                  std::string("tensor '") + name +
                      "': given but the kernel does not take it; pass NULL");
}

/// The serving forms' sizes no tensor's shape binds: b from cu_seqlens'
/// b + 1 entries where no [b] tensor bound it, and max_sq from the
/// caller's max_seqlen_q where the queries are packed.
void bindServingSizes(const Manifest &manifest, const fa4_serving_args &args,
                      Bindings &bindings) {
  if (bindings.isBound(Symbol::BatchPlusOne)) {
    int64_t entries = bindings[Symbol::BatchPlusOne];
    if (entries < 2)
      throw Error(FA4_ERROR_VALIDATION,
                  "cu_seqlens has " + std::to_string(entries) +
                      " entries; at least 2 (one sequence and the total)");
    if (!bindings.isBound(Symbol::Batch))
      bindings.bind(Symbol::Batch, entries - 1, "cu_seqlens' b + 1 entries");
    else if (bindings[Symbol::Batch] != entries - 1)
      throw Error(FA4_ERROR_VALIDATION,
                  "cu_seqlens has " + std::to_string(entries) +
                      " entries but " + bindings.source(Symbol::Batch) +
                      " b = " + std::to_string(bindings[Symbol::Batch]) +
                      "; expected b + 1");
  }
  if (!manifest.problem.packedQueries)
    return;
  int64_t maxSeqQ = args.max_seqlen_q;
  if (maxSeqQ < 1 || maxSeqQ > fa4::limits::kMaxSeqLen)
    throw Error(FA4_ERROR_VALIDATION,
                "max_seqlen_q is " + std::to_string(maxSeqQ) +
                    "; the packed queries need the longest sequence's query "
                    "rows, 1 to " +
                    std::to_string(fa4::limits::kMaxSeqLen) +
                    " (fa4::limits::kMaxSeqLen)");
  bindings.bind(Symbol::MaxSeqQ, maxSeqQ, "max_seqlen_q");
}

} // namespace

Bindings fa4::rt::validateArgs(const Manifest &manifest,
                               const fa4_serving_args &args,
                               std::vector<uint64_t> *spanBytes) {
  Bindings bindings(manifest.problem);
  checkNoUnwantedLse(manifest, args);
  std::vector<ByteRange> ranges;
  for (const TensorSpec &spec : manifest.tensors) {
    checkGiven(args, spec);
    ranges.push_back(
        TensorChecker(manifest, spec, tensorInSlot(args, spec.slot), bindings)
            .check());
  }
  checkOutputsAlone(ranges);
  bindServingSizes(manifest, args, bindings);
  if (spanBytes) {
    spanBytes->clear();
    for (const ByteRange &range : ranges)
      spanBytes->push_back(range.end - range.begin);
  }
  return bindings;
}

void fa4::rt::checkDataPointers(const Manifest &manifest,
                                const std::vector<uint64_t> &spanBytes,
                                const fa4_serving_args &args) {
  checkNoUnwantedLse(manifest, args);
  std::vector<ByteRange> placed;
  placed.reserve(manifest.tensors.size());
  for (size_t i = 0; i < manifest.tensors.size(); ++i) {
    const TensorSpec &spec = manifest.tensors[i];
    checkGiven(args, spec);
    placed.push_back(
        placement(spec, tensorInSlot(args, spec.slot), spanBytes[i]));
  }
  checkOutputsAlone(placed);
}
