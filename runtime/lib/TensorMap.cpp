//===- TensorMap.cpp - TMA descriptors for manifest tensors ---------------===//

#include "TensorMap.h"

#include "Error.h"

using namespace fa4::rt;

static CUtensorMapDataType tensorMapDataType(fa4_dtype dtype) {
  switch (dtype) {
  case FA4_DTYPE_BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case FA4_DTYPE_F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case FA4_DTYPE_F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case FA4_DTYPE_I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case FA4_DTYPE_E4M3:
    // TMA has no FP8 type: it copies the bytes, which is all a load does.
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
  return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
}

static CUtensorMapSwizzle tensorMapSwizzle(uint32_t bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

static CUtensorMapL2promotion tensorMapL2Promotion(uint32_t bytes) {
  switch (bytes) {
  case 64:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  case 128:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  case 256:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  default:
    return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  }
}

TensorMapArgs fa4::rt::computeTensorMapArgs(const TensorMapParam &param,
                                            const TensorSpec &spec,
                                            const fa4_tensor &tensor) {
  TensorMapArgs args = {};
  args.dataType = tensorMapDataType(spec.dtype);
  args.rank = static_cast<cuuint32_t>(spec.shape.size());
  args.globalAddress = tensor.data;
  uint64_t elemBytes = dtypeSize(spec.dtype);
  for (cuuint32_t i = 0; i < args.rank; ++i) {
    size_t dim = args.rank - 1 - i; // the driver's dim i, innermost first
    args.globalDim[i] = static_cast<cuuint64_t>(tensor.shape[dim]);
    args.boxDim[i] = param.box[dim];
    args.elementStrides[i] = 1;
    // cuTensorMapEncodeTiled: globalDim[i] <= 2^32, globalStrides[i] < 2^40.
    if (args.globalDim[i] > (1ull << 32))
      throw Error(FA4_ERROR_VALIDATION,
                  "tensor '" + spec.name + "': dim " + std::to_string(dim) +
                      " is larger than 2^32, the TMA limit");
    if (i == 0)
      continue;
    args.globalStrides[i - 1] =
        static_cast<cuuint64_t>(tensor.strides[dim]) * elemBytes;
    if (args.globalStrides[i - 1] >= (1ull << 40))
      throw Error(FA4_ERROR_VALIDATION,
                  "tensor '" + spec.name + "': dim " + std::to_string(dim) +
                      " stride is 2^40 bytes or more, the TMA limit");
  }
  args.interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  args.swizzle = tensorMapSwizzle(param.swizzleBytes);
  args.l2Promotion = tensorMapL2Promotion(param.l2PromotionBytes);
  args.oobFill = param.oobFill == OobFill::NanRequestZeroFma
                     ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                     : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  return args;
}

CUtensorMap fa4::rt::encodeTensorMap(const TensorMapArgs &args,
                                     const std::string &name) {
  CUtensorMap map;
  CUresult status = driver().cuTensorMapEncodeTiled(
      &map, args.dataType, args.rank, args.globalAddress, args.globalDim,
      args.globalStrides, args.boxDim, args.elementStrides, args.interleave,
      args.swizzle, args.l2Promotion, args.oobFill);
  if (status != CUDA_SUCCESS)
    checkCuda(status,
              ("cuTensorMapEncodeTiled for tensor '" + name + "'").c_str());
  return map;
}
