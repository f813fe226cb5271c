//===- CAPI.cpp - The C API of libfa4rt -----------------------------------===//
//
// Every entry point catches fa4::rt::Error (and any std::exception) and turns
// it into an fa4_status plus the thread's last-error message: no C++ exception
// crosses the C boundary.
//
//===----------------------------------------------------------------------===//

#include "fa4-c/Runtime.h"

#include "Driver.h"
#include "Error.h"
#include "Launch.h"
#include "Validate.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <numeric>
#include <utility>

using namespace fa4::rt;

struct fa4_module {
  explicit fa4_module(Manifest manifest)
      : kernel(std::make_shared<Kernel>(std::move(manifest))) {}
  /// Shared with the module's launch records, which may outlive it.
  std::shared_ptr<Kernel> kernel;
};

struct fa4_launch_record {
  fa4_launch_record(std::shared_ptr<Kernel> kernelIn,
                    const fa4_serving_args &args)
      : kernel(std::move(kernelIn)), prepared(*kernel, args) {}
  std::shared_ptr<Kernel> kernel;
  std::mutex mutex; // run() re-encodes tensor maps in place
  PreparedLaunch prepared;
};

static thread_local std::string lastError;

template <typename Body> static fa4_status guarded(Body &&body) {
  try {
    body();
    return FA4_SUCCESS;
  } catch (const Error &error) {
    lastError = error.what();
    return error.status;
  } catch (const std::exception &error) {
    lastError = std::string("internal error: ") + error.what();
    return FA4_ERROR_INTERNAL;
  }
}

static void requireNonNull(const void *pointer, const char *what) {
  if (!pointer)
    throw Error(FA4_ERROR_INVALID_ARGUMENT, std::string(what) + " is NULL");
}

/// A copy or fill of nothing may name no memory (an empty vector's data()).
static void requireNonNull(const void *pointer, size_t bytes,
                           const char *what) {
  if (bytes)
    requireNonNull(pointer, what);
}

/// fa4_attention_args cannot name a backward kernel's dout, dq, dk and dv
/// (version 16): its entry points refuse such a kernel by name, before a
/// missing tensor would.
static fa4_status refuseBackward(const fa4_module *module) {
  return guarded([&] {
    if (module && module->kernel->manifest.problem.backward)
      throw Error(FA4_ERROR_VALIDATION,
                  "the kernel is a backward pass (problem.pass \"backward\"), "
                  "whose dout, dq, dk and dv fa4_attention_args cannot name: "
                  "validate and launch it through fa4_validate_serving and "
                  "fa4_launch_serving (or fa4_launch_record_create_serving)");
  });
}

/// The destroy functions return nothing, so an error there (a driver that
/// cannot be opened for a handle it never made) is dropped rather than
/// thrown across the C boundary.
template <typename Body> static void quietly(Body &&body) {
  (void)guarded(std::forward<Body>(body));
}

extern "C" {

const char *fa4_last_error(void) { return lastError.c_str(); }

// The enums below come from C callers: read as integers (enumBits), since
// a value no enumerator has is undefined behaviour to load as the enum.
const char *fa4_status_name(fa4_status status) {
  switch (enumBits(status)) {
  case FA4_SUCCESS:
    return "FA4_SUCCESS";
  case FA4_ERROR_INVALID_ARGUMENT:
    return "FA4_ERROR_INVALID_ARGUMENT";
  case FA4_ERROR_MANIFEST:
    return "FA4_ERROR_MANIFEST";
  case FA4_ERROR_VALIDATION:
    return "FA4_ERROR_VALIDATION";
  case FA4_ERROR_DRIVER_NOT_FOUND:
    return "FA4_ERROR_DRIVER_NOT_FOUND";
  case FA4_ERROR_CUDA:
    return "FA4_ERROR_CUDA";
  case FA4_ERROR_IO:
    return "FA4_ERROR_IO";
  case FA4_ERROR_INTERNAL:
    return "FA4_ERROR_INTERNAL";
  }
  return "unknown fa4_status";
}

const char *fa4_dtype_name(fa4_dtype dtype) {
  std::optional<fa4_dtype> known = dtypeFromBits(enumBits(dtype));
  return known ? dtypeName(*known) : "unknown fa4_dtype";
}

size_t fa4_dtype_size(fa4_dtype dtype) {
  std::optional<fa4_dtype> known = dtypeFromBits(enumBits(dtype));
  return known ? dtypeSize(*known) : 0;
}

fa4_status fa4_module_load(const char *manifest_path, fa4_module **module) {
  return guarded([&] {
    requireNonNull(manifest_path, "manifest_path");
    requireNonNull(module, "module");
    *module = new fa4_module(loadManifest(manifest_path));
  });
}

fa4_status fa4_module_load_string(const char *manifest_json,
                                  const char *binary_dir, fa4_module **module) {
  return guarded([&] {
    requireNonNull(manifest_json, "manifest_json");
    requireNonNull(module, "module");
    *module = new fa4_module(
        parseManifest(manifest_json, binary_dir ? binary_dir : ""));
  });
}

void fa4_module_destroy(fa4_module *module) { delete module; }

fa4_status fa4_module_get_info(const fa4_module *module,
                               fa4_kernel_info *info) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(info, "info");
    const Manifest &manifest = module->kernel->manifest;
    const Problem &problem = manifest.problem;
    *info = {};
    info->kernel_name = manifest.kernel.c_str();
    info->chip = manifest.chip.c_str();
    info->binary_path = manifest.binaryPath.c_str();
    info->dtype = problem.dtype;
    info->num_q_heads = static_cast<int32_t>(problem.numQHeads);
    info->num_kv_heads = static_cast<int32_t>(problem.numKVHeads);
    info->qk_depth = static_cast<int32_t>(problem.qkDepth);
    info->ov_depth = static_cast<int32_t>(problem.ovDepth);
    info->mask = problem.mask;
    info->window_left = static_cast<int32_t>(problem.windowLeft);
    info->window_right = static_cast<int32_t>(problem.windowRight);
    info->scale = problem.scale;
    info->softcap = problem.softcap;
    info->has_sinks = problem.sinks ? 1 : 0;
    info->output_dtype = problem.outputDtype;
    info->q_descale = static_cast<int32_t>(problem.descales[0]);
    info->k_descale = static_cast<int32_t>(problem.descales[1]);
    info->v_descale = static_cast<int32_t>(problem.descales[2]);
    info->is_backward = problem.backward ? 1 : 0;
    info->has_lse = problem.hasLse;
    info->batch = problem.batch;
    info->seq_q = problem.seqQ;
    info->seq_kv = problem.seqKV;
    for (int d = 0; d < 3; ++d) {
      info->block[d] = static_cast<int32_t>(manifest.launch.block[d]);
      info->cluster[d] = static_cast<int32_t>(manifest.launch.cluster[d]);
    }
    info->dynamic_smem_bytes =
        static_cast<int32_t>(manifest.launch.dynamicSmemBytes);
    // The strictest rules: base alignments are powers of two, so the
    // largest; a stride rule every tensor's divides.
    int64_t base = 1, stride = 1;
    for (const TensorSpec &tensor : manifest.tensors) {
      base = std::max(base, tensor.alignment.baseBytes);
      stride = std::lcm(stride, tensor.alignment.strideBytes);
    }
    info->base_align_bytes = static_cast<int32_t>(base);
    info->stride_align_bytes = static_cast<int32_t>(stride);
    info->programmatic_launch = module->kernel->usesProgrammaticLaunch();
    if (manifest.decode) {
      info->decode_kernel_name = manifest.decode->manifest->kernel.c_str();
      info->decode_max_seq_q = manifest.decode->maxSeqQ;
    }
  });
}

fa4_status fa4_module_set_programmatic_launch(fa4_module *module,
                                              int32_t enabled) {
  return guarded([&] {
    requireNonNull(module, "module");
    module->kernel->setProgrammaticLaunch(enabled != 0);
  });
}

fa4_status fa4_module_set_persistent_ctas(fa4_module *module,
                                          int32_t max_ctas) {
  return guarded([&] {
    requireNonNull(module, "module");
    if (max_ctas < 0)
      throw Error(FA4_ERROR_INVALID_ARGUMENT,
                  "max_ctas is " + std::to_string(max_ctas) +
                      "; expected 0 (one CTA per SM) or a positive cap");
    module->kernel->setPersistentCtaLimit(static_cast<uint32_t>(max_ctas));
  });
}

fa4_status fa4_module_get_tensor_alignment(const fa4_module *module,
                                           const char *tensor,
                                           int32_t *base_bytes,
                                           int32_t *stride_bytes) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(tensor, "tensor");
    requireNonNull(base_bytes, "base_bytes");
    requireNonNull(stride_bytes, "stride_bytes");
    for (const TensorSpec &spec : module->kernel->manifest.tensors) {
      if (spec.name != tensor)
        continue;
      *base_bytes = static_cast<int32_t>(spec.alignment.baseBytes);
      *stride_bytes = static_cast<int32_t>(spec.alignment.strideBytes);
      return;
    }
    throw Error(FA4_ERROR_INVALID_ARGUMENT,
                std::string("the kernel has no tensor '") + tensor + "'");
  });
}

fa4_status fa4_validate_serving(const fa4_module *module,
                                const fa4_serving_args *args) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(args, "args");
    // By the rules of the kernel a launch would run (version 8: the decode
    // variant at decode shapes).
    validateArgs(module->kernel->kernelFor(*args).manifest, *args);
  });
}

fa4_status fa4_validate(const fa4_module *module,
                        const fa4_attention_args *args) {
  if (fa4_status refused = refuseBackward(module))
    return refused;
  if (!args)
    return fa4_validate_serving(module, nullptr);
  fa4_serving_args full = servingArgs(*args);
  return fa4_validate_serving(module, &full);
}

fa4_status fa4_launch_serving(fa4_module *module, const fa4_serving_args *args,
                              void *stream) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(args, "args");
    module->kernel->launch(*args, static_cast<CUstream>(stream));
  });
}

fa4_status fa4_serving_workspace_bytes(fa4_module *module,
                                       const fa4_serving_args *args,
                                       uint64_t *bytes) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(args, "args");
    requireNonNull(bytes, "bytes");
    *bytes = 0;
    *bytes = module->kernel->workspaceBytes(*args);
  });
}

fa4_status fa4_launch_serving_workspace(fa4_module *module,
                                        const fa4_serving_args *args,
                                        void *workspace, void *stream) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(args, "args");
    module->kernel->launch(*args, reinterpret_cast<CUdeviceptr>(workspace),
                           static_cast<CUstream>(stream));
  });
}

fa4_status fa4_launch(fa4_module *module, const fa4_attention_args *args,
                      void *stream) {
  if (fa4_status refused = refuseBackward(module))
    return refused;
  if (!args)
    return fa4_launch_serving(module, nullptr, stream);
  fa4_serving_args full = servingArgs(*args);
  return fa4_launch_serving(module, &full, stream);
}

fa4_status fa4_launch_record_create(fa4_module *module,
                                    const fa4_attention_args *args,
                                    fa4_launch_record **record) {
  if (fa4_status refused = refuseBackward(module)) {
    if (record)
      *record = nullptr;
    return refused;
  }
  if (!args)
    return fa4_launch_record_create_serving(module, nullptr, record);
  fa4_serving_args full = servingArgs(*args);
  return fa4_launch_record_create_serving(module, &full, record);
}

fa4_status fa4_launch_record_create_serving(fa4_module *module,
                                            const fa4_serving_args *args,
                                            fa4_launch_record **record) {
  return guarded([&] {
    requireNonNull(module, "module");
    requireNonNull(args, "args");
    requireNonNull(record, "record");
    *record = nullptr;
    *record = new fa4_launch_record(module->kernel, *args);
  });
}

fa4_status fa4_launch_record_run_serving(fa4_launch_record *record,
                                         const fa4_serving_args *args,
                                         void *workspace, void *stream) {
  return guarded([&] {
    requireNonNull(record, "record");
    requireNonNull(args, "args");
    std::lock_guard<std::mutex> lock(record->mutex);
    record->prepared.setData(*args);
    record->prepared.run(reinterpret_cast<CUdeviceptr>(workspace),
                         static_cast<CUstream>(stream));
  });
}

fa4_status fa4_launch_record_workspace_bytes(const fa4_launch_record *record,
                                             uint64_t *bytes) {
  return guarded([&] {
    requireNonNull(record, "record");
    requireNonNull(bytes, "bytes");
    *bytes = record->prepared.workspaceBytes();
  });
}

fa4_status fa4_launch_record_run(fa4_launch_record *record, void *const data[5],
                                 void *workspace, void *stream) {
  if (!record || !data)
    return guarded([&] {
      requireNonNull(record, "record");
      requireNonNull(data, "data");
    });
  fa4_serving_args args = {};
  args.attention.q.data = data[0];
  args.attention.k.data = data[1];
  args.attention.v.data = data[2];
  args.attention.o.data = data[3];
  args.attention.lse.data = data[4];
  return fa4_launch_record_run_serving(record, &args, workspace, stream);
}

void fa4_launch_record_destroy(fa4_launch_record *record) { delete record; }

fa4_status fa4_device_get_info(fa4_device_info *info) {
  return guarded([&] {
    requireNonNull(info, "info");
    currentContext();
    CUdevice device = currentDevice();
    *info = {};
    checkCuda(driver().cuDeviceGetName(info->name, sizeof(info->name), device),
              "cuDeviceGetName");
    auto attribute = [&](CUdevice_attribute which) {
      return deviceAttribute(device, which);
    };
    info->compute_major =
        attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info->compute_minor =
        attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    info->multiprocessor_count =
        attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info->l2_cache_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  });
}

fa4_status fa4_device_alloc(size_t bytes, void **device_ptr) {
  return guarded([&] {
    requireNonNull(device_ptr, "device_ptr");
    currentContext();
    CUdeviceptr pointer;
    checkCuda(driver().cuMemAlloc(&pointer, bytes), "cuMemAlloc");
    *device_ptr = reinterpret_cast<void *>(pointer);
  });
}

fa4_status fa4_device_free(void *device_ptr) {
  return guarded([&] {
    if (!device_ptr)
      return;
    checkCuda(driver().cuMemFree(reinterpret_cast<CUdeviceptr>(device_ptr)),
              "cuMemFree");
  });
}

fa4_status fa4_copy_to_device(void *device_dst, const void *host_src,
                              size_t bytes) {
  return guarded([&] {
    requireNonNull(device_dst, bytes, "device_dst");
    requireNonNull(host_src, bytes, "host_src");
    currentContext();
    checkCuda(driver().cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(device_dst),
                                    host_src, bytes),
              "cuMemcpyHtoD");
  });
}

fa4_status fa4_copy_to_host(void *host_dst, const void *device_src,
                            size_t bytes) {
  return guarded([&] {
    requireNonNull(host_dst, bytes, "host_dst");
    requireNonNull(device_src, bytes, "device_src");
    currentContext();
    checkCuda(driver().cuMemcpyDtoH(
                  host_dst, reinterpret_cast<CUdeviceptr>(device_src), bytes),
              "cuMemcpyDtoH");
  });
}

fa4_status fa4_device_fill16(void *device_dst, uint16_t value, size_t count) {
  return guarded([&] {
    requireNonNull(device_dst, count, "device_dst");
    currentContext();
    checkCuda(driver().cuMemsetD16(reinterpret_cast<CUdeviceptr>(device_dst),
                                   value, count),
              "cuMemsetD16");
  });
}

fa4_status fa4_device_fill32(void *device_dst, uint32_t value, size_t count) {
  return guarded([&] {
    requireNonNull(device_dst, count, "device_dst");
    currentContext();
    checkCuda(driver().cuMemsetD32(reinterpret_cast<CUdeviceptr>(device_dst),
                                   value, count),
              "cuMemsetD32");
  });
}

fa4_status fa4_stream_synchronize(void *stream) {
  return guarded([&] {
    currentContext();
    checkCuda(driver().cuStreamSynchronize(static_cast<CUstream>(stream)),
              "cuStreamSynchronize");
  });
}

// An fa4_event is a CUevent under another name.
fa4_status fa4_event_create(fa4_event **event) {
  return guarded([&] {
    requireNonNull(event, "event");
    currentContext();
    CUevent created;
    checkCuda(driver().cuEventCreate(&created, CU_EVENT_DEFAULT),
              "cuEventCreate");
    *event = reinterpret_cast<fa4_event *>(created);
  });
}

fa4_status fa4_event_record(fa4_event *event, void *stream) {
  return guarded([&] {
    requireNonNull(event, "event");
    checkCuda(driver().cuEventRecord(reinterpret_cast<CUevent>(event),
                                     static_cast<CUstream>(stream)),
              "cuEventRecord");
  });
}

fa4_status fa4_event_elapsed_ms(const fa4_event *start, const fa4_event *end,
                                float *ms) {
  return guarded([&] {
    requireNonNull(start, "start");
    requireNonNull(end, "end");
    requireNonNull(ms, "ms");
    CUevent startEvent =
        reinterpret_cast<CUevent>(const_cast<fa4_event *>(start));
    CUevent endEvent = reinterpret_cast<CUevent>(const_cast<fa4_event *>(end));
    // Elapsed time needs the end event to have completed.
    checkCuda(driver().cuEventSynchronize(endEvent), "cuEventSynchronize");
    checkCuda(driver().cuEventElapsedTime(ms, startEvent, endEvent),
              "cuEventElapsedTime");
  });
}

void fa4_event_destroy(fa4_event *event) {
  if (event)
    quietly([&] { driver().cuEventDestroy(reinterpret_cast<CUevent>(event)); });
}

} // extern "C"

fa4_status fa4_stream_create(void **stream) {
  return guarded([&] {
    requireNonNull(stream, "stream");
    currentContext();
    CUstream created;
    checkCuda(driver().cuStreamCreate(&created, CU_STREAM_NON_BLOCKING),
              "cuStreamCreate");
    *stream = created;
  });
}

void fa4_stream_destroy(void *stream) {
  if (stream)
    quietly([&] { driver().cuStreamDestroy(static_cast<CUstream>(stream)); });
}

fa4_status fa4_graph_capture_begin(void *stream) {
  return guarded([&] {
    requireNonNull(stream, "stream (the legacy default stream cannot be "
                           "captured)");
    checkCuda(
        driver().cuStreamBeginCapture(static_cast<CUstream>(stream),
                                      CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
        "cuStreamBeginCapture");
  });
}

// An fa4_graph is the instantiated CUgraphExec; the CUgraph is dropped once
// instantiated.
fa4_status fa4_graph_capture_end(void *stream, fa4_graph **graph) {
  return guarded([&] {
    requireNonNull(stream, "stream (the legacy default stream cannot be "
                           "captured)");
    requireNonNull(graph, "graph");
    const DriverApi &api = driver();
    CUgraph captured = nullptr;
    checkCuda(api.cuStreamEndCapture(static_cast<CUstream>(stream), &captured),
              "cuStreamEndCapture");
    CUgraphExec executable = nullptr;
    CUresult status = api.cuGraphInstantiateWithFlags(&executable, captured, 0);
    api.cuGraphDestroy(captured);
    checkCuda(status, "cuGraphInstantiateWithFlags");
    *graph = reinterpret_cast<fa4_graph *>(executable);
  });
}

fa4_status fa4_graph_launch(fa4_graph *graph, void *stream) {
  return guarded([&] {
    requireNonNull(graph, "graph");
    checkCuda(driver().cuGraphLaunch(reinterpret_cast<CUgraphExec>(graph),
                                     static_cast<CUstream>(stream)),
              "cuGraphLaunch");
  });
}

void fa4_graph_destroy(fa4_graph *graph) {
  if (graph)
    quietly([&] {
      driver().cuGraphExecDestroy(reinterpret_cast<CUgraphExec>(graph));
    });
}
