//===- AttnProblem.cpp - Element type and mask helpers --------------------===//

#include "fa4/Planning/AttnProblem.h"

#include "llvm/Support/ErrorHandling.h"

#include <utility>

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

llvm::LogicalResult fa4::validateSizes(const AttnProblem &problem,
                                       llvm::raw_ostream &whyNot) {
  for (auto [name, size] :
       {std::pair<const char *, int64_t>{"batch", problem.batch},
        {"seqQ", problem.seqQ},
        {"seqKV", problem.seqKV}}) {
    if (size != kDynamic && size < 1) {
      whyNot << "expected " << name << " to be at least 1 or dynamic, but got "
             << size;
      return llvm::failure();
    }
  }
  for (auto [name, hint] :
       {std::pair<const char *, int64_t>{"batch hint", problem.batchHint},
        {"seqQ hint", problem.seqQHint},
        {"seqKV hint", problem.seqKVHint}}) {
    if (hint != kDynamic && hint < 1) {
      whyNot << "expected " << name << " to be -1 (none) or >= 1, but got "
             << hint;
      return llvm::failure();
    }
  }
  return llvm::success();
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
