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
