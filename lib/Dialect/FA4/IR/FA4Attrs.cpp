//===- FA4Attrs.cpp - The kernel ABI record and its verifiers -------------===//
//
// Each attribute checks what it holds alone (a box, a launch shape); the
// dialect checks `fa4.abi` against the attn.attention it sits on: the
// tensors it names are the op's, the size symbols ones the runtime binds.
//
//===----------------------------------------------------------------------===//

#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fa4::kernel;

#define GET_ATTRDEF_CLASSES
#include "fa4/Dialect/FA4/IR/FA4Attrs.cpp.inc"

void FA4Dialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fa4/Dialect/FA4/IR/FA4Attrs.cpp.inc"
      >();
}

using EmitError = llvm::function_ref<InFlightDiagnostic()>;

static LogicalResult verifyTriple(EmitError emitError, StringRef name,
                                  ArrayRef<int64_t> dims) {
  if (dims.size() != 3 || llvm::any_of(dims, [](int64_t d) { return d < 1; }))
    return emitError() << name << " must be three positive sizes (x, y, z)";
  return success();
}

LogicalResult TensorMapAttr::verify(EmitError emitError, StringRef tensor,
                                    ArrayRef<int64_t> box, int64_t swizzle) {
  if (tensor.empty())
    return emitError() << "a tensor map needs a tensor";
  // cuTensorMapEncodeTiled: rank 1 to 5, each box extent 1 to 256.
  if (box.empty() || box.size() > 5 ||
      llvm::any_of(box, [](int64_t e) { return e < 1 || e > 256; }))
    return emitError() << "tensor map of '" << tensor
                       << "': the box must have 1 to 5 extents of 1 to 256";
  if (!llvm::is_contained({0, 32, 64, 128}, swizzle))
    return emitError() << "tensor map of '" << tensor << "': swizzle "
                       << swizzle << " is not 0, 32, 64 or 128 bytes";
  return success();
}

LogicalResult ScalarParamAttr::verify(EmitError emitError, Type type,
                                      StringRef value) {
  if (!type.isInteger(32) && !type.isInteger(64) && !type.isF32())
    return emitError() << "a scalar parameter is i32, i64 or f32, not " << type;
  if (value.empty())
    return emitError() << "a scalar parameter needs a value";
  return success();
}

LogicalResult TensorMapScratchParamAttr::verify(EmitError emitError,
                                                ArrayRef<TensorMapAttr> maps) {
  if (maps.empty())
    return emitError() << "a tensor map scratch needs at least one map";
  return success();
}

LogicalResult CeilDivAttr::verify(EmitError emitError, StringRef symbol,
                                  int64_t divisor) {
  if (symbol.empty() || divisor < 1)
    return emitError() << "ceil_div needs a size symbol and a divisor >= 1";
  return success();
}

/// A grid factor: an i64 constant >= 1, a size symbol or a ceil_div.
static bool isGridFactor(Attribute factor) {
  if (auto constant = dyn_cast<IntegerAttr>(factor))
    return constant.getType().isInteger(64) && constant.getInt() >= 1;
  if (auto symbol = dyn_cast<StringAttr>(factor))
    return !symbol.getValue().empty();
  return isa<CeilDivAttr>(factor);
}

/// Grid-style factors (a grid dimension, the workspace bytes).
static LogicalResult verifyFactors(EmitError emitError, StringRef what,
                                   Attribute factors) {
  auto list = dyn_cast<ArrayAttr>(factors);
  if (!list || !llvm::all_of(list, isGridFactor))
    return emitError() << what
                       << " must be a list of factors: i64 constants >= 1, "
                          "size symbols or #fa4.ceil_div";
  return success();
}

LogicalResult LaunchAttr::verify(EmitError emitError, ArrayAttr params,
                                 ArrayAttr grid, ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> cluster,
                                 int64_t dynamicSmemBytes) {
  for (Attribute param : params)
    if (!isa<PointerParamAttr, WorkspaceParamAttr, ScalarParamAttr,
             TensorMapAttr, TensorMapScratchParamAttr>(param))
      return emitError() << "kernel parameter " << param
                         << " is not a #fa4.pointer, #fa4.workspace, "
                            "#fa4.scalar, #fa4.tensor_map or "
                            "#fa4.tensor_map_scratch";
  if (grid.size() != 3)
    return emitError() << "grid must have three dimensions (x, y, z)";
  for (Attribute dim : grid)
    if (failed(verifyFactors(emitError, "each grid dimension", dim)))
      return failure();
  if (failed(verifyTriple(emitError, "block", block)) ||
      failed(verifyTriple(emitError, "cluster", cluster)))
    return failure();
  if (dynamicSmemBytes < 0)
    return emitError() << "dynamic_smem_bytes must be >= 0";
  return success();
}

LogicalResult AlignmentAttr::verify(EmitError emitError, int64_t baseBytes,
                                    int64_t strideBytes) {
  if (!llvm::isPowerOf2_64(baseBytes) || !llvm::isPowerOf2_64(strideBytes))
    return emitError() << "alignments must be powers of two, not " << baseBytes
                       << " and " << strideBytes;
  return success();
}

LogicalResult PersistentAttr::verify(EmitError emitError, int64_t ctasPerSM,
                                     int64_t maxSeqKV, SymbolRefAttr kernel,
                                     LaunchAttr launch) {
  if (ctasPerSM < 1 || maxSeqKV < 0)
    return emitError() << "a persistent rule needs ctas_per_sm >= 1 and "
                          "max_seq_kv >= 0";
  if (launch && !kernel)
    return emitError() << "a persistent launch of its own needs its kernel";
  return success();
}

LogicalResult SplitAtLaunchAttr::verify(EmitError emitError,
                                        int64_t maxPartitions,
                                        int64_t minKeysPerPartition,
                                        int64_t keyTile,
                                        int64_t minPartitions) {
  if (maxPartitions < 1 || minKeysPerPartition < 1 || keyTile < 1 ||
      minPartitions < 1 || minPartitions > maxPartitions)
    return emitError() << "split_at_launch needs positive sizes and "
                          "min_partitions <= max_partitions";
  return success();
}

LogicalResult CombineAttr::verify(EmitError emitError, SymbolRefAttr kernel,
                                  ArrayAttr workspaceBytes, LaunchAttr launch,
                                  SplitAtLaunchAttr splitAtLaunch) {
  return verifyFactors(emitError, "workspace_bytes", workspaceBytes);
}

LogicalResult KernelABIAttr::verify(EmitError emitError, SymbolRefAttr kernel,
                                    LaunchAttr launch, DictionaryAttr alignment,
                                    bool programmaticDependentLaunch,
                                    PersistentAttr persistent,
                                    CombineAttr combine) {
  if (kernel.getNestedReferences().size() != 1)
    return emitError() << "kernel must be @module::@function, not " << kernel;
  for (NamedAttribute entry : alignment)
    if (!isa<AlignmentAttr>(entry.getValue()))
      return emitError() << "alignment of '" << entry.getName().getValue()
                         << "' must be a #fa4.alignment";
  return success();
}

//===----------------------------------------------------------------------===//
// fa4.abi against its op
//===----------------------------------------------------------------------===//

namespace {
/// What an attn.attention's ABI may name: its tensors (with their ranks),
/// the size symbols the runtime binds and the workspace where one exists.
class AbiScope {
public:
  AbiScope(Operation *op, KernelABIAttr abi) : op(op) {
    hasWorkspace = static_cast<bool>(abi.getCombine());
    hasSplits = hasWorkspace && abi.getCombine().getSplitAtLaunch();
    sizeSymbols = {"b", "hq", "hkv"};
    auto rank = [&](unsigned operand) {
      return cast<ShapedType>(op->getOperand(operand).getType()).getRank();
    };
    if (isa<fa4::attn::AttentionBackwardOp>(op)) {
      // The forward's tensors (o and lse read), dO read, the gradients
      // written.
      tensorRanks = {{"q", 4},    {"k", 4},  {"v", 4},  {"o", 4}, {"lse", 3},
                     {"dout", 4}, {"dq", 4}, {"dk", 4}, {"dv", 4}};
      sizeSymbols.append({"sq", "skv"});
      return;
    }
    bool hasLse = op->getNumResults() == 2;
    if (auto dense = dyn_cast<fa4::attn::AttentionOp>(op)) {
      tensorRanks = {{"q", 4}, {"k", 4}, {"v", 4}, {"o", 4}};
      hasLse = static_cast<bool>(dense.getLse());
      sizeSymbols.append({"sq", "skv"});
      // FP8 descales: rank 0 (the tensor's) or 2 ([B, Hkv]).
      std::pair<const char *, Value> descales[] = {
          {"q_descale", dense.getQDescale()},
          {"k_descale", dense.getKDescale()},
          {"v_descale", dense.getVDescale()}};
      for (auto [name, descale] : descales)
        if (descale)
          tensorRanks.push_back(
              {name, cast<ShapedType>(descale.getType()).getRank()});
    } else if (auto varlen = dyn_cast<fa4::attn::VarlenAttentionOp>(op)) {
      tensorRanks = {
          {"q", 3},           {"k", 3}, {"v", 3}, {"o", 3}, {"cu_seqlens_q", 1},
          {"cu_seqlens_k", 1}};
      if (varlen.getSequsedK())
        tensorRanks.push_back({"seqused_k", 1});
      sizeSymbols.append({"max_sq", "tq", "tk"});
    } else {
      auto paged = cast<fa4::attn::PagedAttentionOp>(op);
      int64_t queryRank = rank(0);
      tensorRanks = {{"q", queryRank}, {"k_cache", 4},     {"v_cache", 4},
                     {"o", queryRank}, {"block_table", 2}, {"seqlens_k", 1}};
      if (paged.getCuSeqlensQ()) {
        tensorRanks.push_back({"cu_seqlens_q", 1});
        sizeSymbols.append({"max_sq", "tq"});
      } else {
        sizeSymbols.push_back("sq");
      }
      sizeSymbols.append({"pages", "max_pages"});
    }
    if (hasLse)
      tensorRanks.push_back({"lse", rankOfOutput(op)});
    if (cast<fa4::attn::PlannedAttentionOpInterface>(op).getSinks())
      tensorRanks.push_back({"sinks", 1});
  }

  LogicalResult verifyLaunch(LaunchAttr launch, StringRef what) {
    for (Attribute param : launch.getParams())
      if (failed(verifyParam(param, what)))
        return failure();
    for (Attribute dim : launch.getGrid())
      if (failed(verifyFactors(cast<ArrayAttr>(dim), what)))
        return failure();
    return success();
  }

  LogicalResult verifyFactors(ArrayAttr factors, StringRef what) {
    for (Attribute factor : factors) {
      StringRef symbol;
      if (auto named = dyn_cast<StringAttr>(factor))
        symbol = named.getValue();
      if (auto ceilDiv = dyn_cast<CeilDivAttr>(factor))
        symbol = ceilDiv.getSymbol();
      if (!symbol.empty() && !isSizeSymbol(symbol))
        return op->emitOpError() << "fa4.abi: " << what << " names size '"
                                 << symbol << "', which the runtime does "
                                 << "not bind here";
    }
    return success();
  }

  LogicalResult verifyAlignment(DictionaryAttr alignment) {
    for (auto [tensor, rank] : tensorRanks)
      if (!alignment.get(tensor))
        return op->emitOpError()
               << "fa4.abi: no alignment for tensor '" << tensor << "'";
    for (NamedAttribute entry : alignment)
      if (!rankOf(entry.getName().getValue()))
        return op->emitOpError()
               << "fa4.abi: alignment of '" << entry.getName().getValue()
               << "', which is not a tensor of the op";
    return success();
  }

private:
  std::optional<int64_t> rankOf(StringRef tensor) const {
    for (auto [name, rank] : tensorRanks)
      if (name == tensor)
        return rank;
    return std::nullopt;
  }

  bool isSizeSymbol(StringRef symbol) const {
    return llvm::is_contained(sizeSymbols, symbol) ||
           (hasSplits && symbol == "splits");
  }

  LogicalResult unknownTensor(StringRef tensor, StringRef what) {
    return op->emitOpError() << "fa4.abi: " << what << " names tensor '"
                             << tensor << "', which is not one of the op's";
  }

  LogicalResult verifyTensorMap(TensorMapAttr map, StringRef what) {
    std::optional<int64_t> rank = rankOf(map.getTensor());
    if (!rank)
      return unknownTensor(map.getTensor(), what);
    if (int64_t(map.getBox().size()) != *rank)
      return op->emitOpError()
             << "fa4.abi: " << what << ": the box of '" << map.getTensor()
             << "' has " << map.getBox().size() << " extents, the tensor "
             << *rank << " dimensions";
    return success();
  }

  /// "o.stride.1" names dimension 1 of o, which needs one below the last
  /// (unit stride); other scalars are size symbols or the scale.
  LogicalResult verifyScalar(ScalarParamAttr scalar, StringRef what) {
    auto [tensor, rest] = scalar.getValue().split(".stride.");
    if (rest.empty() && tensor == scalar.getValue()) {
      if (isSizeSymbol(tensor) || tensor == "scale_log2")
        return success();
      return op->emitOpError() << "fa4.abi: " << what << " passes '" << tensor
                               << "', which the runtime cannot";
    }
    std::optional<int64_t> rank = rankOf(tensor);
    if (!rank)
      return unknownTensor(tensor, what);
    int64_t dim;
    if (rest.getAsInteger(10, dim) || dim < 0 || dim >= *rank - 1)
      return op->emitOpError() << "fa4.abi: " << what << " passes stride '"
                               << scalar.getValue() << "', not a dimension "
                               << "of '" << tensor << "' with a stride";
    return success();
  }

  LogicalResult verifyParam(Attribute param, StringRef what) {
    return llvm::TypeSwitch<Attribute, LogicalResult>(param)
        .Case([&](PointerParamAttr pointer) {
          return rankOf(pointer.getTensor())
                     ? success()
                     : unknownTensor(pointer.getTensor(), what);
        })
        .Case([&](WorkspaceParamAttr) -> LogicalResult {
          if (hasWorkspace)
            return success();
          return op->emitOpError()
                 << "fa4.abi: " << what
                 << " takes a workspace, but there is no combine";
        })
        .Case(
            [&](ScalarParamAttr scalar) { return verifyScalar(scalar, what); })
        .Case([&](TensorMapAttr map) { return verifyTensorMap(map, what); })
        .Case([&](TensorMapScratchParamAttr scratch) {
          for (TensorMapAttr map : scratch.getMaps())
            if (failed(verifyTensorMap(map, what)))
              return failure();
          return success();
        })
        .Default([](Attribute) { return success(); });
  }

  /// The rank of the op's LSE result.
  static int64_t rankOfOutput(Operation *op) {
    return cast<ShapedType>(op->getResult(1).getType()).getRank();
  }

  Operation *op;
  SmallVector<std::pair<StringRef, int64_t>> tensorRanks;
  SmallVector<StringRef> sizeSymbols;
  bool hasWorkspace = false, hasSplits = false;
};
} // namespace

static LogicalResult verifyKernelABI(Operation *op, Attribute value) {
  auto abi = dyn_cast<KernelABIAttr>(value);
  if (!abi)
    return op->emitOpError() << "fa4.abi must be a #fa4.abi";
  if (!isa<fa4::attn::AttentionOp, fa4::attn::VarlenAttentionOp,
           fa4::attn::PagedAttentionOp, fa4::attn::AttentionBackwardOp>(op))
    return op->emitOpError() << "fa4.abi belongs on attn.attention, "
                                "attn.varlen_attention, attn.paged_attention "
                                "or attn.attention_backward";
  AbiScope scope(op, abi);
  if (failed(scope.verifyAlignment(abi.getAlignment())) ||
      failed(scope.verifyLaunch(abi.getLaunch(), "the kernel")))
    return failure();
  if (PersistentAttr persistent = abi.getPersistent())
    if (LaunchAttr twin = persistent.getLaunch())
      if (failed(scope.verifyLaunch(twin, "the persistent twin")))
        return failure();
  if (CombineAttr combine = abi.getCombine())
    if (failed(scope.verifyLaunch(combine.getLaunch(), "the combine")) ||
        failed(scope.verifyFactors(combine.getWorkspaceBytes(),
                                   "workspace_bytes")))
      return failure();
  return success();
}

LogicalResult FA4Dialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  if (attribute.getName() == kKernelABIAttrName)
    return verifyKernelABI(op, attribute.getValue());
  if (attribute.getName() == kDeviceTensorMapsAttrName) {
    if (!isa<TensorMapScratchParamAttr>(attribute.getValue()))
      return op->emitOpError() << kDeviceTensorMapsAttrName << " must be a "
                               << "#fa4.tensor_map_scratch";
    return success();
  }
  return op->emitOpError() << "has unknown fa4 dialect attribute '"
                           << attribute.getName().getValue() << "'";
}
