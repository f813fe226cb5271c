//===- Manifest.cpp - Parse and check manifest.json -----------------------===//

#include "Manifest.h"

#include "BinaryFile.h"
#include "Error.h"
#include "Json.h"

#include "fa4/Limits.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

using namespace fa4::rt;
namespace json = fa4::json;
using json::Value;
namespace limits = fa4::limits;

const char *fa4::rt::symbolName(Symbol symbol) {
  static const char *names[] = {"b",      "sq",     "skv",       "hq",
                                "hkv",    "splits", "tq",        "tk",
                                "max_sq", "pages",  "max_pages", "b+1"};
  return names[static_cast<int>(symbol)];
}

const fa4_tensor &fa4::rt::tensorInSlot(const fa4_serving_args &args,
                                        TensorSlot slot) {
  switch (slot) {
  case TensorSlot::Q:
    return args.attention.q;
  case TensorSlot::K:
    return args.attention.k;
  case TensorSlot::V:
    return args.attention.v;
  case TensorSlot::O:
    return args.attention.o;
  case TensorSlot::Lse:
    return args.attention.lse;
  case TensorSlot::Sinks:
    return args.sinks;
  case TensorSlot::QDescale:
    return args.q_descale;
  case TensorSlot::KDescale:
    return args.k_descale;
  case TensorSlot::VDescale:
    return args.v_descale;
  case TensorSlot::Dout:
    return args.dout;
  case TensorSlot::Dq:
    return args.dq;
  case TensorSlot::Dk:
    return args.dk;
  case TensorSlot::Dv:
    return args.dv;
  case TensorSlot::CuSeqlensQ:
    return args.cu_seqlens_q;
  case TensorSlot::CuSeqlensK:
    return args.cu_seqlens_k;
  case TensorSlot::SeqUsedK:
    return args.seqused_k;
  case TensorSlot::BlockTable:
    return args.block_table;
  case TensorSlot::SeqlensK:
    return args.seqlens_k;
  }
  return args.attention.q;
}

size_t fa4::rt::dtypeSize(fa4_dtype dtype) {
  switch (dtype) {
  case FA4_DTYPE_F32:
  case FA4_DTYPE_I32:
    return 4;
  case FA4_DTYPE_E4M3:
    return 1;
  case FA4_DTYPE_BF16:
  case FA4_DTYPE_F16:
    break;
  }
  return 2;
}

std::optional<fa4_dtype> fa4::rt::dtypeFromBits(int32_t bits) {
  switch (bits) {
  case FA4_DTYPE_BF16:
  case FA4_DTYPE_F16:
  case FA4_DTYPE_F32:
  case FA4_DTYPE_I32:
  case FA4_DTYPE_E4M3:
    return static_cast<fa4_dtype>(bits);
  }
  return std::nullopt;
}

const char *fa4::rt::dtypeName(fa4_dtype dtype) {
  switch (dtype) {
  case FA4_DTYPE_BF16:
    return "bf16";
  case FA4_DTYPE_F16:
    return "f16";
  case FA4_DTYPE_F32:
    return "f32";
  case FA4_DTYPE_I32:
    return "i32";
  case FA4_DTYPE_E4M3:
    return "e4m3";
  }
  return "?";
}

const TensorSpec *Manifest::findTensor(TensorSlot slot) const {
  for (const TensorSpec &tensor : tensors)
    if (tensor.slot == slot)
      return &tensor;
  return nullptr;
}

namespace {

/// CUDA's limits on a launch, the manifest's sanity bounds: threads per
/// block, CTAs per cluster (16 with the non-portable opt-in), and the
/// dynamic shared memory a block may opt in to on sm_90 and sm_100.
constexpr int64_t kMaxBlockThreads = 1024;
constexpr int64_t kMaxClusterCtas = 16;
constexpr int64_t kMaxDynamicSmemBytes = 227 * 1024;
/// A tensor's stride_bytes, and the rule that meets every tensor's.
constexpr int64_t kMaxStrideRuleBytes = 4096;

/// One dim of the BSHD layout attention reads and writes: a size symbol
/// that an integer extent may replace where the problem fixes the size
/// (`extent` > 0), or, without a symbol, a head depth.
struct LayoutDim {
  std::optional<Symbol> symbol;
  int64_t extent;    // -1: dynamic, only the symbol will do
  const char *name;  // as docs/KernelABI.md spells the layout
  const char *field; // the problem key that fixes it
};

/// q [b, sq, hq, dqk], k [b, skv, hkv, dqk], v [b, skv, hkv, dv],
/// o [b, sq, hq, dv], lse [b, hq, sq]; the serving forms' (version 12):
/// packed queries q [tq, hq, dqk], o [tq, hq, dv], lse [hq, tq]; packed
/// keys k [tk, hkv, dqk], v [tk, hkv, dv]; a paged cache k_cache [pages,
/// page_size, hkv, dqk], v_cache [pages, page_size, hkv, dv]; cu_seqlens_*
/// [b+1], seqused_k and seqlens_k [b], block_table [b, max_pages];
/// version 15's descales [] (one value) or [b, hkv], as problem.q_descale
/// etc. say; version 16's dout as o, dq as q, dk as k and dv as v (a
/// backward kernel is dense).
std::vector<LayoutDim> layoutOf(TensorSlot slot, const Problem &problem) {
  LayoutDim b{Symbol::Batch, problem.batch, "b", "problem.batch"};
  LayoutDim sq{Symbol::SeqQ, problem.seqQ, "sq", "problem.seq_q"};
  LayoutDim skv{Symbol::SeqKV, problem.seqKV, "skv", "problem.seq_kv"};
  LayoutDim hq{Symbol::HeadsQ, problem.numQHeads, "hq", "problem.num_q_heads"};
  LayoutDim hkv{Symbol::HeadsKV, problem.numKVHeads, "hkv",
                "problem.num_kv_heads"};
  LayoutDim dqk{std::nullopt, problem.qkDepth, "dqk", "problem.qk_depth"};
  LayoutDim dv{std::nullopt, problem.ovDepth, "dv", "problem.ov_depth"};
  // Sizes the problem does not record: only the symbol, which the launch
  // binds from the tensor (the kernel takes them as arguments).
  LayoutDim tq{Symbol::TokensQ, -1, "tq", ""};
  LayoutDim tk{Symbol::TokensK, -1, "tk", ""};
  LayoutDim pages{Symbol::Pages, -1, "pages", ""};
  LayoutDim pageSize{std::nullopt, problem.pageSize, "page_size",
                     "problem.page_size"};
  LayoutDim batchPlusOne{Symbol::BatchPlusOne,
                         problem.batch > 0 ? problem.batch + 1 : -1, "b+1",
                         "problem.batch + 1"};
  LayoutDim maxPages{Symbol::MaxPages, -1, "max_pages", ""};
  bool packedQ = problem.packedQueries;
  bool paged = problem.sequences == Sequences::Paged;
  bool packedK = problem.sequences == Sequences::Packed;
  switch (slot) {
  case TensorSlot::Dq:
  case TensorSlot::Q:
    return packedQ ? std::vector<LayoutDim>{tq, hq, dqk}
                   : std::vector<LayoutDim>{b, sq, hq, dqk};
  case TensorSlot::Dk:
  case TensorSlot::K:
    return paged     ? std::vector<LayoutDim>{pages, pageSize, hkv, dqk}
           : packedK ? std::vector<LayoutDim>{tk, hkv, dqk}
                     : std::vector<LayoutDim>{b, skv, hkv, dqk};
  case TensorSlot::Dv:
  case TensorSlot::V:
    return paged     ? std::vector<LayoutDim>{pages, pageSize, hkv, dv}
           : packedK ? std::vector<LayoutDim>{tk, hkv, dv}
                     : std::vector<LayoutDim>{b, skv, hkv, dv};
  case TensorSlot::Dout:
  case TensorSlot::O:
    return packedQ ? std::vector<LayoutDim>{tq, hq, dv}
                   : std::vector<LayoutDim>{b, sq, hq, dv};
  case TensorSlot::Lse:
    return packedQ ? std::vector<LayoutDim>{hq, tq}
                   : std::vector<LayoutDim>{b, hq, sq};
  case TensorSlot::Sinks:
    return {hq};
  case TensorSlot::QDescale:
  case TensorSlot::KDescale:
  case TensorSlot::VDescale:
    if (problem.descaleOf(slot) == Descale::BatchHead)
      return {b, hkv};
    return {};
  case TensorSlot::CuSeqlensQ:
  case TensorSlot::CuSeqlensK:
    return {batchPlusOne};
  case TensorSlot::SeqUsedK:
  case TensorSlot::SeqlensK:
    return {b};
  case TensorSlot::BlockTable:
    return {b, maxPages};
  }
  return {};
}

/// How problem.q_descale etc. spell a descale.
const char *descaleName(Descale descale) {
  switch (descale) {
  case Descale::Tensor:
    return "tensor";
  case Descale::BatchHead:
    return "batch_head";
  case Descale::None:
    break;
  }
  return "none";
}

std::string layoutText(const std::vector<LayoutDim> &layout) {
  std::string text = "[";
  for (const LayoutDim &dim : layout)
    text += (text.size() > 1 ? ", " : "") + std::string(dim.name);
  return text + "]";
}

/// What a parameter passes, for messages: "pointer to tensor \"o\"".
std::string describeParam(const Param &param, const Manifest &manifest) {
  auto tensorName = [&](size_t index) {
    return "\"" + manifest.tensors[index].name + "\"";
  };
  if (const auto *map = std::get_if<TensorMapParam>(&param)) {
    std::string box;
    for (uint32_t extent : map->box)
      box += (box.empty() ? "" : ", ") + std::to_string(extent);
    return "tensor map of tensor " + tensorName(map->tensor) + ", box [" + box +
           "]";
  }
  if (const auto *pointer = std::get_if<PointerParam>(&param))
    return "pointer to tensor " + tensorName(pointer->tensor);
  if (std::holds_alternative<WorkspaceParam>(param))
    return "the workspace";
  if (std::holds_alternative<TensorMapScratchParam>(param))
    return "the tensor map scratch";
  const auto &scalar = std::get<ScalarParam>(param);
  const char *type = scalar.type == ScalarType::I32   ? "i32"
                     : scalar.type == ScalarType::I64 ? "i64"
                                                      : "f32";
  return std::string(type) + " scalar \"" + scalar.spelling + "\"";
}

/// What identifies a parameter's argument: two parameters with one key pass
/// the same thing. Empty for a literal, which a kernel may take twice.
std::string paramKey(const Param &param, const Manifest &manifest) {
  if (const auto *scalar = std::get_if<ScalarParam>(&param))
    if (scalar->source == ScalarParam::Source::Literal)
      return "";
  std::string key = describeParam(param, manifest);
  if (const auto *map = std::get_if<TensorMapParam>(&param))
    key += " " + std::to_string(map->swizzleBytes) + " " +
           std::to_string(map->l2PromotionBytes) + " " +
           std::to_string(static_cast<int>(map->oobFill));
  return key;
}

/// A persistent launch's grid: x alone, so that capping it keeps the whole
/// work list (y and z of 1), and no cluster; from version 10 clusters along
/// x (pairs of CTAs), whose cap keeps whole clusters.
bool isOneDimensional(const LaunchSpec &launch, int abiVersion) {
  auto isOne = [](const std::vector<GridFactor> &factors) {
    for (const GridFactor &factor : factors)
      if (factor.kind != GridFactor::Kind::Constant || factor.constant != 1)
        return false;
    return true;
  };
  uint32_t clusterX = abiVersion >= 10 ? launch.cluster[0] : 1;
  return isOne(launch.grid[1]) && isOne(launch.grid[2]) &&
         launch.cluster == std::array<uint32_t, 3>{clusterX, 1, 1};
}

/// What isOneDimensional asks, for its error messages.
std::string oneDimensionalRule(int abiVersion) {
  return abiVersion >= 10 ? "a one-dimensional grid (y and z of 1) and "
                            "clusters along x at most"
                          : "a one-dimensional grid (y and z of 1) and no "
                            "cluster";
}

/// Reads one manifest; every error names the field by its JSON path.
class ManifestReader {
public:
  explicit ManifestReader(std::string sourceName)
      : sourceName(std::move(sourceName)) {}

  [[noreturn]] void fail(const std::string &path,
                         const std::string &message) const {
    throw Error(FA4_ERROR_MANIFEST, sourceName + ": " + path + ": " + message);
  }

  /// An object whose keys must all be known: strict, so a compiler that
  /// emits something this runtime would ignore is caught, not misread.
  class Object {
  public:
    Object(const ManifestReader &reader, const Value &value, std::string path)
        : reader(reader), value(value), path(std::move(path)) {
      if (value.kind != Value::Kind::Object)
        reader.fail(this->path, std::string("expected an object, got ") +
                                    json::kindName(value.kind));
    }
    ~Object() noexcept(false) {
      if (std::uncaught_exceptions())
        return;
      for (const auto &[key, member] : value.object) {
        if (seen.count(key))
          continue;
        auto note = unknownNotes.find(key);
        reader.fail(field(key.c_str()), note == unknownNotes.end()
                                            ? "unknown key"
                                            : "unknown key; " + note->second);
      }
    }
    /// `note`, if given, follows "missing" in the error: why this version
    /// of the schema wants the key.
    const Value &required(const char *key, const std::string &note = "") {
      seen.insert(key);
      if (const Value *member = value.find(key))
        return *member;
      reader.fail(field(key), note.empty() ? "missing" : "missing; " + note);
    }
    /// Says why `key` is unknown, should it be present: a key of another
    /// schema version.
    void explainUnknown(const char *key, std::string note) {
      unknownNotes[key] = std::move(note);
    }
    const Value *optional(const char *key) {
      seen.insert(key);
      return value.find(key);
    }
    std::string field(const char *key) const {
      return path.empty() ? key : path + "." + key;
    }

  private:
    const ManifestReader &reader;
    const Value &value;
    std::string path;
    std::set<std::string> seen;
    std::map<std::string, std::string> unknownNotes;
  };

  void expectKind(const Value &value, Value::Kind kind,
                  const std::string &path) const {
    if (value.kind != kind)
      fail(path, std::string("expected a ") + json::kindName(kind) + ", got " +
                     json::kindName(value.kind));
  }

  const std::string &string(const Value &value, const std::string &path) {
    expectKind(value, Value::Kind::String, path);
    return value.string;
  }

  bool boolean(const Value &value, const std::string &path) {
    expectKind(value, Value::Kind::Bool, path);
    return value.boolean;
  }

  double number(const Value &value, const std::string &path) {
    expectKind(value, Value::Kind::Number, path);
    return value.number;
  }

  /// `rule`, if given, follows the range in the error: what sets it.
  int64_t integer(const Value &value, const std::string &path, int64_t min,
                  int64_t max, const char *rule = nullptr) {
    if (!value.isInteger())
      fail(path, std::string("expected an integer, got ") +
                     (value.kind == Value::Kind::Number
                          ? std::to_string(value.number)
                          : json::kindName(value.kind)));
    auto result = static_cast<int64_t>(value.number);
    if (result < min || result > max)
      fail(path, std::to_string(result) + " is out of range [" +
                     std::to_string(min) + ", " + std::to_string(max) + "]" +
                     (rule ? std::string(" (") + rule + ")" : ""));
    return result;
  }

  const std::vector<Value> &array(const Value &value, const std::string &path,
                                  size_t minSize, size_t maxSize) {
    expectKind(value, Value::Kind::Array, path);
    if (value.array.size() < minSize || value.array.size() > maxSize)
      fail(path, "has " + std::to_string(value.array.size()) +
                     " entries; expected " +
                     (minSize == maxSize ? std::to_string(minSize)
                                         : std::to_string(minSize) + " to " +
                                               std::to_string(maxSize)));
    return value.array;
  }

  template <typename T>
  T oneOf(const Value &value, const std::string &path,
          std::initializer_list<std::pair<const char *, T>> choices) {
    const std::string &text = string(value, path);
    std::string accepted;
    for (const auto &[name, result] : choices) {
      if (text == name)
        return result;
      accepted += (accepted.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    }
    fail(path, "expected one of " + accepted + ", got \"" + text + "\"");
  }

  std::optional<Symbol> symbolNamed(std::string_view name) const {
    for (int i = 0; i < numSymbols; ++i)
      if (name == symbolName(static_cast<Symbol>(i)))
        return static_cast<Symbol>(i);
    return std::nullopt;
  }

  /// A size symbol; a tensor's size (`tensorSize`) is never "splits".
  Symbol symbol(const Value &value, const std::string &path,
                bool tensorSize = false) {
    const std::string &name = string(value, path);
    std::optional<Symbol> result = symbolNamed(name);
    if (result && !(tensorSize && *result == Symbol::Splits))
      return *result;
    std::string accepted =
        std::string("expected one of \"b\", \"sq\", \"skv\", \"hq\", "
                    "\"hkv\"") +
        (tensorSize ? "" : ", \"splits\"");
    if (result)
      fail(path, "\"splits\" is the split-K partition count the runtime "
                 "picks, not a tensor size; " +
                     accepted);
    fail(path, "unknown size symbol \"" + name + "\"; " + accepted);
  }

  size_t tensorIndex(const Manifest &manifest, const std::string &name,
                     const std::string &path) {
    for (size_t i = 0; i < manifest.tensors.size(); ++i)
      if (manifest.tensors[i].name == name)
        return i;
    fail(path, "no tensor named \"" + name + "\" in tensors");
  }

  fa4_dtype dtype(const Value &value, const std::string &path) {
    return oneOf<fa4_dtype>(value, path,
                            {{"bf16", FA4_DTYPE_BF16},
                             {"f16", FA4_DTYPE_F16},
                             {"f32", FA4_DTYPE_F32},
                             {"i32", FA4_DTYPE_I32},
                             {"e4m3", FA4_DTYPE_E4M3}});
  }

  Manifest read(const Value &root, const std::string &binaryDir);

private:
  void readBinary(Object &top, Manifest &manifest,
                  const std::string &binaryDir);
  void readProblem(const Value &value, Problem &problem);
  void readSequences(Object &object, Problem &problem);
  void readOutputDtype(Object &object, Problem &problem);
  void readDescales(Object &object, Problem &problem);
  void readPass(Object &object, Problem &problem);
  void readTensors(const Value &value, Manifest &manifest);
  void checkTensorsPresent(const Manifest &manifest);
  void checkServingTensors(const Manifest &manifest);
  TensorAlignment readTensorAlignment(Object &object, bool global);
  void readAlignment(const Value &value, Manifest &manifest);
  void readParams(const Value &value, const std::string &path,
                  Manifest &manifest, std::vector<Param> &params);
  TensorMapParam readTensorMap(Object &param, Manifest &manifest);
  TensorMapScratchParam readTensorMapScratch(Object &param, Manifest &manifest);
  ScalarParam readScalar(Object &param, const Manifest &manifest);
  void readLaunch(const Value &value, const std::string &path, int abiVersion,
                  LaunchSpec &launch);
  void readCombine(Object &top, Manifest &manifest);
  void readTwin(Object &top, Manifest &manifest);
  void readDecode(Object &top, Manifest &manifest,
                  const std::string &binaryDir);
  GridFactor readGridFactor(const Value &value, const std::string &path);
  void checkSplitsBound(const Manifest &manifest);
  void checkRole(const TensorSpec &tensor, const Problem &problem,
                 const std::string &path);
  void checkTensorName(const TensorSpec &tensor, const Problem &problem,
                       const std::string &path);
  void checkDtype(const TensorSpec &tensor, const Problem &problem,
                  const std::string &path);
  void checkLayout(const TensorSpec &tensor, const Problem &problem,
                   const std::string &path);
  void checkNoDuplicateParam(const std::vector<Param> &params,
                             const std::string &path, const Manifest &manifest);
  void checkEveryTensorPassed(const std::vector<Param> &params,
                              const std::string &path,
                              const Manifest &manifest);

  std::string sourceName;
  int abiVersion = 0; // the manifest's, once read
  /// Where the tensors' alignment came from, for messages: "alignment"
  /// (version 1) or "tensors[i].alignment" (version 2).
  std::vector<std::string> alignmentPaths;
};

/// `root` less its `binary` entries, its own and decode.manifest's: what the
/// compiler wrote before it knew the binary's file (fa4-embed-abi-records).
static Value abiRecordOf(const Value &root) {
  auto withoutBinary = [](Value object) {
    auto &members = object.object;
    members.erase(std::remove_if(members.begin(), members.end(),
                                 [](const auto &member) {
                                   return member.first == "binary";
                                 }),
                  members.end());
    return object;
  };
  Value record = withoutBinary(root);
  for (auto &[key, decode] : record.object)
    if (key == "decode")
      for (auto &[field, variant] : decode.object)
        if (field == "manifest")
          variant = withoutBinary(variant);
  return record;
}

Manifest ManifestReader::read(const Value &root, const std::string &binaryDir) {
  Manifest manifest;
  Object top(*this, root, "");
  // The version is read first: a newer manifest should say so, not fail on
  // the first field this runtime does not know.
  manifest.abiVersion = static_cast<int>(
      integer(top.required("fa4_abi_version"), "fa4_abi_version", 0, 1 << 30));
  if (manifest.abiVersion < FA4_ABI_MIN_VERSION ||
      manifest.abiVersion > FA4_ABI_VERSION)
    fail("fa4_abi_version",
         "unsupported version " + std::to_string(manifest.abiVersion) +
             "; this runtime reads versions " +
             std::to_string(FA4_ABI_MIN_VERSION) +
             (FA4_ABI_VERSION == FA4_ABI_MIN_VERSION + 1 ? " and " : " to ") +
             std::to_string(FA4_ABI_VERSION));
  manifest.kernel = string(top.required("kernel"), "kernel");
  if (manifest.kernel.empty())
    fail("kernel", "empty kernel name");
  manifest.chip = string(top.required("chip"), "chip");
  readBinary(top, manifest, binaryDir);
  abiVersion = manifest.abiVersion;
  readProblem(top.required("problem"), manifest.problem);
  readTensors(top.required("tensors"), manifest);
  readAlignment(top.required("alignment"), manifest);
  readParams(top.required("params"), "params", manifest, manifest.params);
  checkEveryTensorPassed(manifest.params, "params", manifest);
  readLaunch(top.required("launch"), "launch", manifest.abiVersion,
             manifest.launch);
  readCombine(top, manifest);
  readTwin(top, manifest);
  checkSplitsBound(manifest);
  readDecode(top, manifest, binaryDir);
  manifest.abiRecord = abiRecordOf(root);
  return manifest;
}

/// "splits" has a value only where workspace.split_at_launch gives the rule
/// that picks it.
void ManifestReader::checkSplitsBound(const Manifest &manifest) {
  if (manifest.splitAtLaunch)
    return;
  auto inFactors = [](const std::vector<GridFactor> &factors) {
    for (const GridFactor &factor : factors)
      if (factor.kind != GridFactor::Kind::Constant &&
          factor.symbol == Symbol::Splits)
        return true;
    return false;
  };
  auto inLaunch = [&](const LaunchSpec &launch) {
    for (const auto &factors : launch.grid)
      if (inFactors(factors))
        return true;
    return false;
  };
  auto inParams = [](const std::vector<Param> &params) {
    for (const Param &param : params)
      if (const auto *scalar = std::get_if<ScalarParam>(&param))
        if (scalar->source == ScalarParam::Source::Symbol &&
            scalar->symbol == Symbol::Splits)
          return true;
    return false;
  };
  bool used = inLaunch(manifest.launch) || inParams(manifest.params) ||
              inFactors(manifest.workspaceBytes);
  if (manifest.combine)
    used = used || inLaunch(manifest.combine->launch) ||
           inParams(manifest.combine->params);
  if (manifest.twin)
    used = used || inLaunch(manifest.twin->launch) ||
           inParams(manifest.twin->params);
  if (used)
    fail("workspace", "the size symbol \"splits\" is used but has no rule: "
                      "a split-K picked at launch gives "
                      "workspace.split_at_launch (version 7)");
}

void ManifestReader::readBinary(Object &top, Manifest &manifest,
                                const std::string &binaryDir) {
  Object binary(*this, top.required("binary"), "binary");
  std::string file = string(binary.required("file"), "binary.file");
  // The name is data from outside: a path in it could make the runtime
  // read any file and hand it to the driver.
  std::string problem = plainFileNameProblem(file);
  if (!problem.empty())
    fail("binary.file",
         quotedFileName(file) + " " + problem +
             "; expected a plain file name in the manifest's directory (no "
             "'/', not \".\" or \"..\", no control characters, at most " +
             std::to_string(kMaxBinaryNameBytes) + " bytes)");
  manifest.binaryDir = binaryDir;
  manifest.binaryFile = file;
  manifest.binaryPath = binaryDir.empty() ? file : binaryDir + "/" + file;
  manifest.binaryFormat =
      oneOf<BinaryFormat>(binary.required("format"), "binary.format",
                          {{"cubin", BinaryFormat::Cubin},
                           {"fatbin", BinaryFormat::Fatbin},
                           {"ptx", BinaryFormat::Ptx}});
}

void ManifestReader::readProblem(const Value &value, Problem &problem) {
  Object object(*this, value, "problem");
  // fa4/Limits.h: the sizes the compiler accepts, so the sizes its kernels
  // are built for.
  auto positive = [&](const char *key, int64_t max, const char *rule) {
    return integer(object.required(key), object.field(key), 1, max, rule);
  };
  auto sizeOrDynamic = [&](const char *key, int64_t max, const char *rule) {
    int64_t size =
        integer(object.required(key), object.field(key), -1, max, rule);
    if (size == 0)
      fail(object.field(key), "must be -1 (dynamic) or >= 1");
    return size;
  };
  problem.dtype = dtype(object.required("dtype"), "problem.dtype");
  if (problem.dtype == FA4_DTYPE_F32 || problem.dtype == FA4_DTYPE_I32)
    fail("problem.dtype", std::string(dtypeName(problem.dtype)) +
                              " attention is not supported; expected "
                              "\"bf16\", \"f16\" or \"e4m3\"");
  if (problem.dtype == FA4_DTYPE_E4M3 && abiVersion < 15)
    fail("problem.dtype", "e4m3 (FP8) attention needs fa4_abi_version 15");
  readOutputDtype(object, problem);
  const char *heads = "fa4::limits::kMaxHeads";
  problem.numQHeads = positive("num_q_heads", limits::kMaxHeads, heads);
  problem.numKVHeads = positive("num_kv_heads", limits::kMaxHeads, heads);
  if (problem.numQHeads % problem.numKVHeads != 0)
    fail("problem.num_kv_heads", std::to_string(problem.numKVHeads) +
                                     " does not divide num_q_heads " +
                                     std::to_string(problem.numQHeads));
  const char *depth = "fa4::limits::kMaxDepth";
  problem.qkDepth = positive("qk_depth", limits::kMaxDepth, depth);
  problem.ovDepth = positive("ov_depth", limits::kMaxDepth, depth);

  Object mask(*this, object.required("mask"), "problem.mask");
  auto window = [&](const char *key) {
    return integer(mask.required(key), "problem.mask." + std::string(key), -1,
                   limits::kMaxWindow,
                   "fa4::limits::kMaxWindow; -1 is unbounded");
  };
  problem.mask =
      oneOf<fa4_mask_kind>(mask.required("kind"), "problem.mask.kind",
                           {{"none", FA4_MASK_NONE},
                            {"causal", FA4_MASK_CAUSAL},
                            {"window", FA4_MASK_WINDOW}});
  problem.windowLeft = window("window_left");
  problem.windowRight = window("window_right");

  problem.scale = number(object.required("scale"), "problem.scale");
  if (!(problem.scale > 0) || !std::isfinite(problem.scale))
    fail("problem.scale", "must be a positive finite number");
  if (const Value *softcap = object.optional("softcap")) {
    if (abiVersion < 13)
      fail(object.field("softcap"), "a softcap needs fa4_abi_version 13");
    problem.softcap = number(*softcap, "problem.softcap");
    if (!(problem.softcap > 0) || !std::isfinite(problem.softcap))
      fail("problem.softcap", "must be a positive finite number");
  }
  if (const Value *sinks = object.optional("sinks")) {
    if (abiVersion < 14)
      fail(object.field("sinks"), "attention sinks need fa4_abi_version 14");
    problem.sinks = boolean(*sinks, "problem.sinks");
  }
  readDescales(object, problem);
  problem.hasLse = boolean(object.required("has_lse"), "problem.has_lse");
  problem.batch =
      sizeOrDynamic("batch", limits::kMaxBatch, "fa4::limits::kMaxBatch");
  const char *seq = "fa4::limits::kMaxSeqLen";
  problem.seqQ = sizeOrDynamic("seq_q", limits::kMaxSeqLen, seq);
  problem.seqKV = sizeOrDynamic("seq_kv", limits::kMaxSeqLen, seq);
  readSequences(object, problem);
  readPass(object, problem);
}

/// Version 16: problem.pass, "forward" (as when absent) or "backward". The
/// backward pass is FlashAttention's of the dense form, without sinks or
/// FP8, from the forward's O and LSE.
void ManifestReader::readPass(Object &object, Problem &problem) {
  const Value *pass = object.optional("pass");
  if (!pass)
    return;
  std::string path = object.field("pass");
  if (abiVersion < 16)
    fail(path, "the pass key (a backward kernel) needs fa4_abi_version 16");
  problem.backward =
      oneOf<bool>(*pass, path, {{"forward", false}, {"backward", true}});
  if (!problem.backward)
    return;
  if (problem.dtype != FA4_DTYPE_BF16 && problem.dtype != FA4_DTYPE_F16)
    fail("problem.dtype", std::string("a backward kernel takes \"bf16\" or "
                                      "\"f16\", got \"") +
                              dtypeName(problem.dtype) + "\"");
  if (problem.sequences != Sequences::Dense)
    fail("problem.sequences", "the backward pass is dense only; a backward "
                              "kernel has no packed or paged sequences");
  if (problem.sinks)
    fail("problem.sinks", "the backward pass takes no attention sinks (they "
                          "have no gradient yet)");
  if (!problem.hasLse)
    fail("problem.has_lse", "a backward kernel reads the forward's LSE; "
                            "expected true");
}

/// Version 15: o's dtype, which an e4m3 kernel gives (its f32 accumulators
/// are stored as bf16 or f16) and every other kernel leaves to
/// problem.dtype.
void ManifestReader::readOutputDtype(Object &object, Problem &problem) {
  problem.outputDtype = problem.dtype;
  std::string path = object.field("output_dtype");
  const Value *output = object.optional("output_dtype");
  bool fp8 = problem.dtype == FA4_DTYPE_E4M3;
  if (!output) {
    if (fp8)
      fail(path, "missing; an e4m3 kernel names o's dtype, \"bf16\" or "
                 "\"f16\"");
    return;
  }
  if (abiVersion < 15)
    fail(path, "an output dtype needs fa4_abi_version 15");
  if (!fp8)
    fail(path, std::string("only an e4m3 (FP8) kernel gives one; o has "
                           "problem.dtype \"") +
                   dtypeName(problem.dtype) + "\"");
  problem.outputDtype = oneOf<fa4_dtype>(
      *output, path, {{"bf16", FA4_DTYPE_BF16}, {"f16", FA4_DTYPE_F16}});
}

/// Version 15: how an FP8 kernel dequantises q, k and v (problem.q_descale,
/// k_descale, v_descale): each absent, "tensor" or "batch_head".
void ManifestReader::readDescales(Object &object, Problem &problem) {
  for (int i = 0; i < 3; ++i) {
    const Value *descale = object.optional(kDescaleNames[i]);
    if (!descale)
      continue;
    std::string path = object.field(kDescaleNames[i]);
    if (abiVersion < 15)
      fail(path, "descales need fa4_abi_version 15");
    if (problem.dtype != FA4_DTYPE_E4M3)
      fail(path, std::string("descales belong to e4m3 (FP8) inputs; "
                             "problem.dtype is \"") +
                     dtypeName(problem.dtype) + "\"");
    problem.descales[i] = oneOf<Descale>(
        *descale, path,
        {{"tensor", Descale::Tensor}, {"batch_head", Descale::BatchHead}});
  }
}

/// Version 12's serving forms: problem.sequences ("packed" or "paged"),
/// whether the queries are packed, and a paged cache's page size.
void ManifestReader::readSequences(Object &object, Problem &problem) {
  const Value *sequences = object.optional("sequences");
  if (!sequences)
    return;
  if (abiVersion < 12)
    fail(object.field("sequences"),
         "the serving forms need fa4_abi_version 12");
  problem.sequences = oneOf<Sequences>(
      *sequences, object.field("sequences"),
      {{"packed", Sequences::Packed}, {"paged", Sequences::Paged}});
  problem.packedQueries = boolean(object.required("packed_queries"),
                                  object.field("packed_queries"));
  if (problem.sequences == Sequences::Packed && !problem.packedQueries)
    fail(object.field("packed_queries"),
         "packed sequences have packed queries; expected true");
  if (problem.sequences == Sequences::Paged)
    problem.pageSize =
        integer(object.required("page_size"), object.field("page_size"), 1,
                limits::kMaxSeqLen, "fa4::limits::kMaxSeqLen");
}

void ManifestReader::readTensors(const Value &value, Manifest &manifest) {
  const auto &entries = array(value, "tensors", 1, 16);
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string path = "tensors[" + std::to_string(i) + "]";
    Object object(*this, entries[i], path);
    TensorSpec tensor;
    tensor.name = string(object.required("name"), object.field("name"));
    tensor.slot =
        oneOf<TensorSlot>(object.required("name"), object.field("name"),
                          {{"q", TensorSlot::Q},
                           {"k", TensorSlot::K},
                           {"v", TensorSlot::V},
                           {"o", TensorSlot::O},
                           {"lse", TensorSlot::Lse},
                           {"sinks", TensorSlot::Sinks},
                           {"q_descale", TensorSlot::QDescale},
                           {"k_descale", TensorSlot::KDescale},
                           {"v_descale", TensorSlot::VDescale},
                           {"dout", TensorSlot::Dout},
                           {"dq", TensorSlot::Dq},
                           {"dk", TensorSlot::Dk},
                           {"dv", TensorSlot::Dv},
                           {"k_cache", TensorSlot::K},
                           {"v_cache", TensorSlot::V},
                           {"cu_seqlens_q", TensorSlot::CuSeqlensQ},
                           {"cu_seqlens_k", TensorSlot::CuSeqlensK},
                           {"seqused_k", TensorSlot::SeqUsedK},
                           {"block_table", TensorSlot::BlockTable},
                           {"seqlens_k", TensorSlot::SeqlensK}});
    checkTensorName(tensor, manifest.problem, object.field("name"));
    if (manifest.findTensor(tensor.slot))
      fail(object.field("name"), "tensor \"" + tensor.name + "\" listed twice");
    tensor.isOutput = oneOf<bool>(object.required("role"), object.field("role"),
                                  {{"input", false}, {"output", true}});
    checkRole(tensor, manifest.problem, object.field("role"));
    tensor.dtype = dtype(object.required("dtype"), object.field("dtype"));
    checkDtype(tensor, manifest.problem, object.field("dtype"));
    std::string shapePath = object.field("shape");
    // A descale of one value is a rank-0 tensor.
    const auto &shape = array(object.required("shape"), shapePath,
                              isDescaleSlot(tensor.slot) ? 0 : 1, FA4_MAX_RANK);
    for (size_t d = 0; d < shape.size(); ++d) {
      std::string dimPath = shapePath + "[" + std::to_string(d) + "]";
      Dim dim;
      if (shape[d].kind == Value::Kind::String)
        dim.symbol = symbol(shape[d], dimPath, /*tensorSize=*/true);
      else
        dim.extent = integer(shape[d], dimPath, 1, INT64_C(1) << 40);
      tensor.shape.push_back(dim);
    }
    checkLayout(tensor, manifest.problem, shapePath);
    std::string alignmentPath = object.field("alignment");
    if (manifest.abiVersion >= 2) {
      Object alignment(*this,
                       object.required("alignment",
                                       "fa4_abi_version 2 gives each tensor "
                                       "its own {\"base_bytes\", "
                                       "\"stride_bytes\"}"),
                       alignmentPath);
      tensor.alignment = readTensorAlignment(alignment, false);
    } else {
      object.explainUnknown("alignment",
                            "per-tensor alignment needs fa4_abi_version 2; "
                            "version 1 has only the top-level alignment");
      alignmentPath = "alignment"; // filled in by readAlignment
    }
    alignmentPaths.push_back(alignmentPath);
    manifest.tensors.push_back(std::move(tensor));
  }
  checkTensorsPresent(manifest);
  checkServingTensors(manifest);
}

/// Every tensor the problem names is listed: q, k, v and o, a backward
/// kernel's dout and gradients, lse, sinks and descales where the problem
/// has them.
void ManifestReader::checkTensorsPresent(const Manifest &manifest) {
  for (TensorSlot slot :
       {TensorSlot::Q, TensorSlot::K, TensorSlot::V, TensorSlot::O})
    if (!manifest.findTensor(slot))
      fail("tensors", std::string("missing tensor \"") +
                          "qkvo"[static_cast<int>(slot)] + "\"");
  // A backward kernel's own tensors; a forward one's are refused by
  // checkTensorName.
  if (manifest.problem.backward)
    for (auto [slot, name] : {std::pair{TensorSlot::Dout, "dout"},
                              {TensorSlot::Dq, "dq"},
                              {TensorSlot::Dk, "dk"},
                              {TensorSlot::Dv, "dv"}})
      if (!manifest.findTensor(slot))
        fail("tensors", std::string("missing tensor \"") + name +
                            "\", which a backward kernel (problem.pass "
                            "\"backward\") needs");
  if (manifest.problem.hasLse !=
      (manifest.findTensor(TensorSlot::Lse) != nullptr))
    fail("tensors", manifest.problem.hasLse
                        ? "problem.has_lse is true but no tensor \"lse\""
                        : "tensor \"lse\" listed but problem.has_lse is false");
  if (manifest.problem.sinks !=
      (manifest.findTensor(TensorSlot::Sinks) != nullptr))
    fail("tensors", manifest.problem.sinks
                        ? "problem.sinks is true but no tensor \"sinks\""
                        : "tensor \"sinks\" listed but problem.sinks is "
                          "absent or false");
  // A descale tensor without its key is refused by checkTensorName.
  for (int i = 0; i < 3; ++i)
    if (manifest.problem.descales[i] != Descale::None &&
        !manifest.findTensor(kDescaleSlots[i]))
      fail("tensors", std::string("problem.") + kDescaleNames[i] + " is \"" +
                          descaleName(manifest.problem.descales[i]) +
                          "\" but no tensor \"" + kDescaleNames[i] + "\"");
}

/// The index tensors each serving form needs (seqused_k is optional).
void ManifestReader::checkServingTensors(const Manifest &manifest) {
  const Problem &problem = manifest.problem;
  std::vector<std::pair<TensorSlot, const char *>> needed;
  if (problem.packedQueries)
    needed.push_back({TensorSlot::CuSeqlensQ, "cu_seqlens_q"});
  if (problem.sequences == Sequences::Packed)
    needed.push_back({TensorSlot::CuSeqlensK, "cu_seqlens_k"});
  if (problem.sequences == Sequences::Paged) {
    needed.push_back({TensorSlot::BlockTable, "block_table"});
    needed.push_back({TensorSlot::SeqlensK, "seqlens_k"});
  }
  for (auto [slot, name] : needed)
    if (!manifest.findTensor(slot))
      fail("tensors", std::string("missing tensor \"") + name +
                          "\", which problem.sequences needs");
}

TensorAlignment ManifestReader::readTensorAlignment(Object &object,
                                                    bool global) {
  // Version 1 keeps these keys in the top-level alignment, version 2 in
  // each tensor's; a missing one says where the other version wants it.
  std::string note = global ? "fa4_abi_version 1 gives base_bytes and "
                              "stride_bytes here, for every tensor"
                            : "";
  if (!global)
    object.explainUnknown("unit_stride_last_dim",
                          "it applies to every tensor: give it in the "
                          "top-level alignment");
  TensorAlignment alignment;
  std::string basePath = object.field("base_bytes");
  alignment.baseBytes =
      integer(object.required("base_bytes", note), basePath, 1, 4096);
  if (alignment.baseBytes & (alignment.baseBytes - 1))
    fail(basePath, "must be a power of two");
  alignment.strideBytes =
      integer(object.required("stride_bytes", note),
              object.field("stride_bytes"), 1, kMaxStrideRuleBytes);
  return alignment;
}

void ManifestReader::readAlignment(const Value &value, Manifest &manifest) {
  Object object(*this, value, "alignment");
  if (manifest.abiVersion == 1) {
    TensorAlignment global = readTensorAlignment(object, true);
    for (TensorSpec &tensor : manifest.tensors)
      tensor.alignment = global;
  } else {
    std::string note = "fa4_abi_version " +
                       std::to_string(manifest.abiVersion) +
                       " gives base_bytes and stride_bytes per tensor, in "
                       "tensors[i].alignment; only version 1 has them here";
    object.explainUnknown("base_bytes", note);
    object.explainUnknown("stride_bytes", note);
  }
  manifest.alignment.unitStrideLastDim =
      boolean(object.required("unit_stride_last_dim"),
              "alignment.unit_stride_last_dim");
  // Every fa4 kernel reads and writes the last dim contiguously and takes
  // no stride for it: under another rule a tensor would pass validation
  // that the kernel reads elsewhere (with a last-dim stride of 0, past the
  // bytes validation measured).
  if (!manifest.alignment.unitStrideLastDim)
    fail("alignment.unit_stride_last_dim",
         "must be true: fa4 kernels read and write the last dim "
         "contiguously");
  // fa4_kernel_info.stride_align_bytes is the rule that meets every
  // tensor's, their lcm: at most 4096, as each tensor's (5 tensors of at
  // most 4096 each: the lcm fits int64).
  int64_t combined = 1;
  std::string rules;
  for (const TensorSpec &tensor : manifest.tensors) {
    combined = std::lcm(combined, tensor.alignment.strideBytes);
    rules += (rules.empty() ? "" : ", ") +
             std::to_string(tensor.alignment.strideBytes);
  }
  if (combined > kMaxStrideRuleBytes)
    fail("tensors", "stride_bytes " + rules + " combine to a rule of " +
                        std::to_string(combined) +
                        " bytes (their lcm); at most " +
                        std::to_string(kMaxStrideRuleBytes));
}

void ManifestReader::readParams(const Value &value, const std::string &path,
                                Manifest &manifest,
                                std::vector<Param> &params) {
  const auto &entries = array(value, path, 0, 256);
  for (size_t i = 0; i < entries.size(); ++i) {
    Object param(*this, entries[i], path + "[" + std::to_string(i) + "]");
    std::string kind = string(param.required("kind"), param.field("kind"));
    if (kind == "tensor_map") {
      params.push_back(readTensorMap(param, manifest));
    } else if (kind == "pointer") {
      std::string tensorPath = param.field("tensor");
      params.push_back(PointerParam{tensorIndex(
          manifest, string(param.required("tensor"), tensorPath), tensorPath)});
    } else if (kind == "scalar") {
      params.push_back(readScalar(param, manifest));
    } else if (kind == "workspace" && manifest.abiVersion >= 3) {
      params.push_back(WorkspaceParam{});
    } else if (kind == "tensor_map_scratch" && manifest.abiVersion >= 11) {
      params.push_back(readTensorMapScratch(param, manifest));
    } else {
      fail(param.field("kind"),
           std::string("expected one of \"tensor_map\", \"pointer\", "
                       "\"scalar\"") +
               (manifest.abiVersion >= 3 ? ", \"workspace\"" : "") +
               (manifest.abiVersion >= 11 ? ", \"tensor_map_scratch\"" : "") +
               ", got \"" + kind + "\"" +
               (kind == "workspace"            ? " (a version 3 parameter)"
                : kind == "tensor_map_scratch" ? " (a version 11 parameter)"
                                               : ""));
    }
  }
  checkNoDuplicateParam(params, path, manifest);
  // A map the kernel builds starts from its tensor's pointer.
  for (size_t i = 0; i < params.size(); ++i) {
    const auto *scratch = std::get_if<TensorMapScratchParam>(&params[i]);
    if (!scratch)
      continue;
    for (size_t m = 0; m < scratch->maps.size(); ++m) {
      size_t tensor = scratch->maps[m].tensor;
      bool byPointer = false;
      for (const Param &other : params)
        if (const auto *pointer = std::get_if<PointerParam>(&other))
          byPointer |= pointer->tensor == tensor;
      if (!byPointer)
        fail(path + "[" + std::to_string(i) + "].maps[" + std::to_string(m) +
                 "].tensor",
             "the kernel builds a tensor map of tensor \"" +
                 manifest.tensors[tensor].name +
                 "\" but takes no \"pointer\" parameter to it");
    }
  }
}

/// Version 3: a workspace split-K names its workspace size and its combine
/// kernel together; a "workspace" parameter needs both.
void ManifestReader::readCombine(Object &top, Manifest &manifest) {
  if (manifest.abiVersion < 3) {
    top.explainUnknown("workspace", "a version 3 key");
    top.explainUnknown("combine", "a version 3 key");
    return;
  }
  const Value *workspace = top.optional("workspace");
  const Value *combine = top.optional("combine");
  if (!workspace != !combine)
    fail(workspace ? "combine" : "workspace",
         "missing; a workspace split-K gives both \"workspace\" and "
         "\"combine\"");
  auto usesWorkspace = [](const std::vector<Param> &params) {
    for (const Param &param : params)
      if (std::holds_alternative<WorkspaceParam>(param))
        return true;
    return false;
  };
  if (!workspace) {
    if (usesWorkspace(manifest.params))
      fail("params", "a \"workspace\" parameter needs the top-level "
                     "\"workspace\" and \"combine\"");
    return;
  }
  Object sizes(*this, *workspace, "workspace");
  const auto &factors = array(sizes.required("bytes"), "workspace.bytes", 1, 8);
  for (size_t i = 0; i < factors.size(); ++i)
    manifest.workspaceBytes.push_back(readGridFactor(
        factors[i], "workspace.bytes[" + std::to_string(i) + "]"));
  if (manifest.abiVersion < 7) {
    sizes.explainUnknown("split_at_launch", "a version 7 key");
  } else if (const Value *split = sizes.optional("split_at_launch")) {
    std::string path = "workspace.split_at_launch";
    Object rule(*this, *split, path);
    auto positive = [&](const char *key, int64_t max) {
      return integer(rule.required(key), rule.field(key), 1, max);
    };
    Manifest::SplitAtLaunch result{
        positive("max_partitions", 65535),
        positive("min_keys_per_partition", INT32_MAX),
        positive("key_tile", 1024)};
    if (manifest.abiVersion < 9)
      rule.explainUnknown("min_partitions", "a version 9 key");
    else
      result.minPartitions =
          integer(rule.required("min_partitions"), rule.field("min_partitions"),
                  1, result.maxPartitions);
    manifest.splitAtLaunch = result;
  }

  Object stage(*this, *combine, "combine");
  Manifest::Combine result;
  result.kernel = string(stage.required("kernel"), "combine.kernel");
  if (result.kernel.empty() || result.kernel == manifest.kernel)
    fail("combine.kernel",
         "expected a kernel other than \"" + manifest.kernel + "\"");
  readParams(stage.required("params"), "combine.params", manifest,
             result.params);
  readLaunch(stage.required("launch"), "combine.launch", manifest.abiVersion,
             result.launch);
  if (!usesWorkspace(manifest.params) || !usesWorkspace(result.params))
    fail("combine", "both kernels of a workspace split-K take the "
                    "\"workspace\" parameter");
  manifest.combine = std::move(result);
}

/// Version 6: the persistent twin named by launch.persistent.kernel with
/// its own parameters and launch; its grid is one-dimensional, as the
/// rule's.
void ManifestReader::readTwin(Object &top, Manifest &manifest) {
  if (manifest.abiVersion < 6) {
    top.explainUnknown("twin", "a version 6 key");
    return;
  }
  const Value *twin = top.optional("twin");
  if (!twin) {
    // A kernel that loops itself may run in clusters; one beside a twin
    // does not loop, and the twin may not inherit its cluster.
    if (manifest.launch.inClusters() && manifest.launch.persistent &&
        !manifest.launch.persistent->kernel.empty())
      fail("launch.cluster",
           "a kernel launched in clusters runs its persistent twin on the "
           "twin's own launch (key \"twin\"), and this manifest has none");
    return;
  }
  const std::optional<LaunchSpec::Persistent> &rule =
      manifest.launch.persistent;
  if (!rule || rule->kernel.empty())
    fail("twin", "needs a persistent twin kernel (launch.persistent.kernel)");
  Object stage(*this, *twin, "twin");
  Manifest::Twin result;
  readParams(stage.required("params"), "twin.params", manifest, result.params);
  checkEveryTensorPassed(result.params, "twin.params", manifest);
  readLaunch(stage.required("launch"), "twin.launch", manifest.abiVersion,
             result.launch);
  if (result.launch.persistent)
    fail("twin.launch.persistent",
         "the twin runs under the kernel's rule; expected none of its own");
  if (!isOneDimensional(result.launch, manifest.abiVersion))
    fail("twin.launch",
         "a persistent twin needs " + oneDimensionalRule(manifest.abiVersion));
  result.launch.programmaticDependentLaunch =
      manifest.launch.programmaticDependentLaunch;
  result.launch.persistent = rule;
  manifest.twin = std::move(result);
}

void ManifestReader::readDecode(Object &top, Manifest &manifest,
                                const std::string &binaryDir) {
  if (manifest.abiVersion < 8) {
    top.explainUnknown("decode", "a version 8 key");
    return;
  }
  const Value *decode = top.optional("decode");
  if (!decode)
    return;
  Object entry(*this, *decode, "decode");
  Manifest::Decode result;
  result.maxSeqQ =
      integer(entry.required("max_seq_q"), "decode.max_seq_q", 1, 1 << 30);
  // The variant is a whole manifest of its own, read by the same rules;
  // its messages name it.
  Manifest variant = ManifestReader(sourceName + " (decode.manifest)")
                         .read(entry.required("manifest"), binaryDir);
  if (variant.decode)
    fail("decode.manifest.decode", "a decode variant has no variant itself");
  const Problem &mine = manifest.problem, &its = variant.problem;
  if (its.dtype != mine.dtype || its.numQHeads != mine.numQHeads ||
      its.numKVHeads != mine.numKVHeads || its.qkDepth != mine.qkDepth ||
      its.ovDepth != mine.ovDepth || its.mask != mine.mask ||
      its.windowLeft != mine.windowLeft ||
      its.windowRight != mine.windowRight || its.hasLse != mine.hasLse ||
      its.scale != mine.scale || its.softcap != mine.softcap ||
      its.sinks != mine.sinks || its.outputDtype != mine.outputDtype ||
      its.descales != mine.descales || its.backward != mine.backward)
    fail("decode.manifest.problem",
         "the decode variant computes another attention than the kernel "
         "(dtype, output dtype, heads, depths, mask, scale, softcap, sinks, "
         "descales, LSE and pass must match)");
  if (variant.chip != manifest.chip)
    fail("decode.manifest.chip", "expected the kernel's chip '" +
                                     manifest.chip + "', got '" + variant.chip +
                                     "'");
  result.manifest = std::make_shared<const Manifest>(std::move(variant));
  manifest.decode = std::move(result);
}

/// Each layout names its own tensors: a paged kernel reads k_cache and
/// v_cache, the others k and v; the index tensors belong to the serving
/// forms.
void ManifestReader::checkTensorName(const TensorSpec &tensor,
                                     const Problem &problem,
                                     const std::string &path) {
  bool paged = problem.sequences == Sequences::Paged;
  bool isCache = tensor.name == "k_cache" || tensor.name == "v_cache";
  bool isPlainKV = tensor.name == "k" || tensor.name == "v";
  if ((paged && isPlainKV) || (!paged && isCache))
    fail(path, "tensor \"" + tensor.name + "\" in a " +
                   (paged ? "paged" : "non-paged") + " kernel; expected " +
                   (paged ? "\"k_cache\" and \"v_cache\"" : "\"k\" and \"v\""));
  if (isIndexSlot(tensor.slot) && problem.sequences == Sequences::Dense)
    fail(path, "tensor \"" + tensor.name +
                   "\" belongs to the serving forms (problem.sequences)");
  if (isBackwardSlot(tensor.slot) && !problem.backward)
    fail(path, "tensor \"" + tensor.name +
                   "\" belongs to a backward kernel (problem.pass "
                   "\"backward\", version 16)");
  // The key says the tensor's layout; without it there is none to check.
  if (isDescaleSlot(tensor.slot) &&
      problem.descaleOf(tensor.slot) == Descale::None)
    fail(path, "tensor \"" + tensor.name + "\" listed but problem." +
                   tensor.name +
                   " is absent (version 15: \"tensor\" or "
                   "\"batch_head\" for an e4m3 kernel)");
}

/// q, k and v are read, o and lse written (by the backward pass dq, dk and
/// dv written, everything else read): a role the other way round would let
/// an output escape the output checks.
void ManifestReader::checkRole(const TensorSpec &tensor, const Problem &problem,
                               const std::string &path) {
  bool written =
      problem.backward
          ? tensor.slot == TensorSlot::Dq || tensor.slot == TensorSlot::Dk ||
                tensor.slot == TensorSlot::Dv
          : tensor.slot == TensorSlot::O || tensor.slot == TensorSlot::Lse;
  if (tensor.isOutput != written)
    fail(path, "tensor \"" + tensor.name + "\" is " +
                   (written ? "written" : "read") + " by " +
                   (problem.backward ? "the backward pass" : "attention") +
                   "; expected \"" + (written ? "output" : "input") + "\"");
}

/// The element size decides how far the kernel reaches into each tensor.
void ManifestReader::checkDtype(const TensorSpec &tensor,
                                const Problem &problem,
                                const std::string &path) {
  bool isLse = tensor.slot == TensorSlot::Lse;
  bool isSinks = tensor.slot == TensorSlot::Sinks;
  bool isDescale = isDescaleSlot(tensor.slot);
  bool isIndex = isIndexSlot(tensor.slot);
  // Version 15: an FP8 kernel's o has its own dtype.
  bool isOwnOutput =
      tensor.slot == TensorSlot::O && problem.outputDtype != problem.dtype;
  fa4_dtype expected = isLse || isSinks || isDescale ? FA4_DTYPE_F32
                       : isIndex                     ? FA4_DTYPE_I32
                       : isOwnOutput                 ? problem.outputDtype
                                                     : problem.dtype;
  if (tensor.dtype != expected)
    fail(path, std::string("expected \"") + dtypeName(expected) + "\" (" +
                   (isLse         ? "the LSE is f32"
                    : isSinks     ? "the sinks are f32"
                    : isDescale   ? "descales are f32"
                    : isIndex     ? "index tensors are i32"
                    : isOwnOutput ? "problem.output_dtype"
                                  : "problem.dtype") +
                   "), got \"" + dtypeName(tensor.dtype) + "\"");
}

/// The tensor's shape is what the kernel reads or writes: an extent other
/// than the problem's would let a smaller tensor pass validation.
void ManifestReader::checkLayout(const TensorSpec &tensor,
                                 const Problem &problem,
                                 const std::string &path) {
  std::vector<LayoutDim> layout = layoutOf(tensor.slot, problem);
  std::string rule = "tensor \"" + tensor.name + "\" is " + layoutText(layout);
  if (isDescaleSlot(tensor.slot))
    rule += std::string(" (problem.") + tensor.name + " \"" +
            descaleName(problem.descaleOf(tensor.slot)) + "\")";
  else if (problem.sequences == Sequences::Dense)
    rule += " (BSHD)";
  if (tensor.shape.size() != layout.size())
    fail(path,
         "has " + std::to_string(tensor.shape.size()) + " entries; " + rule);
  for (size_t d = 0; d < layout.size(); ++d) {
    const Dim &dim = tensor.shape[d];
    const LayoutDim &want = layout[d];
    if (dim.symbol ? dim.symbol == want.symbol : dim.extent == want.extent)
      continue;
    std::string expected =
        want.symbol ? "\"" + std::string(symbolName(*want.symbol)) + "\"" : "";
    if (want.extent > 0)
      expected += (expected.empty() ? "" : " or ") +
                  std::to_string(want.extent) + " (" + want.field + ")";
    std::string got = dim.symbol
                          ? "\"" + std::string(symbolName(*dim.symbol)) + "\""
                          : std::to_string(dim.extent);
    fail(path + "[" + std::to_string(d) + "]",
         "expected " + expected + ", got " + got + "; " + rule);
  }
}

/// A duplicated parameter shifts every later argument: the kernel would
/// read each from its neighbour's slot.
void ManifestReader::checkNoDuplicateParam(const std::vector<Param> &params,
                                           const std::string &path,
                                           const Manifest &manifest) {
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < params.size(); ++i) {
    std::string key = paramKey(params[i], manifest);
    if (key.empty())
      continue;
    auto [first, inserted] = seen.emplace(key, i);
    if (!inserted)
      fail(path + "[" + std::to_string(i) + "]",
           "duplicates " + path + "[" + std::to_string(first->second) + "] (" +
               describeParam(params[i], manifest) +
               "); a kernel takes each argument once");
  }
}

/// A kernel reaches a tensor only through a pointer or a tensor map: one
/// with neither was dropped from the parameters.
void ManifestReader::checkEveryTensorPassed(const std::vector<Param> &params,
                                            const std::string &path,
                                            const Manifest &manifest) {
  std::vector<bool> passed(manifest.tensors.size());
  for (const Param &param : params) {
    if (const auto *map = std::get_if<TensorMapParam>(&param))
      passed[map->tensor] = true;
    else if (const auto *pointer = std::get_if<PointerParam>(&param))
      passed[pointer->tensor] = true;
  }
  for (size_t i = 0; i < passed.size(); ++i)
    if (!passed[i])
      fail(path, "no \"pointer\" or \"tensor_map\" parameter passes tensor \"" +
                     manifest.tensors[i].name +
                     "\"; expected one for every tensor the kernel reads or "
                     "writes");
}

TensorMapParam ManifestReader::readTensorMap(Object &param,
                                             Manifest &manifest) {
  TensorMapParam map;
  std::string tensorPath = param.field("tensor");
  map.tensor = tensorIndex(
      manifest, string(param.required("tensor"), tensorPath), tensorPath);
  TensorSpec &tensor = manifest.tensors[map.tensor];
  tensor.readByTensorMap = true;
  // cuTensorMapEncodeTiled: globalAddress 16-byte aligned, globalStrides
  // multiples of 16. A weaker rule would pass validation and then fail in
  // the driver.
  const TensorAlignment &alignment = tensor.alignment;
  if (alignment.baseBytes % 16 != 0 || alignment.strideBytes % 16 != 0)
    fail(tensorPath,
         "tensor \"" + tensor.name +
             "\" is read through a tensor map, which needs base_bytes and "
             "stride_bytes multiples of 16 (cuTensorMapEncodeTiled rule), "
             "but " +
             alignmentPaths[map.tensor] + " has base_bytes " +
             std::to_string(alignment.baseBytes) + ", stride_bytes " +
             std::to_string(alignment.strideBytes));
  map.swizzleBytes =
      oneOf<uint32_t>(param.required("swizzle"), param.field("swizzle"),
                      {{"none", 0}, {"32B", 32}, {"64B", 64}, {"128B", 128}});
  oneOf<int>(param.required("interleave"), param.field("interleave"),
             {{"none", 0}});
  map.l2PromotionBytes = oneOf<uint32_t>(
      param.required("l2_promotion"), param.field("l2_promotion"),
      {{"none", 0}, {"64B", 64}, {"128B", 128}, {"256B", 256}});
  // The driver's CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE fills zeros.
  map.oobFill =
      oneOf<OobFill>(param.required("oob_fill"), param.field("oob_fill"),
                     {{"zero", OobFill::Zero},
                      {"none", OobFill::Zero},
                      {"nan_request_zero_fma", OobFill::NanRequestZeroFma}});

  std::string boxPath = param.field("box");
  const auto &box = array(param.required("box"), boxPath, 1, FA4_MAX_RANK);
  if (box.size() != tensor.shape.size())
    fail(boxPath, "has " + std::to_string(box.size()) +
                      " entries but tensor \"" + tensor.name + "\" has rank " +
                      std::to_string(tensor.shape.size()));
  // cuTensorMapEncodeTiled: boxDim[i] in [1, 256]; boxDim[0] * elemsize a
  // multiple of 16 bytes; with swizzle, the inner box spans at most the
  // swizzle width.
  for (size_t d = 0; d < box.size(); ++d)
    map.box.push_back(static_cast<uint32_t>(
        integer(box[d], boxPath + "[" + std::to_string(d) + "]", 1, 256)));
  uint64_t innerBytes = uint64_t(map.box.back()) * dtypeSize(tensor.dtype);
  std::string innerPath = boxPath + "[" + std::to_string(box.size() - 1) + "]";
  std::string innerText = "inner box of " + std::to_string(map.box.back()) +
                          " x " + dtypeName(tensor.dtype) + " = " +
                          std::to_string(innerBytes) + " bytes";
  if (innerBytes % 16 != 0)
    fail(innerPath, innerText + " is not a multiple of 16 bytes "
                                "(cuTensorMapEncodeTiled rule)");
  if (map.swizzleBytes != 0 && innerBytes > map.swizzleBytes)
    fail(innerPath, innerText + " exceeds the " +
                        std::to_string(map.swizzleBytes) +
                        "B swizzle span (cuTensorMapEncodeTiled rule)");
  return map;
}

TensorMapScratchParam ManifestReader::readTensorMapScratch(Object &param,
                                                           Manifest &manifest) {
  TensorMapScratchParam scratch;
  std::string path = param.field("maps");
  // One map per tensor at most: q, k, v, o and lse.
  const auto &maps = array(param.required("maps"), path, 1, 5);
  for (size_t i = 0; i < maps.size(); ++i) {
    Object map(*this, maps[i], path + "[" + std::to_string(i) + "]");
    scratch.maps.push_back(readTensorMap(map, manifest));
    for (size_t j = 0; j < i; ++j)
      if (scratch.maps[j].tensor == scratch.maps.back().tensor)
        fail(map.field("tensor"),
             "duplicates maps[" + std::to_string(j) + "] (tensor \"" +
                 manifest.tensors[scratch.maps[j].tensor].name +
                 "\"); the kernel builds one map per tensor");
  }
  return scratch;
}

ScalarParam ManifestReader::readScalar(Object &param,
                                       const Manifest &manifest) {
  ScalarParam scalar;
  scalar.type = oneOf<ScalarType>(param.required("type"), param.field("type"),
                                  {{"i32", ScalarType::I32},
                                   {"i64", ScalarType::I64},
                                   {"f32", ScalarType::F32}});
  std::string valuePath = param.field("value");
  const Value &value = param.required("value");
  if (value.kind == Value::Kind::Number) {
    scalar.source = ScalarParam::Source::Literal;
    scalar.literal = value.number;
    scalar.spelling = std::to_string(value.number);
    if (scalar.type != ScalarType::F32 && !value.isInteger())
      fail(valuePath, "integer scalar with a non-integer literal");
    return scalar;
  }
  scalar.spelling = string(value, valuePath);
  const std::string &text = scalar.spelling;
  if (std::optional<Symbol> symbol = symbolNamed(text)) {
    scalar.source = ScalarParam::Source::Symbol;
    scalar.symbol = *symbol;
  } else if (text == "scale") {
    scalar.source = ScalarParam::Source::Scale;
  } else if (text == "scale_log2") {
    scalar.source = ScalarParam::Source::ScaleLog2;
  } else if (size_t dot = text.find(".stride."); dot != std::string::npos) {
    scalar.source = ScalarParam::Source::Stride;
    scalar.tensor = tensorIndex(manifest, text.substr(0, dot), valuePath);
    std::string dimText = text.substr(dot + 8);
    size_t rank = manifest.tensors[scalar.tensor].shape.size();
    if (rank == 0)
      fail(valuePath, "\"" + text + "\": tensor \"" +
                          manifest.tensors[scalar.tensor].name +
                          "\" has rank 0 (one value) and no strides");
    if (dimText.empty() ||
        dimText.find_first_not_of("0123456789") != std::string::npos ||
        dimText.size() > 2 || std::stoul(dimText) >= rank)
      fail(valuePath, "\"" + text + "\": stride dim must be 0.." +
                          std::to_string(rank - 1));
    scalar.dim = std::stoi(dimText);
  } else {
    fail(valuePath,
         "unknown scalar value \"" + text +
             "\"; expected a size symbol (b, sq, skv, hq, hkv, splits), "
             "<tensor>.stride.<dim>, scale, scale_log2 or a number");
  }
  return scalar;
}

GridFactor ManifestReader::readGridFactor(const Value &value,
                                          const std::string &path) {
  GridFactor factor;
  if (value.kind == Value::Kind::Number) {
    factor.kind = GridFactor::Kind::Constant;
    factor.constant = integer(value, path, 1, INT32_MAX);
  } else if (value.kind == Value::Kind::String) {
    factor.kind = GridFactor::Kind::Symbol;
    factor.symbol = symbol(value, path);
  } else if (value.kind == Value::Kind::Object) {
    Object object(*this, value, path);
    std::string ceilPath = object.field("ceil_div");
    const auto &operands = array(object.required("ceil_div"), ceilPath, 2, 2);
    factor.kind = GridFactor::Kind::CeilDiv;
    factor.symbol = symbol(operands[0], ceilPath + "[0]");
    factor.divisor = integer(operands[1], ceilPath + "[1]", 1, INT32_MAX);
  } else {
    fail(path, std::string("expected an integer, a size symbol or "
                           "{\"ceil_div\": [symbol, integer]}, got ") +
                   json::kindName(value.kind));
  }
  return factor;
}

void ManifestReader::readLaunch(const Value &value, const std::string &path,
                                int abiVersion, LaunchSpec &launch) {
  Object object(*this, value, path);
  const auto &grid = array(object.required("grid"), path + ".grid", 3, 3);
  for (size_t d = 0; d < 3; ++d) {
    std::string dimPath = path + ".grid[" + std::to_string(d) + "]";
    for (const Value &factor : array(grid[d], dimPath, 0, 8))
      launch.grid[d].push_back(readGridFactor(
          factor, dimPath + "[" + std::to_string(launch.grid[d].size()) + "]"));
  }
  auto readDims = [&](const char *key, int64_t max,
                      std::array<uint32_t, 3> &dims) {
    std::string path = object.field(key);
    const auto &entries = array(object.required(key), path, 3, 3);
    for (size_t d = 0; d < 3; ++d)
      dims[d] = static_cast<uint32_t>(
          integer(entries[d], path + "[" + std::to_string(d) + "]", 1, max));
  };
  readDims("block", kMaxBlockThreads, launch.block);
  if (uint64_t(launch.block[0]) * launch.block[1] * launch.block[2] >
      kMaxBlockThreads)
    fail(path + ".block", "more than 1024 threads per block");
  readDims("cluster", kMaxClusterCtas, launch.cluster);
  uint64_t ctas =
      uint64_t(launch.cluster[0]) * launch.cluster[1] * launch.cluster[2];
  if (ctas > kMaxClusterCtas)
    fail(path + ".cluster",
         std::to_string(ctas) + " CTAs per cluster; at most " +
             std::to_string(kMaxClusterCtas) +
             " (the largest cluster sm_90 and sm_100 launch)");
  launch.dynamicSmemBytes = static_cast<uint32_t>(integer(
      object.required("dynamic_smem_bytes"), path + ".dynamic_smem_bytes", 0,
      kMaxDynamicSmemBytes,
      "227 KiB, the most shared memory a block may opt in to on sm_90 and "
      "sm_100"));
  if (abiVersion < 4) {
    object.explainUnknown("programmatic_dependent_launch", "a version 4 key");
    object.explainUnknown("persistent", "a version 4 key");
    return;
  }
  if (const Value *programmatic =
          object.optional("programmatic_dependent_launch"))
    launch.programmaticDependentLaunch =
        boolean(*programmatic, path + ".programmatic_dependent_launch");
  if (const Value *persistent = object.optional("persistent")) {
    std::string persistentPath = path + ".persistent";
    Object rule(*this, *persistent, persistentPath);
    LaunchSpec::Persistent result;
    result.ctasPerSM = static_cast<uint32_t>(integer(
        rule.required("ctas_per_sm"), persistentPath + ".ctas_per_sm", 1, 32));
    result.maxSeqKV = integer(rule.required("max_seq_kv"),
                              persistentPath + ".max_seq_kv", 0, INT32_MAX);
    if (abiVersion < 5) {
      rule.explainUnknown("kernel", "a version 5 key");
    } else if (const Value *twin = rule.optional("kernel")) {
      result.kernel = string(*twin, persistentPath + ".kernel");
      if (result.kernel.empty())
        fail(persistentPath + ".kernel", "empty kernel name");
    }
    if (!isOneDimensional(launch, abiVersion))
      fail(persistentPath,
           "a persistent launch needs " + oneDimensionalRule(abiVersion));
    launch.persistent = result;
  }
}

} // namespace

Manifest fa4::rt::parseManifest(std::string_view json,
                                const std::string &binaryDir,
                                const std::string &sourceName) {
  Value root;
  try {
    root = json::parse(json);
  } catch (const json::ParseError &error) {
    throw Error(FA4_ERROR_MANIFEST,
                sourceName + ":" + error.what() + " (invalid JSON)");
  }
  return ManifestReader(sourceName).read(root, binaryDir);
}

Manifest fa4::rt::loadManifest(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw Error(FA4_ERROR_MANIFEST, "cannot open manifest '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "."
                    : slash == 0               ? "/"
                                               : path.substr(0, slash);
  return parseManifest(text.str(), dir, path);
}
