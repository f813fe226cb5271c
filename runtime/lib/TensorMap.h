//===- TensorMap.h - TMA descriptors for manifest tensors -------*- C++ -*-===//
//
// Split in two: computeTensorMapArgs is the pure translation from a manifest
// entry and a user tensor to cuTensorMapEncodeTiled's arguments (unit-tested);
// encodeTensorMap is the driver call.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_TENSORMAP_H
#define FA4_RUNTIME_TENSORMAP_H

#include "Driver.h"
#include "Manifest.h"

namespace fa4::rt {

/// cuTensorMapEncodeTiled's arguments. The driver orders dims innermost
/// first, the reverse of the manifest's shapes and boxes.
struct TensorMapArgs {
  CUtensorMapDataType dataType;
  cuuint32_t rank;
  void *globalAddress;
  cuuint64_t globalDim[5];
  cuuint64_t globalStrides[4]; // bytes, for dims 1..rank-1
  cuuint32_t boxDim[5];
  cuuint32_t elementStrides[5];
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
};

/// Throws Error(FA4_ERROR_VALIDATION) past the driver's dim/stride limits.
/// `tensor` must already have passed validateArgs.
TensorMapArgs computeTensorMapArgs(const TensorMapParam &param,
                                   const TensorSpec &spec,
                                   const fa4_tensor &tensor);

CUtensorMap encodeTensorMap(const TensorMapArgs &args, const std::string &name);

} // namespace fa4::rt

#endif // FA4_RUNTIME_TENSORMAP_H
