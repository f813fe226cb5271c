//===- Kernels.h - The kernel builders of convert-attn-to-fa4 ---*- C++ -*-===//

#ifndef LIB_CONVERSION_ATTNTOFA4_KERNELS_H
#define LIB_CONVERSION_ATTNTOFA4_KERNELS_H

#include "fa4/Conversion/Passes.h"
#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

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

/// The options of convert-attn-to-fa4 that one chip's builder reads: the
/// chip's own group (Passes.td's KernelOption) and those every builder
/// reads, generated from Passes.td (cmake/gen-pass-options.py).
#define FA4_OPTION_FIELD_ConvertAttnToFA4(TYPE, NAME, DEFAULT)                 \
  TYPE NAME = DEFAULT;
#define FA4_OPTION_FIELD_ConvertFA4ToNVVM(TYPE, NAME, DEFAULT)
#define FA4_OPTION_FIELD(PASS, TYPE, NAME, DEFAULT)                            \
  FA4_OPTION_FIELD_##PASS(TYPE, NAME, DEFAULT)
#define FA4_OPTION_SKIP(PASS, TYPE, NAME, DEFAULT)

struct HopperKernelOptions {
#define FA4_HOPPER_SM90a FA4_OPTION_FIELD
#define FA4_HOPPER_AnyChip FA4_OPTION_FIELD
#define FA4_HOPPER_SM100a FA4_OPTION_SKIP
#define FA4_PASS_OPTION_CHIP(PASS, TYPE, NAME, ARGUMENT, DEFAULT, CHIP)        \
  FA4_HOPPER_##CHIP(PASS, TYPE, NAME, DEFAULT)
#include "fa4/Conversion/PassOptions.inc"
#undef FA4_HOPPER_SM90a
#undef FA4_HOPPER_AnyChip
#undef FA4_HOPPER_SM100a
};

struct BlackwellKernelOptions {
#define FA4_BLACKWELL_SM100a FA4_OPTION_FIELD
#define FA4_BLACKWELL_AnyChip FA4_OPTION_FIELD
#define FA4_BLACKWELL_SM90a FA4_OPTION_SKIP
#define FA4_PASS_OPTION_CHIP(PASS, TYPE, NAME, ARGUMENT, DEFAULT, CHIP)        \
  FA4_BLACKWELL_##CHIP(PASS, TYPE, NAME, DEFAULT)
#include "fa4/Conversion/PassOptions.inc"
#undef FA4_BLACKWELL_SM100a
#undef FA4_BLACKWELL_AnyChip
#undef FA4_BLACKWELL_SM90a
};

/// One chip's kernel builder: convert-attn-to-fa4 takes the one of the
/// chip the op's plan is for.
class KernelBuilder {
public:
  virtual ~KernelBuilder() = default;
  /// Why this builder does not implement `op`'s plan, or nothing.
  virtual std::optional<std::string>
  refusal(attn::PlannedAttentionOpInterface op) const = 0;
  /// `op`'s kernels in a gpu.module of their own (the kernel, and where the
  /// plan has them its looped twin and its split-K combine), and its ABI
  /// record on `op`. Fails with a diagnostic on plans it does not implement.
  virtual mlir::LogicalResult
  build(mlir::ModuleOp module, attn::PlannedAttentionOpInterface op) const = 0;
};

/// sm_90a: the FA3 structure in the fa4 kernel dialect (a TMA producer
/// warpgroup, consumer warpgroups in ping-pong); the builder keeps the
/// schedule choices the plan allows.
std::unique_ptr<KernelBuilder>
createHopperKernelBuilder(const HopperKernelOptions &options);

/// sm_100a: the FA4 structure in the fa4 kernel dialect (tensor memory,
/// tcgen05 MMAs issued by one thread, softmax and correction warpgroups).
std::unique_ptr<KernelBuilder>
createBlackwellKernelBuilder(const BlackwellKernelOptions &options);
} // namespace fa4

#endif // LIB_CONVERSION_ATTNTOFA4_KERNELS_H
