//===- AttnDialect.cpp - The attn dialect ---------------------------------===//

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fa4::attn;

#include "fa4/Dialect/Attn/IR/AttnOpsDialect.cpp.inc"

void AttnDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "fa4/Dialect/Attn/IR/AttnOps.cpp.inc"
      >();
}
