//===- AttnAttrs.cpp - attn dialect attributes ----------------------------===//

#include "fa4/Dialect/Attn/IR/Attn.h"
#include "fa4/Limits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fa4::attn;

FailureOr<fa4::Chip> fa4::attn::parseChipParameter(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  if (std::optional<fa4::Chip> chip = fa4::parseChip(name))
    return *chip;
  return parser.emitError(loc)
         << "unknown chip '" << name << "' (sm_90a or sm_100a)";
}

#include "fa4/Dialect/Attn/IR/AttnEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fa4/Dialect/Attn/IR/AttnAttrs.cpp.inc"

void AttnDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fa4/Dialect/Attn/IR/AttnAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MaskAttr
//===----------------------------------------------------------------------===//

LogicalResult MaskAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               MaskKind kind, int64_t left, int64_t right) {
  if (kind != MaskKind::Window) {
    if (left != -1 || right != -1)
      return emitError() << "mask '" << stringifyMaskKind(kind)
                         << "' takes no window bounds";
    return success();
  }
  if (!fa4::limits::isWindowBound(left) || !fa4::limits::isWindowBound(right))
    return emitError() << "window bounds must be -1 (unbounded) or 0 to "
                       << fa4::limits::kMaxWindow
                       << " (kernels compute them in 32 bits), but got window("
                       << left << ", " << right << ")";
  return success();
}

// #attn.mask<none> | #attn.mask<causal> | #attn.mask<window(left, right)>
Attribute MaskAttr::parse(AsmParser &parser, Type) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&keyword))
    return {};
  std::optional<MaskKind> kind = symbolizeMaskKind(keyword);
  if (!kind) {
    parser.emitError(loc) << "unknown mask '" << keyword
                          << "'; expected none, causal or window(left, right)";
    return {};
  }
  // Bounds parse for every kind so that the verifier, not the parser, says
  // which kinds take them.
  int64_t left = -1, right = -1;
  SMLoc boundsLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLParen())) {
    if (parser.parseInteger(left) || parser.parseComma() ||
        parser.parseInteger(right) || parser.parseRParen())
      return {};
  } else if (*kind == MaskKind::Window) {
    parser.emitError(boundsLoc)
        << "mask 'window' needs its bounds: window(left, right), -1 for an "
           "unbounded side";
    return {};
  }
  if (parser.parseGreater())
    return {};
  return MaskAttr::getChecked([&] { return parser.emitError(loc); },
                              parser.getContext(), *kind, left, right);
}

void MaskAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyMaskKind(getKind());
  if (getKind() == MaskKind::Window)
    printer << '(' << getLeft() << ", " << getRight() << ')';
  printer << '>';
}
