//===- Error.h - Errors thrown inside the runtime ---------------*- C++ -*-===//
//
// The runtime throws fa4::rt::Error internally; the C API catches it and
// turns it into an fa4_status plus the thread's last-error message.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_ERROR_H
#define FA4_RUNTIME_ERROR_H

#include "fa4-c/Runtime.h"

#include <stdexcept>
#include <string>

namespace fa4::rt {

class Error : public std::runtime_error {
public:
  Error(fa4_status status, const std::string &message)
      : std::runtime_error(message), status(status) {}
  fa4_status status;
};

} // namespace fa4::rt

#endif // FA4_RUNTIME_ERROR_H
