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

#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <string>

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

llvm::StringRef fa4::kvPathName(KvPath path) {
  switch (path) {
  case KvPath::Contiguous:
    return "contiguous";
  case KvPath::PageBoxes:
    return "page_boxes";
  case KvPath::GatherCpAsync:
    return "gather_cp_async";
  case KvPath::Gather4:
    return "gather4";
  }
  llvm_unreachable("unknown K/V path");
}

/// Contiguous K/V; pages of at least kMinPageBoxRows keys that nest with
/// the K and V tiles as boxes; smaller or odd pages gathered, by the chip's
/// gather (TMA gather4 exists only on sm_100a).
static KvPath selectKvPath(const AttnConfig &config) {
  if (config.pageSize == 0)
    return KvPath::Contiguous;
  if (config.pageSize >= kMinPageBoxRows &&
      pageNests(config.kRowsPerCta(), config.pageSize) &&
      pageNests(config.bn, config.pageSize))
    return KvPath::PageBoxes;
  return config.chip == Chip::SM100a ? KvPath::Gather4 : KvPath::GatherCpAsync;
}

llvm::FailureOr<SwizzlePlan> fa4::selectSwizzle(const AttnProblem &problem,
                                                const AttnConfig &config,
                                                const TargetInfo &target,
                                                llvm::raw_ostream &whyNot) {
  int inBytes = elementBytes(config.elementType);
  int outBytes = elementBytes(config.outputElementType);
  SwizzlePlan plan;
  plan.kvPath = selectKvPath(config);
  auto keyRows = [&](int rows) {
    return plan.kvPath == KvPath::PageBoxes ? std::min(rows, config.pageSize)
                                            : rows;
  };
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

static void explainKvPath(KvPath path, const AttnConfig &config,
                          llvm::raw_ostream &os) {
  os << "  K/V path: " << kvPathName(path);
  int page = config.pageSize;
  switch (path) {
  case KvPath::Contiguous:
    os << ": one tensor map over contiguous K and V\n";
    return;
  case KvPath::PageBoxes:
    os << ": pages of " << page << " keys (>= " << kMinPageBoxRows
       << ") hold whole boxes of " << std::min(config.bn, page)
       << " keys, each loaded from the page the block table names\n";
    return;
  case KvPath::GatherCpAsync:
  case KvPath::Gather4:
    break;
  }
  os << ": pages of " << page << " keys "
     << (page < kMinPageBoxRows ? "are too small for a TMA box each (< " +
                                      std::to_string(kMinPageBoxRows) + ")"
                                : "do not nest with the " +
                                      std::to_string(config.bn) + "-key tile")
     << "; each key row is copied from its page by "
     << (path == KvPath::Gather4
             ? "TMA tile::gather4 (four rows per instruction, sm_100a)"
             : "cp.async (16 bytes a thread; sm_90a has no TMA gather)")
     << "\n";
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
  explainKvPath(plan.kvPath, config, os);
}
