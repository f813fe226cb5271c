//===- Descriptors.h - wgmma / tcgen05 descriptor encodings -----*- C++ -*-===//
//
// The hardware encodings the NVIDIA lowerings put in registers, one encoder
// each, with the PTX ISA table it implements named beside it (PTX ISA 9.x,
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate" for sm_90a and
// "TensorCore 5th Generation Family Instructions" for sm_100a). Section
// numbers move between ISA releases, so the tables are cited by title.
//
// Every encoder comes twice: `encodeX` for operands the caller has already
// checked (it asserts), and `tryEncodeX`, which never asserts and says on
// `whyNot` which rule a value broke. Plain functions, no MLIR, so unit tests
// check each field against the tables directly.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_TARGET_NVIDIA_DESCRIPTORS_H
#define FA4_TARGET_NVIDIA_DESCRIPTORS_H

#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace fa4 {

/// Shared-memory swizzle of an MMA operand: the span in bytes whose 16-byte
/// chunks are XOR-permuted across 8 rows (TMA CU_TENSOR_MAP_SWIZZLE_*).
enum class SmemSwizzle { None, B32, B64, B128 };

/// 0 -> None, 32 -> B32, 64 -> B64, 128 -> B128; anything else has no
/// swizzle mode.
std::optional<SmemSwizzle> smemSwizzleFromBytes(int64_t swizzleBytes);
/// The inverse: 0, 32, 64 or 128.
int smemSwizzleBytes(SmemSwizzle swizzle);

//===----------------------------------------------------------------------===//
// sm_90a: wgmma shared-memory matrix descriptor
//===----------------------------------------------------------------------===//

/// The 64-bit wgmma.mma_async operand descriptor, PTX ISA "Matrix Descriptor
/// Format" (Asynchronous Warpgroup Level Matrix Shared Memory Layout):
///   bits  0-13  matrix-descriptor-encode(start address)
///   bits 16-29  matrix-descriptor-encode(leading dimension byte offset)
///   bits 32-45  matrix-descriptor-encode(stride dimension byte offset)
///   bits 49-51  matrix base offset (swizzled modes only)
///   bits 62-63  swizzle: 0 none, 1 128B, 2 64B, 3 32B
/// where matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4. Other bits are 0.
/// Asserts the operands pass tryEncodeWgmmaDescriptor.
uint64_t encodeWgmmaDescriptor(uint32_t startAddress, uint32_t leadingBytes,
                               uint32_t strideBytes, SmemSwizzle swizzle,
                               unsigned baseOffset = 0);

/// Fails, explaining why on `whyNot`, when an address or offset is not a
/// multiple of 16 bytes or not below 2^18 (matrix-descriptor-encode keeps
/// bits 4-17 only), or the base offset is not in [0, 7] or is non-zero with
/// no swizzle.
llvm::FailureOr<uint64_t>
tryEncodeWgmmaDescriptor(uint32_t startAddress, uint32_t leadingBytes,
                         uint32_t strideBytes, SmemSwizzle swizzle,
                         unsigned baseOffset, llvm::raw_ostream &whyNot);

//===----------------------------------------------------------------------===//
// sm_100a: tcgen05 shared-memory descriptor
//===----------------------------------------------------------------------===//

/// The 64-bit tcgen05.mma operand descriptor, PTX ISA "Shared Memory
/// Descriptor", Table "Shared memory descriptor layout":
///   bits  0-13  matrix-descriptor-encode(start address)
///   bits 16-29  matrix-descriptor-encode(leading dimension byte offset)
///   bits 32-45  matrix-descriptor-encode(stride dimension byte offset)
///   bits 46-48  fixed 0b001
///   bits 49-51  matrix base offset
///   bit  52     leading dimension stride mode: 0 relative byte offset
///               (always: the absolute mode is for 48-byte K and sm_103a)
///   bits 53-60  fixed 0
///   bits 61-63  swizzle: 0 none, 1 128B with 32B atomic, 2 128B, 4 64B,
///               6 32B (3, 5, 7 invalid)
/// The 128B-with-32B-atomic mode has no SmemSwizzle: TMA never writes it for
/// 16-bit operands, so fa4 never reads it. Asserts the operands pass
/// tryEncodeTcgen05SmemDescriptor.
uint64_t encodeTcgen05SmemDescriptor(uint32_t startAddress,
                                     uint32_t leadingBytes,
                                     uint32_t strideBytes, SmemSwizzle swizzle,
                                     unsigned baseOffset = 0);

/// The same rules as tryEncodeWgmmaDescriptor ("The following must be
/// 16-byte aligned: matrix start address, leading dimension byte offset,
/// stride dimension byte offset").
llvm::FailureOr<uint64_t>
tryEncodeTcgen05SmemDescriptor(uint32_t startAddress, uint32_t leadingBytes,
                               uint32_t strideBytes, SmemSwizzle swizzle,
                               unsigned baseOffset, llvm::raw_ostream &whyNot);

//===----------------------------------------------------------------------===//
// sm_100a: tcgen05.mma instruction descriptor, .kind::f16
//===----------------------------------------------------------------------===//

/// Values of the atype/btype fields for .kind::f16.
enum class MmaF16InputType : unsigned { F16 = 0, BF16 = 1 };
/// Values of the dtype field for .kind::f16.
enum class MmaF16AccumulatorType : unsigned { F16 = 0, F32 = 1 };

/// One dense, non-.ws tcgen05.mma.kind::f16: D (m x n) += A (m x k) B (k x n).
struct Tcgen05F16Mma {
  MmaF16AccumulatorType accumulatorType = MmaF16AccumulatorType::F32;
  MmaF16InputType aType = MmaF16InputType::BF16;
  MmaF16InputType bType = MmaF16InputType::BF16;
  /// M of the whole MMA: with cta_group::2 it spans the CTA pair (256 is 128
  /// rows in each CTA).
  unsigned m = 128;
  unsigned n = 128;
  /// 1 or 2 (cta_group::1 / cta_group::2); decides the legal M and N.
  unsigned ctaGroup = 1;
  /// Transpose = MN-major in shared memory; K-major is "no transpose" (Q and
  /// K of S = Q K^T are K-major, V of O = P V is MN-major).
  bool transposeA = false;
  bool transposeB = false;
  bool negateA = false;
  bool negateB = false;
};

/// The 32-bit instruction descriptor, PTX ISA "Instruction Descriptor",
/// Table "Instruction descriptor format for .kind::tf32, .kind::f16,
/// .kind::f8f6f4 and .kind::i8", column .kind::f16:
///   bits  0-1   sparsity selector (0: dense)
///   bit   2     sparsity: dense = 0
///   bit   3     saturate: 0 (integer kinds only)
///   bits  4-5   dtype: F16 = 0, F32 = 1
///   bit   6     reserved
///   bits  7-9   atype: F16 = 0, BF16 = 1
///   bits 10-12  btype: F16 = 0, BF16 = 1
///   bit  13     negate A          bit 14  negate B
///   bit  15     transpose A       bit 16  transpose B
///   bits 17-22  N >> 3
///   bit  23     reserved
///   bits 24-28  M >> 4
///   bit  29     reserved
///   bits 30-31  maximum shift for .ws B reuse: 0 (not .ws)
/// Asserts `mma` passes tryEncodeTcgen05F16InstrDescriptor.
uint32_t encodeTcgen05F16InstrDescriptor(const Tcgen05F16Mma &mma);

/// Fails, explaining why on `whyNot`, for shapes and types outside PTX ISA
/// Table "Various combinations of .kind and shapes" (.kind::f16, dense, no
/// .ws): cta_group::1 takes M = 64 or 128 with N = 8..256 in steps of 8;
/// cta_group::2 takes M = 128 or 256 with N = 16..256 in steps of 16; an F16
/// accumulator takes only F16 inputs; A and B have one type.
llvm::FailureOr<uint32_t>
tryEncodeTcgen05F16InstrDescriptor(const Tcgen05F16Mma &mma,
                                   llvm::raw_ostream &whyNot);

//===----------------------------------------------------------------------===//
// sm_100a: tcgen05.mma instruction descriptor, .kind::f8f6f4 (8-bit)
//===----------------------------------------------------------------------===//

/// Values of the atype/btype fields for .kind::f8f6f4's 8-bit types
/// (CUTLASS's MXF8F6F4Format).
enum class MmaF8InputType : unsigned { E4M3 = 0, E5M2 = 1 };

/// One dense, non-.ws, cta_group::1 tcgen05.mma.kind::f8f6f4 of 8-bit
/// operands with an f32 accumulator: K = 32 per instruction.
struct Tcgen05F8Mma {
  MmaF8InputType aType = MmaF8InputType::E4M3;
  MmaF8InputType bType = MmaF8InputType::E4M3;
  unsigned m = 128;
  unsigned n = 128;
  bool transposeA = false;
  bool transposeB = false;
  bool negateA = false;
  bool negateB = false;
};

/// The same descriptor layout as .kind::f16's (dtype F32 = 1), atype and
/// btype from MmaF8InputType. A and B may differ (e4m3 x e5m2).
/// Asserts `mma` passes tryEncodeTcgen05F8InstrDescriptor.
uint32_t encodeTcgen05F8InstrDescriptor(const Tcgen05F8Mma &mma);

/// Fails, explaining why on `whyNot`, outside cta_group::1's shapes as
/// CUTLASS's SM100_MMA_F8F6F4_SS takes them: M = 64 or 128; N a multiple
/// of 8 in [8, 256] with B K-major, of 16 in [16, 256] with B MN-major.
llvm::FailureOr<uint32_t>
tryEncodeTcgen05F8InstrDescriptor(const Tcgen05F8Mma &mma,
                                  llvm::raw_ostream &whyNot);

} // namespace fa4

#endif // FA4_TARGET_NVIDIA_DESCRIPTORS_H
