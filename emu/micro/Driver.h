//===- Driver.h - The CUDA driver API through dlopen ------------*- C++ -*-===//
//
// For the standalone programs that run the same PTX on a GPU (libcuda.so.1)
// or on fa4-emu (libfa4emu.so): emu/micro/micro.cpp and
// emu/second-opinion/fa4cute-run.cpp. Header only; errors are exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_MICRO_DRIVER_H
#define FA4_EMU_MICRO_DRIVER_H

#include <cuda.h>

#include <dlfcn.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fa4::emu::micro {

/// A driver library opened with dlopen; get<F>() looks an entry point up.
struct Driver {
  void *library = nullptr;
  template <typename F> F get(const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol)
      throw std::runtime_error(std::string("missing ") + name);
    return reinterpret_cast<F>(symbol);
  }
  explicit Driver(const char *path) : library(dlopen(path, RTLD_NOW)) {
    if (!library)
      throw std::runtime_error(std::string("cannot open ") + path + ": " +
                               dlerror());
  }
};

inline void check(CUresult result, const std::string &what) {
  if (result != CUDA_SUCCESS)
    throw std::runtime_error(what + " failed: " + std::to_string(int(result)));
}

inline std::string readFile(const std::string &path) {
  std::ifstream file(path);
  if (!file)
    throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

} // namespace fa4::emu::micro

#endif // FA4_EMU_MICRO_DRIVER_H
