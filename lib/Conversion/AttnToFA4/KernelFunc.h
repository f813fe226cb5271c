//===- KernelFunc.h - The attention kernel's signature ----------*- C++ -*-===//
//
// What the sm_90a and sm_100a kernel builders share about the gpu.func they
// write: its parameters in ABI order (docs/KernelABI.md), the kernel
// attributes, the per-tensor alignment, and the arguments by name
// (KernelFunc.cpp); what both read of a plan (KernelPlan.cpp); a split-K's
// grid, workspace and combine kernel (SplitKernels.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_ATTNTOFA4_KERNELFUNC_H
#define LIB_CONVERSION_ATTNTOFA4_KERNELFUNC_H

#include "fa4/Conversion/KernelABI.h"
#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <array>
#include <optional>
#include <string>
#include <tuple>

namespace fa4 {

/// FA4's lazy rescale, for both chips: a row keeps its max (and O its scale)
/// until the max grows by more than 2^8; probabilities stay below 2^8.
constexpr double kRescaleThreshold = 8.0;

/// A 64-column TMA box of `rows` rows and `heads` heads (BSHD, outermost
/// first: 1 x rows x heads x 64), of no tensor yet, swizzled to its row:
/// 128 bytes of 16-bit elements, `swizzleBytes` = 64 of 8-bit ones.
TensorMapSpec tmaBox(int64_t rows, int64_t heads = 1,
                     int64_t swizzleBytes = kSwizzleBytes);

/// A packed tensor's box ([T, H, D], docs/KernelABI.md "Serving forms"):
/// `rows` tokens of one head, 64 128B-swizzled columns.
TensorMapSpec packedTmaBox(int64_t rows);

/// Which attention op a kernel serves: attn.attention (one Sq and Skv per
/// launch), attn.varlen_attention (packed sequences, each its own lengths,
/// docs/KernelABI.md "Serving forms") or attn.paged_attention.
enum class ServingForm { Dense, Varlen, Paged };

/// How a serving form's kernel takes its tensors: packed sequences or a
/// paged cache, queries packed or dense, seqused_k, LSE.
struct ServingLayout {
  ServingForm form = ServingForm::Varlen;
  bool packedQueries = true, seqUsedK = false, hasLse = false;
  /// The op has sinks: their pointer follows O's and LSE's.
  bool sinks = false;
  /// A workspace split-K's decode: the f32 partials' buffer, last.
  bool workspace = false;
};

/// The parameters of a serving form's kernel in ABI order (docs/KernelABI.md,
/// "Serving forms"): tensor maps of Q (`qBox`: 3D where the queries are
/// packed) and of K and V (varlen: the packed `k`, `v`; paged: `k_cache`,
/// `v_cache`, boxes within a page), O (and LSE), the index tensors
/// (varlen: cu_seqlens_q, cu_seqlens_k, seqused_k; paged: block_table,
/// seqlens_k, cu_seqlens_q), B, the grid's rows (max_sq where the queries
/// are packed, else Sq), Tq where packed, Tk (varlen) or max_pages (paged),
/// O's strides (token and head where packed) and LSE's but the last, the
/// block table's row stride (paged), scale * log2(e), for a workspace
/// split-K's decode the workspace, and for a paged cache the caches'
/// pointers, their page count and strides (pages, rows, heads; the rows a
/// producer copies).
llvm::SmallVector<KernelParam>
servingAttentionParams(const ServingLayout &layout, const TensorMapSpec &qBox,
                       const TensorMapSpec &kBox);

/// The kernel parameters in ABI order: tensor maps of Q, K and V with these
/// boxes, O (and LSE), B, Sq, Skv, O's strides (and LSE's), scale * log2(e),
/// and, for a workspace split-K, the workspace. K's box differs from V's
/// under pair_cta (half the keys of a tile). With `oBox`, a tensor map of O
/// with that box comes last, for the kernels that store O by TMA (O's
/// pointer stays: a module's kernels share one parameter list, and a
/// looped twin or a decode kernel writes through it).
///
/// With `deviceMaps` (convert-attn-to-fa4's device-tensor-maps) the kernel
/// takes plain pointers instead and builds the maps itself: Q, K and V's
/// pointers replace their maps, their strides follow the workspace, and the
/// last parameter is the global scratch the maps are built in
/// (docs/KernelABI.md, "tensor_map_scratch").
llvm::SmallVector<KernelParam>
attentionParams(const TensorMapSpec &qBox, const TensorMapSpec &kBox,
                const TensorMapSpec &vBox, bool hasLse, bool workspace = false,
                std::optional<TensorMapSpec> oBox = std::nullopt,
                bool deviceMaps = false);

/// Attention sinks (issue 61): the f32 [Hq] "sinks" pointer, right after O's
/// and LSE's pointers, in either form's parameters.
void addSinksParam(llvm::SmallVectorImpl<KernelParam> &params);

/// Q, K and V are read by TMA: 16-byte bases and strides. O leaves as pairs
/// of 16-bit values (4 bytes), or by TMA stores (16 bytes, `oByTensorMap`),
/// and LSE as f32: 4 bytes.
void setAttentionAlignment(KernelABI &abi, bool hasLse,
                           bool oByTensorMap = false);

/// A serving form's alignment on top of setAttentionAlignment's: its i32
/// index tensors and any form's f32 sinks 4 bytes, and a paged cache's
/// tensors under their names.
void setServingAlignment(KernelABI &abi, ServingForm form);

/// The split-K of a plan: how many partitions, and whether they meet in a
/// cluster (the band of output columns each combines, where its partial is
/// staged in shared memory) or write f32 partials to a global workspace for
/// a combine kernel. No split is one partition.
struct SplitPlan {
  int64_t partitions = 1, band = 0, stagingOffset = 0;
  bool workspace = false;
  /// A workspace split whose partition count the runtime picks per launch
  /// (#attn.splitk reason at_launch): at most `partitions`, each of at least
  /// `minKeysPerPartition` keys in tiles of `keyTile` unless that leaves
  /// fewer than kSplitKAtLaunchMinPartitions. The kernels read the count
  /// from gridDim.x.
  bool atLaunch = false;
  int64_t minKeysPerPartition = 0, keyTile = 0;

  /// The partitions meet in a cluster: staging, the reduce-scatter and the
  /// cluster barriers.
  bool clusterSplit() const { return partitions > 1 && !workspace; }
};

/// The decode launch: grid (partition, head, batch x row tile), where the
/// head is the kv head when `rowGroup` q-heads share a tile; for a cluster
/// split-K, a cluster of the partitions of one work item; for a split
/// picked at launch, the runtime's "splits" partitions.
void setDecodeGrid(KernelABI &abi, const SplitPlan &split, int64_t rowGroup,
                   int64_t queryRowsPerTile);

/// A workspace split's partition count in the kernel: gridDim.x, which the
/// launch sets to the planned count or, at_launch, to the runtime's.
mlir::Value workspacePartitions(mlir::OpBuilder &b, mlir::Location loc);

/// Reads `op`'s #attn.splitk for either kernel builder. Fails with a
/// diagnostic for a cluster plan the reduce-scatter cannot run (more than
/// 16 partitions, odd bands, or bands that do not cover Dv). Whether the
/// staged partials fit is the kernel's check: their layout differs per chip.
mlir::FailureOr<SplitPlan> readSplit(attn::PlannedAttentionOpInterface op);

/// Whether `op` returns (or, in destination style, writes) LSE.
bool returnsLse(attn::PlannedAttentionOpInterface op);

/// An FP8 operand's descale (attn.attention's q_descale, k_descale,
/// v_descale): none, one f32 for the tensor, or one per (batch, kv-head).
enum class Descale { None, Tensor, BatchHead };

/// The descale tensors' names, in the order of KernelPlan::descales.
constexpr const char *kDescaleNames[3] = {"q_descale", "k_descale",
                                          "v_descale"};

/// Each descale's pointer, and for one per (batch, kv-head) its batch
/// stride in elements ("<name>.stride.0"), after every other parameter
/// (before a map scratch); the kernel finds them by name (readDescales).
void addDescaleParams(llvm::SmallVectorImpl<KernelParam> &params,
                      llvm::ArrayRef<Descale> descales);

/// What both chips' kernels read of a plan alike: its split (readSplit), the
/// tile and depths, the shared-memory regions both have, the mask and the
/// types. Each chip's plan derives from it and reads the rest itself.
struct KernelPlan : SplitPlan {
  int64_t bn = 0, kvStages = 0, qkDepth = 0, ovDepth = 0, paddedOv = 0;
  /// 64-column TMA boxes of Q and K (padded Dqk) and of V (padded Dv).
  int64_t qkBoxes = 0, ovBoxes = 0;
  int64_t group = 1, numQHeads = 0, numKVHeads = 0;
  int64_t qOffset = 0, kRingOffset = 0, vRingOffset = 0, barrierOffset = 0,
          barrierBytes = 0;
  int64_t kStageBytes = 0, vStageBytes = 0, smemUsed = 0;
  attn::MaskAttr mask;
  /// The op's softcap c, if any (see softcappedScores).
  std::optional<double> softcap;
  /// The op has sinks: each row's softmax starts from its sink
  /// (fa4.sink.rows), in the one partition that carries it.
  bool sinks = false;
  bool hasLse = false;
  ServingForm form = ServingForm::Dense;
  /// Varlen: the op takes seqused_k (each sequence's keys that count).
  bool seqUsedK = false;
  /// Varlen, and paged with cu_seqlens_q: Q, O and LSE along Tq.
  bool packedQueries = false;
  /// Paged: keys per page.
  int64_t pageSize = 0;
  /// Rows of each K/V box: a tile's, or for a paged cache a page's box (a
  /// K/V tile is then BN / kvBoxRows boxes of its pages, stacked in the
  /// slot: the 128B swizzle repeats every 8 rows). Set by each chip's plan.
  int64_t kvBoxRows = 0;
  /// Paged: the plan nests TMA boxes in pages (kv_path page_boxes); else
  /// the kernel copies every tile, in groups of kvBoxRows rows of a page.
  bool pagesHoldBoxes = false;
  /// Paged, and pages the plan gathers: every K/V tile is copied (D-58).
  bool copiesEveryKvTile() const {
    return form == ServingForm::Paged && !pagesHoldBoxes;
  }
  ServingLayout servingLayout() const {
    return {form, packedQueries, seqUsedK, hasLse, sinks, workspace};
  }
  mlir::Type elementType;
  int64_t elementBytes() const {
    return elementType.getIntOrFloatBitWidth() / 8;
  }
  /// A Q/K/V box's row: 64 columns of the inputs (boxRowBytes).
  int64_t boxBytes() const {
    return boxRowBytes(elementType.getIntOrFloatBitWidth());
  }
  /// O's element type: the inputs', or bf16/f16 under FP8 inputs.
  mlir::Type outputType;
  /// FP8 (issue 62): Q, K and V's descales, in that order.
  std::array<Descale, 3> descales = {Descale::None, Descale::None,
                                     Descale::None};
  bool fp8() const { return elementBytes() == 1; }
  /// Decode (split-K or fused GQA): a 3D grid of (partition, head, batch x
  /// row tile). Otherwise prefill: a 1D list of work tiles.
  bool decode = false;
  /// Query rows per tile row: under fused GQA the `rowGroup` q-heads of a
  /// kv-head share a tile, tile row r holding head r % rowGroup of query row
  /// r / rowGroup.
  int64_t rowGroup = 1;
};

/// What a kernel's fa4.softmax takes: the scores and the scale (exp2
/// domain). Unchanged without a softcap; under the plan's softcap c, scores
/// s become tanh(s * scale / c) (fa4.softcap) and the scale c * log2(e), so
/// the softmax sees c * tanh(scale * s / c) with no multiply by c.
struct SoftmaxInput {
  mlir::Value scores, scaleLog2;
};
SoftmaxInput softmaxInput(mlir::OpBuilder &b, mlir::Location loc,
                          const KernelPlan &plan, mlir::Value scores,
                          mlir::Value scaleLog2);

/// A TMA box as (rows, columns, swizzle), to compare with the one a kernel
/// implements.
inline std::tuple<int64_t, int64_t, int64_t> boxShape(attn::TmaBoxAttr b) {
  return std::make_tuple(b.getRows(), b.getColumns(), b.getSwizzle());
}

/// Sets `plan.kvBoxRows` from the K box of `swizzle`: `tileBoxRows` (the
/// chip's box of a K tile) for contiguous K/V, a page's box for a paged
/// cache whose plan nests boxes in pages, else (pages the plan gathers row
/// by row) the rows a page and a tile share, gcd(page size, BN), where the
/// kernel `copiesGatheredPages`. Fails with a diagnostic naming `kernel`
/// for gathered pages where it does not.
mlir::LogicalResult readKvBoxRows(attn::PlannedAttentionOpInterface op,
                                  KernelPlan &plan, attn::SwizzleAttr swizzle,
                                  int64_t tileBoxRows, llvm::StringRef kernel,
                                  bool copiesGatheredPages);

/// The 16-byte chunks of box `box` (64 columns) within `depth` columns of
/// `elementBytes`-byte elements.
int64_t chunksInBox(int64_t depth, int64_t box, int64_t elementBytes);

/// What neither chip's serving kernel runs of a serving form's plan, or
/// nothing (a dense plan): a decode or split-K plan of packed queries (the
/// decode grid and the workspace are laid out by batch and query row; a
/// paged cache's dense queries decode) and device-tensor-maps (they build
/// maps of dense BSHD tensors only).
std::optional<std::string> servingPlanRefusal(const KernelPlan &plan,
                                              bool deviceTensorMaps);

/// The first error `attempt` reports, captured instead of emitted, where it
/// fails; nothing where it succeeds. How the builders say why they refuse a
/// plan without failing the pass.
std::optional<std::string>
firstErrorOf(mlir::MLIRContext *context,
             llvm::function_ref<mlir::LogicalResult()> attempt);

/// Reads the KernelPlan part of `op`'s plan from `config` and `smem` (the
/// kernel's or a looped twin's); fails as readSplit does.
mlir::FailureOr<KernelPlan> readKernelPlan(attn::PlannedAttentionOpInterface op,
                                           attn::ConfigAttr config,
                                           attn::SmemAttr smem);

/// Workspace split-K: `partials` f32 partials (O normalised, then its LSE)
/// per output row, laid out as fa4.splitk.workspace_combine reads them.
/// Bytes per (batch, query row, q-head), and the element offsets and
/// strides fa4.epilogue writes partial `index` with (of `partials`, an i32).
int64_t workspaceBytesPerRow(int64_t partials, int64_t ovDepth);
struct WorkspacePartial {
  mlir::Value outPtr, lsePtr;
  llvm::SmallVector<mlir::Value> outStride, lseStride;
};
WorkspacePartial workspacePartial(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value workspace, mlir::Value index,
                                  mlir::Value partials, mlir::Value batchSize,
                                  mlir::Value seqQ, int64_t numQHeads,
                                  int64_t ovDepth);

/// Adds `<name>_combine`, the workspace split-K's second kernel, to the
/// kernel module at `b`'s insertion point: a warp per 32 columns of an
/// output row, rows (q-heads) to a CTA of up to four warps, over
/// `partialsPerPartition` partials of each of `split`'s partitions. Records it,
/// the workspace size and, for a split picked at launch, the runtime's rule in
/// `abi`.
void buildWorkspaceCombine(mlir::OpBuilder &b, mlir::Location loc,
                           llvm::StringRef name, KernelABI &abi,
                           const SplitPlan &split, int64_t partialsPerPartition,
                           int64_t numQHeads, int64_t ovDepth,
                           mlir::Type elementType, bool hasLse);

/// `gpu.func @name` with one argument per parameter of `params` and the
/// kernel attributes: `threads` threads, one CTA per SM (ptxas then caps
/// registers at 65536 / threads, the pool setmaxnreg redistributes).
mlir::gpu::GPUFuncOp createKernelFunc(mlir::OpBuilder &b, mlir::Location loc,
                                      llvm::StringRef name,
                                      llvm::ArrayRef<KernelParam> params,
                                      int64_t threads);

/// Programmatic dependent launch, emitted where every thread of the CTA
/// passes before its first global access: `griddepcontrol.wait` holds the
/// CTA until the grids before it on the stream have finished and their
/// writes are visible (it returns at once for a plain launch), then
/// `griddepcontrol.launch_dependents` lets the next grid be scheduled onto
/// SMs as this one's CTAs retire, so its launch and prologue overlap this
/// grid's tail. Sets KernelABI::programmaticDependentLaunch.
void joinPriorGrids(mlir::OpBuilder &b, mlir::Location loc, KernelABI &abi);

/// Moves each fa4.tensor_map.acquire of `func` (publishTensorMaps puts them
/// after its barrier, for every thread) into the role regions that use its
/// map, at the deepest block that holds every use of the role outside a
/// loop: only the threads that issue TMA through a map fence for it.
void placeTensorMapAcquires(mlir::gpu::GPUFuncOp func);

/// The arguments of a kernel made from attentionParams, by name.
struct AttentionArgs {
  /// O's pointer, and its tensor map (`oMap`) when the kernel stores it by
  /// TMA. With device-built maps the maps are null until publishTensorMaps.
  mlir::Value qMap, kMap, vMap, oMap, outPtr, lsePtr, batchSize, seqQ, seqKV,
      scaleLog2, workspace;
  llvm::SmallVector<mlir::Value> outStride, lseStride;
  /// The sinks' pointer (f32 [Hq]) where the op has sinks, else null.
  mlir::Value sinksPtr;
  /// Q, K and V's descale pointers and, per (batch, kv-head), batch
  /// strides; null where the op has none.
  mlir::Value descalePtr[3], descaleStride[3];

  /// Reads the descale arguments of `func`, made from `params`, by name.
  void readDescales(mlir::gpu::GPUFuncOp func,
                    llvm::ArrayRef<KernelParam> params);

  /// Device-built maps: the tensors' pointers and strides (outermost
  /// first, in elements), the scratch, and the maps in scratch order.
  mlir::Value qPtr, kPtr, vPtr, mapScratch;
  llvm::SmallVector<mlir::Value> qStride, kStride, vStride;
  llvm::SmallVector<TensorMapSpec> deviceMaps;
  bool buildsTensorMaps() const { return static_cast<bool>(mapScratch); }

  /// Serving forms (servingAttentionParams): the index tensors' pointers,
  /// Tq (packed queries), max_pages and the block table's row stride
  /// (paged); seqQ is max_sq (packed queries) and seqKV Tk (varlen) until
  /// the kernel reads a sequence's own lengths.
  mlir::Value cuSeqlensQ, cuSeqlensK, seqUsedK, tokensQ, blockTable, seqlensK,
      maxPages, blockTableStride, pages;

  static AttentionArgs read(mlir::gpu::GPUFuncOp func, bool hasLse,
                            bool workspace = false, bool sinks = false);
  /// The arguments of a kernel made from servingAttentionParams. Where
  /// the queries are packed, outStride holds O's token and head strides and
  /// lseStride LSE's head stride: the kernel puts a zero batch stride
  /// before them.
  static AttentionArgs readServing(mlir::gpu::GPUFuncOp func,
                                   const ServingLayout &layout);

  /// Device-built maps (D-48), in three steps around the CTA's barriers.
  /// Before the copies (and before the barrier after the mbarrier
  /// initialisation where TMA may later write the staging region): lane 0
  /// of warp `warp - i` writes map i into shared memory at
  /// `stagingOffset` + 128 i. After griddepcontrol.wait (the scratch is the
  /// launch's, and may be the memory of a grid before it): warp `warp - i`
  /// copies map i to this CTA's slot of the scratch (so the warps below `warp`
  /// must exist for every map); a barrier; the threads that use them acquire
  /// them (placeTensorMapAcquires, once the roles are built). The scratch holds
  /// the maps of CTA (x + gx (y + gy z)) at 128 * maps * that index. No-ops for
  /// host-encoded maps.
  void stageTensorMaps(mlir::OpBuilder &b, mlir::Location loc,
                       const struct KernelPlan &plan, int64_t stagingOffset,
                       mlir::Value tid, int64_t warp);
  /// Who meets once the maps are copied, where only the CTA's first
  /// `threads` threads use them: those alone, at named barrier `id`, while
  /// the others go on (D-50).
  struct MapMeeting {
    int id;
    int64_t threads;
  };
  /// `beforeBarrier` runs in every thread between the copies and the
  /// barrier: the whole CTA's, or `meeting`'s.
  void publishTensorMaps(mlir::OpBuilder &b, mlir::Location loc,
                         int64_t stagingOffset, mlir::Value tid, int64_t warp,
                         llvm::function_ref<void()> beforeBarrier = {},
                         std::optional<MapMeeting> meeting = std::nullopt);
};

} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_KERNELFUNC_H
