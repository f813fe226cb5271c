//===- FA4Ops.cpp - Verifiers of the fa4 kernel dialect -------------------===//

#include "fa4/Dialect/FA4/IR/FA4.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace fa4::kernel;

#define GET_OP_CLASSES
#include "fa4/Dialect/FA4/IR/FA4Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

/// A CTA has at most 1024 threads: 8 warpgroups.
constexpr int64_t kMaxWarpgroups = 8;

int64_t WarpSpecializeOp::getNumThreads() {
  int64_t warpgroups = 0;
  for (int64_t count : getWarpgroups())
    warpgroups += std::clamp<int64_t>(count, 0, kMaxWarpgroups + 1);
  return warpgroups * kWarpgroupThreads;
}

int64_t WarpSpecializeOp::getLaunchRegisters() {
  int64_t threads = getNumThreads();
  return threads ? std::min<int64_t>(255, 65536 / threads) / 8 * 8 : 0;
}

LogicalResult WarpSpecializeOp::verify() {
  ArrayRef<int64_t> warpgroups = getWarpgroups(), registers = getRegisters();
  if (warpgroups.empty() || warpgroups.size() != registers.size() ||
      warpgroups.size() != getRoles().size())
    return emitOpError() << "needs one warpgroup count and one register "
                            "budget per role region, got "
                         << warpgroups.size() << " counts, " << registers.size()
                         << " budgets and " << getRoles().size() << " regions";
  for (auto [index, count] : llvm::enumerate(warpgroups))
    if (count <= 0)
      return emitOpError() << "role " << index
                           << " has no warpgroups: " << count;
  if (getNumThreads() > kMaxWarpgroups * kWarpgroupThreads)
    return emitOpError() << "roles need more than " << kMaxWarpgroups
                         << " warpgroups; a CTA has at most "
                         << kMaxWarpgroups * kWarpgroupThreads << " threads";
  int64_t pool = 0;
  for (auto [index, role] : llvm::enumerate(getRoles())) {
    if (registers[index] < 24 || registers[index] > 256 || registers[index] % 8)
      return emitOpError() << "role " << index << " asks for "
                           << registers[index]
                           << " registers; setmaxnreg takes a multiple of 8 "
                              "in [24, 256]";
    Block &body = role.front();
    if (body.getNumArguments() != 2 ||
        !llvm::all_of(body.getArgumentTypes(),
                      [](Type type) { return type.isInteger(32); }))
      return emitOpError() << "role " << index
                           << " must take (warpgroup in role: i32, thread in "
                              "warpgroup: i32)";
    pool += warpgroups[index] * kWarpgroupThreads * registers[index];
  }
  int64_t available = getLaunchRegisters() * getNumThreads();
  if (pool > available)
    return emitOpError() << "register budgets need " << pool
                         << " registers but a " << getNumThreads()
                         << "-thread CTA launches with " << available << " ("
                         << getLaunchRegisters()
                         << " per thread); setmaxnreg.inc would wait forever";
  return success();
}

//===----------------------------------------------------------------------===//
// TmaLoadOp
//===----------------------------------------------------------------------===//

/// A TMA box's coordinates, one per dim of its tensor map (rank 1 to 5).
static LogicalResult verifyTmaCoordinates(Operation *op,
                                          ValueRange coordinates) {
  size_t rank = coordinates.size();
  if (rank < 1 || rank > 5)
    return op->emitOpError()
           << "takes 1 to 5 coordinates (a tensor map's rank), got " << rank;
  return success();
}

LogicalResult MBarrierArriveOp::verify() {
  if (getCtaScope() && !getCta())
    return emitOpError() << "takes cta_scope only on a peer's barrier "
                            "(in_cta); on its own a release is at CTA scope";
  return success();
}

LogicalResult TmaLoadOp::verify() {
  if (failed(verifyTmaCoordinates(*this, getCoordinates())))
    return failure();
  if (std::optional<int64_t> mask = getMulticast()) {
    // A cluster has at most 16 CTAs, one bit each.
    if (*mask < 1 || *mask > 0xFFFF)
      return emitOpError() << "multicasts to a mask of cluster ranks in [1, "
                              "0xFFFF], got "
                           << *mask;
    if (getBarrierCta())
      return emitOpError() << "multicasts or counts its bytes on a peer's "
                              "barrier (in_cta), not both";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SplatOp
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  Type element = isa<FragType>(getType())
                     ? cast<FragType>(getType()).getElementType()
                     : cast<RowsType>(getType()).getElementType();
  if (!element.isF32())
    return emitOpError() << "splats an f32 into an f32 frag or rows, got "
                         << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

int64_t MmaOp::getK() {
  if (auto frag = dyn_cast<FragType>(getA().getType()))
    return frag.getColumns();
  return cast<SmemTileType>(getA().getType()).getColumns();
}

LogicalResult MmaOp::verify() {
  auto acc = cast<FragType>(getAcc().getType());
  if (!acc.getElementType().isF32())
    return emitOpError() << "accumulates in f32, got " << acc;
  if (getResult().getType() != acc)
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the accumulator's " << acc;
  int64_t m = acc.getRows(), n = acc.getColumns();
  Type inputType;
  if (auto frag = dyn_cast<FragType>(getA().getType())) {
    if (frag.getElementType().isF32())
      return emitOpError() << "takes A from registers as a 16-bit frag; "
                              "truncate it first (fa4.truncf), got "
                           << frag;
    if (frag.getRows() != m)
      return emitOpError() << "A has " << frag.getRows()
                           << " rows, the accumulator " << m;
    inputType = frag.getElementType();
  } else {
    auto tile = cast<SmemTileType>(getA().getType());
    if (tile.getMajor() != Major::K)
      return emitOpError() << "takes a shared-memory A only K-major, got "
                           << tile;
    if (tile.getRows() != m)
      return emitOpError() << "A has " << tile.getRows()
                           << " rows, the accumulator " << m;
    inputType = tile.getElementType();
  }
  auto b = cast<SmemTileType>(getB().getType());
  int64_t k = getK();
  int64_t bN = b.getMajor() == Major::K ? b.getRows() : b.getColumns();
  int64_t bK = b.getMajor() == Major::K ? b.getColumns() : b.getRows();
  if (bN != n || bK != k)
    return emitOpError() << "B " << b << " is not K = " << k << " by N = " << n
                         << " (" << stringifyMajor(b.getMajor()) << ")";
  if (b.getElementType() != inputType)
    return emitOpError() << "A holds " << inputType << " but B holds "
                         << b.getElementType();
  // sm_90a's FP8 wgmma (k32, both operands K-major) is not lowered yet.
  if (inputType.getIntOrFloatBitWidth() != 16)
    return emitOpError() << "takes bf16 or f16 operands (wgmma k16), got "
                         << inputType;
  if (k % 16)
    return emitOpError() << "K = " << k << " is not a multiple of 16";
  if (std::optional<uint64_t> extent = getKExtent();
      extent && (*extent % 16 || int64_t(*extent) > k))
    return emitOpError() << "k_extent " << *extent
                         << " is not a multiple of 16 up to K = " << k;
  return success();
}

//===----------------------------------------------------------------------===//
// Mask, softmax, row scaling, truncation, epilogue
//===----------------------------------------------------------------------===//

/// `rows` must describe the rows of `tile`, in f32.
/// The ops that store O (and LSE) rows: O's batch, row and head strides,
/// and LSE's batch and head strides exactly when LSE is stored.
template <typename OpT> static LogicalResult verifyOutputStrides(OpT op) {
  if (op.getOutStrides().size() != 3)
    return op.emitOpError() << "takes O's batch, row and head strides (3), "
                               "got "
                            << op.getOutStrides().size();
  if (op.getLsePtr() ? op.getLseStrides().size() != 2
                     : !op.getLseStrides().empty())
    return op.emitOpError() << "takes LSE's batch and head strides (2) "
                               "exactly when it stores LSE";
  return success();
}

static LogicalResult verifyRowsOf(Operation *op, FragType tile, Type rows,
                                  StringRef what) {
  auto rowsType = cast<RowsType>(rows);
  if (rowsType.getRows() != tile.getRows() ||
      !rowsType.getElementType().isF32())
    return op->emitOpError()
           << what << " " << rowsType << " must be one f32 per row of " << tile;
  return success();
}

LogicalResult MaskOp::verify() {
  auto scores = cast<FragType>(getScores().getType());
  if (!scores.getElementType().isF32())
    return emitOpError() << "masks f32 scores, got " << scores;
  return success();
}

LogicalResult SoftmaxOp::verify() {
  auto scores = cast<FragType>(getScores().getType());
  if (!scores.getElementType().isF32())
    return emitOpError() << "takes f32 scores, got " << scores;
  // Pairs are two columns of one thread's row: sm_100a's layout, one
  // 128-row tile with a row per thread.
  if (getPackedPairs() && scores.getRows() != 128)
    return emitOpError() << "packs a thread's row in pairs, which needs a "
                            "128-row frag (a row per thread), got "
                         << scores;
  return verifyRowsOf(*this, scores, getMax().getType(), "max");
}

LogicalResult SoftcapOp::verify() {
  auto scores = cast<FragType>(getScores().getType());
  if (!scores.getElementType().isF32())
    return emitOpError() << "caps an f32 frag of scores, got " << scores;
  return success();
}

LogicalResult ScaleRowsOp::verify() {
  auto tile = cast<FragType>(getTile().getType());
  if (!tile.getElementType().isF32())
    return emitOpError() << "scales an f32 frag, got " << tile;
  return verifyRowsOf(*this, tile, getFactors().getType(), "factors");
}

LogicalResult TruncFOp::verify() {
  auto source = cast<FragType>(getTile().getType());
  auto result = cast<FragType>(getResult().getType());
  if (!source.getElementType().isF32() || result.getElementType().isF32() ||
      source.getRows() != result.getRows() ||
      source.getColumns() != result.getColumns())
    return emitOpError() << "rounds an f32 frag to an MMA operand frag (16- "
                            "or 8-bit) of the same shape, got "
                         << source << " to " << result;
  return success();
}

/// The accumulator shape of an O operand that is a frag or a TMEM tile.
static FragType accumulatorShape(Type type) {
  if (auto tile = dyn_cast<TmemTileType>(type))
    return FragType::get(type.getContext(), tile.getRows(), tile.getColumns(),
                         tile.getElementType());
  return cast<FragType>(type);
}

LogicalResult EpilogueOp::verify() {
  FragType out = accumulatorShape(getOut().getType());
  if (!out.getElementType().isF32())
    return emitOpError() << "stores an f32 accumulator, got "
                         << getOut().getType();
  if (failed(verifyRowsOf(*this, out, getMax().getType(), "max")) ||
      failed(verifyRowsOf(*this, out, getSum().getType(), "sum")))
    return failure();
  if (failed(verifyOutputStrides(*this)))
    return failure();
  if (getDepth() <= 0 || static_cast<int64_t>(getDepth()) > out.getColumns())
    return emitOpError() << "stores " << getDepth() << " of the tile's "
                         << out.getColumns() << " columns";
  if (getDepth() % 2)
    return emitOpError() << "stores column pairs: depth " << getDepth()
                         << " must be even";
  Type element = getElementType();
  if (!element.isBF16() && !element.isF16() && !element.isF32())
    return emitOpError() << "stores bf16, f16 or f32 (a split-K workspace "
                            "partial), got "
                         << element;
  return success();
}

LogicalResult EpilogueStageOp::verify() {
  FragType shape = accumulatorShape(getOut().getType());
  if (!shape.getElementType().isF32())
    return emitOpError() << "stages an f32 accumulator, got "
                         << getOut().getType();
  if (failed(verifyRowsOf(*this, shape, getSum().getType(), "sum")))
    return failure();
  Type element = getElementType();
  if (!element.isBF16() && !element.isF16())
    return emitOpError() << "stages bf16 or f16 (64-column boxes of 128-byte "
                            "rows), got "
                         << element;
  if (shape.getColumns() % 64)
    return emitOpError() << "stages whole 64-column boxes, got "
                         << shape.getColumns() << " columns";
  if (getOffset() % 1024)
    return emitOpError() << "stages at a 1024-byte aligned offset (the "
                            "128B swizzle's atom), got "
                         << getOffset();
  if (getBase() && !isa<FragType>(getOut().getType()))
    return emitOpError() << "takes a run-time base only with a register frag "
                            "(sm_90a); a TMEM tile stages at its constant "
                            "offset";
  if (std::optional<uint64_t> box = getBox()) {
    if (!isa<FragType>(getOut().getType()))
      return emitOpError() << "stages one box only from a register frag";
    if (int64_t(*box) >= shape.getColumns() / 64)
      return emitOpError() << "box " << *box << " is past the tile's "
                           << shape.getColumns() / 64 << " 64-column boxes";
  }
  return success();
}

LogicalResult LseStoreOp::verify() {
  if (getLseStrides().size() != 2)
    return emitOpError() << "takes LSE's batch and head strides (2), got "
                         << getLseStrides().size();
  if (!cast<RowsType>(getMax().getType()).getElementType().isF32())
    return emitOpError() << "takes f32 rows, got " << getMax().getType();
  return success();
}

LogicalResult TmaStoreOp::verify() {
  return verifyTmaCoordinates(*this, getCoordinates());
}

//===----------------------------------------------------------------------===//
// Tensor maps built on the device
//===----------------------------------------------------------------------===//

/// A tensor map is 128 bytes; in shared memory tensormap.replace and
/// tensormap.cp_fenceproxy want it 128-byte aligned.
constexpr int64_t kTensorMapBytes = 128;

static LogicalResult verifyStagingOffset(Operation *op, int64_t offset) {
  if (offset < 0 || offset % kTensorMapBytes)
    return op->emitOpError() << "stages a tensor map at byte " << offset
                             << " of shared memory; it needs a non-negative "
                                "multiple of 128";
  return success();
}

LogicalResult TensorMapStageOp::verify() {
  if (failed(verifyStagingOffset(*this, getOffset())))
    return failure();
  ArrayRef<int64_t> box = getBox();
  size_t rank = box.size();
  if (rank < 1 || rank > 5 || getDims().size() != rank ||
      getStrides().size() + 1 != rank)
    return emitOpError() << "needs a box of rank 1 to 5 with as many dims and "
                            "one stride fewer, got a box of rank "
                         << rank << ", " << getDims().size() << " dims and "
                         << getStrides().size() << " strides";
  for (int64_t extent : box)
    if (extent < 1 || extent > 256)
      return emitOpError() << "has a box extent of " << extent
                           << "; TMA boxes are 1 to 256 per dim";
  int64_t elementBytes = getElementBytes(), swizzle = getSwizzle();
  if (!llvm::is_contained({1, 2, 4, 8}, elementBytes))
    return emitOpError() << "has " << elementBytes
                         << "-byte elements; expected 1, 2, 4 or 8";
  if (!llvm::is_contained({0, 32, 64, 128}, swizzle))
    return emitOpError() << "has a " << swizzle
                         << "-byte swizzle; expected 0, 32, 64 or 128";
  int64_t innerBytes = box.front() * elementBytes;
  if (innerBytes % 16 || (swizzle && innerBytes > swizzle))
    return emitOpError() << "has an inner box of " << innerBytes
                         << " bytes; TMA needs a multiple of 16 within the "
                            "swizzle span";
  return success();
}

LogicalResult TensorMapPublishOp::verify() {
  return verifyStagingOffset(*this, getOffset());
}

LogicalResult CopyAsyncBoxOp::verify() {
  if (getThreads() % 8)
    return emitOpError() << "copies with " << getThreads()
                         << " threads; whole 8-chunk lines per round need a "
                            "multiple of 8";
  if (getLines() % getGroup())
    return emitOpError() << "has " << getLines() << " lines, not whole rows of "
                         << getGroup();
  return success();
}

//===----------------------------------------------------------------------===//
// Split-K
//===----------------------------------------------------------------------===//

LogicalResult SplitKStageOp::verify() {
  FragType out = accumulatorShape(getOut().getType());
  if (!out.getElementType().isF32())
    return emitOpError() << "stages an f32 accumulator, got "
                         << getOut().getType();
  if (failed(verifyRowsOf(*this, out, getMax().getType(), "max")) ||
      failed(verifyRowsOf(*this, out, getSum().getType(), "sum")))
    return failure();
  return success();
}

LogicalResult SplitKCombineOp::verify() {
  if (failed(verifyOutputStrides(*this)))
    return failure();
  int64_t depth = getDepth(), columns = getColumns();
  if (depth <= 0 || depth > columns)
    return emitOpError() << "stores " << depth << " of the staged " << columns
                         << " columns";
  if (depth % 2)
    return emitOpError() << "stores column pairs: depth " << depth
                         << " must be even";
  if (getBand() % 2)
    return emitOpError() << "stores column pairs: the band (" << getBand()
                         << ") must be even";
  if (static_cast<int64_t>(getBand() * getPartitions()) < depth)
    return emitOpError() << getPartitions() << " bands of " << getBand()
                         << " columns do not cover the depth " << depth;
  if (getPartitions() > 16)
    return emitOpError() << "a cluster has at most 16 CTAs, got "
                         << getPartitions() << " partitions";
  Type element = getElementType();
  if (!element.isBF16() && !element.isF16())
    return emitOpError() << "stores bf16 or f16, got " << element;
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

LogicalResult TmemAllocOp::verify() {
  int64_t columns = getColumns();
  if (columns < 32 || columns > 512 || !llvm::isPowerOf2_64(columns))
    return emitOpError() << "allocates a power of two of 32 to 512 columns, "
                            "got "
                         << columns;
  return success();
}

LogicalResult TmemMmaOp::verify() {
  auto d = cast<TmemTileType>(getD().getType());
  if (!d.getElementType().isF32())
    return emitOpError() << "accumulates into an f32 TMEM tile, got " << d;
  int64_t n = d.getColumns(), k;
  Type inputType;
  if (auto a = dyn_cast<TmemTileType>(getA().getType())) {
    if (a.getElementType().isF32())
      return emitOpError() << "takes A from TMEM as 16-bit or 8-bit, got " << a;
    k = a.getColumns();
    inputType = a.getElementType();
  } else {
    auto tile = cast<SmemTileType>(getA().getType());
    if (tile.getMajor() != Major::K || tile.getRows() != d.getRows())
      return emitOpError() << "takes a shared-memory A K-major with "
                           << d.getRows() << " rows, got " << tile;
    k = tile.getColumns();
    inputType = tile.getElementType();
  }
  auto b = cast<SmemTileType>(getB().getType());
  int64_t bN = b.getMajor() == Major::K ? b.getRows() : b.getColumns();
  int64_t bK = b.getMajor() == Major::K ? b.getColumns() : b.getRows();
  // Under `pair` each CTA holds half of B's N.
  int64_t ctaN = getPair() ? n / 2 : n;
  if (bN != ctaN || bK != k)
    return emitOpError() << "B " << b << " is not K = " << k
                         << " by N = " << ctaN
                         << (getPair() ? " (half of the pair's N)" : "") << " ("
                         << stringifyMajor(b.getMajor()) << ")";
  // kind::f16 takes one 16-bit type; kind::f8f6f4 any two 8-bit ones (e4m3
  // x e5m2 included).
  unsigned bits = inputType.getIntOrFloatBitWidth();
  if (bits != b.getElementType().getIntOrFloatBitWidth() ||
      (bits == 16 && b.getElementType() != inputType))
    return emitOpError() << "A holds " << inputType << " but B holds "
                         << b.getElementType();
  if (bits == 8 && getPair())
    return emitOpError() << "issues 8-bit operands (kind::f8f6f4) only "
                            "with cta_group::1";
  // PTX ISA, "Various combinations of .kind and shapes", kind::f16 and
  // kind::f8f6f4 dense: N in steps of 16 up to 256 for M = 128
  // (cta_group::1) and M = 256 (cta_group::2); an MMA's K is 32 bytes.
  int64_t kStep = 256 / bits;
  if (k % kStep || n % 16 || n > 256)
    return emitOpError() << "needs K a multiple of " << kStep
                         << " and N a multiple of 16 up to 256 (tcgen05 "
                         << (bits == 8 ? "kind::f8f6f4" : "kind::f16")
                         << ", M = " << (getPair() ? 256 : 128)
                         << "), got K = " << k << ", N = " << n;
  if (getPair() && d.getRows() != 128)
    return emitOpError() << "spans M = 256 across the CTA pair, 128 rows in "
                            "each CTA's tensor memory, got "
                         << d;
  return success();
}

static LogicalResult verifyTmemMove(Operation *op, FragType frag,
                                    TmemTileType tile) {
  if (frag.getRows() != tile.getRows() ||
      frag.getColumns() != tile.getColumns() ||
      frag.getElementType() != tile.getElementType())
    return op->emitOpError() << "moves " << frag << " to or from " << tile
                             << "; shapes and types must match";
  return success();
}

LogicalResult TmemLoadOp::verify() {
  return verifyTmemMove(*this, cast<FragType>(getResult().getType()),
                        cast<TmemTileType>(getTile().getType()));
}

LogicalResult TmemStoreOp::verify() {
  return verifyTmemMove(*this, cast<FragType>(getValue().getType()),
                        cast<TmemTileType>(getTile().getType()));
}

LogicalResult TmemScaleRowsOp::verify() {
  auto tile = cast<TmemTileType>(getTile().getType());
  auto rows = cast<RowsType>(getFactors().getType());
  if (!tile.getElementType().isF32() || rows.getRows() != tile.getRows())
    return emitOpError() << "scales the rows of an f32 TMEM tile by one f32 "
                            "per row, got "
                         << tile << " by " << rows;
  return success();
}

LogicalResult SplitKWorkspaceCombineOp::verify() {
  if (failed(verifyOutputStrides(*this)))
    return failure();
  Type element = getElementType();
  if (!element.isBF16() && !element.isF16())
    return emitOpError() << "stores bf16 or f16, got " << element;
  return success();
}
