//===- CAPITest.cpp - The C API on a machine without a GPU ----------------===//

#include "fa4-c/Runtime.h"

#include "Driver.h"
#include "Error.h"
#include "TestArgs.h"
#include "TestManifest.h"

#include <cstdlib>
#include <cstring>

using namespace fa4::rt;
using namespace fa4::rt::test;

namespace {

struct ModuleDeleter {
  void operator()(fa4_module *module) const { fa4_module_destroy(module); }
};
using ModulePtr = std::unique_ptr<fa4_module, ModuleDeleter>;

ModulePtr loadGood() {
  fa4_module *module = nullptr;
  EXPECT_EQ(fa4_module_load(FA4_TEST_INPUTS_DIR "/manifest.json", &module),
            FA4_SUCCESS)
      << fa4_last_error();
  return ModulePtr(module);
}

TEST(CAPITest, ReportsKernelInfo) {
  ModulePtr module = loadGood();
  fa4_kernel_info info;
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  EXPECT_STREQ(info.kernel_name, "fa4_attn_fwd_sm90a");
  EXPECT_STREQ(info.chip, "sm_90a");
  EXPECT_STREQ(info.binary_path,
               FA4_TEST_INPUTS_DIR "/fa4_attn_fwd_sm90a.cubin");
  EXPECT_EQ(info.dtype, FA4_DTYPE_BF16);
  EXPECT_EQ(info.num_q_heads, 32);
  EXPECT_EQ(info.num_kv_heads, 8);
  EXPECT_EQ(info.mask, FA4_MASK_CAUSAL);
  EXPECT_EQ(info.has_lse, 1);
  EXPECT_EQ(info.seq_q, -1);
  EXPECT_EQ(info.block[0], 384);
  EXPECT_EQ(info.cluster[2], 1);
  EXPECT_EQ(info.dynamic_smem_bytes, 200000);
  // The strictest tensor's: q, k, v (16) over o, lse (4).
  EXPECT_EQ(info.base_align_bytes, 16);
  EXPECT_EQ(info.stride_align_bytes, 16);
  EXPECT_EQ(info.decode_kernel_name, nullptr);
  EXPECT_EQ(info.decode_max_seq_q, 0);
}

TEST(CAPITest, DescribesTheDecodeVariant) {
  fa4_module *raw = nullptr;
  std::string json = decodeVariantManifestJson();
  ASSERT_EQ(fa4_module_load_string(json.c_str(), "/kernels", &raw), FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  fa4_kernel_info info;
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  EXPECT_STREQ(info.kernel_name, "fa4_attn_fwd_sm90a");
  EXPECT_STREQ(info.decode_kernel_name, "fa4_attn_fwd_decode_sm90a");
  EXPECT_EQ(info.decode_max_seq_q, 16);
}

TEST(CAPITest, TogglesTheProgrammaticLaunch) {
  fa4_module *raw = nullptr;
  std::string json = manifestWith(
      {{R"("fa4_abi_version": 2)", R"("fa4_abi_version": 4)"},
       {R"("dynamic_smem_bytes": 200000})",
        R"("dynamic_smem_bytes": 200000, "programmatic_dependent_launch": true})"}});
  ASSERT_EQ(fa4_module_load_string(json.c_str(), "/kernels", &raw), FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  fa4_kernel_info info;
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  // Off until asked for.
  EXPECT_EQ(info.programmatic_launch, 0);
  ASSERT_EQ(fa4_module_set_programmatic_launch(module.get(), 1), FA4_SUCCESS);
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.programmatic_launch, 1);
  ASSERT_EQ(fa4_module_set_programmatic_launch(module.get(), 0), FA4_SUCCESS);
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.programmatic_launch, 0);
  // A manifest that does not allow it stays plain whatever is asked.
  ModulePtr plain = loadGood();
  ASSERT_EQ(fa4_module_set_programmatic_launch(plain.get(), 1), FA4_SUCCESS);
  ASSERT_EQ(fa4_module_get_info(plain.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.programmatic_launch, 0);
  EXPECT_EQ(fa4_module_set_programmatic_launch(nullptr, 1),
            FA4_ERROR_INVALID_ARGUMENT);
}

TEST(CAPITest, CapsThePersistentGrid) {
  ModulePtr module = loadGood();
  EXPECT_EQ(fa4_module_set_persistent_ctas(module.get(), 5), FA4_SUCCESS);
  EXPECT_EQ(fa4_module_set_persistent_ctas(module.get(), 0), FA4_SUCCESS);
  EXPECT_EQ(fa4_module_set_persistent_ctas(module.get(), -1),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(),
               "max_ctas is -1; expected 0 (one CTA per SM) or a positive cap");
  EXPECT_EQ(fa4_module_set_persistent_ctas(nullptr, 5),
            FA4_ERROR_INVALID_ARGUMENT);
}

TEST(CAPITest, ReportsEachTensorsAlignment) {
  ModulePtr module = loadGood();
  int32_t base = 0, stride = 0;
  ASSERT_EQ(fa4_module_get_tensor_alignment(module.get(), "q", &base, &stride),
            FA4_SUCCESS);
  EXPECT_EQ(base, 16);
  EXPECT_EQ(stride, 16);
  ASSERT_EQ(
      fa4_module_get_tensor_alignment(module.get(), "lse", &base, &stride),
      FA4_SUCCESS);
  EXPECT_EQ(base, 4);
  EXPECT_EQ(stride, 4);
  EXPECT_EQ(fa4_module_get_tensor_alignment(module.get(), "x", &base, &stride),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "the kernel has no tensor 'x'");
  EXPECT_EQ(
      fa4_module_get_tensor_alignment(module.get(), "q", nullptr, &stride),
      FA4_ERROR_INVALID_ARGUMENT);

  // Version 1: the global rules for every tensor.
  fa4_module *v1 = nullptr;
  ASSERT_EQ(fa4_module_load(FA4_TEST_INPUTS_DIR "/manifest-v1.json", &v1),
            FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr owner(v1);
  ASSERT_EQ(fa4_module_get_tensor_alignment(v1, "lse", &base, &stride),
            FA4_SUCCESS);
  EXPECT_EQ(base, 16);
  EXPECT_EQ(stride, 16);

  // Stride rules that are not powers of two combine to their lcm.
  fa4_module *odd = nullptr;
  std::string json = manifestWith(R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 4})",
                                  R"(["b", 32, "sq"],
     "alignment": {"base_bytes": 4, "stride_bytes": 12})");
  ASSERT_EQ(fa4_module_load_string(json.c_str(), "", &odd), FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr oddOwner(odd);
  fa4_kernel_info info;
  ASSERT_EQ(fa4_module_get_info(odd, &info), FA4_SUCCESS);
  EXPECT_EQ(info.base_align_bytes, 16);
  EXPECT_EQ(info.stride_align_bytes, 48);
}

TEST(CAPITest, ReportsManifestErrors) {
  fa4_module *module = reinterpret_cast<fa4_module *>(1);
  EXPECT_EQ(fa4_module_load_string("{\"fa4_abi_version\": 17}", "", &module),
            FA4_ERROR_MANIFEST);
  EXPECT_STREQ(fa4_last_error(),
               "manifest: fa4_abi_version: unsupported "
               "version 17; this runtime reads versions 1 to 16");
  EXPECT_EQ(fa4_module_load("/nonexistent.json", &module), FA4_ERROR_MANIFEST);
  EXPECT_EQ(fa4_module_load(nullptr, &module), FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "manifest_path is NULL");
}

TEST(CAPITest, ValidatesWithoutAGpu) {
  ModulePtr module = loadGood();
  fa4_attention_args args = goodArgs();
  EXPECT_EQ(fa4_validate(module.get(), &args), FA4_SUCCESS);
  args.v.data = fakeAddress(3, 8);
  EXPECT_EQ(fa4_validate(module.get(), &args), FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), "tensor 'v': base address 0x3000000008 is not "
                                 "16-byte aligned (TMA requires 16-byte "
                                 "alignment)");
  // fa4_launch validates before it opens the driver.
  EXPECT_EQ(fa4_launch(module.get(), &args, nullptr), FA4_ERROR_VALIDATION);
  EXPECT_EQ(fa4_validate(module.get(), nullptr), FA4_ERROR_INVALID_ARGUMENT);
}

TEST(CAPITest, LaunchRecordsValidateBeforeTheDriverOpens) {
  ModulePtr module = loadGood();
  fa4_attention_args args = goodArgs();
  fa4_launch_record *record = reinterpret_cast<fa4_launch_record *>(1);
  args.k.strides[2] = 129;
  EXPECT_EQ(fa4_launch_record_create(module.get(), &args, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'k': dim 2 stride is 129 elements = 258 bytes, "
               "not a multiple of 16 bytes (TMA requires 16-byte-aligned "
               "strides)");
  EXPECT_EQ(record, nullptr);
  EXPECT_EQ(fa4_launch_record_create(module.get(), nullptr, &record),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fa4_launch_record_create(module.get(), &args, nullptr),
            FA4_ERROR_INVALID_ARGUMENT);
  void *data[5] = {};
  EXPECT_EQ(fa4_launch_record_run(nullptr, data, nullptr, nullptr),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "record is NULL");
  uint64_t bytes = 0;
  EXPECT_EQ(fa4_launch_record_workspace_bytes(nullptr, &bytes),
            FA4_ERROR_INVALID_ARGUMENT);
  fa4_launch_record_destroy(nullptr); // a no-op, as free(NULL)
}

TEST(CAPITest, ServingLaunchRecordsValidateBeforeTheDriverOpens) {
  // A kernel with sinks: a record of its serving arguments is validated
  // with the sinks (the plain record refuses it: it cannot name them).
  fa4_module *raw = nullptr;
  ASSERT_EQ(
      fa4_module_load_string(sinksManifestJson().c_str(), "/kernels", &raw),
      FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  fa4_launch_record *record = reinterpret_cast<fa4_launch_record *>(1);
  fa4_attention_args plain = goodArgs();
  EXPECT_EQ(fa4_launch_record_create(module.get(), &plain, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'sinks': missing (data is NULL) but the kernel "
               "requires it (the kernel has attention sinks: launch it "
               "through fa4_launch_serving with args.sinks)");
  EXPECT_EQ(record, nullptr);
  fa4_serving_args serving = {};
  serving.attention = plain;
  serving.sinks = fakeTensor(6 * kRegion, FA4_DTYPE_BF16, {32});
  EXPECT_EQ(fa4_launch_record_create_serving(module.get(), &serving, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'sinks': dtype is bf16 but the kernel expects f32");
  EXPECT_EQ(record, nullptr);
  EXPECT_EQ(fa4_launch_record_create_serving(module.get(), nullptr, &record),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fa4_launch_record_create_serving(module.get(), &serving, nullptr),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fa4_launch_record_run_serving(nullptr, &serving, nullptr, nullptr),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "record is NULL");
}

/// Version 15: an FP8 kernel's info, and its descales, which only the
/// serving arguments name: fa4_launch and fa4_launch_record_create refuse
/// it before the driver opens, saying how to launch it.
TEST(CAPITest, ReportsAndLaunchesFp8KernelsThroughTheServingArguments) {
  ModulePtr plain = loadGood();
  fa4_kernel_info info;
  ASSERT_EQ(fa4_module_get_info(plain.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.output_dtype, FA4_DTYPE_BF16);
  EXPECT_EQ(info.q_descale, 0);
  EXPECT_EQ(info.k_descale, 0);
  EXPECT_EQ(info.v_descale, 0);

  fa4_module *raw = nullptr;
  std::string json = fp8ManifestJson("tensor", "", "batch_head");
  ASSERT_EQ(fa4_module_load_string(json.c_str(), "/kernels", &raw), FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.dtype, FA4_DTYPE_E4M3);
  EXPECT_EQ(info.output_dtype, FA4_DTYPE_BF16);
  EXPECT_EQ(info.q_descale, 1);
  EXPECT_EQ(info.k_descale, 0);
  EXPECT_EQ(info.v_descale, 2);
  int32_t base = 0, stride = 0;
  ASSERT_EQ(fa4_module_get_tensor_alignment(module.get(), "v_descale", &base,
                                            &stride),
            FA4_SUCCESS);
  EXPECT_EQ(base, 4);
  EXPECT_EQ(stride, 4);

  fa4_serving_args serving = goodFp8Args("tensor", "", "batch_head");
  EXPECT_EQ(fa4_validate_serving(module.get(), &serving), FA4_SUCCESS)
      << fa4_last_error();
  const char *refusal =
      "tensor 'q_descale': missing (data is NULL) but the kernel requires it "
      "(the kernel takes FP8 descales: launch it through fa4_launch_serving "
      "with args.q_descale)";
  EXPECT_EQ(fa4_validate(module.get(), &serving.attention),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), refusal);
  EXPECT_EQ(fa4_launch(module.get(), &serving.attention, nullptr),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), refusal);
  fa4_launch_record *record = reinterpret_cast<fa4_launch_record *>(1);
  EXPECT_EQ(fa4_launch_record_create(module.get(), &serving.attention, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), refusal);
  EXPECT_EQ(record, nullptr);
  // The serving launch validates the descales before the driver opens.
  fa4_serving_args wrong = serving;
  wrong.k_descale = fakeTensor(7 * kRegion, FA4_DTYPE_F32, {});
  EXPECT_EQ(fa4_launch_serving(module.get(), &wrong, nullptr),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), "tensor 'k_descale': given but the kernel "
                                 "does not take it; pass NULL");
  wrong = serving;
  wrong.v_descale = fakeTensor(8 * kRegion, FA4_DTYPE_F32, {2, 8, 1});
  EXPECT_EQ(fa4_launch_record_create_serving(module.get(), &wrong, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), "tensor 'v_descale': rank is 3 but the "
                                 "kernel expects rank 2 (shape [b, 8])");
  EXPECT_EQ(record, nullptr);
}

/// Version 16: a backward kernel says so in fa4_kernel_info, and only the
/// serving arguments name its dout, dq, dk and dv: fa4_validate, fa4_launch
/// and fa4_launch_record_create refuse it by name before the driver opens.
TEST(CAPITest, ReportsAndValidatesBackwardKernelsThroughTheServingArguments) {
  ModulePtr plain = loadGood();
  fa4_kernel_info info;
  ASSERT_EQ(fa4_module_get_info(plain.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.is_backward, 0);

  fa4_module *raw = nullptr;
  ASSERT_EQ(
      fa4_module_load_string(backwardManifestJson().c_str(), "/kernels", &raw),
      FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  ASSERT_EQ(fa4_module_get_info(module.get(), &info), FA4_SUCCESS);
  EXPECT_EQ(info.is_backward, 1);
  EXPECT_EQ(info.has_lse, 1);
  EXPECT_EQ(info.qk_depth, 64);
  EXPECT_EQ(info.ov_depth, 32);
  int32_t base = 0, stride = 0;
  ASSERT_EQ(
      fa4_module_get_tensor_alignment(module.get(), "dout", &base, &stride),
      FA4_SUCCESS);
  EXPECT_EQ(base, 2);
  EXPECT_EQ(stride, 2);

  fa4_serving_args serving = goodBackwardArgs();
  EXPECT_EQ(fa4_validate_serving(module.get(), &serving), FA4_SUCCESS)
      << fa4_last_error();
  const char *refusal =
      "the kernel is a backward pass (problem.pass \"backward\"), whose dout, "
      "dq, dk and dv fa4_attention_args cannot name: validate and launch it "
      "through fa4_validate_serving and fa4_launch_serving (or "
      "fa4_launch_record_create_serving)";
  EXPECT_EQ(fa4_validate(module.get(), &serving.attention),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), refusal);
  EXPECT_EQ(fa4_launch(module.get(), &serving.attention, nullptr),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), refusal);
  fa4_launch_record *record = reinterpret_cast<fa4_launch_record *>(1);
  EXPECT_EQ(fa4_launch_record_create(module.get(), &serving.attention, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(), refusal);
  EXPECT_EQ(record, nullptr);
  // NULL arguments are still refused as such.
  EXPECT_EQ(fa4_validate(nullptr, &serving.attention),
            FA4_ERROR_INVALID_ARGUMENT);
  // The serving entry points validate the gradients before the driver
  // opens.
  fa4_serving_args wrong = serving;
  wrong.dv.dtype = FA4_DTYPE_F32;
  EXPECT_EQ(fa4_launch_serving(module.get(), &wrong, nullptr),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'dv': dtype is f32 but the kernel expects bf16");
  wrong = serving;
  wrong.dq.data = wrong.dk.data;
  EXPECT_EQ(fa4_launch_record_create_serving(module.get(), &wrong, &record),
            FA4_ERROR_VALIDATION);
  EXPECT_EQ(std::string(fa4_last_error())
                .rfind("tensor 'dq' overlaps tensor "
                       "'dk'",
                       0),
            0u)
      << fa4_last_error();
  EXPECT_EQ(record, nullptr);
  uint64_t bytes = 1;
  wrong = serving;
  wrong.dout.data = nullptr;
  EXPECT_EQ(fa4_serving_workspace_bytes(module.get(), &wrong, &bytes),
            FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'dout': missing (data is NULL) but the kernel requires "
               "it (a backward kernel: launch it through fa4_launch_serving "
               "with args.dout, args.dq, args.dk and args.dv)");
  // A forward kernel is given none of them.
  fa4_serving_args forward = {};
  forward.attention = goodArgs();
  forward.dq = serving.dq;
  EXPECT_EQ(fa4_validate_serving(plain.get(), &forward), FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'dq': given but the kernel does not take it; pass NULL");
}

TEST(CAPITest, ValidatesByTheKernelThatRuns) {
  // A decode variant whose O wants 16-byte alignment where the kernel's
  // takes 4: at decode shapes its rule applies, at prefill shapes the
  // kernel's, in fa4_validate and in fa4_launch alike.
  fa4_module *raw = nullptr;
  std::string json = decodeVariantManifestJson(
      {{R"("name": "o", "role": "output", "dtype": "bf16", "shape": ["b", "sq", 32, 128],
     "alignment": {"base_bytes": 4, "stride_bytes": 4}})",
        R"("name": "o", "role": "output", "dtype": "bf16", "shape": ["b", "sq", 32, 128],
     "alignment": {"base_bytes": 16, "stride_bytes": 4}})"}});
  ASSERT_EQ(fa4_module_load_string(json.c_str(), "/kernels", &raw), FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  fa4_attention_args prefill = goodArgs(2, 113, 203);
  prefill.o.data = fakeAddress(4, 4);
  EXPECT_EQ(fa4_validate(module.get(), &prefill), FA4_SUCCESS)
      << fa4_last_error();
  fa4_attention_args decode = goodArgs(2, 16, 203);
  decode.o.data = fakeAddress(4, 4);
  EXPECT_EQ(fa4_validate(module.get(), &decode), FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'o': base address 0x4000000004 is not 16-byte aligned "
               "(the kernel requires 16-byte alignment)");
  // fa4_launch refuses it the same way, before it opens the driver.
  EXPECT_EQ(fa4_launch(module.get(), &decode, nullptr), FA4_ERROR_VALIDATION);
}

TEST(CAPITest, NamesStatusesAndDtypes) {
  EXPECT_STREQ(fa4_status_name(FA4_ERROR_DRIVER_NOT_FOUND),
               "FA4_ERROR_DRIVER_NOT_FOUND");
  EXPECT_STREQ(fa4_dtype_name(FA4_DTYPE_F16), "f16");
  EXPECT_EQ(fa4_dtype_size(FA4_DTYPE_F32), 4u);
  EXPECT_EQ(fa4_dtype_size(FA4_DTYPE_BF16), 2u);
  EXPECT_STREQ(fa4_dtype_name(FA4_DTYPE_E4M3), "e4m3");
  EXPECT_EQ(fa4_dtype_size(FA4_DTYPE_E4M3), 1u);
}

// CCallers.c: the C API called from C, with enums holding any int.
extern "C" const char *fa4TestDtypeName(int32_t bits);
extern "C" size_t fa4TestDtypeSize(int32_t bits);
extern "C" const char *fa4TestStatusName(int32_t bits);

TEST(CAPITest, RefusesEnumsOutOfRange) {
  for (int32_t bits : {99, -1, 5}) {
    EXPECT_STREQ(fa4TestDtypeName(bits), "unknown fa4_dtype");
    EXPECT_EQ(fa4TestDtypeSize(bits), 0u);
  }
  EXPECT_STREQ(fa4TestDtypeName(FA4_DTYPE_F32), "f32");
  for (int32_t bits : {99, -1, 8})
    EXPECT_STREQ(fa4TestStatusName(bits), "unknown fa4_status");
  EXPECT_STREQ(fa4TestStatusName(FA4_ERROR_IO), "FA4_ERROR_IO");
  ModulePtr module = loadGood();
  fa4_attention_args args = goodArgs();
  // Stored as a C caller may: any int fits the field.
  int32_t bits = 99;
  std::memcpy(&args.v.dtype, &bits, sizeof(bits));
  EXPECT_EQ(fa4_validate(module.get(), &args), FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "tensor 'v': dtype is 99, which is no fa4_dtype (0 bf16, 1 "
               "f16, 2 f32, 3 i32, 4 e4m3); the kernel expects bf16");
}

TEST(CAPITest, RefusesAManifestWhoseBinaryLeavesItsDirectory) {
  fa4_module *module = nullptr;
  std::string json = manifestWith(R"("file": "fa4_attn_fwd_sm90a.cubin")",
                                  R"("file": "../../etc/passwd")");
  EXPECT_EQ(fa4_module_load_string(json.c_str(), "/kernels", &module),
            FA4_ERROR_MANIFEST);
  EXPECT_STREQ(fa4_last_error(),
               "manifest: binary.file: \"../../etc/passwd\" contains '/'; "
               "expected a plain file name in the manifest's directory (no "
               "'/', not \".\" or \"..\", no control characters, at most "
               "255 bytes)");
  EXPECT_EQ(module, nullptr);
}

TEST(DriverTest, MissingLibraryIsAnError) {
  try {
    openDriver("/nonexistent/libcuda.so.1");
    FAIL() << "expected an error";
  } catch (const Error &error) {
    EXPECT_EQ(error.status, FA4_ERROR_DRIVER_NOT_FOUND);
    EXPECT_EQ(
        std::string(error.what())
            .rfind("CUDA driver (/nonexistent/libcuda.so.1) not found: ", 0),
        0u)
        << error.what();
  }
}

TEST(DriverTest, LaunchWithoutDriverFailsCleanly) {
  // The process-wide driver honours FA4_CUDA_DRIVER_PATH; no other test
  // opens it, so this is its first use.
  setenv("FA4_CUDA_DRIVER_PATH", "/nonexistent/libcuda.so.1", 1);
  ModulePtr module = loadGood();
  fa4_attention_args args = goodArgs();
  EXPECT_EQ(fa4_launch(module.get(), &args, nullptr),
            FA4_ERROR_DRIVER_NOT_FOUND);
  EXPECT_EQ(
      std::string(fa4_last_error())
          .rfind("CUDA driver (/nonexistent/libcuda.so.1) not found: ", 0),
      0u)
      << fa4_last_error();
  void *pointer = nullptr;
  EXPECT_EQ(fa4_device_alloc(16, &pointer), FA4_ERROR_DRIVER_NOT_FOUND);
  EXPECT_EQ(fa4_stream_create(&pointer), FA4_ERROR_DRIVER_NOT_FOUND);
  unsetenv("FA4_CUDA_DRIVER_PATH");
}

TEST(CAPITest, ValidatesAWorkspaceSplitKWithoutAGpu) {
  // A version 3 manifest loads and validates like any other; a workspace
  // whose size overflows is refused before the driver opens.
  fa4_module *raw = nullptr;
  ASSERT_EQ(
      fa4_module_load_string(workspaceManifestJson().c_str(), "/kernels", &raw),
      FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr module(raw);
  fa4_attention_args args = goodArgs();
  EXPECT_EQ(fa4_validate(module.get(), &args), FA4_SUCCESS) << fa4_last_error();
  std::string huge = edited(
      workspaceManifestJson(),
      {{"[1032, \"b\", \"sq\", \"hq\"]", "[2147483647, 2147483647, \"sq\"]"}});
  ASSERT_EQ(fa4_module_load_string(huge.c_str(), "/kernels", &raw), FA4_SUCCESS)
      << fa4_last_error();
  ModulePtr hugeModule(raw);
  EXPECT_EQ(fa4_launch(hugeModule.get(), &args, nullptr), FA4_ERROR_VALIDATION);
  EXPECT_STREQ(fa4_last_error(),
               "the split-K workspace for these sizes exceeds 1 TiB");
}

extern "C" const char *fa4TestNullsFromC(void);

TEST(CAPITest, RefusesNullHandlesBeforeTheDriver) {
  // Each check comes before the driver opens, so none of these needs a GPU
  // (and none opens the driver that DriverTest expects unopened).
  const char *refusedByAll = fa4TestNullsFromC();
  EXPECT_EQ(refusedByAll, nullptr) << refusedByAll << ": not refused";
  EXPECT_EQ(fa4_event_record(nullptr, nullptr), FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "event is NULL");
  float ms = 0;
  char host[4] = {};
  auto *dummy = reinterpret_cast<fa4_event *>(host); // never dereferenced
  EXPECT_EQ(fa4_event_elapsed_ms(nullptr, dummy, &ms),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "start is NULL");
  EXPECT_EQ(fa4_event_elapsed_ms(dummy, nullptr, &ms),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "end is NULL");
  EXPECT_EQ(fa4_copy_to_device(nullptr, host, sizeof(host)),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "device_dst is NULL");
  EXPECT_EQ(fa4_copy_to_host(host, nullptr, sizeof(host)),
            FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "device_src is NULL");
  EXPECT_EQ(fa4_device_fill32(nullptr, 0, 1), FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(fa4_last_error(), "device_dst is NULL");
  fa4_graph *graph = nullptr;
  EXPECT_EQ(fa4_graph_capture_end(nullptr, &graph), FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fa4_last_error()).find("legacy default stream"),
            std::string::npos)
      << fa4_last_error();
  EXPECT_EQ(graph, nullptr);
}

TEST(CAPITest, RefusesToCaptureTheDefaultStream) {
  // The legacy default stream cannot be captured: say so before any driver
  // call.
  EXPECT_EQ(fa4_graph_capture_begin(nullptr), FA4_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(fa4_last_error()).find("legacy default stream"),
            std::string::npos)
      << fa4_last_error();
  EXPECT_EQ(fa4_graph_launch(nullptr, nullptr), FA4_ERROR_INVALID_ARGUMENT);
  fa4_graph_destroy(nullptr);
  fa4_stream_destroy(nullptr);
}

} // namespace
