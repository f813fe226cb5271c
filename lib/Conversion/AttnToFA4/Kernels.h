//===- Kernels.h - The kernel builders of convert-attn-to-fa4 ---*- C++ -*-===//

#ifndef LIB_CONVERSION_ATTNTOFA4_KERNELS_H
#define LIB_CONVERSION_ATTNTOFA4_KERNELS_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace fa4 {
/// `persistent=true`: persistent at every Skv.
constexpr int64_t kAlwaysPersistent = INT32_MAX;
/// persistent-max-seq-kv's default, -1: the planner's rule
/// (persistentUpToSeqKV), loopedTwinMaxSeqKV (at Dv <= 64 1024 without a
/// mask and 2048 under a causal one, 4096 at Dv <= 128, 512 past it)
/// without a window mask, and under a causal mask
/// at Dv > 64 only when the twin stores O by TMA too (the smem plan left
/// room: plansLoopedTwin); else no persistence. The looped twin measured
/// +14-27% at S = 512 and 0-4% at 2048 for Dv <= 128, with the plain
/// kernel unchanged above the bound, and at d = 128 +3-5% at 4096
/// (session 14); at Dv = 256 its spills made it slower (bench/RESULTS.md,
/// session 6). Window masks were not measured. With O from registers, causal at
/// Dv = 128 lost 2-5% to the plain kernel's TMA store at every S <= 2048
/// (session 7, call 5); with the box-by-box TMA store it gained 6-11%
/// (session 10, call 1). At Dv = 256 a twin with its own plan (64-key
/// tiles, room to stage O) runs up to kDeepTwinMaxSeqKV (512) keys
/// (session 12, call 9).
constexpr int64_t kPlannersPersistentBound = -1;

/// The schedule choices of convert-attn-to-fa4's options (Passes.td); the
/// builder keeps those the plan allows.
struct FA3Schedule {
  bool pingPong, intraWgOverlap, lazyRescale, tmaStoreO, fuseWorkTiles,
      narrowLastPV, trace;
  /// One exp2 in this many on the FMA pipe (0: none).
  int64_t polyExp2Period;
  /// A softmax row's max and sum in this many chains.
  int64_t softmaxReductionChains;
  /// Masked prefill: the L2 budget of a section of work tiles (0: none).
  int64_t l2SectionBytes;
  /// Causal looped twin: pairedSlot's work order.
  bool pairRowBlocks;
  /// Prefill TMA copies with L2 eviction priorities (l2EvictionFor).
  bool l2EvictionHints;
  /// The looped twin's consumers stop at their own tiles too
  /// (trimsTrailingTiles).
  bool twinOwnTiles;
  /// Prefill without a mask at Dv >= 128: a pair of CTAs multicasts each
  /// K/V tile (FA3KernelBuilder::pairsCTAs), in the looped twin too with
  /// kvMulticastTwin, and under a causal mask with kvMulticastCausal in a
  /// kernel whose launches all have kvMulticastCausalMinSeqKV keys or more.
  bool kvMulticast, kvMulticastTwin, kvMulticastCausal;
  int64_t kvMulticastCausalMinSeqKV;
  /// setmaxnreg's producer budget in a looped prefill kernel at a padded
  /// Dv up to 128 (FA3KernelBuilder::warpgroupRegisters).
  int64_t loopProducerRegisters;
};

/// What convert-attn-to-fa4's options say of an sm_90a kernel: its schedule
/// and where it runs on persistent CTAs (Passes.td).
struct HopperKernelOptions {
  FA3Schedule schedule;
  /// persistent, persistent-max-seq-kv and persistent-decode.
  bool persistent;
  int64_t persistentMaxSeqKV;
  bool persistentDecode;
};

/// sm_90a: the FA3 structure in the fa4 kernel dialect (a TMA producer
/// warpgroup, consumer warpgroups in ping-pong), in a gpu.module of its own:
/// the kernel, its looped twin where the plan has one, and a workspace
/// split-K's combine; records the ABI on `op`. Fails with a diagnostic on
/// plans it does not implement.
mlir::LogicalResult buildHopperKernel(mlir::ModuleOp module,
                                      attn::AttentionOp op,
                                      const HopperKernelOptions &options);

/// sm_100a: the FA4 structure in the fa4 kernel dialect (tensor memory,
/// tcgen05 MMAs issued by one thread, softmax and correction warpgroups).
/// Fails with a diagnostic on plans it does not implement. Masked prefill
/// work tiles go in sections of `l2SectionBytes` (WorkTiles::prefill).
mlir::LogicalResult buildBlackwellKernel(mlir::ModuleOp module,
                                         attn::AttentionOp op,
                                         int64_t l2SectionBytes);
} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_KERNELS_H
