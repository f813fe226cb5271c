/*===- CCallers.c - The C API called as C calls it ------------------------===*\
|*                                                                            *|
|* C lets an enum parameter hold any int; in C++ merely loading such a value  *|
|* as the enum is undefined (UBSan reports it). These wrappers make the call  *|
|* in C, as a C caller would, so the tests pass bits no enumerator has.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "fa4-c/Runtime.h"

const char *fa4TestDtypeName(int32_t bits) {
  return fa4_dtype_name((fa4_dtype)bits);
}

size_t fa4TestDtypeSize(int32_t bits) {
  return fa4_dtype_size((fa4_dtype)bits);
}

const char *fa4TestStatusName(int32_t bits) {
  return fa4_status_name((fa4_status)bits);
}

/* Every entry point that takes a handle or pointer, given NULL from C: the
   first call that does not answer FA4_ERROR_INVALID_ARGUMENT, by name, or
   NULL when all do. Each destroy(NULL) is a no-op. No call reaches the
   driver, so this runs on a machine without one. */
const char *fa4TestNullsFromC(void) {
  fa4_module *module = NULL;
  fa4_kernel_info info;
  fa4_attention_args args = {0};
  fa4_launch_record *record = NULL;
  fa4_graph *graph = NULL;
  void *pointer = NULL;
  void *data[5] = {0};
  int32_t base = 0, stride = 0;
  uint64_t bytes = 0;
  float ms = 0;
  char host[4];
  fa4_event *dummy = (fa4_event *)host; /* never dereferenced */

#define FA4_EXPECT_REFUSED(call)                                               \
  if ((call) != FA4_ERROR_INVALID_ARGUMENT)                                    \
    return #call;
  FA4_EXPECT_REFUSED(fa4_module_load(NULL, &module));
  FA4_EXPECT_REFUSED(fa4_module_load("manifest.json", NULL));
  FA4_EXPECT_REFUSED(fa4_module_load_string(NULL, NULL, &module));
  FA4_EXPECT_REFUSED(fa4_module_load_string("{}", NULL, NULL));
  FA4_EXPECT_REFUSED(fa4_module_get_info(NULL, &info));
  FA4_EXPECT_REFUSED(
      fa4_module_get_tensor_alignment(NULL, "q", &base, &stride));
  FA4_EXPECT_REFUSED(fa4_module_set_programmatic_launch(NULL, 1));
  FA4_EXPECT_REFUSED(fa4_module_set_persistent_ctas(NULL, 0));
  FA4_EXPECT_REFUSED(fa4_validate(NULL, &args));
  FA4_EXPECT_REFUSED(fa4_launch(NULL, &args, NULL));
  FA4_EXPECT_REFUSED(fa4_launch_record_create(NULL, &args, &record));
  FA4_EXPECT_REFUSED(fa4_launch_record_workspace_bytes(NULL, &bytes));
  FA4_EXPECT_REFUSED(fa4_launch_record_run(NULL, data, NULL, NULL));
  FA4_EXPECT_REFUSED(fa4_launch_record_create_serving(NULL, NULL, &record));
  FA4_EXPECT_REFUSED(fa4_launch_record_run_serving(NULL, NULL, NULL, NULL));
  FA4_EXPECT_REFUSED(fa4_device_get_info(NULL));
  FA4_EXPECT_REFUSED(fa4_device_alloc(16, NULL));
  FA4_EXPECT_REFUSED(fa4_copy_to_device(NULL, host, sizeof(host)));
  FA4_EXPECT_REFUSED(fa4_copy_to_host(NULL, dummy, sizeof(host)));
  FA4_EXPECT_REFUSED(fa4_device_fill16(NULL, 0, 2));
  FA4_EXPECT_REFUSED(fa4_device_fill32(NULL, 0, 1));
  FA4_EXPECT_REFUSED(fa4_event_create(NULL));
  FA4_EXPECT_REFUSED(fa4_event_record(NULL, NULL));
  FA4_EXPECT_REFUSED(fa4_event_elapsed_ms(NULL, dummy, &ms));
  FA4_EXPECT_REFUSED(fa4_event_elapsed_ms(dummy, NULL, &ms));
  FA4_EXPECT_REFUSED(fa4_event_elapsed_ms(dummy, dummy, NULL));
  FA4_EXPECT_REFUSED(fa4_stream_create(NULL));
  FA4_EXPECT_REFUSED(fa4_graph_capture_begin(NULL));
  FA4_EXPECT_REFUSED(fa4_graph_capture_end(NULL, &graph));
  FA4_EXPECT_REFUSED(fa4_graph_capture_end(&pointer, NULL));
  FA4_EXPECT_REFUSED(fa4_graph_launch(NULL, NULL));
#undef FA4_EXPECT_REFUSED

  fa4_module_destroy(NULL);
  fa4_launch_record_destroy(NULL);
  fa4_event_destroy(NULL);
  fa4_stream_destroy(NULL);
  fa4_graph_destroy(NULL);
  if (fa4_device_free(NULL) != FA4_SUCCESS)
    return "fa4_device_free(NULL)";
  return NULL;
}
