//===- Passes.h - fa4 conversion passes -------------------------*- C++ -*-===//

#ifndef FA4_CONVERSION_PASSES_H
#define FA4_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "fa4/Target/TargetInfo.h"

#include <optional>
#include <string>

namespace fa4::kernel {
class FA4Dialect;
} // namespace fa4::kernel

namespace fa4 {
namespace attn {
class AttentionOp;
class PlannedAttentionOpInterface;
} // namespace attn

/// Why the Blackwell (FA4) kernel does not implement `op`'s sm_100a plan
/// (the error convert-attn-to-fa4 would report), or std::nullopt when it
/// does; `deviceTensorMaps` is convert-attn-to-fa4's option, which a serving
/// form's kernel does not take. Reports nothing.
std::optional<std::string>
blackwellKernelRefusal(attn::PlannedAttentionOpInterface op,
                       bool deviceTensorMaps = false);

/// The same of the Hopper kernel and `op`'s sm_90a plan.
std::optional<std::string>
hopperKernelRefusal(attn::PlannedAttentionOpInterface op,
                    bool deviceTensorMaps = false);

/// The chip whose kernel alone reads a lowering option (Passes.td's
/// KernelOption), by the token cmake/gen-pass-options.py writes for it in
/// fa4/Conversion/PassOptions.inc; AnyChip: every kernel reads it.
constexpr std::optional<Chip> kOptionChipSM90a = Chip::SM90a;
constexpr std::optional<Chip> kOptionChipSM100a = Chip::SM100a;
constexpr std::optional<Chip> kOptionChipAnyChip = std::nullopt;

#define GEN_PASS_DECL
#include "fa4/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fa4/Conversion/Passes.h.inc"

} // namespace fa4

#endif // FA4_CONVERSION_PASSES_H
