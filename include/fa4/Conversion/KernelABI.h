//===- KernelABI.h - Kernel modules and the ABI record ----------*- C++ -*-===//
//
// What every attn.attention lowering shares: one gpu.module per kernel for the
// chip, a name that says what the kernel holds, and the ABI record (`fa4.abi`
// on the op) that the manifest writer turns into manifest.json.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_CONVERSION_KERNELABI_H
#define FA4_CONVERSION_KERNELABI_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace fa4 {

/// A tensor map: the tensor, the box outermost first, the swizzle in bytes
/// (0: none). `#fa4.tensor_map` in the ABI record.
struct TensorMapSpec {
  std::string tensor;
  llvm::SmallVector<int64_t> box;
  int64_t swizzleBytes = 0;

  /// This box and swizzle, of `name`.
  TensorMapSpec of(llvm::StringRef name) const {
    return {name.str(), box, swizzleBytes};
  }
};

/// One kernel parameter, in ABI order (docs/KernelABI.md, "params").
struct KernelParam {
  enum class Kind { Pointer, Workspace, I32, I64, F32, TensorMap, MapScratch };
  Kind kind;
  /// The tensor of a pointer; what a scalar passes ("b", "o.stride.1",
  /// "scale_log2").
  std::string name;
  /// A tensor map's one map; a map scratch's maps, in scratch order.
  llvm::SmallVector<TensorMapSpec> maps;

  static KernelParam pointer(llvm::StringRef tensor) {
    return {Kind::Pointer, tensor.str(), {}};
  }
  static KernelParam workspace() { return {Kind::Workspace, "", {}}; }
  static KernelParam i32(llvm::StringRef value) {
    return {Kind::I32, value.str(), {}};
  }
  static KernelParam i64(llvm::StringRef value) {
    return {Kind::I64, value.str(), {}};
  }
  static KernelParam f32(llvm::StringRef value) {
    return {Kind::F32, value.str(), {}};
  }
  static KernelParam tensorMap(TensorMapSpec map) {
    return {Kind::TensorMap, "", {std::move(map)}};
  }
  static KernelParam mapScratch(llvm::SmallVector<TensorMapSpec> maps) {
    return {Kind::MapScratch, "", std::move(maps)};
  }
};

/// A factor of a grid dimension or of the workspace size: a constant, a
/// size symbol ("b", "hq"), or a size symbol divided by a constant, rounded
/// up.
struct GridFactor {
  std::string symbol; // empty: the constant `value`
  int64_t value = 1;  // the constant, or the ceil_div's divisor
  bool ceilDiv = false;

  GridFactor(int64_t constant) : value(constant) {}
  GridFactor(const char *size) : symbol(size) {}
  static GridFactor size(llvm::StringRef name) {
    return GridFactor(name.str().c_str());
  }
  static GridFactor ceilDivOf(llvm::StringRef size, int64_t divisor) {
    GridFactor factor = GridFactor::size(size);
    factor.value = divisor;
    factor.ceilDiv = true;
    return factor;
  }
};
using GridFactors = llvm::SmallVector<GridFactor>;

/// One kernel's launch: its parameters, grid (x, y, z, each a product of
/// factors), block, cluster and dynamic shared memory.
struct KernelLaunch {
  llvm::SmallVector<KernelParam> params;
  llvm::SmallVector<GridFactors> grid;
  int64_t block[3] = {1, 1, 1};
  int64_t cluster[3] = {1, 1, 1};
  int64_t dynamicSmemBytes = 0;
};

/// The launch side of a kernel, as docs/KernelABI.md describes it;
/// setKernelABI records it as `#fa4.abi`.
struct KernelABI : KernelLaunch {
  /// Programmatic dependent launch: every kernel of the launch (the
  /// combine too) runs `griddepcontrol.wait` before it touches global
  /// memory, so the runtime may start it while the grid before it on the
  /// stream drains (joinPriorGrids).
  bool programmaticDependentLaunch = false;
  /// A persistent launch: when the launch's Skv is at most `maxSeqKV`, the
  /// runtime caps grid x at `ctasPerSM` CTAs per SM and launches
  /// `twinKernel`, which walks the one-dimensional grid's work tiles with
  /// stride gridDim.x; above it, this kernel on one CTA per work tile. An
  /// empty `twinKernel`: this kernel walks the work tiles itself, whatever
  /// the grid.
  struct Persistent {
    int64_t ctasPerSM, maxSeqKV;
    std::string twinKernel = ""; // a gpu.func in this kernel's module
    /// The twin's own launch where its plan differs from this kernel's
    /// (another tile: tensor-map boxes, threads, work tiles, shared
    /// memory); manifest version 6's "twin". Absent: this kernel's.
    std::optional<KernelLaunch> twinLaunch;
  };
  std::optional<Persistent> persistent;
  /// Per tensor (q, k, v, o, lse): the base and stride alignment in bytes its
  /// accesses need: 16 for anything a tensor map reads, else the widest load
  /// or store the kernel issues on it.
  struct Alignment {
    int64_t baseBytes, strideBytes;
  };
  llvm::SmallVector<std::pair<std::string, Alignment>> alignment;

  /// A workspace split-K: the runtime allocates `workspaceBytes` (a product
  /// of grid-style factors: constants and size symbols) for the f32
  /// partials, passes it as the workspace parameter, and launches `combine`
  /// after the attention kernel on the same stream. Absent: no second
  /// launch.
  GridFactors workspaceBytes;
  struct Combine : KernelLaunch {
    std::string kernel; // a gpu.func in the attention kernel's module
  };
  std::optional<Combine> combine;
  /// A workspace split-K whose partition count the runtime picks per launch
  /// and binds to the size symbol "splits" (kSplitsSymbol): P = min(#SMs /
  /// W, maxPartitions, max(seqKV / minKeysPerPartition, min(seqKV / keyTile,
  /// minPartitions))), at least 1, for W the grid's y x z work items, then
  /// recounted so that no partition of alignTo(ceil(seqKV / P), keyTile) keys
  /// is empty. minPartitions is manifest version 9's. A serving form's
  /// seqKV is its bound on one sequence's keys: max_pages x page_size
  /// (paged) or tk (packed keys).
  struct SplitAtLaunch {
    int64_t maxPartitions, minKeysPerPartition, keyTile, minPartitions;
  };
  std::optional<SplitAtLaunch> splitAtLaunch;
};

/// The size symbol a split picked at launch binds (KernelABI::SplitAtLaunch).
constexpr const char *kSplitsSymbol = "splits";

/// `maps` as the attribute a kernel that builds them keeps
/// (#fa4.tensor_map_scratch), and back.
mlir::Attribute tensorMapScratchAttr(mlir::MLIRContext *context,
                                     llvm::ArrayRef<TensorMapSpec> maps);
llvm::SmallVector<TensorMapSpec> tensorMapsOf(mlir::Attribute scratch);

/// Creates `gpu.module @<name>_module` for `chip` at the end of `module`
/// (named after the function holding `op`, made unique), marks `module` as a
/// GPU container, and returns the new module and the kernel's name.
std::pair<mlir::gpu::GPUModuleOp, std::string>
createKernelModule(mlir::ModuleOp module, mlir::Operation *op,
                   llvm::StringRef prefix, llvm::StringRef chip);

/// Records `abi` and the kernel symbol on `op` as `fa4.abi`.
void setKernelABI(mlir::Operation *op, mlir::gpu::GPUModuleOp kernelModule,
                  llvm::StringRef kernelName, const KernelABI &abi);

} // namespace fa4

#endif // FA4_CONVERSION_KERNELABI_H
