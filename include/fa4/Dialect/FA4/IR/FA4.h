//===- FA4.h - The fa4 kernel dialect, its types and ops --------*- C++ -*-===//

#ifndef FA4_DIALECT_FA4_IR_FA4_H
#define FA4_DIALECT_FA4_IR_FA4_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fa4/Dialect/FA4/IR/FA4OpsDialect.h.inc"

#include "fa4/Dialect/FA4/IR/FA4Enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fa4/Dialect/FA4/IR/FA4Attrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "fa4/Dialect/FA4/IR/FA4OpsTypes.h.inc"

#define GET_OP_CLASSES
#include "fa4/Dialect/FA4/IR/FA4Ops.h.inc"

namespace fa4::kernel {
/// Threads of a warpgroup: the unit of wgmma and of warp roles.
constexpr int64_t kWarpgroupThreads = 128;
} // namespace fa4::kernel

#endif // FA4_DIALECT_FA4_IR_FA4_H
