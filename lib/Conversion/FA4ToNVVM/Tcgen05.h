//===- Tcgen05.h - sm_100a patterns of convert-fa4-to-nvvm ------*- C++ -*-===//

#ifndef LIB_CONVERSION_FA4TONVVM_TCGEN05_H
#define LIB_CONVERSION_FA4TONVVM_TCGEN05_H

#include "LoweringEmitter.h"

namespace fa4 {
/// Row-per-thread frags (128 rows), rows values and TMEM tiles.
void populateSm100TypeConversions(mlir::TypeConverter &converter);
/// tcgen05 and TMEM, and the row-per-thread softmax, mask and epilogue.
void populateSm100Patterns(mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
} // namespace fa4

#endif // LIB_CONVERSION_FA4TONVVM_TCGEN05_H
