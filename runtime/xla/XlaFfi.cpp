//===- XlaFfi.cpp - fa4 as an XLA FFI custom call -------------------------===//
//
// The handlers behind fa4.jax.flash_attention (python/fa4/jax.py):
// jax.ffi.ffi_call("fa4_attention", ...)(q, k, v, manifest=PATH) runs the
// kernel of PATH's manifest on XLA's stream, q, k, v BSHD and o, lse the
// results (lse [b, hq, sq] f32 whether the caller wants it or not);
// "fa4_attention_backward" (dout, q, k, v, o, lse; manifest=PATH of a
// backward kernel) gives its gradients dq, dk, dv, launched through the
// serving arguments, the only ones that name them. Each (manifest, device,
// shapes) keeps a libfa4rt launch record; a split-K's partials come from
// XLA's scratch allocator. Every refusal is an FFI error carrying libfa4rt's
// message.
//
//===----------------------------------------------------------------------===//

#include "fa4-c/Runtime.h"

#include "xla/ffi/api/ffi.h"

#include <cuda.h>

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace ffi = xla::ffi;

namespace {

/// libfa4rt's refusal as an FFI error.
ffi::Error fa4Error(fa4_status status, const char *what) {
  return ffi::Error(status == FA4_ERROR_VALIDATION
                        ? ffi::ErrorCode::kInvalidArgument
                        : ffi::ErrorCode::kInternal,
                    std::string(what) + ": " + fa4_last_error());
}

/// A buffer of `handler`'s call as an fa4_tensor: XLA's arrays are dense and
/// row-major.
ffi::ErrorOr<fa4_tensor> tensorOf(const ffi::AnyBuffer &buffer,
                                  const char *handler, const char *name) {
  fa4_tensor tensor = {};
  switch (buffer.element_type()) {
  case ffi::DataType::BF16:
    tensor.dtype = FA4_DTYPE_BF16;
    break;
  case ffi::DataType::F16:
    tensor.dtype = FA4_DTYPE_F16;
    break;
  case ffi::DataType::F32:
    tensor.dtype = FA4_DTYPE_F32;
    break;
  default:
    return ffi::Unexpected(ffi::Error::InvalidArgument(
        std::string(handler) + ": " + name + " is neither bf16, f16 nor f32"));
  }
  auto dims = buffer.dimensions();
  if (dims.size() > FA4_MAX_RANK)
    return ffi::Unexpected(ffi::Error::InvalidArgument(
        std::string(handler) + ": " + name + " has rank " +
        std::to_string(dims.size())));
  tensor.rank = static_cast<int32_t>(dims.size());
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    tensor.shape[d] = dims[d];
    tensor.strides[d] = stride;
    stride *= dims[d];
  }
  tensor.data = buffer.untyped_data();
  return tensor;
}

/// Fills `into` with tensorOf(buffer).
ffi::Error fill(fa4_tensor &into, const ffi::AnyBuffer &buffer,
                const char *handler, const char *name) {
  ffi::ErrorOr<fa4_tensor> tensor = tensorOf(buffer, handler, name);
  if (tensor.has_error())
    return tensor.error();
  into = *tensor;
  return ffi::Error::Success();
}

/// Modules by manifest path and launch records by (manifest, device, the
/// tensors' dtypes and shapes), kept for the process: XLA calls the handlers
/// for every run. A record is of the attention arguments (the forward) or
/// of the serving ones (the backward's gradients have no other home).
class Registry {
public:
  ffi::ErrorOr<fa4_launch_record *> record(const std::string &manifest,
                                           int32_t device,
                                           const fa4_attention_args &args) {
    return find(
        manifest, device,
        keyOf({&args.q, &args.k, &args.v, &args.o, &args.lse}),
        [&](fa4_module *module, fa4_launch_record **made) {
          return fa4_launch_record_create(module, &args, made);
        },
        "fa4_launch_record_create");
  }

  ffi::ErrorOr<fa4_launch_record *> record(const std::string &manifest,
                                           int32_t device,
                                           const fa4_serving_args &args) {
    const fa4_attention_args &a = args.attention;
    return find(
        manifest, device,
        keyOf({&a.q, &a.k, &a.v, &a.o, &a.lse, &args.dout, &args.dq, &args.dk,
               &args.dv}),
        [&](fa4_module *module, fa4_launch_record **made) {
          return fa4_launch_record_create_serving(module, &args, made);
        },
        "fa4_launch_record_create_serving");
  }

private:
  using Key = std::tuple<std::string, int32_t, std::vector<int64_t>>;
  using Create = std::function<fa4_status(fa4_module *, fa4_launch_record **)>;

  /// Each tensor's dtype, rank and shape: a record reads none of them again.
  static std::vector<int64_t>
  keyOf(std::initializer_list<const fa4_tensor *> tensors) {
    std::vector<int64_t> key;
    for (const fa4_tensor *t : tensors) {
      key.push_back(t->dtype);
      key.push_back(t->rank);
      key.insert(key.end(), t->shape, t->shape + t->rank);
    }
    return key;
  }

  ffi::ErrorOr<fa4_launch_record *>
  find(const std::string &manifest, int32_t device, std::vector<int64_t> shapes,
       const Create &create, const char *what) {
    std::lock_guard<std::mutex> lock(mutex);
    Key key{manifest, device, std::move(shapes)};
    auto found = records.find(key);
    if (found != records.end())
      return found->second;
    fa4_module *&module = modules[manifest];
    if (!module) {
      fa4_status status = fa4_module_load(manifest.c_str(), &module);
      if (status != FA4_SUCCESS) {
        module = nullptr;
        return ffi::Unexpected(fa4Error(status, "fa4_module_load"));
      }
    }
    fa4_launch_record *made = nullptr;
    fa4_status status = create(module, &made);
    if (status != FA4_SUCCESS)
      return ffi::Unexpected(fa4Error(status, what));
    records.emplace(std::move(key), made);
    return made;
  }

  std::mutex mutex;
  std::map<std::string, fa4_module *> modules;
  std::map<Key, fa4_launch_record *> records;
};

Registry &registry() {
  static Registry *instance = new Registry; // lives as long as XLA's calls
  return *instance;
}

/// The record's workspace: XLA's scratch memory where it gives some; else
/// (XLA does not serve every call: seen on the H200 under jax 0.11) NULL,
/// libfa4rt's stream-ordered allocation, as fa4_launch's.
ffi::ErrorOr<void *> workspaceOf(fa4_launch_record *record,
                                 ffi::ScratchAllocator &scratch) {
  uint64_t bytes = 0;
  fa4_status status = fa4_launch_record_workspace_bytes(record, &bytes);
  if (status != FA4_SUCCESS)
    return ffi::Unexpected(
        fa4Error(status, "fa4_launch_record_workspace_bytes"));
  if (!bytes)
    return nullptr;
  return scratch.Allocate(bytes, 256).value_or(nullptr);
}

ffi::Error attention(CUstream stream, int32_t device,
                     ffi::ScratchAllocator scratch, ffi::AnyBuffer q,
                     ffi::AnyBuffer k, ffi::AnyBuffer v,
                     ffi::Result<ffi::AnyBuffer> o,
                     ffi::Result<ffi::AnyBuffer> lse,
                     std::string_view manifest) {
  const char *handler = "fa4_attention";
  fa4_attention_args args = {};
  for (ffi::Error error :
       {fill(args.q, q, handler, "q"), fill(args.k, k, handler, "k"),
        fill(args.v, v, handler, "v"), fill(args.o, *o, handler, "o"),
        fill(args.lse, *lse, handler, "lse")})
    if (error.failure())
      return error;
  ffi::ErrorOr<fa4_launch_record *> record =
      registry().record(std::string(manifest), device, args);
  if (record.has_error())
    return record.error();
  ffi::ErrorOr<void *> workspace = workspaceOf(*record, scratch);
  if (workspace.has_error())
    return workspace.error();
  void *data[5] = {args.q.data, args.k.data, args.v.data, args.o.data,
                   args.lse.data};
  fa4_status status = fa4_launch_record_run(*record, data, *workspace, stream);
  if (status != FA4_SUCCESS)
    return fa4Error(status, "fa4_launch_record_run");
  return ffi::Error::Success();
}

ffi::Error attentionBackward(CUstream stream, int32_t device,
                             ffi::ScratchAllocator scratch, ffi::AnyBuffer dout,
                             ffi::AnyBuffer q, ffi::AnyBuffer k,
                             ffi::AnyBuffer v, ffi::AnyBuffer o,
                             ffi::AnyBuffer lse, ffi::Result<ffi::AnyBuffer> dq,
                             ffi::Result<ffi::AnyBuffer> dk,
                             ffi::Result<ffi::AnyBuffer> dv,
                             std::string_view manifest) {
  const char *handler = "fa4_attention_backward";
  fa4_serving_args args = {};
  fa4_attention_args &forward = args.attention;
  for (ffi::Error error :
       {fill(args.dout, dout, handler, "dout"),
        fill(forward.q, q, handler, "q"), fill(forward.k, k, handler, "k"),
        fill(forward.v, v, handler, "v"), fill(forward.o, o, handler, "o"),
        fill(forward.lse, lse, handler, "lse"),
        fill(args.dq, *dq, handler, "dq"), fill(args.dk, *dk, handler, "dk"),
        fill(args.dv, *dv, handler, "dv")})
    if (error.failure())
      return error;
  ffi::ErrorOr<fa4_launch_record *> record =
      registry().record(std::string(manifest), device, args);
  if (record.has_error())
    return record.error();
  ffi::ErrorOr<void *> workspace = workspaceOf(*record, scratch);
  if (workspace.has_error())
    return workspace.error();
  fa4_status status =
      fa4_launch_record_run_serving(*record, &args, *workspace, stream);
  if (status != FA4_SUCCESS)
    return fa4Error(status, "fa4_launch_record_run_serving");
  return ffi::Error::Success();
}

} // namespace

// The library's exported symbols, one a handler (it builds with hidden
// visibility).
extern "C" __attribute__((visibility("default"))) XLA_FFI_Error *
Fa4Attention(XLA_FFI_CallFrame *callFrame);
extern "C" __attribute__((visibility("default"))) XLA_FFI_Error *
Fa4AttentionBackward(XLA_FFI_CallFrame *callFrame);

XLA_FFI_DEFINE_HANDLER_SYMBOL(Fa4Attention, attention,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<CUstream>>()
                                  .Ctx<ffi::DeviceOrdinal>()
                                  .Ctx<ffi::ScratchAllocator>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::string_view>("manifest"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(Fa4AttentionBackward, attentionBackward,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<CUstream>>()
                                  .Ctx<ffi::DeviceOrdinal>()
                                  .Ctx<ffi::ScratchAllocator>()
                                  .Arg<ffi::AnyBuffer>() // dout
                                  .Arg<ffi::AnyBuffer>() // q
                                  .Arg<ffi::AnyBuffer>() // k
                                  .Arg<ffi::AnyBuffer>() // v
                                  .Arg<ffi::AnyBuffer>() // o
                                  .Arg<ffi::AnyBuffer>() // lse
                                  .Ret<ffi::AnyBuffer>() // dq
                                  .Ret<ffi::AnyBuffer>() // dk
                                  .Ret<ffi::AnyBuffer>() // dv
                                  .Attr<std::string_view>("manifest"));
