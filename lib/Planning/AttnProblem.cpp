//===- AttnProblem.cpp - Element type and mask helpers --------------------===//

#include "fa4/Planning/AttnProblem.h"
#include "fa4/Limits.h"

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
  struct Size {
    const char *name;
    int64_t value, max;
  };
  for (Size size : {Size{"batch", problem.batch, limits::kMaxBatch},
                    Size{"seqQ", problem.seqQ, limits::kMaxSeqLen},
                    Size{"seqKV", problem.seqKV, limits::kMaxSeqLen}}) {
    if (size.value != kDynamic && !limits::isSize(size.value, size.max)) {
      whyNot << "expected " << size.name << " to be 1 to " << size.max
             << " or dynamic, but got " << size.value;
      return llvm::failure();
    }
  }
  for (Size hint :
       {Size{"batch hint", problem.batchHint, limits::kMaxBatch},
        Size{"seqQ hint", problem.seqQHint, limits::kMaxSeqLen},
        Size{"seqKV hint", problem.seqKVHint, limits::kMaxSeqLen}}) {
    if (hint.value != kDynamic && !limits::isSize(hint.value, hint.max)) {
      whyNot << "expected " << hint.name << " to be -1 (none) or 1 to "
             << hint.max << ", but got " << hint.value;
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

llvm::StringRef fa4::sequenceLayoutName(SequenceLayout layout) {
  switch (layout) {
  case SequenceLayout::Dense:
    return "dense";
  case SequenceLayout::Packed:
    return "packed";
  case SequenceLayout::Paged:
    return "paged";
  }
  llvm_unreachable("unknown sequence layout");
}
