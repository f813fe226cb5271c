//===- XlaFfi.cpp - fa4 as an XLA FFI custom call -------------------------===//
//
// The handler behind fa4.jax.flash_attention (python/fa4/jax.py):
// jax.ffi.ffi_call("fa4_attention", ...)(q, k, v, manifest=PATH) runs the
// kernel of PATH's manifest on XLA's stream, q, k, v BSHD and o, lse the
// results (lse [b, hq, sq] f32 whether the caller wants it or not). Each
// (manifest, device, shapes) keeps a libfa4rt launch record; a split-K's
// partials come from XLA's scratch allocator. Every refusal is an FFI error
// carrying libfa4rt's message.
//
//===----------------------------------------------------------------------===//

#include "fa4-c/Runtime.h"

#include "xla/ffi/api/ffi.h"

#include <cuda.h>

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

/// A buffer as an fa4_tensor: XLA's arrays are dense and row-major.
ffi::ErrorOr<fa4_tensor> tensorOf(const ffi::AnyBuffer &buffer,
                                  const char *name) {
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
    return ffi::Unexpected(
        ffi::Error::InvalidArgument(std::string("fa4_attention: ") + name +
                                    " is neither bf16, f16 nor f32"));
  }
  auto dims = buffer.dimensions();
  if (dims.size() > FA4_MAX_RANK)
    return ffi::Unexpected(ffi::Error::InvalidArgument(
        std::string("fa4_attention: ") + name + " has rank " +
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

/// Modules by manifest path and launch records by (manifest, device,
/// shapes), kept for the process: XLA calls the handler for every run.
class Registry {
public:
  ffi::ErrorOr<fa4_launch_record *> record(const std::string &manifest,
                                           int32_t device,
                                           const fa4_attention_args &args) {
    std::lock_guard<std::mutex> lock(mutex);
    Key key{manifest, device, shapesOf(args)};
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
    fa4_status status = fa4_launch_record_create(module, &args, &made);
    if (status != FA4_SUCCESS)
      return ffi::Unexpected(fa4Error(status, "fa4_launch_record_create"));
    records.emplace(key, made);
    return made;
  }

private:
  using Key = std::tuple<std::string, int32_t, std::vector<int64_t>>;
  static std::vector<int64_t> shapesOf(const fa4_attention_args &args) {
    std::vector<int64_t> shapes;
    for (const fa4_tensor *t : {&args.q, &args.k, &args.v, &args.o, &args.lse})
      shapes.insert(shapes.end(), t->shape, t->shape + t->rank);
    return shapes;
  }
  std::mutex mutex;
  std::map<std::string, fa4_module *> modules;
  std::map<Key, fa4_launch_record *> records;
};

Registry &registry() {
  static Registry *instance = new Registry; // lives as long as XLA's calls
  return *instance;
}

ffi::Error attention(CUstream stream, int32_t device,
                     ffi::ScratchAllocator scratch, ffi::AnyBuffer q,
                     ffi::AnyBuffer k, ffi::AnyBuffer v,
                     ffi::Result<ffi::AnyBuffer> o,
                     ffi::Result<ffi::AnyBuffer> lse,
                     std::string_view manifest) {
  fa4_attention_args args = {};
  auto fill = [](fa4_tensor &into, const ffi::AnyBuffer &buffer,
                 const char *name) -> ffi::Error {
    ffi::ErrorOr<fa4_tensor> tensor = tensorOf(buffer, name);
    if (tensor.has_error())
      return tensor.error();
    into = *tensor;
    return ffi::Error::Success();
  };
  for (ffi::Error error :
       {fill(args.q, q, "q"), fill(args.k, k, "k"), fill(args.v, v, "v"),
        fill(args.o, *o, "o"), fill(args.lse, *lse, "lse")})
    if (error.failure())
      return error;
  ffi::ErrorOr<fa4_launch_record *> record =
      registry().record(std::string(manifest), device, args);
  if (record.has_error())
    return record.error();
  uint64_t bytes = 0;
  fa4_status status = fa4_launch_record_workspace_bytes(*record, &bytes);
  if (status != FA4_SUCCESS)
    return fa4Error(status, "fa4_launch_record_workspace_bytes");
  // XLA's scratch memory where it gives some; else (XLA does not serve
  // every call: seen on the H200 under jax 0.11) libfa4rt's stream-ordered
  // allocation, as fa4_launch's.
  void *workspace = nullptr;
  if (bytes)
    workspace = scratch.Allocate(bytes, 256).value_or(nullptr);
  void *data[5] = {args.q.data, args.k.data, args.v.data, args.o.data,
                   args.lse.data};
  status = fa4_launch_record_run(*record, data, workspace, stream);
  if (status != FA4_SUCCESS)
    return fa4Error(status, "fa4_launch_record_run");
  return ffi::Error::Success();
}

} // namespace

// The one symbol the library exports (it builds with hidden visibility).
extern "C" __attribute__((visibility("default"))) XLA_FFI_Error *
Fa4Attention(XLA_FFI_CallFrame *callFrame);

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
