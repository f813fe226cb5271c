//===- XlaFfiMetadataTest.cpp - libfa4xla answers XLA's metadata query ----===//
//
// XLA asks every FFI handler it registers for its metadata (the FFI version
// the handler was compiled against, its traits) by calling it with a call
// frame that carries XLA_FFI_Metadata_Extension; that call needs no GPU.
// This loads the built libfa4xla.so as jax.ffi would (dlopen, RTLD_NOW:
// every symbol it needs must resolve), finds each exported handler (the
// forward's and the backward pass's) and asks it, so the handlers are
// compiled, linked and callable where CI has no jax and no GPU.
//
//===----------------------------------------------------------------------===//

#include "xla/ffi/api/c_api.h"

#include <cstdio>
#include <dlfcn.h>
#include <initializer_list>

namespace {

using Handler = XLA_FFI_Error *(XLA_FFI_CallFrame *);

int fail(const char *what, const char *detail = "") {
  std::fprintf(stderr, "FAIL: %s%s\n", what, detail);
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return fail("usage: fa4xla-metadata-test LIBFA4XLA");
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return fail("dlopen: ", dlerror());
  for (const char *name : {"Fa4Attention", "Fa4AttentionBackward"}) {
    auto *handler = reinterpret_cast<Handler *>(dlsym(library, name));
    if (!handler)
      return fail("no handler symbol: ", dlerror());

    XLA_FFI_Metadata metadata = {};
    metadata.struct_size = XLA_FFI_Metadata_STRUCT_SIZE;
    XLA_FFI_Metadata_Extension extension = {};
    extension.extension_base.struct_size =
        XLA_FFI_Metadata_Extension_STRUCT_SIZE;
    extension.extension_base.type = XLA_FFI_Extension_Metadata;
    extension.metadata = &metadata;
    XLA_FFI_CallFrame frame = {};
    frame.struct_size = XLA_FFI_CallFrame_STRUCT_SIZE;
    frame.extension_start = &extension.extension_base;
    frame.stage = XLA_FFI_ExecutionStage_EXECUTE;
    // The handler reaches the API only to report an error; with sizes that
    // match there is none.
    if (handler(&frame) != nullptr)
      return fail("the metadata query returned an error: ", name);
    if (metadata.api_version.major_version != XLA_FFI_API_MAJOR ||
        metadata.api_version.minor_version != XLA_FFI_API_MINOR)
      return fail("the handler reports another FFI version: ", name);
    if (metadata.traits != 0)
      return fail("the handler reports traits (it declares none): ", name);
    std::printf("%s: XLA FFI %d.%d, no traits\n", name,
                metadata.api_version.major_version,
                metadata.api_version.minor_version);
  }
  dlclose(library);
  return 0;
}
