//===- AttnProblem.cpp - Element type and mask helpers --------------------===//

#include "fa4/Planning/AttnProblem.h"

#include "llvm/Support/ErrorHandling.h"

using namespace fa4;

unsigned fa4::elementBits(ElementType type) {
  switch (type) {
  case ElementType::BF16:
  case ElementType::F16:
    return 16;
  case ElementType::F8E4M3FN:
    return 8;
  }
  llvm_unreachable("unknown element type");
}

unsigned fa4::elementBytes(ElementType type) { return elementBits(type) / 8; }

llvm::StringRef fa4::elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return "bf16";
  case ElementType::F16:
    return "f16";
  case ElementType::F8E4M3FN:
    return "f8E4M3FN";
  }
  llvm_unreachable("unknown element type");
}

llvm::StringRef fa4::maskKindName(MaskKind mask) {
  switch (mask) {
  case MaskKind::None:
    return "none";
  case MaskKind::Causal:
    return "causal";
  case MaskKind::Window:
    return "window";
  }
  llvm_unreachable("unknown mask kind");
}
