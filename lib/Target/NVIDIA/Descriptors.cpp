//===- Descriptors.cpp - wgmma / tcgen05 descriptor encodings -------------===//
//
// Each encoder below implements one PTX ISA table, named beside it; the
// field positions are written once, here.
//
//===----------------------------------------------------------------------===//

#include "fa4/Target/NVIDIA/Descriptors.h"

#include "llvm/Support/ErrorHandling.h"

#include <cassert>

using namespace fa4;

std::optional<SmemSwizzle> fa4::smemSwizzleFromBytes(int64_t swizzleBytes) {
  switch (swizzleBytes) {
  case 0:
    return SmemSwizzle::None;
  case 32:
    return SmemSwizzle::B32;
  case 64:
    return SmemSwizzle::B64;
  case 128:
    return SmemSwizzle::B128;
  default:
    return std::nullopt;
  }
}

int fa4::smemSwizzleBytes(SmemSwizzle swizzle) {
  switch (swizzle) {
  case SmemSwizzle::None:
    return 0;
  case SmemSwizzle::B32:
    return 32;
  case SmemSwizzle::B64:
    return 64;
  case SmemSwizzle::B128:
    return 128;
  }
  llvm_unreachable("unknown SmemSwizzle");
}

/// `value` in bits [lo, lo + width) of a 64-bit word.
static uint64_t field(uint64_t value, unsigned lo, unsigned width) {
  assert(value < (uint64_t(1) << width) && "value wider than its field");
  return (value & ((uint64_t(1) << width) - 1)) << lo;
}

/// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, shared by the wgmma
/// "Matrix Descriptor Format" and the tcgen05 "Shared memory descriptor
/// layout": a 14-bit field of 16-byte units covering 256 KiB.
static uint64_t matrixDescriptorEncode(uint32_t bytes) {
  return (bytes & 0x3FFFF) >> 4;
}

/// The checks both shared-memory descriptors share: the three byte values
/// must survive matrix-descriptor-encode unchanged, and the base offset fit
/// its 3 bits (and only mean something under a swizzle).
static llvm::LogicalResult
checkSmemDescriptorOperands(llvm::StringRef descriptorName,
                            uint32_t startAddress, uint32_t leadingBytes,
                            uint32_t strideBytes, SmemSwizzle swizzle,
                            unsigned baseOffset, llvm::raw_ostream &whyNot) {
  struct Operand {
    const char *name;
    uint32_t bytes;
  };
  for (Operand operand :
       {Operand{"start address", startAddress},
        Operand{"leading dimension byte offset", leadingBytes},
        Operand{"stride dimension byte offset", strideBytes}}) {
    if (operand.bytes % 16 != 0) {
      whyNot << descriptorName << ": " << operand.name
             << " must be a multiple of 16 bytes, but got " << operand.bytes;
      return llvm::failure();
    }
    if (operand.bytes >= (1u << 18)) {
      whyNot << descriptorName << ": " << operand.name
             << " must be below 2^18 = 262144 bytes (a 14-bit field of "
                "16-byte units), but got "
             << operand.bytes;
      return llvm::failure();
    }
  }
  if (baseOffset > 7) {
    whyNot << descriptorName
           << ": base offset must be in [0, 7] (a 3-bit field), but got "
           << baseOffset;
    return llvm::failure();
  }
  if (baseOffset != 0 && swizzle == SmemSwizzle::None) {
    whyNot << descriptorName
           << ": base offset must be 0 without a swizzle (it locates the "
              "swizzle pattern), but got "
           << baseOffset;
    return llvm::failure();
  }
  return llvm::success();
}

//===--- wgmma ------------------------------------------------------------===//

/// PTX ISA "Matrix Descriptor Format", bits 62-63.
static uint64_t wgmmaSwizzleMode(SmemSwizzle swizzle) {
  switch (swizzle) {
  case SmemSwizzle::None:
    return 0;
  case SmemSwizzle::B128:
    return 1;
  case SmemSwizzle::B64:
    return 2;
  case SmemSwizzle::B32:
    return 3;
  }
  llvm_unreachable("unknown SmemSwizzle");
}

uint64_t fa4::encodeWgmmaDescriptor(uint32_t startAddress,
                                    uint32_t leadingBytes, uint32_t strideBytes,
                                    SmemSwizzle swizzle, unsigned baseOffset) {
#ifndef NDEBUG
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  assert(llvm::succeeded(checkSmemDescriptorOperands(
             "wgmma descriptor", startAddress, leadingBytes, strideBytes,
             swizzle, baseOffset, os)) &&
         "invalid wgmma descriptor operands");
#endif
  // PTX ISA "Matrix Descriptor Format" (wgmma.mma_async).
  return field(matrixDescriptorEncode(startAddress), 0, 14) |
         field(matrixDescriptorEncode(leadingBytes), 16, 14) |
         field(matrixDescriptorEncode(strideBytes), 32, 14) |
         field(baseOffset, 49, 3) | field(wgmmaSwizzleMode(swizzle), 62, 2);
}

llvm::FailureOr<uint64_t>
fa4::tryEncodeWgmmaDescriptor(uint32_t startAddress, uint32_t leadingBytes,
                              uint32_t strideBytes, SmemSwizzle swizzle,
                              unsigned baseOffset, llvm::raw_ostream &whyNot) {
  if (llvm::failed(checkSmemDescriptorOperands("wgmma descriptor", startAddress,
                                               leadingBytes, strideBytes,
                                               swizzle, baseOffset, whyNot)))
    return llvm::failure();
  return encodeWgmmaDescriptor(startAddress, leadingBytes, strideBytes, swizzle,
                               baseOffset);
}

//===--- tcgen05 shared-memory descriptor ---------------------------------===//

/// PTX ISA Table "Shared memory descriptor layout", bits 61-63. Value 1
/// (128B with 32B atomic) is never produced; see the header.
static uint64_t tcgen05SwizzleMode(SmemSwizzle swizzle) {
  switch (swizzle) {
  case SmemSwizzle::None:
    return 0;
  case SmemSwizzle::B128:
    return 2;
  case SmemSwizzle::B64:
    return 4;
  case SmemSwizzle::B32:
    return 6;
  }
  llvm_unreachable("unknown SmemSwizzle");
}

uint64_t fa4::encodeTcgen05SmemDescriptor(uint32_t startAddress,
                                          uint32_t leadingBytes,
                                          uint32_t strideBytes,
                                          SmemSwizzle swizzle,
                                          unsigned baseOffset) {
#ifndef NDEBUG
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  assert(llvm::succeeded(checkSmemDescriptorOperands(
             "tcgen05 shared memory descriptor", startAddress, leadingBytes,
             strideBytes, swizzle, baseOffset, os)) &&
         "invalid tcgen05 shared memory descriptor operands");
#endif
  // PTX ISA Table "Shared memory descriptor layout" (tcgen05).
  constexpr uint64_t kFixed46To48 = 0b001;
  constexpr uint64_t kLeadingByteOffsetRelative = 0;
  return field(matrixDescriptorEncode(startAddress), 0, 14) |
         field(matrixDescriptorEncode(leadingBytes), 16, 14) |
         field(matrixDescriptorEncode(strideBytes), 32, 14) |
         field(kFixed46To48, 46, 3) | field(baseOffset, 49, 3) |
         field(kLeadingByteOffsetRelative, 52, 1) |
         field(tcgen05SwizzleMode(swizzle), 61, 3);
}

llvm::FailureOr<uint64_t> fa4::tryEncodeTcgen05SmemDescriptor(
    uint32_t startAddress, uint32_t leadingBytes, uint32_t strideBytes,
    SmemSwizzle swizzle, unsigned baseOffset, llvm::raw_ostream &whyNot) {
  if (llvm::failed(checkSmemDescriptorOperands(
          "tcgen05 shared memory descriptor", startAddress, leadingBytes,
          strideBytes, swizzle, baseOffset, whyNot)))
    return llvm::failure();
  return encodeTcgen05SmemDescriptor(startAddress, leadingBytes, strideBytes,
                                     swizzle, baseOffset);
}

//===--- tcgen05.mma instruction descriptor, .kind::f16 -------------------===//

static const char *typeName(MmaF16InputType type) {
  return type == MmaF16InputType::F16 ? "f16" : "bf16";
}

/// PTX ISA Table "Various combinations of .kind and shapes", .kind::f16,
/// dense, no .ws.
static llvm::LogicalResult checkTcgen05F16Mma(const Tcgen05F16Mma &mma,
                                              llvm::raw_ostream &whyNot) {
  if (mma.ctaGroup != 1 && mma.ctaGroup != 2) {
    whyNot << "tcgen05.mma.kind::f16: cta_group must be 1 or 2, but got "
           << mma.ctaGroup;
    return llvm::failure();
  }
  unsigned smallM = mma.ctaGroup == 1 ? 64 : 128;
  if (mma.m != smallM && mma.m != 2 * smallM) {
    whyNot << "tcgen05.mma.kind::f16: M must be " << smallM << " or "
           << 2 * smallM << " with cta_group::" << mma.ctaGroup << ", but got "
           << mma.m;
    return llvm::failure();
  }
  unsigned nStep = mma.ctaGroup == 1 ? 8 : 16;
  if (mma.n < nStep || mma.n > 256 || mma.n % nStep != 0) {
    whyNot << "tcgen05.mma.kind::f16: N must be a multiple of " << nStep
           << " in [" << nStep << ", 256] with cta_group::" << mma.ctaGroup
           << ", but got " << mma.n;
    return llvm::failure();
  }
  if (mma.aType != mma.bType) {
    whyNot << "tcgen05.mma.kind::f16: A and B must have the same type, but "
              "got A "
           << typeName(mma.aType) << " and B " << typeName(mma.bType);
    return llvm::failure();
  }
  if (mma.accumulatorType == MmaF16AccumulatorType::F16 &&
      mma.aType != MmaF16InputType::F16) {
    whyNot << "tcgen05.mma.kind::f16: an f16 accumulator needs f16 inputs, "
              "but got "
           << typeName(mma.aType);
    return llvm::failure();
  }
  return llvm::success();
}

/// The fields .kind::f16 and .kind::f8f6f4 share (PTX ISA Table
/// "Instruction descriptor format for .kind::tf32, .kind::f16,
/// .kind::f8f6f4 and .kind::i8"). Dense (bits 0-2 zero), no saturate (bit
/// 3), not .ws (bits 30-31 zero); reserved bits 6, 23 and 29 stay zero.
template <typename Mma>
static uint32_t packInstrDescriptor(unsigned dtype, unsigned atype,
                                    unsigned btype, const Mma &mma) {
  uint64_t descriptor =
      field(dtype, 4, 2) | field(atype, 7, 3) | field(btype, 10, 3) |
      field(mma.negateA, 13, 1) | field(mma.negateB, 14, 1) |
      field(mma.transposeA, 15, 1) | field(mma.transposeB, 16, 1) |
      field(mma.n >> 3, 17, 6) | field(mma.m >> 4, 24, 5);
  return static_cast<uint32_t>(descriptor);
}

uint32_t fa4::encodeTcgen05F16InstrDescriptor(const Tcgen05F16Mma &mma) {
#ifndef NDEBUG
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  assert(llvm::succeeded(checkTcgen05F16Mma(mma, os)) &&
         "invalid tcgen05.mma.kind::f16 shape or types");
#endif
  return packInstrDescriptor(static_cast<unsigned>(mma.accumulatorType),
                             static_cast<unsigned>(mma.aType),
                             static_cast<unsigned>(mma.bType), mma);
}

llvm::FailureOr<uint32_t>
fa4::tryEncodeTcgen05F16InstrDescriptor(const Tcgen05F16Mma &mma,
                                        llvm::raw_ostream &whyNot) {
  if (llvm::failed(checkTcgen05F16Mma(mma, whyNot)))
    return llvm::failure();
  return encodeTcgen05F16InstrDescriptor(mma);
}

//===--- tcgen05.mma instruction descriptor, .kind::f8f6f4 ----------------===//

static llvm::LogicalResult checkTcgen05F8Mma(const Tcgen05F8Mma &mma,
                                             llvm::raw_ostream &whyNot) {
  if (mma.m != 64 && mma.m != 128) {
    whyNot << "tcgen05.mma.kind::f8f6f4: M must be 64 or 128 with "
              "cta_group::1, but got "
           << mma.m;
    return llvm::failure();
  }
  unsigned nStep = mma.transposeB ? 16 : 8;
  if (mma.n < nStep || mma.n > 256 || mma.n % nStep != 0) {
    whyNot << "tcgen05.mma.kind::f8f6f4: N must be a multiple of " << nStep
           << " in [" << nStep << ", 256] with B "
           << (mma.transposeB ? "MN" : "K") << "-major, but got " << mma.n;
    return llvm::failure();
  }
  return llvm::success();
}

uint32_t fa4::encodeTcgen05F8InstrDescriptor(const Tcgen05F8Mma &mma) {
#ifndef NDEBUG
  std::string whyNot;
  llvm::raw_string_ostream os(whyNot);
  assert(llvm::succeeded(checkTcgen05F8Mma(mma, os)) &&
         "invalid tcgen05.mma.kind::f8f6f4 shape");
#endif
  // The table's .kind::f8f6f4 column: as .kind::f16's, dtype F32 = 1.
  return packInstrDescriptor(1, static_cast<unsigned>(mma.aType),
                             static_cast<unsigned>(mma.bType), mma);
}

llvm::FailureOr<uint32_t>
fa4::tryEncodeTcgen05F8InstrDescriptor(const Tcgen05F8Mma &mma,
                                       llvm::raw_ostream &whyNot) {
  if (llvm::failed(checkTcgen05F8Mma(mma, whyNot)))
    return llvm::failure();
  return encodeTcgen05F8InstrDescriptor(mma);
}
