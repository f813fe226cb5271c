//===- Passes.h - The compile pipeline's own passes -------------*- C++ -*-===//

#ifndef FA4_PIPELINES_PASSES_H
#define FA4_PIPELINES_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace fa4 {

#define GEN_PASS_DECL
#include "fa4/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fa4/Pipelines/Passes.h.inc"

} // namespace fa4

#endif // FA4_PIPELINES_PASSES_H
