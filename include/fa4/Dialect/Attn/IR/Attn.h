//===- Attn.h - The attn dialect, its attributes and ops --------*- C++ -*-===//

#ifndef FA4_DIALECT_ATTN_IR_ATTN_H
#define FA4_DIALECT_ATTN_IR_ATTN_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "fa4/Planning/Planners.h"

#include "fa4/Dialect/Attn/IR/AttnOpsDialect.h.inc"

#include "fa4/Dialect/Attn/IR/AttnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "fa4/Dialect/Attn/IR/AttnAttrs.h.inc"

#define GET_OP_CLASSES
#include "fa4/Dialect/Attn/IR/AttnOps.h.inc"

#endif // FA4_DIALECT_ATTN_IR_ATTN_H
