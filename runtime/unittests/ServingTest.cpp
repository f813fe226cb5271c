//===- ServingTest.cpp - Version 12: packed sequences and paged caches ----===//
//
// inputs/serving-varlen.json and serving-paged.json are what fa4-compile
// wrote for test/Pipelines/serving-reference.mlir's two ops (the
// reference kernel, sm_90a) when its paged op had pages of 64 keys: a
// packed varlen attention of 8 sequences (hq 32, hkv 8, d 128) and a paged
// decode over pages of 64 keys. serving-paged-decode.json is the Hopper
// kernel's manifest of that paged decode (fused GQA, a split at launch).
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "LaunchPlan.h"
#include "TestArgs.h"
#include "TestManifest.h"
#include "Validate.h"

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

std::string varlenJson() { return readInput("serving-varlen.json"); }
std::string pagedJson() { return readInput("serving-paged.json"); }
std::string pagedDecodeJson() { return readInput("serving-paged-decode.json"); }

std::string manifestError(const std::string &json) {
  try {
    parseManifest(json, "/kernels", "manifest");
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_MANIFEST);
    return error.what();
  }
  return "no error";
}

fa4_tensor indexTensor(uintptr_t address, std::vector<int64_t> shape) {
  fa4_tensor tensor = fakeTensor(address, FA4_DTYPE_I32, shape);
  // fakeTensor pads with 2-byte elements in mind: i32 rows are contiguous.
  if (tensor.rank == 2)
    tensor.strides[0] = shape[1];
  return tensor;
}

/// Packed tokens: tq queries, tk keys, b sequences.
fa4_serving_args varlenArgs(int64_t b = 8, int64_t tq = 300, int64_t tk = 900) {
  fa4_serving_args args = {};
  args.attention.q = fakeTensor(1 * kRegion, FA4_DTYPE_BF16, {tq, 32, 128});
  args.attention.k = fakeTensor(2 * kRegion, FA4_DTYPE_BF16, {tk, 8, 128});
  args.attention.v = fakeTensor(3 * kRegion, FA4_DTYPE_BF16, {tk, 8, 128});
  args.attention.o = fakeTensor(4 * kRegion, FA4_DTYPE_BF16, {tq, 32, 128});
  args.cu_seqlens_q = indexTensor(6 * kRegion, {b + 1});
  args.cu_seqlens_k = indexTensor(7 * kRegion, {b + 1});
  args.max_seqlen_q = 77;
  return args;
}

fa4_serving_args pagedArgs(int64_t pages = 40, int64_t maxPages = 5) {
  fa4_serving_args args = {};
  args.attention.q = fakeTensor(1 * kRegion, FA4_DTYPE_BF16, {8, 1, 32, 128});
  args.attention.k =
      fakeTensor(2 * kRegion, FA4_DTYPE_BF16, {pages, 64, 8, 128});
  args.attention.v =
      fakeTensor(3 * kRegion, FA4_DTYPE_BF16, {pages, 64, 8, 128});
  args.attention.o = fakeTensor(4 * kRegion, FA4_DTYPE_BF16, {8, 1, 32, 128});
  args.block_table = indexTensor(6 * kRegion, {8, maxPages});
  args.seqlens_k = indexTensor(7 * kRegion, {8});
  return args;
}

std::string refusal(const Manifest &manifest, const fa4_serving_args &args) {
  try {
    validateArgs(manifest, args);
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_VALIDATION);
    return error.what();
  }
  return "accepted";
}

TEST(ServingTest, ReadsBothForms) {
  Manifest varlen = parseManifest(varlenJson(), "/kernels");
  EXPECT_EQ(varlen.abiVersion, 12);
  EXPECT_EQ(varlen.problem.sequences, Sequences::Packed);
  EXPECT_TRUE(varlen.problem.packedQueries);
  ASSERT_NE(varlen.findTensor(TensorSlot::CuSeqlensK), nullptr);
  EXPECT_EQ(varlen.findTensor(TensorSlot::CuSeqlensK)->dtype, FA4_DTYPE_I32);
  Manifest paged = parseManifest(pagedJson(), "/kernels");
  EXPECT_EQ(paged.problem.sequences, Sequences::Paged);
  EXPECT_FALSE(paged.problem.packedQueries);
  EXPECT_EQ(paged.problem.pageSize, 64);
  EXPECT_EQ(paged.findTensor(TensorSlot::K)->name, "k_cache");
}

TEST(ServingTest, RefusesMalformedServingManifests) {
  EXPECT_EQ(manifestError(edited(varlenJson(), {{"\"fa4_abi_version\": 12",
                                                 "\"fa4_abi_version\": 11"}})),
            "manifest: problem.sequences: the serving forms need "
            "fa4_abi_version 12");
  EXPECT_EQ(
      manifestError(
          edited(pagedJson(), {{"\"name\": \"k_cache\"", "\"name\": \"k\""}})),
      "manifest: tensors[1].name: tensor \"k\" in a paged kernel; expected "
      "\"k_cache\" and \"v_cache\"");
  EXPECT_EQ(manifestError(edited(varlenJson(), {{"\"name\": \"cu_seqlens_k\"",
                                                 "\"name\": \"seqused_k\""}})),
            "manifest: tensors[4].shape[0]: expected \"b\" or 8 "
            "(problem.batch), got 9; tensor \"seqused_k\" is [b]");
  EXPECT_EQ(manifestError(
                edited(varlenJson(), {{"\"dtype\": \"i32\",\n      \"name\": "
                                       "\"cu_seqlens_q\"",
                                       "\"dtype\": \"f32\",\n      \"name\": "
                                       "\"cu_seqlens_q\""}})),
            "manifest: tensors[3].dtype: expected \"i32\" (index tensors are "
            "i32), got \"f32\"");
  EXPECT_EQ(
      manifestError(edited(varlenJson(), {{"\"packed_queries\": true",
                                           "\"packed_queries\": false"}})),
      "manifest: problem.packed_queries: packed sequences have packed "
      "queries; expected true");
}

TEST(ServingTest, BindsTheServingSizes) {
  Manifest varlen = parseManifest(varlenJson(), "/kernels");
  Bindings sizes = validateArgs(varlen, varlenArgs());
  EXPECT_EQ(sizes[Symbol::TokensQ], 300);
  EXPECT_EQ(sizes[Symbol::TokensK], 900);
  EXPECT_EQ(sizes[Symbol::MaxSeqQ], 77);
  EXPECT_EQ(sizes[Symbol::Batch], 8);
  Manifest paged = parseManifest(pagedJson(), "/kernels");
  Bindings pages = validateArgs(paged, pagedArgs());
  EXPECT_EQ(pages[Symbol::Pages], 40);
  EXPECT_EQ(pages[Symbol::MaxPages], 5);
  // The kernel's scalars read them.
  for (const Param &param : paged.params)
    if (const auto *scalar = std::get_if<ScalarParam>(&param);
        scalar && scalar->spelling == "max_pages")
      EXPECT_EQ(evaluateScalar(*scalar, paged, pages, pagedArgs()).i32, 5);
}

TEST(ServingTest, SizesAPagedSplitByTheBlockTableRow) {
  // The host reads no index tensor: a sequence holds at most max_pages x
  // page_size keys, which stand for Skv in the split rule. On 1024 SMs the
  // 64 work items (8 kv heads x 8 sequences) leave room for 16 partitions.
  Manifest decode = parseManifest(pagedDecodeJson(), "/kernels");
  ASSERT_TRUE(decode.splitAtLaunch);
  auto splits = [&](int64_t pages, int64_t maxPages, uint32_t numSMs) {
    Bindings sizes = validateArgs(decode, pagedArgs(pages, maxPages));
    bindSplits(decode, sizes, numSMs);
    EXPECT_EQ(evaluateGrid(decode.launch, sizes)[0], sizes[Symbol::Splits]);
    return sizes[Symbol::Splits];
  };
  // 5 pages of 64 keys: 5 tiles, one each (not the 40 pages of the cache).
  EXPECT_EQ(splits(40, 5, 1024), 5);
  // One page: one tile, one partition.
  EXPECT_EQ(splits(40, 1, 1024), 1);
  // 512 pages (32768 keys): 128 partitions of 256 keys, capped by the SMs.
  EXPECT_EQ(splits(4096, 512, 1024), 16);
  EXPECT_EQ(splits(4096, 512, 132), 2);
}

TEST(ServingTest, BindsTheBatchFromCuSeqlens) {
  // A dynamic batch: b comes from cu_seqlens' b + 1 entries.
  Manifest dynamic = parseManifest(
      edited(varlenJson(),
             {{"\"batch\": 8", "\"batch\": -1"},
              {"\"name\": \"cu_seqlens_q\",\n      \"role\": "
               "\"input\",\n      \"shape\": [\n        9",
               "\"name\": \"cu_seqlens_q\",\n      \"role\": "
               "\"input\",\n      \"shape\": [\n        \"b+1\""},
              {"\"name\": \"cu_seqlens_k\",\n      \"role\": "
               "\"input\",\n      \"shape\": [\n        9",
               "\"name\": \"cu_seqlens_k\",\n      \"role\": "
               "\"input\",\n      \"shape\": [\n        \"b+1\""}}),
      "/kernels");
  EXPECT_EQ(validateArgs(dynamic, varlenArgs(3))[Symbol::Batch], 3);
  EXPECT_EQ(refusal(dynamic, varlenArgs(0)),
            "cu_seqlens has 1 entries; at least 2 (one sequence and the "
            "total)");
  fa4_serving_args uneven = varlenArgs(3);
  uneven.cu_seqlens_k = indexTensor(7 * kRegion, {5});
  EXPECT_EQ(refusal(dynamic, uneven),
            "tensor 'cu_seqlens_k': dim 0 (b+1) is 5 but tensor "
            "'cu_seqlens_q' bound b+1 = 4");
}

TEST(ServingTest, RefusesBadServingArguments) {
  Manifest varlen = parseManifest(varlenJson(), "/kernels");
  fa4_serving_args args = varlenArgs();
  args.max_seqlen_q = 0;
  EXPECT_EQ(refusal(varlen, args),
            "max_seqlen_q is 0; the packed queries need the longest "
            "sequence's query rows, 1 to 1073741823 "
            "(fa4::limits::kMaxSeqLen)");
  args = varlenArgs();
  args.block_table = indexTensor(8 * kRegion, {8, 4});
  EXPECT_EQ(refusal(varlen, args),
            "tensor 'block_table': given but the kernel does not take it; "
            "pass NULL");
  args = varlenArgs();
  args.cu_seqlens_q.data = nullptr;
  EXPECT_EQ(refusal(varlen, args),
            "tensor 'cu_seqlens_q': missing (data is NULL) but the kernel "
            "requires it");
  Manifest paged = parseManifest(pagedJson(), "/kernels");
  fa4_serving_args wrongPage = pagedArgs();
  wrongPage.attention.k =
      fakeTensor(2 * kRegion, FA4_DTYPE_BF16, {40, 16, 8, 128});
  EXPECT_EQ(refusal(paged, wrongPage),
            "tensor 'k_cache': dim 1 is 16 but the kernel expects 64");
  // The dense entry points leave the index tensors out.
  EXPECT_EQ(refusal(paged, servingArgs(pagedArgs().attention)),
            "tensor 'block_table': missing (data is NULL) but the kernel "
            "requires it");
}

} // namespace
