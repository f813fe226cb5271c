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

/// The launch side of a kernel, as docs/KernelABI.md describes it. Params and
/// grid factors use the manifest's spelling in short form: "ptr:o",
/// "i64:o.stride.1", "f32:scale_log2", "tmap:q:1x64x1x64:128"; grid factors
/// "b", "hq", "ceil_div:sq:128".
struct KernelABI {
  llvm::SmallVector<std::string> params;
  llvm::SmallVector<llvm::SmallVector<std::string>> grid;
  int64_t block[3] = {1, 1, 1};
  int64_t cluster[3] = {1, 1, 1};
  int64_t dynamicSmemBytes = 0;
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
    struct OwnLaunch {
      llvm::SmallVector<std::string> params;
      llvm::SmallVector<llvm::SmallVector<std::string>> grid;
      int64_t block[3] = {1, 1, 1};
      /// Version 10: a looped twin in pairs of CTAs (kv-multicast-twin).
      int64_t cluster[3] = {1, 1, 1};
      int64_t dynamicSmemBytes = 0;
    };
    std::optional<OwnLaunch> twinLaunch;
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
  /// partials, passes it as "ptr:workspace", and launches `combine` after
  /// the attention kernel on the same stream. Empty: no second launch.
  llvm::SmallVector<std::string> workspaceBytes;
  struct Combine {
    std::string kernel; // a gpu.func in the attention kernel's module
    llvm::SmallVector<std::string> params;
    llvm::SmallVector<llvm::SmallVector<std::string>> grid;
    int64_t block[3] = {1, 1, 1};
  };
  std::optional<Combine> combine;
  /// A workspace split-K whose partition count the runtime picks per launch
  /// and binds to the size symbol "splits" (kSplitsSymbol): P = min(#SMs /
  /// W, maxPartitions, max(seqKV / minKeysPerPartition, min(seqKV / keyTile,
  /// minPartitions))), at least 1, for W the grid's y x z work items, then
  /// recounted so that no partition of alignTo(ceil(seqKV / P), keyTile) keys
  /// is empty. minPartitions is manifest version 9's.
  struct SplitAtLaunch {
    int64_t maxPartitions, minKeysPerPartition, keyTile, minPartitions;
  };
  std::optional<SplitAtLaunch> splitAtLaunch;
};

/// A tensor map in the params' short form, "q:1x64x1x64:128" (after "tmap:",
/// and each entry of "tmaps:"): the tensor, the box outermost first, the
/// swizzle in bytes (0: none).
struct TensorMapSpec {
  std::string tensor;
  llvm::SmallVector<int64_t> box;
  int64_t swizzleBytes = 0;
};
TensorMapSpec parseTensorMapSpec(llvm::StringRef text);

/// The size symbol a split picked at launch binds (KernelABI::SplitAtLaunch).
constexpr const char *kSplitsSymbol = "splits";

/// Creates `gpu.module @<name>_module` for `chip` at the end of `module`
/// (named after the function holding `op`, made unique), marks `module` as a
/// GPU container, and returns the new module and the kernel's name.
std::pair<mlir::gpu::GPUModuleOp, std::string>
createKernelModule(mlir::ModuleOp module, attn::AttentionOp op,
                   llvm::StringRef prefix, llvm::StringRef chip);

/// Records `abi` and the kernel symbol on `op` as `fa4.abi`.
void setKernelABI(attn::AttentionOp op, mlir::gpu::GPUModuleOp kernelModule,
                  llvm::StringRef kernelName, const KernelABI &abi);

} // namespace fa4

#endif // FA4_CONVERSION_KERNELABI_H
