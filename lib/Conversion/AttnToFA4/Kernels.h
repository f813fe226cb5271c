//===- Kernels.h - The kernel builders of convert-attn-to-fa4 ---*- C++ -*-===//

#ifndef LIB_CONVERSION_ATTNTOFA4_KERNELS_H
#define LIB_CONVERSION_ATTNTOFA4_KERNELS_H

#include "fa4/Conversion/Passes.h"
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
/// room: plansLoopedTwin); else no persistence (D-12, D-4). Window masks
/// were not measured. At Dv = 256 a twin with its own plan (64-key tiles,
/// room to stage O) runs up to kDeepTwinMaxSeqKV (512) keys (D-19).
constexpr int64_t kPlannersPersistentBound = -1;

/// sm_90a: the FA3 structure in the fa4 kernel dialect (a TMA producer
/// warpgroup, consumer warpgroups in ping-pong), in a gpu.module of its own:
/// the kernel, its looped twin where the plan has one, and a workspace
/// split-K's combine; records the ABI on `op`. Fails with a diagnostic on
/// plans it does not implement.
/// `options`: convert-attn-to-fa4's (Passes.td); the builder keeps the
/// schedule choices the plan allows.
mlir::LogicalResult buildHopperKernel(mlir::ModuleOp module,
                                      attn::AttentionOp op,
                                      const ConvertAttnToFA4Options &options);

/// sm_100a: the FA4 structure in the fa4 kernel dialect (tensor memory,
/// tcgen05 MMAs issued by one thread, softmax and correction warpgroups).
/// Fails with a diagnostic on plans it does not implement. It reads two of
/// `options`: l2-section-bytes (masked prefill work tiles in sections,
/// WorkTiles::prefill) and device-tensor-maps.
mlir::LogicalResult
buildBlackwellKernel(mlir::ModuleOp module, attn::AttentionOp op,
                     const ConvertAttnToFA4Options &options);
} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_KERNELS_H
