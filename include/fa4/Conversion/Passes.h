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

namespace fa4::kernel {
class FA4Dialect;
} // namespace fa4::kernel

namespace fa4 {

#define GEN_PASS_DECL
#include "fa4/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fa4/Conversion/Passes.h.inc"

} // namespace fa4

#endif // FA4_CONVERSION_PASSES_H
