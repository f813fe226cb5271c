//===- AbiRecord.h - The ABI record a kernel binary carries -----*- C++ -*-===//
//
// Every binary fa4 compiles holds its manifest, less the `binary` entries, as
// JSON text in the global kFA4AbiRecordSymbol (fa4-embed-abi-records); libfa4rt
// reads it back from the loaded module and refuses a manifest that disagrees
// (docs/KernelABI.md, "ABI record"). Shared by the compiler and libfa4rt:
// plain C++17, no LLVM, no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_ABIRECORD_H
#define FA4_ABIRECORD_H

#include <cstdint>

namespace fa4 {
/// The global's name in the kernel module (`.visible .global .b8 ...[]`).
constexpr const char *kAbiRecordSymbol = "fa4_abi_record";
/// The longest record the runtime reads: a manifest with a decode variant
/// is a few KiB; anything near this is not one of ours.
constexpr int64_t kMaxAbiRecordBytes = int64_t(1) << 20;
} // namespace fa4

#endif // FA4_ABIRECORD_H
