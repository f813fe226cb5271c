//===- BinaryAbi.h - A manifest checked against its binary ------*- C++ -*-===//
//
// A manifest describes its kernel's parameters and launch; the binary is what
// runs. Where they disagree (a tampered or stale manifest: a dropped,
// duplicated or retyped parameter, a larger block) the launch would read its
// arguments from the wrong bytes, so the runtime compares the manifest with
// what the driver reports of the loaded kernel (cuFuncGetParamInfo,
// cuFuncGetAttribute) and with the ABI record the compiler put into the
// binary (the manifest it wrote, fa4/AbiRecord.h: boxes, cluster, shared
// memory, grid, tensor shapes), and refuses a disagreement before any launch.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_BINARYABI_H
#define FA4_RUNTIME_BINARYABI_H

#include "Manifest.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fa4::rt {

/// The bytes one manifest parameter takes in the kernel's parameter space:
/// a tensor map 128 (CUtensorMap, passed by value), a pointer or the
/// workspace 8, a scalar its type's size.
size_t paramBytes(const Param &param);

/// What the driver says of a loaded kernel's parameter `index`: its offset
/// and size, or false past the last parameter.
using ParamInfoQuery =
    std::function<bool(size_t index, size_t &offset, size_t &bytes)>;

/// Throws Error(FA4_ERROR_MANIFEST) unless `kernel`'s parameters, as the
/// driver reports them, are `params`: as many, each of the manifest's size.
void checkParamsMatchBinary(const std::string &kernel,
                            const std::vector<Param> &params,
                            const ParamInfoQuery &query);

/// Throws Error(FA4_ERROR_MANIFEST) unless a block of `block` threads fits
/// the most the binary's `kernel` was compiled for (its .maxntid / .reqntid,
/// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK).
void checkBlockFitsBinary(const std::string &kernel, int64_t block,
                          int maxThreadsPerBlock);

/// Throws Error(FA4_ERROR_MANIFEST) unless `binaryRecord`, the text of the
/// binary's ABI record (fa4/AbiRecord.h; trailing NULs allowed), is JSON
/// equal to `manifest.abiRecord`; the message names the first field that
/// differs and both values.
void checkRecordMatchesBinary(const Manifest &manifest,
                              std::string_view binaryRecord);

} // namespace fa4::rt

#endif // FA4_RUNTIME_BINARYABI_H
