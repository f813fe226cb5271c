//===- FA4Dialect.cpp - The fa4 kernel dialect and its types --------------===//

#include "fa4/Dialect/FA4/IR/FA4.h"
#include "fa4/Target/HardwareConstants.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace fa4::kernel;

#include "fa4/Dialect/FA4/IR/FA4OpsDialect.cpp.inc"

#include "fa4/Dialect/FA4/IR/FA4Enums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "fa4/Dialect/FA4/IR/FA4OpsTypes.cpp.inc"

void FA4Dialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "fa4/Dialect/FA4/IR/FA4Ops.cpp.inc"
      >();
}

void FA4Dialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "fa4/Dialect/FA4/IR/FA4OpsTypes.cpp.inc"
      >();
}

/// `<` (dim `x`)+ type: the shape and element type every tile type starts
/// with. Returns the dimensions read.
static ParseResult parseShapedPrefix(AsmParser &parser,
                                     SmallVectorImpl<int64_t> &shape,
                                     Type &elementType, size_t rank) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  if (shape.size() != rank)
    return parser.emitError(loc)
           << "expected " << rank << " dimension" << (rank == 1 ? "" : "s")
           << ", got " << shape.size();
  return success();
}

static bool isMmaInputType(Type type) { return type.isBF16() || type.isF16(); }
/// The 8-bit operands of tcgen05.mma.kind::f8f6f4 (shared-memory and TMEM
/// tiles only).
static bool isF8MmaInputType(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

//===----------------------------------------------------------------------===//
// SmemTileType
//===----------------------------------------------------------------------===//

Type SmemTileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  std::string majorName;
  if (parseShapedPrefix(parser, shape, elementType, 2) || parser.parseComma())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&majorName) || parser.parseGreater())
    return {};
  std::optional<Major> major = symbolizeMajor(majorName);
  if (!major) {
    parser.emitError(loc) << "expected 'k_major' or 'mn_major', got '"
                          << majorName << "'";
    return {};
  }
  return parser.getChecked<SmemTileType>(parser.getContext(), shape[0],
                                         shape[1], elementType, *major);
}

void SmemTileType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getColumns() << "x" << getElementType()
          << ", " << stringifyMajor(getMajor()) << ">";
}

LogicalResult SmemTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t rows, int64_t columns,
                                   Type elementType, Major major) {
  bool f8 = isF8MmaInputType(elementType);
  if (!isMmaInputType(elementType) && !f8)
    return emitError() << "shared-memory tiles hold bf16, f16, f8E4M3FN or "
                          "f8E5M2, got "
                       << elementType;
  // A K-major tile's K steps by one MMA's 32 bytes through whole boxes
  // (its last one partly read, as a ones row's of BN columns); an MN-major
  // tile's N spans whole boxes of 64 columns.
  int64_t columnMultiple = major == Major::K ? (f8 ? 32 : 16) : kBoxColumns;
  if (rows <= 0 || rows % 8 || columns <= 0 || columns % columnMultiple)
    return emitError() << "a shared-memory tile has a positive multiple of 8 "
                          "rows and of 64 columns (swizzled boxes of 64 "
                          "columns; K-major, of one MMA's 32 bytes: 16 16-bit "
                          "or 32 8-bit columns), got "
                       << rows << "x" << columns;
  return success();
}

//===----------------------------------------------------------------------===//
// FragType
//===----------------------------------------------------------------------===//

Type FragType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parseShapedPrefix(parser, shape, elementType, 2) || parser.parseGreater())
    return {};
  return parser.getChecked<FragType>(parser.getContext(), shape[0], shape[1],
                                     elementType);
}

void FragType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getColumns() << "x" << getElementType()
          << ">";
}

LogicalResult FragType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t rows, int64_t columns,
                               Type elementType) {
  bool f8 = isF8MmaInputType(elementType);
  if (!elementType.isF32() && !isMmaInputType(elementType) && !f8)
    return emitError() << "a frag holds f32 (an accumulator), bf16/f16 or, "
                          "on sm_100a, f8E4M3FN/f8E5M2 (an MMA operand), got "
                       << elementType;
  if (f8 && rows != 128)
    return emitError() << "an 8-bit frag is an sm_100a operand of 128 rows "
                          "(P in tensor memory), got "
                       << rows << " rows";
  // An accumulator's N steps by 8 (wgmma's n8), an operand's K by one MMA's
  // 32 bytes.
  int64_t columnMultiple = elementType.isF32() ? 8 : (f8 ? 32 : 16);
  if ((rows != 64 && rows != 128) || columns <= 0 || columns % columnMultiple)
    return emitError() << "a frag is 64 or 128 rows (one warpgroup's MMA "
                          "tile) by a positive multiple of 16 columns (8 for "
                          "f32, 32 for 8-bit types), got "
                       << rows << "x" << columns;
  return success();
}

//===----------------------------------------------------------------------===//
// RowsType
//===----------------------------------------------------------------------===//

Type RowsType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parseShapedPrefix(parser, shape, elementType, 1) || parser.parseGreater())
    return {};
  return parser.getChecked<RowsType>(parser.getContext(), shape[0],
                                     elementType);
}

void RowsType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getElementType() << ">";
}

LogicalResult RowsType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t rows, Type elementType) {
  if ((rows != 64 && rows != 128) || !elementType.isF32())
    return emitError() << "rows hold one f32 per row of a 64- or 128-row "
                          "frag, got "
                       << rows << "x" << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// TmemTileType
//===----------------------------------------------------------------------===//

Type TmemTileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parseShapedPrefix(parser, shape, elementType, 2) || parser.parseGreater())
    return {};
  return parser.getChecked<TmemTileType>(parser.getContext(), shape[0],
                                         shape[1], elementType);
}

void TmemTileType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getColumns() << "x" << getElementType()
          << ">";
}

LogicalResult TmemTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t rows, int64_t columns,
                                   Type elementType) {
  if (!elementType.isF32() && !isMmaInputType(elementType) &&
      !isF8MmaInputType(elementType))
    return emitError() << "a TMEM tile holds f32, bf16/f16 or f8E4M3FN/f8E5M2, "
                          "got "
                       << elementType;
  if (rows != 128 || columns <= 0 || columns % 16 || columns > 512)
    return emitError() << "a TMEM tile is 128 lanes by a multiple of 16 "
                          "columns up to 512, got "
                       << rows << "x" << columns;
  return success();
}
