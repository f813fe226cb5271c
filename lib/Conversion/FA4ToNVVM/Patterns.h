//===- Patterns.h - The pattern sets of convert-fa4-to-nvvm -----*- C++ -*-===//
//
// One pattern set per file: what both chips share, and what each chip's frag
// layout needs. The chips are named on one axis throughout fa4 (see
// docs/Architecture.md, "Naming"): Hopper is sm_90a (wgmma, 64-row frags of
// two rows a thread), Blackwell is sm_100a (tcgen05 and tensor memory,
// 128-row frags of one row a thread).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_FA4TONVVM_PATTERNS_H
#define LIB_CONVERSION_FA4TONVVM_PATTERNS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstdint>

namespace fa4 {
/// In the Hopper accumulator layout a thread owns two rows: register `index`
/// lies in row `index % 4 / 2` of them (PTX ISA, "Matrix fragments for
/// wgmma.mma_async", m64nNk16 D).
inline int64_t rowHalf(int64_t index) { return (index % 4) / 2; }

/// The kernel, roles, mbarriers, TMA, shared-memory tiles and the frag ops
/// that keep each register in place (CommonPatterns.cpp).
void populateCommonPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

/// The split-K combines, across a cluster and through a global workspace
/// (SplitKPatterns.cpp); both chips.
void populateSplitKPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

/// 64-row frags and rows values as a thread's wgmma registers.
void populateHopperTypeConversions(mlir::TypeConverter &converter);
/// wgmma, and the two-rows-a-thread mask, softmax and epilogues
/// (HopperPatterns.cpp). `foldKeyBound`: convert-fa4-to-nvvm's option.
void populateHopperPatterns(const mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns,
                            bool foldKeyBound);

/// Row-per-thread frags (128 rows), rows values and TMEM tiles.
void populateBlackwellTypeConversions(mlir::TypeConverter &converter);
/// tcgen05 and tensor memory, and the row-per-thread softmax, mask and
/// epilogue (BlackwellPatterns.cpp).
void populateBlackwellPatterns(const mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
} // namespace fa4

#endif // LIB_CONVERSION_FA4TONVVM_PATTERNS_H
