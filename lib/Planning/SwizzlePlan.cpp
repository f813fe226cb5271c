//===- SwizzlePlan.cpp - TMA boxes and swizzle per operand ----------------===//
//
// Boxes: Q and O cover one softmax tile's rows, K the keys this CTA holds
// (half of BN under pairCta) and V the BN keys of a tile, each one swizzle
// span of depth wide (BK0 for Q/K, the same span of depth columns for V and
// O); a tile is several boxes along depth. Paged K/V boxes stop at a page
// boundary, since consecutive pages are not adjacent in memory. Each box
// gets the swizzle whose span equals its row (selectSwizzleBytes).
//
//===----------------------------------------------------------------------===//

#include "fa4/Planning/SwizzlePlan.h"

#include <algorithm>

using namespace fa4;

/// TMA SWIZZLE_128B / 64B / 32B.
static constexpr int kWidestSwizzleBytes8Bit = 64;
static constexpr int kNarrowestSwizzleBytes = 32;

llvm::FailureOr<int> fa4::selectSwizzleBytes(int boxRows, int rowBytes,
                                             int elementBytes) {
  // No span holds the row (cuTensorMapEncodeTiled: boxDim[0] x element size
  // <= the swizzle span); the box must be cut along depth.
  if (rowBytes > maxSwizzleBytes(elementBytes))
    return llvm::failure();
  // Boxes shorter than an atom cannot fill one.
  if (boxRows < kSwizzleAtomRows)
    return 0;
  for (int swizzle = maxSwizzleBytes(elementBytes);
       swizzle >= kNarrowestSwizzleBytes; swizzle /= 2)
    if (rowBytes == swizzle)
      return swizzle;
  return 0;
}

static int swizzleSpanElements(int elementBytes) {
  return maxSwizzleBytes(elementBytes) / elementBytes;
}

/// A box of one swizzle span of depth (less when the depth is narrower); the
/// swizzle is chosen once the box is validated.
static OperandTile makeTile(int rows, int depth, int elementBytes) {
  OperandTile tile;
  tile.boxRows = rows;
  tile.boxColumns = std::min(depth, swizzleSpanElements(elementBytes));
  tile.elementBytes = elementBytes;
  return tile;
}

llvm::FailureOr<SwizzlePlan> fa4::selectSwizzle(const AttnProblem &problem,
                                                const AttnConfig &config,
                                                const TargetInfo &target,
                                                llvm::raw_ostream &whyNot) {
  int inBytes = elementBytes(config.elementType);
  int outBytes = elementBytes(config.outputElementType);
  auto keyRows = [&](int rows) {
    return config.pageSize > 0 ? std::min(rows, config.pageSize) : rows;
  };
  SwizzlePlan plan;
  plan.q = makeTile(config.rowsPerQTile(), config.paddedQkDepth, inBytes);
  plan.k =
      makeTile(keyRows(config.kRowsPerCta()), config.paddedQkDepth, inBytes);
  plan.v = makeTile(keyRows(config.bn), config.vColsPerCta(), inBytes);
  plan.o = makeTile(config.rowsPerQTile(), config.paddedOvDepth, outBytes);
  for (auto [name, tile] : {std::pair<const char *, OperandTile &>{"Q", plan.q},
                            {"K", plan.k},
                            {"V", plan.v},
                            {"O", plan.o}}) {
    if (tile.boxRows < 1 || tile.boxRows > target.maxTmaBoxRows) {
      whyNot << "expected the " << name << " TMA box to have 1 to "
             << target.maxTmaBoxRows << " rows, but got " << tile.boxRows;
      return llvm::failure();
    }
    if (tile.rowBytes() % target.tmaRowGranuleBytes != 0) {
      whyNot << "expected the " << name << " TMA box row to be a multiple of "
             << target.tmaRowGranuleBytes << " bytes, but got "
             << tile.rowBytes();
      return llvm::failure();
    }
    llvm::FailureOr<int> swizzle =
        selectSwizzleBytes(tile.boxRows, tile.rowBytes(), tile.elementBytes);
    if (llvm::failed(swizzle)) {
      whyNot << "expected the " << name << " TMA box row to fit the widest "
             << "swizzle span, " << maxSwizzleBytes(tile.elementBytes)
             << " bytes (cuTensorMapEncodeTiled: boxDim[0] x element size <= "
                "the span), but got "
             << tile.rowBytes();
      return llvm::failure();
    }
    tile.swizzleBytes = *swizzle;
  }
  return plan;
}

static void explainTile(llvm::StringRef name, const OperandTile &tile,
                        llvm::raw_ostream &os) {
  os << "  " << name << ": box " << tile.boxRows << " x " << tile.boxColumns
     << " (" << tile.rowBytes() << "-byte rows), ";
  if (tile.swizzleBytes == 0) {
    os << "no swizzle: "
       << (tile.boxRows < kSwizzleAtomRows
               ? "fewer than 8 rows cannot fill a swizzle atom"
               : "the row is not one swizzle span (32, 64 or 128 bytes)")
       << "\n";
    return;
  }
  os << tile.swizzleBytes << "B swizzle: the span equals the row";
  if (tile.elementBytes == 1 && tile.swizzleBytes == kWidestSwizzleBytes8Bit)
    os << " (8-bit boxes span 64 bytes, as FA4Config forces)";
  os << "\n";
}

void fa4::explain(const SwizzlePlan &plan, const AttnConfig &config,
                  llvm::raw_ostream &os) {
  os << "swizzle: P stays in "
     << (config.chip == Chip::SM100a ? "TMEM" : "registers")
     << ", never in shared memory\n";
  explainTile("Q", plan.q, os);
  explainTile("K", plan.k, os);
  explainTile("V", plan.v, os);
  explainTile("O", plan.o, os);
}
