//===- DescriptorsTest.cpp - wgmma / tcgen05 descriptor encodings ---------===//
//
// Each field is read back at the bit positions of the PTX ISA table it comes
// from, written out here rather than taken from the encoder, so a wrong
// position in either place fails.
//
//===----------------------------------------------------------------------===//

#include "fa4/Target/NVIDIA/Descriptors.h"

#include "gtest/gtest.h"

#include <string>

using namespace fa4;

/// Bits [lo, hi] of `value`, inclusive, as the ISA tables write them.
static uint64_t bits(uint64_t value, unsigned lo, unsigned hi) {
  unsigned width = hi - lo + 1;
  uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  return (value >> lo) & mask;
}

namespace {
/// The message a tryEncode call wrote, and whether it failed.
template <typename Encode> std::string failureMessage(Encode encode) {
  std::string message;
  llvm::raw_string_ostream os(message);
  auto result = encode(os);
  EXPECT_TRUE(llvm::failed(result)) << "expected a failure";
  return message;
}
} // namespace

//===----------------------------------------------------------------------===//
// SmemSwizzle
//===----------------------------------------------------------------------===//

TEST(SmemSwizzleTest, FromBytesRoundTrips) {
  EXPECT_EQ(smemSwizzleFromBytes(0), SmemSwizzle::None);
  EXPECT_EQ(smemSwizzleFromBytes(32), SmemSwizzle::B32);
  EXPECT_EQ(smemSwizzleFromBytes(64), SmemSwizzle::B64);
  EXPECT_EQ(smemSwizzleFromBytes(128), SmemSwizzle::B128);
  for (SmemSwizzle swizzle : {SmemSwizzle::None, SmemSwizzle::B32,
                              SmemSwizzle::B64, SmemSwizzle::B128})
    EXPECT_EQ(smemSwizzleFromBytes(smemSwizzleBytes(swizzle)), swizzle);
}

TEST(SmemSwizzleTest, FromBytesRejectsOtherSpans) {
  EXPECT_EQ(smemSwizzleFromBytes(16), std::nullopt);
  EXPECT_EQ(smemSwizzleFromBytes(96), std::nullopt);
  EXPECT_EQ(smemSwizzleFromBytes(256), std::nullopt);
  EXPECT_EQ(smemSwizzleFromBytes(-128), std::nullopt);
}

//===----------------------------------------------------------------------===//
// wgmma matrix descriptor: PTX ISA "Matrix Descriptor Format"
//===----------------------------------------------------------------------===//

TEST(WgmmaDescriptorTest, KMajorSwizzle128KnownValue) {
  // K-major, 128B swizzle: 8-row core matrices 1024 bytes apart (SBO), LBO
  // unused (1 by convention).
  EXPECT_EQ(encodeWgmmaDescriptor(0x400, 16, 1024, SmemSwizzle::B128),
            0x4000004000010040ull);
}

TEST(WgmmaDescriptorTest, HopperLoweringConstantsAreUnchanged) {
  // The constants test/Conversion/FA4ToNVVM/mma.mlir checks, with the
  // start address left to the runtime OR: the K-major descriptor (LBO 16,
  // SBO 1024) and MN-major V descriptors whose LBO is one box of BN keys
  // (BN x 128 bytes) for BN = 176, 128 and 80.
  EXPECT_EQ(encodeWgmmaDescriptor(0, 16, 1024, SmemSwizzle::B128),
            4611686293305360384ull);
  EXPECT_EQ(encodeWgmmaDescriptor(0, 176 * 128, 1024, SmemSwizzle::B128),
            4611686293397569536ull);
  EXPECT_EQ(encodeWgmmaDescriptor(0, 128 * 128, 1024, SmemSwizzle::B128),
            4611686293372403712ull);
  EXPECT_EQ(encodeWgmmaDescriptor(0, 80 * 128, 1024, SmemSwizzle::B128),
            4611686293347237888ull);
}

TEST(WgmmaDescriptorTest, EveryField) {
  uint64_t descriptor =
      encodeWgmmaDescriptor(/*startAddress=*/0x3FFF0, /*leadingBytes=*/0x12340,
                            /*strideBytes=*/0x2ABC0, SmemSwizzle::B64,
                            /*baseOffset=*/5);
  EXPECT_EQ(bits(descriptor, 0, 13), 0x3FFFu);  // start address >> 4
  EXPECT_EQ(bits(descriptor, 14, 15), 0u);      // unused
  EXPECT_EQ(bits(descriptor, 16, 29), 0x1234u); // leading byte offset >> 4
  EXPECT_EQ(bits(descriptor, 30, 31), 0u);      // unused
  EXPECT_EQ(bits(descriptor, 32, 45), 0x2ABCu); // stride byte offset >> 4
  EXPECT_EQ(bits(descriptor, 46, 48), 0u);      // unused
  EXPECT_EQ(bits(descriptor, 49, 51), 5u);      // base offset
  EXPECT_EQ(bits(descriptor, 52, 61), 0u);      // unused
  EXPECT_EQ(bits(descriptor, 62, 63), 2u);      // 64B swizzle
}

TEST(WgmmaDescriptorTest, SwizzleModes) {
  auto mode = [](SmemSwizzle swizzle) {
    return bits(encodeWgmmaDescriptor(0, 16, 1024, swizzle), 62, 63);
  };
  EXPECT_EQ(mode(SmemSwizzle::None), 0u);
  EXPECT_EQ(mode(SmemSwizzle::B128), 1u);
  EXPECT_EQ(mode(SmemSwizzle::B64), 2u);
  EXPECT_EQ(mode(SmemSwizzle::B32), 3u);
}

TEST(WgmmaDescriptorTest, MNMajorValueOperand) {
  // V (N = depth) in 64-column boxes of BN = 128 keys: LBO steps one box
  // (128 rows x 128 bytes), SBO the next 8 keys.
  uint64_t descriptor =
      encodeWgmmaDescriptor(0x8000, 128 * 128, 1024, SmemSwizzle::B128);
  EXPECT_EQ(bits(descriptor, 0, 13), 0x800u);
  EXPECT_EQ(bits(descriptor, 16, 29), 1024u);
  EXPECT_EQ(bits(descriptor, 32, 45), 64u);
  EXPECT_EQ(bits(descriptor, 49, 51), 0u);
  EXPECT_EQ(bits(descriptor, 62, 63), 1u);
}

TEST(WgmmaDescriptorTest, TryEncodeAgreesWhenValid) {
  std::string message;
  llvm::raw_string_ostream os(message);
  llvm::FailureOr<uint64_t> descriptor =
      tryEncodeWgmmaDescriptor(0x400, 16, 1024, SmemSwizzle::B128, 0, os);
  ASSERT_TRUE(llvm::succeeded(descriptor));
  EXPECT_EQ(*descriptor, 0x4000004000010040ull);
  EXPECT_TRUE(message.empty());
  // The largest encodable values: 2^18 - 16 bytes and base offset 7.
  descriptor = tryEncodeWgmmaDescriptor(0x3FFF0, 0x3FFF0, 0x3FFF0,
                                        SmemSwizzle::B32, 7, os);
  ASSERT_TRUE(llvm::succeeded(descriptor));
  EXPECT_EQ(bits(*descriptor, 0, 13), 0x3FFFu);
  EXPECT_EQ(bits(*descriptor, 16, 29), 0x3FFFu);
  EXPECT_EQ(bits(*descriptor, 32, 45), 0x3FFFu);
  EXPECT_EQ(bits(*descriptor, 49, 51), 7u);
}

TEST(WgmmaDescriptorTest, RejectsUnalignedValues) {
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0x408, 16, 1024,
                                              SmemSwizzle::B128, 0, os);
            }),
            "wgmma descriptor: start address must be a multiple of 16 bytes, "
            "but got 1032");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0, 24, 1024, SmemSwizzle::B128, 0,
                                              os);
            }),
            "wgmma descriptor: leading dimension byte offset must be a "
            "multiple of 16 bytes, but got 24");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0, 16, 1000, SmemSwizzle::B128, 0,
                                              os);
            }),
            "wgmma descriptor: stride dimension byte offset must be a "
            "multiple of 16 bytes, but got 1000");
}

TEST(WgmmaDescriptorTest, RejectsOutOfRangeValues) {
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(1u << 18, 16, 1024,
                                              SmemSwizzle::B128, 0, os);
            }),
            "wgmma descriptor: start address must be below 2^18 = 262144 "
            "bytes (a 14-bit field of 16-byte units), but got 262144");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0, 1u << 20, 1024,
                                              SmemSwizzle::B128, 0, os);
            }),
            "wgmma descriptor: leading dimension byte offset must be below "
            "2^18 = 262144 bytes (a 14-bit field of 16-byte units), but got "
            "1048576");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0, 16, (1u << 18) + 16,
                                              SmemSwizzle::B128, 0, os);
            }),
            "wgmma descriptor: stride dimension byte offset must be below "
            "2^18 = 262144 bytes (a 14-bit field of 16-byte units), but got "
            "262160");
}

TEST(WgmmaDescriptorTest, RejectsBadBaseOffset) {
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0, 16, 1024, SmemSwizzle::B128, 8,
                                              os);
            }),
            "wgmma descriptor: base offset must be in [0, 7] (a 3-bit "
            "field), but got 8");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeWgmmaDescriptor(0, 16, 1024, SmemSwizzle::None, 1,
                                              os);
            }),
            "wgmma descriptor: base offset must be 0 without a swizzle (it "
            "locates the swizzle pattern), but got 1");
}

//===----------------------------------------------------------------------===//
// tcgen05 shared memory descriptor: PTX ISA Table "Shared memory descriptor
// layout"
//===----------------------------------------------------------------------===//

TEST(Tcgen05SmemDescriptorTest, KMajorSwizzle128KnownValue) {
  // The wgmma value above plus the fixed 0b001 at bits 46-48; 128B swizzle
  // is mode 2 at bits 61-63, the same bit 62 as wgmma's mode 1 at 62-63.
  EXPECT_EQ(encodeTcgen05SmemDescriptor(0x400, 16, 1024, SmemSwizzle::B128),
            0x4000404000010040ull);
}

TEST(Tcgen05SmemDescriptorTest, EveryField) {
  uint64_t descriptor = encodeTcgen05SmemDescriptor(
      /*startAddress=*/0x3FFF0, /*leadingBytes=*/0x12340,
      /*strideBytes=*/0x2ABC0, SmemSwizzle::B64, /*baseOffset=*/5);
  EXPECT_EQ(bits(descriptor, 0, 13), 0x3FFFu);  // start address >> 4
  EXPECT_EQ(bits(descriptor, 14, 15), 0u);      // reserved
  EXPECT_EQ(bits(descriptor, 16, 29), 0x1234u); // leading byte offset >> 4
  EXPECT_EQ(bits(descriptor, 30, 31), 0u);      // reserved
  EXPECT_EQ(bits(descriptor, 32, 45), 0x2ABCu); // stride byte offset >> 4
  EXPECT_EQ(bits(descriptor, 46, 48), 0b001u);  // fixed constant
  EXPECT_EQ(bits(descriptor, 49, 51), 5u);      // base offset
  EXPECT_EQ(bits(descriptor, 52, 52), 0u);      // LBO mode: relative
  EXPECT_EQ(bits(descriptor, 53, 60), 0u);      // fixed constant
  EXPECT_EQ(bits(descriptor, 61, 63), 4u);      // 64B swizzle
}

TEST(Tcgen05SmemDescriptorTest, SwizzleModes) {
  auto mode = [](SmemSwizzle swizzle) {
    return bits(encodeTcgen05SmemDescriptor(0, 16, 1024, swizzle), 61, 63);
  };
  EXPECT_EQ(mode(SmemSwizzle::None), 0u);
  EXPECT_EQ(mode(SmemSwizzle::B128), 2u);
  EXPECT_EQ(mode(SmemSwizzle::B64), 4u);
  EXPECT_EQ(mode(SmemSwizzle::B32), 6u);
}

TEST(Tcgen05SmemDescriptorTest, FixedBitsWithZeroOperands) {
  // With every operand zero only the fixed 0b001 at bits 46-48 remains.
  EXPECT_EQ(encodeTcgen05SmemDescriptor(0, 0, 0, SmemSwizzle::None), uint64_t(1)
                                                                         << 46);
}

TEST(Tcgen05SmemDescriptorTest, TryEncodeAgreesWhenValid) {
  std::string message;
  llvm::raw_string_ostream os(message);
  llvm::FailureOr<uint64_t> descriptor =
      tryEncodeTcgen05SmemDescriptor(0x400, 16, 1024, SmemSwizzle::B128, 0, os);
  ASSERT_TRUE(llvm::succeeded(descriptor));
  EXPECT_EQ(*descriptor, 0x4000404000010040ull);
  EXPECT_TRUE(message.empty());
}

TEST(Tcgen05SmemDescriptorTest, RejectsInvalidOperands) {
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeTcgen05SmemDescriptor(0x401, 16, 1024,
                                                    SmemSwizzle::B128, 0, os);
            }),
            "tcgen05 shared memory descriptor: start address must be a "
            "multiple of 16 bytes, but got 1025");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeTcgen05SmemDescriptor(0, 8, 1024,
                                                    SmemSwizzle::B128, 0, os);
            }),
            "tcgen05 shared memory descriptor: leading dimension byte offset "
            "must be a multiple of 16 bytes, but got 8");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeTcgen05SmemDescriptor(0, 16, 1u << 18,
                                                    SmemSwizzle::B128, 0, os);
            }),
            "tcgen05 shared memory descriptor: stride dimension byte offset "
            "must be below 2^18 = 262144 bytes (a 14-bit field of 16-byte "
            "units), but got 262144");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeTcgen05SmemDescriptor(0, 16, 1024,
                                                    SmemSwizzle::B32, 9, os);
            }),
            "tcgen05 shared memory descriptor: base offset must be in [0, 7] "
            "(a 3-bit field), but got 9");
  EXPECT_EQ(failureMessage([](llvm::raw_ostream &os) {
              return tryEncodeTcgen05SmemDescriptor(0, 16, 1024,
                                                    SmemSwizzle::None, 2, os);
            }),
            "tcgen05 shared memory descriptor: base offset must be 0 without "
            "a swizzle (it locates the swizzle pattern), but got 2");
}

//===----------------------------------------------------------------------===//
// tcgen05.mma instruction descriptor: PTX ISA Table "Instruction descriptor
// format for .kind::tf32, .kind::f16, .kind::f8f6f4 and .kind::i8"
//===----------------------------------------------------------------------===//

namespace {
/// S = Q K^T on sm_100a: bf16 in, f32 accumulate, Q and K K-major.
Tcgen05F16Mma qkMma(unsigned n) {
  Tcgen05F16Mma mma;
  mma.accumulatorType = MmaF16AccumulatorType::F32;
  mma.aType = MmaF16InputType::BF16;
  mma.bType = MmaF16InputType::BF16;
  mma.m = 128;
  mma.n = n;
  return mma;
}

/// The fields of the table fa4 never sets: sparsity, saturate, reserved
/// bits and the .ws maximum shift.
void expectZeroUnusedFields(uint32_t descriptor) {
  EXPECT_EQ(bits(descriptor, 0, 1), 0u);   // sparsity selector
  EXPECT_EQ(bits(descriptor, 2, 2), 0u);   // dense
  EXPECT_EQ(bits(descriptor, 3, 3), 0u);   // no saturate
  EXPECT_EQ(bits(descriptor, 6, 6), 0u);   // reserved
  EXPECT_EQ(bits(descriptor, 23, 23), 0u); // reserved
  EXPECT_EQ(bits(descriptor, 29, 29), 0u); // reserved
  EXPECT_EQ(bits(descriptor, 30, 31), 0u); // no .ws shift
}
} // namespace

TEST(Tcgen05InstrDescriptorTest, QKBf16F32KMajorN128) {
  uint32_t descriptor = encodeTcgen05F16InstrDescriptor(qkMma(128));
  EXPECT_EQ(bits(descriptor, 4, 5), 1u);    // D: F32
  EXPECT_EQ(bits(descriptor, 7, 9), 1u);    // A: BF16
  EXPECT_EQ(bits(descriptor, 10, 12), 1u);  // B: BF16
  EXPECT_EQ(bits(descriptor, 13, 13), 0u);  // no negate A
  EXPECT_EQ(bits(descriptor, 14, 14), 0u);  // no negate B
  EXPECT_EQ(bits(descriptor, 15, 15), 0u);  // A K-major
  EXPECT_EQ(bits(descriptor, 16, 16), 0u);  // B K-major
  EXPECT_EQ(bits(descriptor, 17, 22), 16u); // N >> 3
  EXPECT_EQ(bits(descriptor, 24, 28), 8u);  // M >> 4
  expectZeroUnusedFields(descriptor);
  EXPECT_EQ(descriptor, 0x08200490u);
}

TEST(Tcgen05InstrDescriptorTest, QKBf16F32KMajorN256) {
  uint32_t descriptor = encodeTcgen05F16InstrDescriptor(qkMma(256));
  EXPECT_EQ(bits(descriptor, 17, 22), 32u); // N >> 3
  EXPECT_EQ(bits(descriptor, 24, 28), 8u);  // M >> 4
  EXPECT_EQ(bits(descriptor, 15, 16), 0u);  // both K-major
  expectZeroUnusedFields(descriptor);
  EXPECT_EQ(descriptor, 0x08400490u);
}

TEST(Tcgen05InstrDescriptorTest, PVWithMNMajorV) {
  // O = P V: N = depth 128, V MN-major in shared memory.
  Tcgen05F16Mma mma = qkMma(128);
  mma.transposeB = true;
  uint32_t descriptor = encodeTcgen05F16InstrDescriptor(mma);
  EXPECT_EQ(bits(descriptor, 15, 15), 0u); // A not transposed
  EXPECT_EQ(bits(descriptor, 16, 16), 1u); // B transposed (MN-major)
  EXPECT_EQ(bits(descriptor, 4, 12), bits(0x08200490u, 4, 12));
  EXPECT_EQ(bits(descriptor, 17, 28), bits(0x08200490u, 17, 28));
  expectZeroUnusedFields(descriptor);
  EXPECT_EQ(descriptor, 0x08210490u);
}

TEST(Tcgen05InstrDescriptorTest, F16InputsAndAccumulator) {
  Tcgen05F16Mma mma;
  mma.accumulatorType = MmaF16AccumulatorType::F16;
  mma.aType = MmaF16InputType::F16;
  mma.bType = MmaF16InputType::F16;
  mma.m = 64;
  mma.n = 8;
  uint32_t descriptor = encodeTcgen05F16InstrDescriptor(mma);
  EXPECT_EQ(bits(descriptor, 4, 5), 0u);   // D: F16
  EXPECT_EQ(bits(descriptor, 7, 9), 0u);   // A: F16
  EXPECT_EQ(bits(descriptor, 10, 12), 0u); // B: F16
  EXPECT_EQ(bits(descriptor, 17, 22), 1u); // N = 8
  EXPECT_EQ(bits(descriptor, 24, 28), 4u); // M = 64
  expectZeroUnusedFields(descriptor);
}

TEST(Tcgen05InstrDescriptorTest, NegateAndTransposeBitsAreIndependent) {
  Tcgen05F16Mma mma = qkMma(64);
  uint32_t base = encodeTcgen05F16InstrDescriptor(mma);
  auto flipped = [&](bool Tcgen05F16Mma::*flag) {
    Tcgen05F16Mma changed = mma;
    changed.*flag = true;
    return encodeTcgen05F16InstrDescriptor(changed) ^ base;
  };
  EXPECT_EQ(flipped(&Tcgen05F16Mma::negateA), 1u << 13);
  EXPECT_EQ(flipped(&Tcgen05F16Mma::negateB), 1u << 14);
  EXPECT_EQ(flipped(&Tcgen05F16Mma::transposeA), 1u << 15);
  EXPECT_EQ(flipped(&Tcgen05F16Mma::transposeB), 1u << 16);
}

TEST(Tcgen05InstrDescriptorTest, PairCtaM256) {
  // cta_group::2: M spans the pair, 128 rows in each CTA.
  Tcgen05F16Mma mma = qkMma(256);
  mma.ctaGroup = 2;
  mma.m = 256;
  uint32_t descriptor = encodeTcgen05F16InstrDescriptor(mma);
  EXPECT_EQ(bits(descriptor, 24, 28), 16u); // M >> 4
  EXPECT_EQ(bits(descriptor, 17, 22), 32u); // N >> 3
  expectZeroUnusedFields(descriptor);
}

TEST(Tcgen05InstrDescriptorTest, AcceptsEveryShapeOfTheShapeTable) {
  // Table "Various combinations of .kind and shapes", .kind::f16, dense:
  // cta_group::1 M = 64, 128 with N = 8..256 step 8; cta_group::2 M = 128,
  // 256 with N = 16..256 step 16.
  for (unsigned ctaGroup : {1u, 2u}) {
    unsigned smallM = ctaGroup == 1 ? 64 : 128;
    unsigned nStep = ctaGroup == 1 ? 8 : 16;
    for (unsigned m : {smallM, 2 * smallM}) {
      for (unsigned n = nStep; n <= 256; n += nStep) {
        Tcgen05F16Mma mma = qkMma(n);
        mma.ctaGroup = ctaGroup;
        mma.m = m;
        std::string message;
        llvm::raw_string_ostream os(message);
        llvm::FailureOr<uint32_t> descriptor =
            tryEncodeTcgen05F16InstrDescriptor(mma, os);
        ASSERT_TRUE(llvm::succeeded(descriptor))
            << "cta_group " << ctaGroup << " M " << m << " N " << n << ": "
            << message;
        EXPECT_EQ(bits(*descriptor, 17, 22), n >> 3);
        EXPECT_EQ(bits(*descriptor, 24, 28), m >> 4);
        expectZeroUnusedFields(*descriptor);
      }
    }
  }
}

TEST(Tcgen05InstrDescriptorTest, RejectsShapesOutsideTheTable) {
  auto message = [](unsigned ctaGroup, unsigned m, unsigned n) {
    Tcgen05F16Mma mma = qkMma(n);
    mma.ctaGroup = ctaGroup;
    mma.m = m;
    return failureMessage([&](llvm::raw_ostream &os) {
      return tryEncodeTcgen05F16InstrDescriptor(mma, os);
    });
  };
  EXPECT_EQ(message(3, 128, 128),
            "tcgen05.mma.kind::f16: cta_group must be 1 or 2, but got 3");
  EXPECT_EQ(message(1, 256, 128),
            "tcgen05.mma.kind::f16: M must be 64 or 128 with cta_group::1, "
            "but got 256");
  EXPECT_EQ(message(2, 64, 128),
            "tcgen05.mma.kind::f16: M must be 128 or 256 with cta_group::2, "
            "but got 64");
  EXPECT_EQ(message(1, 96, 128),
            "tcgen05.mma.kind::f16: M must be 64 or 128 with cta_group::1, "
            "but got 96");
  EXPECT_EQ(message(1, 128, 12),
            "tcgen05.mma.kind::f16: N must be a multiple of 8 in [8, 256] "
            "with cta_group::1, but got 12");
  EXPECT_EQ(message(1, 64, 0),
            "tcgen05.mma.kind::f16: N must be a multiple of 8 in [8, 256] "
            "with cta_group::1, but got 0");
  EXPECT_EQ(message(1, 128, 264),
            "tcgen05.mma.kind::f16: N must be a multiple of 8 in [8, 256] "
            "with cta_group::1, but got 264");
  EXPECT_EQ(message(2, 256, 24),
            "tcgen05.mma.kind::f16: N must be a multiple of 16 in [16, 256] "
            "with cta_group::2, but got 24");
  EXPECT_EQ(message(2, 128, 8),
            "tcgen05.mma.kind::f16: N must be a multiple of 16 in [16, 256] "
            "with cta_group::2, but got 8");
}

TEST(Tcgen05InstrDescriptorTest, RejectsTypeCombinationsOutsideTheTable) {
  Tcgen05F16Mma mixed = qkMma(128);
  mixed.bType = MmaF16InputType::F16;
  EXPECT_EQ(failureMessage([&](llvm::raw_ostream &os) {
              return tryEncodeTcgen05F16InstrDescriptor(mixed, os);
            }),
            "tcgen05.mma.kind::f16: A and B must have the same type, but got "
            "A bf16 and B f16");
  Tcgen05F16Mma f16Accumulator = qkMma(128);
  f16Accumulator.accumulatorType = MmaF16AccumulatorType::F16;
  EXPECT_EQ(failureMessage([&](llvm::raw_ostream &os) {
              return tryEncodeTcgen05F16InstrDescriptor(f16Accumulator, os);
            }),
            "tcgen05.mma.kind::f16: an f16 accumulator needs f16 inputs, but "
            "got bf16");
}

TEST(DescriptorsDeathTest, UncheckedEncodersAssertInDebugBuilds) {
  // In release builds the statements just run (the fields are masked).
  EXPECT_DEBUG_DEATH(encodeWgmmaDescriptor(0x408, 16, 1024, SmemSwizzle::B128),
                     "invalid wgmma descriptor operands");
  EXPECT_DEBUG_DEATH(
      encodeTcgen05SmemDescriptor(0, 16, 1024, SmemSwizzle::None, 1),
      "invalid tcgen05 shared memory descriptor operands");
  Tcgen05F16Mma mma;
  mma.m = 96;
  EXPECT_DEBUG_DEATH(encodeTcgen05F16InstrDescriptor(mma),
                     "invalid tcgen05.mma.kind::f16 shape or types");
}

//===----------------------------------------------------------------------===//
// tcgen05.mma instruction descriptor, .kind::f8f6f4: the values CUTLASS
// 4.2's MMA_Traits<SM100_MMA_F8F6F4_SS, ...>::idesc_ holds (the `instrf8`
// rows of emu/unittests/goldens/umma-layouts.txt)
//===----------------------------------------------------------------------===//

namespace {
Tcgen05F8Mma f8Mma(MmaF8InputType a, MmaF8InputType b, bool aMn, bool bMn,
                   bool negateA, unsigned m, unsigned n) {
  Tcgen05F8Mma mma;
  mma.aType = a;
  mma.bType = b;
  mma.transposeA = aMn;
  mma.transposeB = bMn;
  mma.negateA = negateA;
  mma.m = m;
  mma.n = n;
  return mma;
}
} // namespace

TEST(Tcgen05F8InstrDescriptorTest, CutlassValues) {
  using T = MmaF8InputType;
  struct Golden {
    Tcgen05F8Mma mma;
    uint32_t descriptor;
  };
  for (const Golden &g : {
           Golden{f8Mma(T::E4M3, T::E4M3, false, false, false, 128, 64),
                  0x08100010u},
           Golden{f8Mma(T::E4M3, T::E4M3, false, false, true, 128, 64),
                  0x08102010u},
           Golden{f8Mma(T::E4M3, T::E4M3, false, false, false, 128, 8),
                  0x08020010u},
           Golden{f8Mma(T::E4M3, T::E5M2, false, true, false, 128, 128),
                  0x08210410u},
           Golden{f8Mma(T::E5M2, T::E4M3, true, false, false, 64, 16),
                  0x04048090u},
           Golden{f8Mma(T::E5M2, T::E5M2, true, true, false, 128, 256),
                  0x08418490u},
       }) {
    EXPECT_EQ(encodeTcgen05F8InstrDescriptor(g.mma), g.descriptor);
    expectZeroUnusedFields(g.descriptor);
  }
}

TEST(Tcgen05F8InstrDescriptorTest, RefusesShapesOutsideCutlassAtoms) {
  auto whyNot = [](Tcgen05F8Mma mma) {
    std::string text;
    llvm::raw_string_ostream os(text);
    EXPECT_TRUE(llvm::failed(tryEncodeTcgen05F8InstrDescriptor(mma, os)));
    return text;
  };
  using T = MmaF8InputType;
  EXPECT_EQ(whyNot(f8Mma(T::E4M3, T::E4M3, false, false, false, 256, 64)),
            "tcgen05.mma.kind::f8f6f4: M must be 64 or 128 with "
            "cta_group::1, but got 256");
  // B MN-major takes N in 16s; K-major in 8s.
  EXPECT_EQ(whyNot(f8Mma(T::E4M3, T::E4M3, false, true, false, 128, 8)),
            "tcgen05.mma.kind::f8f6f4: N must be a multiple of 16 in [16, "
            "256] with B MN-major, but got 8");
  EXPECT_EQ(whyNot(f8Mma(T::E4M3, T::E4M3, false, false, false, 128, 264)),
            "tcgen05.mma.kind::f8f6f4: N must be a multiple of 8 in [8, 256] "
            "with B K-major, but got 264");
  std::string none;
  llvm::raw_string_ostream os(none);
  EXPECT_TRUE(llvm::succeeded(tryEncodeTcgen05F8InstrDescriptor(
      f8Mma(T::E4M3, T::E4M3, false, false, false, 128, 8), os)));
}
