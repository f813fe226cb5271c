//===- ValidateTest.cpp - User tensors against the manifest ---------------===//

#include "Validate.h"
#include "Error.h"
#include "TestArgs.h"
#include "TestManifest.h"

#include <cstring>

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

class ValidateTest : public ::testing::Test {
protected:
  Manifest manifest = goodManifest();
  fa4_attention_args args = goodArgs();

  std::string refusal() {
    try {
      validateArgs(manifest, args);
    } catch (const Error &error) {
      EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
      return error.what();
    }
    return "accepted";
  }
};

TEST_F(ValidateTest, AcceptsGoodTensorsAndBindsSizes) {
  Bindings bindings = validateArgs(manifest, args);
  EXPECT_EQ(bindings[Symbol::Batch], 2);
  EXPECT_EQ(bindings[Symbol::SeqQ], 113);
  EXPECT_EQ(bindings[Symbol::SeqKV], 203);
  EXPECT_EQ(bindings[Symbol::HeadsQ], 32);
  EXPECT_EQ(bindings[Symbol::HeadsKV], 8);
  EXPECT_EQ(bindings.source(Symbol::Batch), "tensor 'q' bound");
  EXPECT_EQ(bindings.source(Symbol::SeqKV), "tensor 'k' bound");
  EXPECT_EQ(bindings.source(Symbol::HeadsQ), "the kernel was compiled for");
}

TEST_F(ValidateTest, AcceptsSizeOne) {
  args = goodArgs(1, 1, 1);
  EXPECT_EQ(refusal(), "accepted");
}

TEST_F(ValidateTest, AcceptsPermutedOutput) {
  // o stored BHSD, viewed BSHD: non-overlapping, so accepted.
  args.o.strides[3] = 1;
  args.o.strides[1] = 128;
  args.o.strides[2] = 113 * 128;
  args.o.strides[0] = 32 * 113 * 128;
  EXPECT_EQ(refusal(), "accepted");
}

TEST_F(ValidateTest, RefusesMissingTensor) {
  args.v.data = nullptr;
  EXPECT_EQ(refusal(),
            "tensor 'v': missing (data is NULL) but the kernel requires it");
  args = goodArgs();
  args.lse.data = nullptr;
  EXPECT_EQ(refusal(),
            "tensor 'lse': missing (data is NULL) but the kernel requires it");
}

TEST_F(ValidateTest, RefusesLseTheKernelDoesNotWrite) {
  manifest = parseManifest(manifestWithoutLse(), "");
  EXPECT_EQ(refusal(), "tensor 'lse': given but the kernel was compiled "
                       "without LSE (has_lse = false); pass lse.data = NULL");
  args.lse = {};
  EXPECT_EQ(refusal(), "accepted");
}

/// A kernel with attention sinks (version 14) takes them in the serving
/// arguments: f32 [hq], refused where missing, mistyped or misshaped, and
/// refused by a kernel without sinks.
TEST_F(ValidateTest, ChecksSinks) {
  auto refusalOf = [&](const fa4_serving_args &serving) -> std::string {
    try {
      validateArgs(manifest, serving);
    } catch (const Error &error) {
      return error.what();
    }
    return "accepted";
  };
  fa4_serving_args serving = servingArgs(args);
  serving.sinks = fakeTensor(6 * kRegion, FA4_DTYPE_F32, {32});
  EXPECT_EQ(refusalOf(serving), "tensor 'sinks': given but the kernel does "
                                "not take it; pass NULL");
  manifest = parseManifest(sinksManifestJson(), "");
  EXPECT_EQ(refusalOf(serving), "accepted");
  EXPECT_EQ(refusal(),
            "tensor 'sinks': missing (data is NULL) but the kernel requires "
            "it (the kernel has attention sinks: launch it through "
            "fa4_launch_serving with args.sinks)");
  fa4_serving_args wrong = serving;
  wrong.sinks = fakeTensor(6 * kRegion, FA4_DTYPE_BF16, {32});
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'sinks': dtype is bf16 but the kernel expects f32");
  wrong.sinks = fakeTensor(6 * kRegion, FA4_DTYPE_F32, {8});
  EXPECT_NE(refusalOf(wrong).find("tensor 'sinks'"), std::string::npos)
      << refusalOf(wrong);
  wrong.sinks = fakeTensor(6 * kRegion, FA4_DTYPE_F32, {1, 32});
  EXPECT_NE(refusalOf(wrong).find("tensor 'sinks'"), std::string::npos)
      << refusalOf(wrong);
}

/// An FP8 kernel (version 15): e4m3 q, k and v, o in its output dtype, and
/// its descales in the serving arguments, each f32 of the shape its key
/// says; refused where missing, mistyped or misshaped, and refused by a
/// kernel without them.
TEST_F(ValidateTest, ChecksFp8TensorsAndDescales) {
  auto refusalOf = [&](const fa4_serving_args &serving) -> std::string {
    try {
      validateArgs(manifest, serving);
    } catch (const Error &error) {
      EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
      return error.what();
    }
    return "accepted";
  };
  fa4_serving_args fp8 = goodFp8Args();
  EXPECT_EQ(refusalOf(fp8), "tensor 'q_descale': given but the kernel does "
                            "not take it; pass NULL");
  EXPECT_EQ(refusalOf(servingArgs(fp8.attention)),
            "tensor 'q': dtype is e4m3 but the kernel expects bf16");
  fa4_serving_args given = servingArgs(args);
  given.k_descale = fakeTensor(7 * kRegion, FA4_DTYPE_F32, {});
  EXPECT_EQ(refusalOf(given), "tensor 'k_descale': given but the kernel "
                              "does not take it; pass NULL");

  manifest = parseManifest(fp8ManifestJson(), "");
  EXPECT_EQ(refusalOf(fp8), "accepted");
  // What fa4_attention_args can name is not enough.
  EXPECT_EQ(refusalOf(servingArgs(fp8.attention)),
            "tensor 'q_descale': missing (data is NULL) but the kernel "
            "requires it (the kernel takes FP8 descales: launch it through "
            "fa4_launch_serving with args.q_descale)");
  fa4_serving_args wrong = fp8;
  wrong.v_descale.data = nullptr;
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'v_descale': missing (data is NULL) but the kernel "
            "requires it (the kernel takes FP8 descales: launch it through "
            "fa4_launch_serving with args.v_descale)");
  wrong = fp8;
  wrong.q_descale = fakeTensor(6 * kRegion, FA4_DTYPE_F32, {1});
  EXPECT_EQ(refusalOf(wrong), "tensor 'q_descale': rank is 1 but the kernel "
                              "expects rank 0 (shape [])");
  wrong.q_descale = fakeTensor(6 * kRegion, FA4_DTYPE_BF16, {});
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'q_descale': dtype is bf16 but the kernel expects f32");
  wrong.q_descale = fakeTensor(6 * kRegion + 2, FA4_DTYPE_F32, {});
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'q_descale': base address 0x6000000002 is not 4-byte "
            "aligned (the kernel requires 4-byte alignment)");
  // o in the output dtype; q, k and v in e4m3, one byte an element.
  wrong = fp8;
  wrong.attention.o.dtype = FA4_DTYPE_E4M3;
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'o': dtype is e4m3 but the kernel expects bf16");
  wrong = fp8;
  wrong.attention.k.strides[2] = 129;
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'k': dim 2 stride is 129 elements = 129 bytes, not a "
            "multiple of 16 bytes (TMA requires 16-byte-aligned strides)");
  // A descale spans one f32: an output may start right after it.
  wrong = fp8;
  wrong.attention.o.data = fakeAddress(6, 0);
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'o' overlaps tensor 'q_descale': bytes [0x6000000000, "
            "0x60001c4000) and [0x6000000000, 0x6000000004); an output may "
            "share no byte with another tensor");
  wrong.attention.o.data = fakeAddress(6, 4);
  EXPECT_EQ(refusalOf(wrong), "accepted");

  // Per (batch, kv head): [b, hkv], b bound as q binds it, unit last stride.
  manifest =
      parseManifest(fp8ManifestJson("batch_head", "batch_head", "tensor"), "");
  fp8 = goodFp8Args("batch_head", "batch_head", "tensor");
  EXPECT_EQ(refusalOf(fp8), "accepted");
  wrong = fp8;
  wrong.k_descale = fakeTensor(7 * kRegion, FA4_DTYPE_F32, {3, 8});
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'k_descale': dim 0 (b) is 3 but tensor 'q' bound b = 2");
  wrong.k_descale = fakeTensor(7 * kRegion, FA4_DTYPE_F32, {2, 4});
  EXPECT_EQ(refusalOf(wrong),
            "tensor 'k_descale': dim 1 is 4 but the kernel expects 8");
  wrong.k_descale = fakeTensor(7 * kRegion, FA4_DTYPE_F32, {2, 8});
  wrong.k_descale.strides[1] = 2;
  wrong.k_descale.strides[0] = 16;
  EXPECT_EQ(refusalOf(wrong), "tensor 'k_descale': dim 1 stride is 2 but the "
                              "last dim must have unit stride (stride 1)");
  wrong.k_descale.strides[1] = 1;
  wrong.k_descale.strides[0] = 0; // every batch reads the same row
  EXPECT_EQ(refusalOf(wrong), "accepted");
  wrong.q_descale = fakeTensor(6 * kRegion, FA4_DTYPE_F32, {});
  EXPECT_EQ(refusalOf(wrong), "tensor 'q_descale': rank is 0 but the kernel "
                              "expects rank 2 (shape [b, 8])");
}

/// A backward kernel (version 16): dout, dq, dk and dv in the serving
/// arguments, each checked as the tensor whose layout it has (dtype, shape,
/// strides, alignment), the gradients as outputs overlapping nothing; o
/// and lse are inputs there, which may share memory.
class BackwardValidateTest : public ::testing::Test {
protected:
  Manifest manifest = parseManifest(backwardManifestJson(), "");
  fa4_serving_args args = goodBackwardArgs();

  std::string refusal() {
    try {
      validateArgs(manifest, args);
    } catch (const Error &error) {
      EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
      return error.what();
    }
    return "accepted";
  }
};

TEST_F(BackwardValidateTest, AcceptsGoodTensorsAndBindsSizes) {
  Bindings bindings = validateArgs(manifest, args);
  EXPECT_EQ(bindings[Symbol::Batch], 2);
  EXPECT_EQ(bindings[Symbol::SeqQ], 37);
  EXPECT_EQ(bindings[Symbol::SeqKV], 53);
  // Element alignment: any whole-element base and stride.
  args.dq.data = fakeAddress(10, 2);
  args.dk.strides[2] = 65;
  args.dk.strides[1] = 2 * 65;
  args.dk.strides[0] = 53 * 2 * 65;
  EXPECT_EQ(refusal(), "accepted");
  // o and lse are read: they may share memory with the other inputs.
  args = goodBackwardArgs();
  args.attention.o.data = args.dout.data;
  args.attention.lse.data = args.attention.q.data;
  EXPECT_EQ(refusal(), "accepted");
}

TEST_F(BackwardValidateTest, RefusesEachMissingTensor) {
  const char *hint = " (a backward kernel: launch it through "
                     "fa4_launch_serving with args.dout, args.dq, args.dk "
                     "and args.dv)";
  for (fa4_tensor fa4_serving_args::*slot :
       {&fa4_serving_args::dout, &fa4_serving_args::dq, &fa4_serving_args::dk,
        &fa4_serving_args::dv}) {
    args = goodBackwardArgs();
    (args.*slot).data = nullptr;
    std::string name = slot == &fa4_serving_args::dout ? "dout"
                       : slot == &fa4_serving_args::dq ? "dq"
                       : slot == &fa4_serving_args::dk ? "dk"
                                                       : "dv";
    EXPECT_EQ(refusal(), "tensor '" + name +
                             "': missing (data is NULL) but the kernel "
                             "requires it" +
                             hint);
  }
  // The forward's O and LSE too.
  args = goodBackwardArgs();
  args.attention.lse.data = nullptr;
  EXPECT_EQ(refusal(),
            "tensor 'lse': missing (data is NULL) but the kernel requires it");
}

TEST_F(BackwardValidateTest, ChecksEachTensorsLayout) {
  args.dout.dtype = FA4_DTYPE_F16;
  EXPECT_EQ(refusal(), "tensor 'dout': dtype is f16 but the kernel expects "
                       "bf16");
  args = goodBackwardArgs();
  args.dout.shape[3] = 64; // dqk, not dv
  EXPECT_EQ(refusal(), "tensor 'dout': dim 3 is 64 but the kernel expects 32");
  args = goodBackwardArgs();
  args.dq.shape[1] = 53;
  EXPECT_EQ(refusal(), "tensor 'dq': dim 1 (sq) is 53 but tensor 'q' bound "
                       "sq = 37");
  args = goodBackwardArgs();
  args.dk.shape[2] = 8; // hq, not hkv
  EXPECT_EQ(refusal(), "tensor 'dk': dim 2 is 8 but the kernel expects 2");
  args = goodBackwardArgs();
  args.dv.rank = 3;
  EXPECT_EQ(refusal(), "tensor 'dv': rank is 3 but the kernel expects rank 4 "
                       "(shape [b, skv, 2, 32])");
  args = goodBackwardArgs();
  args.dv.strides[3] = 2;
  EXPECT_EQ(refusal(), "tensor 'dv': dim 3 stride is 2 but the last dim "
                       "must have unit stride (stride 1)");
  args = goodBackwardArgs();
  args.dq.data = fakeAddress(10, 1);
  EXPECT_EQ(refusal(), "tensor 'dq': base address 0xa000000001 is not 2-byte "
                       "aligned (the kernel requires 2-byte alignment)");
  // An f32 LSE under its 4-byte rule.
  args = goodBackwardArgs();
  args.attention.lse.data = fakeAddress(5, 2);
  EXPECT_EQ(refusal(), "tensor 'lse': base address 0x5000000002 is not "
                       "4-byte aligned (the kernel requires 4-byte "
                       "alignment)");
}

TEST_F(BackwardValidateTest, RefusesGradientsThatOverlap) {
  // q: 2 x 37 x 8 x 64 bf16 = 0x12800 bytes.
  args.dq.data = args.attention.q.data;
  EXPECT_EQ(refusal(), "tensor 'dq' overlaps tensor 'q': bytes [0x1000000000, "
                       "0x1000012800) and [0x1000000000, 0x1000012800); an "
                       "output may share no byte with another tensor");
  args = goodBackwardArgs();
  args.dv.data = args.dk.data;
  EXPECT_NE(refusal().find("tensor 'dk' overlaps tensor 'dv'"),
            std::string::npos)
      << refusal();
  args = goodBackwardArgs();
  args.dk.data = args.attention.o.data;
  EXPECT_NE(refusal().find("tensor 'dk' overlaps tensor 'o'"),
            std::string::npos)
      << refusal();
  // Itself: every query head of a row written to one place.
  args = goodBackwardArgs();
  args.dq.strides[2] = 0;
  EXPECT_EQ(refusal(), "tensor 'dq': dim 2 stride is 0 with extent 8; output "
                       "tensors must not overlap themselves");
}

/// A forward kernel takes none of the backward pass's tensors.
TEST_F(ValidateTest, RefusesBackwardTensorsGivenToAForwardKernel) {
  fa4_serving_args serving = servingArgs(args);
  serving.dk = fakeTensor(11 * kRegion, FA4_DTYPE_BF16, {2, 203, 8, 128});
  try {
    validateArgs(manifest, serving);
    ADD_FAILURE() << "accepted";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "tensor 'dk': given but the kernel does not "
                               "take it; pass NULL");
  }
}

TEST_F(ValidateTest, RefusesWrongDtype) {
  args.k.dtype = FA4_DTYPE_F16;
  EXPECT_EQ(refusal(), "tensor 'k': dtype is f16 but the kernel expects bf16");
}

TEST_F(ValidateTest, RefusesWrongRank) {
  args.lse.rank = 4;
  EXPECT_EQ(refusal(), "tensor 'lse': rank is 4 but the kernel expects rank 3 "
                       "(shape [b, 32, sq])");
}

TEST_F(ValidateTest, RefusesWrongStaticDim) {
  args.q.shape[2] = 16;
  EXPECT_EQ(refusal(), "tensor 'q': dim 2 is 16 but the kernel expects 32");
}

TEST_F(ValidateTest, RefusesEmptyDim) {
  args.q.shape[1] = 0;
  EXPECT_EQ(refusal(), "tensor 'q': dim 1 (sq) is 0; every dim must be >= 1");
}

TEST_F(ValidateTest, RefusesDisagreeingSymbols) {
  args.k.shape[0] = 3;
  EXPECT_EQ(refusal(), "tensor 'k': dim 0 (b) is 3 but tensor 'q' bound b = 2");
  args = goodArgs();
  args.v.shape[1] = 200;
  EXPECT_EQ(refusal(),
            "tensor 'v': dim 1 (skv) is 200 but tensor 'k' bound skv = 203");
  args = goodArgs();
  args.lse.shape[2] = 112;
  EXPECT_EQ(refusal(),
            "tensor 'lse': dim 2 (sq) is 112 but tensor 'q' bound sq = 113");
}

TEST_F(ValidateTest, RefusesSizesOtherThanCompiled) {
  manifest.problem.seqKV = 256;
  EXPECT_EQ(refusal(), "tensor 'k': dim 1 (skv) is 203 but the kernel was "
                       "compiled for skv = 256");
}

TEST_F(ValidateTest, RefusesNonUnitLastStride) {
  args.v.strides[3] = 2;
  EXPECT_EQ(refusal(), "tensor 'v': dim 3 stride is 2 but the last dim must "
                       "have unit stride (stride 1)");
}

TEST_F(ValidateTest, RefusesNegativeStride) {
  args.q.strides[0] = -args.q.strides[0];
  EXPECT_EQ(refusal(), "tensor 'q': dim 0 (b) stride is -462848; strides must "
                       "be non-negative");
}

TEST_F(ValidateTest, RefusesUnalignedStride) {
  args.k.strides[1] = 1001;
  EXPECT_EQ(refusal(), "tensor 'k': dim 1 (skv) stride is 1001 elements = "
                       "2002 bytes, not a multiple of 16 bytes (TMA requires "
                       "16-byte-aligned strides)");
  args = goodArgs();
  args.k.strides[2] = 130; // 260 bytes: the k rule is 16 even though o's is 4
  args.k.strides[1] = 8 * 130;
  args.k.strides[0] = 203 * 8 * 130;
  EXPECT_EQ(refusal(), "tensor 'k': dim 2 stride is 130 elements = 260 "
                       "bytes, not a multiple of 16 bytes (TMA requires "
                       "16-byte-aligned strides)");
}

/// Contiguous torch LSE [b, hq, sq] with an odd sq: rows of 113 f32.
void makeContiguousLse(fa4_tensor &lse) {
  lse.strides[2] = 1;
  lse.strides[1] = 113;
  lse.strides[0] = 32 * 113;
}

TEST_F(ValidateTest, AcceptsContiguousLseUnder4ByteRule) {
  // Version 2: lse is written with 4-byte stores, so any f32 stride will do.
  makeContiguousLse(args.lse);
  EXPECT_EQ(refusal(), "accepted");
  args.lse.data = fakeAddress(5, 4);
  EXPECT_EQ(refusal(), "accepted");
}

TEST_F(ValidateTest, RefusesContiguousLseUnderVersion1) {
  // Version 1's global 16-byte rules apply to lse too; no tensor map reads
  // it, so the kernel (not TMA) is named.
  manifest = goodManifestV1();
  EXPECT_EQ(refusal(), "accepted");
  makeContiguousLse(args.lse);
  EXPECT_EQ(refusal(), "tensor 'lse': dim 1 stride is 113 elements = 452 "
                       "bytes, not a multiple of 16 bytes (the kernel "
                       "requires 16-byte-aligned strides)");
  args = goodArgs();
  args.lse.data = fakeAddress(5, 4);
  EXPECT_EQ(refusal(), "tensor 'lse': base address 0x5000000004 is not 16-byte "
                       "aligned (the kernel requires 16-byte alignment)");
}

TEST_F(ValidateTest, UsesEachTensorsOwnRule) {
  manifest = parseManifest(manifestWith(R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4})",
                                        R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 8, "stride_bytes": 8})"),
                           "");
  makeContiguousLse(args.lse);
  EXPECT_EQ(refusal(), "tensor 'lse': dim 1 stride is 113 elements = 452 "
                       "bytes, not a multiple of 8 bytes (the kernel requires "
                       "8-byte-aligned strides)");
  // o: 4-byte rules (2 x 16-bit stores).
  manifest = goodManifest();
  args = goodArgs();
  args.o.strides[2] = 130; // 260 bytes
  args.o.strides[1] = 32 * 130;
  args.o.strides[0] = 113 * 32 * 130;
  EXPECT_EQ(refusal(), "accepted");
  args.o.strides[2] = 129; // 258 bytes
  args.o.strides[1] = 32 * 129;
  args.o.strides[0] = 113 * 32 * 129;
  EXPECT_EQ(refusal(), "tensor 'o': dim 2 stride is 129 elements = 258 "
                       "bytes, not a multiple of 4 bytes (the kernel requires "
                       "4-byte-aligned strides)");
  args = goodArgs();
  args.o.data = fakeAddress(4, 4);
  EXPECT_EQ(refusal(), "accepted");
  args.o.data = fakeAddress(4, 2);
  EXPECT_EQ(refusal(), "tensor 'o': base address 0x4000000002 is not 4-byte "
                       "aligned (the kernel requires 4-byte alignment)");
}

TEST_F(ValidateTest, RefusesQWithA4ByteAlignedBase) {
  // A base that suits o and lse is still refused for q: a tensor map reads it.
  args.q.data = fakeAddress(1, 4);
  EXPECT_EQ(refusal(), "tensor 'q': base address 0x1000000004 is not 16-byte "
                       "aligned (TMA requires 16-byte alignment)");
}

TEST_F(ValidateTest, RefusesOverlappingOutput) {
  args.o.strides[1] = 128; // every (i, h) on one row
  EXPECT_EQ(refusal(), "tensor 'o': dim 2 stride 128 overlaps dim 1 (sq) "
                       "(113 x stride 128 = 14464 elements); output tensors "
                       "must not overlap themselves");
  args = goodArgs();
  args.o.strides[0] = 0;
  EXPECT_EQ(refusal(), "tensor 'o': dim 0 (b) stride is 0 with extent 2; "
                       "output tensors must not overlap themselves");
  args = goodArgs();
  args.lse.strides[1] = 64; // heads closer than sq rows
  EXPECT_EQ(refusal(), "tensor 'lse': dim 1 stride 64 overlaps dim 2 (sq) "
                       "(113 x stride 1 = 113 elements); output tensors must "
                       "not overlap themselves");
}

TEST_F(ValidateTest, AcceptsBroadcastInput) {
  args.k.strides[0] = 0; // every batch reads the same K
  EXPECT_EQ(refusal(), "accepted");
}

/// A user-given enum is range-checked before any use.
TEST_F(ValidateTest, RefusesADtypeThatIsNoEnumerator) {
  // As a C caller would store it: any int fits the field.
  for (int32_t bits : {99, -1}) {
    args = goodArgs();
    std::memcpy(&args.q.dtype, &bits, sizeof(bits));
    EXPECT_EQ(refusal(), "tensor 'q': dtype is " + std::to_string(bits) +
                             ", which is no fa4_dtype (0 bf16, 1 f16, 2 "
                             "f32, 3 i32, 4 e4m3); the kernel expects bf16");
  }
}

/// The kernels compute positions in 32 bits (fa4/Limits.h).
TEST_F(ValidateTest, RefusesSizesPastTheLimits) {
  args.q.shape[1] = int64_t(1) << 31;
  EXPECT_EQ(refusal(), "tensor 'q': dim 1 (sq) is 2147483648; at most "
                       "1073741823 (fa4::limits::kMaxSeqLen)");
  args = goodArgs();
  args.k.shape[1] = int64_t(1) << 30;
  EXPECT_EQ(refusal(), "tensor 'k': dim 1 (skv) is 1073741824; at most "
                       "1073741823 (fa4::limits::kMaxSeqLen)");
  args = goodArgs();
  args.q.shape[0] = int64_t(1) << 40;
  EXPECT_EQ(refusal(), "tensor 'q': dim 0 (b) is 1099511627776; at most "
                       "1073741823 (fa4::limits::kMaxBatch)");
  // Heads given by their symbol.
  manifest = parseManifest(manifestWith(R"(["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16)",
                                        R"(["b", "sq", "hq", 128],
     "alignment": {"base_bytes": 16)"),
                           "");
  args = goodArgs();
  args.q.shape[2] = 5000;
  EXPECT_EQ(refusal(), "tensor 'q': dim 2 (hq) is 5000; at most 4096 "
                       "(fa4::limits::kMaxHeads)");
}

/// Every byte offset in checked 64-bit arithmetic: a wrapped one would let
/// rows alias.
TEST_F(ValidateTest, RefusesStridesThatOverflowByteOffsets) {
  args.o.strides[1] = int64_t(1) << 62;
  EXPECT_EQ(refusal(), "tensor 'o': dim 1 (sq) stride is 4611686018427387904 "
                       "elements; at most 2305843009213693952 (2^62 bytes, "
                       "fa4::limits::kMaxTensorBytes)");
  // A stride within the limit whose extent takes the tensor past it.
  args = goodArgs();
  args.o.strides[0] = int64_t(1) << 61;
  EXPECT_EQ(refusal(), "tensor 'o': shape [2, 113, 32, 128] with strides "
                       "[2305843009213693952, 4096, 128, 1] spans "
                       "4611686018428313600 bytes; at most 2^62 "
                       "(fa4::limits::kMaxTensorBytes)");
  // One whose extent x stride wraps 64 bits.
  args = goodArgs();
  args.k.strides[1] = int64_t(1) << 60;
  EXPECT_EQ(refusal(), "tensor 'k': shape [2, 203, 8, 128] with strides "
                       "[207872, 1152921504606846976, 128, 1] spans more "
                       "than 2^63 bytes; at most 2^62 "
                       "(fa4::limits::kMaxTensorBytes)");
}

TEST_F(ValidateTest, RefusesATensorThatWrapsTheAddressSpace) {
  args.q.data = reinterpret_cast<void *>((UINTPTR_MAX - 63) & ~uintptr_t(15));
  EXPECT_EQ(refusal(), "tensor 'q': base address 0xffffffffffffffc0 + "
                       "1851392 bytes wraps around the 64-bit address space");
}

/// Outputs share no byte with inputs or with each other; inputs may share.
TEST_F(ValidateTest, RefusesOutputsThatAliasOtherTensors) {
  args.o.data = args.q.data;
  EXPECT_EQ(refusal(),
            "tensor 'o' overlaps tensor 'q': bytes [0x1000000000, "
            "0x10001c4000) and [0x1000000000, 0x10001c4000); an output may "
            "share no byte with another tensor");
  args = goodArgs();
  args.lse.data = fakeAddress(4, 4096); // inside o
  EXPECT_EQ(refusal(),
            "tensor 'o' overlaps tensor 'lse': bytes [0x4000000000, "
            "0x40001c4000) and [0x4000001000, 0x40000083f4); an output may "
            "share no byte with another tensor");
  // o from v's last 16 bytes on: v is 2 x 203 x 8 x 128 bf16 = 0xcb000.
  args = goodArgs();
  args.o.data = fakeAddress(3, 0xcb000 - 16);
  EXPECT_EQ(refusal(),
            "tensor 'o' overlaps tensor 'v': bytes [0x30000caff0, "
            "0x300028eff0) and [0x3000000000, 0x30000cb000); an output may "
            "share no byte with another tensor");
  // Right after v's last byte.
  args.o.data = fakeAddress(3, 0xcb000);
  EXPECT_EQ(refusal(), "accepted");
}

TEST_F(ValidateTest, AcceptsInputsSharingOneBuffer) {
  // Self-attention on one buffer: q == k == v.
  args.k.data = args.q.data;
  args.v.data = args.q.data;
  EXPECT_EQ(refusal(), "accepted");
}

TEST_F(ValidateTest, RefusesMisalignedBase) {
  args.v.data = fakeAddress(3, 8);
  EXPECT_EQ(refusal(), "tensor 'v': base address 0x3000000008 is not 16-byte "
                       "aligned (TMA requires 16-byte alignment)");
}

/// A launch record's run checks only the data pointers, against the spans
/// its full validation kept; the refusals read as validateArgs' do.
class DataPointerTest : public ValidateTest {
protected:
  std::vector<uint64_t> spans;
  void SetUp() override { validateArgs(manifest, args, &spans); }

  std::string pointerRefusal() {
    try {
      checkDataPointers(manifest, spans, args);
    } catch (const Error &error) {
      EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
      return error.what();
    }
    return "accepted";
  }
};

TEST_F(DataPointerTest, KeepsEachTensorsSpan) {
  // q: 2 x 113 x 32 x 128 bf16; lse: 2 x 32 x 113 f32 (the test's strides).
  ASSERT_EQ(spans.size(), manifest.tensors.size());
  EXPECT_EQ(spans[0], 0x1c4000u);
  EXPECT_EQ(pointerRefusal(), "accepted");
}

TEST_F(DataPointerTest, RefusesWhatValidationRefuses) {
  // Each pointer-only refusal matches the full validation's, word for word.
  auto both = [&](const char *expected) {
    EXPECT_EQ(pointerRefusal(), expected);
    EXPECT_EQ(refusal(), expected);
    args = goodArgs();
  };
  args.v.data = nullptr;
  both("tensor 'v': missing (data is NULL) but the kernel requires it");
  args.v.data = fakeAddress(3, 8);
  both("tensor 'v': base address 0x3000000008 is not 16-byte aligned (TMA "
       "requires 16-byte alignment)");
  args.o.data = args.q.data;
  both("tensor 'o' overlaps tensor 'q': bytes [0x1000000000, 0x10001c4000) "
       "and [0x1000000000, 0x10001c4000); an output may share no byte with "
       "another tensor");
  args.q.data = reinterpret_cast<void *>((UINTPTR_MAX - 63) & ~uintptr_t(15));
  both("tensor 'q': base address 0xffffffffffffffc0 + 1851392 bytes wraps "
       "around the 64-bit address space");
  // Inputs may still share one buffer.
  args.k.data = args.q.data;
  args.v.data = args.q.data;
  both("accepted");
}

TEST_F(DataPointerTest, RefusesLseTheKernelDoesNotWrite) {
  manifest = parseManifest(manifestWithoutLse(), "");
  args.lse = {};
  validateArgs(manifest, args, &spans);
  args.lse.data = fakeAddress(4, 0);
  EXPECT_EQ(pointerRefusal(),
            "tensor 'lse': given but the kernel was compiled without LSE "
            "(has_lse = false); pass lse.data = NULL");
}

} // namespace
