//===- Artifacts.cpp - PTX, cubin and manifest.json -----------------------===//
//
// The pipeline's last step: the kernel ABI recorded on each attn.attention
// (`fa4.abi`) and the serialized gpu.binary become the files the runtime
// loads. docs/KernelABI.md is the schema written here.
//
//===----------------------------------------------------------------------===//

#include "fa4/Pipelines/Compile.h"

#include "fa4/Conversion/KernelABI.h"
#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace fa4;

static LogicalResult writeFile(Operation *op, StringRef path,
                               StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return op->emitError() << "cannot write " << path << ": "
                           << error.message();
  os << contents;
  return success();
}

/// ptxas -arch=<chip> -v: the cubin, and its resource report.
static FailureOr<std::string> assemble(Operation *op, StringRef ptxas,
                                       StringRef chip, StringRef ptxPath,
                                       StringRef cubinPath) {
  SmallString<128> reportPath;
  if (llvm::sys::fs::createTemporaryFile("fa4-ptxas", "txt", reportPath))
    return op->emitError() << "cannot create a temporary file for ptxas";
  std::string arch = ("-arch=" + chip).str();
  StringRef args[] = {ptxas, arch, "-v", "-o", cubinPath, ptxPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(reportPath),
                                          StringRef(reportPath)};
  std::string errorMessage;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &errorMessage);
  auto report = llvm::MemoryBuffer::getFile(reportPath);
  std::string reportText = report ? (*report)->getBuffer().str() : "";
  llvm::sys::fs::remove(reportPath);
  if (status != 0)
    return op->emitError() << "ptxas failed on " << ptxPath << " ("
                           << errorMessage << "):\n"
                           << reportText;
  return reportText;
}

static llvm::json::Value dim(int64_t size, StringRef symbol) {
  if (ShapedType::isDynamic(size))
    return symbol.str();
  return size;
}

/// `type`'s shape with the symbols of `symbols` for its dynamic sizes, and
/// always for the serving forms' token, page and block-table sizes (tq, tk,
/// pages, max_pages), which the problem does not record and the runtime
/// binds from the tensors at each launch.
static llvm::json::Value shapeOf(ShapedType type, ArrayRef<StringRef> symbols) {
  llvm::json::Array shape;
  for (auto [size, symbol] : llvm::zip(type.getShape(), symbols)) {
    bool always =
        llvm::is_contained({StringRef("tq"), StringRef("tk"),
                            StringRef("pages"), StringRef("max_pages")},
                           symbol);
    shape.push_back(symbol.empty() ? llvm::json::Value(size)
                    : always       ? llvm::json::Value(symbol.str())
                                   : dim(size, symbol));
  }
  return shape;
}

/// A tensor map's manifest entry. Maps a kernel builds itself have no L2
/// promotion (no tensormap.replace field sets it).
static llvm::json::Object tensorMapJson(kernel::TensorMapAttr map,
                                        StringRef l2Promotion) {
  std::string swizzle =
      map.getSwizzle() == 0 ? "none" : std::to_string(map.getSwizzle()) + "B";
  return llvm::json::Object{{"tensor", map.getTensor().str()},
                            {"box", llvm::json::Array(map.getBox())},
                            {"swizzle", swizzle},
                            {"interleave", "none"},
                            {"l2_promotion", l2Promotion},
                            {"oob_fill", "zero"}};
}

static StringRef scalarTypeName(Type type) {
  return type.isInteger(32) ? "i32" : type.isInteger(64) ? "i64" : "f32";
}

static llvm::json::Value paramJson(Attribute param) {
  return llvm::TypeSwitch<Attribute, llvm::json::Value>(param)
      .Case([](kernel::WorkspaceParamAttr) {
        return llvm::json::Object{{"kind", "workspace"}};
      })
      .Case([](kernel::PointerParamAttr pointer) {
        return llvm::json::Object{{"kind", "pointer"},
                                  {"tensor", pointer.getTensor().str()}};
      })
      .Case([](kernel::TensorMapAttr map) {
        llvm::json::Object json = tensorMapJson(map, "128B");
        json["kind"] = "tensor_map";
        return json;
      })
      .Case([](kernel::TensorMapScratchParamAttr scratch) {
        llvm::json::Array maps;
        for (kernel::TensorMapAttr map : scratch.getMaps())
          maps.push_back(tensorMapJson(map, "none"));
        return llvm::json::Object{{"kind", "tensor_map_scratch"},
                                  {"maps", std::move(maps)}};
      })
      .Case([](kernel::ScalarParamAttr scalar) {
        return llvm::json::Object{{"kind", "scalar"},
                                  {"type", scalarTypeName(scalar.getType())},
                                  {"value", scalar.getValue().str()}};
      });
}

/// ceil_div(sq, 4) -> {"ceil_div": ["sq", 4]}; "hq" -> "hq"; 132 -> 132.
static llvm::json::Value gridFactorJson(Attribute factor) {
  if (auto constant = dyn_cast<IntegerAttr>(factor))
    return constant.getInt();
  if (auto ceilDiv = dyn_cast<kernel::CeilDivAttr>(factor))
    return llvm::json::Object{
        {"ceil_div",
         llvm::json::Array{ceilDiv.getSymbol().str(), ceilDiv.getDivisor()}}};
  return cast<StringAttr>(factor).getValue().str();
}

static llvm::json::Array int3(ArrayRef<int64_t> values) {
  return llvm::json::Array(values);
}

static StringRef dtypeName(Type type) {
  return type.isBF16()                 ? "bf16"
         : type.isF16()                ? "f16"
         : isa<Float8E4M3FNType>(type) ? "e4m3"
                                       : "f32";
}

/// FP8 descales (version 15): each of Q, K and V's, where the op has it.
static SmallVector<std::pair<StringRef, Value>, 3>
descalesOf(attn::PlannedAttentionOpInterface op) {
  SmallVector<std::pair<StringRef, Value>, 3> descales;
  if (auto dense = dyn_cast<attn::AttentionOp>(op.getOperation()))
    for (auto [name, value] :
         {std::pair<StringRef, Value>{"q_descale", dense.getQDescale()},
          {"k_descale", dense.getKDescale()},
          {"v_descale", dense.getVDescale()}})
      if (value)
        descales.push_back({name, value});
  return descales;
}

/// A descale's form: one value for the tensor, or one per (batch,
/// kv-head).
static StringRef descaleForm(Value descale) {
  return cast<ShapedType>(descale.getType()).getRank() == 0 ? "tensor"
                                                            : "batch_head";
}

/// FP8 inputs (version 15): Q's type is e4m3.
static bool fp8(attn::PlannedAttentionOpInterface op) {
  return isa<Float8E4M3FNType>(getElementTypeOrSelf(op->getOperand(0)));
}

namespace {
/// The manifest of one kernel (docs/KernelABI.md), from its op and the ABI
/// record the lowering left on it (`fa4.abi`), one section per method.
class ManifestBuilder {
public:
  /// `raw`: a planned attention op or an attn.attention_backward.
  ManifestBuilder(Operation *raw, kernel::KernelABIAttr abi)
      : op(dyn_cast<attn::PlannedAttentionOpInterface>(raw)),
        backward(dyn_cast<attn::AttentionBackwardOp>(raw)), abi(abi),
        combine(abi.getCombine()), persistent(abi.getPersistent()) {
    if (combine)
      splitAtLaunch = combine.getSplitAtLaunch();
    if (persistent)
      twinLaunch = persistent.getLaunch();
  }

  /// The manifest without its `binary` entry: the ABI record.
  llvm::json::Object record(StringRef kernel, StringRef chip);

private:
  llvm::json::Array tensorsJson();
  llvm::json::Array servingTensorsJson();
  llvm::json::Array backwardTensorsJson();
  llvm::json::Object problemJson();
  llvm::json::Object backwardProblemJson();
  int64_t abiVersion();
  llvm::json::Object launchJson();
  static llvm::json::Object secondLaunchJson(kernel::LaunchAttr launch);
  void addSecondKernels(llvm::json::Object &manifest);

  static llvm::json::Array paramsJson(kernel::LaunchAttr launch) {
    return llvm::json::Array(llvm::map_range(launch.getParams(), paramJson));
  }
  static llvm::json::Array factorsJson(ArrayAttr factors) {
    return llvm::json::Array(llvm::map_range(factors, gridFactorJson));
  }
  static llvm::json::Array gridJson(kernel::LaunchAttr launch) {
    llvm::json::Array grid;
    for (Attribute dimFactors : launch.getGrid())
      grid.push_back(factorsJson(cast<ArrayAttr>(dimFactors)));
    return grid;
  }
  static bool clustered(kernel::LaunchAttr launch) {
    return launch && llvm::any_of(launch.getCluster(),
                                  [](int64_t dim) { return dim != 1; });
  }
  /// A launch object, marked for programmatic dependent launch where the
  /// kernel asks for it.
  llvm::json::Object withProgrammatic(llvm::json::Object launch) {
    if (abi.getProgrammaticDependentLaunch())
      launch["programmatic_dependent_launch"] = true;
    return launch;
  }

  attn::PlannedAttentionOpInterface op;
  attn::AttentionBackwardOp backward;
  kernel::KernelABIAttr abi;
  kernel::CombineAttr combine;
  kernel::PersistentAttr persistent;
  kernel::SplitAtLaunchAttr splitAtLaunch;
  kernel::LaunchAttr twinLaunch;
};
} // namespace

/// A tensor's manifest entry: its name, role, dtype, shape (sizes and
/// symbols) and the alignment its kernel needs.
static llvm::json::Object tensorJson(DictionaryAttr alignments, StringRef name,
                                     StringRef role, StringRef dtype,
                                     llvm::json::Value shape) {
  auto rule = cast<kernel::AlignmentAttr>(alignments.get(name));
  return llvm::json::Object{
      {"name", name},
      {"role", role},
      {"dtype", dtype},
      {"shape", std::move(shape)},
      {"alignment",
       llvm::json::Object{{"base_bytes", rule.getBaseBytes()},
                          {"stride_bytes", rule.getStrideBytes()}}}};
}

/// Attention sinks (version 14): f32 [hq], an input of every form.
static llvm::json::Object sinksJson(DictionaryAttr alignments, Value sinks) {
  return tensorJson(alignments, "sinks", "input", "f32",
                    shapeOf(cast<ShapedType>(sinks.getType()), {"hq"}));
}

llvm::json::Array ManifestBuilder::tensorsJson() {
  if (backward)
    return backwardTensorsJson();
  auto dense = dyn_cast<attn::AttentionOp>(op.getOperation());
  if (!dense)
    return servingTensorsJson();
  ShapedType q = dense.getQueryType(), k = dense.getKeyType(),
             v = dense.getValueType();
  auto o = cast<ShapedType>(dense.getOutput().getType());
  StringRef dtype = dtypeName(q.getElementType());
  DictionaryAttr alignments = abi.getAlignment();
  auto tensor = [&](StringRef name, StringRef role, StringRef tensorDtype,
                    llvm::json::Value shape) {
    return tensorJson(alignments, name, role, tensorDtype, std::move(shape));
  };
  llvm::json::Array tensors{
      tensor("q", "input", dtype, shapeOf(q, {"b", "sq", "", ""})),
      tensor("k", "input", dtype, shapeOf(k, {"b", "skv", "", ""})),
      tensor("v", "input", dtype, shapeOf(v, {"b", "skv", "", ""})),
      tensor("o", "output", dtypeName(o.getElementType()),
             shapeOf(o, {"b", "sq", "", ""}))};
  if (Value lse = dense.getLse())
    tensors.push_back(
        tensor("lse", "output", "f32",
               shapeOf(cast<ShapedType>(lse.getType()), {"b", "", "sq"})));
  if (Value sinks = op.getSinks())
    tensors.push_back(sinksJson(alignments, sinks));
  for (auto [name, descale] : descalesOf(op))
    tensors.push_back(
        tensor(name, "input", "f32",
               shapeOf(cast<ShapedType>(descale.getType()), {"b", ""})));
  return tensors;
}

/// The serving forms' tensors (docs/KernelABI.md, "Serving forms"): packed
/// tokens `tq` / `tk`, the cache's `pages` of `max_pages` per sequence, and
/// the i32 sequence tensors of `b + 1` or `b` entries.
llvm::json::Array ManifestBuilder::servingTensorsJson() {
  Operation *raw = op.getOperation();
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  ValueRange results = raw->getResults();
  ShapedType q = shaped(raw->getOperand(0)), o = shaped(results[0]);
  StringRef dtype = dtypeName(q.getElementType());
  DictionaryAttr alignments = abi.getAlignment();
  auto tensor = [&](StringRef name, StringRef role, StringRef tensorDtype,
                    llvm::json::Value shape) {
    return tensorJson(alignments, name, role, tensorDtype, std::move(shape));
  };
  auto sequenceTensor = [&](StringRef name, Value value, StringRef symbol) {
    return tensor(name, "input", "i32", shapeOf(shaped(value), {symbol}));
  };
  llvm::json::Array tensors;
  bool packedQueries = q.getRank() == 3;
  SmallVector<StringRef> querySymbols =
      packedQueries ? SmallVector<StringRef>{"tq", "", ""}
                    : SmallVector<StringRef>{"b", "sq", "", ""};
  tensors.push_back(tensor("q", "input", dtype, shapeOf(q, querySymbols)));
  if (auto varlen = dyn_cast<attn::VarlenAttentionOp>(raw)) {
    tensors.push_back(tensor("k", "input", dtype,
                             shapeOf(shaped(varlen.getKey()), {"tk", "", ""})));
    tensors.push_back(
        tensor("v", "input", dtype,
               shapeOf(shaped(varlen.getValue()), {"tk", "", ""})));
    tensors.push_back(
        sequenceTensor("cu_seqlens_q", varlen.getCuSeqlensQ(), "b+1"));
    tensors.push_back(
        sequenceTensor("cu_seqlens_k", varlen.getCuSeqlensK(), "b+1"));
    if (Value used = varlen.getSequsedK())
      tensors.push_back(sequenceTensor("seqused_k", used, "b"));
  } else {
    auto paged = cast<attn::PagedAttentionOp>(raw);
    tensors.push_back(
        tensor("k_cache", "input", dtype,
               shapeOf(shaped(paged.getKeyCache()), {"pages", "", "", ""})));
    tensors.push_back(
        tensor("v_cache", "input", dtype,
               shapeOf(shaped(paged.getValueCache()), {"pages", "", "", ""})));
    tensors.push_back(
        tensor("block_table", "input", "i32",
               shapeOf(shaped(paged.getBlockTable()), {"b", "max_pages"})));
    tensors.push_back(sequenceTensor("seqlens_k", paged.getSeqlensK(), "b"));
    if (Value cuSeqlensQ = paged.getCuSeqlensQ())
      tensors.push_back(sequenceTensor("cu_seqlens_q", cuSeqlensQ, "b+1"));
  }
  tensors.push_back(tensor("o", "output", dtype, shapeOf(o, querySymbols)));
  if (results.size() == 2)
    tensors.push_back(
        tensor("lse", "output", "f32",
               shapeOf(shaped(results[1]),
                       packedQueries ? SmallVector<StringRef>{"", "tq"}
                                     : SmallVector<StringRef>{"b", "", "sq"})));
  if (Value sinks = op.getSinks())
    tensors.push_back(sinksJson(alignments, sinks));
  return tensors;
}

/// The backward pass's tensors (version 16): the forward's Q, K, V, O and
/// LSE and dO read, dQ, dK and dV written.
llvm::json::Array ManifestBuilder::backwardTensorsJson() {
  auto shaped = [](Value v) { return cast<ShapedType>(v.getType()); };
  StringRef dtype = dtypeName(shaped(backward.getQuery()).getElementType());
  DictionaryAttr alignments = abi.getAlignment();
  auto tensor = [&](StringRef name, StringRef role, Value value,
                    StringRef sequence) {
    return tensorJson(alignments, name, role, dtype,
                      shapeOf(shaped(value), {"b", sequence, "", ""}));
  };
  return llvm::json::Array{
      tensor("q", "input", backward.getQuery(), "sq"),
      tensor("k", "input", backward.getKey(), "skv"),
      tensor("v", "input", backward.getValue(), "skv"),
      tensor("o", "input", backward.getOutput(), "sq"),
      tensorJson(alignments, "lse", "input", "f32",
                 shapeOf(shaped(backward.getLse()), {"b", "", "sq"})),
      tensor("dout", "input", backward.getGradOutput(), "sq"),
      tensor("dq", "output", backward.getGradQuery(), "sq"),
      tensor("dk", "output", backward.getGradKey(), "skv"),
      tensor("dv", "output", backward.getGradValue(), "skv")};
}

/// The forward problem whose gradients the kernel gives, and `pass`.
llvm::json::Object ManifestBuilder::backwardProblemJson() {
  auto shape = [](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
  ArrayRef<int64_t> q = shape(backward.getQuery()),
                    k = shape(backward.getKey());
  auto size = [](int64_t extent) {
    return ShapedType::isDynamic(extent) ? int64_t(-1) : extent;
  };
  attn::MaskAttr mask = backward.getMask();
  llvm::json::Object problem{
      {"pass", "backward"},
      {"dtype", dtypeName(getElementTypeOrSelf(backward.getQuery().getType()))},
      {"num_q_heads", q[2]},
      {"num_kv_heads", k[2]},
      {"qk_depth", q[3]},
      {"ov_depth", shape(backward.getValue())[3]},
      {"mask",
       llvm::json::Object{{"kind", attn::stringifyMaskKind(mask.getKind())},
                          {"window_left", mask.getLeft()},
                          {"window_right", mask.getRight()}}},
      {"scale", backward.getEffectiveScale()},
      {"has_lse", true},
      {"batch", size(q[0])},
      {"seq_q", size(q[1])},
      {"seq_kv", size(k[1])}};
  if (std::optional<APFloat> softcap = backward.getSoftcap())
    problem["softcap"] = softcap->convertToDouble();
  return problem;
}

llvm::json::Object ManifestBuilder::problemJson() {
  if (backward)
    return backwardProblemJson();
  attn::MaskAttr mask = op.getMask();
  // The planners' view: its kDynamic (-1) is the manifest's dynamic size.
  fa4::AttnProblem sizes = op.getProblem();
  llvm::json::Object problem{
      {"dtype",
       dtypeName(
           cast<ShapedType>(op->getOperand(0).getType()).getElementType())},
      {"num_q_heads", sizes.numQHeads},
      {"num_kv_heads", sizes.numKVHeads},
      {"qk_depth", sizes.qkDepth},
      {"ov_depth", sizes.ovDepth},
      {"mask",
       llvm::json::Object{{"kind", attn::stringifyMaskKind(mask.getKind())},
                          {"window_left", mask.getLeft()},
                          {"window_right", mask.getRight()}}},
      {"scale", op.getEffectiveScale()},
      {"has_lse", sizes.hasLse},
      {"batch", sizes.batch},
      {"seq_q", sizes.seqQ},
      {"seq_kv", sizes.seqKV}};
  if (std::optional<APFloat> softcap = op.getSoftcap())
    problem["softcap"] = softcap->convertToDouble();
  if (op.getSinks())
    problem["sinks"] = true;
  if (fp8(op)) {
    auto dense = dyn_cast<attn::AttentionOp>(op.getOperation());
    Value output = dense ? dense.getOutput() : op->getResult(0);
    problem["output_dtype"] = dtypeName(getElementTypeOrSelf(output));
  }
  for (auto [name, descale] : descalesOf(op))
    problem[name] = descaleForm(descale);
  if (sizes.sequences != fa4::SequenceLayout::Dense) {
    problem["sequences"] =
        sizes.sequences == fa4::SequenceLayout::Packed ? "packed" : "paged";
    // Q, O and LSE along packed tokens: a varlen op's always, a paged op's
    // with cu_seqlens_q (rank-3 queries).
    problem["packed_queries"] =
        cast<ShapedType>(op->getOperand(0).getType()).getRank() == 3;
    if (sizes.sequences == fa4::SequenceLayout::Paged)
      problem["page_size"] = sizes.pageSize;
  }
  return problem;
}

/// The lowest version that holds the kernel: 16 for the backward pass, 15
/// for FP8, 14 for sinks, 13
/// for a softcap,
/// 12 for the
/// serving forms, 11 for tensor maps the kernel
/// builds (device-tensor-maps), 10 for a persistent rule's
/// kernels launched in clusters (pairs of CTAs, kv-multicast), 9 for a
/// split-K picked at launch (7 before its minimum partition count), 6 for a
/// persistent twin with its own launch, 5 for a persistent twin kernel, 4
/// for a programmatic dependent launch or a persistent rule, 3 for a
/// workspace split-K's second kernel.
int64_t ManifestBuilder::abiVersion() {
  if (backward)
    return 16;
  bool persistentInClusters =
      persistent && (clustered(abi.getLaunch()) || clustered(twinLaunch));
  bool buildsTensorMaps =
      llvm::any_of(abi.getLaunch().getParams(),
                   llvm::IsaPred<kernel::TensorMapScratchParamAttr>);
  bool twin = persistent && persistent.getKernel();
  bool programmatic = abi.getProgrammaticDependentLaunch();
  bool serving = !isa<attn::AttentionOp>(op.getOperation());
  return fp8(op)                      ? 15
         : op.getSinks()              ? 14
         : op.getSoftcap()            ? 13
         : serving                    ? 12
         : buildsTensorMaps           ? 11
         : persistentInClusters       ? 10
         : splitAtLaunch              ? 9
         : twinLaunch                 ? 6
         : twin                       ? 5
         : programmatic || persistent ? 4
         : combine                    ? 3
                                      : 2;
}

llvm::json::Object ManifestBuilder::launchJson() {
  kernel::LaunchAttr launch = abi.getLaunch();
  llvm::json::Object json = withProgrammatic(
      llvm::json::Object{{"grid", gridJson(launch)},
                         {"block", int3(launch.getBlock())},
                         {"cluster", int3(launch.getCluster())},
                         {"dynamic_smem_bytes", launch.getDynamicSmemBytes()}});
  if (persistent) {
    llvm::json::Object rule{{"ctas_per_sm", persistent.getCtasPerSm()},
                            {"max_seq_kv", persistent.getMaxSeqKv()}};
    if (SymbolRefAttr twin = persistent.getKernel())
      rule["kernel"] = twin.getLeafReference().str();
    json.insert({"persistent", std::move(rule)});
  }
  return json;
}

/// A second kernel's launch (the twin's, the combine's).
llvm::json::Object
ManifestBuilder::secondLaunchJson(kernel::LaunchAttr launch) {
  return llvm::json::Object{
      {"grid", gridJson(launch)},
      {"block", int3(launch.getBlock())},
      {"cluster", int3(launch.getCluster())},
      {"dynamic_smem_bytes", launch.getDynamicSmemBytes()}};
}

/// The looped twin's own launch, and a workspace split-K's combine kernel.
void ManifestBuilder::addSecondKernels(llvm::json::Object &manifest) {
  if (twinLaunch)
    manifest["twin"] =
        llvm::json::Object{{"params", paramsJson(twinLaunch)},
                           {"launch", secondLaunchJson(twinLaunch)}};
  if (!combine)
    return;
  llvm::json::Object workspace{
      {"bytes", factorsJson(combine.getWorkspaceBytes())}};
  if (splitAtLaunch)
    workspace["split_at_launch"] = llvm::json::Object{
        {"max_partitions", splitAtLaunch.getMaxPartitions()},
        {"min_keys_per_partition", splitAtLaunch.getMinKeysPerPartition()},
        {"key_tile", splitAtLaunch.getKeyTile()},
        {"min_partitions", splitAtLaunch.getMinPartitions()}};
  manifest["workspace"] = std::move(workspace);
  manifest["combine"] = llvm::json::Object{
      {"kernel", combine.getKernel().getLeafReference().str()},
      {"params", paramsJson(combine.getLaunch())},
      {"launch", withProgrammatic(secondLaunchJson(combine.getLaunch()))}};
}

llvm::json::Object ManifestBuilder::record(StringRef kernel, StringRef chip) {
  llvm::json::Object manifest{
      {"fa4_abi_version", abiVersion()},
      // Copies: a json::Value keeps a StringRef's pointer, and the manifest
      // outlives the strings a decode variant's was built from.
      {"kernel", kernel.str()},
      {"chip", chip.str()},
      {"problem", problemJson()},
      {"tensors", tensorsJson()},
      {"alignment", llvm::json::Object{{"unit_stride_last_dim", true}}},
      {"params", paramsJson(abi.getLaunch())},
      {"launch", launchJson()}};
  addSecondKernels(manifest);
  return manifest;
}

/// The NVVM target of the kernel module `name`: on its gpu.module before
/// serialization, on its gpu.binary after.
static FailureOr<NVVM::NVVMTargetAttr>
kernelTarget(ModuleOp module, Operation *op, StringAttr name) {
  Operation *found = SymbolTable::lookupNearestSymbolFrom(module, name);
  ArrayAttr targets;
  if (auto kernels = dyn_cast_or_null<gpu::GPUModuleOp>(found))
    targets = kernels.getTargetsAttr();
  if (auto binary = dyn_cast_or_null<gpu::BinaryOp>(found);
      binary && !binary.getObjects().empty())
    targets = ArrayAttr::get(
        module.getContext(),
        {cast<gpu::ObjectAttr>(binary.getObjects()[0]).getTarget()});
  if (targets)
    for (Attribute target : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
        return nvvm;
  return op->emitError() << "kernel module " << name
                         << " has no NVVM target (no gpu.module or gpu.binary "
                            "with #nvvm.target)";
}

/// The attention op of `op`'s decode variant.
static FailureOr<attn::PlannedAttentionOpInterface>
decodeVariantOf(ModuleOp module, Operation *op, FlatSymbolRefAttr ref) {
  auto variantFunc =
      SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(module, ref);
  attn::PlannedAttentionOpInterface variant;
  if (variantFunc)
    variantFunc.walk(
        [&](attn::PlannedAttentionOpInterface found) { variant = found; });
  if (!variant)
    return op->emitError() << "its decode variant " << ref
                           << " holds no attention op";
  return variant;
}

/// The most query rows one work item of a decode variant takes: the
/// divisor of sq in its grid (one work item per head or GQA group up to
/// there), else 1.
static int64_t decodeMaxSeqQ(kernel::KernelABIAttr abi) {
  for (Attribute dim : abi.getLaunch().getGrid())
    for (Attribute factor : cast<ArrayAttr>(dim))
      if (auto ceilDiv = dyn_cast<kernel::CeilDivAttr>(factor);
          ceilDiv && ceilDiv.getSymbol() == "sq")
        return ceilDiv.getDivisor();
  return 1;
}

static FailureOr<kernel::KernelABIAttr> kernelAbi(Operation *op) {
  auto abi = op->getAttrOfType<kernel::KernelABIAttr>(
      kernel::FA4Dialect::kKernelABIAttrName);
  if (!abi)
    return op->emitError() << "has no kernel ABI (fa4.abi); run the "
                              "fa4-compile pipeline first";
  return abi;
}

FailureOr<llvm::json::Object> fa4::buildAbiRecord(ModuleOp module,
                                                  Operation *op) {
  FailureOr<kernel::KernelABIAttr> abi = kernelAbi(op);
  if (failed(abi))
    return failure();
  SymbolRefAttr kernelRef = abi->getKernel();
  FailureOr<NVVM::NVVMTargetAttr> target =
      kernelTarget(module, op, kernelRef.getRootReference());
  if (failed(target))
    return failure();
  llvm::json::Object record = ManifestBuilder(op, *abi).record(
      kernelRef.getLeafReference(), target->getChip());
  auto variantRef =
      op->getAttrOfType<FlatSymbolRefAttr>(attn::kDecodeVariantAttrName);
  if (!variantRef)
    return record;
  // Version 8: the decode variant's whole record under "decode".
  FailureOr<attn::PlannedAttentionOpInterface> variant =
      decodeVariantOf(module, op, variantRef);
  if (failed(variant))
    return failure();
  FailureOr<llvm::json::Object> variantRecord =
      buildAbiRecord(module, *variant);
  if (failed(variantRecord))
    return failure();
  // At least 8, and what the variant's own manifest needs.
  record["fa4_abi_version"] =
      std::max({*record.getInteger("fa4_abi_version"),
                *variantRecord->getInteger("fa4_abi_version"), int64_t(8)});
  record["decode"] =
      llvm::json::Object{{"max_seq_q", decodeMaxSeqQ(*kernelAbi(*variant))},
                         {"manifest", std::move(*variantRecord)}};
  return record;
}

namespace {
/// One op's kernel files: its PTX and the cubin where ptxas is given, in
/// `dir`, or where that is empty in `outputDir`/<the op's kernel>, and the
/// manifest's `binary` entry naming the one the runtime loads.
struct KernelFiles {
  KernelArtifacts artifacts;
  llvm::json::Object binary;
};
} // namespace

static FailureOr<KernelFiles> writeKernelFiles(ModuleOp module, Operation *op,
                                               StringRef outputDir,
                                               StringRef dir, StringRef ptxas) {
  FailureOr<kernel::KernelABIAttr> abi = kernelAbi(op);
  if (failed(abi))
    return failure();
  SymbolRefAttr kernelRef = abi->getKernel();
  auto binary = SymbolTable::lookupNearestSymbolFrom<gpu::BinaryOp>(
      module, kernelRef.getRootReference());
  if (!binary || binary.getObjects().empty())
    return op->emitError() << "kernel module " << kernelRef.getRootReference()
                           << " was not serialized (no gpu.binary)";
  auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
  StringRef chip = cast<NVVM::NVVMTargetAttr>(object.getTarget()).getChip();

  KernelFiles files;
  KernelArtifacts &artifacts = files.artifacts;
  artifacts.kernel = kernelRef.getLeafReference().str();
  SmallString<128> kernelDir(dir);
  if (dir.empty())
    llvm::sys::path::append(kernelDir, outputDir, artifacts.kernel);
  if (std::error_code error = llvm::sys::fs::create_directories(kernelDir))
    return op->emitError() << "cannot create " << kernelDir << ": "
                           << error.message();
  auto path = [&](StringRef file) {
    SmallString<128> p(kernelDir);
    llvm::sys::path::append(p, file);
    return std::string(p);
  };
  artifacts.ptxPath = path(artifacts.kernel + ".ptx");
  if (failed(writeFile(op, artifacts.ptxPath, object.getObject().getValue())))
    return failure();
  std::string binaryFile = artifacts.kernel + ".ptx";
  std::string binaryFormat = "ptx";
  if (!ptxas.empty()) {
    artifacts.cubinPath = path(artifacts.kernel + ".cubin");
    FailureOr<std::string> report =
        assemble(op, ptxas, chip, artifacts.ptxPath, artifacts.cubinPath);
    if (failed(report))
      return failure();
    artifacts.ptxasReport = *report;
    binaryFile = artifacts.kernel + ".cubin";
    binaryFormat = "cubin";
  }
  artifacts.manifestPath = path("manifest.json");
  files.binary = llvm::json::Object{{"file", std::move(binaryFile)},
                                    {"format", std::move(binaryFormat)}};
  return files;
}

/// One op's files and its manifest: the ABI record with each binary named.
static FailureOr<KernelArtifacts> writeOpArtifacts(ModuleOp module,
                                                   Operation *op,
                                                   StringRef outputDir,
                                                   StringRef ptxas) {
  FailureOr<llvm::json::Object> manifest = buildAbiRecord(module, op);
  if (failed(manifest))
    return failure();
  FailureOr<KernelFiles> files =
      writeKernelFiles(module, op, outputDir, /*dir=*/"", ptxas);
  if (failed(files))
    return failure();
  (*manifest)["binary"] = std::move(files->binary);
  // The decode variant's files beside the kernel's.
  if (auto variantRef =
          op->getAttrOfType<FlatSymbolRefAttr>(attn::kDecodeVariantAttrName)) {
    FailureOr<attn::PlannedAttentionOpInterface> variant =
        decodeVariantOf(module, op, variantRef);
    if (failed(variant))
      return failure();
    FailureOr<KernelFiles> variantFiles = writeKernelFiles(
        module, *variant, outputDir,
        llvm::sys::path::parent_path(files->artifacts.manifestPath), ptxas);
    if (failed(variantFiles))
      return failure();
    (*manifest->getObject("decode")->getObject("manifest"))["binary"] =
        std::move(variantFiles->binary);
    files->artifacts.ptxasReport += variantFiles->artifacts.ptxasReport;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(*manifest))) << "\n";
  if (failed(writeFile(op, files->artifacts.manifestPath, text)))
    return failure();
  return std::move(files->artifacts);
}

FailureOr<SmallVector<KernelArtifacts>>
fa4::writeArtifacts(ModuleOp module, StringRef outputDir, StringRef ptxas) {
  SmallVector<KernelArtifacts> written;
  WalkResult result = module.walk([&](Operation *op) {
    // A decode variant is written with the op it is a variant of.
    if (!isa<attn::PlannedAttentionOpInterface, attn::AttentionBackwardOp>(
            op) ||
        op->hasAttr(attn::kDecodeVariantOfAttrName))
      return WalkResult::advance();
    FailureOr<KernelArtifacts> artifacts =
        writeOpArtifacts(module, op, outputDir, ptxas);
    if (failed(artifacts))
      return WalkResult::interrupt();
    written.push_back(std::move(*artifacts));
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return written;
}
