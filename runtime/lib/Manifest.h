//===- Manifest.h - The kernel ABI manifest (versions 1-16) -----*- C++ -*-===//
//
// The in-memory form of manifest.json, the contract between the fa4 compiler
// and this runtime. docs/KernelABI.md is the specification; parseManifest
// accepts exactly that schema and names the offending field otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_MANIFEST_H
#define FA4_RUNTIME_MANIFEST_H

#include "Json.h"
#include "fa4-c/Runtime.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fa4::rt {

/// Runtime sizes a manifest may refer to: b, sq, skv, hq, hkv, and
/// (version 7, grids, scalars and the workspace only) splits, the split-K
/// partition count the runtime picks at launch (Manifest::splitAtLaunch);
/// version 12's serving forms add tq, tk (packed tokens), max_sq (the
/// caller's bound on a sequence's query rows), pages, max_pages (a paged
/// cache's and a block table's pages) and b+1 (cu_seqlens' entries).
enum class Symbol {
  Batch,
  SeqQ,
  SeqKV,
  HeadsQ,
  HeadsKV,
  Splits,
  TokensQ,
  TokensK,
  MaxSeqQ,
  Pages,
  MaxPages,
  BatchPlusOne
};
constexpr int numSymbols = 12;
const char *symbolName(Symbol symbol);

/// The attention operand a manifest tensor stands for (K and V are a paged
/// kernel's k_cache and v_cache; Dout to Dv a backward kernel's dO and
/// gradients). The serving forms' index tensors come last (isIndexSlot).
enum class TensorSlot {
  Q,
  K,
  V,
  O,
  Lse,
  Sinks,
  QDescale,
  KDescale,
  VDescale,
  Dout,
  Dq,
  Dk,
  Dv,
  CuSeqlensQ,
  CuSeqlensK,
  SeqUsedK,
  BlockTable,
  SeqlensK
};
const fa4_tensor &tensorInSlot(const fa4_serving_args &args, TensorSlot slot);
/// A dense launch's arguments as the serving forms' (no index tensors).
inline fa4_serving_args servingArgs(const fa4_attention_args &args) {
  fa4_serving_args full = {};
  full.attention = args;
  return full;
}
/// Whether `slot` is a serving form's i32 index tensor.
inline bool isIndexSlot(TensorSlot slot) {
  return static_cast<int>(slot) >= static_cast<int>(TensorSlot::CuSeqlensQ);
}

/// Whether `slot` is one of a backward kernel's own tensors (version 16):
/// dout, dq, dk, dv.
inline bool isBackwardSlot(TensorSlot slot) {
  return slot == TensorSlot::Dout || slot == TensorSlot::Dq ||
         slot == TensorSlot::Dk || slot == TensorSlot::Dv;
}

/// How a kernel's sequences lie (version 12's problem.sequences).
enum class Sequences { Dense, Packed, Paged };

/// Version 15: the descale an FP8 kernel takes for q, k or v: none, one f32
/// for the tensor (a rank-0 tensor), or one per (batch, kv head) (f32
/// [b, hkv], FlashAttention 3's layout). The values are
/// fa4_kernel_info.q_descale's.
enum class Descale { None = 0, Tensor = 1, BatchHead = 2 };

/// The descale tensors' slots and names, in the manifest's order.
constexpr TensorSlot kDescaleSlots[3] = {
    TensorSlot::QDescale, TensorSlot::KDescale, TensorSlot::VDescale};
constexpr const char *kDescaleNames[3] = {"q_descale", "k_descale",
                                          "v_descale"};
/// Whether `slot` is one of the descale tensors.
inline bool isDescaleSlot(TensorSlot slot) {
  return slot == TensorSlot::QDescale || slot == TensorSlot::KDescale ||
         slot == TensorSlot::VDescale;
}

/// One entry of a tensor's shape: a fixed extent or a runtime size.
struct Dim {
  std::optional<Symbol> symbol;
  int64_t extent = 0; // when symbol is empty
};

/// What the kernel's accesses to one tensor require of the user's layout.
/// Version 2 manifests give it per tensor; version 1's global values are
/// copied into every tensor.
struct TensorAlignment {
  int64_t baseBytes;   // the data pointer, a power of two
  int64_t strideBytes; // every non-last stride * element size
};

struct TensorSpec {
  std::string name;
  TensorSlot slot;
  bool isOutput;
  fa4_dtype dtype;
  std::vector<Dim> shape; // outermost first
  TensorAlignment alignment;
  bool readByTensorMap = false; // a tensor_map param describes it
};

enum class OobFill { Zero, NanRequestZeroFma };

struct TensorMapParam {
  size_t tensor;             // index into Manifest::tensors
  std::vector<uint32_t> box; // outermost first, like the shape
  uint32_t swizzleBytes;     // 0 (none), 32, 64, 128
  uint32_t l2PromotionBytes; // 0 (none), 64, 128, 256
  OobFill oobFill;
};

struct PointerParam {
  size_t tensor;
};

enum class ScalarType { I32, I64, F32 };

struct ScalarParam {
  enum class Source { Symbol, Stride, Scale, ScaleLog2, Literal };
  ScalarType type;
  Source source;
  Symbol symbol = Symbol::Batch; // Source::Symbol
  size_t tensor = 0;             // Source::Stride
  int dim = 0;                   // Source::Stride
  double literal = 0;            // Source::Literal
  std::string spelling;          // as written, for messages
};

/// The workspace the runtime allocates for a workspace split-K (version 3).
struct WorkspaceParam {};

/// Version 11: global scratch in which every CTA builds `maps` itself
/// (tensormap.replace), 128 bytes each in this order, the maps of CTA
/// x + gx (y + gy z) at 128 * maps.size() times that index. The tensors
/// come by pointer, their strides as scalars.
struct TensorMapScratchParam {
  std::vector<TensorMapParam> maps;
  uint64_t bytesPerCta() const { return 128 * maps.size(); }
};

using Param = std::variant<TensorMapParam, PointerParam, ScalarParam,
                           WorkspaceParam, TensorMapScratchParam>;

struct GridFactor {
  enum class Kind { Constant, Symbol, CeilDiv };
  Kind kind;
  int64_t constant = 0;          // Kind::Constant
  Symbol symbol = Symbol::Batch; // Kind::Symbol, Kind::CeilDiv numerator
  int64_t divisor = 1;           // Kind::CeilDiv
};

struct LaunchSpec {
  std::array<std::vector<GridFactor>, 3> grid; // each dim: product of factors
  std::array<uint32_t, 3> block;
  std::array<uint32_t, 3> cluster;
  uint32_t dynamicSmemBytes;
  bool inClusters() const {
    return cluster != std::array<uint32_t, 3>{1, 1, 1};
  }
  /// Version 4: the kernel waits for prior grids itself
  /// (griddepcontrol.wait), so it may be launched with programmatic stream
  /// serialization.
  bool programmaticDependentLaunch = false;
  /// Version 4: the kernel walks its one-dimensional grid's work tiles
  /// blockIdx.x, + gridDim.x, ..., so any grid.x covers the work; when the
  /// launch's skv is at most `maxSeqKV` the runtime runs it on at most
  /// `ctasPerSM` CTAs per SM of the device (persistent CTAs), otherwise on
  /// one CTA per work tile.
  /// Version 5: `kernel`, a twin of the kernel in the same binary that
  /// walks the work tiles; when the rule applies it is launched instead (the
  /// kernel itself then runs one work tile per CTA). Empty: the kernel
  /// walks the work tiles itself.
  struct Persistent {
    uint32_t ctasPerSM;
    int64_t maxSeqKV;
    std::string kernel;
  };
  std::optional<Persistent> persistent;
};

struct Problem {
  fa4_dtype dtype; // q, k and v
  /// o's: problem.dtype, or version 15's output_dtype under e4m3 inputs.
  fa4_dtype outputDtype;
  int64_t numQHeads, numKVHeads, qkDepth, ovDepth;
  fa4_mask_kind mask;
  int64_t windowLeft, windowRight; // -1: unbounded
  double scale;
  double softcap = 0; // 0: none
  bool sinks = false; // version 14: the kernel reads the "sinks" tensor
  /// Version 15: q's, k's and v's descales, in that order.
  std::array<Descale, 3> descales = {Descale::None, Descale::None,
                                     Descale::None};
  /// The descale of a descale tensor's slot.
  Descale descaleOf(TensorSlot slot) const {
    for (int i = 0; i < 3; ++i)
      if (kDescaleSlots[i] == slot)
        return descales[i];
    return Descale::None;
  }
  bool hasLse;
  /// Version 16's problem.pass "backward": reads q, k, v, o, lse and dout,
  /// writes dq, dk and dv.
  bool backward = false;
  int64_t batch, seqQ, seqKV; // -1: dynamic
  Sequences sequences = Sequences::Dense;
  bool packedQueries = false; // q, o, lse packed along tq
  int64_t pageSize = 0;       // Sequences::Paged
};

/// The layout rules shared by every tensor (the per-tensor ones are in
/// TensorSpec::alignment).
struct Alignment {
  bool unitStrideLastDim;
};

enum class BinaryFormat { Cubin, Fatbin, Ptx };

struct Manifest {
  int abiVersion;
  std::string kernel;
  std::string chip;
  /// binary.file, a plain file name, and the directory it lies in (the
  /// manifest's, or the C API's binary_dir; "" is the current directory);
  /// readBinaryFile opens it there. binaryPath joins them, for messages.
  std::string binaryDir, binaryFile;
  std::string binaryPath;
  BinaryFormat binaryFormat;
  Problem problem;
  std::vector<TensorSpec> tensors;
  Alignment alignment;
  std::vector<Param> params;
  LaunchSpec launch;

  /// Version 3, a workspace split-K: the bytes of the workspace (a product
  /// of grid factors), allocated per launch on the launch's stream, and the
  /// kernel of the same binary launched after `kernel` to combine the
  /// partials it wrote there.
  struct Combine {
    std::string kernel;
    std::vector<Param> params;
    LaunchSpec launch;
  };
  std::vector<GridFactor> workspaceBytes;
  std::optional<Combine> combine;

  /// Version 7, workspace.split_at_launch: the workspace split-K's partition
  /// count is the runtime's, bound to "splits" per launch (bindSplits):
  /// min(#SMs / W, maxPartitions, max(skv / minKeysPerPartition,
  /// min(skv / keyTile, minPartitions))), at least 1, for W the attention
  /// grid's y x z, then recounted so that no partition of
  /// ceil(ceil(skv / keyTile) / P) key tiles is empty. minPartitions is
  /// version 9's (1 before: the minimum keys alone bound the count).
  struct SplitAtLaunch {
    int64_t maxPartitions, minKeysPerPartition, keyTile;
    int64_t minPartitions = 1;
  };
  std::optional<SplitAtLaunch> splitAtLaunch;

  /// Version 6: the persistent twin's own parameters and launch (grid,
  /// block, shared memory), where its plan differs from the kernel's: a
  /// different tile changes the tensor-map boxes, the threads and the work
  /// tiles. Absent: the twin launches as the kernel does.
  struct Twin {
    std::vector<Param> params;
    LaunchSpec launch;
  };
  std::optional<Twin> twin;

  /// Version 8: a kernel of the same op planned for decode (one query row),
  /// whose files lie beside this one's; launched instead of this kernel
  /// when the launch's sq is at most `maxSeqQ`.
  struct Decode {
    int64_t maxSeqQ;
    std::shared_ptr<const Manifest> manifest;
  };
  std::optional<Decode> decode;

  /// The manifest as read, less its `binary` entries (its own and its
  /// decode variant's): the ABI record the binary must carry (fa4/AbiRecord.h,
  /// checkRecordMatchesBinary).
  json::Value abiRecord;

  const TensorSpec *findTensor(TensorSlot slot) const;
};

size_t dtypeSize(fa4_dtype dtype);
const char *dtypeName(fa4_dtype dtype);

/// The bits of an enum a caller of the C API passed. C lets any int stand
/// in an enum, but in C++ loading a value outside the enumerators' range as
/// the enum is undefined, so such values are read as integers and
/// range-checked (dtypeFromBits) before any other use.
template <typename Enum> int32_t enumBits(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "a C enum is an int");
  int32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// `bits` as an fa4_dtype, or nothing when no enumerator has that value.
std::optional<fa4_dtype> dtypeFromBits(int32_t bits);

/// Parses and checks a manifest; throws Error(FA4_ERROR_MANIFEST) with
/// "<sourceName>: <field path>: <what is wrong>".
Manifest parseManifest(std::string_view json, const std::string &binaryDir,
                       const std::string &sourceName = "manifest");

/// Reads `path` and parses it; the binary is looked up beside it.
Manifest loadManifest(const std::string &path);

} // namespace fa4::rt

#endif // FA4_RUNTIME_MANIFEST_H
